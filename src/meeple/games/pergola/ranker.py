"""Pergola's turn ranker: every whole turn of the seat to move, valued by an evaluation, best
first, without building a full game state for every step of every turn.

A Pergola turn is a handful of small decisions (pick a tool, place its plants and insects,
the action, lanterns, a honey pot), and a position can have thousands of whole turns. The
generic listing (:func:`meeple.core.turns.expand_turns`) clones the whole state for every step
(move log, leaf pool, tool holder, every pile) and keys it by everything in the game. Within
one seat's turn most of that cannot change, so this walk:

- forks a step's position with only what a turn can change (supply, board, leaf tops, piles,
  dragonfly stacks, the task queue, the seat's garden copy-on-write as in ``clone``); the move
  log, the tool holder and the leaf pool are shared with the position the walk started from
  (a turn reads them, never changes them), and moves are applied through the rules' own
  ``_apply`` (the same code as ``play``, without logging the move);
- merges branches by a key of just those parts, which within one turn tells positions apart
  exactly as the full :meth:`PergolaState.key` does (the rest is the same for all of them);
- evaluates each end position straight away and keeps only the value and the moves, so no
  end position outlives its evaluation.

The walk is the same depth-first walk as ``expand_turns``, so the turns come in the same order
and, the evaluation being the same function of an equal position, with the same values: the
ranking is the one ``greedy`` gets from ``all_turns_ranked`` (tests/games/pergola/
test_turns_fast.py checks it over seeded positions). The evaluation is a parameter: the game
package does not import the bots (the game registers ``TurnRanker(pergola_evaluation)``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from meeple.core.turns import TIE, ForkTurnRanker
from meeple.games.pergola.moves import PergolaMove
from meeple.games.pergola.rules import PergolaState

__all__ = ["TIE", "TurnRanker", "rank_turns", "turn_values"]

Evaluation = Callable[[PergolaState, int], float]



def _fork(node: PergolaState) -> PergolaState:
    """A copy of ``node`` good for the rest of one seat's turn: what a turn changes is copied,
    the rest (move log, tool holder, leaf pool, seat names) is shared. Gardens are shared
    copy-on-write, exactly as :meth:`PergolaState.clone` does."""
    s = PergolaState.__new__(PergolaState)
    d = s.__dict__
    d.update(node.__dict__)  # everything shared first (one C-level copy), then
    d["supply"] = node.supply.copy()  # what a turn changes is copied
    d["board"] = node.board.copy()
    d["tops"] = node.tops.copy()
    d["pile_left"] = node.pile_left.copy()
    d["stacks"] = [x.copy() for x in node.stacks]
    d["gardens"] = node.gardens.copy()
    d["_own"] = node._own = 0
    d["discards"] = node.discards.copy()
    d["tasks"] = node.tasks.copy()
    d["chance"] = node.chance.copy()
    return s


def _turn_key(s: PergolaState, seat: int) -> Hashable:
    """What can differ between two positions reached within one turn of ``seat``: equal keys
    here mean equal :meth:`PergolaState.key` for them (the tool holder, the leaf pool and the
    other gardens are untouched during a turn, and the chance queued at its end follows from
    the board, the piles and the turn)."""
    return (s.turn, tuple(s.supply), tuple(s.board), tuple(s.tops), tuple(s.pile_left),
            tuple(map(tuple, s.stacks)), s.gardens[seat].key(), tuple(s.discards),
            tuple(s.tasks), s.current_tool)


def _ended(turn: int, seat: int | None, child: PergolaState) -> bool:
    """A Pergola turn ends when the turn counter moves on."""
    return child.turn != turn


class TurnRanker(ForkTurnRanker):
    """The Pergola walk (:class:`~meeple.core.turns.ForkTurnRanker` with this module's fork,
    key and turn end), ``evaluate`` bound; used whatever the number of whole turns."""

    def __init__(self, evaluate: Evaluation) -> None:
        super().__init__(evaluate, _fork, _turn_key, _ended)


def turn_values(state: PergolaState, seat: int,
                evaluate: Evaluation) -> list[tuple[float, tuple[PergolaMove, ...]]]:
    """Every distinct whole turn of ``seat`` (the seat to move) with ``evaluate(after, seat)``,
    in the order of ``state.whole_turns()``: ``[(value, moves)]``.

    ``after`` equals the end position ``whole_turns()`` gives (its key, scores and everything
    the rules read) but shares the move log, the tool holder and the leaf pool with ``state``
    (the log does not hold the turn's moves): ``evaluate`` must only read it."""
    out = TurnRanker(evaluate).values(state, seat)
    assert out is not None  # no cap
    return out


def rank_turns(state: Any, seat: int, limit: int | None,
               evaluate: Evaluation) -> list[tuple[float, tuple[Any, ...]]]:
    """The turn ranker's answer: :func:`turn_values` best first, ``limit`` plus ties."""
    return TurnRanker(evaluate)(state, seat, limit)
