"""Tables made once per object: what a compiled sheet or board implies (masks, distances, ids),
found the first time it is asked for and kept as long as the object lives."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def made_once_per(make: Callable[[K], V]) -> Callable[[K], V]:
    """``get(key)``: ``make(key)``, made the first time ``key`` is asked for and then kept
    while ``key`` lives (a weak key: a sheet dropped takes its table with it). ``key`` must be
    hashable and weakly referable; ``make`` must not return None.

    Build it at module level, ``_tables = made_once_per(_Tables)``: ``get`` is the one call,
    as cheap as the dictionary look-up it does."""
    made: weakref.WeakKeyDictionary[K, V] = weakref.WeakKeyDictionary()

    def get(key: K) -> V:
        value = made.get(key)
        if value is None:
            value = made[key] = make(key)
        return value

    return get
