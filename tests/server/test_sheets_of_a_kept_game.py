"""A game kept outside the source tree (made by ``meeple new-game`` in a folder that
``MEEPLE_GAMES_PATH`` names) ships sheets of its own: the server finds them through the
registry (never under ``meeple/games``), a table starts on one by name, and a game or sheet
name a client sends is checked against what the registry has before anything is opened: an
unknown or path-like one is refused with a 4xx naming what is allowed, and creates nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.games.kept_game import make_kept_game
from tests.server.conftest import Server, free_port

GAME = "pebbles"
BOTS = [{"kind": "bot", "bot": "random"}] * 2


@pytest.fixture(scope="module")
def kept(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """A server (SQLite and PostgreSQL) that finds pebbles, with its sheets, in a folder of
    its own; and that folder."""
    games = tmp_path_factory.mktemp("games")
    make_kept_game(games, GAME, sheets=True)
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env["MEEPLE_GAMES_PATH"] = str(games)
    srv.start()
    try:
        yield srv, games
    finally:
        srv.stop()


def tables(server: Server) -> set[str]:
    return {t["id"] for status in ("waiting", "running", "finished")
            for t in server.api("GET", f"/api/tables?status={status}").json()}


def create(server: Server, game: str, variant: dict[str, Any]) -> Any:
    return server.api("POST", "/api/tables", json={"game": game, "variant": variant,
                                                   "seats": BOTS})


def test_a_table_starts_on_a_sheet_the_kept_game_ships(kept: tuple[Server, Path]) -> None:
    server, _ = kept
    r = create(server, GAME, {"pile": 8, "sheet": "tall"})
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["game"] == GAME and table["variant"] == {"pile": 8, "sheet": "tall"}
    while server.api("GET", f"/api/tables/{table['id']}").json()["status"] != "finished":
        time.sleep(0.1)  # two bots play it out
    record = server.api("GET", f"/api/tables/{table['id']}/record").json()
    # the game was built on the sheet's file: its pile is the sheet's 12, plus the die roll,
    # and every counter was taken
    roll = int(record["moves"][0].removeprefix("d"))
    assert record["moves"].count("take") == 12 + roll


@pytest.mark.parametrize("sheet", ["nope", "tall.toml", "../pebbles/sheets/tall",
                                   "sheets/tall", "/etc/passwd", ""])
def test_a_sheet_the_game_does_not_ship_is_refused_naming_its_sheets(
        kept: tuple[Server, Path], sheet: str) -> None:
    server, _ = kept
    before = tables(server)
    r = create(server, GAME, {"pile": 8, "sheet": sheet})
    assert r.status_code == 422, r.text
    assert "choose from short, tall" in r.json()["detail"]
    assert tables(server) == before


@pytest.mark.parametrize("game", ["nope", "../pebbles", "pebbles/..", "PEBBLES",
                                  "meeple.games.pebbles"])
def test_an_unknown_or_path_like_game_is_refused_naming_the_games(kept: tuple[Server, Path],
                                                                  game: str) -> None:
    server, _ = kept
    before = tables(server)
    r = create(server, game, {"sheet": "tall"})
    assert 400 <= r.status_code < 500, r.text
    assert "gardens, pergola, reefs, takenokolor, pebbles" in r.text
    assert tables(server) == before


def test_the_sheets_routes_take_a_game_from_the_registry_only(kept: tuple[Server, Path]) -> None:
    """``/api/sheets/<game>/<name>`` serves a shipped file: a game named by a path (to the kept
    game's folder, whose sheets/tall.toml exists) is refused, not read; a name with a slash
    matches no route at all."""
    server, games = kept
    for game in ("nope", "pebbles%00", "~pebbles", "pebbles.toml", "meeple.games.pebbles"):
        r = server.api("GET", f"/api/sheets/{game}/tall")
        assert r.status_code == 404, (game, r.text)
        assert "own sheets can be uploaded for: gardens, reefs, takenokolor" in r.text
    for game in ("..%2Fpebbles", str(games / GAME).replace("/", "%2F")):
        r = server.api("GET", f"/api/sheets/{game}/sheets%2Ftall")
        assert r.status_code == 404 and "pile = 12" not in r.text, (game, r.text)
    r = server.api("GET", f"/api/sheets/{GAME}/tall")  # a game with no sheets of one's own
    assert r.status_code == 422 and "takes no sheet of a player's own" in r.text
    assert "pile = 12" not in r.text
