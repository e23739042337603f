"""Tournaments: ``tournaments`` (a Swiss, Arena or round robin: game, variant, seats, pace,
start, rounds or length, rated, bots allowed), ``tournament_entries`` (an account in one, its
rating when it entered, when it withdrew), ``tournament_rounds`` (a round paired: unique per
tournament and number, so only one server process pairs it) and ``tournament_pairings`` (a
table the round made, or a bye).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("creator_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("variant", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("pace", sa.String(12), nullable=False),
        sa.Column("clock", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("duration", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled", sa.String(200), nullable=True),
    )
    op.create_index("ix_tournaments_creator_id", "tournaments", ["creator_id"])
    op.create_index("ix_tournaments_state_starts", "tournaments", ["state", "starts"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("tournament_id", "account_id"),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries",
                    ["tournament_id"])
    op.create_index("ix_tournament_entries_account_id", "tournament_entries", ["account_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("paired", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer(),
                  sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True,
                  unique=True),
        sa.Column("bye_account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    )
    op.create_index("ix_tournament_pairings_round_id", "tournament_pairings", ["round_id"])
    op.create_index("ix_tournament_pairings_bye_account_id", "tournament_pairings",
                    ["bye_account_id"])


def downgrade() -> None:
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
