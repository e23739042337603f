"""The Gardens table page in Chromium: games of every level played to their end by clicking the
lit parts of the drawing (fields, pencils, the pencil symbol to waste), the final pad equal to
the engine's; every layout element drawn; colour-blind letters; a 375 px page without sideways
scrolling. ``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/gardens-*.png;
``MEEPLE_WHOLE_GAMES=1`` plays every level's game whole by clicks."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
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
    settle,
    turn_moves,
)


def shoot(page: Any, name: str) -> None:
    driver.shoot(page, "gardens", name)


def step_on_drawing(page: Any, rng: Rng, made: dict[str, int]) -> bool:
    """One click of a turn on the lit SVG elements (the buttons only when no choice has a
    target), checking that the lit elements are exactly the legal moves."""
    lit = page.locator("#board .lit[data-move]")
    # one round trip for the lit elements and the buttons (not one per element)
    moves, legal = page.evaluate(
        "() => [[...document.querySelectorAll('#board .lit[data-move]')]"
        ".map(e => e.dataset.move), [...document.querySelectorAll('#choices button.choice')]"
        ".map(b => b.dataset.move)]")
    n = len(moves)
    if n:
        # every Gardens choice has a target: the lit elements are exactly the legal moves
        assert sorted(moves) == sorted(legal), (moves, legal)
        lit.nth(rng.choice(list(range(n)))).click()
        made["svg"] = made.get("svg", 0) + 1
        return True
    buttons = page.locator("#choices button.choice")
    if buttons.count() == 0:
        return False
    buttons.nth(rng.choice(list(range(buttons.count())))).click()
    made["button"] = made.get("button", 0) + 1
    return True


def click_svg_through(page: Any, rng: Rng, *, stop_after: int | None = None,
                      limit: int = 3000) -> dict[str, int]:
    """Play this page's seat by clicking lit SVG elements (until ``stop_after`` turns, or the
    end). Returns the clicks made on the drawing and on buttons, and the turns."""
    made = play_by_clicks(page, rng, step_on_drawing, limit=limit,
                          stop=None if stop_after is None else after_turns(stop_after))
    return {"svg": made.get("svg", 0), "button": made.get("button", 0), "turns": made["turns"]}


def layout_ids(layout: dict[str, Any]) -> list[str]:
    sc = layout["score"]
    ids = [f["id"] for f in layout["fields"]] + [f["id"] for f in layout["fountain"]]
    ids += [p["id"] for p in layout["pencils"]]
    for row in sc["single_colour"]["rows"]:
        ids += [b["id"] for b in row["boxes"]] + [row["star"]["id"]]
    for part in (sc["colourful"], sc["flowers"], sc["trees"]):
        if part:
            ids += [b["id"] for b in part["boxes"]]
            if part["star"]:
                ids.append(part["star"]["id"])
    ids += [p["id"] for p in sc["pencils"]] + [g["id"] for g in sc["goals"]]
    return ids


#: the level played whole by clicking the drawing, from the lobby to the end: every part of
#: the sheet is in play there (flowers, trees, every score row)
WHOLE_LEVEL = 3


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_game_to_its_end_by_clicking_the_drawing(page: Any, web: Server, level: int) -> None:
    """Level 3 is played whole by clicking the drawing. Level 1 plays six turns by clicks and
    half a turn (a pencil in hand, a field coloured), level 2 nothing, then each goes on from a
    late position that the seat reaches over the server's API (``driver.fast_forward``) and is
    finished by clicks: at every step the lit elements are exactly the legal moves, and the
    final pad is the engine's. The long version, every level whole by clicks:
    ``MEEPLE_WHOLE_GAMES=1``."""
    table = create_from_lobby(page, web, "gardens", {"level": str(level)}, 2)
    phase(page)
    layout = layout_of(web, table)
    # every element of the layout is drawn on the player's own sheet, with its id
    missing = page.evaluate("ids => ids.filter(i => !document.getElementById(i))",
                            layout_ids(layout))
    assert missing == []
    # the other seat's sheet is drawn too, without clashing ids
    assert page.locator("details.other-sheet .gd-field").count() == len(layout["fields"])
    # thick garden borders: one line per listed side
    sides = sum(len(f["borders"]) for f in layout["fields"])
    assert page.locator(".gd-sheet.main .gd-borders line").count() == sides
    if level == 1:
        shoot(page, "start")
        made = click_svg_through(page, Rng(11), stop_after=6)
        play_half_a_turn(page)
        shoot(page, "mid")
    else:
        made = {"svg": 0, "button": 0, "turns": 0}
    if level != WHOLE_LEVEL:
        fast_forward(page, web, table, Rng(level))
    more = click_svg_through(page, Rng(99 + level))
    made = {k: made[k] + more[k] for k in made}
    assert made["svg"] > 0
    assert phase(page) == "over"
    assert_pad_is_engines(page, web, table)
    assert "Game over" in page.inner_text("#status")
    # at the end every seat's coloured fields are drawn in their colours
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    state = meeple.replay(rec)
    coloured = page.evaluate("[...document.querySelectorAll('.gd-sheet.main .gd-field.coloured')]"
                             ".map(g => g.dataset.el)")
    assert len(coloured) == bin(state.coloured[0]).count("1")
    if level == 3:
        shoot(page, "end")
    if level == 2:
        page.check("#cb-toggle")
        page.wait_for_selector(".gd-cb")
        shoot(page, "end-cb")


def play_half_a_turn(page: Any) -> None:
    """Mid-game, in the middle of a turn: the pencil with the highest face taken and one field
    coloured with it. The preview adds any forced field after it, and may so complete the turn
    (the table's seed is random: about one game in fifty leaves the rest of the group forced
    here). Until then the pencil is in hand and this turn's fields are drawn as current; once
    the turn is complete the page shows the position after it, where no pencil is in hand and
    the turn's fields are simply coloured."""
    page.wait_for_function("() => document.body.dataset.phase === 'my-turn'", timeout=120_000)
    faces = page.eval_on_selector_all(".gd-pencil.lit", "gs => gs.map(g => +g.dataset.face)")
    page.locator(".gd-pencil.lit").nth(faces.index(max(faces))).click()
    settle(page)
    if max(faces) == 1:
        return
    field = page.locator(".gd-sheet.main .gd-field.lit").first.get_attribute("data-move")
    page.locator(f'.gd-sheet.main .gd-field.lit[data-move="{field}"]').click()
    settle(page)
    # the turn so far: the pencil taken, the field clicked, then any forced field
    steps = turn_moves(page)
    assert steps[0].startswith("take ") and steps[1] == field, steps
    fields = sorted(steps[1:])
    current = page.eval_on_selector_all(".gd-sheet.main .gd-field.current",
                                        "gs => gs.map(g => g.dataset.el)")
    coloured = page.eval_on_selector_all(".gd-sheet.main .gd-field.coloured",
                                         "gs => gs.map(g => g.dataset.el)")
    if phase(page) == "complete":
        assert page.locator(".gd-pencil.where-hand").count() == 0
        assert current == [] and set(fields) <= set(coloured)
    else:
        assert page.locator(".gd-pencil.where-hand").count() == 1
        assert sorted(current) == fields


