"""``meeple serve --workers N``: N processes on one address sharing one PostgreSQL's tables.

Two people's sockets of one table land on different processes (the ``x-meeple-process``
header of their handshakes names each), and the game is played to its end with every move
stored once; one process killed with SIGKILL is replaced and the table goes on; SQLite, and
counts of processes that make no sense, are refused with exit 2 before anything is opened."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.client import Player
from tests.server.conftest import Server, free_port, pg_database
from tests.server.test_play import create, join

HEADER = "x-meeple-process"


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database of this module's own."""
    yield from pg_database("meeple_workers")


@pytest.fixture(scope="module")
def workers(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``meeple serve --workers 2`` on PostgreSQL, both processes answering."""
    srv = Server(pg_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.workers = 2
    srv.start()
    last: set[int] = set()
    try:
        answering(srv, 2)
        yield srv
        last = srv.worker_pids()
    finally:
        srv.stop()
    assert not any(Path(f"/proc/{pid}").exists() for pid in last), "a process outlived serve"


def answering(srv: Server, count: int, timeout: float = 240) -> set[int]:
    """Wait until ``count`` live worker processes have answered a request (each new
    connection lands on one of them); their pids."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        live = srv.worker_pids()
        seen: set[int] = set()
        for _ in range(20):
            try:
                r = httpx.get(srv.base + "/api/games", timeout=30)
            except httpx.HTTPError:
                continue
            seen.add(int(r.headers[HEADER]))
            if len(seen & live) >= count:
                return seen & live
        time.sleep(0.5)
    raise AssertionError(f"{count} processes did not answer in {timeout} s: {srv.worker_pids()}")


def player_on(srv: Server, table: str, seat: int, secret: str, want: set[int] | None = None,
              avoid: set[int] | frozenset[int] = frozenset()) -> tuple[Player, int]:
    """A seated socket whose handshake landed on a process in ``want`` (any, if None) and not
    in ``avoid``: new connections until one does (bounded)."""
    for _ in range(60):
        p = Player(srv.ws_base, table, seat, secret, updates=True)
        assert p.ws.response is not None
        pid = int(p.ws.response.headers[HEADER])
        if (want is None or pid in want) and pid not in avoid:
            return p, pid
        p.close()
    raise AssertionError(f"no socket landed on {want} (avoiding {avoid}) in 60 tries")


def play_turn(players: list[Player], rng: random.Random) -> bool:
    """The player to move makes a random legal move (acknowledged); every player then holds
    its version. False when the game is over."""
    ahead = max(players, key=lambda p: p.version)
    for p in players:  # all at the newest version first
        while p.version < ahead.version:
            p.recv(120)
    if ahead.view.get("over"):
        return False
    mover = next(p for p in players if p.view.get("to_move") == p.seat)
    assert mover.wait_turn(120)
    got = mover.move(rng.choice(mover.view["legal_moves"]))
    assert got["type"] == "ack", got
    for p in players:
        while p.version < mover.version:
            p.recv(120)
    return True


def play_to_end(players: list[Player], rng: random.Random) -> int:
    """:func:`play_turn` until the game is over (bounded): the moves acknowledged."""
    acked = 0
    while play_turn(players, rng):
        acked += 1
        assert acked < 2000, "the game did not end"
    return acked


def two_people(srv: Server) -> tuple[str, list[dict[str, object]]]:
    t = create(srv, "reefs", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    return t["id"], [join(srv, t["id"], "Ann"), join(srv, t["id"], "Bob")]


def stored_once(srv: Server, table: str, acked: int) -> None:
    """Every acknowledged move is in the table's log and record once, and the game is over."""
    log = srv.api("GET", f"/api/tables/{table}/log").json()
    versions = [e["number"] for e in log]
    assert len(versions) == len(set(versions)), "a version stored twice"
    assert len([e for e in log if e["kind"] == "move"]) == acked
    record = srv.api("GET", f"/api/tables/{table}/record").json()
    assert len(record["moves"]) >= acked
    assert srv.api("GET", f"/api/tables/{table}").json()["status"] == "finished"


def test_two_sockets_of_one_table_on_two_processes_play_it_to_its_end(workers: Server) -> None:
    pids = answering(workers, 2)
    table, seats = two_people(workers)
    pa, pid_a = player_on(workers, table, 0, str(seats[0]["secret"]))
    pb, pid_b = player_on(workers, table, 1, str(seats[1]["secret"]), want=pids - {pid_a})
    assert pid_a != pid_b and {pid_a, pid_b} <= pids
    try:
        acked = play_to_end([pa, pb], random.Random(62))
    finally:
        pa.close()
        pb.close()
    assert acked > 0
    stored_once(workers, table, acked)


def test_a_process_killed_is_replaced_and_the_table_goes_on(workers: Server) -> None:
    pids = answering(workers, 2)
    table, seats = two_people(workers)
    pa, pid_a = player_on(workers, table, 0, str(seats[0]["secret"]))
    pb, pid_b = player_on(workers, table, 1, str(seats[1]["secret"]), want=pids - {pid_a})
    rng = random.Random(63)
    acked = 0
    try:
        for _ in range(4):
            assert play_turn([pa, pb], rng)
            acked += 1
        os.kill(pid_a, signal.SIGKILL)
        with pytest.raises(Exception):  # noqa: B017 (closed: any of websockets' errors)
            while True:
                pa.recv(60)
        pa.close()
        # the supervisor starts another process; b's socket, on the other, plays on
        new = answering(workers, 2) - {pid_b}
        assert new and pid_a not in new
        pa, pid_a2 = player_on(workers, table, 0, str(seats[0]["secret"]), want=new)
        assert pid_a2 != pid_a
        acked += play_to_end([pa, pb], rng)
    finally:
        pa.close()
        pb.close()
    stored_once(workers, table, acked)


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meeple", "serve", *args], text=True,
                          capture_output=True, timeout=240,
                          env={**os.environ, "MEEPLE_DATABASE_URL": "", **(env or {})})


@pytest.mark.parametrize("count", ["0", "-1", "33", "1000000000000", "two"])
def test_a_count_of_processes_that_makes_no_sense_is_refused(count: str) -> None:
    got = serve("--port", str(free_port()), "--workers", count)
    assert got.returncode == 2, got
    text = " ".join(got.stderr.split())
    assert "--workers" in text and ("from 1 to 32" in text or "valid integer" in text), text


def test_several_processes_on_sqlite_are_refused_naming_why(tmp_path: Path) -> None:
    db = tmp_path / "meeple.db"
    got = serve("--port", str(free_port()), "--workers", "2", "--db", str(db))
    assert got.returncode == 2, got
    text = " ".join(got.stderr.split())
    assert "needs PostgreSQL" in text and "LISTEN/NOTIFY" in text and "--workers 1" in text
    assert not db.exists()  # nothing opened
