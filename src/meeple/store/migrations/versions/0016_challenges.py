"""Challenges: ``challenges`` (an account asks another to a game: game, variant, seats, who
fills the others, pace, rated; open until accepted, declined, canceled or expired; the table
an accepted one made). See ``server/features/challenges/rows.py``.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenger_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("challenged_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("variant", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("challenger_seat", sa.Integer(), nullable=True),
        sa.Column("others", sa.JSON(), nullable=False),
        sa.Column("pace", sa.String(12), nullable=False),
        sa.Column("clock", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("reason", sa.String(40), nullable=True),
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_challenges_challenged_state", "challenges", ["challenged_id", "state"])
    op.create_index("ix_challenges_challenger_state", "challenges", ["challenger_id", "state"])


def downgrade() -> None:
    op.drop_index("ix_challenges_challenger_state", table_name="challenges")
    op.drop_index("ix_challenges_challenged_state", table_name="challenges")
    op.drop_table("challenges")
