"""Turn-based time: a move's time and each seat's time bank at a turn-based table.

A turn-based table (``pace`` ``turn-based``) gives the person to move ``clock`` seconds (hours
or days) for each **move**: a seat's whole turn, all its decisions from the moment it became
its turn until the turn passes on (a roll within the turn does not end it; a seat that plays
alone starts a new move at each of its turns). Time past that allowance is drawn from the
seat's **bank** (``bank`` seconds at the start, never refilled), as a chess clock with a
delay counts. When both are spent, the seat's stand-in bot takes it over at a bot's pace, as
at a live table whose person has gone; the person's next move (or ``back``) takes the seat
back, and from then on each of their moves has the allowance again (their bank stays spent).

Nothing here is written by the move path: the times are read from the stored log (each entry
keeps when it was stored), so they survive a restart and agree between server processes.
``MEEPLE_TURN_BASED_SCALE`` (tests only, :class:`meeple.server.table.settings.TestingSettings`) makes
turn-based time run that many times faster: the authority passes it to :meth:`MoveTimes.of`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from datetime import datetime

from meeple.core.state import CHANCE, State
from meeple.store import Table
from meeple.store.models import TURN_BASED

#: The per-move times a turn-based table may have (seconds): 1 hour to 7 days.
MOVE_MIN, MOVE_MAX = 3600, 7 * 86400
#: The time bank a turn-based table's seats may start with (seconds): none to 30 days.
BANK_MAX = 30 * 86400
#: The defaults: a day a move, and a bank of 3 days.
MOVE_DEFAULT, BANK_DEFAULT = 86400, 3 * 86400


def turn_based(table: Table) -> bool:
    return table.pace == TURN_BASED and table.clock is not None


@dataclass
class MoveTimes:
    """Whose move runs at a turn-based table, since when, and what each seat drew from its
    bank: kept by the authority from the log's times (:meth:`passed` after each entry)."""

    #: seconds a move has, and each seat's bank at the start (both scaled)
    move_time: float
    bank: float
    #: the seat whose move runs (a seat, never chance), the turn number it is in, and since
    #: when (seconds since the epoch)
    seat: int | None = None
    turn: int = -1
    began: float = 0.0
    #: seconds each seat drew from its bank so far (its moves done)
    drawn: dict[int, float] = field(default_factory=dict)

    @classmethod
    def of(cls, table: Table, start: State[object], first: datetime | None = None,
           scale: float = 1.0) -> MoveTimes | None:
        """A table's times at its start position ``start`` (None for a live table): the first
        move runs from when the game started, or from ``first`` (the time of the log's first
        entry: the start itself is not kept once the log has entries). ``scale``: how many times
        faster turn-based time runs (tests only; ``MEEPLE_TURN_BASED_SCALE``)."""
        if not turn_based(table):
            return None
        k = scale
        when = (first or table.turn_started or table.updated).timestamp()
        times = cls(move_time=float(table.clock or 0) / k, bank=float(table.bank or 0) / k,
                    began=when)
        times.passed(start, when)
        return times

    def passed(self, state: State[object], when: float) -> None:
        """After an entry stored at ``when`` (or a commit): a new move starts if another seat
        (or the same seat's next turn) is to move now; the move that ended draws its time past
        the allowance from its seat's bank. A roll changes nothing."""
        to_move = state.to_move
        if to_move == CHANCE:
            return
        if to_move is not None and (to_move, state.turn) == (self.seat, self.turn):
            return
        if self.seat is not None:
            over = max(0.0, when - self.began - self.move_time)
            self.drawn[self.seat] = self.drawn.get(self.seat, 0.0) + over
        self.seat, self.turn, self.began = to_move, state.turn, when

    def bank_left(self, seat: int, now: float | None = None,
                  back_at: datetime | None = None) -> float:
        """Seconds left in ``seat``'s bank; for the seat to move, what its move has drawn so
        far is taken off (with ``now``)."""
        left = self.bank - self.drawn.get(seat, 0.0)
        if now is not None and seat == self.seat:
            left -= max(0.0, -self.move_left(now, back_at))
        return max(0.0, left)

    def move_left(self, now: float | None = None, back_at: datetime | None = None) -> float:
        """Seconds left of the running move's allowance (negative once past it). Its person
        taking the seat back from the stand-in (``back_at``) starts it again."""
        began = self.began
        if back_at is not None:
            began = max(began, back_at.timestamp())
        return self.move_time - ((time.time() if now is None else now) - began)

    def left(self, now: float | None = None, back_at: datetime | None = None) -> float:
        """Seconds until the running move's allowance and its seat's bank are both spent."""
        if self.seat is None:
            return math.inf
        now = time.time() if now is None else now
        return max(0.0, self.move_left(now, back_at)) + self.bank_left(self.seat, now, back_at)


__all__ = ["BANK_DEFAULT", "BANK_MAX", "MOVE_DEFAULT", "MOVE_MAX", "MOVE_MIN",
           "MoveTimes", "turn_based"]
