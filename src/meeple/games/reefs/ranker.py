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

from meeple.core.turns import TIE, ForkTurnRanker
from meeple.games.reefs.moves import ReefsMove
from meeple.games.reefs.rules import P_TAKE, ReefsState

__all__ = ["TIE", "TurnRanker", "rank_turns", "turn_values"]

Evaluation = Callable[[ReefsState, int], float]



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


def _ended(turn: int, seat: int | None, child: ReefsState) -> bool:
    """``expand_turns``' turn end: the turn moved on, or another seat or chance (a roll of the
    pencils) is to move, or the game is over."""
    return child.turn != turn or child.to_move != seat


class TurnRanker(ForkTurnRanker):
    """The Reefs walk (:class:`~meeple.core.turns.ForkTurnRanker` with this module's fork,
    key and turn end), ``evaluate`` bound; ``capped``: a search keeps to its whole-turn cap
    (``within``) as the listing does."""

    def __init__(self, evaluate: Evaluation) -> None:
        super().__init__(evaluate, _fork, _turn_key, _ended, capped=True)


def turn_values(state: ReefsState, seat: int, evaluate: Evaluation,
                cap: int | None = None) -> list[tuple[float, tuple[ReefsMove, ...]]] | None:
    """Every distinct whole turn of ``seat`` (the seat to move) with ``evaluate(after, seat)``,
    in the order of ``state.whole_turns()``; with ``cap``, ``None`` once there are more."""
    return TurnRanker(evaluate).values(state, seat, cap)


def rank_turns(state: Any, seat: int, limit: int | None,
               evaluate: Evaluation) -> list[tuple[float, tuple[Any, ...]]]:
    """The turn ranker's answer: :func:`turn_values` best first, ``limit`` plus ties."""
    return TurnRanker(evaluate)(state, seat, limit)
