"""A live table in this server process: the record its three owners share.

The server's move path has one owner per concern (boardgame.io splits its Master from its
transport and storage the same way):

- :class:`~meeple.server.table.authority.Authority` checks, plays and commits: it alone writes a
  runtime's position (``table``, ``state``, ``lines``, ``version``, ``befores``, ``since``);
- :class:`~meeple.server.table.broadcaster.Broadcaster` tells the clients: it alone writes
  ``shown`` and ``presence_sent`` and sends frames to ``clients``;
- :class:`~meeple.server.table.scheduler.BotScheduler` plays the bots and the stand-ins of
  persons whose turn clock ran out: it alone writes ``bot_task``, ``bots`` and ``ran_out``.

:class:`~meeple.server.table.service.Service` puts them together (a change is committed, then told,
then the bots to move are scheduled). A :class:`Runtime` holds the fields of all three, each
written by its owner only, so each owner is testable with a runtime and without the others.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from meeple.core.present import announcements, move_words
from meeple.core.state import CHANCE, State
from meeple.core.turn import Turn
from meeple.core.view import LogLine, log_line
from meeple.server.table.pace import MoveTimes
from meeple.store import BOT, HUMAN, RUNNING, Table
from meeple.store.models import TURN_BASED

if TYPE_CHECKING:
    from meeple.server.table.broadcaster import Shown

#: The bot that plays for a human seat whose turn clock ran out, unless the seat names one.
STAND_IN = "greedy"

#: Sends a frame to a client: a dict, or a frame already written as JSON text.
Sender = Callable[[dict[str, Any] | str], Awaitable[None]]


def log_note(before: State[Any], after: State[Any]) -> LogLine:
    """A step's log line in words (the move's words and what it caused): what
    :class:`~meeple.core.turn.Turn` keeps with each step of a turn in progress, and what the
    table's log gets when the turn is committed."""
    return log_line(after, announcements(before, after),
                    move_words(before, after.last_logged()[1]))


@dataclass(eq=False)
class Draft:
    """A connection's turn in progress (:class:`~meeple.core.turn.Turn`), built by its
    previews and committed by its move: kept while the table stays at the version (and the
    position) it was built on. A preview with one step more than the last costs one step of
    the engine, one with a step fewer (an undo in the browser) one pop, and a move that
    confirms the previewed turn costs no step at all (its positions are committed as they
    are)."""

    turn: Turn[Any] | None = None
    version: int = -1

    def turn_for(self, rt: Runtime, seat: int) -> Turn[Any]:
        """The kept turn if it was built on the table's position now for ``seat`` (and its
        names), else a new one from that position."""
        turn = self.turn
        state = rt.state
        if (turn is None or self.version != rt.version or turn.start is not state
                or turn.seat != seat or turn.position.seats is not state.seats):
            turn = self.turn = Turn(state, note=log_note)
            self.version = rt.version
        return turn


@dataclass(eq=False)
class Client:
    """A connected WebSocket: who it is and how to send it a frame."""

    viewer: int | None
    send: Sender
    #: whether its views carry the terminal drawing as plain text
    text: bool = False
    #: the turn its previews build and its move confirms (one per connection)
    draft: Draft = field(default_factory=Draft)
    #: whether it takes update frames (deltas) after its first whole view
    updates: bool = False
    #: the version and the view (as JSON data) it was sent last: what its next update is from
    sent_version: int = -1
    sent_view: dict[str, Any] | None = None
    #: the view (as JSON data) of its last preview answer: what its next preview patch is
    #: from (only for a client that takes updates)
    preview_view: dict[str, Any] | None = None
    #: whether it is told who is at the table (presence frames)
    presence: bool = False
    #: whether it is told whose turn clock runs and how long it has left (clock frames)
    clock: bool = False
    #: whether its own accepted move is acknowledged inside the view or update frame of the
    #: new version (``ack``) instead of an ``ack`` frame of its own (hello ``merged_ack``)
    merged_ack: bool = False
    #: whether a preview's answer comes as a patch of the view it holds (hello
    #: ``preview_updates``, with ``updates``)
    preview_updates: bool = False
    #: whether the forced decisions that open its seat's turn are previewed for it by the
    #: server, unasked (hello ``opening``)
    opening: bool = False
    #: what proved its seat at its hello (src/meeple/server/features/accounts/README.md,
    #: "One identity per seat"):
    #: ``("secret", the secret's hash)`` or ``("session", the session's id)``; None: a
    #: spectator. When the seat changes hands, is left or its secret is revoked, the proof
    #: no longer holds and :attr:`end` closes the socket.
    holder: tuple[str, str] | None = None
    #: closes its socket with a close code and a reason (None: it cannot be closed from here)
    end: Callable[[int, str], Awaitable[None]] | None = None


