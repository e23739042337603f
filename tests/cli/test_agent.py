"""``meeple agent`` (issue 60) from outside: real ``meeple serve`` and ``meeple agent``
processes, a bot account made with a token as a program's owner makes it. The agent plays a
table to its end with a built-in bot, with a policy file of ``train_masked_policy.py``'s kind
and with a Python callable; with a random legal policy it plays one game of every game and
variant against a server bot without a refused move (the RL envs' numbering mapped back to the
server's moves); it reconnects and finishes after the server is killed and started again
mid-game; SIGTERM stops it with exit code 0; a bad spec, token or address is one line and exit
code 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from tests.server.conftest import Server, free_port
from tests.server.test_api_tokens import bearer
from tests.server.test_event_stream import EVENTS, bot_account

#: The longest a test waits for a game to end (seconds): each lasts a few.
GAME = 120


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'm.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    # Play now fills a lone waiter's table with bots after a second
    srv.env = {**EVENTS, "MEEPLE_PLAY_NOW_BOTS_AFTER": "1"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def bot_token(srv: Server, tmp_path: Path) -> tuple[str, Path]:
    """A new bot account's token, and a file holding it (as its owner would keep it)."""
    page, secret = bot_account(srv, ("play", "challenge", "tournament", "read"))
    page.close()
    path = tmp_path / f"token-{secret[-6:]}"
    path.write_text(secret + "\n")
    return secret, path


def agent(srv: Server | None, token_file: Path | None, *args: str, cwd: Path | None = None,
          env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "meeple", "agent"]
    if srv is not None:
        cmd += ["--server", srv.base]
    if token_file is not None:
        cmd += ["--token-file", str(token_file)]
    run_env = {k: v for k, v in os.environ.items() if k != "MEEPLE_TOKEN"}
    run_env["PYTHONPATH"] = os.pathsep.join([str(Path.cwd() / "src"), str(cwd or "")])
    return subprocess.Popen([*cmd, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd, env={**run_env, **(env or {})})


def finish(proc: subprocess.Popen[str], timeout: float = GAME) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"the agent did not end: {err[-3000:]}") from None
    return proc.returncode, err


def table_for(srv: Server, secret: str, game: str = "gardens",
              variant: dict[str, Any] | None = None, players: int = 2) -> str:
    """A running table the bot account holds seat 0 of, the others random bots."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    r = srv.api("POST", "/api/tables", headers=bearer(secret),
                json={"game": game, "variant": {"level": 1} if variant is None else variant,
                          "seats": seats,
                      "join_as": "robo"})
    assert r.status_code == 201, r.text
    table: str = r.json()["table"]["id"]
    return table


def over(srv: Server, table: str) -> dict[str, Any]:
    t: dict[str, Any] = srv.api("GET", f"/api/tables/{table}").json()
    assert t["status"] == "finished", t
    return t


def seat_moves(srv: Server, table: str, seat: int = 0) -> int:
    return sum(1 for e in srv.api("GET", f"/api/tables/{table}/log").json()
               if e["kind"] == "move" and e["seat"] == seat)


def test_a_bot_spec_plays_a_table_to_its_end(server: Server, tmp_path: Path) -> None:
    secret, token = bot_token(server, tmp_path)
    proc = agent(server, token, "--policy", "bot:greedy", "--games", "1")
    table = table_for(server, secret)
    code, err = finish(proc)
    assert code == 0, err
    assert over(server, table) and seat_moves(server, table) > 0
    assert "move refused" not in err and f"finished table {table}" in err


def test_play_now_seats_the_agent_and_it_plays(server: Server, tmp_path: Path) -> None:
    _, token = bot_token(server, tmp_path)
    proc = agent(server, token, "--policy", "bot:random", "--play-now", "gardens:2",
                 "--games", "1")
    code, err = finish(proc)
    assert code == 0, err
    assert "waiting in Play now for gardens (2 seats)" in err
    table = err.split("finished table ")[1].split()[0]
    finished = over(server, table)
    assert finished["rated"] and seat_moves(server, table, finished_seat(finished)) > 0


def finished_seat(table: dict[str, Any]) -> int:
    """The seat of the table a bot account held (the one not a bot difficulty)."""
    return next(s["index"] for s in table["seats"] if s["kind"] == "human")


def test_a_challenge_filter_takes_and_declines_with_a_reason() -> None:
    from meeple.agent.runner import ChallengeFilter

    wanted = ChallengeFilter.parse("game=gardens|reefs,pace=live,rated=any,seats=2")
    base = {"game": "gardens", "pace": "live", "rated": True, "seats": 2}
    assert wanted.refusal(base) is None
    assert wanted.refusal({**base, "game": "pergola"}) == "variant"
    assert wanted.refusal({**base, "pace": "turn-based"}) == "timeControl"
    assert wanted.refusal({**base, "seats": 3}) == "generic"
    assert ChallengeFilter.parse("rated=false").refusal(base) == "rated"
    assert ChallengeFilter.parse("any").refusal({**base, "game": "pergola"}) is None


def tiny_npz(path: Path) -> None:
    """A policy file as train_masked_policy.py writes one (W, b, scale, meta), untrained: its
    bias prefers the last action, so the file's arrays are what picks the moves."""
    import numpy as np

    from meeple.rl.spaces import encoding

    enc = encoding(meeple.new_game("gardens", players=2, level=1))
    b = np.linspace(0, 1, len(enc.actions), dtype=np.float32)
    np.savez_compressed(path, W=np.zeros((len(enc.actions), enc.size), np.float32), b=b,
                        scale=np.ones(enc.size, np.float32),
                        meta=json.dumps({"game": "gardens", "actions": list(enc.actions)}))


