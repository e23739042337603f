"""Who created a table (a digest of the client's address), to cap the open tables a client holds
; the lobby's pages by status and last change.

Idempotency keys are now kept under a digest that includes their client's: a key stored before
this migration is not found again (a retry across the upgrade is a new request).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.create_index("ix_game_tables_creator", ["creator"])
        batch.create_index("ix_game_tables_status_updated", ["status", "updated"])


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_status_updated")
        batch.drop_index("ix_game_tables_creator")
        batch.drop_column("creator")
