"""The Takenokolor page in Chromium: games of every sheet played to their end by clicking the lit
SVG elements (markers, then items), the final pad equal to the engine's; the drawing has an
element for every layout element; colour-blind mode adds letters; a phone-width page does not
overflow. ``MEEPLE_WHOLE_GAMES=1`` plays every sheet's game whole by clicks.

``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/takenokolor-*.png (run with
``uv run --with pillow`` so they are saved with a 256-colour palette, under 300 KB)."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web import driver
from tests.web.driver import (
    assert_pad_is_engines,
    create_from_lobby,
    fast_forward,
    layout_of,
    phase,
    play_by_clicks,
    turn_moves,
)

SHEETS = ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"]


def choices_and_lit(page: Any) -> tuple[list[str], list[str]]:
    """The choice buttons' moves and the lit SVG elements' moves, read in one script (so of
    one drawing of the page)."""
    legal, lit = page.evaluate("""() => [
        [...document.querySelectorAll('#choices button.choice')].map(e => e.dataset.move),
        [...document.querySelectorAll('#board svg .lit[data-move]')].map(e => e.dataset.move)]""")
    return sorted(map(str, legal)), sorted(map(str, lit))


def step_on_drawing(page: Any, rng: Rng, _made: dict[str, int]) -> bool:
    """One click of a turn on a lit SVG element; every legal move must be lit there."""
    legal, lit = choices_and_lit(page)
    # the choices and the drawing are redrawn one after the other when an update comes (a
    # read between the two saw the new choices on the old drawing once, under load): the
    # two must agree within a few seconds, not at every instant
    deadline = time.monotonic() + 5
    while legal and lit != legal and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        legal, lit = choices_and_lit(page)
    if not legal:
        return False
    # every Takenokolor choice has a target on the drawing: all of them are lit there
    assert lit == legal, (lit, legal)
    move = rng.choice(sorted(lit))
    target = page.locator(f'#board svg .lit[data-move="{move}"]')
    assert target.count() == 1
    target.click()
    return True


def click_svg(page: Any, rng: Rng, limit: int = 3000, stop_after: int | None = None) -> int:
    """Play this page's seat by clicking lit SVG elements until the game is over (or
    ``stop_after`` clicks, confirms included, at the start of a turn's step); returns the
    clicks made."""
    stop = None if stop_after is None else \
        (lambda made, now: made["clicks"] >= stop_after and now == "my-turn")
    return play_by_clicks(page, rng, step_on_drawing, stop=stop, limit=limit)["clicks"]


def assert_every_element_drawn(page: Any, layout: dict[str, Any]) -> None:
    ids = set(page.eval_on_selector_all("#board [id]", "els => els.map(e => e.id)"))
    wanted = [i["id"] for i in layout["items"]] + [a["id"] for a in layout["areas"]]
    wanted += [lb["id"] for lb in layout["ladybugs"]] + [r["id"] for r in layout["races"]]
    wanted += [m["id"] for m in layout["markers"]]
    missing = [w for w in wanted if w not in ids]
    assert not missing, missing
    # every score row of the sheet is in the drawn score area
    rows = page.eval_on_selector_all("#board svg.main .tk-row", "els => els.map(e => e.dataset.row)")
    assert rows == [r["row"] for r in layout["scoring"]]


#: the sheet played whole by clicking the drawing, from the lobby to the end (the dragon's)
WHOLE_SHEET = "4-pandas-dragon"


@pytest.mark.parametrize("sheet", SHEETS)
def test_a_game_to_its_end_by_clicking_the_drawing(page: Any, web: Server, sheet: str) -> None:
    """The dragon's sheet is played whole by clicking the drawing; the others from a late
    position that the seat reaches over the server's API (``driver.fast_forward``), finished by
    clicks: at every step every legal move is lit, and the final pad and the drawn total are
    the engine's. The long version, every sheet whole by clicks: ``MEEPLE_WHOLE_GAMES=1``."""
    table = create_from_lobby(page, web, "takenokolor", {"sheet": sheet}, 2)
    page.wait_for_selector("#board svg.tk-sheet.main")
    layout = layout_of(web, table)
    assert_every_element_drawn(page, layout)
    # the other seat's sheet is drawn too, smaller, with prefixed ids
    assert page.locator("#board details.other-sheet svg.tk-sheet").count() == 1
    first = layout["items"][0]["id"]
    assert page.locator(f'[id="s1-{first}"]').count() == 1
    if sheet != WHOLE_SHEET:
        fast_forward(page, web, table, Rng(SHEETS.index(sheet)))
        page.wait_for_selector("#board svg.tk-sheet.main")
    clicks = click_svg(page, Rng(SHEETS.index(sheet) + 7))
    assert clicks > 0
    assert phase(page) == "over"
    engine = assert_pad_is_engines(page, web, table)
    # the drawn score area shows the same total for the viewer
    drawn_total = page.text_content("#board svg.main .tk-total") or ""
    assert int(drawn_total) == engine[0].total
    # coloured items are drawn as coloured: as many as the board says
    board = web.api("GET", f"/api/tables/{table}/view").json()["view"]["board"]
    n = len(board["seats"][0]["coloured"])
    assert page.locator("#board svg.main .tk-item.coloured").count() == n > 0
    assert "Game over" in page.inner_text("#status")


