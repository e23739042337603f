"""Accounts, their sessions and the seats they hold, on the :class:`Store`'s engine.

Accounts are optional: a seat is still taken and played by its secret alone. An account keeps
a username (unique case-insensitively: its case-folded form is the unique key), a display name,
an argon2id hash of its password (made by the server; the store never sees a password), the
page settings and a deleted flag. A session is a signed-in browser, kept under the SHA-256 of
the random token of its cookie. ``account_seats`` says which account holds a seat (one at
most). Every method is one short transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Text, cast, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from meeple.core.state import places_with_forfeits
from meeple.server.features.accounts.rows import (
    ApiTokenRow,
    PasskeyChallengeRow,
    PasskeyRow,
    ServerSecretRow,
    SessionRow,
    SoloClaimRow,
)
from meeple.store.account_data import DELETED_PLAYER, run_account_erased
from meeple.store.lookalike import username_skeleton
from meeple.store.models import (
    BOT_ACCOUNT,
    FINISHED,
    HUMAN,
    PERSON,
    WAITING,
    AccountRow,
    AccountSeatRow,
    SeatRow,
    TableRow,
    aware,
    now,
)
from meeple.store.store import (
    NotFound,
    SeatError,
    Store,
    StoreError,
    Table,
    _table,
    account_seat_name,
    hash_secret,
    open_seat_name,
    result_total,
    valid_table_id,
)

#: The most seats one claim may name.
MAX_CLAIM = 100
#: The most tables one claim of a name's solo games moves.
MAX_NAME_CLAIM = 1000
#: Names that are nobody's: a deleted account's seats, a seat nobody named, the lobby's
#: name for a player who typed none. Their tables are never claimed by name.
UNCLAIMABLE = ("deleted player", "player")


def claimable_name(name: str) -> bool:
    """Whether the solo games kept under seat name ``name`` may be claimed by name (not a
    name that is nobody's: :data:`UNCLAIMABLE`, or ``seat N``)."""
    low = name.casefold()
    return low not in UNCLAIMABLE and not (low.startswith("seat ") and low[5:].isdigit())


def name_clash(s: Session, username: str, key: str) -> str | None:
    """Why ``username`` (its case-folded ``key``) cannot be a new account's, or None: an
    account has that key, or a username that looks the same (the same UTS #39 skeleton:
    ``ореоаа`` beside ``opeoaa``, ``ınfo`` beside ``info``). Deleted accounts hold neither."""
    if s.scalar(select(AccountRow.id).where(AccountRow.username_key == key)):
        return f"the username {username!r} is taken; choose another"
    shape = username_skeleton(key)
    other = s.scalar(select(AccountRow.username).where(
        (AccountRow.username_skeleton == shape) |
        AccountRow.username_skeleton.startswith(shape + "#", autoescape=True)).limit(1))
    if other is not None:
        return (f"the username {username!r} looks the same as {other!r}, another account's "
                f"(letters of other scripts or look-alike characters, compared by their "
                f"Unicode confusable skeleton); choose another")
    return None


class UsernameTaken(StoreError):
    """A sign-up under a username another account has (case-insensitively)."""


class NameClaimed(StoreError):
    """A claim of a name's solo games that was made already: the name was claimed (by any
    account), or the account claimed a name before. Nothing was changed."""


class NothingToClaim(NotFound):
    """A claim of a name's solo games that finds none free to claim. Nothing was changed."""


@dataclass(frozen=True)
class PlayedSeat:
    """A seat an account holds at a finished table that was played to its end (the rows
    the profile's numbers are counted from)."""

    table_id: str
    game: str
    variant: dict[str, Any]
    players: int
    result: list[Any]
    seat: int
    #: each seat's forfeit order at the table (None: played on to the end)
    forfeits: tuple[int | None, ...] = ()

    def places(self) -> list[int]:
        """Each seat's place: by total, the seats that forfeited below the others."""
        totals = [result_total(r) for r in self.result]
        forfeits = self.forfeits if len(self.forfeits) == len(totals) else (None,) * len(totals)
        return places_with_forfeits(totals, forfeits)


@dataclass(frozen=True)
class PlayedTable:
    """A finished table an account played: the table, the account's seats, and each seat
    held by a (live) account with its username and display name."""

    table: Table
    seats: tuple[int, ...]
    holders: dict[int, tuple[str, str]]


@dataclass(frozen=True)
class NameClaim:
    """A name whose solo games were claimed: by which account (None once deleted), when,
    and how many tables it moved."""

    name: str
    game: str
    username: str | None
    display_name: str
    created: datetime
    tables: int


@dataclass(frozen=True)
class Account:
    id: str
    username: str
    display_name: str
    created: datetime
    settings: dict[str, Any]
    deleted: bool = False
    #: the e-mail address (None: none given), whether it was verified, the mail preferences
    #:
    email: str | None = None
    email_verified: bool = False
    notify: dict[str, Any] | None = None
    #: ``person``, or ``bot``: a bot account plays only through the API with a token
    kind: str = PERSON

    @property
    def bot(self) -> bool:
        """Whether this is a bot account (marked BOT wherever its name shows)."""
        return self.kind == BOT_ACCOUNT


@dataclass(frozen=True)
class SessionInfo:
    """A signed-in browser (its id is the SHA-256 of its cookie's token)."""

    id: str
    account_id: str
    created: datetime
    last_seen: datetime
    expires: datetime
    user_agent: str | None


@dataclass(frozen=True)
class HeldTable:
    """A table where an account holds seats, and which."""

    table: Table
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Claim:
    """A seat a guest took by link, to claim into an account with its secret."""

    table_id: str
    seat: int
    secret: str


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.display_name, aware(row.created),
                   dict(row.settings or {}), row.deleted, row.email, bool(row.email_verified),
                   dict(row.notify) if isinstance(row.notify, dict) else None,
                   row.kind or PERSON)


