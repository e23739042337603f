"""Bit-set helpers: sets of small integers (cells, spaces, items) stored in one Python int."""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_of(indices: Sequence[int] | set[int] | frozenset[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def flood(start: int, allowed: int, neighbours: Sequence[int]) -> int:
    """All cells of ``allowed`` connected to ``start`` (a mask) through ``neighbours`` masks.

    ``start`` itself is included whether or not it lies in ``allowed``.
    """
    region = start
    frontier = start
    while frontier:
        grow = 0
        f = frontier
        while f:
            low = f & -f
            grow |= neighbours[low.bit_length() - 1]
            f ^= low
        frontier = grow & allowed & ~region
        region |= frontier
    return region


def neighbourhood(mask: int, neighbours: Sequence[int]) -> int:
    """The union of the neighbour masks of every cell in ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= neighbours[low.bit_length() - 1]
        mask ^= low
    return out


def components(allowed: int, neighbours: Sequence[int]) -> list[int]:
    """The connected components of ``allowed``, each as a mask."""
    out: list[int] = []
    rest = allowed
    while rest:
        low = rest & -rest
        comp = flood(low, allowed, neighbours)
        out.append(comp)
        rest &= ~comp
    return out
