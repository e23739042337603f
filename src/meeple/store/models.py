"""The stored tables: a game table, its seats and its append-only move log.

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
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


#: A table's life: seats still open, game under way, game over (or abandoned).
WAITING, RUNNING, FINISHED = "waiting", "running", "finished"
#: Log entry kinds: a seat's move, a chance outcome the server drew, an undo of the last move.
MOVE, CHANCE, UNDO = "move", "chance", "undo"
#: Seat kinds.
HUMAN, BOT = "human", "bot"
#: A table's pace: played at once (``clock``: seconds a decision) or turn-based
#: (``clock``: seconds a move, hours or days, and ``bank``: each seat's time bank).
LIVE, TURN_BASED = "live", "turn-based"
#: A mail's state in the outbox: to send (at ``next_try``), being sent by one process, sent,
#: given up (after its tries).
QUEUED, SENDING, SENT, FAILED = "queued", "sending", "sent", "failed"


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


class SessionRow(Base):
    """A signed-in browser: ``id`` is the SHA-256 of the random token in its cookie (the token
    itself is kept nowhere)."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class AccountSeatRow(Base):
    """A seat an account holds: one account at most per seat."""

    __tablename__ = "account_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ServerSecretRow(Base):
    """A secret the server processes of one database share (the CSRF key when
    ``MEEPLE_SECRET_KEY`` is unset): made once by the first process that needs it."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SoloClaimRow(Base):
    """A name whose finished solo games an account claimed: once per name and game,
    by one account ever, and one name per account and game. The tables it moved are held by
    the account (``account_seats``)."""

    __tablename__ = "solo_claims"
    __table_args__ = (UniqueConstraint("game", "account_id"),)

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    #: the seat name, exactly as the tables keep it
    name: Mapped[str] = mapped_column(String(60), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    #: how many tables the claim moved
    tables: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


# ---------------------------------------------------------------------------- passkeys
class PasskeyRow(Base):
    """A passkey (a WebAuthn credential) an account signs in with: its public key (COSE), never
    a secret. ``credential_hash`` (the SHA-256 of the credential id) is the unique key; the id
    itself is kept to list it to the browser."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    credential_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: the credential id as the browser gives it (base64url, at most 1023 bytes: 1364 characters)
    credential_id: Mapped[str] = mapped_column(String(1400))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: the credential's public key as the authenticator gave it (a COSE key)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    #: the authenticator's signature counter at its last use (0: it keeps none)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    #: how the browser may reach the authenticator (``internal``, ``usb``, ``hybrid``, ...)
    transports: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: the name the person gave it
    name: Mapped[str] = mapped_column(String(60))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallengeRow(Base):
    """A challenge of a WebAuthn ceremony under way, kept by the SHA-256 of its purpose and
    bytes until it is answered (once: it is deleted then) or expires. Every server process of
    one database finds it."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``register`` (a signed-in account adds a passkey), ``signup`` (a new account with a
    #: passkey only), ``signin``, ``confirm`` (a passkey-only account confirms its deletion)
    purpose: Mapped[str] = mapped_column(String(12))
    #: the account it is for (register, confirm; for signup the id the new account will take)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: what a signup keeps until it is answered: the username, its key, the display name
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


# ---------------------------------------------------------------------------- table chat
class ChatMessageRow(Base):
    """A message of a table's chat: by a seat (``seat``), or by a signed-in spectator (``seat``
    None); ``account_id`` the author's account where there is one (a seat an account holds, a
    signed-in spectator). ``name`` is the name shown, as it was when posted (``deleted
    player`` once the account is deleted). A hidden message (a moderator's decision) is kept
    and shown to nobody."""

    __tablename__ = "chat_messages"
    #: a table's messages in order (history pages, the last 50 at a hello)
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatReportRow(Base):
    """A report of a chat message, kept for the moderators (``meeple reports``): one per
    reporter and message. ``reporter`` is ``a:`` and an account id, or ``c:`` and the digest
    of the client's address (``quotas.client_hash``), never the address."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(
        ForeignKey("chat_messages.id", ondelete="CASCADE"), index=True)
    reporter: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


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


class QueueRow(Base):
    """An account waiting in Play now's queue: one row per account, its wish (the
    game, the variant, the seats), its rating when it asked, whether bots may fill the table,
    and once matched, the table and seat it was given."""

    __tablename__ = "play_queue"
    __table_args__ = (Index("ix_play_queue_bucket", "state", "game", "bucket"),)

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    #: the game, variant and seats as one key: who may be seated together
    bucket: Mapped[str] = mapped_column(String(400))
    rating: Mapped[float] = mapped_column(Float)
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ``waiting``, ``matched`` (table and seat given) or ``gone`` (its page stopped asking)
    state: Mapped[str] = mapped_column(String(12))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: the last time its page asked how it stands (an entry whose page went is not seated)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MailRow(Base):
    """One mail to send: queued, claimed by one server process (``sending``),
    ``sent`` or ``failed`` after its tries. ``key`` names what it is about (``turn:<table>:
    <seat>:<version>``, ``verify:<account>:<n>``...), unique, so two processes that see the
    same turn queue one mail."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_state_next", "state", "next_try"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: ``verify``, ``turn``, ``ended``, ``rematch``
    kind: Mapped[str] = mapped_column(String(12))
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    #: extra headers (List-Unsubscribe and its one-click POST)
    headers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[str] = mapped_column(String(8), default=QUEUED)
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: when it may be (tried) next; while ``sending``, when the claim lapses
    next_try: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
