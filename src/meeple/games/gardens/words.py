"""Gardens in words: the gardens' labels, the end of the game's reason, and what happened
between two states, for players (:func:`announce`, ``PRESENTATION.announce``).

The announcements are computed by comparing the two states' score pads, so the rules pay nothing
for it: a garden completed (by whom, its size, what it scored), a row star reached, a colourful,
flower or tree star, a bonus goal taken, a pencil symbol crossed, and the end of the game with its
reason.
Works across several moves (a bot's whole turn, a whole round): every seat is compared.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.core.text import subject
from meeple.games.gardens.rules import OVER, GardensState
from meeple.games.gardens.sheet import COLOURS, LETTERS, CompiledSheet


def garden_labels(sheet: CompiledSheet) -> tuple[str, ...]:
    """A short label per garden, in sheet order: a, b, ..., z, aa, ab, ..."""
    out = []
    for k in range(len(sheet.garden_names)):
        label = ""
        k += 1
        while k:
            k, rem = divmod(k - 1, 26)
            label = chr(ord("a") + rem) + label
        out.append(label)
    return tuple(out)


def fields(n: int) -> str:
    """"1 field", "5 fields"."""
    return f"{n} field" if n == 1 else f"{n} fields"


def end_reason(state: GardensState) -> str:
    """Why the game ended (G10): a seat coloured its last field or crossed its last symbol."""
    sheet = state.sheet
    for s in range(state.players):
        name = state.seats[s]
        if state.coloured[s] == sheet.all_mask:
            return f"{subject(name, 'has')} coloured every field (G10)"
        if state.crossed[s] >= len(state.pad.pencil_penalties):
            return f"{subject(name, 'has')} crossed the last pencil symbol (G10)"
    return "the game is over"


def _points(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _gardens(before: GardensState, after: GardensState, seat: int) -> list[str]:
    """Gardens ``seat`` completed between the two states, with what each scored (G6)."""
    sheet = after.sheet
    pad = after.pad
    labels = garden_labels(sheet)
    name = after.seats[seat]
    base = seat * 5
    next_box = after.boxes.copy()
    next_box[base: base + 5] = before.boxes[base: base + 5]
    colourful = before.colourful[seat]
    out = []
    for g, mask in enumerate(sheet.garden_masks):
        if before.coloured[seat] & mask == mask or after.coloured[seat] & mask != mask:
            continue
        size = mask.bit_count()
        present = [c for c in range(5) if after.cmask[base + c] & mask]
        what = f"{name} completed garden {labels[g]} ({fields(size)})"
        if len(present) == 1:
            c = present[0]
            k = next_box[base + c]
            if k < len(pad.single_colour_boxes):
                next_box[base + c] += 1
                out.append(f"{what} all in {COLOURS[c]}: {COLOURS[c]} box {k + 1} "
                           f"({_points(pad.single_colour_boxes[k])})")
            else:
                out.append(f"{what} all in {COLOURS[c]}, but every {COLOURS[c]} box is "
                           "already coloured: no points (G6)")
        elif len(present) == 5:
            if colourful < len(pad.colourful_boxes):
                out.append(f"{what} in all five colours: colourful box {colourful + 1} "
                           f"({_points(pad.colourful_boxes[colourful])})")
                colourful += 1
            else:
                out.append(f"{what} in all five colours, but every colourful box is already "
                           "coloured: no points (G6)")
        else:
            shown = " ".join(LETTERS[c] for c in present)
            out.append(f"{what} in {len(present)} colours ({shown}): no box (G6 scores one "
                       "colour or all five)")
    return out


def _stars(before: GardensState, after: GardensState, seat: int) -> list[str]:
    pad = after.pad
    name = after.seats[seat]
    base = seat * 5
    out = []
    low_before = min(before.boxes[base: base + 5])
    low_after = min(after.boxes[base: base + 5])
    for k in range(low_before, low_after):
        out.append(f"{name} reached the row {k + 1} star: a box of every colour "
                   f"in that row ({_points(pad.row_stars[k])}, G7)")
    n = len(pad.colourful_boxes)
    if pad.colourful_star and before.colourful[seat] < n <= after.colourful[seat]:
        out.append(f"{name} filled every colourful box: the colourful star "
                   f"({_points(pad.colourful_star)}, G7)")
    out += _five_boxes(before.flower_boxes[seat], after.flower_boxes[seat],
                       lambda colour: f"{name} coloured the {colour} flower {colour}: "
                                      f"{colour} flower box ({_points(pad.flower_box)}, G11)",
                       f"{name} filled all five flower boxes: the flower star "
                       f"({_points(pad.flower_star)}, G11)")
    out += _five_boxes(before.tree_boxes[seat], after.tree_boxes[seat],
                       lambda colour: f"{name} coloured a tree {colour}: the {colour} "
                                      "tree box (no points on its own, G12)",
                       f"{name} filled all five tree boxes: the tree star "
                       f"({_points(pad.tree_star)}, G12)")
    return out


def _five_boxes(before: int, after: int, box: Callable[[str], str], star: str) -> list[str]:
    """A row of five colour boxes, a bit per colour (the flower boxes G11, the tree boxes G12):
    ``box(colour)`` for each box filled from ``before`` to ``after``, then ``star`` if that
    filled the row."""
    new = after & ~before
    out = [box(COLOURS[c]) for c in range(5) if new >> c & 1]
    if new and after == 0b11111:
        out.append(star)
    return out


def _goals(before: GardensState, after: GardensState) -> list[str]:
    """First-to goals taken (A3, G8, G11, G12): nobody else can earn them any more."""
    pad = after.pad
    out = []
    goals = [
        (before.first_outer, after.first_outer, "colour all outer fields", pad.outer_fields_bonus,
         "G8"),
        (before.first_all, after.first_all, "colour all fields", pad.all_fields_bonus, "G8"),
    ]
    if after.sheet.has_flowers:
        goals.append((before.first_flowers, after.first_flowers,
                      "colour all five flower fields",
                      pad.all_flower_fields_bonus, "G11"))
    if pad.four_gardens_bonus:
        for c in range(5):
            goals.append((before.first_four[c], after.first_four[c],
                          f"complete {pad.four_gardens_count} {COLOURS[c]} gardens",
                          pad.four_gardens_bonus, "G12"))
    for old, new, what, value, rule in goals:
        if old < 0 <= new:
            name = after.seats[new]
            others = (", closed to the others now"
                      if after.players > 1 and after.phase != OVER else "")
            out.append(f"{subject(name, 'was', 'were')} the first to {what}: bonus "
                       f"{_points(value)} ({rule}){others}")
    return out


def _pencils(before: GardensState, after: GardensState, seat: int) -> list[str]:
    pad = after.pad
    name = after.seats[seat]
    out = []
    n = len(pad.pencil_penalties)
    for k in range(before.crossed[seat], after.crossed[seat]):
        last = " - the last one" if k + 1 == n else f", {n - k - 1} left"
        out.append(f"{name} wasted a pencil and crossed "
                   f"pencil symbol {k + 1} of {n} ({_points(pad.pencil_penalties[k])}, G9){last}")
    return out


def _end(after: GardensState) -> list[str]:
    pad = after.pad
    out = [f"The game is over: {end_reason(after)}."]
    areas = [after.largest_area(s) for s in range(after.players)]
    win = after.g8_largest_area_winner()
    if win >= 0:
        out.append(f"{after.seats[win]} got the largest-area bonus with {fields(areas[win])} of "
                   f"one colour ({_points(pad.largest_area_bonus)}, G8)")
    else:
        out.append(f"The largest one-colour area is a tie at {fields(max(areas))}: nobody gets "
                   "the largest-area bonus (G8)")
    scores = after.scores()
    out.append("Final scores: " + ", ".join(f"{after.seats[s]} {scores[s].total}"
                                            for s in range(after.players)))
    return out


def announce(before: GardensState, after: GardensState) -> list[str]:
    """Everything a player should be told happened from ``before`` to ``after``."""
    if before.sheet is not after.sheet and before.sheet.data != after.sheet.data:
        return []
    out: list[str] = []
    for seat in range(after.players):
        out += _pencils(before, after, seat)
        out += _gardens(before, after, seat)
        out += _stars(before, after, seat)
    out += _goals(before, after)
    if after.phase == OVER and before.phase != OVER:
        out += _end(after)
    return out
