"""Solo claims: ``solo_claims``, the names whose finished solo games an account
claimed (once per name and game, one name per account and game).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solo_claims",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(60), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "account_id"),
    )


def downgrade() -> None:
    op.drop_table("solo_claims")
