"""Pick a Pen: Gardens' turn ranker, for the bots: it estimates every whole turn without building
a state per step, then evaluates the most promising ones exactly with
:func:`~meeple.games.gardens.evaluation.gardens_evaluation`. Registered as ``BOTS.turn_ranker``."""

from __future__ import annotations

from typing import Any

from meeple.games.gardens import moves as gm
from meeple.games.gardens import rules as gr
from meeple.games.gardens.evaluation import gardens_evaluation


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
        every = [(gardens_evaluation(after, seat), moves) for moves, after in state.whole_turns()]
        every.sort(key=lambda t: -t[0])
        return every if limit is None else every[:limit]
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

