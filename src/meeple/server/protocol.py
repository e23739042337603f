"""The lobby's request and response bodies and the WebSocket frames (pydantic models).

WebSocket frames are JSON objects with a ``type``. From a client:

- ``{"type": "hello", "seat": 0, "secret": "..."}`` (or ``{"type": "hello"}`` to watch);
- ``{"type": "move", "move": "take O", "version": 12, "id": "c-17"}``: a move in the game's
  notation, with the table version the client last saw and a move id of its own;
- ``{"type": "undo", "version": 13, "id": "c-18"}``: take back this seat's last decision of its
  unfinished turn, as the engine allows;
- ``{"type": "back"}``: a seat whose turn clock ran out takes its seat back from its stand-in;
- ``{"type": "ping"}``.

From the server: ``welcome``, ``view`` (``{"type": "view", "version": 13, "view": {...}}``,
after every change), ``ack`` (``{"type": "ack", "id": "c-17", "version": 13}``, sent only after
the move is committed), ``refused`` (``{"type": "refused", "id": ..., "reason": ...,
"version": <current>}``), ``error`` (a bad frame; the connection stays usable) and ``pong``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field

from meeple.bots.limits import MAX_SPEC_LENGTH
from meeple.server.checks import MAX_PARAM, checked_text

#: The largest frame a client may send, in bytes.
MAX_FRAME = 16 * 1024


def _name(value: str) -> str:
    return checked_text(value, "a name", 60)


#: A player's or seat's name: printable text of 1 to 60 characters.
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
    clock: int | None = Field(None, ge=5, le=86400,
                              description="seconds per decision for human seats; none: off")
    public: bool = Field(True, description="listed in the lobby (else reachable by link only)")
    #: A table may be created with its first seat taken at once by its creator.
    join_as: Name | None = Field(None, max_length=60,
                                description="take the first open seat under this name")
    #: A sheet of the players' own (Gardens, Reefs, Takenokolor), checked again and kept.
    sheet: str | dict[str, Any] | None = Field(
        None, description="an uploaded sheet: the TOML file's text, or the sheet data that "
                          "POST /api/sheets/{game}/check gave back")


class JoinTable(BaseModel):
    seat: SeatNumber | None = Field(None, description="the seat to take; default the first "
                                                      "open one")
    name: Name = Field("player", min_length=1, max_length=60)


class SeatOut(BaseModel):
    index: int
    kind: str
    name: str
    bot: str | None
    taken: bool
    absent: bool


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
    seats: list[SeatOut]
    open_seats: list[int]
    created: str
    updated: str
    result: list[Any] | None
    #: The name of the table's own (uploaded) sheet; None on a shipped sheet.
    own_sheet: str | None = None


class Joined(BaseModel):
    table: TableOut
    seat: int
    secret: str = Field(description="this seat's secret: keep it; it is shown only once")


class Leave(BaseModel):
    seat: SeatNumber
    secret: str = Field(max_length=200)
