"""A Swiss tournament of eight bot accounts, each run by its own ``meeple agent`` process,
against a real server on each store: the agents join it themselves (``--tournament``), play
every table the server pairs them at (found through their event streams) and stop after their
three games; the tournament ends with standings equal to a plain recomputation from the games
and byes stored in the database (as ``test_tournaments`` recomputes them)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from meeple.store import Store
from tests.cli.test_agent import agent, finish
from tests.server.conftest import Server
from tests.server.test_api_tokens import with_token
from tests.server.test_event_stream import bot_account
from tests.server.test_tournaments import (
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
