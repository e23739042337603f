"""Whole games played with the page's choice buttons in Chromium against bots, created from the
lobby; the final score pad read from the page equals the engine's scores. One variant per game
here (the buttons are the same for all); each game's page test plays every variant by clicking
its drawing (tests/web/test_<game>_page.py)."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import assert_pad_is_engines, click_through, create_from_lobby, phase

__all__ = ["create_from_lobby"]  # here before it moved to tests/web/driver.py

VARIANTS: list[tuple[str, dict[str, str], int]] = [
    ("gardens", {"level": "2"}, 2),
    ("reefs", {"level": "3"}, 2),
    ("takenokolor", {"sheet": "4-pandas-dragon"}, 2),
    ("pergola", {"challenge": "4"}, 1),
]


@pytest.mark.parametrize(("game", "options", "players"), VARIANTS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'std'}" for g, o, _ in VARIANTS])
def test_a_whole_game_by_clicks(page: Any, web: Server, game: str, options: dict[str, str],
                                players: int) -> None:
    table = create_from_lobby(page, web, game, options, players)
    clicks = click_through(page, Rng(hash(game) % 1000))
    assert clicks > 0
    assert phase(page) == "over"
    assert_pad_is_engines(page, web, table)
    assert "Game over" in page.inner_text("#status")
