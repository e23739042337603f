"""Hex-grid geometry in axial coordinates (q, r), pointy-top, as used by Gardens sheets."""

from __future__ import annotations

import math
from collections.abc import Iterable

#: The six axial directions, clockwise from east.
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_neighbours(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS]


def hex_connected(cells: set[tuple[int, int]]) -> bool:
    """True if the hex cells form one group of neighbours (an empty set counts as connected)."""
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        q, r = stack.pop()
        for n in hex_neighbours(q, r):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def hex_to_pixel(q: int, r: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex, for drawing."""
    x = size * math.sqrt(3) * (q + r / 2)
    y = size * 1.5 * r
    return x, y


def outside_positions(cells: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """Non-cell positions connected to the far outside of a set of hex cells.

    Positions not in ``cells`` and not reachable from outside the bounding box are holes
    (a fountain, a pond): fields that border only holes are not on the outer edge (G5).
    """
    cellset = set(cells)
    if not cellset:
        return set()
    qs = [q for q, _ in cellset]
    rs = [r for _, r in cellset]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = (q0, r0)
    seen = {start}
    stack = [start]
    while stack:
        q, r = stack.pop()
        for nq, nr in hex_neighbours(q, r):
            if q0 <= nq <= q1 and r0 <= nr <= r1 and (nq, nr) not in cellset \
                    and (nq, nr) not in seen:
                seen.add((nq, nr))
                stack.append((nq, nr))
    return seen


def is_outside(pos: tuple[int, int], outside: set[tuple[int, int]],
               cells: set[tuple[int, int]]) -> bool:
    """True if ``pos`` is off the sheet: reached from outside, or beyond the bounding box."""
    return pos in outside or (pos not in cells and not _inside_box(pos, cells))


def _inside_box(pos: tuple[int, int], cells: set[tuple[int, int]]) -> bool:
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    return min(qs) <= pos[0] <= max(qs) and min(rs) <= pos[1] <= max(rs)
