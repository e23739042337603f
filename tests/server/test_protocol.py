"""Refusals and bad frames change nothing; two people play live; a spectator watches."""

from __future__ import annotations

import json

from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create, join

#: The protocol's frames and refusals are the service's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY


def two_humans(server: Server) -> tuple[str, Player, Player]:
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    table = t["id"]
    a = join(server, table, "Ann")
    b = join(server, table, "Bob")
    assert (a["seat"], b["seat"]) == (0, 1)
    assert b["table"]["status"] == "running"
    pa = Player(server.ws_base, table, 0, a["secret"])
    pb = Player(server.ws_base, table, 1, b["secret"])
    return table, pa, pb


def stored(server: Server, table: str) -> list[str]:
    moves: list[str] = server.api("GET", f"/api/tables/{table}/record").json()["moves"]
    return moves


def test_two_people_see_each_others_moves_live_and_a_spectator_watches(server: Server) -> None:
    table, pa, pb = two_humans(server)
    watcher = Player(server.ws_base, table)
    try:
        first = pa.view["to_move"]
        mover, other = (pa, pb) if first == 0 else (pb, pa)
        assert mover.wait_turn(180)
        text = mover.view["legal_moves"][0]
        assert mover.move(text, "a1")["type"] == "ack"
        # the other seat and the spectator get the new position without asking
        other.expect("view", 120)
        watcher.expect("view", 120)
        assert other.version == mover.version == watcher.version
        assert other.view["log"][-1]["move"] == text or any(
            line["move"] == text for line in other.view["log"])
        assert watcher.view["viewer"] is None
        assert watcher.view["legal_moves"] == []
        assert other.view["legal_moves"] == [] or other.view["to_move"] == other.seat
        assert [s["name"] for s in watcher.view["seats"]] == ["Ann", "Bob"]
        # a spectator cannot move
        got = watcher.move(text)
        assert got["type"] in ("refused", "error")
    finally:
        for p in (pa, pb, watcher):
            p.close()


def test_stale_duplicate_wrong_seat_and_forged_secret_are_refused_and_change_nothing(
        server: Server) -> None:
    table, pa, pb = two_humans(server)
    try:
        mover, other = (pa, pb) if pa.view["to_move"] == 0 else (pb, pa)
        assert mover.wait_turn(180)
        before = stored(server, table)
        # the wrong seat
        got = other.move(mover.view["legal_moves"][0], "x1")
        assert got["type"] == "refused" and "turn" in got["reason"]
        # an illegal move: the engine's reason
        got = mover.move("no such move", "x2")
        assert got["type"] == "refused" and got["reason"]
        # a stale version
        mover.send({"type": "move", "move": mover.view["legal_moves"][0],
                    "version": mover.version - 1, "id": "x3"})
        got = mover.expect("refused")
        assert "version" in got["reason"]
        assert stored(server, table) == before
        # accepted once; the very same frame again (a resend after a missed ack) is
        # acknowledged as played, not played twice; the id used for another move is refused
        text = mover.view["legal_moves"][0]
        frame = {"type": "move", "move": text, "version": mover.version, "id": "dup-1"}
        mover.send(frame)
        first_ack = mover.expect("ack")
        assert first_ack.get("resent") is None
        after = stored(server, table)
        assert len(after) > len(before)
        mover.send(frame)
        again = mover.expect("ack")
        assert again["id"] == "dup-1" and again["resent"] is True
        assert again["version"] == first_ack["version"]  # the same answer as the first time
        assert stored(server, table) == after
        # the same id at the same version with another move is not that request: it is
        # refused as made on an old position, and changes nothing
        mover.send({**frame, "move": "no such move"})
        got = mover.expect("refused")
        assert "version" in got["reason"]
        assert stored(server, table) == after
        # a forged secret or another seat's secret is refused at hello
        forged = Player.__new__(Player)
        from websockets.sync.client import connect

        with connect(f"{server.ws_base}/ws/tables/{table}", ping_interval=None) as ws:
            for hello in ({"type": "hello", "seat": 0, "secret": "forged"},
                          {"type": "hello", "seat": 0},
                          {"type": "hello", "seat": 7, "secret": "x"}):
                ws.send(json.dumps(hello))
                frame = json.loads(ws.recv(timeout=120))
                assert frame["type"] == "error", frame
            # not greeted: moves are refused
            ws.send(json.dumps({"type": "move", "move": "take O", "version": 0}))
            assert json.loads(ws.recv(timeout=120))["type"] == "error"
        del forged
        assert stored(server, table) == after
        # the REST view of a seat needs its secret
        r = server.api("GET", f"/api/tables/{table}/view", params={"seat": 0},
                       headers={"X-Seat-Secret": "nope"})
        assert r.status_code == 403
    finally:
        pa.close()
        pb.close()


def test_bad_frames_get_an_error_and_the_connection_stays_usable(server: Server) -> None:
    table, pa, pb = two_humans(server)
    try:
        before = stored(server, table)
        for bad in ("{not json", "[1, 2]", json.dumps({"no": "type"}),
                    json.dumps({"type": "fly"}), "x" * 100_000,
                    json.dumps({"type": "move", "move": 5, "version": pa.version}),
                    json.dumps({"type": "move", "move": "take O", "version": "one"})):
            pa.send(bad)
            frame = pa.expect("error", 120)
            assert frame["reason"]
        pa.send({"type": "ping"})
        assert pa.expect("pong", 120)["type"] == "pong"
        assert stored(server, table) == before
        mover = pa if pa.view["to_move"] == 0 else pb
        assert mover.move(mover.view["legal_moves"][0], "ok-1")["type"] == "ack"
    finally:
        pa.close()
        pb.close()


def test_lobby_lists_filters_and_refuses_bad_requests(server: Server) -> None:
    t = create(server, "reefs", {"level": 2}, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    waiting = server.api("GET", "/api/tables", params={"status": "waiting", "game": "reefs"}).json()
    assert t["id"] in [x["id"] for x in waiting]
    assert all(x["game"] == "reefs" and x["status"] == "waiting" for x in waiting)
    for body, word in (({"game": "chess", "seats": [{}]}, "unknown game"),
                       ({"game": "reefs", "variant": {"level": 9}, "seats": [{}, {}]}, "level"),
                       ({"game": "reefs", "seats": [{"kind": "bot", "bot": "nobot"}, {}]}, "bot"),
                       ({"game": "reefs", "seats": [{"kind": "bot"}, {}]}, "bot spec")):
        r = server.api("POST", "/api/tables", json=body)
        assert r.status_code in (409, 422), r.text
        assert word in r.text
    r = server.api("POST", f"/api/tables/{t['id']}/join", json={"name": "A", "seat": 1})
    assert r.status_code == 409 and "not open" in r.text
    assert server.api("GET", "/api/tables/nope").status_code == 404
    unlisted = create(server, "reefs", {}, [{"kind": "human"}, {"kind": "human"}], public=False)
    listed = server.api("GET", "/api/tables").json()
    assert unlisted["id"] not in [x["id"] for x in listed]
    assert server.api("GET", f"/api/tables/{unlisted['id']}").status_code == 200
