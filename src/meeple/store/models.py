"""The store's base: the rows the table core and a table's own transactions need.

A game table, its seats and its append-only move log; the idempotency keys of its requests; the
accounts and the seats they hold (the table core reads who holds a seat); and the ratings with
their history (a rated table's finish writes them in the transaction that finishes it, in
:mod:`meeple.store.ratings`). Every other feature keeps its rows in its own package, as
``rows.py`` beside its queries (``meeple/server/features/<name>/rows.py``: accounts' sessions,
passkeys, server secrets and solo claims; chat's messages and reports; mail's outbox; Play
now's queue), on this module's :class:`Base`: one metadata, one schema, built by the
migrations in ``migrations/``.

A table's ``version`` is the number of entries in its log. An accepted move (with the chance
moves the server plays after it) is appended in the same transaction that raises the version,
guarded by ``WHERE version = <the version the move was checked against>``, so two concurrent
moves for one table cannot both be accepted, and ``(table_id, number)`` is unique besides.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    return datetime.now(UTC)


def aware(when: datetime) -> datetime:
    """``when`` with its time zone: the store writes UTC, and SQLite gives its datetimes back
    naive (PostgreSQL's come back aware)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


#: A table's life: seats still open, game under way, game over (or abandoned).
WAITING, RUNNING, FINISHED = "waiting", "running", "finished"
#: Log entry kinds: a seat's move, a chance outcome the server drew, an undo of the last move.
MOVE, CHANCE, UNDO = "move", "chance", "undo"
#: Seat kinds.
HUMAN, BOT = "human", "bot"
#: An account's kind (``accounts.kind``): a person's, or a bot account's (a program that
#: plays through the API with a token; shown BOT).
PERSON, BOT_ACCOUNT = "person", "bot"
#: A table's pace: played at once (``clock``: seconds a decision) or turn-based
#: (``clock``: seconds a move, hours or days, and ``bank``: each seat's time bank).
LIVE, TURN_BASED = "live", "turn-based"


class TableRow(Base):
    __tablename__ = "game_tables"
    #: the lobby's pages (by status, newest change first) and the stale waiting tables
    __table_args__ = (Index("ix_game_tables_status_updated", "status", "updated"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The sheet data in use (shipped or uploaded), as the record keeps it.
    sheet: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    #: The table's own generator: chance is drawn from it on the server; never sent to a client.
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12), index=True, default=WAITING)
    version: Mapped[int] = mapped_column(Integer, default=0)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Seconds a human seat has for each decision (a turn-based table: for each move);
    #: None: no clock.
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: ``live`` or ``turn-based``
    pace: Mapped[str] = mapped_column(String(12), default=LIVE, server_default=LIVE)
    #: A turn-based table's time bank: seconds each person's seat starts with, drawn from by
    #: the time a move takes past ``clock``; None at a live table.
    bank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: When the seat to move started thinking (for the turn clock).
    turn_started: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: Final scores once finished: the record's ``scores``.
    result: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    #: A digest of the client (address) that created it, to cap the open tables a client
    #: holds; None for tables made before it was kept, or by the store directly.
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: The rematch of a finished table: the one new table its people are invited to.
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: How a finished table ended when its game did not: ``abandoned`` (nobody played on, or
    #: nobody joined); None: the game's own end (or a table from before tables kept how they ended).
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: A rated table: its seats are accounts and rated bots, and its end moves
    #: their ratings in the same transaction.
    rated: Mapped[bool] = mapped_column(Boolean, default=False)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.index", cascade="all, delete-orphan")


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    #: The bot spec of a bot seat (``greedy``, ``mcts:seconds=1``), or of the stand-in that
    #: plays for a human seat whose clock ran out.
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str] = mapped_column(String(60))
    #: sha256 of the seat's secret (hex); None while the seat is open.
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: A human seat whose clock ran out is played by its stand-in bot until its person returns.
    absent: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The seat's person conceded: its stand-in plays it to the end, for good.
    conceded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The seat's person conceded, or left the running game of a rated table: placed below the
    #: seats that played on (``forfeit_order`` says when), whatever happens after.
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    #: When it forfeited, as an order among the table's forfeits (1: the first to concede or
    #: leave, placed last); None while its person plays on.
    forfeit_order: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: When its person last took the seat back from the stand-in (a turn-based move's time
    #: starts again then).
    back_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    table: Mapped[TableRow] = relationship(back_populates="seats")


class LogRow(Base):
    __tablename__ = "move_log"
    __table_args__ = (
        UniqueConstraint("table_id", "number"),
        UniqueConstraint("table_id", "client_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          index=True)
    #: 1-based position in the table's log; the table's version after this entry.
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    #: The key of the client request that appended this entry (on the first entry of the
    #: request only): its seat, the version it was made at and a digest of its move id and
    #: moves (``Store.request_key``), so a resent request is recognised and acked again.
    #: None for chance and bot moves.
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: On an entry with a ``client_id``: the version the request's append made (its ack).
    acked: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class IdempotencyRow(Base):
    """A request made with an ``Idempotency-Key`` (create a table, join, leave): a retry with
    the same key gets the same answer. Only digests are kept: the key's SHA-256 (with the
    request's scope and the digest of the client that sent it, so a key is its client's own)
    and the request's; a seat's secret is derived from the key (``Store.key_secret``), never
    stored."""

    __tablename__ = "idempotency_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``create``, ``join`` or ``leave``
    scope: Mapped[str] = mapped_column(String(16))
    request_hash: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    #: the seat taken (create with join_as, join) or left; None for a table created unjoined
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    salt: Mapped[str] = mapped_column(String(32))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


# ---------------------------------------------------------------------------- accounts
class AccountRow(Base):
    """A person's account (optional: playing by link needs none). The username is unique
    case-insensitively (``username_key``, its case-folded form; None once deleted, which frees
    it); only an argon2id hash of the password is kept."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    username_key: Mapped[str | None] = mapped_column(String(120), nullable=True, unique=True)
    #: the key's confusable skeleton (UTS #39, :mod:`meeple.store.lookalike`): no two
    #: usernames may look alike either; None once deleted. Accounts that collided
    #: before it was kept hold ``skeleton#id`` (the oldest keeps the skeleton itself)
    username_skeleton: Mapped[str | None] = mapped_column(String(200), nullable=True,
                                                          unique=True, index=True)
    display_name: Mapped[str] = mapped_column(String(60))
    #: the argon2id hash (PHC string); None once deleted
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: the page preferences (colour-blind mode, ...), as the server's settings model allows
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the e-mail address (optional); nothing but its verification is sent before it is
    #: verified
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=false())
    #: the mail preferences: ``{"turn": bool, "ended": bool, "rematch": bool}`` (None: all on)
    notify: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: ``person``, or ``bot``: a bot account (made so once, for good, by its owner) plays only
    #: through the API with a token and is marked BOT wherever its name shows
    kind: Mapped[str] = mapped_column(String(8), default=PERSON, server_default=PERSON)


class AccountSeatRow(Base):
    """A seat an account holds: one account at most per seat."""

    __tablename__ = "account_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


# ---------------------------------------------------------------------------- ratings
class RatingRow(Base):
    """A subject's rating in a game: an account (its id) or a bot's difficulty
    (``bot:medium``). ``ordinal`` is ``mu - 3 sigma``, kept for the leaderboard's order."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("subject", "game"),
                      Index("ix_ratings_game_ordinal", "game", "ordinal"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    #: rated games played
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """One rated game of one subject: its rating before and after, and its place."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("subject", "table_id"),
                      Index("ix_rating_history_subject_game", "subject", "game", "at"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          index=True)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    #: the place the rating counted (1 first; a seat that left is last)
    place: Mapped[int] = mapped_column(Integer)
    #: how many seats were rated in that game
    players: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
