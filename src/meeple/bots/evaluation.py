"""Position evaluations for bots, one per game, looked up by game name.

``evaluate(state, seat)`` is what ``greedy`` maximises and what ``mcts`` uses to rank turns and
to score cut-off rollouts. The default is the seat's score-pad total (``state.scores()``); a game
may register a better one (score so far plus progress toward goals not scored yet) with
:func:`register_evaluation`. Evaluations read only what the seat's view shows.
"""

from __future__ import annotations

import importlib
import warnings
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


_LOADED: set[str] = set()


def load_hooks(game: str) -> None:
    """Import ``meeple.bots.eval_<game>`` once, if it exists: a game's evaluation (and turn
    ranker) may live in its own module there and registers itself at import."""
    if game in _LOADED:
        return
    _LOADED.add(game)
    name = f"meeple.bots.eval_{game}"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            warnings.warn(f"{name} could not be imported ({exc}); using the default evaluation",
                          stacklevel=2)
    except Exception as exc:  # a broken hook must not stop the bots
        warnings.warn(f"{name} could not be imported ({exc!r}); using the default evaluation",
                      stacklevel=2)


def evaluation_for(game: str) -> Evaluation:
    load_hooks(game)
    return EVALUATIONS.get(game, score_total)


def turn_ranker_for(game: str) -> TurnRanker | None:
    load_hooks(game)
    return TURN_RANKERS.get(game)


def choose_evaluation(game: str, which: str) -> Evaluation:
    """``which``: ``"game"`` (the game's registered evaluation) or ``"score"`` (the score total)."""
    if which == "score":
        return score_total
    if which == "game":
        return evaluation_for(game)
    raise ValueError(f"eval must be 'game' or 'score', not {which!r}")


def evaluate(state: State[Any], seat: int) -> float:
    return evaluation_for(state.game_name)(state, seat)


# ---------------------------------------------------------------- ranked whole turns
TurnRanker = Callable[[State[Any], int, "int | None"], list[tuple[float, tuple[Any, ...]]]]

TURN_RANKERS: dict[str, TurnRanker] = {}


def register_turn_ranker(game: str, fn: TurnRanker) -> None:
    """A faster way for a game to list its best whole turns (used by ``mcts``)."""
    TURN_RANKERS[game] = fn


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


def gardens_turn_gain(state: Any, seat: int, colour: int, group: int, weight: float = 0.6) -> float:
    """A cheap estimate of what colouring ``group`` with ``colour`` adds to
    :func:`gardens_evaluation` (garden boxes and progress, flower boxes, wasted pencils)."""
    pad = state.pad
    if group == 0:
        crossed = state.crossed[seat]
        pens = pad.pencil_penalties
        return float(pens[crossed]) if crossed < len(pens) else 0.0
    sheet = state.sheet
    base = seat * 5
    cm = state.cmask[base: base + 5]
    boxes = state.boxes[base: base + 5]
    single = pad.single_colour_boxes
    coloured = state.coloured[seat]
    new = coloured | group
    value = 0.0
    seen = 0
    rest = group
    garden_of = sheet.garden_of
    masks = sheet.garden_masks
    while rest:
        low = rest & -rest
        rest ^= low
        k = garden_of[low.bit_length() - 1]
        if seen >> k & 1:
            continue
        seen |= 1 << k
        gm = masks[k]
        size = gm.bit_count()
        before = (coloured & gm).bit_count()
        after = (new & gm).bit_count()
        present = [x for x in range(5) if cm[x] & gm]
        if not present or present == [colour]:
            nxt = single[boxes[colour]] if boxes[colour] < len(single) else 1
            if after == size:
                value += nxt - weight * before / size * nxt
            else:
                value += weight * (after - before) / size * nxt
        elif len(present) == 1:  # mixing kills the partial single-colour credit
            c0 = present[0]
            nxt0 = single[boxes[c0]] if boxes[c0] < len(single) else 1
            value -= weight * before / size * nxt0
    flowers = group & sheet.flower_mask
    if flowers and not state.flower_boxes[seat] >> colour & 1:
        while flowers:
            low = flowers & -flowers
            flowers ^= low
            if sheet.flower_colour[low.bit_length() - 1] == colour:
                value += pad.flower_box
                break
    return value


def gardens_turn_ranker(state: Any, seat: int, limit: int | None) -> list[tuple[float, tuple[Any, ...]]]:
    """Gardens: estimate every (pencil, fields) turn from ``whole_turn_groups()`` without
    building states, then evaluate the most promising ``4 x limit`` exactly."""
    groups = state.whole_turn_groups()
    if not groups or limit is None:
        return all_turns_ranked(state, seat, limit)
    from meeple.games.gardens import moves as gm  # a per-game hook may know its game
    from meeple.games.gardens import rules as gr

    quick = [(gardens_turn_gain(state, seat, c, g), i) for i, (c, g) in enumerate(groups)]
    quick.sort(key=lambda t: -t[0])
    keep = quick[: max(4 * limit, 16)]
    taking = state.phase == gr.TAKING
    scored: list[tuple[float, tuple[Any, ...]]] = []
    for _q, i in keep:
        c, g = groups[i]
        moves: list[Any] = [gm.TAKE_MOVES[c]] if taking else []
        if g == 0:
            moves.append(gm.WASTE_MOVE)
        else:
            moves.extend(state.fmoves[j] for j in gr.connected_order(g, state.coloured[seat],
                                                                      state.sheet.neighbours))
        after = state.clone()
        for m in moves:
            after.play(m, check=False)
        scored.append((gardens_evaluation(after, seat), tuple(moves)))
    scored.sort(key=lambda t: -t[0])
    return scored[:limit]


register_turn_ranker("gardens", gardens_turn_ranker)
