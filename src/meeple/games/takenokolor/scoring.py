"""The score pad: each row of the sheet's ``scoring`` list, evaluated per seat.

Every row rule is one function named after it, citing the rulebook's "Counting Points".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from meeple.core.memo import made_once_per
from meeple.games.takenokolor.sheet import Compiled, Measure, Row


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


def printed_points(cs: Compiled, mask: int) -> int:
    """The printed points of the items in ``mask``."""
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
    return side_value(cs, m.op, areas, _mask(cs, areas), coloured)


def side_value(cs: Compiled, op: str, areas: Sequence[int], mask: int, coloured: int) -> int:
    """A product's factor (:func:`measure`) from its areas and their mask, found once."""
    if op == "count":
        return (coloured & mask).bit_count()
    if op == "sum":
        return printed_points(cs, coloured & mask)
    return sum(highest_leaf(cs, ai, coloured) for ai in areas)


def highest_leaf(cs: Compiled, ai: int, coloured: int) -> int:
    """Dragon sheet: the points on the highest coloured section of a bamboo (or the last
    coloured burst of the fireworks): the furthest coloured item of the area."""
    m = coloured & cs.area_mask[ai]
    return cs.item_points[m.bit_length() - 1] if m else 0


def row_sum(cs: Compiled, row: Row, coloured: int) -> int:
    """"Each leaf on a colored bamboo section awards the number of points shown on it"; also
    fish, river sections, party favours, the dragon's head and blue sections."""
    return printed_points(cs, coloured & _mask(cs, _areas(cs, row.areas, row.kinds)))


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
    return [majority_points(coloured_all, mask, row.places, p) for p in range(len(coloured_all))]


def majority_points(coloured_all: Sequence[int], mask: int, places: Sequence[int], p: int) -> int:
    """Seat ``p``'s points in a majority row over the items of ``mask``: its place is the number
    of distinct counts above its own (ties share a place)."""
    counts = [(c & mask).bit_count() for c in coloured_all]
    n = counts[p]
    if n == 0:
        return 0
    place = sum(1 for x in set(counts) if x > n)
    return places[place] if place < len(places) else 0


def row_races(cs: Compiled, row: Row, first: int, later: int) -> int:
    """Lanterns (T7) and dragon feet: the number not crossed out."""
    return race_points(cs, _race_indices(cs, row), first, later)


def _race_indices(cs: Compiled, row: Row) -> list[int]:
    ids = [r.id for r in cs.sheet.races]
    return [ids.index(r) for r in row.races] if row.races else list(range(len(ids)))


def race_points(cs: Compiled, races: Sequence[int], first: int, later: int) -> int:
    """The race numbers a seat holds in ``races``: the first number, else the later one."""
    total = 0
    for ri in races:
        if first >> ri & 1:
            total += cs.race_first[ri]
        elif later >> ri & 1:
            total += cs.race_later[ri]
    return total


def row_product(cs: Compiled, row: Row, coloured: int) -> int:
    """Shoots' leaves x ponds coloured; bamboo group x lanterns above it; last burst x trail."""
    assert row.left is not None and row.right is not None
    return measure(cs, row.left, coloured) * measure(cs, row.right, coloured)


Side = tuple[str, tuple[int, ...], int]  # a product factor: op, areas, their mask


class PadRows:
    """A sheet's score pad grouped by rule, areas and masks found once (:func:`pad_rows`), for
    totals computed often (the bots' evaluation): the same functions as :func:`pad`, summed.

    ``colour_points(col)`` is every row that reads the seat's own colourings alone (sums,
    complete areas, bamboo groups, products); ``table_points(...)`` the rest (majorities, races,
    ladybugs); their sum is the seat's total on :func:`pad`."""

    __slots__ = ("complete_rows", "cs", "group_rows", "ladybug_points", "majority_rows",
                 "product_rows", "race_rows", "sum_mask")

    def __init__(self, cs: Compiled) -> None:
        self.cs = cs
        sum_mask = 0
        complete: list[tuple[int, tuple[int, ...]]] = []
        groups_rows: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
        majority: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        races: list[int] = []
        products: list[tuple[Side, Side]] = []
        ladybug_points = 0
        for row in cs.sheet.scoring:
            areas = _areas(cs, row.areas, row.kinds)
            if row.rule == "sum":
                sum_mask |= _mask(cs, areas)
            elif row.rule == "complete":
                complete.append((row.points, tuple(areas)))
            elif row.rule == "groups":
                groups: dict[tuple[str, str], list[int]] = {}
                for ai in areas:
                    key = cs.area_group[ai]
                    if key is not None:
                        groups.setdefault(key, []).append(ai)
                groups_rows.append((row.points, tuple(tuple(g) for g in groups.values())))
            elif row.rule == "majority":
                majority.append((_mask(cs, areas), tuple(row.places), tuple(areas)))
            elif row.rule == "races":
                races.extend(_race_indices(cs, row))
            elif row.rule == "product":
                assert row.left is not None and row.right is not None
                sides = []
                for m in (row.left, row.right):
                    ar = _areas(cs, m.areas, m.kinds)
                    sides.append((m.op, tuple(ar), _mask(cs, ar)))
                products.append((sides[0], sides[1]))
            else:
                ladybug_points += row.points
        self.sum_mask = sum_mask
        self.complete_rows = tuple(complete)
        self.group_rows = tuple(groups_rows)
        self.majority_rows = tuple(majority)
        self.race_rows = tuple(races)
        self.product_rows = tuple(products)
        self.ladybug_points = ladybug_points

    def side(self, side: Side, col: int) -> int:
        """A product factor's value for the colourings ``col``."""
        return side_value(self.cs, side[0], side[1], side[2], col)

    def colour_points(self, col: int) -> int:
        cs = self.cs
        total = printed_points(cs, col & self.sum_mask)
        for pts, areas in self.complete_rows:
            total += pts * sum(1 for ai in areas if cs.complete(col, ai))
        for pts, groups in self.group_rows:
            total += pts * sum(1 for g in groups if all(cs.complete(col, ai) for ai in g))
        for left, right in self.product_rows:
            total += self.side(left, col) * self.side(right, col)
        return total

    def table_points(self, coloured: Sequence[int], ladybugs: int, first: int, later: int,
                     p: int) -> int:
        total = 0
        for mask, places, _ in self.majority_rows:
            total += majority_points(coloured, mask, places, p)
        total += race_points(self.cs, self.race_rows, first, later)
        return total + self.ladybug_points * ladybugs.bit_count()

    def total(self, coloured: Sequence[int], ladybugs: int, first: int, later: int, p: int) -> int:
        """Seat ``p``'s score-pad total (``ladybugs``, ``first``, ``later``: its own bits)."""
        return self.colour_points(coloured[p]) + self.table_points(coloured, ladybugs, first,
                                                                   later, p)


#: ``pad_rows(cs)``: the :class:`PadRows` of a compiled sheet, made once per sheet.
pad_rows: Callable[[Compiled], PadRows] = made_once_per(PadRows)


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
