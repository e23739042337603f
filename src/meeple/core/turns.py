"""Whole-turn expansion: the decision tree of one seat's turn, for bots and UIs.

Turns are made of small decisions (take a pencil, then fields one by one). Bots such as
``greedy`` want every complete turn; this walks the tree depth first and merges branches that
reach the same position (colouring A then B equals B then A), so each distinct turn appears once.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from meeple.core.state import State


def turn_ended(before_turn: int, seat: int | None, after: State[Any]) -> bool:
    return after.turn != before_turn or after.to_move != seat or after.to_move is None


def expand_turns(state: State[Any], limit: int | None = None) -> list[tuple[tuple[Any, ...], State[Any]]]:
    """Every distinct whole turn of the seat to move: ``[(moves, state_after)]``.

    ``limit`` caps the number of turns returned (``None``: all).
    """
    seat = state.to_move
    if seat is None or seat < 0:
        return []
    turn = state.turn
    out: list[tuple[tuple[Any, ...], State[Any]]] = []
    seen: set[Hashable] = set()
    stack: list[tuple[tuple[Any, ...], State[Any]]] = [((), state)]
    while stack:
        path, node = stack.pop()
        for move in node.legal_moves():
            child = node.clone()
            child.play(move, check=False)
            k = child.key()
            if k in seen:
                continue
            seen.add(k)
            if turn_ended(turn, seat, child):
                out.append(((*path, move), child))
                if limit is not None and len(out) >= limit:
                    return out
            else:
                stack.append(((*path, move), child))
    return out
