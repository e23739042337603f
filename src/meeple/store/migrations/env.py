"""Alembic environment: run by :func:`meeple.store.migrate` with a live connection."""

from __future__ import annotations

from alembic import context

from meeple.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
