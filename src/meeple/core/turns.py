"""Whole-turn expansion: the decision tree of one seat's turn, for bots and UIs.

Turns are made of small decisions (take a pencil, then fields one by one). Bots such as
``greedy`` want every complete turn; this walks the tree depth first and merges branches that
reach the same position (colouring A then B equals B then A), so each distinct turn appears once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.core.state import State


class OutOfTime(Exception):
    """A turn listing given a ``deadline`` (a :func:`time.perf_counter` value) passed it before
    it was complete: bots with a time budget stop there instead of overrunning it."""


#: How many positions a listing extends between two looks at the clock.
CLOCK_EVERY = 32


def turn_ended(before_turn: int, seat: int | None, after: State[Any]) -> bool:
    return after.turn != before_turn or after.to_move != seat or after.to_move is None


def _extensions(node: State[Any], seen: set[Hashable]) -> list[tuple[Any, State[Any]]]:
    """``node`` after each of its legal moves, ``[(move, child)]``, leaving out positions in
    ``seen`` (and adding the new ones to it): the step both turn walks share."""
    out = []
    for move in node.legal_moves():
        child = node.clone()
        child.play(move, check=False)
        k = child.key()
        if k in seen:
            continue
        seen.add(k)
        out.append((move, child))
    return out


#: The step of every walk over positions (the turn walks here, the RL default action list's
#: walk of a whole game): ``node``'s unseen children after each legal move.
extensions = _extensions


def expand_turns(state: State[Any], limit: int | None = None,
                 deadline: float | None = None) -> list[tuple[tuple[Any, ...], State[Any]]]:
    """Every distinct whole turn of the seat to move: ``[(moves, state_after)]``.

    ``limit`` caps the number of turns returned (``None``: all). ``deadline``: a
    :func:`time.perf_counter` value; the listing raises :class:`OutOfTime` once it is past
    (checked at the first position and every :data:`CLOCK_EVERY` after) rather than return a
    partial list, which would be biased towards the decisions walked first.
    """
    seat = state.to_move
    if seat is None or seat < 0:
        return []
    turn = state.turn
    out: list[tuple[tuple[Any, ...], State[Any]]] = []
    seen: set[Hashable] = set()
    stack: list[tuple[tuple[Any, ...], State[Any]]] = [((), state)]
    walked = 0
    while stack:
        path, node = stack.pop()
        walked += 1
        if deadline is not None and walked % CLOCK_EVERY == 1 and time.perf_counter() > deadline:
            raise OutOfTime(f"whole-turn listing stopped after {walked} positions")
        for move, child in _extensions(node, seen):
            if turn_ended(turn, seat, child):
                out.append(((*path, move), child))
                if limit is not None and len(out) >= limit:
                    return out
            else:
                stack.append(((*path, move), child))
    return out


def beam_turns(state: State[Any], score: Callable[[State[Any]], float],
               width: int) -> list[tuple[float, tuple[Any, ...]]]:
    """The whole turns of the seat to move found by a beam search, best first:
    ``[(score(state_after), moves)]``.

    Every first decision (the pencil, marker or tool taken) gets a beam of its own: decision
    by decision, every partial turn in a beam is extended by each legal move; the extensions
    that end the turn are kept, and of those that do not only the ``width`` best by ``score``
    go on in each beam. So the cost grows with the number of first decisions times the turn's
    length times ``width``, not with the number of whole turns (thousands in Pergola), at the
    risk of missing a turn whose later decisions look poor half way through. A beam per first
    decision matters because the first decision is the one whose worth a half-made turn shows
    least: in Pergola a tool's pieces count only once placed. Branches reaching the same
    position are merged, as in :func:`expand_turns`.
    """
    seat = state.to_move
    if seat is None or seat < 0:
        return []
    if width < 1:
        raise ValueError(f"width must be at least 1, not {width}")
    turn = state.turn
    done: list[tuple[float, tuple[Any, ...]]] = []
    seen: set[Hashable] = set()
    beams: list[list[tuple[tuple[Any, ...], State[Any]]]] = []
    for move, child in _extensions(state, seen):
        if turn_ended(turn, seat, child):
            done.append((score(child), (move,)))
        else:
            beams.append([((move,), child)])
    for beam in beams:
        while beam:
            going: list[tuple[float, tuple[Any, ...], State[Any]]] = []
            for path, node in beam:
                for move, child in _extensions(node, seen):
                    if turn_ended(turn, seat, child):
                        done.append((score(child), (*path, move)))
                    else:
                        going.append((score(child), (*path, move), child))
            going.sort(key=lambda t: -t[0])
            beam = [(path, child) for _value, path, child in going[:width]]
    done.sort(key=lambda t: -t[0])
    return done


#: Turns whose values are within this of the best count as tied with it (as in ``greedy``).
TIE = 1e-9

#: A scored whole turn: (value, moves).
Scored = tuple[float, tuple[Any, ...]]


class ForkTurnRanker:
    """A game's turn ranker (``BotKnowledge.turn_ranker``): every whole turn of the seat to move,
    valued by ``evaluate(after, seat)``, best first, walked more cheaply than by
    :func:`expand_turns`.

    The walk is :func:`expand_turns`' depth-first walk, with three things of the game's own:
    ``fork(node)`` copies a position with only what one seat's turn can change (the rest shared
    with the node, e.g. the move log), and the game applies moves with its rules' own
    ``_apply`` (``play`` without logging); ``turn_key(state, seat)`` keys a position by just
    what a turn can change, so equal keys within one turn mean equal full keys; ``ended(turn,
    seat, child)`` says where a turn ends (:func:`turn_ended` by default). Each end position
    is evaluated at once and only (value, moves) kept. The turns come in the listing's order
    with the same values, so a stable sort ranks them as ``all_turns_ranked`` does.

    ``exhaustive``: it walks every whole turn with no clock to watch, so a search with a time
    cap or a beam lists turns its own way (``meeple.bots.mcts.candidate_turns``). ``capped``:
    a search may call :meth:`within`, which keeps to its cap on whole turns as the listing
    does (Reefs); a ranker without it is used whatever the number of turns (Pergola).
    """

    exhaustive = True

    def __init__(self, evaluate: Callable[[Any, int], float], fork: Callable[[Any], Any],
                 turn_key: Callable[[Any, int], Hashable],
                 ended: Callable[[int, int | None, Any], bool] = turn_ended,
                 capped: bool = False) -> None:
        self.evaluate = evaluate
        self.fork = fork
        self.turn_key = turn_key
        self.ended = ended
        self.capped = capped

    def values(self, state: Any, seat: int, cap: int | None = None) -> list[Scored] | None:
        """Every distinct whole turn of ``seat`` (the seat to move) with its value, in the
        order of ``state.whole_turns()``; ``[]`` if ``seat`` is not to move. With ``cap``:
        ``None`` as soon as there are more than ``cap`` turns.

        The end positions share what ``fork`` shares with ``state``: the evaluation must
        only read them."""
        if seat is None or seat < 0 or state.to_move != seat:
            return []
        turn = state.turn
        fork, turn_key, ended, evaluate = self.fork, self.turn_key, self.ended, self.evaluate
        out: list[Scored] = []
        seen: set[Hashable] = set()
        stack: list[tuple[tuple[Any, ...], Any]] = [((), state)]
        while stack:
            path, node = stack.pop()
            for move in node.legal_moves():
                child = fork(node)
                child._apply(move)
                k = turn_key(child, seat)
                if k in seen:
                    continue
                seen.add(k)
                if ended(turn, seat, child):
                    out.append((evaluate(child, seat), (*path, move)))
                    if cap is not None and len(out) > cap:
                        return None
                else:
                    stack.append(((*path, move), child))
        return out

    def __call__(self, state: Any, seat: int, limit: int | None) -> list[Scored]:
        """The turns best first (a stable sort: equal values keep the listing's order). With
        ``limit``, the first ``limit`` and any further turns tied with the best (so a bot
        choosing among the tied best sees all of them, as it would in the full list)."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be None (every turn) or a count of at least 0, "
                             f"not {limit}")
        scored = self.values(state, seat)
        assert scored is not None  # no cap
        scored.sort(key=lambda t: -t[0])
        if limit is None or len(scored) <= limit:
            return scored
        n = limit
        top = scored[0][0]
        while n < len(scored) and scored[n][0] >= top - TIE:
            n += 1
        return scored[:n]

    def within(self, state: Any, seat: int, max_turns: int) -> list[Scored] | None:
        """Every whole turn best first if there are at most ``max_turns``, else ``None``: what
        a search ranks where it lists at most ``max_turns`` whole turns (and searches one
        decision at a time where there are more), so its searches are the listing's."""
        scored = self.values(state, seat, max_turns)
        if scored is not None:
            scored.sort(key=lambda t: -t[0])
        return scored
