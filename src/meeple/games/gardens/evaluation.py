"""Pick a Pen: Gardens, for the bots: the evaluation (score so far plus gardens under way),
registered as ``BOTS.evaluation``. The turn ranker built on it is in :mod:`.ranker`."""

from __future__ import annotations

from typing import Any


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