@dataclass(eq=False)
class Runtime:
    """One live table. Each field is written by one owner (see the module's docstring)."""

    # ---- the authority's: the position and what it cost to reach
    table: Table
    state: State[Any]
    lines: list[LogLine]
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: when the position last changed, or the person to move last acted (the turn clock)
    since: float = field(default_factory=time.monotonic)
    #: the positions before the last decisions that undo can take back (the seat to move's
    #: own, in this turn), oldest first: an undo is one of them, not a replay of the game
    befores: list[State[Any]] = field(default_factory=list)
    #: the version and the forced decisions that open the turn there (see
    #: :meth:`~meeple.server.table.broadcaster.Broadcaster.opening_forced`)
    opening: tuple[int, list[str]] | None = None
    #: a turn-based table's move and bank times, from the stored log's times (None: live)
    times: MoveTimes | None = None
    # ---- the broadcaster's: who is told, and what was made for them
    clients: set[Client] = field(default_factory=set)
    #: the views made for the position now, by (viewer, text): see :class:`Shown`
    shown: dict[tuple[int | None, bool], Shown] = field(default_factory=dict)
    shown_version: int = -1
    #: the parts of the views compared for the updates of this version, for every client
    #: whose view shares them (the public board): see :func:`meeple.core.delta.diff`
    diffed: dict[tuple[int, int, str], Any] = field(default_factory=dict)
    #: the presence frame sent last, as JSON text
    presence_sent: str | None = None
    # ---- the bot scheduler's
    bot_task: asyncio.Task[None] | None = None
    #: the bots that decide on the server itself (:data:`~meeple.server.table.scheduler.INLINE_BOTS`),
    #: by (seat, spec)
    bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    #: the decisions a stand-in bot played for each seat whose clock ran out while its
    #: person was connected, and the version after the last: for the clock frames, until the
    #: person takes the seat back
    ran_out: dict[int, tuple[list[str], int]] = field(default_factory=dict)

    def seat_kind(self, seat: int) -> tuple[str, str | None, bool]:
        s = self.table.seats[seat]
        return s.kind, s.bot, s.absent

    def bot_for(self, seat: int) -> str | None:
        """The bot that plays ``seat`` at its own pace now: its own for a bot seat, the
        stand-in for an absent person's seat that no connection acts for, none for a present
        person. The stand-in of an absent seat whose person is connected (their page is
        open) plays one decision each time the turn clock runs out instead (see
        :meth:`~meeple.server.table.scheduler.BotScheduler.tick`), so the person can take the seat
        back at their next click."""
        kind, bot, absent = self.seat_kind(seat)
        if kind == BOT:
            return bot or "random"
        if absent and (self.table.seats[seat].conceded or not self.connected(seat)
                       or self.table.pace == TURN_BASED):
            # a conceded seat: at a bot's pace, for good; a turn-based table's seat out of
            # time: at a bot's pace, page open or not (nobody waits days a decision)
            return bot or STAND_IN
        return None

    def stand_in(self, seat: int) -> str:
        """The bot that stands in for a person's ``seat`` (the seat's own ``bot`` if it names
        one, else :data:`STAND_IN`)."""
        return self.table.seats[seat].bot or STAND_IN

    def connected(self, seat: int) -> bool:
        """Whether a connection of this server process acts for ``seat`` now."""
        return any(c.viewer == seat for c in self.clients)

    def busy(self) -> bool:
        """Whether a bot (or stand-in) task of this table is under way."""
        return self.bot_task is not None and not self.bot_task.done()

    def clock_left(self) -> float | None:
        """Seconds left on the turn clock of the person to move (None: no clock runs, as for
        a bot's seat, a seat played by its stand-in at its own pace, chance or the end)."""
        clock, seat = self.table.clock, self.state.to_move
        if (clock is None or self.table.status != RUNNING or seat is None or seat == CHANCE
                or self.table.seats[seat].kind != HUMAN or self.bot_for(seat) is not None):
            return None
        if self.times is not None:  # turn-based: the move's time, then the seat's bank
            if self.times.seat != seat:
                return None
            return self.times.left(back_at=self.table.seats[seat].back_at)
        return max(0.0, clock - (time.monotonic() - self.since))


def not_your_turn(rt: Runtime) -> str:
    """Why a seat that is not to move cannot play or preview, naming who is (by name: the
    page shows it as it is, so no 0-based seat number)."""
    to_move = rt.state.to_move
    if to_move is None:
        return "the game is over: there is nothing more to play"
    if to_move == CHANCE:
        return "it is not your turn: the dice are being rolled"
    return f"it is not your turn: {rt.state.seats[to_move]} is to move"


def json_text(data: Any) -> str:
    """JSON text as it goes on the wire (compact, UTF-8): written by pydantic's serializer,
    the same text as ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))`` for
    JSON data, about three times as fast (benchmarks/bench_views.py)."""
    return to_json(data).decode()
