"""Bots at live tables: they think in worker processes, so a person's moves on another table
are answered while many bots think; a bot past its deadline is replaced by a random move."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server, free_port
from tests.server.test_play import create, join

#: The bot pool's pace is the same on either store (test_group_commit loads PostgreSQL): SQLite only.
pytestmark = SQLITE_ONLY

THINKERS = 20


def test_moves_are_answered_while_twenty_bot_tables_think(server: Server) -> None:
    """Twenty tables of searching bots keep the bot workers busy; two people at another table
    still get every move answered (the bots think in worker processes, not in the event loop;
    the benchmark measures how fast)."""
    busy = [create(server, "gardens", {"level": 1},
                   [{"kind": "bot", "bot": "mcts:iterations=60"}] * 2)["id"]
            for _ in range(THINKERS)]
    t = create(server, "reefs", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    a, b = join(server, t["id"], "Ann"), join(server, t["id"], "Bob")
    players = [Player(server.ws_base, t["id"], j["seat"], j["secret"]) for j in (a, b)]
    rng = Rng(3)
    try:
        for i in range(12):
            mover = next(p for p in players if p.view["to_move"] == p.seat)
            assert mover.wait_turn(180)
            assert mover.move(rng.choice(mover.view["legal_moves"]), f"live-{i}")["type"] == "ack"
            for p in players:
                while p.version < mover.version:
                    p.expect("view", 120)
    finally:
        for p in players:
            p.close()
    # the bot tables were really under way meanwhile
    versions = [server.api("GET", f"/api/tables/{b_}").json()["version"] for b_ in busy]
    assert sum(1 for v in versions if v > 0) == THINKERS


@pytest.fixture
def impatient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'm.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_BOT_DEADLINE": "0.5"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_bot_past_its_deadline_is_replaced_and_the_game_goes_on(impatient: Server) -> None:
    t = create(impatient, "gardens", {"level": 1},
               [{"kind": "bot", "bot": "mcts:iterations=20000"},
                {"kind": "bot", "bot": "random"}])["id"]
    deadline = time.monotonic() + 300
    version = 0
    while "missed its" not in impatient.log.read_text():  # the overrunning bot is cut short
        assert time.monotonic() < deadline, "the bot never missed its deadline"
        time.sleep(0.3)
    missed_at = impatient.api("GET", f"/api/tables/{t}").json()["version"]
    # a move was played for it, and the table goes on (three more versions after the miss)
    while version < missed_at + 3:
        assert time.monotonic() < deadline, "the overrunning bot stalled its table"
        version = impatient.api("GET", f"/api/tables/{t}").json()["version"]
        time.sleep(0.3)
