"""Storage of tables, seats and move logs: an SQLite file by default, PostgreSQL by URL.

Every method is one short transaction. The one that matters most, :meth:`Store.append`, adds
log entries and raises the table's version in the same transaction, guarded by the version the
entries were checked against: an entry is acknowledged only after that commit, so nothing
acknowledged is ever lost, and of two concurrent moves for one table exactly one is accepted.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import hmac
import itertools
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy import Table as Table_
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError, ProgrammingError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from meeple.core.errors import MeepleError
from meeple.core.state import places_with_forfeits
from meeple.store.models import (
    BOT,
    FINISHED,
    HUMAN,
    LIVE,
    RUNNING,
    UNDO,
    WAITING,
    AccountRow,
    AccountSeatRow,
    IdempotencyRow,
    LogRow,
    SeatRow,
    TableRow,
    aware,
    now,
)
from meeple.store.ratings import forfeit, rate_table, rated_problem

#: The newest migration (the last file in ``migrations/versions``; a test checks that they agree).
SCHEMA_HEAD = "0016"
#: :attr:`Table.ended` of a table finished without its game's end (nobody played on).
ABANDONED = "abandoned"
#: PostgreSQL channel on which every committed log append is announced as "table:version".
NOTIFY_CHANNEL = "meeple_tables"


class StoreError(MeepleError):
    """A request the store refuses; the message says why. Nothing was changed."""


class NotFound(StoreError):
    pass


class StaleVersion(StoreError):
    pass


class DuplicateMove(StoreError):
    pass


class SeatError(StoreError):
    pass


class KeyReused(StoreError):
    """An ``Idempotency-Key`` sent again with a different request."""


class NotRated(StoreError):
    """Seats that cannot make a rated table (the message names the rule); nothing was
    created."""


class AccountNeeded(StoreError):
    """A seat of a rated table asked for without a signed-in account (the server answers
    403)."""


class TooManyOpen(StoreError):
    """A client that holds its cap of open tables asked for another (nothing was created)."""

    def __init__(self, held: int) -> None:
        super().__init__(f"{held} open tables were created from this address already")
        self.held = held


#: Why a rated table's seat needs an account (:class:`AccountNeeded`).
RATED_ACCOUNTS = ("this table is rated: only a signed-in account can take a seat at it (sign in "
                  "with POST /api/session, or play at a casual table)")

#: How long an idempotency key is remembered (a retry comes within seconds or minutes).
KEY_TTL = timedelta(hours=24)


class StoreUnavailable(StoreError):
    """The database cannot be reached or written just now (its server down, the disk full, a
    read-only file system): the request was not served, nothing acknowledged is lost, and it
    can be tried again in a moment. The server answers 503 (REST) or a ``retry`` frame."""


def default_url() -> str:
    """The database when none is given (nor ``MEEPLE_DATABASE_URL``, the commands' store
    section, :class:`meeple.store.settings.StoreSettings`): an SQLite file in the user's data
    folder."""
    from platformdirs import user_data_dir

    return sqlite_url(Path(user_data_dir("meeple", appauthor=False)) / "meeple.db")


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).expanduser().resolve()}"


def display_url(url: str) -> str:
    """The URL without its password, to print."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """A seat secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for when a table is created: open for a person, or a bot with its spec."""

    kind: str = HUMAN
    bot: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class Entry:
    """One log entry: ``kind`` move/chance/undo, by ``seat`` (-1 for chance), its text;
    ``client_id`` the key of the client request that appended it (:func:`request_key`)."""

    kind: str
    seat: int
    text: str
    client_id: str | None = None
    number: int = 0
    #: when it was stored (read from the log; None for an entry not stored yet)
    created: datetime | None = None


def request_key(seat: int, version: int, move_id: str, kind: str, texts: Sequence[str]) -> str:
    """The key of a client's move or undo request, as the log keeps it: a move id names one
    request of one seat at one table version (see src/meeple/server/table/README.md, "Move ids"), so the same
    frame sent again is recognised, while the same id from another seat, at another version
    or for other moves is another request."""
    digest = hashlib.sha256("\0".join([move_id, kind, *texts]).encode("utf-8")).hexdigest()
    return f"{seat}:{version}:{digest[:40]}"


@dataclass(frozen=True)
class Idempotency:
    """An ``Idempotency-Key`` a client sent with a request, the request's ``scope`` (create,
    join, leave), a digest of the request itself (body and path) and one of the client that
    sent it (its address): the key is that client's own, so the same key from another client
    is another request and never gets this one's answer (a seat's secret)."""

    key: str
    scope: str
    request_hash: str
    client: str = ""

    @property
    def key_hash(self) -> str:
        """What the store keeps the key under: a digest of the scope, the client and the
        key."""
        return hashlib.sha256(f"{self.scope}\0{self.client}\0{self.key}".encode()).hexdigest()


@dataclass(frozen=True)
class Taken:
    """What a create, join or leave did: the table, and the seat taken (with its secret) or
    left; ``replayed`` when it is the stored answer to an earlier request with the same key."""

    table_id: str
    seat: int | None
    secret: str | None
    replayed: bool = False


def key_secret(key: str, table_id: str, seat: int, salt: str) -> str:
    """The secret of a seat taken with an idempotency key: an HMAC of the key, so a retry with
    the same key gets the same secret while the store keeps neither (192 bits, URL-safe)."""
    mac = hmac.new(key.encode("utf-8"), f"meeple-seat:{table_id}:{seat}:{salt}".encode(),
                   hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


def open_seat_name(index: int) -> str:
    """The name of open seat ``index`` (0-based, as the protocol counts): "Seat 1" for seat 0,
    as people count."""
    return f"Seat {index + 1}"


def account_seat_name(s: Session, account_id: str) -> str | None:
    """The name a seat held by account ``account_id`` bears: the account's display name as it
    is now (``deleted player`` once deleted), read in transaction ``s``; None for no such
    account. A signed-in person is named by the account, never by a name the client sends, so
    nobody can sit down under another's name while signed in
    (src/meeple/server/features/accounts/README.md, *Seat names*)."""
    return s.scalar(select(AccountRow.display_name).where(AccountRow.id == account_id))


#: How a bot spec's bot is called at a table (its first word; the rest are its options).
BOT_WORDS = {"mcts": "MCTS"}


def bot_seat_names(seats: Sequence[SeatSpec]) -> list[str | None]:
    """The name each bot seat of ``seats`` gets when it names none: "Easy bot", "Hard bot",
    "Greedy bot" (the spec's bot, without its options); bots that would share a name are
    numbered in seat order ("Easy bot 1", "Easy bot 2"). None for the other seats."""
    base: list[str | None] = []
    for spec in seats:
        if spec.kind != BOT or spec.name or not spec.bot:
            base.append(None)
            continue
        word = spec.bot.split(":", 1)[0].strip()
        base.append(f"{BOT_WORDS.get(word, word.capitalize())} bot")
    out: list[str | None] = []
    for i, name in enumerate(base):
        if name is not None and base.count(name) > 1:
            name = f"{name} {base[:i + 1].count(name)}"
        out.append(name)
    return out


@dataclass(frozen=True)
class Seat:
    index: int
    kind: str
    name: str
    bot: str | None
    taken: bool
    absent: bool
    #: its person conceded: the stand-in plays it to the end
    conceded: bool = False
    #: its person conceded, or left the running game of a rated table: placed below the
    #: seats that played on
    forfeit: bool = False
    #: when its person last took it back from the stand-in (None: never)
    back_at: datetime | None = None
    #: the order of its forfeit among the table's (1: the first, placed last), or None
    forfeit_order: int | None = None


@dataclass(frozen=True)
class Table:
    """A table as read from the store (no secrets; the seed stays on the server)."""

    id: str
    game: str
    variant: dict[str, Any]
    sheet: dict[str, Any] | None
    players: int
    seed: int
    status: str
    version: int
    public: bool
    clock: int | None
    turn_started: datetime | None
    created: datetime
    updated: datetime
    result: list[Any] | None
    seats: tuple[Seat, ...]
    #: the rematch its people are invited to, once one is made
    rematch: str | None = None
    #: ``abandoned`` for a table finished without its game's end; None otherwise
    ended: str | None = None
    #: a rated table: accounts and named-difficulty bots only, its end rated
    rated: bool = False
    #: ``live`` or ``turn-based``
    pace: str = LIVE
    #: a turn-based table's time bank per seat, in seconds (None at a live table)
    bank: int | None = None
    #: a digest of the address that created it (``quotas.client_hash``; None if not kept):
    #: whose share of the bot workers its bots take (``server/table/botfair.py``)
    creator: str | None = None

    @property
    def open_seats(self) -> list[int]:
        return [s.index for s in self.seats if s.kind == HUMAN and not s.taken]

    def places(self) -> list[int]:
        """Each seat's place once the game is over (1 first; empty before, or for a table
        abandoned without a result): by the result's totals, the seats that forfeited below
        the others (:func:`~meeple.core.state.places_with_forfeits`)."""
        if not self.result or len(self.result) != len(self.seats):
            return []
        return places_with_forfeits([result_total(r) for r in self.result],
                                    [s.forfeit_order for s in self.seats])


def result_total(score: Any) -> int:
    """The total of one seat's stored result (``{"total": n, ...}``; 0 if it has none)."""
    if isinstance(score, dict) and isinstance(score.get("total"), int):
        return int(score["total"])
    return 0


