"""The lobby's request and response bodies and the WebSocket frames (pydantic models).

WebSocket frames are JSON objects with a ``type``; ``src/meeple/server/table/README.md`` (*WebSocket
play*) says what each means.
From a client, one of :data:`ClientFrame` (parsed with :data:`CLIENT_FRAMES`): :class:`Hello`,
:class:`Move`, :class:`Undo`, :class:`Preview`, :class:`Back`, :class:`Ping`, :class:`Chat`. Fields a frame
type does not know are ignored; a frame that does not validate is answered with an ``error``
frame saying why (:func:`frame_problem`). From the server, one of :data:`ServerFrame`:
:class:`Welcome`, :class:`ViewFrame`, :class:`Ack`, :class:`PreviewFrame`,
:class:`RefusedFrame`, :class:`ErrorFrame`, :class:`PresenceFrame`, :class:`ClockFrame`,
:class:`Pong`, :class:`ChatFrame`.
``meeple schema --protocol`` prints the JSON Schema of both (:func:`protocol_schema`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from meeple.bots.limits import MAX_SPEC_LENGTH
from meeple.core.view import View
from meeple.server.table.checks import MAX_PARAM, checked_name
from meeple.server.table.pace import BANK_DEFAULT, BANK_MAX, MOVE_DEFAULT, MOVE_MAX, MOVE_MIN

#: The largest frame a client may send, in bytes.
MAX_FRAME = 16 * 1024
#: The longest clock of a live table: seconds a decision.
LIVE_MAX = 86400


def _name(value: str) -> str:
    return checked_name(value, "a name", 60)


#: A player's or seat's name: 1 to 60 characters, NFKC-normalised, with no invisible or
#: formatting character and no letters of two look-alike scripts (``checks.checked_name``).
Name = Annotated[str, AfterValidator(_name)]
#: A seat number (the game's own seat count is checked by the table).
SeatNumber = Annotated[int, Field(ge=0, le=MAX_PARAM)]


class SeatRequest(BaseModel):
    """A seat of a new table: ``human`` (open for a person) or ``bot`` with its spec."""

    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(None, max_length=MAX_SPEC_LENGTH,
                            description="bot spec, e.g. greedy or mcts:seconds=1 (within the "
                                        "limits of docs/server.md)")
    name: Name | None = Field(None, max_length=60)


class CreateTable(BaseModel):
    game: str = Field(description="a game name, see GET /api/games")
    variant: dict[str, Any] = Field(default_factory=dict,
                                    description="variant options, e.g. {\"level\": 2}")
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)
    clock: int | None = Field(None, ge=5, le=MOVE_MAX, description=(
        "a live table: seconds per decision for human seats (5 to 86400; none: off); a "
        "turn-based table: seconds per move (3600 to 604800: 1 hour to 7 days; default a "
        "day)"))
    pace: Literal["live", "turn-based"] = Field("live", description=(
        "live: played at one sitting; turn-based: each move may take hours or days, with a "
        "time bank per seat"))
    bank: int | None = Field(None, ge=0, le=BANK_MAX, description=(
        "a turn-based table: the time bank each seat starts with, in seconds (0 to 30 days; "
        "default 3 days): a move's time past `clock` is drawn from it"))
    public: bool = Field(True, description="listed in the lobby (else reachable by link only)")
    #: A table may be created with its first seat taken at once by its creator.
    join_as: Name | None = Field(None, max_length=60,
                                description="take the first open seat under this name")
    #: A sheet of the players' own (Gardens, Reefs, Takenokolor), checked again and kept.
    sheet: str | dict[str, Any] | None = Field(
        None, description="an uploaded sheet: the TOML file's text, or the sheet data that "
                          "POST /api/sheets/{game}/check gave back")
    rated: StrictBool = Field(False, description=(
        "a rated table (docs/ratings.md): at least 2 seats, at least one person's; every "
        "person's seat is taken by a signed-in account, every bot is easy, medium, hard or expert; "
        "its end moves the seats' ratings. Default false: casual"))

    @model_validator(mode="after")
    def _pace(self) -> Self:
        """A live table's clock is 5 s to a day a decision, and it has no bank; a turn-based
        table's is an hour to 7 days a move (default a day), with a bank (default 3 days)."""
        if self.pace == "live":
            if self.clock is not None and self.clock > LIVE_MAX:
                raise ValueError(f"clock: a live table's clock is 5 to {LIVE_MAX} seconds a "
                                 f"decision; for hours or days a move, make it turn-based "
                                 f"(pace: turn-based)")
            if self.bank is not None:
                raise ValueError("bank: only a turn-based table has a time bank (pace: "
                                 "turn-based)")
            return self
        if self.clock is None:
            self.clock = MOVE_DEFAULT
        if not MOVE_MIN <= self.clock <= MOVE_MAX:
            raise ValueError(f"clock: a turn-based table gives each move {MOVE_MIN} to "
                             f"{MOVE_MAX} seconds (an hour to 7 days), not {self.clock}")
        if self.bank is None:
            self.bank = BANK_DEFAULT
        return self


