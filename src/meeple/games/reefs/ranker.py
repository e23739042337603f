"""Pick a Pen: Reefs' turn ranker: every whole turn of the seat to move, valued by an
evaluation, best first, without building a full game state for every step of every turn.

A Reefs turn is a pencil taken and then drawn step by step (an entry point, steps, a stop or a
forfeit); where a whirlpool switches the pencil to three any steps, one position can have
thousands of whole turns. The generic listing (:func:`meeple.core.turns.expand_turns`) plays
every step with ``play`` on a full ``clone`` (which copies the whole move log) and keys each
position by everything in the game. Within one seat's turn most of that cannot change, so
this walk:

- forks a step's position with only what a turn can change copied: the pencils in the middle
  and the list of sheets (the sheets themselves copy-on-write, exactly as ``clone`` does, so
  only the drawing seat's sheet is ever copied); the move log, the board and the move table
  are shared with the position the walk started from (a turn never changes them), and moves
  are applied through the rules' own ``_apply`` (the code ``play`` runs, without logging);
- merges branches by :meth:`ReefsState.key` without the other seats' sheets (no move of the
  turn touches them), which tells positions of one turn apart exactly as the full key does;
- ends a turn where ``expand_turns`` does (the turn counter moves on, another seat or chance
  is to move, or the game is over): in Reefs that is the end of the pencil, and a roll of the
  pencils due next is left to the caller, as the listing leaves it; the end position is
  evaluated straight away and only its value and moves are kept.

The walk is the same depth-first walk as ``expand_turns``, so the turns come in the same
order and, the evaluation being the same function of an equal position, with the same values:
the ranking is the one ``greedy`` gets from ``all_turns_ranked`` (tests/games/reefs/
test_ranker.py checks it over seeded positions of every level). The evaluation is a
parameter: the game package does not import the bots (the game registers
``TurnRanker(reefs_evaluation)``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from meeple.games.reefs.moves import ReefsMove
from meeple.games.reefs.rules import P_TAKE, ReefsState

__all__ = ["TurnRanker", "rank_turns", "turn_values"]

Evaluation = Callable[[ReefsState, int], float]

#: Turns whose values are within this of the best count as tied with it (as in ``greedy``).
TIE = 1e-9


def _fork(node: ReefsState) -> ReefsState:
    """A copy of ``node`` good for the rest of one seat's turn: what a turn changes is copied
    (the pencils in the middle, which only taking a pencil changes; the list of sheets,
    copy-on-write exactly as :meth:`ReefsState.clone` does), the rest (move log, board, move
    table, seat names) is shared; every other attribute is a number or a flag."""
    s = ReefsState.__new__(ReefsState)
    s.__dict__ = d = node.__dict__.copy()  # everything shared first (one C-level copy), then
    if node.phase == P_TAKE:  # what a turn changes is copied: the middle only by a take
        d["middle"] = node.middle[:]
    d["sheets"] = node.sheets.copy()
    d["_own"] = node._own = 0
    return s


def _turn_key(s: ReefsState, seat: int) -> Hashable:
    """:meth:`ReefsState.key` with only ``seat``'s sheet: within one turn of ``seat`` the
    other sheets are the same objects in every branch, so equal keys here mean equal full
    keys."""
    return (
        s.phase, s.seat, s.roller, s.rolled, tuple(s.middle), s.pc, s.pmode, s.prem, s.pdir,
        s.pdrawn, s.two_each_holder, s.full_row_holder, s.over, s.ender, s.end_grey,
        s.end_coins, s.sheets[seat].key(),
    )


def turn_values(state: ReefsState, seat: int, evaluate: Evaluation,
                cap: int | None = None) -> list[tuple[float, tuple[ReefsMove, ...]]] | None:
    """Every distinct whole turn of ``seat`` (the seat to move) with ``evaluate(after, seat)``,
    in the order of ``state.whole_turns()``: ``[(value, moves)]``. With ``cap``: ``None`` as
    soon as there are more than ``cap`` turns (the walk stops there, as ``expand_turns`` does
    with a ``limit``).

    ``after`` equals the end position ``whole_turns()`` gives (its key, scores and everything
    the rules read) but shares the move log with ``state`` (the log does not hold the turn's
    moves): ``evaluate`` must only read the position."""
    if seat is None or seat < 0 or state.to_move != seat:
        return []
    turn = state.turn
    out: list[tuple[float, tuple[ReefsMove, ...]]] = []
    seen: set[Hashable] = set()
    stack: list[tuple[tuple[ReefsMove, ...], ReefsState]] = [((), state)]
    while stack:
        path, node = stack.pop()
        for move in node.legal_moves():
            child = _fork(node)
            child._apply(move)
            k = _turn_key(child, seat)
            if k in seen:
                continue
            seen.add(k)
            # expand_turns' turn_ended: the turn moved on, or another seat or chance (a roll
            # of the pencils) is to move, or the game is over
            if child.turn != turn or child.to_move != seat:
                out.append((evaluate(child, seat), (*path, move)))
                if cap is not None and len(out) > cap:
                    return None
            else:
                stack.append(((*path, move), child))
    return out


def rank_turns(state: Any, seat: int, limit: int | None,
               evaluate: Evaluation) -> list[tuple[float, tuple[Any, ...]]]:
    """The turn ranker: :func:`turn_values` best first (a stable sort, so equal values keep
    the listing's order, as ``all_turns_ranked`` does). With ``limit``, the first ``limit``
    and any further turns tied with the best (so a bot choosing among the tied best turns sees
    all of them, as it would in the full list)."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be None (every turn) or a count of at least 0, not {limit}")
    scored = turn_values(state, seat, evaluate)
    assert scored is not None  # no cap
    scored.sort(key=lambda t: -t[0])
    if limit is None or len(scored) <= limit:
        return scored
    n = limit
    top = scored[0][0]
    while n < len(scored) and scored[n][0] >= top - TIE:
        n += 1
    return scored[:n]


class TurnRanker:
    """:func:`rank_turns` with ``evaluate`` bound, as a game's turn ranker is called:
    ``ranker(state, seat, limit)``. ``exhaustive``: it walks every whole turn (the same work
    as a full listing, only cheaper), with no clock to watch, so a search with a time cap or a
    beam of its own lists turns its own way instead (``meeple.bots.mcts.candidate_turns``)."""

    exhaustive = True

    def __init__(self, evaluate: Evaluation) -> None:
        self.evaluate = evaluate

    def __call__(self, state: Any, seat: int,
                 limit: int | None) -> list[tuple[float, tuple[Any, ...]]]:
        return rank_turns(state, seat, limit, self.evaluate)

    def within(self, state: Any, seat: int,
               max_turns: int) -> list[tuple[float, tuple[Any, ...]]] | None:
        """Every whole turn best first if there are at most ``max_turns``, else ``None``: what
        ``mcts`` ranks where it lists at most ``max_turns`` whole turns (and searches one
        decision at a time where there are more), so its searches are the ones the full
        listing gives."""
        scored = turn_values(state, seat, self.evaluate, max_turns)
        if scored is not None:
            scored.sort(key=lambda t: -t[0])
        return scored
