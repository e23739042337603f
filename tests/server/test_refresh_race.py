"""A refresh (catching a table's runtime up with the store) that runs beside a move of the same
process never takes the runtime back to an older position. A client's hello refreshes outside
the table's lock; when its read of the store was older than a commit that landed while it ran,
the runtime went back to the position before that move, and every client was told that older
position (a spectator of a quick bot game never saw its end; seen once under load in
tests/web/test_table_ux.py)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from meeple.server.table.authority import Position
from meeple.server.table.service import Runtime, Service
from tests.aio import run
from tests.server.test_turn_preview import a_turn, running_table


async def one_behind(svc: Service, other: Service, tid: str
                     ) -> tuple[Runtime, int, list[str], int]:
    """``svc``'s runtime of the table, one version behind the store: ``other`` (another
    server process on the same store) has played the first decision of a turn. Returns the
    runtime, the seat to move, its turn's decisions and the runtime's version."""
    await svc.start_table(tid)
    rt = await svc.authority.runtime(tid)
    seat = rt.state.to_move
    assert seat is not None
    turn = a_turn(rt.state, 3)
    assert len(turn) >= 2  # a Gardens turn: a pencil, then fields
    await other.start_table(tid)
    at = rt.version
    await other.play(tid, seat, turn[0], at, "o1")
    return rt, seat, list(turn), at


def and_as_stored(svc: Service, rt: Runtime) -> tuple[int, Any, int, Any]:
    """The runtime's version and position key, and those of the table rebuilt from the store."""
    fresh = svc.authority.load(rt.table.id)
    return rt.version, rt.state.key(), fresh.version, fresh.state.key()


def test_a_refresh_that_read_before_a_commit_does_not_take_the_position_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, tid = running_table(tmp_path, "gardens", {"level": 1})
    svc = Service(store, None, bots=False)
    other = Service(store, None, bots=False)  # another server process on the same store
    loaded, go = threading.Event(), threading.Event()
    real_catch_up = svc.authority._caught_up
    calls = 0

    def slow_first_load(behind: Position) -> Runtime:
        """The first catch-up reads the store, then waits (as a busy thread would) before it
        hands back what it read."""
        nonlocal calls
        calls += 1
        fresh = real_catch_up(behind)
        if calls == 1:
            loaded.set()
            assert go.wait(30)
        return fresh

    async def scenario() -> tuple[int, Any, int, Any]:
        rt, seat, turn, at = await one_behind(svc, other, tid)
        monkeypatch.setattr(svc.authority, "_caught_up", slow_first_load)
        slow = asyncio.create_task(svc.authority.refresh(rt))  # (a client's hello, say)
        await asyncio.to_thread(loaded.wait, 30)  # it has read the store at version at + 1
        # meanwhile this process plays the next decision (catching up first, under the lock)
        new = (await svc.play(tid, seat, turn[1], at + 1, "s1")).version
        assert rt.version == new == at + 2
        go.set()
        await slow
        return and_as_stored(svc, rt)

    try:
        version, key, stored, stored_key = run(scenario())
    finally:
        go.set()
        store.close()
    assert version == stored, "the runtime went back to an older position"
    assert key == stored_key


def test_a_refresh_plays_the_new_entries_on_the_position_it_read_them_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two refreshes of one runtime at once (a client's hello outside the lock, the other
    process's notice under it): while the first one's thread reads the entries after version
    v, the second moves the runtime on to v + 1. The first must play what it read on the
    position of v, not on the runtime's position of now (it did: the entry was played twice
    and refused, and the hello answered "the server failed on this frame"; seen with
    ``meeple serve --workers 2``, a seat's hello landing on the process that did not hold
    the move)."""
    store, tid = running_table(tmp_path, "gardens", {"level": 1})
    svc = Service(store, None, bots=False)
    other = Service(store, None, bots=False)  # another server process on the same store
    reading, go = threading.Event(), threading.Event()
    real_log = store.log
    held = 0

    def log_held_once(table_id: str, **after: int) -> Any:
        """The first read of the new entries (in the first refresh's thread) waits, after
        reading, until the runtime has moved on."""
        nonlocal held
        got = real_log(table_id, **after)
        if after and threading.current_thread() is not threading.main_thread():
            held += 1
            if held == 1:
                reading.set()
                assert go.wait(30)
        return got

    async def scenario() -> tuple[int, Any, int, Any]:
        rt, _, _, at = await one_behind(svc, other, tid)
        monkeypatch.setattr(store, "log", log_held_once)
        first = asyncio.create_task(svc.authority.refresh(rt))  # (a client's hello, say)
        await asyncio.to_thread(reading.wait, 30)  # it has read the entry after ``at``
        async with rt.lock:  # (the other process's notice)
            assert await svc.authority.refresh(rt)
        assert rt.version == at + 1
        go.set()
        await first  # no IllegalMove: the entry is played once, on the position at ``at``
        return and_as_stored(svc, rt)

    try:
        version, key, stored, stored_key = run(scenario())
    finally:
        go.set()
        store.close()
    assert held >= 2  # both refreshes read the new entries
    assert version == stored and key == stored_key