class JoinTable(BaseModel):
    seat: SeatNumber | None = Field(None, description="the seat to take; default the first "
                                                      "open one")
    name: Name = Field("player", min_length=1, max_length=60)


class SeatOut(BaseModel):
    """What a client sees of a seat (the store's record, no secret) and its rating."""

    index: int
    kind: str
    name: str
    bot: str | None
    taken: bool
    absent: bool
    conceded: bool = Field(False, description="its person conceded: a bot plays it to the "
                                              "end")
    forfeit: bool = Field(False, description="its person conceded the running game, or left "
                                             "it at a rated table: placed below every seat "
                                             "that played on, the first to forfeit last "
                                             "(docs/ratings.md)")
    rating: int | None = Field(None, description=(
        "the rating in this game of the account that holds the seat, or of a named "
        "difficulty's bot (docs/ratings.md); at a finished rated table, the one its game "
        "gave; null for an open seat, a guest, another bot"))
    provisional: bool = Field(False, description="the rating is provisional (new: its "
                                                 "uncertainty sigma is still 5 or more), shown "
                                                 "with a '?'; it moves fast")
    rating_change: int | None = Field(None, description="at a finished rated table: what "
                                                        "its game changed the rating by")
    rating_note: str | None = Field(None, description="with rating_change: why it changed by "
                                                      "that much, in words")
    bot_account: bool = Field(False, description="the seat is held by a bot account (a "
                                                 "program playing through the API): shown BOT")
    place: int | None = Field(None, description="once the game is over: its place (1 first; "
                                                "equal totals share a place, A4; a seat that "
                                                "forfeited is below the others)")


class TableOut(BaseModel):
    id: str
    game: str
    title: str
    variant: dict[str, Any]
    players: int
    status: str
    version: int
    public: bool
    clock: int | None
    rated: bool = False
    seats: list[SeatOut]
    open_seats: list[int]
    created: str
    updated: str
    result: list[Any] | None
    #: The name of the table's own (uploaded) sheet; None on a shipped sheet.
    own_sheet: str | None = None
    #: A finished table's rematch, once someone made it.
    rematch: str | None = None
    #: ``abandoned``: finished without its game's end (nobody joined, or nobody played on).
    ended: str | None = None
    #: ``live`` or ``turn-based``
    pace: str = "live"
    #: a turn-based table's time bank per seat at the start, in seconds (null: live)
    bank: int | None = None


class Joined(BaseModel):
    table: TableOut
    seat: int
    secret: str = Field(description="this seat's secret: keep it; it is shown only once")


