"""The game log on the table page: the lines already shown stay as they are (a long game's
log is not redrawn at every click), a step of the turn being built shows as not confirmed
yet, and undoing it takes it away again."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, play_turn, settle

LINES = "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"


def test_a_click_adds_its_unconfirmed_line_and_keeps_the_others(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    play_turn(page, Rng(3))
    page.wait_for_function("() => document.body.dataset.phase === 'my-turn'", timeout=120_000)
    before = page.evaluate(LINES)
    assert before and page.locator("#log li.pending").count() == 0
    # mark the shown lines: after the click they must be the same elements, not new ones
    page.evaluate("document.querySelectorAll('#log li').forEach(li => li.__kept = true)")
    button = page.locator("#choices button.choice").first
    move = str(button.get_attribute("data-move"))
    button.click()
    settle(page)
    after = page.evaluate(LINES)
    assert after[:len(before)] == before
    assert page.evaluate("[...document.querySelectorAll('#log li')]"
                         f".slice(0, {len(before)}).every(li => li.__kept)")
    pending = page.locator("#log li.pending")
    assert pending.count() == len(after) - len(before) >= 1
    assert pending.first.get_attribute("data-move") == move
    assert "not confirmed yet" in pending.first.inner_text()
    # taking the steps back takes their lines away, and leaves the others
    for _ in range(10):
        if not page.locator("#undo").is_visible():
            break
        page.click("#undo")
        settle(page)
    assert page.locator("#log li.pending").count() == 0
    assert page.evaluate(LINES) == before
