"""Mail: an account's e-mail address and preferences, and the outbox.

The outbox is a table with a row per mail. A row is queued with a ``key`` naming what it is
about (``turn:<table>:<seat>:<turn>``), unique, so a turn seen by two server processes is
queued once. A process sends a row only after claiming it with a guarded update (``state``
``queued`` and due, or ``sending`` whose claim lapsed), so two processes never both send it;
a row is retried with backoff until it is sent or its tries are spent. Every method is one
short transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.server.features.mail.rows import FAILED, QUEUED, SENDING, SENT, MailRow
from meeple.store.account_data import on_account_erased, on_account_exported
from meeple.store.models import HUMAN, AccountRow, AccountSeatRow, SeatRow, aware, now
from meeple.store.store import Store, StoreError

#: The kinds of mail a person may turn off (the address's verification is always sent).
KINDS = ("turn", "ended", "rematch", "challenge")


@dataclass(frozen=True)
class Mail:
    """A mail claimed to be sent."""

    id: int
    key: str
    account_id: str
    kind: str
    to: str
    subject: str
    body: str
    headers: dict[str, str]
    tries: int


@dataclass(frozen=True)
class Recipient:
    """A seat's account that may be mailed: its verified address and preferences."""

    seat: int
    account_id: str
    email: str
    notify: dict[str, bool]
    absent: bool
    conceded: bool


def preferences(stored: Mapping[str, Any] | None) -> dict[str, bool]:
    """Every kind's preference (on unless turned off)."""
    stored = stored or {}
    return {k: stored.get(k) is not False for k in KINDS}


