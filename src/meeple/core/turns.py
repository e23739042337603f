"""Whole-turn expansion: the decision tree of one seat's turn, for bots and UIs.

Turns are made of small decisions (take a pencil, then fields one by one). Bots such as
``greedy`` want every complete turn; this walks the tree depth first and merges branches that
reach the same position (colouring A then B equals B then A), so each distinct turn appears once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

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
