"""Idempotency keys for table creation, joining and leaving; the version each move id was
acknowledged at.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("salt", sa.String(32), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("move_log", sa.Column("acked", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("move_log", "acked")
    op.drop_table("idempotency_keys")
