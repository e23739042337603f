"""A table's chat: its messages, the reports of them and the moderators' hiding, on
the :class:`Store`'s engine (SQLite or PostgreSQL).

A message is kept with the table, the time, the seat that posted it (None: a signed-in
spectator), the author's account where there is one (a seat an account holds, a signed-in
spectator), the name shown as it was when posted, the text (checked by the server before it
comes here) and a hidden flag: a hidden message is kept for the moderators and shown to nobody.
A report is kept once per reporter (``a:`` an account id, ``c:`` a digest of the client's
address) and message. On PostgreSQL a new message is announced to the other server processes
with the table's notice (:meth:`Store._notify`) under the version code :data:`CHAT_NOTICE`, a
hidden one under :data:`HIDDEN_NOTICE`. Every method is one short transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.server.features.chat.rows import ChatMessageRow, ChatReportRow
from meeple.store.account_data import DELETED_PLAYER, on_account_erased, on_account_exported
from meeple.store.models import AccountRow, AccountSeatRow, aware, now
from meeple.store.store import NotFound, Store, valid_table_id

#: The version code of a notice that says: a new chat message at this table.
CHAT_NOTICE = -2
#: The version code of a notice that says: a chat message of this table was hidden (or shown
#: again) by a moderator.
HIDDEN_NOTICE = -3
#: The messages a client gets when it asks for the chat (the hello), and a page's default.
RECENT = 50
#: The most messages one page of history holds.
MAX_PAGE = 100
#: The reasons of one message a moderator is shown (newest first).
REASONS_SHOWN = 10


@dataclass(frozen=True)
class ChatMessage:
    """A message as the store keeps it."""

    id: int
    table_id: str
    at: datetime
    seat: int | None
    account_id: str | None
    name: str
    text: str
    hidden: bool = False

    @property
    def author(self) -> str:
        """The key of its author (:func:`author_key`)."""
        return author_key(self.table_id, self.seat, self.account_id)


def author_key(table_id: str, seat: int | None, account_id: str | None) -> str:
    """A key that names a message's author, to mute them by: the same for every message of
    one account (at every table), else of one seat at one table. Opaque: it never shows the
    account's id."""
    if account_id is not None:
        digest = hashlib.sha256(f"meeple-chat-author\0{account_id}".encode())
        return "a" + digest.hexdigest()[:20]
    return f"s{seat}-{table_id}"


@dataclass(frozen=True)
class Reported:
    """A reported message, for the moderators: how many reported it, their reasons (newest
    first, at most :data:`REASONS_SHOWN`), the last report's time and the author's username
    (None for a guest's seat or a deleted account)."""

    message: ChatMessage
    reporters: int
    reasons: tuple[str, ...]
    last: datetime
    username: str | None


def _message(row: ChatMessageRow) -> ChatMessage:
    return ChatMessage(row.id, row.table_id, aware(row.at), row.seat, row.account_id, row.name,
                       row.text, row.hidden)


