"""The whole suite's one ordering rule: the long tests go first.

xdist hands tests to its workers in collection order, so a slow package collected last
(the browser tests, the real-server tests) leaves one worker finishing it alone while the
other is idle. Collected first, the slow ones run while the many quick ones fill the gaps.
The order inside a module is kept (its module-scoped server is started once)."""

from __future__ import annotations

import pytest

#: the packages of long tests, longest first; every other package follows in its own order
FIRST = ("tests/web/", "tests/server/")


def _rank(item: pytest.Item) -> int:
    path = item.nodeid
    return next((i for i, prefix in enumerate(FIRST) if path.startswith(prefix)), len(FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # a stable sort: each module's tests stay in their order
