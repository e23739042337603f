"""The rules pages in Chromium (issue 54): ``/rules/<game>`` shows how to play each game, in
our words, beside its sheet drawn by the game's own drawing module; the lobby links the chosen
game's page and every game's, every table page links its game's; an unknown game is the 404
page; a phone reads it without sideways scrolling. ``MEEPLE_SCREENSHOTS=1`` writes
docs/screenshots/rules-<game>.png and rules-pergola-375.png."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, phase
from tests.web.test_newcomer import shoot

GAMES = ["gardens", "reefs", "takenokolor", "pergola"]

#: what each game's drawing draws of a new game: an element the sheet cannot be without
DRAWN = {"gardens": ".gd-field", "reefs": "svg", "takenokolor": "svg.tk-sheet",
         "pergola": "svg.pg-shared"}


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_has_the_text_and_the_sheet_drawn(page: Any, web: Server, game: str) -> None:
    title = meeple.game_info(game).title
    r = page.goto(f"{web.base}/rules/{game}")
    assert r is not None and r.status == 200
    page.wait_for_function("() => document.body.dataset.drawn === '1'", timeout=60_000)
    assert page.inner_text("#rules-text h1") == f"How to play {title}"
    headings = page.eval_on_selector_all("#rules-text h2", "hs => hs.map(h => h.textContent)")
    assert "The end" in headings and "At meeple's table" in headings, headings
    assert page.locator(f"#rules-drawing {DRAWN[game]}").count() >= 1
    # a drawing to look at: nothing lit to click
    assert page.locator("#rules-drawing .lit").count() == 0
    assert page.title() == f"meeple: how to play {title}"
    shoot(page, f"rules-{game}", full_page=True)


def test_the_lobby_and_every_table_link_the_rules(page: Any, web: Server) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    for game in GAMES:
        page.select_option("#game", game)
        link = page.locator("#rules-link")
        assert link.get_attribute("href") == f"/rules/{game}"
        assert link.inner_text() == f"how to play {meeple.game_info(game).title}"
    assert page.get_attribute("#rules-all", "href") == "/rules"
    page.click("#rules-all")
    page.wait_for_url("**/rules")
    assert page.locator("#rules-games a").count() == len(GAMES)
    page.click("#rules-games a >> text=Takenokolor")
    page.wait_for_url("**/rules/takenokolor")
    # its "Play Takenokolor" opens the lobby with the game chosen
    page.click("#rules-play")
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_function("() => document.getElementById('game').value === 'takenokolor'")
    assert page.get_attribute("#rules-link", "href") == "/rules/takenokolor"
    # a table page: Rules in the header, its game's page, beside the table
    create_from_lobby(page, web, "reefs", {"level": "1"}, 2)
    phase(page)
    link = page.locator("header #rules-link")
    assert link.inner_text() == "Rules" and link.get_attribute("href") == "/rules/reefs"
    assert link.get_attribute("target") == "_blank"


def test_an_unknown_games_rules_are_the_404_page(page: Any, web: Server) -> None:
    r = page.goto(f"{web.base}/rules/chess")
    assert r is not None and r.status == 404
    assert "There are no rules for “chess”" in page.inner_text("h1")
    page.click(".back-to-lobby")
    page.wait_for_selector("#game option", state="attached")


def test_a_rules_page_reads_on_a_phone(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740})
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for game in GAMES:
            page.goto(f"{web.base}/rules/{game}")
            page.wait_for_function("() => document.body.dataset.drawn === '1'", timeout=60_000)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, f"{game}: the page is {width} px wide"
            # the text comes first, the sheet after it
            text_top = page.evaluate("document.getElementById('rules-text').getBoundingClientRect().top")
            sheet_top = page.evaluate("document.getElementById('rules-drawing').getBoundingClientRect().top")
            assert text_top < sheet_top
        shoot(page, "rules-pergola-375", full_page=False)
    finally:
        ctx.close()
    assert not errors, errors
