"""Pick a Pen: Gardens' score pad (G6-G12): every seat's rows in the pad's order, read from the
marks a state holds, and the largest one-colour area (G8). ``GardensState.scores()`` is
:func:`score_pad`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.bits import components
from meeple.core.state import Score
from meeple.games.gardens.sheet import ALL_PENCILS, COLOURS

if TYPE_CHECKING:
    from meeple.games.gardens.rules import GardensState


def largest_area(state: GardensState, seat: int) -> int:
    """G8: the largest connected area of one colour on a seat's sheet."""
    best = 0
    nb = state.sheet.neighbours
    for c in range(5):
        for comp in components(state.cmask[seat * 5 + c], nb):
            best = max(best, comp.bit_count())
    return best


def largest_area_winner(state: GardensState) -> int:
    """G8: the seat whose largest area is strictly larger than all others, else -1."""
    if state.players == 1:
        return 0
    areas = [largest_area(state, s) for s in range(state.players)]
    best = max(areas)
    if areas.count(best) > 1:
        return -1
    return areas.index(best)


def score_pad(state: GardensState, largest: int) -> list[Score]:
    """Every seat's score pad, row by row in the pad's order; ``largest``: the seat that gets
    the largest-area bonus (G8), -1 for none (before the end, or a tie)."""
    pad = state.pad
    sheet = state.sheet
    out = []
    for seat in range(state.players):
        rows: dict[str, int] = {}
        base = seat * 5
        for c in range(5):
            rows[COLOURS[c]] = sum(pad.single_colour_boxes[: state.boxes[base + c]])
        fewest = min(state.boxes[base: base + 5])
        rows["row stars"] = sum(pad.row_stars[:fewest])
        rows["colourful gardens"] = sum(pad.colourful_boxes[: state.colourful[seat]])
        if pad.colourful_star:
            full = state.colourful[seat] == len(pad.colourful_boxes)
            rows["colourful star"] = pad.colourful_star if full else 0
        if sheet.has_flowers:
            fb = state.flower_boxes[seat]
            rows["flowers"] = pad.flower_box * fb.bit_count()
            rows["flower star"] = pad.flower_star if fb == ALL_PENCILS else 0
            rows["all flower fields"] = (
                pad.all_flower_fields_bonus if state.first_flowers == seat else 0)
        if sheet.has_trees:
            rows["tree star"] = pad.tree_star if state.tree_boxes[seat] == ALL_PENCILS else 0
        if pad.four_gardens_bonus:
            rows["four gardens"] = pad.four_gardens_bonus * state.first_four.count(seat)
        rows["all outer fields"] = pad.outer_fields_bonus if state.first_outer == seat else 0
        rows["all fields"] = pad.all_fields_bonus if state.first_all == seat else 0
        rows["largest area"] = pad.largest_area_bonus if largest == seat else 0
        rows["pencils"] = sum(pad.pencil_penalties[: state.crossed[seat]])
        out.append(Score(sum(rows.values()), rows))
    return out

