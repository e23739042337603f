"""Two server processes on one PostgreSQL: a move accepted by one reaches the clients of the
other (LISTEN/NOTIFY), concurrent moves for one table: exactly one is accepted, and a seat
conceded through the process that does not hold its socket is played out to the end."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_play import create, join, play_out


@pytest.fixture
def second(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server process on the same database."""
    other = Server(server.db_url, free_port(), tmp_path_factory.mktemp("log2") / "server.log")
    other.start()
    try:
        yield other
    finally:
        other.stop()


def test_a_move_on_one_process_reaches_clients_of_the_other(server: Server,
                                                            second: Server) -> None:
    if not server.db_url.startswith("postgresql"):
        pytest.skip("fan-out between processes is PostgreSQL's (LISTEN/NOTIFY); an SQLite "
                    "file serves one process")
    t = create(server, "reefs", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    a = join(server, t["id"], "Ann")
    b = join(second, t["id"], "Bob")  # joined through the other process
    pa = Player(server.ws_base, t["id"], 0, a["secret"])
    pb = Player(second.ws_base, t["id"], 1, b["secret"])
    try:
        for _ in range(6):
            mover, other = (pa, pb) if pa.view["to_move"] == 0 else (pb, pa)
            if not mover.wait_turn(180):
                break
            assert mover.move(mover.view["legal_moves"][0])["type"] == "ack"
            while other.version < mover.version:
                other.expect("view", 120)
            assert other.view["moves_played"] == mover.view["moves_played"]
    finally:
        pa.close()
        pb.close()


def test_concurrent_moves_for_one_table_exactly_one_is_accepted(server: Server,
                                                                second: Server) -> None:
    """Eight connections of the same seat, spread over two server processes on one database,
    send the same move at the same version at once: one ack, seven refusals, one move in the
    log (the guarded version update in the store decides, not a lock in one process)."""
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    a = join(server, t["id"], "Ann")
    b = join(server, t["id"], "Bob")
    probe = Player(server.ws_base, t["id"])
    seat = probe.view["to_move"]
    secret = (a if a["seat"] == seat else b)["secret"]
    version = probe.version
    probe.close()
    p = Player(server.ws_base, t["id"], seat, secret)
    text = p.view["legal_moves"][0]
    p.close()
    before = len(server.api("GET", f"/api/tables/{t['id']}/log").json())
    results: list[str] = []
    bases = [server.ws_base, second.ws_base]
    go = threading.Barrier(8)

    def racer(i: int) -> None:
        with connect(f"{bases[i % len(bases)]}/ws/tables/{t['id']}", ping_interval=None) as ws:
            ws.send(json.dumps({"type": "hello", "seat": seat, "secret": secret}))
            while json.loads(ws.recv(timeout=120))["type"] != "view":
                pass
            go.wait(timeout=20)
            ws.send(json.dumps({"type": "move", "move": text, "version": version,
                                "id": f"race-{i}"}))
            while True:
                frame = json.loads(ws.recv(timeout=120))
                if frame["type"] in ("ack", "refused"):
                    results.append(frame["type"])
                    return

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert sorted(results) == ["ack"] + ["refused"] * 7
    after = server.api("GET", f"/api/tables/{t['id']}/log").json()
    assert len([e for e in after if e["kind"] == "move"]) == 1
    assert len(after) > before


def test_a_seat_conceded_through_the_other_process_is_played_out_and_both_see_the_end(
        server: Server, second: Server) -> None:
    """Ann's socket is on the first process, Bob's on the second; Ann concedes through the
    second (the process that does not hold her socket): her stand-in plays her seat to the
    end, she cannot move again, and both clients see the game over."""
    if not server.db_url.startswith("postgresql"):
        pytest.skip("fan-out between processes is PostgreSQL's (LISTEN/NOTIFY); an SQLite "
                    "file serves one process")
    t = create(server, "takenokolor", {"sheet": "2-pandas"},
               [{"kind": "human"}, {"kind": "human"}])
    a = join(server, t["id"], "Ann")
    b = join(second, t["id"], "Bob")
    pa = Player(server.ws_base, t["id"], 0, a["secret"], updates=True)
    pb = Player(second.ws_base, t["id"], 1, b["secret"], updates=True)
    try:
        mover = pa if pa.view["to_move"] == 0 else pb
        assert mover.move(mover.view["legal_moves"][0])["type"] == "ack"
        r = second.api("POST", f"/api/tables/{t['id']}/concede",
                       json={"seat": 0, "secret": a["secret"]})
        assert r.status_code == 200, r.text
        assert r.json()["seats"][0]["conceded"] is True
        made = play_out(pb, Rng(54))
        assert made > 0 and pb.view["over"]
        while not pa.view.get("over"):
            pa.recv(120)
        assert pa.view["moves_played"] == pb.view["moves_played"]
        assert all(f["type"] != "error" for f in pa.frames + pb.frames)
        for srv in (server, second):
            assert srv.api("GET", f"/api/tables/{t['id']}").json()["status"] == "finished"
    finally:
        pa.close()
        pb.close()
