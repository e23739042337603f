"""Group commit (``Store.append_group``, ``meeple.server.table.committer``): the appends of many
tables in one transaction, each answered as ``Store.append`` would answer it alone, on SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from meeple.server.table.committer import Committer
from meeple.store import (
    CHANCE,
    MOVE,
    Append,
    DuplicateMove,
    Entry,
    NotFound,
    SeatSpec,
    StaleVersion,
    Store,
    request_key,
)
from tests.aio import run


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    s.migrate()
    yield s
    s.close()


def tables(store: Store, n: int) -> list[str]:
    return [store.create_table("reefs", {"level": 1}, 2,
                               [SeatSpec(kind="bot", bot="random")] * 2).table_id
            for _ in range(n)]


def test_a_group_answers_each_append_as_alone(store: Store) -> None:
    a, b, c = tables(store, 3)
    va, vb, vc = (store.table(t).version for t in (a, b, c))
    key = request_key(0, va, "c1", MOVE, ["x"])
    answers = store.append_group([
        Append(a, va, [Entry(MOVE, 0, "x", key), Entry(CHANCE, -1, "r")]),
        Append(b, vb + 5, [Entry(MOVE, 0, "y")]),  # stale: b is not at that version
        Append("nosuchtable", 0, [Entry(MOVE, 0, "z")]),
        Append(c, vc, [Entry(MOVE, 1, "w")], finished_result=[{"total": 3}]),
    ])
    assert answers[0] == va + 2
    assert isinstance(answers[1], StaleVersion)
    assert isinstance(answers[2], NotFound)
    assert answers[3] == vc + 1
    assert [e.text for e in store.log(a)][-2:] == ["x", "r"]
    assert store.table(b).version == vb and store.log(b, after=vb) == []  # nothing written
    assert store.table(c).status == "finished"
    assert store.acked_version(a, key) == va + 2


def test_a_client_id_used_twice_refuses_that_append_only(store: Store) -> None:
    a, b = tables(store, 2)
    va, vb = store.table(a).version, store.table(b).version
    key = request_key(0, va, "dup", MOVE, ["x"])
    assert store.append(a, va, [Entry(MOVE, 0, "x", key)]) == va + 1
    answers = store.append_group([
        Append(a, va + 1, [Entry(MOVE, 0, "y", key)]),  # the same request key again
        Append(b, vb, [Entry(MOVE, 0, "z")]),
    ])
    assert isinstance(answers[0], DuplicateMove)
    assert answers[1] == vb + 1
    assert store.table(a).version == va + 1


def test_the_committer_groups_what_waits_and_answers_each(store: Store,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    ids = tables(store, 30)
    versions = {t: store.table(t).version for t in ids}
    committer = Committer(store)
    gate = threading.Event()
    group = store.append_group

    def held(requests: list[Append]) -> list[int | Exception]:
        gate.wait(30)  # the first commit waits until every append is queued
        return group(requests)

    monkeypatch.setattr(store, "append_group", held)

    async def main() -> list[int | BaseException]:
        waiting = asyncio.gather(
            *(committer.append(t, versions[t], [Entry(MOVE, 0, f"m{i}")])
              for i, t in enumerate(ids)),
            committer.append(ids[0], versions[ids[0]] + 9, [Entry(MOVE, 0, "stale")]),
            return_exceptions=True)
        for _ in range(3000):
            if committer.submitted == 31:
                break
            await asyncio.sleep(0.001)
        gate.set()
        return await waiting

    try:
        got = run(main())
    finally:
        gate.set()
        committer.stop()
    assert got[:30] == [versions[t] + 1 for t in ids]
    assert isinstance(got[30], StaleVersion)  # its table had moved on: refused alone
    # the first commit took what was queued when it started, the second all the rest
    assert committer.appends == 31 and committer.groups <= 2
    assert [store.log(t)[-1].text for t in ids] == [f"m{i}" for i in range(30)]