def test_a_policy_file_plays(server: Server, tmp_path: Path) -> None:
    secret, token = bot_token(server, tmp_path)
    tiny_npz(tmp_path / "policy.npz")
    proc = agent(server, token, "--policy", f"npz:{tmp_path / 'policy.npz'}", "--games", "1")
    table = table_for(server, secret)
    code, err = finish(proc)
    assert code == 0, err
    assert over(server, table) and seat_moves(server, table) > 0 and "move refused" not in err


#: A random legal policy, as a module of the user's own (``py:randomlegal:choose``); it
#: writes each call's info to check what the agent hands a callable.
RANDOM_LEGAL = '''
import json, os
import numpy as np

rng = np.random.default_rng(7)


def choose(observation, mask, info):
    assert observation["action_mask"] is mask and observation["observation"].dtype == np.int16
    assert sorted(info["legal_actions"]) == [int(i) for i in np.flatnonzero(mask)]
    with open(os.environ["SEEN_FILE"], "a") as out:
        out.write(json.dumps({"game": info["game"], "seat": info["seat"],
                              "legal": len(info["legal_actions"])}) + "\\n")
    return int(rng.choice(np.flatnonzero(mask)))
'''


def test_a_python_callable_plays_every_game_and_variant_without_a_refused_move(
        server: Server, tmp_path: Path) -> None:
    (tmp_path / "randomlegal.py").write_text(RANDOM_LEGAL)
    seen = tmp_path / "seen.jsonl"
    secret, token = bot_token(server, tmp_path)
    tables = []
    for info in meeple.games():
        for variant in info.variants:
            players = 2 if 2 in info.player_range(variant) else min(info.player_range(variant))
            tables.append(table_for(server, secret, info.name, dict(variant), players))
    proc = agent(server, token, "--policy", "py:randomlegal:choose", "--games",
                 str(len(tables)), cwd=tmp_path, env={"SEEN_FILE": str(seen)})
    code, err = finish(proc, timeout=600)
    assert code == 0, err
    assert "move refused" not in err and "not a legal action" not in err
    for table in tables:
        assert over(server, table) and seat_moves(server, table) > 0, table
    calls = [json.loads(line) for line in seen.read_text().splitlines()]
    assert {c["game"] for c in calls} == {i.name for i in meeple.games()}
    assert all(c["seat"] == 0 and c["legal"] >= 1 for c in calls)


