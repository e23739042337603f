"""Independent recount of Pick a Pen: Reefs final scores (rulebook "Final Scoring", R7-R11).

Reads only what is coloured on each seat's sheet (the lines on connections, the neutral
treasures' colours, the bonus stars marked) and rescores it from the rulebook, without calling
the engine's scoring code: a treasure of colour C is recovered when a C line enters or leaves
its space; a coin when any line touches it; each row scores the value above its last box.
"""

from __future__ import annotations

from typing import Any

COLOUR_NAMES = ("orange", "red", "blue", "green", "purple")


def recount(state: Any) -> list[int]:
    sheet = state.board.sheet
    index = {sp.id: i for i, sp in enumerate(sheet.spaces)}
    conns = [(index[a], index[b]) for a, b in sheet.connections]
    rows = [getattr(sheet.treasure_rows, c) for c in COLOUR_NAMES]
    coin_spaces = {index[c] for c in sheet.coins}
    totals = []
    for seat, sh in enumerate(state.sheets):
        touched: list[set[int]] = [set() for _ in range(5)]
        for ci, (a, b) in enumerate(conns):
            colour = sh.owner[ci] - 1
            if colour >= 0:
                touched[colour] |= {a, b}
        boxes = [0] * 5
        for ti, t in enumerate(sheet.treasures):
            sp = index[t.space]
            if t.colour == "neutral":
                colour = sh.treasure[ti]  # colour marked on the sheet (first route, R7)
                if colour >= 0:
                    assert sp in touched[colour], "neutral treasure marked but never touched"
                    boxes[colour] += t.value
            else:
                c = COLOUR_NAMES.index(t.colour)
                if sp in touched[c]:
                    boxes[c] += t.value
        total = 0
        for c in range(5):
            n = min(boxes[c], len(rows[c].values))
            total += rows[c].values[n - 1] if n else 0
        all_touched = set().union(*touched)
        coins = min(len(coin_spaces & all_touched), len(sheet.coin_row.values))
        total += sheet.coin_row.values[coins - 1] if coins else 0
        bonus = sheet.bonus
        if state.two_each_holder == seat:
            assert all(min(b, len(r.values)) >= min(2, len(r.values))
                       for b, r in zip(boxes, rows, strict=True))
            total += bonus.two_each
        if state.full_row_holder == seat:
            assert any(b >= len(r.values) for b, r in zip(boxes, rows, strict=True))
            total += bonus.full_row
        if state.is_over and state.ender == seat:
            if any(r.grey for r in rows) and all(
                min(b, len(r.values)) >= r.grey for b, r in zip(boxes, rows, strict=True)
            ):
                total += bonus.end_grey
            if coins >= len(sheet.coin_row.values):
                total += bonus.end_coins
        totals.append(total)
    return totals
