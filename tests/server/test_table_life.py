"""Life at a table (issue 54), tried from outside on real server processes, on SQLite and
PostgreSQL: conceding (the stand-in plays the seat to the end, for good), the rematch every
person of a finished table is invited to (one table, however many ask at once), and running
tables nobody plays at ended as abandoned."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import Server, free_port

TWO = [{"kind": "human", "bot": "random"}, {"kind": "human", "bot": "random"}]


def _table(srv: Server, seats: list[dict[str, Any]] = TWO, clock: int | None = None
           ) -> tuple[str, list[str]]:
    """A Gardens table whose human seats are all taken by guests: its id and their secrets."""
    body: dict[str, Any] = {"game": "gardens", "variant": {"level": 1}, "seats": seats,
                            "join_as": "Ann"}
    if clock is not None:
        body["clock"] = clock
    r = srv.api("POST", "/api/tables", json=body)
    assert r.status_code == 201, r.text
    table, secrets = r.json()["table"]["id"], [r.json()["secret"]]
    for i, s in enumerate(seats[1:], 1):
        if s["kind"] == "human":
            r = srv.api("POST", f"/api/tables/{table}/join", json={"name": f"P{i}", "seat": i})
            assert r.status_code == 200, r.text
            secrets.append(r.json()["secret"])
    return table, secrets


def _status(srv: Server, table: str) -> dict[str, Any]:
    got: dict[str, Any] = srv.api("GET", f"/api/tables/{table}").json()
    return got


def _wait_finished(srv: Server, table: str, within: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while (t := _status(srv, table))["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not finish: {t}"
        time.sleep(0.2)
    return t


def _socket(srv: Server, table: str) -> ClientConnection:
    return connect(f"{srv.ws_base}/ws/tables/{table}", open_timeout=30, ping_interval=None,
                   close_timeout=5).__enter__()


def _until(ws: ClientConnection, kind: str, test: Any = lambda f: True) -> dict[str, Any]:
    for _ in range(500):
        frame: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if frame["type"] == kind and test(frame):
            return frame
    raise AssertionError(f"no {kind} frame")


def _detail(r: httpx.Response, status: int, *words: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    detail = str(r.json()["detail"])
    for w in words:
        assert w in detail, detail


def test_conceding_hands_the_seat_to_its_stand_in_for_good(server: Server) -> None:
    table, (s0, s1) = _table(server)
    ws = _socket(server, table)
    ws.send(json.dumps({"type": "hello", "seat": 0, "secret": s0, "presence": True}))
    _until(ws, "presence")
    # refusals change nothing
    _detail(server.api("POST", f"/api/tables/{table}/concede", json={"seat": 0}), 403,
            "secret")
    _detail(server.api("POST", f"/api/tables/{table}/concede",
                       json={"seat": 0, "secret": s1}), 403)
    _detail(server.api("POST", f"/api/tables/{table}/concede",
                       json={"seat": 5, "secret": s0}), 422)
    assert not any(s["conceded"] for s in _status(server, table)["seats"])
    r = server.api("POST", f"/api/tables/{table}/concede", json={"seat": 0, "secret": s0})
    assert r.status_code == 200, r.text
    assert [s["conceded"] for s in r.json()["seats"]] == [True, False]
    # the table's clients are told in their presence frame
    _until(ws, "presence", lambda f: f["conceded"] == [True, False])
    # its person can no longer move, nor take the seat back
    ws.send(json.dumps({"type": "back"}))
    got = _until(ws, "error")
    assert "conceded" in got["reason"]
    ws.send(json.dumps({"type": "move", "id": "m1", "version": 0, "move": "x"}))
    got = _until(ws, "refused")
    assert "conceded" in got["reason"], got
    # conceding again: the same answer, nothing new
    r = server.api("POST", f"/api/tables/{table}/concede", json={"seat": 0, "secret": s0})
    assert r.status_code == 200 and r.json()["seats"][0]["conceded"]
    ws.close()
    # the other concedes too: both stand-ins play the game to its end
    assert server.api("POST", f"/api/tables/{table}/concede",
                      json={"seat": 1, "secret": s1}).status_code == 200
    done = _wait_finished(server, table)
    assert done["result"] is not None and done["ended"] is None
    _detail(server.api("POST", f"/api/tables/{table}/concede", json={"seat": 1, "secret": s1}),
            409, "finished")


def _finished(srv: Server) -> tuple[str, list[str]]:
    table, secrets = _table(srv)
    for seat, secret in enumerate(secrets):
        assert srv.api("POST", f"/api/tables/{table}/concede",
                       json={"seat": seat, "secret": secret}).status_code == 200
    _wait_finished(srv, table)
    return table, secrets


def test_a_rematch_invites_every_person_to_one_table(server: Server) -> None:
    table, (s0, s1) = _finished(server)
    watcher = _socket(server, table)
    watcher.send(json.dumps({"type": "hello", "presence": True}))
    assert _until(watcher, "presence")["rematch"] is None
    # refusals: no proof, a wrong secret, a bot's or unknown seat; nothing is made
    _detail(server.api("POST", f"/api/tables/{table}/rematch", json={"seat": 0}), 403,
            "secret")
    _detail(server.api("POST", f"/api/tables/{table}/rematch",
                       json={"seat": 0, "secret": s1}), 403)
    _detail(server.api("POST", f"/api/tables/{table}/rematch",
                       json={"seat": 2, "secret": s0}), 422)
    assert _status(server, table)["rematch"] is None
    key = str(uuid.uuid4())
    r = server.api("POST", f"/api/tables/{table}/rematch", json={"seat": 0, "secret": s0},
                   headers={"Idempotency-Key": key})
    assert r.status_code == 201, r.text
    first = r.json()
    new = first["table"]["id"]
    assert new != table and first["seat"] == 0 and first["table"]["status"] == "waiting"
    assert first["table"]["seats"][0]["name"] == "Ann" and not first["table"]["public"]
    assert _status(server, table)["rematch"] == new
    # the people at the finished table are told
    assert _until(watcher, "presence", lambda f: f["rematch"] is not None)["rematch"] == new
    watcher.close()
    # a retry of the same request (its reply lost): the same answer
    again = server.api("POST", f"/api/tables/{table}/rematch", json={"seat": 0, "secret": s0},
                       headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.json()["secret"] == first["secret"]
    # the same seat again without the key: taken (by that person already)
    _detail(server.api("POST", f"/api/tables/{table}/rematch",
                       json={"seat": 0, "secret": s0}), 409)
    # the other person joins the same table, at their own seat; it starts
    r = server.api("POST", f"/api/tables/{table}/rematch",
                   json={"seat": 1, "secret": s1, "name": "Bea"})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["id"] == new and r.json()["seat"] == 1
    assert _status(server, new)["status"] == "running"
    assert _status(server, new)["seats"][1]["name"] == "Bea"
    # not in the lobby's list of tables (its people are invited, strangers are not shown it)
    listed = server.api("GET", "/api/tables", params={"limit": 100}).json()
    assert new not in {t["id"] for t in listed}
    # a running table has no rematch
    _detail(server.api("POST", f"/api/tables/{new}/rematch",
                       json={"seat": 0, "secret": first["secret"]}), 409, "finished")


def test_people_asking_for_a_rematch_at_once_meet_at_one_table(server: Server) -> None:
    table, secrets = _finished(server)
    answers: list[httpx.Response] = []

    def ask(seat: int) -> None:
        with httpx.Client(base_url=server.base, timeout=60) as c:
            answers.append(c.post(f"/api/tables/{table}/rematch",
                                  json={"seat": seat, "secret": secrets[seat]}))

    threads = [threading.Thread(target=ask, args=(seat,)) for seat in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    assert len({a.json()["table"]["id"] for a in answers}) == 1
    assert {a.json()["seat"] for a in answers} == {0, 1}


@pytest.fixture
def quick(db_url: str, tmp_path: Any) -> Iterator[Server]:
    """A server that ends running tables nobody moved at for 2 s (MEEPLE_ABANDONED)."""
    srv = Server(db_url, free_port(), tmp_path / "server.log")
    srv.env = {"MEEPLE_ABANDONED": "2"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_game_nobody_plays_on_ends_as_abandoned(quick: Server) -> None:
    walked, _ = _table(quick)
    clocked, _ = _table(quick, clock=3600)  # a clock's stand-ins keep it going: not ended
    watched, secrets = _table(quick)
    ws = _socket(quick, watched)  # somebody is at this one
    ws.send(json.dumps({"type": "hello", "seat": 0, "secret": secrets[0]}))
    _until(ws, "view")
    done = _wait_finished(quick, walked, within=60)
    assert done["ended"] == "abandoned" and done["result"] is None
    running = quick.api("GET", "/api/tables", params={"status": "running", "limit": 100}).json()
    assert walked not in {t["id"] for t in running}
    assert _status(quick, clocked)["status"] == "running"
    assert _status(quick, watched)["status"] == "running"
    ws.close()