def test_the_agent_reconnects_after_a_server_restart_and_finishes(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'r.db'}", free_port(), tmp_path / "server.log")
    srv.env = dict(EVENTS)
    srv.start()
    try:
        secret, token = bot_token(srv, tmp_path)
        # a slow opponent, so the game is surely under way when the server goes down
        r = srv.api("POST", "/api/tables", headers=bearer(secret),
                    json={"game": "gardens", "variant": {"level": 1}, "join_as": "robo",
                          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
        table = r.json()["table"]["id"]
        proc = agent(srv, token, "--policy", "bot:random", "--games", "1")
        deadline = time.monotonic() + GAME
        while seat_moves(srv, table) < 3:
            assert time.monotonic() < deadline and proc.poll() is None, "no moves came"
            time.sleep(0.1)
        srv.restart(kill=True)
        code, err = finish(proc)
        assert code == 0, err
        assert "connection lost" in err and over(srv, table)
    finally:
        srv.stop()


def test_sigterm_stops_the_agent_cleanly(server: Server, tmp_path: Path) -> None:
    secret, _ = bot_token(server, tmp_path)
    # a table waiting for a second person: the agent holds its seat and waits
    r = server.api("POST", "/api/tables", headers=bearer(secret),
                   json={"game": "gardens", "variant": {"level": 1}, "join_as": "robo",
                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    table = r.json()["table"]["id"]
    # the token from MEEPLE_TOKEN this time
    proc = agent(server, None, "--policy", "bot:random", env={"MEEPLE_TOKEN": secret})
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    for line in proc.stderr:
        if f"playing table {table}" in line:
            break
        assert time.monotonic() < deadline
    time.sleep(0.5)  # its socket is open (or opening)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc, timeout=20)
    assert code == 0, err
    assert "stopped after 0 finished game(s)" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--policy", "nonsense"], "is not a policy spec"),
    (["--policy", "bot:nosuchbot"], "unknown bot"),
    (["--policy", "npz:/nonexistent/policy.npz"], "no such file"),
    (["--policy", "py:no_such_module_here:choose"], "cannot import"),
    (["--policy", "bot:random", "--accept", "colour=red"], "not taken"),
    (["--policy", "bot:random", "--play-now", "nosuchgame:2"], "nosuchgame"),
    # Stable-Baselines3 is no dependency of meeple: the adapter says what to install
    (["--policy", f"sb3:{__file__}"], "pip install sb3-contrib"),
])
def test_a_bad_spec_is_one_line_and_exit_2(server: Server, tmp_path: Path, args: list[str],
                                           message: str) -> None:
    _, token = bot_token(server, tmp_path)
    code, err = finish(agent(server, token, *args), timeout=60)
    assert code == 2 and message in err and "Traceback" not in err, err


def test_a_bad_token_or_address_is_one_line_and_exit_2(server: Server, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.write_text("not a token")
    code, err = finish(agent(server, bad, "--policy", "bot:random"), timeout=60)
    assert code == 2 and "does not hold a meeple token" in err and "Traceback" not in err
    unknown = tmp_path / "unknown"
    unknown.write_text("mpl_" + "A" * 43)
    code, err = finish(agent(server, unknown, "--policy", "bot:random"), timeout=60)
    assert code == 2 and "refused the token" in err and "Traceback" not in err, err
    code, err = finish(agent(None, unknown, "--server", "ftp://x/y", "--policy", "bot:random"),
                       timeout=60)
    assert code == 2 and "is not a server address" in err and "Traceback" not in err, err
    code, err = finish(agent(None, None, "--server", "http://127.0.0.1:9", "--policy",
                             "bot:random"), timeout=60)
    assert code == 2 and "no token" in err and "Traceback" not in err, err
