"""Turn-based tables and mail: a table's ``pace`` (``live`` or ``turn-based``) and a
turn-based table's time ``bank`` per seat (seconds); ``seats.back_at`` (when a person last took
the seat back from the stand-in: their move's time starts again then); an account's e-mail
address, whether it was verified and its mail preferences (``notify``); ``mail_outbox``, one row
per mail to send (claimed by one server process at a time, retried with backoff).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("pace", sa.String(12), nullable=False,
                                   server_default="live"))
        batch.add_column(sa.Column("bank", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("back_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("notify", sa.JSON(), nullable=True))
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_try", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_mail_outbox_state_next", "mail_outbox", ["state", "next_try"])


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_state_next", "mail_outbox")
    op.drop_table("mail_outbox")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("notify")
        batch.drop_column("email_verified")
        batch.drop_column("email")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("back_at")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("bank")
        batch.drop_column("pace")
