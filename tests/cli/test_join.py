"""``meeple join``: the terminal as a client of a real server's per-seat view."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import meeple
from meeple.core.markup import strip_markup
from meeple.core.view import terminal_text
from tests.server.conftest import Server, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'm.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def join(url: str, stdin: str, seats: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEEPLE_SEATS_FILE": str(seats), "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "meeple", "join", url, *args], input=stdin,
                          capture_output=True, text=True, timeout=600, env=env, check=False)


def table(server: Server, game: str = "reefs", variant: dict[str, object] | None = None) -> str:
    r = server.api("POST", "/api/tables", json={
        "game": game, "variant": variant or {},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_whole_game_from_the_terminal_ends_with_the_engines_scores(server: Server,
                                                                       tmp_path: Path) -> None:
    t = table(server)
    out = join(f"{server.base}/t/{t}", "1\n" * 500, tmp_path / "seats.json", "--name", "Ann")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "you took seat 0 as Ann" in out.stdout
    assert "Your move" in out.stdout and "Game over." in out.stdout
    record = server.api("GET", f"/api/tables/{t}/record").json()
    final = meeple.replay(record)
    assert final.is_over
    totals = [s.total for s in final.scores()]
    assert f"Ann: {totals[0]}   Random bot: {totals[1]}" in out.stdout  # the server's bot name
    # every move of seat 0 was the first legal move of its position, as typed
    state = meeple.new_game("reefs", players=2, seed=record["seed"], sheet=record["sheet"],
                            **record["variant"])
    for text in record["moves"]:
        if state.to_move == 0:
            assert str(state.legal_moves()[0]) == str(state.parse_move(text)), text
        state.play(text)


def test_leaving_and_coming_back_takes_the_same_seat(server: Server, tmp_path: Path) -> None:
    t = table(server)
    seats = tmp_path / "seats.json"
    first = join(f"{server.base}/t/{t}", "1\nquit\n", seats, "--name", "Bo")
    assert first.returncode == 0, first.stderr[-2000:]
    assert "left the table; come back with: meeple join" in first.stdout
    version = server.api("GET", f"/api/tables/{t}").json()["version"]
    again = join(f"{server.base}/t/{t}", "nonsense move\n" + "1\n" * 500, seats)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "taking back seat 0" in again.stdout and "Game over." in again.stdout
    assert "refused:" in again.stdout  # the engine's reason for the nonsense, and play goes on
    info = server.api("GET", f"/api/tables/{t}").json()
    assert info["status"] == "finished" and info["version"] > version
    assert info["seats"][0]["name"] == "Bo"


def test_a_spectator_watches_a_finished_table_and_bad_links_are_refused(server: Server,
                                                                        tmp_path: Path) -> None:
    t = table(server)
    join(f"{server.base}/t/{t}", "1\n" * 500, tmp_path / "a.json")
    watched = join(f"{server.base}/t/{t}", "", tmp_path / "b.json", "--watch")
    assert watched.returncode == 0 and "Game over." in watched.stdout
    assert "Your move" not in watched.stdout
    # the screen is the one `meeple play` draws from a spectator's view of the same position
    final = meeple.replay(server.api("GET", f"/api/tables/{t}/record").json())
    printed = {line.rstrip() for line in watched.stdout.splitlines()}
    screen = [line.rstrip() for line in strip_markup(terminal_text(final, None, None)).splitlines()]
    assert len(screen) > 5 and all(line in printed for line in screen if line)
    bad = join("http://127.0.0.1:1/nowhere", "", tmp_path / "c.json")
    assert bad.returncode == 2 and "not a table link" in bad.stderr
    missing = join(f"{server.base}/t/nosuchtable", "", tmp_path / "c.json")
    assert missing.returncode == 2 and "404" in missing.stderr
    assert not (tmp_path / "c.json").exists()