class Rematch(BaseModel):
    seat: SeatNumber = Field(description="your seat at the finished table (the same seat at "
                                         "the rematch)")
    secret: str | None = Field(None, max_length=200, description=(
        "that seat's secret; without it, a signed-in session whose account holds the seat"))
    name: Name | None = Field(None, min_length=1, max_length=60, description=(
        "your name at the rematch; default the one you had"))


class SeatAct(BaseModel):
    """A request for one seat: its number and secret (or a session that holds it)."""

    seat: SeatNumber
    secret: str | None = Field(None, max_length=200, description=(
        "the seat's secret; without it, a signed-in session whose account holds the seat"))


class Leave(BaseModel):
    seat: SeatNumber
    secret: str | None = Field(None, max_length=200, description=(
        "the seat's secret; without it, a signed-in session whose account holds the seat"))


# ---------------------------------------------------------------------- WebSocket frames
def _printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("must be printable text (no control characters)")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank: a move's text, e.g. \"take O\"")
    return value


#: A move (or other decision) in the game's notation, as ``legal_moves`` lists them.
MoveText = Annotated[StrictStr, Field(min_length=1, max_length=200,
                                      description="a decision in the game's notation, e.g. "
                                                  "\"take O\""), AfterValidator(_not_blank)]
#: A client's own move id: a resend with the same id is acknowledged, not played twice.
MoveId = Annotated[StrictStr, Field(min_length=1, max_length=64,
                                    description="the client's own id for this request (1 to "
                                                "64 printable characters; see Move ids)"),
                   AfterValidator(_printable)]
#: The table version the client last saw (a move made on an older one is refused as stale).
Version = Annotated[StrictInt, Field(description="the table version the client last saw")]
#: The decisions of one frame: a whole turn at most.
Steps = Annotated[list[MoveText], Field(max_length=64)]


class _ClientFrame(BaseModel):
    """A frame from a client. Fields a frame type does not know are ignored."""

    model_config = ConfigDict(extra="ignore")


def _steps_schema(schema: dict[str, Any]) -> None:
    """``moves`` is a list when given (never null), and ``move`` or ``moves`` is given."""
    moves = schema["properties"]["moves"]
    moves.update(next(s for s in moves.pop("anyOf") if s.get("type") == "array"))
    moves.pop("default", None)
    schema["anyOf"] = [{"required": ["move"]}, {"required": ["moves"]}]


