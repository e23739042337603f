"""Games played to their end with the page's choice buttons in Chromium against bots, created
from the lobby; the final score pad read from the page equals the engine's scores. One variant
per game here (the buttons are the same for all), each from about the seat's last turn, which
it reaches over the server's API (``driver.fast_forward``), then finished by clicks; each game's
page test plays one variant whole by clicking its drawing (tests/web/test_<game>_page.py).
``MEEPLE_WHOLE_GAMES=1`` plays these whole by the buttons too."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import (
    assert_pad_is_engines,
    click_through,
    create_from_lobby,
    fast_forward,
    phase,
)

__all__ = ["create_from_lobby"]  # here before it moved to tests/web/driver.py

VARIANTS: list[tuple[str, dict[str, str], int]] = [
    ("gardens", {"level": "2"}, 2),
    ("reefs", {"level": "3"}, 2),
    ("takenokolor", {"sheet": "4-pandas-dragon"}, 2),
    ("pergola", {"challenge": "4"}, 1),
]


@pytest.mark.parametrize(("game", "options", "players"), VARIANTS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'std'}" for g, o, _ in VARIANTS])
def test_a_game_to_its_end_by_clicks(page: Any, web: Server, game: str,
                                     options: dict[str, str], players: int) -> None:
    table = create_from_lobby(page, web, game, options, players)
    # from about the seat's last turn: the buttons are table.js's, the same for every game and
    # decision, and each game's page test finishes longer games by clicks (issue 36)
    fast_forward(page, web, table, Rng(len(game)), left=1)
    clicks = click_through(page, Rng(hash(game) % 1000))
    assert clicks > 0
    assert phase(page) == "over"
    assert_pad_is_engines(page, web, table)
    assert "Game over" in page.inner_text("#status")
