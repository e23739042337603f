"""The score pad: each row of the sheet's ``scoring`` list, evaluated per seat.

Every row rule is one function named after it, citing the rulebook's "Counting Points".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from meeple.games.takenokolor.sheet import Measure, Row

if TYPE_CHECKING:
    from meeple.games.takenokolor.sheet import Compiled


def _areas(cs: Compiled, areas: Sequence[str], kinds: Sequence[str]) -> list[int]:
    out = [cs.area_index[a] for a in areas]
    for ai, area in enumerate(cs.sheet.areas):
        if area.kind in kinds and ai not in out:
            out.append(ai)
    return out


def _mask(cs: Compiled, areas: list[int]) -> int:
    m = 0
    for ai in areas:
        m |= cs.area_mask[ai]
    return m


def _points(cs: Compiled, mask: int) -> int:
    total = 0
    pts = cs.item_points
    while mask:
        low = mask & -mask
        total += pts[low.bit_length() - 1]
        mask ^= low
    return total


def measure(cs: Compiled, m: Measure, coloured: int) -> int:
    """``sum`` of coloured points, ``last`` coloured step's points per area, or ``count``."""
    areas = _areas(cs, m.areas, m.kinds)
    if m.op == "count":
        return (coloured & _mask(cs, areas)).bit_count()
    if m.op == "sum":
        return _points(cs, coloured & _mask(cs, areas))
    return sum(highest_leaf(cs, ai, coloured) for ai in areas)


def highest_leaf(cs: Compiled, ai: int, coloured: int) -> int:
    """Dragon sheet: the points on the highest coloured section of a bamboo (or the last
    coloured burst of the fireworks): the furthest coloured item of the area."""
    m = coloured & cs.area_mask[ai]
    return cs.item_points[m.bit_length() - 1] if m else 0


def row_sum(cs: Compiled, row: Row, coloured: int) -> int:
    """"Each leaf on a colored bamboo section awards the number of points shown on it"; also
    fish, river sections, party favours, the dragon's head and blue sections."""
    return _points(cs, coloured & _mask(cs, _areas(cs, row.areas, row.kinds)))


def row_complete(cs: Compiled, row: Row, coloured: int) -> int:
    """"The fully colored sun awards 5 points", "the fully colored pond awards the 7 points"."""
    return row.points * sum(
        1 for ai in _areas(cs, row.areas, row.kinds) if cs.complete(coloured, ai))


def row_groups(cs: Compiled, row: Row, coloured: int) -> int:
    """"Each group of bamboo of the same color that is fully colored in awards the additional
    points on the sign"."""
    groups: dict[tuple[str, str], bool] = {}
    for ai in _areas(cs, row.areas, row.kinds):
        key = cs.area_group[ai]
        if key is None:
            continue
        groups[key] = groups.get(key, True) and cs.complete(coloured, ai)
    return row.points * sum(1 for ok in groups.values() if ok)


def row_majority(cs: Compiled, row: Row, coloured_all: Sequence[int]) -> list[int]:
    """3 pandas sun: 6 / 4 / 2 points for the most, second most and third most rays; tied
    players all receive the points of their place; no rays, no points (our reading)."""
    mask = _mask(cs, _areas(cs, row.areas, row.kinds))
    counts = [(c & mask).bit_count() for c in coloured_all]
    distinct = sorted({n for n in counts if n > 0}, reverse=True)
    out = []
    for n in counts:
        place = distinct.index(n) if n > 0 else len(row.places)
        out.append(row.places[place] if place < len(row.places) else 0)
    return out


def row_races(cs: Compiled, row: Row, first: int, later: int) -> int:
    """Lanterns (T7) and dragon feet: the number not crossed out."""
    ids = [r.id for r in cs.sheet.races]
    chosen = [ids.index(r) for r in row.races] if row.races else list(range(len(ids)))
    total = 0
    for ri in chosen:
        if first >> ri & 1:
            total += cs.race_first[ri]
        elif later >> ri & 1:
            total += cs.race_later[ri]
    return total


def row_product(cs: Compiled, row: Row, coloured: int) -> int:
    """Shoots' leaves x ponds coloured; bamboo group x lanterns above it; last burst x trail."""
    assert row.left is not None and row.right is not None
    return measure(cs, row.left, coloured) * measure(cs, row.right, coloured)


def pad(cs: Compiled, coloured: Sequence[int], ladybugs: Sequence[int], first: Sequence[int],
        later: Sequence[int]) -> list[dict[str, int]]:
    """The breakdown of every seat, rows in score-pad order."""
    players = len(coloured)
    out: list[dict[str, int]] = [{} for _ in range(players)]
    for row in cs.sheet.scoring:
        if row.rule == "majority":
            vals = row_majority(cs, row, coloured)
        else:
            vals = []
            for p in range(players):
                if row.rule == "sum":
                    v = row_sum(cs, row, coloured[p])
                elif row.rule == "complete":
                    v = row_complete(cs, row, coloured[p])
                elif row.rule == "groups":
                    v = row_groups(cs, row, coloured[p])
                elif row.rule == "races":
                    v = row_races(cs, row, first[p], later[p])
                elif row.rule == "product":
                    v = row_product(cs, row, coloured[p])
                else:  # "Each ladybug that has been circled awards 1 point."
                    v = row.points * ladybugs[p].bit_count()
                vals.append(v)
        for p in range(players):
            out[p][row.row] = vals[p]
    return out
