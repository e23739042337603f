"""Places with forfeits: ``seats.forfeit_order``, the order in which the seats of a
table forfeited its game (1 for the first person to concede or leave a rated game, 2 for the
next; None for a seat that played on). The first to forfeit is placed last. Seats that
forfeited before this column existed get order 1 (they shared the last place then, and
still do among themselves).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("forfeit_order", sa.Integer(), nullable=True))
    op.execute("UPDATE seats SET forfeit_order = 1 WHERE forfeit")


def downgrade() -> None:
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0007's downgrade
    op.execute("ALTER TABLE seats DROP COLUMN forfeit_order")