def _session(row: SessionRow) -> SessionInfo:
    return SessionInfo(row.id, row.account_id, aware(row.created), aware(row.last_seen),
                       aware(row.expires), row.user_agent)


class Accounts:
    """The accounts of ``store`` (its engine and sessions)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ accounts
    def create(self, username: str, key: str, display_name: str, password_hash: str,
               settings: dict[str, Any]) -> Account:
        """A new account; :class:`UsernameTaken` if ``key`` (the case-folded username) or its
        look-alike skeleton is an account's already (:func:`name_clash`)."""
        row = AccountRow(id=secrets.token_hex(8), username=username, username_key=key,
                         username_skeleton=username_skeleton(key),
                         display_name=display_name, password_hash=password_hash,
                         created=now(), settings=dict(settings), deleted=False)
        try:
            with self.store.writing() as s:
                clash = name_clash(s, username, key)
                if clash is not None:
                    raise UsernameTaken(clash)
                s.add(row)
        except IntegrityError:  # signed up at the same time by another request
            with self.store.session() as s:
                clash = name_clash(s, username, key)
            raise UsernameTaken(clash or f"the username {username!r} is taken; choose "
                                         f"another") from None
        return _account(row)

    def find(self, key: str) -> tuple[Account, str] | None:
        """The account whose case-folded username is ``key`` and its password hash; None for
        no such account (or a deleted one)."""
        with self.store.session() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.username_key == key,
                                                    AccountRow.deleted.is_(False)))
            if row is None or row.password_hash is None:
                return None
            return _account(row), row.password_hash

    def get(self, account_id: str) -> Account | None:
        with self.store.session() as s:
            row = s.get(AccountRow, account_id)
            return None if row is None or row.deleted else _account(row)

    def password_hash(self, account_id: str) -> str | None:
        with self.store.session() as s:
            row = s.get(AccountRow, account_id)
            return None if row is None or row.deleted else row.password_hash

    def update(self, account_id: str, display_name: str | None = None,
               settings: dict[str, Any] | None = None) -> tuple[Account, list[str]]:
        """Change the display name and the settings (given ones only). A new display name
        renames every seat the account holds in the same transaction
        (:meth:`_name_held_seats`); returns the account and the ids of the tables whose seat
        was renamed (their clients are to be told)."""
        renamed: list[str] = []
        with self.store.writing() as s:
            row = s.get(AccountRow, account_id)
            if row is None or row.deleted:
                raise StoreError("this account was deleted")
            if display_name is not None:
                row.display_name = display_name
                s.flush()
                renamed = self._name_held_seats(s, account_id)
            if settings is not None:
                row.settings = dict(settings)
            s.flush()
            return _account(row), renamed

    def _name_held_seats(self, s: Session, account_id: str,
                         only: Sequence[tuple[str, int]] | None = None) -> list[str]:
        """Within transaction ``s``: name the seats the account holds (or those of ``only``)
        by its display name as it is now, as a seat taken signed in is named
        (:func:`~meeple.store.store.account_seat_name`), at waiting, running and finished
        tables alike: a table's answers, its record and replay, the lists, My games and the
        mails then all say the name the profile says. Returns the ids of the tables where a
        seat's name changed (each notified)."""
        name = account_seat_name(s, account_id)
        if name is None:
            return []
        held = s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat)
                         .where(AccountSeatRow.account_id == account_id)).all()
        wanted = None if only is None else set(only)
        renamed: list[str] = []
        for table_id, seat in held:
            if wanted is not None and (table_id, seat) not in wanted:
                continue
            done = s.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.index == seat, SeatRow.kind == HUMAN,
                SeatRow.name != name).values(name=name))
            if done.rowcount and table_id not in renamed:  # type: ignore[attr-defined]
                renamed.append(table_id)
                self.store._notify(s, table_id, -1)
        return renamed

    def set_password(self, account_id: str, password_hash: str) -> int:
        """A new password hash; every session of the account is revoked (how many)."""
        with self.store.writing() as s:
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=password_hash))
            return self._revoke_all(s, account_id)

    # ------------------------------------------------------------------ sessions
    def open_session(self, session_id: str, account_id: str, expires: datetime,
                     user_agent: str | None, keep: int, replaces: str | None = None) -> None:
        """A new session of ``account_id``. In the same transaction: the session this browser
        had (``replaces``, whatever account it was of) is revoked, the account's expired and
        revoked sessions are deleted, and beyond its ``keep`` newest live ones the oldest are
        revoked."""
        when = now()
        with self.store.writing() as s:
            if replaces is not None:
                s.execute(update(SessionRow).where(SessionRow.id == replaces)
                          .values(revoked=True))
            for row in s.scalars(select(SessionRow).where(SessionRow.account_id == account_id)):
                if row.revoked or aware(row.expires) <= when:
                    s.delete(row)
            s.add(SessionRow(id=session_id, account_id=account_id, created=when,
                             last_seen=when, expires=expires, user_agent=user_agent,
                             revoked=False))
            s.flush()
            live = list(s.scalars(select(SessionRow.id).where(
                SessionRow.account_id == account_id, SessionRow.revoked.is_(False))
                .order_by(SessionRow.created.desc(), SessionRow.id)))
            if len(live) > keep:
                s.execute(update(SessionRow).where(SessionRow.id.in_(live[keep:]))
                          .values(revoked=True))

    def session(self, session_id: str) -> tuple[SessionInfo, Account] | None:
        """The live session ``session_id`` (not revoked, not expired, of an account not
        deleted) and its account; None otherwise."""
        with self.store.session() as s:
            found = s.execute(select(SessionRow, AccountRow)
                              .join(AccountRow, AccountRow.id == SessionRow.account_id)
                              .where(SessionRow.id == session_id)).first()
            if found is None:
                return None
            row, account = found
            if row.revoked or account.deleted or aware(row.expires) <= now():
                return None
            return _session(row), _account(account)

    def slide(self, session_id: str, last_seen: datetime, expires: datetime) -> None:
        """A live session seen again: its new expiry (sliding)."""
        with self.store.writing() as s:
            s.execute(update(SessionRow).where(SessionRow.id == session_id,
                                               SessionRow.revoked.is_(False))
                      .values(last_seen=last_seen, expires=expires))

    def revoke(self, session_id: str) -> None:
        with self.store.writing() as s:
            s.execute(update(SessionRow).where(SessionRow.id == session_id).values(revoked=True))

    def revoke_all(self, account_id: str) -> int:
        """Revoke every session of the account (sign out everywhere): how many were live."""
        with self.store.writing() as s:
            return self._revoke_all(s, account_id)

    @staticmethod
    def _revoke_all(s: Session, account_id: str) -> int:
        done = s.execute(update(SessionRow).where(SessionRow.account_id == account_id,
                                                  SessionRow.revoked.is_(False))
                         .values(revoked=True))
        return int(done.rowcount)  # type: ignore[attr-defined]

    def sessions(self, account_id: str) -> list[SessionInfo]:
        """The account's live sessions, newest first."""
        when = now()
        with self.store.session() as s:
            rows = s.scalars(select(SessionRow).where(SessionRow.account_id == account_id,
                                                      SessionRow.revoked.is_(False))
                             .order_by(SessionRow.created.desc()))
            return [_session(r) for r in rows if aware(r.expires) > when]

    # ------------------------------------------------------------------ seats
    def hold(self, account_id: str, table_id: str, seat: int) -> bool:
        """Record that the account holds the seat (it took it while signed in). False if
        another account holds it (nothing changed)."""
        try:
            with self.store.writing() as s:
                return self._hold(s, account_id, table_id, seat)
        except IntegrityError:  # the same seat recorded at the same time
            return self.holds(account_id, table_id, seat)

    @staticmethod
    def _hold(s: Session, account_id: str, table_id: str, seat: int) -> bool:
        holder = s.scalar(select(AccountSeatRow.account_id).where(
            AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat))
        if holder is not None:
            return bool(holder == account_id)
        s.add(AccountSeatRow(table_id=table_id, seat=seat, account_id=account_id,
                             created=now()))
        s.flush()
        return True

    def holds(self, account_id: str, table_id: str, seat: int) -> bool:
        """Whether the account holds the seat."""
        if not valid_table_id(table_id):
            return False
        with self.store.session() as s:
            return s.scalar(select(AccountSeatRow.account_id).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat)) == account_id

    def seats_at(self, account_id: str, table_id: str) -> list[int]:
        """The seats the account holds at one table (none for an unknown table)."""
        if not valid_table_id(table_id):
            return []
        with self.store.session() as s:
            return list(s.scalars(select(AccountSeatRow.seat).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.account_id == account_id)
                .order_by(AccountSeatRow.seat)))

    def claim(self, account_id: str, claims: Sequence[Claim]
              ) -> tuple[list[tuple[str, int]], list[tuple[str, int, str]]]:
        """Claim the seats whose secret is right into the account: the seats claimed (or held
        by this account already: a retry claims again), and those refused with the reason
        (a wrong secret, no such seat, another account's); a refused seat changes nothing.
        A claimed seat's secret is revoked (:func:`revoke_seat_secret`): from now on the
        account holds it and its old secret opens it nowhere."""
        if len(claims) > MAX_CLAIM:
            raise StoreError(f"{len(claims)} seats named; a claim names at most {MAX_CLAIM}")
        done: list[tuple[str, int]] = []
        refused: list[tuple[str, int, str]] = []
        with self.store.writing() as s:
            for c in claims:
                known = valid_table_id(c.table_id)
                holder = s.scalar(select(AccountSeatRow.account_id).where(
                    AccountSeatRow.table_id == c.table_id,
                    AccountSeatRow.seat == c.seat)) if known else None
                if holder == account_id:  # claimed before (a retry): nothing to do
                    done.append((c.table_id, c.seat))
                    continue
                if holder is not None:  # its secret was revoked when it was claimed
                    refused.append((c.table_id, c.seat, "another account holds this seat; "
                                    "nothing was claimed"))
                    continue
                stored = s.scalar(select(SeatRow.secret_hash).where(
                    SeatRow.table_id == c.table_id, SeatRow.index == c.seat,
                    SeatRow.kind == HUMAN)) if known else None
                if stored is None or not hmac.compare_digest(stored, hash_secret(c.secret)):
                    refused.append((c.table_id, c.seat, "not the secret of this seat (or no "
                                    "such seat taken): nothing was claimed"))
                elif not self._hold(s, account_id, c.table_id, c.seat):  # (just now)
                    refused.append((c.table_id, c.seat, "another account holds this seat; "
                                    "nothing was claimed"))
                else:
                    revoke_seat_secret(s, c.table_id, c.seat)
                    self.store._notify(s, c.table_id, -1)
                    done.append((c.table_id, c.seat))
            self._name_held_seats(s, account_id, done)  # the account's seats bear its name
        return done, refused

    def revoke_seat_secrets(self, account_id: str) -> list[str]:
        """Revoke the secrets of every seat the account holds at a table not finished (sign
        out everywhere): a secret kept on any device (a page's storage, a script) opens none
        of them from now on; only a new session of the account does. The tables changed."""
        with self.store.writing() as s:
            held = list(s.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.seat)
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account_id, TableRow.status != FINISHED)))
            for table_id, seat in held:
                revoke_seat_secret(s, table_id, seat)
            tables = sorted({t for t, _ in held})
            for table_id in tables:
                self.store._notify(s, table_id, -1)
        return tables

    def tell_seats(self, account_id: str) -> list[str]:
        """The tables not finished where the account holds a seat, each announced as changed
        to the other server processes (PostgreSQL), so that a socket there which acts for
        the seat by a session looks again at once whether its session lives (sign-out)."""
        with self.store.writing() as s:
            tables = sorted(set(s.scalars(
                select(AccountSeatRow.table_id)
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account_id, TableRow.status != FINISHED))))
            for table_id in tables:
                self.store._notify(s, table_id, -1)
        return tables

    def seats(self, account_id: str) -> list[tuple[str, int]]:
        """The seats the account holds, as (table, seat)."""
        with self.store.session() as s:
            return [(r.table_id, r.seat) for r in s.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.seat)
                .where(AccountSeatRow.account_id == account_id)
                .order_by(AccountSeatRow.created, AccountSeatRow.table_id, AccountSeatRow.seat))]

    def tables(self, account_id: str, limit: int = 50, offset: int = 0,
               first: Sequence[str] = (), status: str | None = None
               ) -> tuple[list[HeldTable], int]:
        """A page of the tables where the account holds a seat: the ids in ``first`` (in
        their order; tables of the account) and then the others, newest change first (then
        by id); ``limit`` tables after the first ``offset``, and how many there are in all.
        With ``status``, only tables of that status (and ``first`` is not used)."""
        first = [] if status is not None else list(first)
        held = select(AccountSeatRow.table_id).where(AccountSeatRow.account_id == account_id)
        where: list[ColumnElement[bool]] = [TableRow.id.in_(held)]
        if status is not None:
            where.append(TableRow.status == status)
        with self.store.session() as s:
            total = int(s.scalar(select(func.count()).select_from(TableRow).where(*where)) or 0)
            ids = first[offset:offset + limit]
            rest = limit - len(ids)
            if rest > 0:
                q = select(TableRow.id).where(*where)
                if first:
                    q = q.where(TableRow.id.not_in(first))
                ids += list(s.scalars(q.order_by(TableRow.updated.desc(), TableRow.id)
                                      .limit(rest).offset(max(0, offset - len(first)))))
            rows = {r.id: r for r in s.scalars(select(TableRow).options(
                selectinload(TableRow.seats)).where(TableRow.id.in_(ids)))} if ids else {}
            mine: dict[str, list[int]] = {}
            if ids:
                for r in s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat).where(
                        AccountSeatRow.account_id == account_id,
                        AccountSeatRow.table_id.in_(ids)).order_by(AccountSeatRow.seat)):
                    mine.setdefault(r.table_id, []).append(r.seat)
            return [HeldTable(_table(rows[t]), tuple(mine.get(t, ())))
                    for t in ids if t in rows], total

    # ------------------------------------------------------------------ profiles
    def by_username(self, key: str) -> Account | None:
        """The (live) account whose case-folded username is ``key``, or None."""
        found = self.find(key)
        return None if found is None else found[0]

    @staticmethod
    def _played(account_id: str) -> list[ColumnElement[bool]]:
        """Finished tables played to their end (a result kept: not abandoned) where the
        account holds a seat."""
        held = select(AccountSeatRow.table_id).where(AccountSeatRow.account_id == account_id)
        return [TableRow.id.in_(held), TableRow.status == FINISHED,
                TableRow.result.is_not(None),  # an abandoned table keeps JSON null
                cast(TableRow.result, Text) != "null"]

    def played_seats(self, account_id: str, limit: int) -> list[PlayedSeat]:
        """The seats the account holds at finished tables played to their end, newest
        first, at most ``limit``."""
        q = (select(TableRow.id, TableRow.game, TableRow.variant, TableRow.players,
                    TableRow.result, AccountSeatRow.seat)
             .join(AccountSeatRow, AccountSeatRow.table_id == TableRow.id)
             .where(AccountSeatRow.account_id == account_id, *self._played(account_id))
             .order_by(TableRow.updated.desc(), TableRow.id, AccountSeatRow.seat).limit(limit))
        with self.store.session() as s:
            rows = [r for r in s.execute(q) if isinstance(r.result, list)]
            # the seats that forfeited, at the tables of those seats
            forfeited: dict[str, dict[int, int]] = {}
            for f in s.execute(select(SeatRow.table_id, SeatRow.index, SeatRow.forfeit_order)
                               .join(AccountSeatRow, AccountSeatRow.table_id == SeatRow.table_id)
                               .where(AccountSeatRow.account_id == account_id,
                                      SeatRow.forfeit_order.is_not(None))):
                forfeited.setdefault(f[0], {})[int(f[1])] = int(f[2] or 0)
        out = []
        for r in rows:
            orders = forfeited.get(r.id, {})
            out.append(PlayedSeat(r.id, r.game, dict(r.variant or {}), r.players,
                                  list(r.result), r.seat,
                                  tuple(orders.get(i) for i in range(len(r.result)))))
        return out

    def played_page(self, account_id: str, limit: int, offset: int
                    ) -> tuple[list[PlayedTable], int]:
        """A page of the finished tables the account played to their end, newest first:
        ``limit`` after the first ``offset``, and how many there are in all."""
        where = self._played(account_id)
        with self.store.session() as s:
            total = int(s.scalar(select(func.count()).select_from(TableRow).where(*where)) or 0)
            rows = list(s.scalars(select(TableRow).options(selectinload(TableRow.seats))
                                  .where(*where).order_by(TableRow.updated.desc(), TableRow.id)
                                  .limit(limit).offset(offset)))
            ids = [r.id for r in rows]
            holders: dict[str, dict[int, tuple[str, str]]] = {}
            mine: dict[str, list[int]] = {}
            if ids:
                for r in s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat,
                                          AccountRow.id, AccountRow.username,
                                          AccountRow.display_name, AccountRow.deleted)
                                   .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                                   .where(AccountSeatRow.table_id.in_(ids))
                                   .order_by(AccountSeatRow.seat)):
                    if r.id == account_id:
                        mine.setdefault(r.table_id, []).append(r.seat)
                    if not r.deleted:
                        holders.setdefault(r.table_id, {})[r.seat] = (r.username,
                                                                      r.display_name)
            return [PlayedTable(_table(r), tuple(mine.get(r.id, ())), holders.get(r.id, {}))
                    for r in rows], total

    def held_finished(self, account_id: str, game: str, players: int | None = None,
                      limit: int = 500) -> list[Table]:
        """Finished tables of ``game`` (public or not) where the account holds a seat, newest
        first; with ``players``, only tables of that many seats (1: solo games)."""
        held = select(AccountSeatRow.table_id).where(AccountSeatRow.account_id == account_id)
        q = (select(TableRow).options(selectinload(TableRow.seats))
             .where(TableRow.status == FINISHED, TableRow.game == game,
                    TableRow.id.in_(held)))
        if players is not None:
            q = q.where(TableRow.players == players)
        with self.store.session() as s:
            return [_table(r) for r in s.scalars(q.order_by(TableRow.updated.desc(),
                                                            TableRow.id).limit(limit))]

    # ------------------------------------------------------------------ solo claims by name
    def name_claim(self, game: str, name: str) -> NameClaim | None:
        """Who claimed the solo games of ``game`` under seat name ``name``, or None."""
        with self.store.session() as s:
            found = s.execute(select(SoloClaimRow, AccountRow)
                              .join(AccountRow, AccountRow.id == SoloClaimRow.account_id)
                              .where(SoloClaimRow.game == game, SoloClaimRow.name == name)
                              ).first()
            if found is None:
                return None
            claim, account = found
            return NameClaim(claim.name, claim.game,
                             None if account.deleted else account.username,
                             DELETED_PLAYER if account.deleted else account.display_name,
                             aware(claim.created), claim.tables)

    def claim_name(self, account_id: str, game: str, name: str) -> list[str]:
        """Claim into the account the finished, listed solo tables of ``game`` whose one seat,
        a person's, bears exactly ``name`` and is held by no account (at most
        :data:`MAX_NAME_CLAIM`, newest first), in one transaction: the ids of the tables
        moved. Once per name and game (by any account) and one name per account and game:
        :class:`NameClaimed` otherwise; :class:`NothingToClaim` when no table is free to
        claim (and then nothing is recorded: the account may claim another name)."""
        if not claimable_name(name):
            raise StoreError(f"{name!r} is nobody's name in particular (a seat nobody named, "
                             "the lobby's default or a deleted account's): its games cannot "
                             "be claimed by name")
        try:
            with self.store.writing() as s:
                before = s.execute(select(SoloClaimRow).where(
                    SoloClaimRow.game == game,
                    (SoloClaimRow.name == name) | (SoloClaimRow.account_id == account_id))
                    .order_by(SoloClaimRow.created)).scalars().first()
                if before is not None:
                    raise self._claimed(before, account_id)
                taken = select(AccountSeatRow.table_id)
                ids = list(s.scalars(
                    select(TableRow.id)
                    .join(SeatRow, SeatRow.table_id == TableRow.id)
                    .where(TableRow.status == FINISHED, TableRow.game == game,
                           TableRow.players == 1, TableRow.public.is_(True),
                           TableRow.result.is_not(None), cast(TableRow.result, Text) != "null",
                           SeatRow.index == 0, SeatRow.kind == HUMAN, SeatRow.name == name,
                           TableRow.id.not_in(taken))
                    .order_by(TableRow.updated.desc(), TableRow.id).limit(MAX_NAME_CLAIM)))
                if not ids:
                    raise NothingToClaim(
                        f"no finished listed solo game of {game} under the name {name!r} is "
                        "free to claim (a person's seat held by no account); nothing was "
                        "claimed, and you may still claim a name")
                when = now()
                s.add(SoloClaimRow(game=game, name=name, account_id=account_id,
                                   tables=len(ids), created=when))
                s.add_all(AccountSeatRow(table_id=t, seat=0, account_id=account_id,
                                         created=when) for t in ids)
                s.flush()
        except IntegrityError:  # the same name, or another of this account's, at once
            raise NameClaimed(f"the solo games under {name!r} were being claimed by another "
                              "request at the same time; nothing was claimed by this one") \
                from None
        return ids

    @staticmethod
    def _claimed(before: SoloClaimRow, account_id: str) -> NameClaimed:
        when = aware(before.created).strftime("%Y-%m-%d")
        if before.account_id == account_id:
            return NameClaimed(
                f"this account claimed the solo games under {before.name!r} already (on "
                f"{when}, {before.tables} games); an account claims one name, once")
        return NameClaimed(f"the solo games under {before.name!r} were claimed already, by "
                           f"another account (on {when}); each name is claimed once, by the "
                           "first account that asks")

    # ------------------------------------------------------------------ deletion
    def delete(self, account_id: str) -> list[str]:
        """Delete the account, in one transaction: its seats at finished tables are renamed
        :data:`~meeple.store.account_data.DELETED_PLAYER` (the records keep their moves); at a
        waiting table its seat opens again; at a running one it is left to its stand-in bot (as
        a leave does) under that name; its sessions, passkeys and held seats go; the row stays,
        marked deleted, with its username freed and its name, password hash, settings and
        address erased. What the other features keep of it (chat messages renamed, ratings,
        Play now's wish, the mail outbox) goes by the hooks they registered
        (:mod:`meeple.store.account_data`), in this transaction. Returns the ids of the tables
        changed (their clients are to be told)."""
        changed: list[str] = []
        with self.store.writing() as s:
            row = s.get(AccountRow, account_id)
            if row is None or row.deleted:
                raise SeatError("this account was deleted already")
            held = s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat, TableRow.status)
                             .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                             .where(AccountSeatRow.account_id == account_id)).all()
            for table_id, seat, status in held:
                where = (SeatRow.table_id == table_id, SeatRow.index == seat)
                if status == WAITING:
                    s.execute(update(SeatRow).where(*where)
                              .values(secret_hash=None, name=open_seat_name(seat)))
                    s.execute(update(TableRow).where(TableRow.id == table_id)
                              .values(updated=now()))
                elif status == FINISHED:
                    s.execute(update(SeatRow).where(*where).values(name=DELETED_PLAYER))
                else:
                    s.execute(update(SeatRow).where(*where)
                              .values(name=DELETED_PLAYER, absent=True))
                if table_id not in changed:
                    changed.append(table_id)
                    self.store._notify(s, table_id, -1)
            # the other features' rows of it (chat, ratings, Play now, mail)
            run_account_erased(s, account_id, [(t, seat) for t, seat, _ in held])
            s.execute(delete(AccountSeatRow).where(AccountSeatRow.account_id == account_id))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            s.execute(delete(ApiTokenRow).where(ApiTokenRow.account_id == account_id))
            s.execute(delete(PasskeyChallengeRow)
                      .where(PasskeyChallengeRow.account_id == account_id))
            row.deleted = True
            row.username_key = None
            row.username_skeleton = None
            row.username = ""
            row.display_name = DELETED_PLAYER
            row.password_hash = None
            row.settings = {}
            row.email = None  # (its queued mails go with its outbox rows: mail's hook)
            row.email_verified = False
            row.notify = None
        return changed

    # ------------------------------------------------------------------ server secrets
    def server_secret(self, name: str) -> str:
        """The secret ``name`` the server processes of this database share (64 hex digits),
        made by the first that asks."""
        with self.store.session() as s:
            found = s.scalar(select(ServerSecretRow.value).where(ServerSecretRow.name == name))
        if found is not None:
            return str(found)
        try:
            with self.store.writing() as s:
                s.add(ServerSecretRow(name=name, value=secrets.token_hex(32), created=now()))
        except IntegrityError:  # another process made it first: theirs is kept
            pass
        with self.store.session() as s:
            return str(s.scalar(select(ServerSecretRow.value)
                                .where(ServerSecretRow.name == name)))


def revoke_seat_secret(s: Session, table_id: str, seat: int) -> None:
    """Within transaction ``s``: the seat's secret replaced by the hash of a new random one
    that nobody is told (the seat stays taken: an open seat is one with no secret); the old
    secret opens it nowhere, and sockets that showed it are closed
    (src/meeple/server/features/accounts/README.md, "One identity per seat")."""
    s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.index == seat,
                                    SeatRow.secret_hash.is_not(None))
              .values(secret_hash=hash_secret(secrets.token_urlsafe(32))))


def session_id(token: str) -> str:
    """What the store keeps of a session's token: its SHA-256 (hex)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def table_ids(held: Iterable[HeldTable]) -> list[str]:
    return [h.table.id for h in held]


__all__ = ["DELETED_PLAYER", "MAX_CLAIM", "MAX_NAME_CLAIM", "UNCLAIMABLE", "Account",
           "Accounts", "Claim", "HeldTable", "NameClaim", "NameClaimed", "NothingToClaim",
           "PlayedSeat", "PlayedTable", "SessionInfo", "UsernameTaken", "claimable_name",
           "session_id", "table_ids"]