def test_colour_blind_letters_and_a_phone_width_page(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        table = create_from_lobby(page, web, "gardens", {"level": "2"}, 2)
        click_svg_through(page, Rng(5), stop_after=3)
        assert page.locator(".gd-cb").count() == 0
        page.check("#cb-toggle")
        page.wait_for_selector(".gd-cb")
        coloured = page.locator(".gd-sheet.main .gd-field.coloured").count()
        assert coloured > 0
        # every coloured field carries its letter, and so does every flower
        assert page.locator(".gd-sheet.main .gd-field.coloured .gd-cb").count() == coloured
        letters = page.eval_on_selector_all(
            ".gd-sheet.main .gd-field.coloured",
            "gs => gs.map(g => [g.dataset.colour, g.querySelector('.gd-cb').textContent])")
        assert all(c[0].upper() == letter for c, letter in letters)
        flowers = sum(1 for f in layout_of(web, table)["fields"] if f["flower"])
        assert page.locator(".gd-sheet.main .gd-flower text").count() == flowers
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width} px wide on a 375 px screen"
        # a field is still big enough to tap at this width
        box = page.locator(".gd-sheet.main .gd-field").first.bounding_box()
        assert box["width"] >= 18
        # the other seat's sheet is folded on a phone and opens on a tap
        other = page.locator("details.other-sheet")
        assert other.evaluate("d => d.open") is False
        other.locator("summary").click()
        assert other.evaluate("d => d.open") is True
        shoot(page, "phone-cb")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_letter_of_a_used_pencil_is_ink_not_white(page: Any, web: Server) -> None:
    """A used (or not yet rolled) pencil is drawn pale; its colour letter, which the
    colour-blind setting relies on, is ink there (white on the pale body could not be read),
    and white edged in ink on a pencil in full colour."""
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    page.check("#cb-toggle")
    click_svg_through(page, Rng(5), stop_after=2)
    cards = page.eval_on_selector_all(
        ".gd-pencil", "gs => gs.map(g => [[...g.classList].find(c => c.startsWith('where-')),"
                      " g.querySelector('.gd-pencil-letter').getAttribute('fill')])")
    faded = [fill for where, fill in cards if where in ("where-used", "where-unrolled")]
    full = [fill for where, fill in cards if where not in ("where-used", "where-unrolled")]
    assert faded and full, cards
    assert all(fill != "#fff" for fill in faded), cards
    assert all(fill == "#fff" for fill in full), cards


def test_a_lit_field_plays_on_enter(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    assert phase(page) == "my-turn"
    pencil = page.locator(".gd-pencil.lit").first
    assert pencil.get_attribute("role") == "button"
    assert pencil.get_attribute("tabindex") == "0"
    move = pencil.get_attribute("data-move")
    pencil.focus()
    page.keyboard.press("Enter")
    settle(page)
    assert move in turn_moves(page)
    # now the fields are lit (and the pencil symbol to waste)
    assert page.locator(".gd-sheet.main .gd-field.lit").count() > 0
    assert page.locator(".gd-sheet.main .gd-symbol.lit").count() == 1
    assert page.locator(".gd-pencil.lit").count() == 0


def test_a_spectator_sees_every_sheet_and_nothing_lit(page: Any, browser: Any,
                                                        web: Server) -> None:
    table = create_from_lobby(page, web, "gardens", {"level": "3"}, 3)
    click_svg_through(page, Rng(7), stop_after=2)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        eve = ctx.new_page()
        eve.goto(f"{web.base}/t/{table}")
        assert phase(eve) == "watching"
        eve.wait_for_selector(".gd-sheet.main")
        assert eve.locator(".gd-sheet").count() == 3
        assert eve.locator("details.other-sheet").count() == 2
        assert eve.locator(".lit").count() == 0
        assert "sheet" in eve.inner_text("#board h2")
        # the trees of level 3 are drawn on every sheet
        trees = sum(1 for f in layout_of(web, table)["fields"] if f["tree"])
        assert eve.locator(".gd-map .gd-tree").count() == 3 * trees
    finally:
        ctx.close()