class Chat:
    """The chat of every table of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ messages
    def holder(self, table_id: str, seat: int) -> str | None:
        """The account that holds the seat, if any (its messages are that account's)."""
        if not valid_table_id(table_id):
            return None
        with self.store.session() as s:
            return s.scalar(select(AccountSeatRow.account_id).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat))

    def post(self, table_id: str, seat: int | None, account_id: str | None, name: str,
             text: str) -> ChatMessage:
        """Keep a new message (``text`` as the server checked it) and announce it to the other
        server processes (:data:`CHAT_NOTICE`, delivered at commit)."""
        if not valid_table_id(table_id):
            raise NotFound(f"no table {table_id[:40]!r}")
        with self.store.writing() as s:
            row = ChatMessageRow(table_id=table_id, at=now(), seat=seat, account_id=account_id,
                                 name=name, text=text, hidden=False)
            s.add(row)
            s.flush()
            self.store._notify(s, table_id, CHAT_NOTICE)
            return _message(row)

    def recent(self, table_id: str, limit: int = RECENT) -> list[ChatMessage]:
        """The table's last ``limit`` messages not hidden, oldest first."""
        return self.page(table_id, limit=limit)[0]

    def page(self, table_id: str, after: int | None = None, before: int | None = None,
             limit: int = RECENT) -> tuple[list[ChatMessage], bool]:
        """A page of the table's messages not hidden, oldest first, and whether there are more
        beyond it: the first ``limit`` after message id ``after``, or the last ``limit``
        before id ``before``, or (neither) the last ``limit`` of all."""
        limit = max(1, min(limit, MAX_PAGE))
        if not valid_table_id(table_id):
            return [], False
        q = select(ChatMessageRow).where(ChatMessageRow.table_id == table_id,
                                         ChatMessageRow.hidden.is_(False))
        with self.store.session() as s:
            if after is not None:
                rows = list(s.scalars(q.where(ChatMessageRow.id > after)
                                      .order_by(ChatMessageRow.id).limit(limit + 1)))
                return [_message(r) for r in rows[:limit]], len(rows) > limit
            if before is not None:
                q = q.where(ChatMessageRow.id < before)
            rows = list(s.scalars(q.order_by(ChatMessageRow.id.desc()).limit(limit + 1)))
            return [_message(r) for r in reversed(rows[:limit])], len(rows) > limit

    def get(self, message_id: int) -> ChatMessage | None:
        with self.store.session() as s:
            row = s.get(ChatMessageRow, message_id)
            return None if row is None else _message(row)

    def hidden_ids(self, table_id: str, limit: int = 200) -> list[int]:
        """The ids of the table's hidden messages (the newest ``limit``)."""
        if not valid_table_id(table_id):
            return []
        with self.store.session() as s:
            return sorted(s.scalars(select(ChatMessageRow.id).where(
                ChatMessageRow.table_id == table_id, ChatMessageRow.hidden.is_(True))
                .order_by(ChatMessageRow.id.desc()).limit(limit)))

    # ------------------------------------------------------------------ reports
    def report(self, table_id: str, message_id: int, reporter: str, reason: str) -> bool:
        """Keep a report of a message of this table: True if it is new, False if this
        reporter reported the message already (nothing changed). :class:`NotFound` for no
        such message at the table (or a hidden one)."""
        found = self.get(message_id)
        if found is None or found.table_id != table_id or found.hidden:
            raise NotFound(f"no chat message {message_id} at this table (it may have been "
                           "removed by a moderator)")
        try:
            with self.store.writing() as s:
                if s.scalar(select(ChatReportRow.id).where(
                        ChatReportRow.message_id == message_id,
                        ChatReportRow.reporter == reporter)) is not None:
                    return False
                s.add(ChatReportRow(message_id=message_id, reporter=reporter, reason=reason,
                                    at=now()))
        except IntegrityError:  # the same report at the same moment: kept once
            return False
        return True

    def reports(self, limit: int = 20, hidden: bool = False) -> list[Reported]:
        """The reported messages, the most recently reported first (``limit`` of them);
        messages already hidden only with ``hidden``."""
        with self.store.session() as s:
            q = (select(ChatReportRow.message_id, func.count(ChatReportRow.id),
                        func.max(ChatReportRow.at))
                 .join(ChatMessageRow, ChatMessageRow.id == ChatReportRow.message_id)
                 .group_by(ChatReportRow.message_id)
                 .order_by(func.max(ChatReportRow.at).desc(), ChatReportRow.message_id.desc())
                 .limit(max(1, limit)))
            if not hidden:
                q = q.where(ChatMessageRow.hidden.is_(False))
            groups = s.execute(q).all()
            out = []
            for message_id, count, last in groups:
                row = s.get(ChatMessageRow, message_id)
                assert row is not None
                reasons = tuple(s.scalars(select(ChatReportRow.reason).where(
                    ChatReportRow.message_id == message_id)
                    .order_by(ChatReportRow.at.desc(), ChatReportRow.id.desc())
                    .limit(REASONS_SHOWN)))
                username = None
                if row.account_id is not None:
                    username = s.scalar(select(AccountRow.username).where(
                        AccountRow.id == row.account_id, AccountRow.deleted.is_(False)))
                out.append(Reported(_message(row), int(count), reasons, aware(last),
                                    username or None))
            return out

    def hide(self, message_id: int, hidden: bool = True) -> ChatMessage:
        """Hide a message from everyone (or show it again): history leaves it out, and the
        server processes tell their clients (:data:`HIDDEN_NOTICE`). :class:`NotFound` for no
        such message."""
        with self.store.writing() as s:
            row = s.get(ChatMessageRow, message_id)
            if row is None:
                raise NotFound(f"no chat message {message_id}")
            row.hidden = hidden
            s.flush()
            self.store._notify(s, row.table_id, HIDDEN_NOTICE)
            return _message(row)


@on_account_exported("chat")
def exported_messages(s: Session, account_id: str) -> list[dict[str, Any]]:
    """The account's export's ``chat``: every message it posted (hidden ones too), oldest
    first."""
    return [{"table": m.table_id, "at": m.at.isoformat(), "seat": m.seat, "name": m.name,
             "text": m.text, "hidden": m.hidden}
            for m in map(_message, s.scalars(select(ChatMessageRow).where(
                ChatMessageRow.account_id == account_id).order_by(ChatMessageRow.id)))]


@on_account_erased
def forget_author(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction (:mod:`meeple.store.account_data`): the messages of the
    account, and those of the seats it held that no account posted (a guest's seat claimed
    later), show :data:`~meeple.store.account_data.DELETED_PLAYER` from now on; their text is
    kept."""
    s.execute(update(ChatMessageRow).where(ChatMessageRow.account_id == account_id)
              .values(name=DELETED_PLAYER))
    pairs = list(seats)
    for start in range(0, len(pairs), 500):
        s.execute(update(ChatMessageRow).where(
            ChatMessageRow.account_id.is_(None),
            tuple_(ChatMessageRow.table_id, ChatMessageRow.seat).in_(pairs[start:start + 500]))
            .values(name=DELETED_PLAYER))


__all__ = ["CHAT_NOTICE", "HIDDEN_NOTICE", "MAX_PAGE", "RECENT", "Chat", "ChatMessage",
           "Reported", "author_key", "exported_messages", "forget_author"]
