"""The server's memory does not grow with the number of tables served or ids asked for: idle
finished and waiting tables are forgotten (and rebuilt from the store when asked for again),
and an unknown table id leaves nothing behind (issue 35, the 10-minute load)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.server.table.service import Service
from meeple.store import BOT, HUMAN, NotFound, SeatSpec, Store
from tests.aio import run


def test_idle_tables_nobody_watches_are_forgotten_and_rebuilt_on_demand(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    store.migrate()
    waiting = store.create_table("gardens", {"level": 1}, 2, [SeatSpec(HUMAN)] * 2).table_id
    running = store.create_table("gardens", {"level": 1}, 2,
                                 [SeatSpec(HUMAN), SeatSpec(HUMAN)], join_as="Ann").table_id
    store.join(running, None, "Bob")
    finished = store.create_table("reefs", {"level": 1}, 2, [SeatSpec(BOT, "random")] * 2).table_id
    store.finish(finished, None)
    svc = Service(store, None, bots=False)

    async def scenario() -> None:
        for tid in (waiting, running, finished):
            await svc.authority.runtime(tid)
        assert svc.authority.evict_idle(idle=3600) == 0  # nothing is idle yet
        for rt in svc.authority.runtimes.values():
            rt.since -= 7200
        svc.authority.connections[waiting] = 1  # an open connection keeps a table
        assert svc.authority.evict_idle(idle=3600) == 1
        assert set(svc.authority.runtimes) == {waiting, running}
        del svc.authority.connections[waiting]
        assert svc.authority.evict_idle(idle=3600) == 1
        assert set(svc.authority.runtimes) == {running}  # a running game stays in memory
        again = await svc.authority.runtime(finished)  # rebuilt from the store
        assert again.table.status == "finished" and again.version == 0
        for bogus in ("nope", "0" * 16, "x" * 5000):
            with pytest.raises(NotFound):
                await svc.authority.runtime(bogus)
        assert svc.authority._loading == {}  # no lock per id a client named

    run(scenario())
    store.close()