def _table(row: TableRow) -> Table:
    return Table(
        id=row.id, game=row.game, variant=dict(row.variant), sheet=row.sheet,
        players=row.players, seed=row.seed, status=row.status, version=row.version,
        public=row.public, clock=row.clock, turn_started=row.turn_started, created=row.created,
        updated=row.updated, result=row.result,
        seats=tuple(Seat(s.index, s.kind, s.name, s.bot, s.secret_hash is not None, s.absent,
                         bool(s.conceded), bool(s.forfeit),
                         aware(s.back_at) if s.back_at is not None else None,
                         s.forfeit_order)
                    for s in row.seats),
        rematch=row.rematch, ended=row.ended, rated=bool(row.rated), pace=row.pace or LIVE,
        bank=row.bank, creator=row.creator,
    )


class Store:
    """The database behind the server. ``Store(url)`` connects; :meth:`migrate` creates or
    upgrades the schema (Alembic migrations shipped in the package)."""

    def __init__(self, url: str | None = None, *, table_seeds: int | None = None) -> None:
        self.url = url or default_url()
        #: ``table_seeds``: new tables' seeds follow from it, in the order they are created
        #: (for tests and demos that must be the same on every run; anyone who knows it can
        #: work out every table's draws, so a server for people never sets it). Unset: each
        #: seed is 63 random bits.
        self.table_seeds = table_seeds
        self._tables_made = itertools.count()
        self.engine: Engine = _engine(self.url)
        event.listen(self.engine, "handle_error", _unavailable)  # StoreUnavailable, see there
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        #: called with a table's id right after the transaction that stored its game's end
        #: committed (the reliability tests' fault point, ``MEEPLE_FAULT``)
        self.after_finish: Callable[[str], None] | None = None
        #: this store's own mark on its notices (:meth:`_notify`): a server process skips the
        #: notices of its own commits, which it has applied already
        self.origin = secrets.token_hex(6)
        # SQLite has one writer at a time; threads of this process that write queue on this
        # lock instead of on SQLite's busy handler, whose back-off sleeps (up to 100 ms a try)
        # would otherwise make a move's round trip wait far longer than the write itself.
        self._write_lock: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.dialect == "sqlite" else contextlib.nullcontext())

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration (:data:`SCHEMA_HEAD`). A
        database already there is only looked at, without loading Alembic, so a restarted
        server answers sooner."""
        if self.schema_version() == SCHEMA_HEAD:
            return
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("meeple.store") / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def schema_version(self) -> str | None:
        """The database's migration (Alembic's ``alembic_version``), None before the first."""
        try:
            with self.engine.connect() as conn:
                found = conn.scalar(text("SELECT version_num FROM alembic_version"))
        except (OperationalError, ProgrammingError):  # no such table yet
            return None
        return str(found) if found is not None else None

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._session.begin() as s:
            yield s

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A transaction that writes (one writer of this process at a time on SQLite)."""
        with self._write_lock, self._session.begin() as s:
            yield s

    # ------------------------------------------------------------------ tables
    def _new_seed(self) -> int:
        """The seed of a new table: 63 random bits, or the next of :attr:`table_seeds`'s."""
        if self.table_seeds is None:
            return secrets.randbits(63)
        k = next(self._tables_made)
        digest = hashlib.sha256(f"{self.table_seeds}:{k}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def create_table(self, game: str, variant: dict[str, Any], players: int,
                     seats: Sequence[SeatSpec], *, sheet: dict[str, Any] | None = None,
                     public: bool = True, clock: int | None = None,
                     seed: int | None = None, join_as: str | None = None,
                     idempotency: Idempotency | None = None, creator: str | None = None,
                     max_open: int = 0, rated: bool = False, account: str | None = None,
                     pace: str = LIVE, bank: int | None = None) -> Taken:
        """A new table; with ``join_as`` its first open seat is taken under that name (and
        held by ``account``, if given), in the same transaction. A ``rated`` table's seats
        must make one (:func:`~meeple.store.ratings.rated_problem`, else :class:`NotRated`),
        and its seat is taken only with an account (else :class:`AccountNeeded`). With
        ``idempotency``, a request already made with that key gets its answer again (the same
        table, seat and secret) and nothing new is created. ``pace``/``bank``: a turn-based
        table's.
        ``creator``: who made it (a digest of the client); with ``max_open``, a creator who
        has that many tables waiting or running gets :class:`TooManyOpen` instead."""
        if len(seats) != players:
            raise StoreError(f"{players} seats are needed, {len(seats)} were given")
        if idempotency is not None and (done := self.recall(idempotency)) is not None:
            return done
        if rated:
            problem = rated_problem(seats)
            if problem is not None:
                raise NotRated(problem)
            if join_as is not None and account is None:
                raise AccountNeeded(RATED_ACCOUNTS)
        row = self._new_table(game, variant, players, seats, sheet, public, clock, seed,
                              creator, rated, pace, bank)
        table_id = row.id
        seat: int | None = None
        secret: str | None = None
        salt = ""
        try:
            with self.writing() as s:
                if creator is not None and max_open > 0:
                    held = s.scalar(select(func.count()).select_from(TableRow).where(
                        TableRow.creator == creator, TableRow.status != FINISHED)) or 0
                    if held >= max_open:
                        raise TooManyOpen(held)
                s.add(row)
                s.flush()
                if join_as is not None:
                    open_seats = [i for i, spec in enumerate(seats) if spec.kind == HUMAN]
                    if open_seats:
                        seat = open_seats[0]
                        secret, salt = self._take_seat(s, table_id, seat, join_as, idempotency,
                                                       account)
                self._remember(s, idempotency, table_id, seat, salt)
        except IntegrityError:
            return self._raced(idempotency)
        return Taken(table_id, seat, secret)

    def _new_table(self, game: str, variant: dict[str, Any], players: int,
                   seats: Sequence[SeatSpec], sheet: dict[str, Any] | None, public: bool,
                   clock: int | None, seed: int | None, creator: str | None,
                   rated: bool = False, pace: str = LIVE, bank: int | None = None
                   ) -> TableRow:
        """A new table's row with its seats (not added to a session yet)."""
        row = TableRow(
            id=secrets.token_hex(8), game=game, variant=dict(variant), sheet=sheet,
            players=players, seed=self._new_seed() if seed is None else seed, status=WAITING,
            version=0, public=public, clock=clock, created=now(), updated=now(),
            creator=creator, rated=rated, pace=pace, bank=bank if pace != LIVE else None,
        )
        bot_names = bot_seat_names(seats)
        for i, spec in enumerate(seats):
            name = spec.name or bot_names[i] or open_seat_name(i)
            row.seats.append(SeatRow(index=i, kind=spec.kind, bot=spec.bot, name=name,
                                     absent=False, conceded=False, forfeit=False))
        if all(spec.kind == BOT for spec in seats):
            row.status = RUNNING
        return row

    def rematch(self, table_id: str, seat: int, name: str,
                idempotency: Idempotency | None = None, creator: str | None = None,
                account: str | None = None) -> Taken:
        """Take ``seat`` at the rematch of finished table ``table_id`` under ``name``: the
        first to ask makes it (the same game, variant, sheet, clock and seats: the bots
        again, every person's seat open; not listed in the lobby: its people are invited),
        and everyone after joins that same table; a rated table's rematch is rated (its
        seats need accounts, as :meth:`join` says). Returns the seat taken there and its
        secret; with ``idempotency``, a retry gets the same answer."""
        if idempotency is not None and (done := self.recall(idempotency)) is not None:
            return done
        old = self.table(table_id)
        if old.rematch is None:
            specs = [SeatSpec(kind=x.kind, bot=x.bot, name=x.name if x.kind == BOT else None)
                     for x in old.seats]
            row = self._new_table(old.game, old.variant, old.players, specs, old.sheet,
                                  False, old.clock, None, creator, old.rated, old.pace,
                                  old.bank)
            # another request made it first (_Lost): join that one
            with contextlib.suppress(_Lost), self.writing() as s:
                s.add(row)
                s.flush()
                made = s.execute(update(TableRow).where(
                    TableRow.id == table_id, TableRow.rematch.is_(None))
                    .values(rematch=row.id, updated=now()))
                if made.rowcount == 0:  # type: ignore[attr-defined]
                    raise _Lost  # rolled back: the new table is not kept
                self._notify(s, table_id, -1)
            old = self.table(table_id)
        assert old.rematch is not None
        return self.join(old.rematch, seat, name, idempotency, account)

    def concede(self, table_id: str, seat: int) -> None:
        """``seat``'s person concedes: its stand-in plays it to the end, it cannot
        be taken back, and it is placed below the people who play on (at any table; at a
        rated table that is what its rating counts)."""
        with self.writing() as s:
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.index == seat,
                                            SeatRow.kind == HUMAN)
                      .values(absent=True, conceded=True))
            # below the players who play on (docs/ratings.md, Giving up a game)
            forfeit(s, table_id, seat, conceded=True)
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=now()))
            self._notify(s, table_id, -1)

    def close_abandoned(self, older: float, keep: set[str] | frozenset[str] = frozenset()
                        ) -> list[str]:
        """End the running tables with no turn clock (a clock's stand-ins keep a table going)
        nobody has moved at for ``older`` seconds and that are not in ``keep`` (tables whose
        people are still connected): each is finished without a result, ``ended`` =
        ``abandoned``, and leaves the lobby's running list. Returns their ids."""
        cutoff = now() - timedelta(seconds=older)
        with self.writing() as s:
            ids = [t for t in s.scalars(select(TableRow.id).where(
                TableRow.status == RUNNING, TableRow.clock.is_(None),
                TableRow.updated < cutoff)) if t not in keep]
            for k in range(0, len(ids), 500):
                part = ids[k:k + 500]
                s.execute(update(TableRow).where(TableRow.id.in_(part),  # (no move since)
                                                 TableRow.status == RUNNING,
                                                 TableRow.updated < cutoff)
                          .values(status=FINISHED, result=None, ended=ABANDONED,
                                  updated=now()))
                for table_id in part:
                    self._notify(s, table_id, -1)
        return ids

    def table(self, table_id: str) -> Table:
        if not valid_table_id(table_id):
            raise NotFound(f"no table {table_id[:40]!r}: table ids are letters and digits")
        with self.session() as s:
            row = s.get(TableRow, table_id, options=[selectinload(TableRow.seats)])
            if row is None:
                raise NotFound(f"no table {table_id!r}")
            return _table(row)

    def tables(self, status: str | None = None, game: str | None = None,
               public_only: bool = True, limit: int = 200) -> list[Table]:
        return self.tables_page(status, game, limit, 0, public_only)[0]

    def tables_page(self, status: str | None = None, game: str | None = None,
                    limit: int = 50, offset: int = 0, public_only: bool = True
                    ) -> tuple[list[Table], int]:
        """A page of the tables (of ``status``, of ``game``, public only unless told), newest
        change first (then by id, so pages never overlap): ``limit`` tables after the first
        ``offset``, and how many match in all."""
        where = []
        if status is not None:
            where.append(TableRow.status == status)
        if game is not None:
            where.append(TableRow.game == game)
        if public_only:
            where.append(TableRow.public.is_(True))
        q = (select(TableRow).options(selectinload(TableRow.seats)).where(*where)
             .order_by(TableRow.updated.desc(), TableRow.id).limit(limit).offset(offset))
        with self.session() as s:
            total = s.scalar(select(func.count()).select_from(TableRow).where(*where)) or 0
            return [_table(r) for r in s.scalars(q)], int(total)

    def close_stale(self, older: float, keep: set[str] | frozenset[str] = frozenset()
                    ) -> list[str]:
        """Close the tables that have waited ``older`` seconds or more since a seat was last
        taken or left (or since they were made) and are not in ``keep``: each is finished
        without a result (abandoned). Returns their ids."""
        cutoff = now() - timedelta(seconds=older)
        with self.writing() as s:
            ids = [t for t in s.scalars(select(TableRow.id).where(
                TableRow.status == WAITING, TableRow.updated < cutoff)) if t not in keep]
            for k in range(0, len(ids), 500):
                part = ids[k:k + 500]
                s.execute(update(TableRow).where(TableRow.id.in_(part),  # (not joined since)
                                                 TableRow.status == WAITING,
                                                 TableRow.updated < cutoff)
                          .values(status=FINISHED, result=None, ended=ABANDONED,
                                  updated=now()))
                for table_id in part:
                    self._notify(s, table_id, -1)
        return ids

    def finished_with_seat(self, name: str, game: str, players: int | None = None,
                           limit: int = 500) -> list[Table]:
        """Finished tables of ``game`` (public or not) where a seat bears exactly ``name``,
        newest first; with ``players``, only tables of that many seats (1: solo games)."""
        q = (select(TableRow).options(selectinload(TableRow.seats))
             .where(TableRow.status == FINISHED, TableRow.game == game,
                    TableRow.id.in_(select(SeatRow.table_id).where(SeatRow.name == name))))
        if players is not None:
            q = q.where(TableRow.players == players)
        q = q.order_by(TableRow.updated.desc()).limit(limit)
        with self.session() as s:
            return [_table(r) for r in s.scalars(q)]

    def unfinished(self) -> list[str]:
        """Ids of every table whose game is not over (to resume after a restart)."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status != FINISHED)))

    # ------------------------------------------------------------------ seats
    def join(self, table_id: str, seat: int | None, name: str,
             idempotency: Idempotency | None = None, account: str | None = None) -> Taken:
        """Take an open human seat (the first open one if ``seat`` is None): its index and its
        secret, which only this response ever carries (the store keeps its hash). With
        ``idempotency``, a join already made with that key gets the same seat and secret.
        ``account``: the signed-in account that takes it, which holds it from the same
        transaction on; a rated table's seat needs one (:class:`AccountNeeded`), and one
        seat per account there."""
        if idempotency is not None and (done := self.recall(idempotency)) is not None:
            return done
        table = self.table(table_id)
        if table.status == FINISHED:
            raise SeatError(f"table {table_id} is finished; nobody can join it")
        if table.rated and account is None:
            raise AccountNeeded(RATED_ACCOUNTS)
        open_seats = table.open_seats
        if seat is None:
            if not open_seats:
                raise SeatError(f"table {table_id} has no open seat")
            seat = open_seats[0]
        if not 0 <= seat < table.players:
            raise SeatError(f"seat {seat} does not exist; seats are 0..{table.players - 1}")
        if seat not in open_seats:
            raise SeatError(f"seat {seat} of table {table_id} is not open; open seats: "
                            f"{', '.join(map(str, open_seats)) or 'none'}")
        try:
            with self.writing() as s:
                secret, salt = self._take_seat(s, table_id, seat, name, idempotency, account)
                self._remember(s, idempotency, table_id, seat, salt)
        except (IntegrityError, SeatError):
            if idempotency is not None and (done := self.recall(idempotency)) is not None:
                return done  # the same request, made at the same time, took the seat
            raise
        return Taken(table_id, seat, secret)

    def _take_seat(self, s: Session, table_id: str, seat: int, name: str,
                   idempotency: Idempotency | None, account: str | None = None
                   ) -> tuple[str, str]:
        """Within transaction ``s``: give open seat ``seat`` to ``name`` and its secret (random,
        or derived from the idempotency key and a salt), held by ``account`` if given, and
        start the table once no seat is open. Returns the secret and the salt. A seat an
        account takes bears the account's display name, whatever ``name`` the client sent
        (:func:`account_seat_name`)."""
        if account is not None:
            name = account_seat_name(s, account) or name
            rated = s.scalar(select(TableRow.rated).where(TableRow.id == table_id))
            held = s.scalar(select(AccountSeatRow.seat).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.account_id == account))
            if rated and held is not None:
                raise SeatError(f"you hold seat {held} of this rated table already: an account "
                                "plays one seat of a rated table")
        salt = secrets.token_hex(16)
        secret = new_secret() if idempotency is None else key_secret(
            idempotency.key, table_id, seat, salt)
        done = s.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.index == seat,
                   SeatRow.kind == HUMAN, SeatRow.secret_hash.is_(None))
            .values(secret_hash=hash_secret(secret), name=name[:60] or open_seat_name(seat))
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise SeatError(f"seat {seat} of table {table_id} was just taken")
        if account is not None:
            s.add(AccountSeatRow(table_id=table_id, seat=seat, account_id=account,
                                 created=now()))
            s.flush()
        still_open = s.scalar(
            select(func.count()).select_from(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.kind == HUMAN,
                   SeatRow.secret_hash.is_(None)))
        if not still_open:
            s.execute(update(TableRow).where(TableRow.id == table_id,
                                             TableRow.status == WAITING)
                      .values(status=RUNNING, updated=now(), turn_started=now()))
        else:  # a waiting table someone joined is not stale (close_stale)
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=now()))
        self._notify(s, table_id, -1)
        return secret, salt

    # ------------------------------------------------------------------ idempotency keys
    def recall(self, idempotency: Idempotency) -> Taken | None:
        """The answer to an earlier request with this key, or None if there was none (or it
        is older than :data:`KEY_TTL`). A key sent again with another request is refused
        (:class:`KeyReused`)."""
        with self.session() as s:
            row = s.get(IdempotencyRow, idempotency.key_hash)
            if row is None or aware(row.created) < now() - KEY_TTL:
                return None
            if row.request_hash != idempotency.request_hash:
                raise KeyReused(
                    "this Idempotency-Key was already used for a different request; a retry "
                    "must repeat the request exactly, and a new request needs a new key")
            secret = None
            if row.seat is not None and idempotency.scope != "leave":
                secret = key_secret(idempotency.key, row.table_id, row.seat, row.salt)
            return Taken(row.table_id, row.seat, secret, replayed=True)

    def _remember(self, s: Session, idempotency: Idempotency | None, table_id: str,
                  seat: int | None, salt: str = "") -> None:
        """Within transaction ``s``: keep the answer to an idempotent request (only digests
        and the salt of a derived secret), and forget keys past :data:`KEY_TTL`."""
        if idempotency is None:
            return
        s.execute(IdempotencyRow.__table__.delete().where(  # type: ignore[attr-defined]
            IdempotencyRow.created < now() - KEY_TTL))
        s.add(IdempotencyRow(key_hash=idempotency.key_hash, scope=idempotency.scope,
                             request_hash=idempotency.request_hash, table_id=table_id,
                             seat=seat, salt=salt, created=now()))
        s.flush()

    def _raced(self, idempotency: Idempotency | None) -> Taken:
        """After a unique key clash: the answer the same request made at the same time got."""
        if idempotency is not None and (done := self.recall(idempotency)) is not None:
            return done
        raise StoreError("the request clashed with another one; try again")

    def leave(self, table_id: str, seat: int, idempotency: Idempotency | None = None) -> Taken:
        """Before the game starts the seat opens again; once it runs, a bot stands in for the
        seat until its person comes back, and at a rated table the seat is placed last when
        the game is rated (:func:`~meeple.store.ratings.forfeit`). With ``idempotency``, a
        leave already made with that key is answered again without doing anything."""
        if idempotency is not None and (done := self.recall(idempotency)) is not None:
            return done
        table = self.table(table_id)
        try:
            with self.writing() as s:
                if table.status == WAITING:
                    s.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                                    SeatRow.index == seat)
                              .values(secret_hash=None, name=open_seat_name(seat)))
                    s.execute(update(TableRow).where(TableRow.id == table_id)
                              .values(updated=now()))
                    # the seat is open again: no account holds it any more
                    s.execute(delete(AccountSeatRow).where(AccountSeatRow.table_id == table_id,
                                                           AccountSeatRow.seat == seat))
                else:
                    self._set_absent(s, table_id, seat, True)
                    forfeit(s, table_id, seat)
                self._notify(s, table_id, -1)
                self._remember(s, idempotency, table_id, seat)
        except IntegrityError:
            return self._raced(idempotency)
        return Taken(table_id, seat, None)

    def set_absent(self, table_id: str, seat: int, absent: bool) -> None:
        with self.writing() as s:
            self._set_absent(s, table_id, seat, absent)
            self._notify(s, table_id, -1)

    @staticmethod
    def _set_absent(s: Session, table_id: str, seat: int, absent: bool) -> None:
        q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.index == seat)
        if not absent:  # a conceded seat is its stand-in's for good
            q = q.where(SeatRow.conceded.is_(False), SeatRow.absent.is_(True))
            s.execute(q.values(absent=False, back_at=now()))  # (a turn-based move's time)
            return
        s.execute(q.values(absent=absent))

    def _notify(self, s: Session | Connection, table_id: str, version: int) -> None:
        """On PostgreSQL, tell the other server processes (delivered at commit only): the
        payload is ``table:version:origin`` (:func:`parse_notice`); a version of -1 means the
        seats changed."""
        if self.dialect == "postgresql":
            s.execute(text("SELECT pg_notify(:c, :p)"),
                      {"c": NOTIFY_CHANNEL, "p": f"{table_id}:{version}:{self.origin}"})

    def check_secret(self, table_id: str, seat: int, secret: str | None) -> bool:
        """Whether ``secret`` is the secret of ``seat`` (compared in constant time)."""
        if not valid_table_id(table_id):
            return False
        with self.session() as s:
            stored = s.scalar(select(SeatRow.secret_hash).where(
                SeatRow.table_id == table_id, SeatRow.index == seat))
        given = hash_secret(secret or "")
        return stored is not None and secret is not None and hmac.compare_digest(stored, given)

    def seat_secret_hashes(self, table_id: str) -> dict[int, str | None]:
        """Each seat's secret hash now (None: open), to see whether a socket's proof of its
        seat still holds (src/meeple/server/features/accounts/README.md, "One identity per seat")."""
        with self.session() as s:
            return {i: h for i, h in s.execute(select(SeatRow.index, SeatRow.secret_hash)
                                               .where(SeatRow.table_id == table_id))}

    def rematch_of(self, table_id: str) -> str | None:
        """The finished table whose rematch ``table_id`` is (None: it is none): its seats are
        for that table's people only. A rematch is private, so a public table is none; an id
        that is no table's id (a client's, unchecked) is none either."""
        if not valid_table_id(table_id):
            return None
        with self.session() as s:
            if s.scalar(select(TableRow.public).where(TableRow.id == table_id)) is not False:
                return None
            return s.scalar(select(TableRow.id).where(TableRow.rematch == table_id).limit(1))

    # ------------------------------------------------------------------ the log
    def log(self, table_id: str, after: int = 0) -> list[Entry]:
        """The log entries numbered above ``after``, in order."""
        with self.session() as s:
            rows = s.scalars(select(LogRow).where(LogRow.table_id == table_id,
                                                  LogRow.number > after)
                             .order_by(LogRow.number))
            return [Entry(r.kind, r.seat, r.text, r.client_id, r.number, aware(r.created))
                    for r in rows]

    def acked_version(self, table_id: str, key: str) -> int | None:
        """The version a client request with this key (:func:`request_key`) was acknowledged
        at, or None if no such request was stored."""
        with self.session() as s:
            row = s.execute(select(LogRow.number, LogRow.acked).where(
                LogRow.table_id == table_id, LogRow.client_id == key)).first()
        if row is None:
            return None
        return int(row.acked) if row.acked is not None else int(row.number)

    def append(self, table_id: str, expected: int, entries: Sequence[Entry], *,
               finished_result: list[Any] | None = None,
               places: Sequence[int] | None = None) -> int:
        """Add ``entries`` after entry ``expected`` and raise the version, in one transaction.
        Raises :class:`StaleVersion` if the table moved on meanwhile and
        :class:`DuplicateMove` if a client move id was used before; nothing is written then.
        With ``finished_result`` the game ended: the table is finished with that result and,
        if it is rated, its ratings move by ``places`` (each seat's, as the game ranks them)
        in the same transaction (:func:`~meeple.store.ratings.rate_table`)."""
        if not entries:
            return expected
        if finished_result is None:  # the hot path: the lean statements, alone in a group
            try:
                got = self._append_lean_group([Append(table_id, expected, entries)])[0]
            except IntegrityError as exc:
                raise self._integrity_error(table_id, expected, entries) from exc
            if isinstance(got, Exception):
                raise got
            return got
        new = expected + len(entries)
        values: dict[str, Any] = {"version": new, "updated": now(), "turn_started": now()}
        if finished_result is not None:
            values["status"] = FINISHED
            values["result"] = finished_result
        tables = cast("Table_", TableRow.__table__)
        log = cast("Table_", LogRow.__table__)
        rows = [{"table_id": table_id, "number": k, "kind": e.kind, "seat": e.seat,
                 "text": e.text, "client_id": e.client_id, "created": values["updated"],
                 "acked": new if e.client_id else None}
                for k, e in enumerate(entries, start=expected + 1)]
        try:
            with self._write_lock, self.engine.begin() as conn:
                # the guarded write first: later writers wait for this row, then find 0 rows
                done = conn.execute(update(tables)
                                    .where(tables.c.id == table_id,
                                           tables.c.version == expected,
                                           tables.c.status != FINISHED)
                                    .values(**values))
                if done.rowcount != 1:
                    raise _refusal(conn, table_id, expected)
                conn.execute(insert(log), rows)
                rate_table(conn, table_id, places, finished_result, values["updated"])
                self._notify(conn, table_id, new)
        except IntegrityError as exc:
            raise self._integrity_error(table_id, expected, entries) from exc
        if self.after_finish is not None:
            self.after_finish(table_id)
        return new

    def _integrity_error(self, table_id: str, expected: int, entries: Sequence[Entry]
                         ) -> StoreError:
        """What an append that broke a unique key is: a move request played before (its
        client id is in the log already), else a table that moved on meanwhile."""
        ids = [e.client_id for e in entries if e.client_id]
        if ids and self._seen_client_id(table_id, ids):
            return DuplicateMove("this move request was already played")
        return StaleVersion(f"the table moved on past version {expected}")

    def append_group(self, requests: Sequence[Append]) -> list[int | Exception]:
        """Several :meth:`append` requests of different tables in one transaction (group
        commit: one commit for the moves that arrived together). Each request's answer is its
        own, in order: the new version, or the exception :meth:`append` would raise
        (:class:`StaleVersion`, :class:`NotFound`, :class:`DuplicateMove`, or
        :class:`StoreUnavailable` for all of them). Tables are written in the order of their
        ids, so two processes never wait on each other's rows in a circle."""
        lean = [i for i, r in enumerate(requests)
                if r.entries and r.finished_result is None]
        answers: list[int | Exception] = [0] * len(requests)
        seen: set[str] = set()
        batch = []
        for i in sorted(lean, key=lambda i: requests[i].table_id):
            if requests[i].table_id in seen:  # one request per table in a group
                continue
            seen.add(requests[i].table_id)
            batch.append(i)
        rest = [i for i in range(len(requests)) if i not in set(batch)]
        if batch:
            try:
                for i, got in zip(batch, self._append_lean_group([requests[i] for i in batch]),
                                  strict=True):
                    answers[i] = got
            except IntegrityError:  # a client id used twice: each on its own, to tell which
                rest = sorted(rest + batch)
            except StoreUnavailable as exc:
                for i in batch:
                    answers[i] = exc
        for i in rest:
            r = requests[i]
            try:
                answers[i] = self.append(r.table_id, r.expected, r.entries,
                                         finished_result=r.finished_result, places=r.places)
            except (StoreError, MeepleError) as exc:
                answers[i] = exc
        return answers

    def _append_lean_group(self, requests: Sequence[Append]) -> list[int | Exception]:
        """The lean appends of ``requests`` (one per table) in one transaction: a request
        whose table moved on is answered with :class:`StaleVersion` and writes nothing, the
        others are committed together."""
        when = now()
        stamp: Any = when.strftime("%Y-%m-%d %H:%M:%S.%f") if self.dialect == "sqlite" else when
        insert_sql = self._lean_sql[1]
        answers: list[int | Exception] = []
        rows: list[tuple[Any, ...]] = []
        notices: list[str] = []  # as _notify writes them
        with self._write_lock, self.engine.begin() as conn:
            moved = self._guarded_updates(conn, requests, stamp)
            for r in requests:
                new = r.expected + len(r.entries)
                if r.table_id not in moved:
                    answers.append(_refusal(conn, r.table_id, r.expected))
                    continue
                rows += [(r.table_id, k, e.kind, e.seat, e.text, e.client_id,
                          new if e.client_id else None, stamp)
                         for k, e in enumerate(r.entries, start=r.expected + 1)]
                notices.append(f"{r.table_id}:{new}:{self.origin}")
                answers.append(new)
            if rows:
                conn.exec_driver_sql(insert_sql, rows)
            if notices and self.dialect == "postgresql":  # every table's notice in one go
                conn.exec_driver_sql("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                                     (NOTIFY_CHANNEL, notices))
        return answers

    def _guarded_updates(self, conn: Connection, requests: Sequence[Append], stamp: Any
                         ) -> set[str]:
        """Each request's table moved to its new version where it is still at the version the
        request expects (and not finished): the ids of the tables moved. On PostgreSQL one
        statement for all of them (a round trip to the database each would cost more than
        the writes); on SQLite, in this process, one each."""
        if self.dialect == "postgresql":
            got = conn.exec_driver_sql(
                "UPDATE game_tables AS t SET version = v.new, updated = %s, turn_started = %s "
                "FROM (SELECT unnest(%s::text[]) AS id, unnest(%s::int[]) AS expected, "
                "unnest(%s::int[]) AS new) AS v "
                "WHERE t.id = v.id AND t.version = v.expected AND t.status != %s "
                "RETURNING t.id",
                (stamp, stamp, [r.table_id for r in requests], [r.expected for r in requests],
                 [r.expected + len(r.entries) for r in requests], FINISHED))
            return {row[0] for row in got}
        update_sql = self._lean_sql[0]
        moved = set()
        for r in requests:
            done = conn.exec_driver_sql(update_sql, (r.expected + len(r.entries), stamp, stamp,
                                                     r.table_id, r.expected, FINISHED))
            if done.rowcount == 1:
                moved.add(r.table_id)
        return moved

    @functools.cached_property
    def _lean_sql(self) -> tuple[str, str]:
        """The two statements of :meth:`_append_lean_group` in the driver's parameter style,
        written once, so SQLAlchemy neither compiles them nor builds results for them (a
        third of the time of the general statements); its error hooks still apply
        (:func:`_unavailable`)."""
        m = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        update_sql = (f"UPDATE game_tables SET version = {m}, updated = {m}, turn_started = {m} "
                      f"WHERE id = {m} AND version = {m} AND status != {m}")
        insert_sql = ("INSERT INTO move_log (table_id, number, kind, seat, text, client_id, "
                      f"acked, created) VALUES ({', '.join([m] * 8)})")
        return update_sql, insert_sql

    def _seen_client_id(self, table_id: str, ids: list[str]) -> bool:
        with self.session() as s:
            return s.scalar(select(func.count()).select_from(LogRow).where(
                LogRow.table_id == table_id, LogRow.client_id.in_(ids))) != 0

    def finish(self, table_id: str, result: list[Any] | None,
               places: Sequence[int] | None = None) -> None:
        """Mark a table finished (its game is over, or it was abandoned with ``None``); a
        rated game that ends here is rated in the same transaction (by ``places``, else by
        the result's totals). A table finished already is left as it is."""
        with self.writing() as s:
            done = s.execute(update(TableRow).where(TableRow.id == table_id,
                                                    TableRow.status != FINISHED)
                             .values(status=FINISHED, result=result, updated=now()))
            if done.rowcount == 1 and result is not None:  # type: ignore[attr-defined]
                rate_table(s, table_id, places, result)


def _refusal(conn: Connection, table_id: str, expected: int) -> StoreError:
    """Why a guarded update of ``table_id`` at version ``expected`` found no row."""
    current = conn.scalar(select(TableRow.version).where(TableRow.id == table_id))
    if current is None:
        return NotFound(f"no table {table_id!r}")
    return StaleVersion(f"the table is at version {current}, not {expected}")


@dataclass(frozen=True)
class Append:
    """One :meth:`Store.append` request, for :meth:`Store.append_group`."""

    table_id: str
    expected: int
    entries: Sequence[Entry]
    finished_result: list[Any] | None = None
    #: with ``finished_result``: each seat's place (1 first), as the game ranks them
    places: Sequence[int] | None = None


class _Lost(Exception):
    """A race lost inside a transaction: roll it back."""


def parse_notice(payload: str) -> tuple[str, int, str] | None:
    """A notice's table id, version and origin (the notifying store's :attr:`Store.origin`;
    empty from a store of before the origin was sent), or None if it is not one."""
    parts = payload.split(":")
    if len(parts) == 2:
        parts.append("")
    if len(parts) != 3 or not valid_table_id(parts[0]):
        return None
    try:
        return parts[0], int(parts[1]), parts[2]
    except ValueError:
        return None


def valid_table_id(table_id: str) -> bool:
    """Whether ``table_id`` can be a table's id (letters and digits, at most 32): anything else
    is no table, and is never sent to the database."""
    return 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isalnum()


def effective_moves(entries: Sequence[Entry]) -> list[Entry]:
    """The moves a log leaves standing: each undo takes back the move before it."""
    out: list[Entry] = []
    for e in entries:
        if e.kind == UNDO:
            out.pop()
        else:
            out.append(e)
    return out


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        _reopen_after_file_errors(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


#: SQLite's primary result codes that say the file cannot be read or written now (rather than
#: that a statement is wrong), and what each means.
_SQLITE_UNAVAILABLE = {5: "the database is busy", 6: "the database is locked",
                       7: "out of memory", 8: "the file system is read-only",
                       10: "a disk I/O error", 13: "the disk is full",
                       14: "the database file cannot be opened"}
#: Of those, the codes after which the pool's connections are opened anew (see below).
_SQLITE_REOPEN = {8, 10, 14}


def _reopen_after_file_errors(engine: Engine) -> None:
    """After one of :data:`_SQLITE_REOPEN`'s errors, every connection open at that moment is
    closed and the next ones are opened anew. A connection SQLite opened while the file system
    was read-only stays read-only after the file system is writable again, and so does one
    opened while such a connection is open (they share SQLite's index of the write-ahead log):
    one such connection left open keeps every write refused. So the failing connection is
    dropped (its cursor first, or SQLite keeps the file open until the cursor is collected),
    the pool's idle connections are closed at once (``dispose``), and a connection that was in
    use at that moment (a read in another thread) is closed when it is given back instead of
    resting in the disposed pool until the garbage collector finds it. The generation is
    raised after the dispose: a connection opened in between is closed when given back, which
    costs only a reconnect."""
    generation = [0]

    @event.listens_for(engine, "connect")
    def _opened(_dbapi_conn: Any, record: Any) -> None:
        record.info["generation"] = generation[0]

    @event.listens_for(engine, "checkin")
    def _given_back(dbapi_conn: Any, record: Any) -> None:
        if dbapi_conn is not None and record.info.get("generation") != generation[0]:
            record.invalidate()

    @event.listens_for(engine, "handle_error")
    def _failed(ctx: ExceptionContext) -> None:
        if ctx.is_pre_ping:
            return
        code = getattr(ctx.original_exception, "sqlite_errorcode", None)
        if not isinstance(code, int) or code & 0xFF not in _SQLITE_REOPEN:
            return
        cursor = getattr(ctx.execution_context, "cursor", None)
        if cursor is not None:
            with contextlib.suppress(Exception):
                cursor.close()
        ctx.is_disconnect = True
        engine.dispose()
        generation[0] += 1


def _unavailable(ctx: ExceptionContext) -> BaseException | None:
    """SQLAlchemy's ``handle_error`` hook: a database that cannot be reached or written (a
    PostgreSQL server down or restarting, a full disk, a read-only or failing file system)
    raises :class:`StoreUnavailable` instead of SQLAlchemy's error, so callers can refuse with
    a reason (503) and try again later. Other errors pass unchanged; so do errors of
    ``pool_pre_ping``'s ping, after which the pool connects anew by itself."""
    if ctx.is_pre_ping:
        return None
    err = ctx.original_exception
    if ctx.dialect.name == "sqlite":
        code = getattr(err, "sqlite_errorcode", None)
        why = _SQLITE_UNAVAILABLE.get(code & 0xFF) if isinstance(code, int) else None
        if why is None:
            return None
    elif isinstance(ctx.sqlalchemy_exception, OperationalError | InterfaceError):
        why = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
    else:
        return None
    return StoreUnavailable(f"the game store is unavailable ({why}); nothing acknowledged is "
                            "lost: try again in a moment")
