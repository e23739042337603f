"""One seat's turn in progress: the steps so far, the forced ones, undo by a stack, preview.

A turn is made of small decisions (take a pencil, then fields one by one). A :class:`Turn`
starts from a position where a seat is to move and keeps every position of the turn so far,
as python-chess keeps its move stack: a step clones the position and plays the move on the
clone, so undoing a step is popping that clone (one step back, never a replay of the game),
and no position the turn ever handed out is changed afterwards. After each step the turn
plays the decisions that have only one legal move for the player (*forced* steps, marked as
such) until there is a choice again or the turn is over; undoing a chosen step takes those
forced steps back with it.

The turn is over (:attr:`Turn.complete`) once another seat or chance is to move, the turn
counter advanced, or the game ended (:func:`meeple.core.turns.turn_ended`). What a step
caused in words is not the engine's business: ``note(before, after)``, if given, is called
for every step and its answer kept with the step (the server keeps its log lines there).

:meth:`Turn.sync` goes from the turn as it is to the turn a list of step texts describes by
undoing back to the steps they share and playing only the new ones: a client that re-sends
its whole turn on each click costs one engine step per click, and one pop per undo.

A decision already made outside a turn in progress (stored by the server, or played in the
terminal before the game was resumed) is taken back by one function, :func:`take_back`: from
the position kept from before it when there is one (a pop), else by replaying the game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from meeple.core.errors import IllegalMove
from meeple.core.state import CHANCE, State
from meeple.core.turns import turn_ended

M = TypeVar("M", bound=Hashable)

#: ``note(before, after)``: what a caller keeps with each step (e.g. its log line in words).
Note = Callable[[State[Any], State[Any]], Any]


@dataclass(frozen=True)
class Step(Generic[M]):
    """One decision of a turn: the move (canonical), whether it was forced (the only legal
    move, played for the player) and what the turn's ``note`` hook said about it."""

    move: M
    forced: bool
    note: Any = None

    @property
    def text(self) -> str:
        return str(self.move)


class StepRefused(IllegalMove):
    """A step of :meth:`Turn.sync` that cannot be played: ``index`` is its place in the
    texts, ``ended`` whether the turn was already over there (else ``reason`` says why the
    move is illegal). The turn holds the steps before ``index``."""

    def __init__(self, reason: str, move: Any, index: int, ended: bool) -> None:
        super().__init__(reason, move)
        self.index = index
        self.ended = ended


def forced_move(state: State[M]) -> M | None:
    """The move of a seat's decision that has only one legal move, else ``None`` (a choice,
    chance to move, or the game over)."""
    to_move = state.to_move
    if to_move is None or to_move == CHANCE:
        return None
    legal = state.legal_moves()
    return legal[0] if len(legal) == 1 else None


def _names_move(pos: State[M], text: M | str, move: M) -> bool:
    """Whether ``text`` (a move or its text, read at ``pos``) is ``move``."""
    if not isinstance(text, str):
        return bool(text == move)
    if text == str(move):
        return True
    try:
        return bool(pos.parse_move(text) == move)
    except IllegalMove:
        return False


def ends_turn(state: State[M], move: M) -> bool:
    """Whether playing ``move`` (legal) ends the turn of the seat to move in ``state``."""
    node = state.clone()
    node.play(move, check=False)
    return turn_ended(state.turn, state.to_move, node)


def take_back(state: State[M], kept: Sequence[State[M]] = ()) -> tuple[State[M], M]:
    """The whole-move takeback: the position before the last decision of ``state`` and that
    decision, when the seat to move made it in its unfinished turn (``state.can_undo()``);
    ``state`` itself is not changed. The server's ``undo`` request and the terminal's
    ``undo`` take a decision back with this function and nothing else.

    ``kept``: positions kept from before the last decisions of ``state``, oldest first (the
    server's :attr:`Runtime.befores <meeple.server.table.runtime.Runtime.befores>`, a
    :class:`Turn`'s positions): the position before is the last of them, returned as it is
    (one pop, no replay; the caller must not change it). With none kept, the game is
    replayed from its start without its last move (:meth:`State.undo
    <meeple.core.state.State.undo>`, on a clone). Raises :class:`IllegalMove` (nothing
    changed) when the decision cannot be taken back: never across a roll, a draw or another
    seat's decision."""
    if kept and state.can_undo():
        return kept[-1], state.last_logged()[1]
    trial = state.clone()
    back = trial.undo()  # refuses, naming why, what cannot be taken back
    return trial, back


