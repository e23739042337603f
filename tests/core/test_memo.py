"""core.memo.made_once_per: a table made once per live object, forgotten with the object."""

from __future__ import annotations

import gc
import weakref

from meeple.core.memo import made_once_per


class _Sheet:
    def __init__(self, name: str) -> None:
        self.name = name


class _Table:
    def __init__(self, sheet: _Sheet) -> None:
        self.name = sheet.name.upper()


def test_made_once_per_live_key_and_kept_apart_by_key() -> None:
    made: list[str] = []

    def make(sheet: _Sheet) -> _Table:
        made.append(sheet.name)
        return _Table(sheet)

    get = made_once_per(make)
    a, b = _Sheet("a"), _Sheet("b")
    first = get(a)
    assert first.name == "A"
    assert get(a) is first
    assert get(b).name == "B"
    assert get(b) is not first
    assert made == ["a", "b"]


def test_a_dropped_key_takes_its_table_with_it() -> None:
    get = made_once_per(_Table)
    sheet = _Sheet("gone")
    table = weakref.ref(get(sheet))
    assert table() is not None
    del sheet
    gc.collect()
    assert table() is None
