"""The Reefs table page in Chromium: games of every level played to their end against a random
bot by clicking the lit parts of the drawing (pencils, propeller buttons, entry points, next
spaces; the buttons only for stop and forfeit), the final pad equal to the engine's; every
layout element drawn; colour-blind letters; a 375 px page without sideways scrolling.
``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/reefs-*.png; ``MEEPLE_WHOLE_GAMES=1``
plays every level's game whole by clicks."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.games.reefs.boards import view_board
from tests.server.conftest import Server
from tests.web import driver
from tests.web.driver import (
    after_turns,
    assert_pad_is_engines,
    create_from_lobby,
    fast_forward,
    layout_of,
    phase,
    play_by_clicks,
)

BUTTON_ONLY = {"stop", "forfeit"}


def shoot(page: Any, name: str) -> None:
    driver.shoot(page, "reefs", name)


def step_on_drawing(page: Any, rng: Rng, made: dict[str, int]) -> bool:
    """One click of a turn on the lit SVG elements, the buttons only for the choices without
    a target, checking that every choice with a target is lit on the drawing and nothing else
    is."""
    legal = page.evaluate("[...document.querySelectorAll('#choices button.choice')]"
                          ".map(b => b.dataset.move)")
    if not legal:
        return False
    lit = page.locator("#board .lit[data-move]")
    # one round trip for every lit element's move (not one per element)
    moves = lit.evaluate_all("els => els.map(e => e.dataset.move)")
    assert sorted(moves) == sorted(m for m in legal if m not in BUTTON_ONLY), (moves, legal)
    if moves:
        lit.nth(rng.choice(list(range(len(moves))))).click()
        made["svg"] = made.get("svg", 0) + 1
    else:
        page.locator("#choices button.choice").nth(rng.choice(list(range(len(legal))))).click()
        made["button"] = made.get("button", 0) + 1
    return True


def click_svg_through(page: Any, rng: Rng, *, stop_after: int | None = None,
                      limit: int = 4000) -> dict[str, int]:
    """Play this page's seat by clicking lit SVG elements (until ``stop_after`` turns, or the
    end). Returns the clicks made on the drawing and on buttons, and the turns."""
    made = play_by_clicks(page, rng, step_on_drawing, limit=limit,
                          stop=None if stop_after is None else after_turns(stop_after))
    return {"svg": made.get("svg", 0), "button": made.get("button", 0), "turns": made["turns"]}


def layout_ids(layout: dict[str, Any]) -> list[str]:
    ids = [s["id"] for s in layout["spaces"]] + [c["id"] for c in layout["connections"]]
    ids += [p["id"] for p in layout["pencils"]]
    for row in layout["treasure_rows"]:
        ids += [row["id"]] + [b["id"] for b in row["boxes"]]
    ids += [layout["coin_row"]["id"]] + [b["id"] for b in layout["coin_row"]["boxes"]]
    if layout["propeller_row"]:
        ids += [layout["propeller_row"]["id"], *layout["propeller_row"]["boxes"]]
    ids += [s["id"] for s in layout["stars"]]
    return ids


#: the level played whole by clicking the drawing, from the lobby to the end
WHOLE_LEVEL = 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_game_to_its_end_by_clicking_the_drawing(page: Any, web: Server, level: int) -> None:
    """Level 1 is played whole by clicking the drawing. Level 3 plays three turns by clicks,
    level 2 none, then each goes on from a late position that the seat reaches over the
    server's API (``driver.fast_forward``) and is finished by clicks: at every step every
    choice with a target is lit and nothing else is, and the final pad and routes are the
    engine's. The long version, every level whole by clicks: ``MEEPLE_WHOLE_GAMES=1``."""
    table = create_from_lobby(page, web, "reefs", {"level": str(level)}, 2)
    phase(page)
    layout = layout_of(web, table)
    missing = page.evaluate("ids => ids.filter(i => !document.getElementById(i))",
                            layout_ids(layout))
    assert missing == []
    # the other seat's sheet is drawn too, without clashing ids
    other = page.locator("details.other-sheet .rf-space")
    assert other.count() == len(layout["spaces"])
    assert page.locator(".rf-sheet.main .rf-conn").count() == len(layout["connections"])
    if level == 1:
        shoot(page, "start")
    made = {"svg": 0, "button": 0, "turns": 0}
    if level == 3:
        made = click_svg_through(page, Rng(23), stop_after=3)
        page.evaluate("document.querySelectorAll('details.other-sheet')"
                      ".forEach(d => d.open = true)")
        shoot(page, "mid")
    if level != WHOLE_LEVEL:
        fast_forward(page, web, table, Rng(level))
    more = click_svg_through(page, Rng(20 + level))
    made = {k: made[k] + more[k] for k in made}
    assert made["svg"] > 0
    assert phase(page) == "over"
    assert_pad_is_engines(page, web, table)
    assert "Game over" in page.inner_text("#status")
    # every seat's routes are drawn: one line per started route, in sheet and seat order
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    board = view_board(meeple.replay(rec), 0)
    for sb in board["seats"]:
        started = sum(1 for r in sb["routes"] if r["spaces"])
        drawn = page.locator(f".rf-sheet[data-seat='{sb['seat']}'] .rf-route").count()
        assert drawn == started, (sb["seat"], drawn, started)
    if level == 2:
        shoot(page, "end")


def test_colour_blind_letters_and_a_narrow_page(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        create_from_lobby(page, web, "reefs", {"level": "3"}, 2)
        phase(page)
        click_svg_through(page, Rng(5), stop_after=2)
        assert page.locator("#board .rf-cb").count() == 0
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        shoot(page, "narrow")
        page.check("#cb-toggle")
        page.wait_for_selector("#board .rf-cb")
        assert page.locator("#board .rf-cb").count() > 0
        page.set_viewport_size({"width": 1280, "height": 900})
        shoot(page, "colourblind")
    finally:
        ctx.close()
    assert not errors, errors


def test_the_letter_of_a_taken_pencil_is_ink_not_white(browser: Any, web: Server) -> None:
    """A taken pencil is drawn pale; its colour letter, which the colour-blind setting relies
    on, is ink there (white on the pale body could not be read), and white on a pencil in
    full colour."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    try:
        create_from_lobby(page, web, "reefs", {"level": "1"}, 2)
        phase(page)
        page.check("#cb-toggle")
        click_svg_through(page, Rng(5), stop_after=4)
        cards = page.eval_on_selector_all(
            ".rf-pencil", "gs => gs.map(g => [[...g.classList].find(c => c.startsWith('where-')),"
                          " g.querySelector('.rf-pletter').getAttribute('fill')])")
        taken = [fill for where, fill in cards if where == "where-taken"]
        others = [fill for where, fill in cards if where != "where-taken"]
        assert taken and others, cards
        assert all(fill != "#fff" for fill in taken), cards
        assert all(fill == "#fff" for fill in others), cards
    finally:
        ctx.close()
