"""Look-alike usernames: ``accounts.username_skeleton``, the UTS #39 confusable
skeleton of the username's key, unique (``ореоаа`` beside ``opeoaa`` is refused at sign-up).

Every live account is given its skeleton. Accounts whose usernames already looked alike keep
them (nobody is renamed): the oldest holds the skeleton itself, each later one
``skeleton#<its id>``, so the unique index holds and no new username may look like any of
them. Deleted accounts hold none.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from meeple.store.lookalike import username_skeleton

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(200), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.String), sa.column("created", sa.DateTime),
                        sa.column("username_key", sa.String),
                        sa.column("username_skeleton", sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.username_key)
                        .where(accounts.c.username_key.is_not(None))
                        .order_by(accounts.c.created, accounts.c.id)).all()
    held: set[str] = set()
    for account_id, key in rows:
        shape = username_skeleton(key)
        kept = shape if shape not in held else f"{shape}#{account_id}"
        held.add(shape)
        conn.execute(accounts.update().where(accounts.c.id == account_id)
                     .values(username_skeleton=kept))
    op.create_index("ix_accounts_username_skeleton", "accounts", ["username_skeleton"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_username_skeleton", table_name="accounts")
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0007's downgrade: never a batch copy
    # of ``accounts``, whose drop would cascade to the rows that refer to it
    op.execute("ALTER TABLE accounts DROP COLUMN username_skeleton")