def test_lit_markers_and_items_play_on_enter(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "takenokolor", {"sheet": "3-pandas"}, 2)
    while phase(page) != "my-turn":
        page.wait_for_timeout(50)
    page.wait_for_selector("#board svg .tk-marker.lit")
    marker = page.locator("#board svg .tk-marker.lit").first
    assert marker.get_attribute("role") == "button"
    assert marker.get_attribute("tabindex") == "0"
    move = marker.get_attribute("data-move")
    assert move and move.startswith("take ")
    marker.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.phase !== 'pending'")
    assert move in turn_moves(page)
    # the marker is now in hand, and items are lit to colour
    page.wait_for_function(
        "() => document.querySelectorAll('#board svg .tk-item.lit').length > 0"
        " || document.body.dataset.phase === 'complete'")


def test_colour_blind_mode_adds_letters(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "takenokolor", {"sheet": "4-pandas-river"}, 2)
    page.wait_for_selector("#board svg.tk-sheet.main")
    assert page.locator("#board .cb-letter").count() == 0
    page.check("#cb-toggle")
    page.wait_for_selector("#board .cb-letter")
    letters = page.eval_on_selector_all("#board svg.main .tk-item .cb-letter",
                                        "els => els.map(e => e.textContent)")
    layout = layout_of(web, page.url.rsplit("/", 1)[1])
    assert len(letters) >= len(layout["items"])
    assert set(letters) <= {"B", "Y", "P", "G", "*"}
    assert {"B", "Y", "P", "G"} <= set(letters)
    markers = page.eval_on_selector_all("#board svg.tk-roll .cb-letter",
                                        "els => els.map(e => e.textContent)")
    assert markers == ["B", "Y", "P", "G"]


def test_phone_width_does_not_overflow(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    page = ctx.new_page()
    try:
        create_from_lobby(page, web, "takenokolor", {"sheet": "4-pandas-dragon"}, 3)
        page.wait_for_selector("#board svg.tk-sheet.main")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, width
        box = page.locator("#board svg.tk-sheet.main").bounding_box()
        assert box is not None and box["width"] <= 375
        assert box["width"] > 300  # the sheet uses the width it has
    finally:
        ctx.close()


@pytest.mark.skipif(os.environ.get("MEEPLE_SCREENSHOTS") != "1",
                    reason="MEEPLE_SCREENSHOTS=1 unset")
def test_screenshots(browser: Any, web: Server) -> None:
    def shoot(name: str, sheet: str, clicks: int | None, width: int = 1280,
              cb: bool = False) -> None:
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        page = ctx.new_page()
        try:
            create_from_lobby(page, web, "takenokolor", {"sheet": sheet}, 3)
            if cb:
                page.check("#cb-toggle")
            page.wait_for_selector("#board svg.tk-sheet.main")
            if clicks != 0:
                click_svg(page, Rng(5), stop_after=clicks)
            while phase(page) not in ("my-turn", "over"):
                page.wait_for_timeout(50)
            page.wait_for_timeout(6500)  # let the announcements fade
            driver.shoot(page, "takenokolor", name)
        finally:
            ctx.close()

    shoot("start", "3-pandas", 0)
    shoot("mid", "4-pandas-dragon", 24)
    shoot("end", "4-pandas-river", None)
    shoot("phone", "2-pandas", 10, width=375)
    shoot("colourblind", "3-pandas", 14, cb=True)


def test_clicking_an_item_takes_its_marker_then_colours_it(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "takenokolor", {"sheet": "2-pandas"}, 2)
    while phase(page) != "my-turn":
        page.wait_for_timeout(50)
    page.wait_for_selector("#board svg .tk-marker.lit")
    via = page.locator("#board svg.main .tk-item.tk-via")
    assert via.count() > 0
    item = via.first.get_attribute("data-item")
    take = via.first.get_attribute("data-take")
    via.first.click()
    page.wait_for_function(  # the turn in notation (the page says it in words)
        "(want) => JSON.parse(document.getElementById('buffer').dataset.moves || '[]')"
        ".join(', ').includes(want)", arg=f"{take}, colour {item}", timeout=30_000)
    assert phase(page) == "complete"
    assert page.locator("#board svg.main .tk-item.coloured").count() == 1