class Mailbox:
    """The accounts' addresses and the outbox of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ addresses
    def set_email(self, account_id: str, email: str | None) -> None:
        """A new address (unverified), or none."""
        with self.store.writing() as s:
            done = s.execute(update(AccountRow).where(AccountRow.id == account_id,
                                                      AccountRow.deleted.is_(False))
                             .values(email=email, email_verified=False))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise StoreError("this account was deleted")

    def verify(self, account_id: str, email: str) -> bool:
        """Mark the account's address verified if it is still ``email``: whether it is."""
        with self.store.writing() as s:
            done = s.execute(update(AccountRow).where(
                AccountRow.id == account_id, AccountRow.deleted.is_(False),
                AccountRow.email == email).values(email_verified=True))
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def contact(self, account_id: str) -> tuple[str | None, bool, dict[str, bool]] | None:
        """The account's address, whether it is verified, and its preferences (None: no such
        live account)."""
        with self.store.session() as s:
            return _contact(s, account_id)

    def set_notify(self, account_id: str, changes: Mapping[str, bool]) -> dict[str, bool]:
        """Change some of the account's preferences: all of them after."""
        with self.store.writing() as s:
            row = s.get(AccountRow, account_id)
            if row is None or row.deleted:
                raise StoreError("this account was deleted")
            prefs = preferences(row.notify)
            prefs.update({k: bool(v) for k, v in changes.items() if k in KINDS})
            row.notify = prefs
            return prefs

    def recipients(self, table_id: str) -> list[Recipient]:
        """The person's seats of a table held by an account with a verified address."""
        with self.store.session() as s:
            rows = s.execute(
                select(AccountSeatRow.seat, AccountRow.id, AccountRow.email, AccountRow.notify,
                       SeatRow.absent, SeatRow.conceded)
                .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                .join(SeatRow, (SeatRow.table_id == AccountSeatRow.table_id)
                      & (SeatRow.index == AccountSeatRow.seat))
                .where(AccountSeatRow.table_id == table_id, SeatRow.kind == HUMAN,
                       AccountRow.deleted.is_(False), AccountRow.email_verified.is_(True),
                       AccountRow.email.is_not(None))
                .order_by(AccountSeatRow.seat)).all()
        return [Recipient(r.seat, r.id, str(r.email), preferences(r.notify), bool(r.absent),
                          bool(r.conceded)) for r in rows]

    # ------------------------------------------------------------------ the outbox
    def enqueue(self, key: str, account_id: str, kind: str, to: str, subject: str, body: str,
                headers: Mapping[str, str] | None = None) -> bool:
        """Queue a mail under ``key``: False if a mail of that key was queued before (by this
        process or another), and nothing is queued then."""
        when = now()
        try:
            with self.store.writing() as s:
                if s.scalar(select(MailRow.id).where(MailRow.key == key)) is not None:
                    return False
                s.add(MailRow(key=key[:120], account_id=account_id, kind=kind, to_addr=to,
                              subject=subject[:200], body=body, headers=dict(headers or {}),
                              state=QUEUED, tries=0, next_try=when, created=when))
        except IntegrityError:  # queued by another process at the same moment
            return False
        return True

    def queued_since(self, account_id: str, kind: str, since: datetime) -> int:
        """How many mails of ``kind`` were queued for the account since ``since``."""
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(MailRow).where(
                MailRow.account_id == account_id, MailRow.kind == kind,
                MailRow.created >= since)) or 0)

    def claim(self, who: str, limit: int, lease: float) -> list[Mail]:
        """Claim up to ``limit`` mails that are due (queued, or being sent by a process whose
        claim lapsed ``lease`` seconds after it was made): each claimed row is this
        process's alone until it is marked sent, failed or queued again."""
        when = now()
        due = or_(MailRow.state == QUEUED, MailRow.state == SENDING)
        with self.store.session() as s:
            ids = list(s.scalars(select(MailRow.id).where(due, MailRow.next_try <= when)
                                 .order_by(MailRow.next_try, MailRow.id).limit(limit)))
        got: list[Mail] = []
        for mail_id in ids:
            with self.store.writing() as s:
                done = s.execute(update(MailRow).where(
                    MailRow.id == mail_id, due, MailRow.next_try <= when)
                    .values(state=SENDING, claimed_by=who[:32],
                            next_try=when + timedelta(seconds=lease),
                            tries=MailRow.tries + 1))
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    continue  # another process claimed it first
                row = s.get(MailRow, mail_id)
                assert row is not None
                got.append(Mail(row.id, row.key, row.account_id, row.kind, row.to_addr,
                                row.subject, row.body, dict(row.headers or {}), row.tries))
        return got

    def sent(self, mail_id: int, who: str) -> None:
        self._settle(mail_id, who, state=SENT, sent=now(), error=None)

    def again(self, mail_id: int, who: str, error: str, after: float) -> None:
        """Not sent this time: tried again ``after`` seconds from now."""
        self._settle(mail_id, who, state=QUEUED, error=error[:300],
                     next_try=now() + timedelta(seconds=after))

    def failed(self, mail_id: int, who: str, error: str) -> None:
        """Given up on: its tries are spent, or the mail server refused it for good."""
        self._settle(mail_id, who, state=FAILED, error=error[:300])

    def _settle(self, mail_id: int, who: str, **values: Any) -> None:
        with self.store.writing() as s:  # only while this process's claim holds
            s.execute(update(MailRow).where(MailRow.id == mail_id, MailRow.state == SENDING,
                                            MailRow.claimed_by == who[:32]).values(**values))

    def mails(self, account_id: str | None = None) -> list[dict[str, Any]]:
        """The outbox's rows (of one account), oldest first: for tests and the operator."""
        q = select(MailRow).order_by(MailRow.id)
        if account_id is not None:
            q = q.where(MailRow.account_id == account_id)
        with self.store.session() as s:
            return [{"id": r.id, "key": r.key, "kind": r.kind, "to": r.to_addr,
                     "state": r.state, "tries": r.tries, "error": r.error,
                     "created": aware(r.created).isoformat()} for r in s.scalars(q)]


def _contact(s: Session, account_id: str) -> tuple[str | None, bool, dict[str, bool]] | None:
    row = s.get(AccountRow, account_id)
    if row is None or row.deleted:
        return None
    return row.email, bool(row.email_verified), preferences(row.notify)


@on_account_exported("mail")
def exported_contact(s: Session, account_id: str) -> dict[str, Any]:
    """The account's export's ``mail``: its e-mail address as kept (null: none), whether it
    was verified, and which mails it asks for."""
    got = _contact(s, account_id)
    email, verified, notify = got if got is not None else (None, False, {})
    return {"email": email, "email_verified": verified, "notify": notify}


@on_account_erased
def forget_mail(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction (:mod:`meeple.store.account_data`): its outbox rows go
    (queued mails are never sent; its address goes with the account's row)."""
    s.execute(delete(MailRow).where(MailRow.account_id == account_id))


__all__ = ["KINDS", "Mail", "Mailbox", "Recipient", "exported_contact", "forget_mail", "preferences"]
