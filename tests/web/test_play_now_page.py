"""Play now in the lobby (issue 53): two browsers signed in to two accounts press Play now for
the same game and meet at one table, each playing their seat by session; a guest is asked to
sign in. Chromium against a real server (tests/web/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.web.test_accounts_pages import fresh_name, other, sign_up

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
__all__ = ["other"]  # the fixture, used by name


def _press(page: Any, web: Server, variant_label: str = "level 1") -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#pn-form", state="visible")
    page.select_option("#pn-game", "gardens")
    page.select_option("#pn-variant", label=variant_label)
    page.select_option("#pn-players", "2")
    page.click("#pn-go")
    page.wait_for_selector("#pn-wait", state="visible")


def test_two_people_pressing_play_now_meet_at_one_table(page: Any, other: Any,
                                                        web: Server) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#pn-guest", state="visible")  # a guest: sign in first
    sign_up(page, web, fresh_name(), display="Ann")
    sign_up(other, web, fresh_name(), display="Bea")
    page.goto(web.base + "/")
    page.wait_for_selector("#pn-form", state="visible")
    page.select_option("#pn-game", "gardens")
    label = page.eval_on_selector("#pn-variant", "s => s.options[0].textContent")
    _press(page, web, label)
    assert "Looking for 1 player of your level" in page.text_content("#pn-status")
    page.screenshot(path=str(SHOTS / "lobby-play-now.png"))
    _press(other, web, label)
    for p in (page, other):
        p.wait_for_url("**/t/**", timeout=30_000)
    assert page.url.split("/t/")[1] == other.url.split("/t/")[1]
    # each plays their seat (no secret in their storage: the session)
    for p in (page, other):
        p.wait_for_function("() => ['my-turn', 'complete', 'waiting']"
                            ".includes(document.body.dataset.phase)", timeout=60_000)
