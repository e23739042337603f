"""The engine contract: one :class:`State` base class that every game fills in.

A game subclasses :class:`State` and implements the abstract hooks (``to_move``,
``legal_moves``, ``chance_outcomes``, ``parse_move``, ``_apply``, ``clone``, ``scores``,
``key``, ``variant``, ``sheet_data``). Its drawing and words are registered beside it (the
package's ``PRESENTATION``, :mod:`meeple.core.present`), so the rules never import them. The
base class gives every game the same
``play`` (with move text, a reason on refusal and the state untouched), ``sample_chance``,
``undo`` inside an unfinished turn, ``record``/``replay``, ``winners``, ``places`` and the
whole-turn helper bots use.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

from meeple.core.errors import IllegalMove
from meeple.core.rng import Rng
from meeple.core.turns import expand_turns

#: ``State.to_move`` when the next event is a roll, a draw or a shuffle (A1).
CHANCE: Final = -1

RECORD_FORMAT: Final = "meeple-record/1"

M = TypeVar("M", bound=Hashable)


class SeatPart(Protocol):
    """A seat's own part of a position (a sheet, a garden) that clones share copy-on-write:
    it can copy itself and keeps its key until it is next changed."""

    _key: Hashable | None

    def copy(self: P) -> P: ...


P = TypeVar("P", bound=SeatPart)


class KeptKey:
    """The base of a :class:`SeatPart`: :meth:`key` is made once by :meth:`make_key` and kept
    until the part is next changed (:func:`part_for_update` forgets it; ``copy()`` starts
    without one)."""

    __slots__ = ("_key",)
    _key: Hashable | None

    def key(self) -> Hashable:
        k = self._key
        if k is None:
            k = self._key = self.make_key()
        return k

    def make_key(self) -> Hashable:
        """Everything in the part that tells two positions apart."""
        raise NotImplementedError


def part_for_update(parts: list[P], own: int, seat: int) -> int:
    """Make ``parts[seat]`` safe to change: copy it first unless bit ``seat`` of ``own`` says
    no other state shares it, and forget its kept key. Returns the new ``own`` mask. States
    that share their seats' parts with their clones (``clone()`` copies the list and sets both
    masks to 0) route every change through this."""
    if not own >> seat & 1:
        parts[seat] = parts[seat].copy()
        own |= 1 << seat
    parts[seat]._key = None
    return own
S = TypeVar("S", bound="State[Any]")


def places_by_total(totals: Sequence[int]) -> list[int]:
    """The finishing place of each total (1 is first): one more than the number of higher
    totals, so equal totals share a place (``[3, 7, 3]`` gives ``[2, 1, 2]``)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def places_with_forfeits(totals: Sequence[int], forfeits: Sequence[int | None]) -> list[int]:
    """Each seat's finishing place (1 is first) when some seats forfeited the game (their
    person conceded, or left a rated game): ``forfeits[i]`` is None for a seat that played
    on, else the order of its forfeit at the table (1 for the first, 2 for the next...).

    - every seat that did not forfeit is placed above every seat that did, whatever the
      scores (a stand-in bot's points never win a forfeited seat the game);
    - among themselves the seats that did not forfeit are placed by total, equal totals
      sharing a place (A4, as :func:`places_by_total`);
    - the forfeited seats are placed by when they forfeited: the first to forfeit is last,
      and seats with the same order (forfeits the store could not tell apart) share a place.

    A place is one more than the number of seats placed strictly above, so the places are a
    ranking with shared places (``[3, 7, 3]`` with the middle seat forfeited first gives
    ``[1, 3, 1]``)."""
    if len(totals) != len(forfeits):
        raise ValueError(f"{len(totals)} totals but {len(forfeits)} forfeits")
    # a smaller key is a better place: not forfeited before forfeited, then the higher total,
    # or the later forfeit
    keys = [(0, -t) if f is None else (1, -f) for t, f in zip(totals, forfeits, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


class Restart(Protocol):
    """How a state starts its game afresh: :func:`meeple.core.registry.new_game`, which gives
    it to every state it makes (clones keep it), so the state needs no import of the registry."""

    def __call__(self, name: str, players: int | None = None, seed: int = 0,
                 sheet: str | Path | Mapping[str, Any] | None = None,
                 **options: Any) -> State[Any]: ...


@dataclass(frozen=True)
class Score:
    """One seat's score: the total and the rows of the printed score pad, in pad order."""

    total: int
    breakdown: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": dict(self.breakdown)}


class State(ABC, Generic[M]):
    """A game in progress. Subclasses set ``game_name`` and implement the abstract hooks.

    Attributes every game keeps: ``players`` (seat count), ``seed`` (for ``sample_chance``),
    ``turn`` (number of seat turns completed: a turn may span several decisions), ``seats``
    (display names) and the move history.
    """

    game_name: ClassVar[str] = ""
    #: Set by ``meeple.new_game`` on the states it makes, kept by clones: what
    #: :meth:`replay_moves` (and so :meth:`undo`) rebuilds the game with.
    _restart: Restart | None = None

    players: int
    seed: int
    turn: int
    seats: list[str]
    _history: list[M]
    _movers: list[tuple[int, int]]  # (seat or CHANCE, turn) at the time of each move
    _chance_count: int

    def _init_base(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        self.turn = 0
        self.seats = [f"seat {i}" for i in range(players)]
        self._history = []
        self._movers = []
        self._chance_count = 0

    def _copy_base(self, other: State[M]) -> None:
        """Copy the base bookkeeping into a fresh clone (lists copied, moves shared)."""
        self.players = other.players
        self.seed = other.seed
        self.turn = other.turn
        self.seats = other.seats
        self._history = other._history.copy()
        self._movers = other._movers.copy()
        self._chance_count = other._chance_count
        self._restart = other._restart

    # ------------------------------------------------------------------ game hooks
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """A seat index, :data:`CHANCE`, or ``None`` once the game is over."""

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """The moves of the seat to move, or the chance outcomes when ``to_move is CHANCE``."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[M, float]]:
        """``[(move, probability)]`` when ``to_move == CHANCE``, else ``[]``."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """The move written ``text`` (its canonical form); raises :class:`IllegalMove`."""

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Apply a move already known to be legal."""

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy; cheap (no deep copies of immutable sheet data)."""

    @abstractmethod
    def scores(self) -> list[Score]:
        """Per seat: total and score-pad breakdown, as the pad would read now."""

    @abstractmethod
    def key(self) -> Hashable:
        """Everything that defines the position (not the history): equal keys, equal states."""

    @abstractmethod
    def variant(self) -> dict[str, Any]:
        """The options that recreate this game with ``new_game`` (level, sheet name, ...)."""

    @abstractmethod
    def sheet_data(self) -> dict[str, Any]:
        """The sheet/board definitions in use, as plain data (kept in the record)."""

    def last_logged(self) -> tuple[int, M]:
        """The last move with who made it: ``(seat or CHANCE, move)``."""
        if not self._history:
            raise IndexError("no move has been played yet")
        return self._movers[-1][0], self._history[-1]

    def log(self) -> list[tuple[int, M]]:
        """Every move so far with who made it: ``(seat or CHANCE, move)``, oldest first."""
        return [(mover, move) for (mover, _), move in zip(self._movers, self._history, strict=True)]

    def log_since(self, first: int) -> list[tuple[int, M]]:
        """The moves after the first ``first`` with who made them (``log()[first:]``, without
        building the rest: what changed between a position and a later one)."""
        return [(mover, move) for (mover, _), move in
                zip(self._movers[first:], self._history[first:], strict=True)]

    def log_prefix(self, n: int) -> tuple[list[tuple[int, int]], list[M]]:
        """The first ``n`` entries of the log as two new lists: who moved in which turn
        (``(seat or CHANCE, turn)``) and the moves. What a cache of something made from the
        log keeps, to tell by one comparison (``==``, which takes shared moves by identity)
        whether a later position's log starts with the same ``n`` entries."""
        return self._movers[:n], self._history[:n]

    def moves_played(self) -> int:
        """How many moves were played so far, chance included (``len(history)``, no copy)."""
        return len(self._history)

    def illegal_reason(self, move: M) -> str | None:
        """Why ``move`` is illegal now, or ``None``. Games may override with sharper reasons."""
        if move in self.legal_moves():
            return None
        return f"{move} is not a legal move now; legal: {self._legal_summary()}"

    def _legal_summary(self, limit: int = 12) -> str:
        moves = [str(m) for m in self.legal_moves()]
        shown = ", ".join(moves[:limit])
        if len(moves) > limit:
            shown += f", ... ({len(moves)} in all)"
        return shown or "none"

    # ------------------------------------------------------------------ provided
    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    def history(self) -> list[M]:
        """Every move played so far, chance included (A1)."""
        return list(self._history)

    def play(self, move: M | str, *, check: bool = True) -> None:
        """Play a move or its text. Raises :class:`IllegalMove` and changes nothing if refused.

        ``check=False`` skips the legality test for moves taken from ``legal_moves()`` in hot
        loops (playouts, search); never use it for input from outside.
        """
        if self.to_move is None:
            raise IllegalMove("the game is over; no more moves can be played", move)
        if isinstance(move, str):
            move = self.parse_move(move)
        if check:
            reason = self.illegal_reason(move)
            if reason is not None:
                raise IllegalMove(reason, move)
        mover = self.to_move
        self._movers.append((mover, self.turn))
        if mover == CHANCE:
            self._chance_count += 1
        self._history.append(move)
        self._apply(move)

    def sample_chance(self, rng: Rng | None = None) -> M:
        """Play one chance outcome drawn from ``rng`` (default: the game's own seeded stream).

        The default stream is keyed by (seed, number of chance events so far), so a seed means
        the same rolls whatever the players do, and undo/replay never desynchronise it.
        """
        if self.to_move != CHANCE:
            raise IllegalMove("no chance event is pending; a seat is to move", None)
        outcomes = self.chance_outcomes()
        gen = rng if rng is not None else Rng.derive(self.seed, self._chance_count)
        move = outcomes[gen.weighted_index([p for _, p in outcomes])][0]
        self.play(move, check=False)
        return move

    def can_undo(self) -> bool:
        """Undo is allowed inside the current, unfinished turn of the seat that moved last."""
        if not self._movers or self.to_move is None:
            return False
        mover, turn = self._movers[-1]
        return mover != CHANCE and turn == self.turn and mover == self.to_move

    def undo_depth(self) -> int:
        """How many decisions :meth:`undo` can take back one after another from here: the
        last moves made by the seat to move in this same turn (0 if it cannot undo)."""
        if not self.can_undo():
            return 0
        last = self._movers[-1]
        n = 0
        for entry in reversed(self._movers):
            if entry != last:
                break
            n += 1
        return n

    def undo(self) -> M:
        """Take back the last decision of an unfinished turn; returns the move taken back.

        The game has no unmake, so this replays the game from its first move (the cost grows
        with the game's length). Play stays as cheap as it is: no position is kept per move.
        Where undo is frequent keep the positions instead: :class:`meeple.core.turn.Turn`
        holds a turn's positions, so its undo is one pop, never a replay; the server and the
        terminal take a decision back by :func:`meeple.core.turn.take_back`, which replays
        (by this method) only where no position was kept."""
        if not self.can_undo():
            raise IllegalMove(
                "nothing to undo: undo only works inside your own unfinished turn, "
                "never across a roll, a draw or another seat's decision",
                None,
            )
        last = self._history[-1]
        rebuilt = self.replay_moves(self._history[:-1])
        self.__dict__.update(rebuilt.__dict__)
        return last

    def replay_moves(self: S, moves: Sequence[M]) -> S:
        """A fresh game with the same variant, sheets and seed, with ``moves`` played (a state
        made by ``meeple.new_game`` or cloned from one)."""
        if self._restart is None:
            raise RuntimeError(f"this {self.game_name} state was not made by meeple.new_game (or "
                               "cloned from one), so it cannot start its game afresh")
        fresh = self._restart(
            self.game_name, players=self.players, seed=self.seed,
            sheet=self.sheet_data(), **self.variant(),
        )
        fresh.seats = list(self.seats)
        for m in moves:
            fresh.play(m)
        assert isinstance(fresh, type(self))
        return fresh

    def winners(self) -> list[int]:
        """Seats with the highest total once the game is over (ties win together, A4)."""
        if self.to_move is not None:
            return []
        totals = [s.total for s in self.scores()]
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def places(self) -> list[int]:
        """Each seat's finishing place once the game is over (1 is first), by total: a seat's
        place is one more than the number of seats with a higher total, so equal totals share
        a place (A4: every rulebook's ties win together, none breaks them). A game whose
        rulebook breaks ties overrides this. Empty while the game runs."""
        if self.to_move is not None:
            return []
        return places_by_total([s.total for s in self.scores()])

    def seen_by(self: S, seat: int) -> S:
        """The position as ``seat`` may see it: a state with nothing in it that the seat may
        not know (what a bot of that seat decides from). Perfect-information games return a
        copy of the state. (Named apart from the *view*, the per-seat data a client is sent,
        :func:`meeple.core.view.seat_view`, which is built from it.)"""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} does not exist; seats are 0..{self.players - 1}")
        return self.clone()

    def sample_hidden(self: S, seat: int, rng: Rng) -> S:
        """A full state consistent with ``seen_by(seat)``; games with hidden parts override."""
        return self.seen_by(seat)

    def whole_turns(self) -> list[tuple[tuple[M, ...], State[M]]]:
        """Every distinct whole turn from here: (moves, resulting state), duplicates merged.

        A whole turn runs from now until the turn counter advances, another seat or chance is
        to move, or the game ends. Games may override with a faster enumeration.
        """
        return expand_turns(self)

    def record(self) -> dict[str, Any]:
        """The game as JSON-able data: enough for :func:`meeple.replay` to rebuild every state."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game_name,
            "variant": self.variant(),
            "players": self.players,
            "seed": self.seed,
            "seats": list(self.seats),
            "sheet": self.sheet_data(),
            "moves": [str(m) for m in self._history],
        }
        if self.is_over:
            rec["scores"] = [s.as_dict() for s in self.scores()]
            rec["winners"] = self.winners()
        return rec

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game_name} players={self.players} "
            f"moves={len(self._history)} to_move={self.to_move}>"
        )
