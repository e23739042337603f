"""kill -9 the server again and again while a person and bots play: nothing acknowledged is
lost, and the games finish.

Five kills of one table with a person and a bot (and a table of bots beside it), each after 1 to
8 acknowledged moves: every restart goes through the same recovery (the stored log read back,
the bot pool started anew), so more kills here repeat the proof without adding to it. The
benchmark-length version is ``benchmarks/soak_kill9.py``: 100 kills over 50 tables at a time
of every game and seat shape, clients that reconnect and resend, every acknowledged move checked
after every restart (its table in benchmarks/README.md)."""

from __future__ import annotations

import time

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import Server
from tests.server.test_play import create

#: kill -9 restarts (the soak benchmark makes 100)
KILLS = 5


def test_kill_9_mid_game_loses_no_acknowledged_move(server: Server) -> None:
    rng = Rng(11)
    human = create(server, "gardens", {"level": 2},
                   [{"kind": "human"}, {"kind": "bot", "bot": "random"}], join_as="Ann")
    table, seat, secret = human["table"]["id"], human["seat"], human["secret"]
    bots_only = create(server, "reefs", {"level": 1},
                       [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    acked: list[tuple[int, str]] = []  # (log number of the move, its text)
    made = 0
    for kill in range(KILLS + 1):
        p = Player(server.ws_base, table, seat, secret)
        try:
            for _ in range(rng.choice([1, 2, 3, 5, 8])):
                if not p.wait_turn(180):
                    break
                text = rng.choice(p.view["legal_moves"])
                version = p.version
                got = p.move(text, f"k{made}")
                made += 1
                assert got["type"] == "ack", got
                acked.append((version + 1, text))
        finally:
            p.close()
        log = server.api("GET", f"/api/tables/{table}/log").json()
        by_number = {e["number"]: e["text"] for e in log}
        assert all(by_number.get(n) == text for n, text in acked)
        if kill < KILLS:
            server.restart(kill=True)
            log = server.api("GET", f"/api/tables/{table}/log").json()
            by_number = {e["number"]: e["text"] for e in log}
            missing = [(n, t) for n, t in acked if by_number.get(n) != t]
            assert not missing, f"after kill {kill + 1}: lost {missing}"
    # finish the human game; the bots-only game finishes by itself
    p = Player(server.ws_base, table, seat, secret)
    try:
        while p.wait_turn(180):
            assert p.move(rng.choice(p.view["legal_moves"]), f"k{made}")["type"] == "ack"
            made += 1
        assert p.view["over"]
    finally:
        p.close()
    deadline = time.monotonic() + 300
    while server.api("GET", f"/api/tables/{bots_only['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots-only table did not finish"
        time.sleep(0.5)
