"""Position evaluations and turn rankers for bots, provided by each game.

``evaluate(state, seat)`` is what ``greedy`` maximises and what ``mcts`` uses to rank turns and
to score cut-off rollouts. A game provides its own in its package's ``BOTS``
(``BotKnowledge.evaluation``, a heuristic kept beside the game's rules: score so far plus
progress toward goals not scored yet; :mod:`meeple.bots.knowledge`); a game that brings none,
or one not registered, is judged by the seat's score-pad total (``state.scores()``). A game
may also provide a turn ranker (``BotKnowledge.turn_ranker``), a faster way to list its best
whole turns. Evaluations read only what the seat's view shows.

:func:`register_evaluation` and :func:`register_turn_ranker` override a game's own (for
experiments and tests, and for games registered without them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.bots.knowledge import bot_knowledge
from meeple.bots.knowledge import score_total as score_total
from meeple.core.errors import UnknownGame
from meeple.core.layers import BotKnowledge
from meeple.core.layers import TurnRanker as GameTurnRanker
from meeple.core.state import State

Evaluation = Callable[[State[Any], int], float]
TurnRanker = GameTurnRanker[State[Any]]

#: Overrides of the games' own evaluations and turn rankers, by game name.
EVALUATIONS: dict[str, Evaluation] = {}
TURN_RANKERS: dict[str, TurnRanker] = {}


def register_evaluation(game: str, fn: Evaluation) -> None:
    """Use ``fn`` as ``game``'s evaluation instead of its package's (``BOTS``)."""
    EVALUATIONS[game] = fn


def register_turn_ranker(game: str, fn: TurnRanker) -> None:
    """Use ``fn`` as ``game``'s turn ranker instead of its package's (``BOTS``)."""
    TURN_RANKERS[game] = fn


def _knowledge(game: str) -> BotKnowledge[Any] | None:
    try:
        return bot_knowledge(game)
    except UnknownGame:
        return None


def evaluation_for(game: str) -> Evaluation:
    """``game``'s evaluation: an override, else its package's (``BOTS``), else (a game not
    registered) the score total."""
    fn = EVALUATIONS.get(game)
    if fn is not None:
        return fn
    known = _knowledge(game)
    return known.evaluation if known is not None else score_total


def turn_ranker_for(game: str) -> TurnRanker | None:
    """``game``'s turn ranker (an override, else its package's ``BOTS``), or None."""
    fn = TURN_RANKERS.get(game)
    if fn is not None:
        return fn
    known = _knowledge(game)
    return known.turn_ranker if known is not None else None


def choose_evaluation(game: str, which: str) -> Evaluation:
    """``which``: ``"game"`` (the game's evaluation) or ``"score"`` (the score total)."""
    if which == "score":
        return score_total
    if which == "game":
        return evaluation_for(game)
    raise ValueError(f"eval must be 'game' or 'score', not {which!r}")


def evaluate(state: State[Any], seat: int) -> float:
    return evaluation_for(state.game_name)(state, seat)


def all_turns_ranked(state: State[Any], seat: int, limit: int | None = None,
                     fn: Evaluation | None = None) -> list[tuple[float, tuple[Any, ...]]]:
    """Every whole turn of ``seat`` (``state.whole_turns()``) with its evaluation (``fn``,
    default the game's), best first (a stable sort: equal values keep the game's order); the
    first ``limit`` if given."""
    fn = fn or evaluation_for(state.game_name)
    scored = [(fn(after, seat), moves) for moves, after in state.whole_turns()]
    scored.sort(key=lambda t: -t[0])
    return scored if limit is None else scored[:limit]


def ranked_turns(state: State[Any], seat: int,
                 limit: int | None = None) -> list[tuple[float, tuple[Any, ...]]]:
    """The best whole turns, by the game's ranker if it has one (which may prefilter turns
    with a cheap estimate and evaluate only the most promising exactly), else all turns."""
    ranker = turn_ranker_for(state.game_name)
    if ranker is None or limit is None:
        return all_turns_ranked(state, seat, limit)
    return ranker(state, seat, limit)
