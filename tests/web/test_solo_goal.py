"""Issue 39 #6 on the table page: a Pergola solo challenge is named, with its goal and the
progress towards it, under the status line from the first turn on (not only at the end)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Server
from tests.web.driver import SHOTS, create_from_lobby, phase


def test_a_solo_challenge_shows_its_goal_and_progress_from_the_first_turn(page: Any,
                                                                          web: Server) -> None:
    create_from_lobby(page, web, "pergola", {"challenge": "9"}, 1)
    assert phase(page) == "my-turn"
    goal = page.locator("#goal")
    assert goal.is_visible()
    text = goal.inner_text()
    assert "Challenge 9: At least 4 dragonflies" in text
    assert "Goal: at least 4 dragonflies of any size" in text
    assert "So far: 0 of 4 dragonflies (not met yet)" in text
    assert "Challenge 9: At least 4 dragonflies" in page.locator("#title").inner_text()
    # it sits right under the status line, in view at the top of the page
    box = goal.bounding_box()
    status = page.locator("#status").bounding_box()
    assert box is not None and status is not None and 0 <= box["y"] - status["y"] < 120
    page.screenshot(path=str(SHOTS / "pergola-solo-goal.png"))


def test_a_table_without_a_challenge_shows_no_goal_line(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    phase(page)
    assert not page.locator("#goal").is_visible()
