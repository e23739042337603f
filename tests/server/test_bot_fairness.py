"""Fair bot scheduling (issue 58, probe finding 2): one client's bot-only tables of slow bots
must not keep another client's bot from answering a person.

The server believes 127.0.0.1 as a proxy, so each request names its client in
X-Forwarded-For: the flood comes from one address, the person from another. The flood's bots
think 5 CPU seconds a decision (no cap on bot-only tables here, MEEPLE_BOT_ONLY_SECONDS=0, so
the assertion is about the order the workers are given out, not about the cap; CPU seconds,
so that a loaded machine slows the flood as it slows the person's bot). Before the fix the bot
pool ran decisions first come, first served: the person's greedy bot waited behind the
flood's queued decisions, so several of them were played before its reply (9 in a run). Now
the flood's bot-only tables think in a pool of their own, one decision at a time, and the
person's bot takes a worker of the bot pool at once: at most one flood decision (the one
running) can end while it replies.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import Server, free_port

FLOOD = {"X-Forwarded-For": "10.58.0.1"}
PERSON = {"X-Forwarded-For": "10.58.0.2"}
SLOW = "mcts:iterations=20000;cpu=5"
FLOOD_TABLES = 4


@pytest.fixture(scope="module")
def fair(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_TRUSTED_PROXIES": "127.0.0.1", "MEEPLE_BOT_WORKERS": "2",
               "MEEPLE_BOT_ONLY_SECONDS": "0", "MEEPLE_BOT_DEADLINE": "300"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _create(server: Server, seats: list[dict[str, Any]], headers: dict[str, str]) -> str:
    r = server.api("POST", "/api/tables", headers=headers,
                   json={"game": "pergola", "variant": {}, "seats": seats})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _flood_moves(server: Server, tables: list[str]) -> int:
    """The bot decisions the flood's tables have played so far (moves in their logs)."""
    return sum(sum(1 for e in server.api("GET", f"/api/tables/{t}/log").json()
                   if e["kind"] == "move") for t in tables)


def _wait_for_flood(server: Server, tables: list[str], at_least: int) -> int:
    deadline = time.monotonic() + 300
    while (moves := _flood_moves(server, tables)) < at_least:
        assert time.monotonic() < deadline, "the flood's bots never moved"
        time.sleep(0.5)
    return moves


def _play_turn(p: Player, rng: Rng, turn: int) -> None:
    """Random legal decisions for ``p``'s seat until its turn is over (the bot's is next)."""
    for step in range(100):
        got = p.move(rng.choice(p.view["legal_moves"]), f"ann-{turn}-{step}")
        assert got["type"] == "ack", got
        while p.version < got["version"]:
            p.recv(120)
        if p.view.get("over") or p.view.get("to_move") != p.seat:
            return


def _persons_bot_replies(srv: Server, flood: list[str], most: int) -> None:
    """A person (another client) plays two turns against a greedy bot on ``srv``; while the
    bot replies, at most ``most`` of the flood's decisions may be played."""
    table = _create(srv, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], PERSON)
    joined = srv.api("POST", f"/api/tables/{table}/join", headers=PERSON,
                     json={"name": "Ann", "seat": 0}).json()
    ann = Player(srv.ws_base, table, 0, joined["secret"])
    rng = Rng(58)
    try:
        for turn in range(2):
            assert ann.wait_turn(300)
            before = _flood_moves(srv, flood)
            _play_turn(ann, rng, turn)
            # the greedy bot's whole turn, until Ann is to move again (or the game ended)
            assert ann.wait_turn(300) or ann.view.get("over")
            during = _flood_moves(srv, flood) - before
            assert during <= most, (f"{during} flood decisions were played before the bot "
                                    f"replied (at most {most})")
    finally:
        ann.close()


def test_a_persons_bot_answers_while_another_clients_bot_tables_think(
        fair: Server, tmp_path_factory: pytest.TempPathFactory) -> None:
    flood = [_create(fair, [{"kind": "bot", "bot": SLOW}] * 4, FLOOD)
             for _ in range(FLOOD_TABLES)]
    _wait_for_flood(fair, flood, 1)  # the workers are up and the flood under way
    # a restart: the resumed tables are shared out by their creator, read from the store
    fair.restart(kill=True)
    started = _wait_for_flood(fair, flood, _flood_moves(fair, flood) + 1)
    assert started >= 2
    # a flood decision takes 5 CPU s and one runs at a time: at most the running one ends while
    # the person's bot replies (first come, first served, the bot waited for three or more)
    _persons_bot_replies(fair, flood, 1)
    # the flood is not starved either: it goes on
    started = _wait_for_flood(fair, flood, _flood_moves(fair, flood) + 1)
    if not fair.db_url.startswith("postgresql"):
        return
    # a second server process on the same database resumes the flood's tables too (both
    # think for them; the first move the table's version takes is kept) and has the person:
    # at most the decision running in each process ends meanwhile
    second = Server(fair.db_url, free_port(), tmp_path_factory.mktemp("log2") / "server.log")
    second.env = dict(fair.env)
    second.start()
    try:
        _wait_for_flood(second, flood, started + 1)
        _persons_bot_replies(second, flood, 2)
    finally:
        second.stop()
