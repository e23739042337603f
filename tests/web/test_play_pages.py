"""Whole games played with the page's choice buttons in Chromium against bots, created from the
lobby; the final score pad read from the page equals the engine's scores. One variant per game
here (the buttons are the same for all); each game's page test plays every variant by clicking
its drawing (tests/web/test_<game>_page.py)."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import click_through, pad_from_page, phase

VARIANTS: list[tuple[str, dict[str, str], int]] = [
    ("gardens", {"level": "2"}, 2),
    ("reefs", {"level": "3"}, 2),
    ("takenokolor", {"sheet": "4-pandas-dragon"}, 2),
    ("pergola", {"challenge": "4"}, 1),
]


def create_from_lobby(page: Any, web: Server, game: str, options: dict[str, str],
                      players: int, bot: str = "random") -> str:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    for key, value in options.items():
        page.select_option(f"#opt-{key}", value)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#seat-{i}", f"bot:{bot}")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/t/**")
    return str(page.url.rsplit("/", 1)[1])


@pytest.mark.parametrize(("game", "options", "players"), VARIANTS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'std'}" for g, o, _ in VARIANTS])
def test_a_whole_game_by_clicks(page: Any, web: Server, game: str, options: dict[str, str],
                                players: int) -> None:
    table = create_from_lobby(page, web, game, options, players)
    clicks = click_through(page, Rng(hash(game) % 1000))
    assert clicks > 0
    assert phase(page) == "over"
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    engine = meeple.replay(rec).scores()
    shown = pad_from_page(page)
    assert [s["total"] for s in shown] == [s.total for s in engine]
    for seat, score in enumerate(engine):
        for row, value in score.breakdown.items():
            assert shown[seat][row] == value, (seat, row)
    assert "Game over" in page.inner_text("#status")