class Turn(Generic[M]):
    """The turn in progress of the seat to move in ``start``.

    ``start`` is kept as the first position and never changed (the caller must not change it
    either, nor any :attr:`position` it reads: clone one to change it). ``note(before,
    after)`` is called once per step, forced ones included.
    """

    def __init__(self, start: State[M], note: Note | None = None) -> None:
        seat = start.to_move
        if seat is None or seat == CHANCE:
            raise ValueError("a turn starts where a seat is to move, not "
                             + ("chance" if seat == CHANCE else "once the game is over"))
        self.seat: int = seat
        #: the turn counter at the start (the turn is over once it moves on)
        self.turn: int = start.turn
        self._note = note
        #: ``_positions[i]`` is the position before step ``i``; the last is the position now
        self._positions: list[State[M]] = [start]
        self._steps: list[Step[M]] = []

    # ------------------------------------------------------------------ reading
    @property
    def start(self) -> State[M]:
        return self._positions[0]

    @property
    def position(self) -> State[M]:
        """The position after every step so far (what a preview shows)."""
        return self._positions[-1]

    @property
    def steps(self) -> list[Step[M]]:
        """The steps so far, oldest first (a copy)."""
        return list(self._steps)

    @property
    def texts(self) -> list[str]:
        return [s.text for s in self._steps]

    def __len__(self) -> int:
        return len(self._steps)

    def before(self, i: int) -> State[M]:
        """The position before step ``i`` (``before(len(turn))`` is :attr:`position`)."""
        return self._positions[i]

    @property
    def complete(self) -> bool:
        """The turn is over: another seat or chance is to move, the turn counter moved on,
        or the game ended."""
        return turn_ended(self.turn, self.seat, self._positions[-1])

    def can_undo(self) -> bool:
        """Whether a chosen step can be taken back (forced steps before any chosen one, see
        :meth:`play_forced`, cannot: there was no choice to take back)."""
        return any(not s.forced for s in self._steps)

    # ------------------------------------------------------------------ playing
    def step(self, move: M | str) -> list[Step[M]]:
        """Play ``move`` (a move or its text) as the player's choice, then every forced step
        after it; returns the steps added. Raises :class:`IllegalMove` and changes nothing if
        the move is refused or the turn is over."""
        if self.complete:
            raise IllegalMove(self._over_reason(), move)
        before = self._positions[-1]
        after = before.clone()
        after.play(move)  # checks it: refused, the clone is dropped and nothing changed
        n = len(self._steps)
        self._push(before, after, forced=False)
        self.play_forced()
        return self._steps[n:]

    def play_forced(self) -> list[Step[M]]:
        """Play every forced step from here until there is a choice or the turn is over;
        returns them. :meth:`step` calls it after each step; call it at the start of a turn
        to have a first decision without a choice made for the player too."""
        n = len(self._steps)
        while not self.complete:
            before = self._positions[-1]
            move = forced_move(before)
            if move is None:
                break
            after = before.clone()
            after.play(move, check=False)
            self._push(before, after, forced=True)
        return self._steps[n:]

    def _push(self, before: State[M], after: State[M], forced: bool) -> None:
        note = self._note(before, after) if self._note is not None else None
        self._steps.append(Step(after.last_logged()[1], forced, note))
        self._positions.append(after)

    def undo(self) -> list[Step[M]]:
        """Take back the last chosen step and the forced steps that followed it (a pop per
        step, no replay); returns them, oldest first. Raises :class:`IllegalMove` if no step
        of this turn was chosen."""
        if not self.can_undo():
            raise IllegalMove("nothing to undo: no decision of this turn has been made yet",
                              None)
        back: list[Step[M]] = []
        while True:
            self._positions.pop()
            s = self._steps.pop()
            back.append(s)
            if not s.forced:
                break
        back.reverse()
        return back

    def back_to(self, n: int) -> None:
        """Keep only the first ``n`` steps (pops, no replay), wherever they end: unlike
        :meth:`undo`, this may leave a forced decision to be played, by :meth:`step` or
        :meth:`play_forced`."""
        if not 0 <= n <= len(self._steps):
            raise ValueError(f"a turn of {len(self._steps)} steps has no step {n} to go back to")
        self._truncate(n)

    def _truncate(self, n: int) -> None:
        del self._steps[n:]
        del self._positions[n + 1:]

    def sync(self, texts: Sequence[M | str]) -> None:
        """Make this the turn that :meth:`step` gives for ``texts`` one by one from
        :attr:`start` (a text that names a forced step already played is that step): undo
        back to the steps this turn shares with ``texts``, then play only the new ones.
        Forced steps after the shared steps are kept (they would be played again); forced
        steps at the start that ``texts`` does not name are not (a fresh turn plays none by
        itself). A text naming the only legal move is a forced step, as when the turn played
        it (see :meth:`_sent_step`).

        Raises :class:`StepRefused` at the first text that cannot be played; the turn then
        holds the steps before it."""
        steps = self._steps
        shared = 0
        limit = min(len(steps), len(texts))
        while shared < limit and self._names(shared, texts[shared]):
            shared += 1
        # the first chosen step past the shared ones goes, with everything after it; forced
        # steps right after a shared one stay (its step plays them again anyway); forced steps
        # at the start that ``texts`` does not name go (a fresh turn plays none by itself)
        cut = 0 if shared == 0 else next(
            (i for i in range(shared, len(steps)) if not steps[i].forced), len(steps))
        self._truncate(cut)
        for i in range(shared, len(texts)):
            text = texts[i]
            if i < len(self._steps):  # a forced step: the text must name it
                if self._names(i, text):
                    continue
                pos = self._positions[i]
                raise StepRefused(self._illegal_reason(pos, text), text, i, ended=False)
            if self.complete:
                raise StepRefused(self._over_reason(), text, i, ended=True)
            try:
                self._sent_step(text)
            except IllegalMove as exc:
                raise StepRefused(exc.reason, text, i, ended=False) from None

    def _sent_step(self, text: M | str) -> None:
        """:meth:`step` for a text a client sent: a decision with only one legal move is a
        forced step even when the client names it (the page sends the forced steps that open
        a turn, and a fresh turn after a reconnect gets a turn's forced steps again), so
        :meth:`undo` and the forced marks are the same as on the turn that played them."""
        only = forced_move(self.position)
        if only is None or not _names_move(self.position, text, only):
            self.step(text)
            return
        before = self._positions[-1]
        after = before.clone()
        after.play(only, check=False)
        self._push(before, after, forced=True)
        self.play_forced()

    def _names(self, i: int, text: M | str) -> bool:
        """Whether ``text`` (a move or its text) is step ``i``'s move."""
        return _names_move(self._positions[i], text, self._steps[i].move)

    @staticmethod
    def _illegal_reason(pos: State[M], text: M | str) -> str:
        try:
            move = pos.parse_move(text) if isinstance(text, str) else text
        except IllegalMove as exc:
            return exc.reason
        return pos.illegal_reason(move) or f"{move} is not a legal move now"

    def _over_reason(self) -> str:
        if self.position.is_over:
            return "the game is over; no more moves can be played"
        return f"the turn of seat {self.seat} is over; no more steps can be played in it"

    def __repr__(self) -> str:
        marks = " ".join(s.text + ("*" if s.forced else "") for s in self._steps)
        return f"<Turn seat={self.seat} steps=[{marks}] complete={self.complete}>"
