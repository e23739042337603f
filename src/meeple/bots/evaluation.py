"""Position evaluations for bots, one per game, looked up by game name.

``evaluate(state, seat)`` is what ``greedy`` maximises and what ``mcts`` uses to rank turns and
to score cut-off rollouts. The default is the seat's score-pad total (``state.scores()``); a game
may register a better one (score so far plus progress toward goals not scored yet) with
:func:`register_evaluation`. Evaluations read only what the seat's view shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.core.state import State

Evaluation = Callable[[State[Any], int], float]

EVALUATIONS: dict[str, Evaluation] = {}


def register_evaluation(game: str, fn: Evaluation) -> None:
    EVALUATIONS[game] = fn


def score_total(state: State[Any], seat: int) -> float:
    """The default evaluation: the seat's score total as the pad reads now."""
    return float(state.scores()[seat].total)


def evaluation_for(game: str) -> Evaluation:
    return EVALUATIONS.get(game, score_total)


def evaluate(state: State[Any], seat: int) -> float:
    return evaluation_for(state.game_name)(state, seat)


# ---------------------------------------------------------------- Pick a Pen: Gardens
def gardens_evaluation(state: Any, seat: int, weight: float = 0.6) -> float:
    """Gardens: the score so far plus credit for gardens under way.

    A garden coloured so far in one colour earns ``weight`` x its share coloured x the value
    of that colour's next single-colour box (G6); a mixed garden of at least five fields
    earns a smaller share of the next colourful box; a mixed small garden is dead (nothing).
    Wasted pencils already count in the score (G9).
    """
    total = float(state.scores()[seat].total)
    if state.is_over:
        return total
    sheet = state.sheet
    pad = state.pad
    base = seat * 5
    cmask = state.cmask[base: base + 5]
    coloured = state.coloured[seat]
    boxes = state.boxes[base: base + 5]
    single = pad.single_colour_boxes
    colourful = pad.colourful_boxes
    n_colourful = state.colourful[seat]
    next_colourful = colourful[n_colourful] if n_colourful < len(colourful) else 0
    bonus = 0.0
    for garden in sheet.garden_masks:
        part = coloured & garden
        if not part or part == garden:
            continue
        size = garden.bit_count()
        share = part.bit_count() / size
        present = [c for c in range(5) if cmask[c] & garden]
        if len(present) == 1:
            c = present[0]
            nxt = single[boxes[c]] if boxes[c] < len(single) else 1
            bonus += weight * share * nxt
        elif size >= 5:
            bonus += 0.5 * weight * share * next_colourful * len(present) / 5
    return total + bonus


register_evaluation("gardens", gardens_evaluation)
