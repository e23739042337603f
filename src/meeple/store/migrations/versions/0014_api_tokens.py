"""API tokens and bot accounts: ``api_tokens`` (an account's personal tokens, kept by the
SHA-256 of their secret) and ``accounts.kind`` (``person``, or ``bot``: a bot account plays
only through the API with a token; see ``server/features/accounts/README.md``).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False,
                                   server_default="person"))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_account_id", table_name="api_tokens")
    op.drop_table("api_tokens")
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0013's downgrade: never a batch copy
    # of ``accounts``, whose drop would cascade to the rows that refer to it
    op.execute("ALTER TABLE accounts DROP COLUMN kind")
