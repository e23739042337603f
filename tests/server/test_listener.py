"""The fan-out's listener, without PostgreSQL: which notices it hands to the event loop and
which it skips in its own thread (a table this process neither holds nor is loading, its own
commits, what is no notice, a feature's code nobody registered)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from meeple.server.table.fanout import PgListener
from meeple.server.table.service import Service
from tests.server.test_turn_preview import running_table

URL = "postgresql+psycopg://meeple@127.0.0.1:5432/meeple"  # never connected to here


def test_the_listener_hands_over_only_the_notices_of_tables_this_process_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, tid = running_table(tmp_path, "gardens", {"level": 1})
    svc = Service(store, None, bots=False)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    changes: list[tuple[str, int]] = []
    chats: list[tuple[str, int]] = []

    async def remote_change(table_id: str, version: int) -> None:
        changes.append((table_id, version))

    async def chat_notice(table_id: str, code: int) -> None:
        chats.append((table_id, code))

    monkeypatch.setattr(svc, "remote_change", remote_change)
    listener = PgListener(URL, svc, loop, notices={-2: chat_notice})
    other = "0f0f0f0f0f0f"  # another process's store
    try:
        # a table this process has never loaded: skipped in the listener's thread
        assert not listener.handle(f"{tid}:7:{other}")
        assert not listener.handle(f"{tid}:-1:{other}")  # (its seats changed there)
        # a feature's code goes to its handler whether the table is held or not
        assert listener.handle(f"{tid}:-2:{other}")
        assert not listener.handle(f"{tid}:-3:{other}")  # nobody registered -3
        # while the table loads, and once it is held: handed over
        svc.authority._loading[tid] = asyncio.Lock()
        assert svc.authority.holds(tid)
        assert listener.handle(f"{tid}:8:{other}")
        del svc.authority._loading[tid]
        asyncio.run_coroutine_threadsafe(svc.authority.runtime(tid), loop).result(30)
        assert listener.handle(f"{tid}:9:{other}")
        assert listener.handle(f"{tid}:-1:{other}")
        # this process's own commits, and what is not a notice: skipped
        assert not listener.handle(f"{tid}:10:{store.origin}")
        for bad in ("", "x", f"{tid}:nine:{other}", "../etc:1:x", f"{tid}:1:2:3"):
            assert not listener.handle(bad)
        deadline = time.monotonic() + 30
        while (len(changes) < 3 or not chats) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert changes == [(tid, 8), (tid, 9), (tid, -1)]
        assert chats == [(tid, -2)]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        store.close()