class _WithSteps(_ClientFrame):
    """A frame carrying decisions: ``moves`` (a list), else ``move`` (one)."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_steps_schema)

    move: MoveText | None = Field(default=None,
                                  description="one decision (when moves is not given)")
    moves: Steps | None = Field(default=None,
                                description="several decisions of this seat in a row, at most 64")

    #: whether an empty ``moves`` list is allowed
    _empty: ClassVar[bool] = False

    @model_validator(mode="after")
    def _has_steps(self) -> Self:
        if "moves" in self.model_fields_set:
            if self.moves is None:
                raise ValueError("moves must be a list of move texts, not null")
            if not self.moves and not self._empty:
                raise ValueError("moves must hold at least one move's text")
        elif self.move is None:
            raise ValueError('give "moves", a list of move texts (e.g. ["take O", "B4"]), or '
                             '"move", one move\'s text')
        return self

    @property
    def steps(self) -> list[str]:
        """The decisions asked for, in order."""
        if "moves" in self.model_fields_set:
            return list(self.moves or ())
        return [self.move] if self.move is not None else []


class Hello(_ClientFrame):
    """Act for a seat (with its secret), or watch as a spectator (no seat). Say it first."""

    type: Literal["hello"]
    seat: Annotated[StrictInt, Field(ge=0, le=MAX_PARAM)] | None = Field(
        default=None, description="the seat to act for (with its secret); none: watch")
    secret: StrictStr | None = Field(default=None, max_length=200,
                                     description="the seat's secret, from join or create")
    text: StrictBool | None = Field(
        default=None, description="true: every view carries the terminal drawing (text)")
    updates: StrictBool | None = Field(
        default=None, description="true: after the first view, each new version comes as an "
        "update frame (what changed since the version this connection was sent last, as JSON "
        "Patch); else every version is a whole view frame")
    presence: StrictBool | None = Field(
        default=None, description="true: this connection is told which seats have a "
        "connection open (presence frames: one after the first view, then one at every "
        "change)")
    clock: StrictBool | None = Field(
        default=None, description="true: on a table with a turn clock, this connection is "
        "told whose clock runs, how long it has left and which seats a stand-in bot plays "
        "for (clock frames: one after the first view, then one at every change)")
    merged_ack: StrictBool | None = Field(
        default=None, description="true: a move of this connection that is accepted is "
        "acknowledged inside the view or update frame of the new version (its field ack, "
        "{\"id\": the move's id}) instead of an ack frame of its own: one frame per accepted "
        "move (an undo, and a resend already played, still get an ack frame)")
    preview_updates: StrictBool | None = Field(
        default=None, description="true (with updates): a preview's answer carries what its "
        "view changes in the view of the version this connection holds (base, patch) "
        "instead of the whole view")
    opening: StrictBool | None = Field(
        default=None, description="true: when this seat's turn opens with decisions that have "
        "a single legal move each, the server previews them for this connection unasked and "
        "sends that preview frame (opening: true) right after the view: the client does not "
        "send them back")
    chat: StrictBool | None = Field(
        default=None, description="true: this connection gets the table's chat: its last 50 "
        "messages in a chat frame after the view (history), then every new message")


class Move(_WithSteps):
    """Play decisions of this seat: all of them or none."""

    type: Literal["move"]
    version: Version
    id: MoveId | None = None


class Undo(_ClientFrame):
    """Take back this seat's last decision of its unfinished turn, as the engine allows."""

    type: Literal["undo"]
    version: Version
    id: MoveId | None = None


class Preview(_WithSteps):
    """The position after these decisions of this seat's turn, playing nothing."""

    type: Literal["preview"]
    _empty: ClassVar[bool] = True


class Back(_ClientFrame):
    """A seat whose turn clock ran out takes its seat back from its stand-in bot."""

    type: Literal["back"]


class Ping(_ClientFrame):
    """Answered by ``pong``."""

    type: Literal["ping"]


class Chat(_ClientFrame):
    """Post a message to the table's chat: a seat's client, or a signed-in spectator."""

    type: Literal["chat"]
    text: StrictStr = Field(description="the message: 1 to 500 characters of printable text "
                            "once NFKC-normalised and trimmed (newlines and runs of spaces "
                            "become one space)")


#: Every frame a client may send, told apart by ``type``.
ClientFrame = Annotated[Hello | Move | Undo | Preview | Back | Ping | Chat,
                        Field(discriminator="type")]
CLIENT_FRAMES: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)
#: The client frames' types, in the order the docs give them.
CLIENT_TYPES = ("hello", "move", "undo", "preview", "back", "ping", "chat")


def _type_required(schema: dict[str, Any]) -> None:
    schema["required"] = ["type", *(f for f in schema.get("required", []) if f != "type")]


