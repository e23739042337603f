"""The turn clock on a real server process (issue 39 #1, src/meeple/server/table/README.md *Turn
clock*): when a connected person's time runs out, the stand-in bot plays one decision at a time (one each time
the clock runs out again), never the rest of their game; ``back`` takes the seat back; with
nobody connected for the seat it plays on at a bot's pace; ``clock`` frames say whose clock
runs, how long it has left and what the stand-in played. Refusals name people, not 0-based
seat numbers."""

from __future__ import annotations

import itertools
import time
from typing import Any

from meeple.server.table.protocol import SERVER_FRAMES, ClockFrame
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create, join

CLOCK = 5  # the shortest clock a table may have

#: The clock and its stand-in are the service's, the same on either store (the store's part,
#: the seat's ``absent``, is tried on PostgreSQL by test_views and test_faults): SQLite only.
pytestmark = SQLITE_ONLY


def clocks(p: Player) -> list[dict[str, Any]]:
    return [f for f in p.frames if f["type"] == "clock"]


def seats(server: Server, table: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = server.api("GET", f"/api/tables/{table}").json()["seats"]
    return out


def test_a_connected_person_out_of_time_loses_one_decision_at_a_time(server: Server) -> None:
    # Takenokolor: a turn of two decisions (a marker, an item), so the stand-in ends it in
    # two clocks (a Reefs turn took it five or more)
    joined = create(server, "takenokolor", {"sheet": "2-pandas"},
                    [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    join_as="Ann", clock=CLOCK)
    table = joined["table"]["id"]
    ann = Player(server.ws_base, table, 0, joined["secret"], clock=True)
    try:
        first = ann.expect("clock", 60)
        assert isinstance(SERVER_FRAMES.validate_python(first), ClockFrame)
        assert first["limit"] == CLOCK and first["stood_in"] == [False, False]
        # Ann does nothing: her clock runs out, and runs out again
        seen: list[tuple[float, int]] = []  # (when, version) of each stand-in decision
        deadline = time.monotonic() + 240
        while len(seen) < 2:
            assert time.monotonic() < deadline, f"the stand-in played {len(seen)} decisions"
            frame = ann.recv(120)
            if frame["type"] == "clock" and frame.get("ran_out"):
                (out,) = frame["ran_out"]
                assert out["seat"] == 0 and frame["stood_in"][0]
                if not seen or out["version"] != seen[-1][1]:
                    seen.append((time.monotonic(), out["version"]))
                    assert len(out["moves"]) == len(seen)  # one more decision each time
        # the stand-in's decisions end her turns: the bot seat plays on after them
        while not any(e["kind"] == "move" and e["seat"] == 1 and e["number"] > seen[0][1]
                      for e in server.api("GET", f"/api/tables/{table}/log").json()):
            assert time.monotonic() < deadline, "the bot seat did not play after the stand-in"
            frame = ann.recv(120)
            if frame["type"] == "clock" and frame.get("ran_out"):
                out = frame["ran_out"][0]
                if out["version"] != seen[-1][1]:
                    seen.append((time.monotonic(), out["version"]))
        # one decision each time the clock runs out: never two within a clock (the clock
        # starts again at each new position, so each gap is a whole clock at least)
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(seen)]
        assert all(g > CLOCK - 1.5 for g in gaps), gaps
        log = server.api("GET", f"/api/tables/{table}/log").json()
        assert server.api("GET", f"/api/tables/{table}").json()["status"] != "finished"
        assert seats(server, table)[0]["absent"]
        # her next click (the browser sends back): the seat is hers, nothing more is played
        ann.send({"type": "back"})
        deadline = time.monotonic() + 30
        while True:
            frame = ann.recv(60)
            if frame["type"] == "clock" and not frame["stood_in"][0]:
                break
            assert time.monotonic() < deadline
        assert "ran_out" not in frame
        assert not seats(server, table)[0]["absent"]
        assert len(server.api("GET", f"/api/tables/{table}/log").json()) >= len(log)
        # a preview on her turn starts her clock again, and keeps the seat hers
        assert ann.wait_turn(120)
        ann.send({"type": "preview", "moves": []})
        before = len(ann.frames)
        ann.expect("preview", 60)
        frame = [f for f in ann.frames[before:] if f["type"] == "clock"][-1]
        assert frame["seat"] == 0 and frame["left"] > CLOCK - 2
        assert not seats(server, table)[0]["absent"]
    finally:
        ann.close()


def test_nobody_connected_the_stand_in_plays_on_until_the_person_comes_back(
        server: Server) -> None:
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}],
               clock=CLOCK)["id"]
    a = join(server, t, "Ann")
    b = join(server, t, "Bob")  # Bob never connects
    ann = Player(server.ws_base, t, 0, a["secret"], clock=True)
    try:
        # Bob's clock runs out once: his stand-in plays on at a bot's pace, no clock runs
        # for him, and Ann sees his seat stood in
        deadline = time.monotonic() + 240
        bob_moves = 0
        while bob_moves < 3:
            assert time.monotonic() < deadline, "Bob's stand-in did not play on"
            if ann.wait_turn(120):
                ann.move(ann.view["legal_moves"][0])
            log = server.api("GET", f"/api/tables/{t}/log").json()
            bob_moves = sum(1 for e in log if e["kind"] == "move" and e["seat"] == 1)
        assert seats(server, t)[1]["absent"]
        stood = [f for f in clocks(ann) if f["stood_in"][1]]
        assert stood and all(f["seat"] != 1 for f in stood)
        assert all("ran_out" not in f for f in stood)  # nobody there to tell
        # Bob comes back: his stand-in slows to one decision per clock; back ends it
        bob = Player(server.ws_base, t, 1, b["secret"], clock=True)
        try:
            bob.expect("clock", 60)
            bob.send({"type": "back"})
            deadline = time.monotonic() + 30
            while seats(server, t)[1]["absent"]:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        finally:
            bob.close()
    finally:
        ann.close()


def test_refusals_name_the_person_to_move_not_a_seat_number(server: Server) -> None:
    t = create(server, "reefs", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])["id"]
    a = join(server, t, "Ann")
    b = join(server, t, "Bob")
    ann = Player(server.ws_base, t, 0, a["secret"])
    bob = Player(server.ws_base, t, 1, b["secret"])
    try:
        waiting, mover = (bob, "Ann") if ann.view["to_move"] == 0 else (ann, "Bob")
        waiting.send({"type": "preview", "moves": []})
        reason = waiting.expect("refused", 60)["reason"]
        assert reason == f"it is not your turn: {mover} is to move"
        got = waiting.move(waiting.view["legal_moves"][0] if waiting.view["legal_moves"]
                           else "take 1", "x1")
        assert got["type"] == "refused" and "seat 0" not in got["reason"]
        assert "seat 1" not in got["reason"], got
    finally:
        ann.close()
        bob.close()
