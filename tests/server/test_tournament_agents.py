"""Programs as players, from outside, on each store. A Swiss tournament of eight bot
accounts, each run by its own ``meeple agent`` process: the agents join it themselves
(``--tournament``), play every table the server pairs them at (found through their event
streams) and stop after their three games; the tournament ends with standings equal to a plain
recomputation from the games and byes stored in the database (as ``test_tournaments``
recomputes them). And an agent answers a person's challenges by its filter and plays the table
an accepted one made."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple.core.rng import Rng
from meeple.store import Store
from tests.cli.test_agent import agent, finish
from tests.server.conftest import Server
from tests.server.test_accounts import Browser
from tests.server.test_api_tokens import make_token, with_token
from tests.server.test_event_stream import bot_account
from tests.server.test_ratings import close, drive
from tests.server.test_tournaments import (
    TokenPlayer,
    check_standings,
    made,
    recomputed_swiss,
    soon,
    state,
    stored_games,
    swiss,
    wait_for,
)
from tests.server.test_tournaments import store as store  # the fixture

PLAYERS, ROUNDS = 8, 3


@pytest.fixture
def agents(server: Server, tmp_path: Path) -> Iterator[list[tuple[str, Path]]]:
    """Eight bot accounts made from outside: each token, and a file holding it as its owner
    would keep it."""
    made_ = []
    for _ in range(PLAYERS):
        page, secret = bot_account(server, ("play", "tournament", "read"))
        name = page.username
        page.close()
        path = tmp_path / f"{name}.token"
        path.write_text(secret + "\n")
        made_.append((secret, path))
    yield made_


def test_a_swiss_of_eight_agents_plays_to_its_end_with_standings_from_its_stored_games(
        server: Server, store: Store, agents: list[tuple[str, Path]]) -> None:
    maker = with_token(server, agents[0][0])
    # a start far enough ahead for eight agents to start up and join on a loaded machine
    tid = made(maker, swiss(name="Agents' Swiss", bots=True, rounds=ROUNDS, starts=soon(45)))
    maker.close()
    procs: list[subprocess.Popen[str]] = []
    try:
        for _, token in agents:
            procs.append(agent(server, token, "--policy", "bot:random", "--tournament", tid,
                               "--games", str(ROUNDS), "--quiet"))
        entered = wait_for(server, tid, lambda t: len(t["entries"]) == PLAYERS,
                           "eight agents joined", limit=40)
        assert entered["tournament"]["state"] == "open", "started before every agent joined"
        got = wait_for(server, tid, lambda t: t["tournament"]["state"] == "finished",
                       "the agents' Swiss finished", limit=420)
        for proc in procs:
            code, err = finish(proc, timeout=60)
            assert code == 0, err[-3000:]
            assert "move refused" not in err, err[-3000:]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert [len(r["pairings"]) for r in got["rounds"]] == [PLAYERS // 2] * ROUNDS
    # no repeat opponents: eight players, three rounds, twelve different pairs
    met = [frozenset(p["name"] for p in x["players"])
           for r in got["rounds"] for x in r["pairings"]]
    assert len(set(met)) == len(met) == 12, json.dumps(got["rounds"])[:2000]
    games, byes = stored_games(store, tid)
    assert len(games) == 12 and byes == []
    names = [e["name"] for e in got["entries"]]
    check_standings(state(server, tid), recomputed_swiss(names, games, byes))


def test_an_agent_takes_the_challenges_its_filter_allows_and_declines_the_others(
        server: Server, tmp_path: Path) -> None:
    """A person challenges a bot account run by ``meeple agent --accept game=takenokolor``: a
    Pergola challenge is declined with the reason ``variant``; a Takenokolor one is accepted,
    and the person and the agent play the table it made to its end."""
    page, secret = bot_account(server, ("play", "challenge", "read"))
    robot = page.username
    page.close()
    token = tmp_path / "robot.token"
    token.write_text(secret + "\n")
    person = Challenger(server)
    proc = agent(server, token, "--policy", "bot:random", "--accept", "game=takenokolor",
                 "--games", "1")
    try:
        no = person.challenge(robot, "pergola")
        wait = wait_until(lambda: person.challenge_state(no), "declined")
        assert wait["reason"] == "variant", wait
        yes = person.challenge(robot, "takenokolor")
        taken = wait_until(lambda: person.challenge_state(yes), "accepted")
        table = taken["table"]
        seats = {s["index"]: s for s in server.api("GET", f"/api/tables/{table}").json()["seats"]}
        mine = next(i for i, s in seats.items() if s.get("name") == person.name)
        player = {mine: TokenPlayer(server.ws_base, table, mine, person.token)}
        try:
            assert drive(player, Rng(7)) == "over"
        finally:
            close(player)
        code, err = finish(proc)
        assert code == 0 and f"finished table {table}" in err, err[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        person.close()


class Challenger:
    """A person with a token that may play and challenge."""

    def __init__(self, srv: Server) -> None:
        b = Browser(srv)
        b.sign_up()
        self.browser, self.name = b, b.username
        self.token, _ = make_token(b, ["play", "challenge"])
        self.api = with_token(srv, self.token)

    def challenge(self, to: str, game: str) -> str:
        r = self.api.post("/api/challenges", json={
            "to": to, "game": game, "variant": {}, "seats": 2, "pace": "live", "clock": 60,
            "rated": False})
        assert r.status_code == 201, r.text
        return str(r.json()["challenge"]["id"])

    def challenge_state(self, cid: str) -> dict[str, Any]:
        r = self.api.get(f"/api/challenges/{cid}")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()["challenge"]
        return out

    def close(self) -> None:
        self.api.close()
        self.browser.close()


def wait_until(read: Any, wanted: str, limit: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        got: dict[str, Any] = read()
        if got["state"] == wanted:
            return got
        assert got["state"] == "open" and time.monotonic() < deadline, got
        time.sleep(0.3)