class _ServerFrame(BaseModel):
    """A frame from the server: ``type`` and the required fields are always sent, an optional
    field only when it applies (it was given when the frame was made)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_type_required)

    def dump(self) -> str:
        """The frame as JSON text, as it goes on the wire."""
        absent = set(type(self).model_fields) - self.model_fields_set - {"type"}
        return self.model_dump_json(by_alias=True, exclude=absent)


class Welcome(_ServerFrame):
    """The hello is accepted: this connection acts for ``seat`` (null: a spectator)."""

    type: Literal["welcome"] = "welcome"
    table: str
    seat: int | None


class MoveAck(BaseModel):
    """A move acknowledged inside a view or update frame (hello ``merged_ack``): stored."""

    id: str | None = Field(description="the move's id (null if it had none)")


class ViewFrame(_ServerFrame):
    """The position as this client may see it, after every change (also after hello).
    ``view``'s ``board`` is the game's own part: ``meeple schema GAME`` gives its schema."""

    type: Literal["view"] = "view"
    ack: MoveAck | None = Field(default=None, description="only to a connection that said "
                                "merged_ack: its own move, acknowledged by this frame")
    version: int
    forced: list[str] | None = Field(
        default=None, description="only to the seat to move, when its turn opens with decisions "
        "that have a single legal move each: those moves, which the server plays for the "
        "player; send them as the first moves of a preview. Absent otherwise")
    view: View


class PatchOp(BaseModel):
    """One JSON Patch operation (RFC 6902): add, replace or remove the value at ``path`` (a
    JSON Pointer into the view; ``/-`` at the end of an add appends to a list)."""

    op: Literal["add", "replace", "remove"]
    path: str
    value: Any = Field(default=None, description="the new value (add and replace only)")


class UpdateFrame(_ServerFrame):
    """A new version, as what changed: apply ``patch`` to the view of version ``base`` (the
    last one this connection was sent) to get the view of ``version``. Sent only to a
    connection that said ``updates: true`` in its hello, and only after it was sent a whole
    view; a client that does not hold version ``base`` says hello again for a whole view."""

    type: Literal["update"] = "update"
    ack: MoveAck | None = Field(default=None, description="only to a connection that said "
                                "merged_ack: its own move, acknowledged by this frame")
    version: int
    base: int = Field(description="the version the patch applies to")
    forced: list[str] | None = Field(
        default=None, description="as in the view frame: the forced decisions that open the "
        "turn of the seat to move, to that seat only")
    patch: list[PatchOp]


class Ack(_ServerFrame):
    """The move (or undo) with this id is stored: sent only after the commit."""

    type: Literal["ack"] = "ack"
    id: str | None
    version: int
    resent: Literal[True] | None = Field(
        default=None, description="the same frame again (its ack was lost): it was played once, already; "
                    "nothing changed")


class PreviewFrame(_ServerFrame):
    """The answer to a preview: the decisions with every forced one after them played, whether
    the turn is then complete, and the seat's view of that position (whole, or as a patch of
    the view of version ``base`` for a connection that said ``preview_updates``)."""

    type: Literal["preview"] = "preview"
    moves: list[str]
    complete: bool
    forced: list[bool] = Field(description="for each of moves: whether it was forced (the "
                               "only legal move then), so the server played it or would have; "
                               "an undo in a client takes a chosen move back with the forced "
                               "ones after it")
    opening: Literal[True] | None = Field(
        default=None, description="true: not an answer, the server previewed the forced "
        "decisions that open this seat's turn by itself (hello opening)")
    version: int | None = Field(default=None, description="with opening: the table version "
                                "the preview was built on")
    base: int | None = Field(default=None, description="with patch: the version whose view "
                             "(the last whole view or update this connection was sent) the "
                             "patch applies to")
    patch: list[PatchOp] | None = Field(default=None, description="instead of view: what the "
                                        "preview's view changes in the view of version base")
    view: View | None = Field(default=None, description="the seat's view after the moves "
                              "(absent when patch is given)")


class RefusedFrame(_ServerFrame):
    """A move, undo or preview refused (the engine's reason, a stale version, not this seat's
    turn, a spectator); nothing changed. ``retry``: the store could not take it just now, send
    it again (with the same id) in a moment."""

    type: Literal["refused"] = "refused"
    id: str | None = Field(default=None, description="the move's id (a move or undo; null if it had "
                                             "none); absent for a preview")
    preview: Literal[True] | None = Field(default=None, description="true: a refused preview")
    reason: str
    version: int | None = Field(default=None, description="the table's version (the client's own when "
                                                  "the store could not be asked)")
    retry: Literal[True] | None = None


class ErrorFrame(_ServerFrame):
    """A frame that is not valid (the reason says which field and what is allowed), or a hello
    with a wrong secret; nothing changed and the connection stays usable. ``retry``: the store
    could not serve it just now."""

    type: Literal["error"] = "error"
    reason: str
    retry: Literal[True] | None = None
    chat: Literal[True] | None = Field(default=None, description="true: a chat message "
                                       "refused (nothing was posted)")


class PresenceFrame(_ServerFrame):
    """Who is at the table: for each seat whether a connection acts for it now (a client
    said hello with its secret and is still connected), and how many connections watch.
    Sent only to a connection that said ``presence: true`` in its hello: once after its
    first view, then whenever it changes. What this server process sees: a client connected
    to another process of the same database is not counted."""

    type: Literal["presence"] = "presence"
    seats: list[bool] = Field(description="for each seat: whether a connection acts for it "
                              "now (false for a bot seat: a bot has no connection)")
    spectators: int = Field(description="connections watching without a seat")
    conceded: list[bool] = Field(default_factory=list, description=(
        "for each seat: whether its person conceded (a bot plays it to the end)"))
    rematch: str | None = Field(None, description=(
        "a finished table's rematch (the id of the one new table its people are invited "
        "to), once someone made it; null before"))


class RanOut(BaseModel):
    """What a stand-in bot played for a seat whose turn clock ran out while its person was
    connected."""

    seat: int
    moves: list[str] = Field(description="its decisions since the seat was last the "
                             "person's, oldest first (the last 16 at most)")
    version: int = Field(description="the table version after the last of them")


class ClockFrame(_ServerFrame):
    """The turn clock of a table that has one (``clock`` in the table), sent only to a
    connection that said ``clock: true`` in its hello: once after its first view, then after
    every new version, every decision previewed by the seat to move (which restarts its
    clock) and every change of who a stand-in plays for. A client counts ``left`` down from
    the moment the frame arrives."""

    type: Literal["clock"] = "clock"
    version: int = Field(description="the table version it is about")
    limit: int = Field(description="the clock: seconds for each decision")
    seat: int | None = Field(description="the seat whose clock runs (a person to move), or "
                             "null: nobody's (a bot or a stand-in playing at its own pace is "
                             "to move, a roll, or the game is over)")
    left: float | None = Field(description="seconds left on that clock, or null")
    stood_in: list[bool] = Field(description="for each seat: whether a stand-in bot plays for "
                                 "it (its person's time ran out)")
    ran_out: list[RanOut] | None = Field(
        default=None, description="for each stood-in seat whose person is connected: what its "
        "stand-in played since (absent when none)")
    pace: Literal["turn-based"] | None = Field(
        default=None, description="turn-based: the table gives each move `limit` "
        "seconds and each seat a time bank; absent at a live table")
    bank: int | None = Field(default=None, description="turn-based: each seat's bank at the "
                             "start, in seconds")
    move_left: float | None = Field(
        default=None, description="turn-based: seconds left of the running move's allowance "
        "(negative once the bank is being drawn from), or null")
    banks: list[float | None] | None = Field(
        default=None, description="turn-based: each person's seat's bank left now, in seconds "
        "(the seat to move's counted down as it is drawn from); null for a bot seat")


class Pong(_ServerFrame):
    """The answer to a ping."""

    type: Literal["pong"] = "pong"


class ChatLine(BaseModel):
    """One message of a table's chat, as every client is sent it."""

    id: int = Field(description="its number (increasing with time; history pages by it)")
    at: str = Field(description="when it was posted (ISO 8601, UTC)")
    seat: int | None = Field(description="the seat that posted it; null: a spectator")
    name: str = Field(description="the name shown: the seat's name, or the signed-in "
                      "spectator's display name, as it was when posted (\"deleted player\" "
                      "once the account is deleted)")
    spectator: bool = Field(description="whether a spectator posted it")
    author: str = Field(description="an opaque key of its author, to mute them by: the same "
                        "for every message of one account, else of one seat at one table")
    text: str = Field(description="the message, as text (never markup)")


