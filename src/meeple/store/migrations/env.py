"""Alembic environment: run by :meth:`meeple.store.Store.migrate` with a live connection.

The migrations are written by hand; ``target_metadata`` serves autogenerate only. The rows are
spread over the store's base and the features' packages (``meeple.server.features.*.rows``),
and the store never imports the server, so whoever runs autogenerate passes the full metadata
in as ``config.attributes["target_metadata"]`` (``meeple.server.features.load_stores()``
returns it; tests/server/test_store_schema.py checks that the migrations build exactly it);
without it, only the rows imported so far are compared."""

from __future__ import annotations

from alembic import context

from meeple.store.models import Base

connection = context.config.attributes["connection"]
target_metadata = context.config.attributes.get("target_metadata", Base.metadata)
context.configure(connection=connection, target_metadata=target_metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
