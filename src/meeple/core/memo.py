"""Tables made once per object: what a compiled sheet or board implies (masks, distances, ids),
found the first time it is asked for and kept as long as the object lives."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class MadeOncePer(Generic[K, V]):
    """``get(key)``: ``make(key)``, made the first time ``key`` is asked for and then kept
    while ``key`` lives (a weak key: a sheet dropped takes its table with it). ``key`` must be
    hashable and weakly referable; ``make`` must not return None. :meth:`clear` forgets every
    table (tests that change what ``make`` reads)."""

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[K], V]) -> None:
        self._make = make
        self._made: weakref.WeakKeyDictionary[K, V] = weakref.WeakKeyDictionary()

    def __call__(self, key: K) -> V:
        value = self._made.get(key)
        if value is None:
            value = self._made[key] = self._make(key)
        return value

    def clear(self) -> None:
        self._made.clear()


def made_once_per(make: Callable[[K], V]) -> MadeOncePer[K, V]:
    """The table ``make`` builds, made once per key (:class:`MadeOncePer`). Build it at module
    level, ``_tables = made_once_per(_Tables)``: a look-up is one call and one dictionary
    look-up."""
    return MadeOncePer(make)