class ChatFrame(_ServerFrame):
    """The table's chat, to a connection that said ``chat: true`` in its hello: its last
    messages after the view (``history``), then each new message as it is posted; a message
    posted by this connection comes back to it with ``posted``; messages a moderator hid are
    named in ``hidden``."""

    type: Literal["chat"] = "chat"
    messages: list[ChatLine] = Field(description="messages, oldest first")
    history: Literal[True] | None = Field(
        default=None, description="true: the table's last messages (at most 50), sent after "
        "the hello: they replace what the client holds (it keeps any it was sent since with a "
        "higher id)")
    post: bool | None = Field(default=None, description="with history: whether this "
                              "connection may post")
    reason: str | None = Field(default=None, description="with post false: why not (sign in "
                               "to chat as a spectator; no chat at a table of bots only)")
    you: str | None = Field(default=None, description="with history: the author key this "
                            "connection's messages carry (null: it cannot post)")
    posted: Literal[True] | None = Field(default=None, description="true: to the connection "
                                         "that posted it: its message, stored")
    hidden: list[int] | None = Field(default=None, description="ids of messages a moderator "
                                     "hid: shown no more")


#: Every frame the server sends, told apart by ``type``.
ServerFrame = Annotated[Welcome | ViewFrame | UpdateFrame | Ack | PreviewFrame | RefusedFrame
                        | ErrorFrame | PresenceFrame | ClockFrame | Pong | ChatFrame,
                        Field(discriminator="type")]
