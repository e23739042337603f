"""Passkeys: ``passkeys`` (an account's WebAuthn credentials: the credential id, its
public key, the signature counter, the transports, a name, created and last used) and
``passkey_challenges`` (the challenges of ceremonies under way, single use, with an expiry).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("credential_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(12), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("data", sa.JSON(), nullable=True),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_passkey_challenges_expires", "passkey_challenges")
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_account_id", "passkeys")
    op.drop_table("passkeys")
