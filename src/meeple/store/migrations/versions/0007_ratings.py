"""Ratings: ``game_tables.rated`` (rated or casual), ``seats.forfeit`` (a person who
left a rated game while it ran: last place), ``ratings`` (an account's or a bot difficulty's
rating per game: OpenSkill's mu and sigma, the leaderboard's ordinal, games) and
``rating_history`` (each rated game's rating before and after, and the place).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ALTER TABLE ADD COLUMN on both databases: a batch copy of SQLite's game_tables
    # would drop the old table, and its seats and log with it (their foreign keys cascade)
    op.add_column("game_tables", sa.Column("rated", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("seats", sa.Column("forfeit", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("subject", "game"),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("subject", "table_id"),
    )
    op.create_index("ix_rating_history_subject_game", "rating_history",
                    ["subject", "game", "at"])
    op.create_index("ix_rating_history_table_id", "rating_history", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_table_id", "rating_history")
    op.drop_index("ix_rating_history_subject_game", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_ordinal", "ratings")
    op.drop_table("ratings")
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later): no copy of the tables (see upgrade)
    op.execute("ALTER TABLE seats DROP COLUMN forfeit")
    op.execute("ALTER TABLE game_tables DROP COLUMN rated")