SERVER_FRAMES: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)


def with_view(head: dict[str, Any], view: View) -> str:
    """A frame's JSON text: ``head``'s fields and then the view, written by pydantic's
    serializer straight to text (several times faster than through dicts)."""
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return f'{text[:-1]},"view":{view.model_dump_json(by_alias=True)}}}'


def frame_problem(exc: ValidationError, kind: str) -> str:
    """The reason an ``error`` frame gives for a ``kind`` frame that did not validate: each
    field that is wrong and what it allows, in words (never the input itself)."""
    problems = []
    for err in exc.errors(include_input=False, include_url=False):
        if err["type"] == "union_tag_invalid":
            return (f"unknown frame type {kind[:40]!r}; types: {', '.join(CLIENT_TYPES)}")
        where = ".".join(str(p) for p in err["loc"][1:])  # the first is the frame's type
        message = str(err.get("msg", "invalid"))
        if isinstance(err.get("ctx"), dict) and "error" in err["ctx"]:
            message = str(err["ctx"]["error"])
        problems.append(f"{where}: {message}" if where else message)
    shown = "; ".join(problems[:5])
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    text = f"not a valid {kind} frame: {shown}{more}"
    return text.encode("utf-8", "replace").decode("utf-8")


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the WebSocket protocol: a frame is valid if it is one of the frames a
    client may send (``$defs.ClientFrame``) or one the server sends (``$defs.ServerFrame``),
    each a union told apart by ``type``. A view's ``board`` is the game's own part."""
    client = CLIENT_FRAMES.json_schema(ref_template="#/$defs/{model}")
    server = SERVER_FRAMES.json_schema(ref_template="#/$defs/{model}", mode="serialization",
                                       by_alias=True)
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    client["description"] = "a frame a client sends"
    server["description"] = "a frame the server sends"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "meeple WebSocket protocol (/ws/tables/{id})",
            "description": "Every frame is a JSON object with a type (docs/server.md); a "
                           "view's board is the game's own part (meeple schema GAME).",
            "anyOf": [{"$ref": "#/$defs/ClientFrame"}, {"$ref": "#/$defs/ServerFrame"}],
            "$defs": {**defs, "ClientFrame": client, "ServerFrame": server}}
