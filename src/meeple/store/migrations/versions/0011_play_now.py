"""Play now's queue: ``play_queue``, one row per account waiting (or just seated):
its game, variant and seats (``bucket``: who may be seated together), its rating when it asked,
whether bots may fill its table, when it asked and was last seen, and the table and seat given.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_queue",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("variant", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("bucket", sa.String(400), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
    )
    op.create_index("ix_play_queue_bucket", "play_queue", ["state", "game", "bucket"])


def downgrade() -> None:
    op.drop_index("ix_play_queue_bucket", "play_queue")
    op.drop_table("play_queue")
