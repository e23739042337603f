"""A person who asks a hint every turn never meets the hint limits (issue 58), from outside on a
real server process with the shipped defaults (MEEPLE_RATE_HINT and the hint lane's, not the
tests' ``off``): whole two-seat Reefs games against a bot, one after another, each turn
"Hint", a moment to read it, then "Play this" and the turn confirmed, at a quick person's
pace. Every hint is answered 200. A flood is still refused
(tests/server/test_lanes.py, ``test_hints_are_rate_limited_per_client``).

The limits are the server process's, the same on either store: SQLite only."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from meeple.server.edge_settings import LaneSettings, QuotaSettings
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, TLS, Server, free_port

pytestmark = SQLITE_ONLY

#: The hint settings as shipped (the test servers' TEST_LIMITS lift them otherwise).
SHIPPED = {
    **{str(f.validation_alias): str(f.default) for f in LaneSettings.model_fields.values()
       if f.default is not None},
    QuotaSettings.variable("hint"): str(QuotaSettings.model_fields["hint"].default),
}

#: Seconds a quick person takes to read a hint before "Play this", and before confirming.
READ, CONFIRM = 0.4, 0.2


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'meeple.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(SHIPPED)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def play_with_hints(srv: Server, http: httpx.Client, hints: list[int]) -> None:
    """One whole game against a bot, "Hint" then "Play this" every turn; each hint's status
    appended to ``hints`` (a refusal fails the test there)."""
    r = srv.api("POST", "/api/tables", json={
        "game": "reefs", "variant": {"level": 3}, "join_as": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    assert r.status_code == 201, r.text
    table, secret = r.json()["table"]["id"], r.json()["secret"]
    p = Player(srv.ws_base, table, 0, secret)
    try:
        while p.wait_turn():
            got = http.get(f"/api/tables/{table}/hint", params={"seat": 0},
                           headers={"X-Seat-Secret": secret})
            hints.append(got.status_code)
            assert got.status_code == 200, (len(hints), got.status_code, got.text)
            assert got.json()["version"] == p.version
            time.sleep(READ)  # the person reads the hint, then "Play this"
            moves = got.json()["hint"]["best"]["moves"]
            time.sleep(CONFIRM)  # ... and confirms the turn
            for move in moves:
                answer = p.move(move, f"h{p.version}")
                assert answer["type"] == "ack", answer
        assert p.view["over"]
    finally:
        p.close()


def test_hint_and_play_this_every_turn_game_after_game_is_never_refused(shipped: Server
                                                                        ) -> None:
    """Whole games, one after another (as a rematch follows), until 45 hints were asked:
    more than the old default of 30 a minute let through at this pace."""
    hints: list[int] = []
    with httpx.Client(base_url=shipped.base, timeout=120, verify=TLS) as http:
        while len(hints) < 45:
            play_with_hints(shipped, http, hints)
    assert set(hints) == {200}
