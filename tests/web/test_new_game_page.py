"""A game made by ``meeple new-game``, kept outside the source tree (a folder that
``MEEPLE_GAMES_PATH`` names) and nothing else changed, plays in the browser to its end by clicks
on its own drawing: the lobby offers it from the registry, the page finds its drawing through
the server's game list, its rules page is served from its package."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.core.rng import Rng
from tests.server.conftest import Server, free_port
from tests.web.driver import create_from_lobby, pad_from_page, phase, play_by_clicks

GAME = "pebbles"


@pytest.fixture(scope="module")
def kit_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on SQLite that finds the new game in a folder of its own."""
    games = tmp_path_factory.mktemp("games")
    res = CliRunner().invoke(app, ["new-game", GAME, "--into", str(games)])
    assert res.exit_code == 0, res.output
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'web.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.env["MEEPLE_GAMES_PATH"] = str(games)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def click_the_drawing(page: Any, rng: Rng, counts: dict[str, int]) -> bool:
    """A step of :func:`play_by_clicks`: a lit counter or the Stop button of the game's own
    drawing, at random (never the list of choices)."""
    lit = page.locator("#board [data-move]")
    n = lit.count()
    if n == 0:
        return False
    lit.nth(rng.choice(list(range(n)))).click()
    counts["drawing"] = counts.get("drawing", 0) + 1
    return True


def test_the_new_game_plays_to_its_end_by_clicks_on_its_drawing(page: Any, kit_web: Server) -> None:
    table = create_from_lobby(page, kit_web, GAME, {"pile": "8"}, players=2)
    page.wait_for_selector("#board svg.pebbles-pile circle")
    # the pile is drawn at its counters' size, not stretched to the board's width
    circles = page.locator("#board svg.pebbles-pile circle").count()
    width = page.locator("#board svg.pebbles-pile").bounding_box()["width"]
    assert width <= circles * 30 + 1, (width, circles)
    counts = play_by_clicks(page, Rng(7), click_the_drawing)
    assert phase(page) == "over"
    board = page.inner_text("#board")
    assert "Pile: empty" in board and "took the last counter." in board
    assert "null" not in board and "0 counters left" not in board
    assert counts["drawing"] >= 1 and counts["turns"] >= 1
    record = kit_web.api("GET", f"/api/tables/{table}/record").json()
    assert record["game"] == GAME and record["moves"][-1] == "take"
    # the pad on the page is the engine's (the server's record; this process has no such game)
    shown = pad_from_page(page)
    assert [s["total"] for s in shown] == [s["total"] for s in record["scores"]]
    for seat, score in enumerate(record["scores"]):
        assert {row: shown[seat][row] for row in score["breakdown"]} == score["breakdown"]


def test_the_page_finds_each_drawing_through_the_game_list(kit_web: Server) -> None:
    games = {g["name"]: g for g in kit_web.api("GET", "/api/games").json()}
    assert list(games) == ["gardens", "pergola", "reefs", "takenokolor", GAME]
    assert {name: g["drawing"] for name, g in games.items()} == {
        name: f"/games/{name}/drawing.js" for name in games}
    assert {name: g["own_sheet"] for name, g in games.items()} == {
        "gardens": True, "pergola": False, "reefs": True, "takenokolor": True, GAME: False}
    own = kit_web.api("GET", f"/games/{GAME}/drawing.js")
    assert own.status_code == 200 and own.headers["content-type"].startswith("text/javascript")
    assert "export function draw" in own.text
    site = kit_web.api("GET", "/games/gardens/drawing.js")
    assert site.status_code == 307 and site.headers["location"] == "/static/js/games/gardens.js"
    for bad in ("nope", "..%2F..%2Fetc", "GARDENS%00"):
        missing = kit_web.api("GET", f"/games/{bad}/drawing.js")
        assert missing.status_code == 404


def test_the_new_game_has_its_rules_page_and_takes_no_sheet_upload(page: Any,
                                                                   kit_web: Server) -> None:
    page.goto(f"{kit_web.base}/rules/{GAME}")
    page.wait_for_selector("h1")
    assert "How to play Pebbles" in page.inner_text("body")
    # the start position is drawn by the game's own drawing, with the players it takes (2)
    page.wait_for_selector("svg.pebbles-pile circle")
    assert "cannot be drawn" not in page.inner_text("body")
    refused = kit_web.api("GET", f"/api/sheets/{GAME}")
    assert refused.status_code == 422 and "takes no sheet of a player's own" in refused.text
