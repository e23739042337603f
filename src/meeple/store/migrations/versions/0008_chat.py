"""Table chat: ``chat_messages`` (a table's messages: when, the seat or none for a
spectator, the author's account if any, the name shown, the text, a hidden flag) and
``chat_reports`` (reports kept for the moderators: the message, the reporter, as an account
id or a digest of the client's address, the reason and when; one per reporter and message).

The lead chains it after the other branches' 0005-0007 when they are merged.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id_id", "chat_messages", ["table_id", "id"])
    op.create_index("ix_chat_messages_account_id", "chat_messages", ["account_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(),
                  sa.ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("message_id", "reporter"),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_index("ix_chat_reports_at", "chat_reports", ["at"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_at", "chat_reports")
    op.drop_index("ix_chat_reports_message_id", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_account_id", "chat_messages")
    op.drop_index("ix_chat_messages_table_id_id", "chat_messages")
    op.drop_table("chat_messages")
