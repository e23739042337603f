"""Life at a table: a finished table's rematch (``game_tables.rematch``: the one new
table every person of it is invited to), how a table ended when not by its game's end
(``game_tables.ended``: ``abandoned``), and a seat whose person conceded (``seats.conceded``:
its stand-in plays it to the end, for good).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("conceded", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("conceded")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("ended")
        batch.drop_column("rematch")
