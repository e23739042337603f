"""Pergola's page in Chromium: games played to their end by clicking the lit elements of the
drawing (the buttons only for the choices without a target: stop and skip), every layout element
drawn, colour-blind letters, and a phone-width page. ``MEEPLE_WHOLE_GAMES=1`` plays the solo
game whole by clicks too."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import (
    assert_pad_is_engines,
    create_from_lobby,
    fast_forward,
    phase,
    play_by_clicks,
    settle,
    turn_moves,
)

TARGETLESS = ("stop", "skip")
VARIANTS = [({}, 2), ({"challenge": "4"}, 1)]


def step_on_drawing(page: Any, rng: Rng, seen: dict[str, int]) -> bool:
    """One click of a turn on the drawing (the buttons only for the choices without a
    target); a flutter or a drip is two clicks, its source then one of its targets."""
    lit = page.locator("#board svg .lit")
    buttons = page.locator("#choices button.choice")
    # one round trip for the buttons' moves (not one per button)
    texts = buttons.evaluate_all("bs => bs.map(b => b.dataset.move || '')")
    targetless = [i for i, text in enumerate(texts) if text.startswith(TARGETLESS)]
    options = [("svg", i) for i in range(lit.count())] + [("button", i) for i in targetless]
    if not options:
        if buttons.count() == 0:
            return False
        # a choice with a target that the drawing did not light: counted, so the test fails
        seen["other_button"] = seen.get("other_button", 0) + 1
        buttons.nth(0).click()
        return True
    kind, i = options[rng.choice(list(range(len(options))))]
    if kind == "button":
        seen["button"] = seen.get("button", 0) + 1
        buttons.nth(i).click()
        return True
    node = lit.nth(i)
    if node.get_attribute("data-source"):
        # a flutter or a drip: the source first, then one of its targets
        seen["source"] = seen.get("source", 0) + 1
        source = node.get_attribute("data-source")
        node.click()
        # the picked source stays lit as picked; only its targets are lit besides it
        assert page.locator("#board svg .pg-selected").get_attribute("data-source") == source
        assert page.locator("#board svg .lit[data-source]").count() == 1
        targets = page.locator("#board svg .lit[data-move]")
        assert targets.count() > 0, "a source lit no target"
        node = targets.nth(rng.choice(list(range(targets.count()))))
    seen["svg"] = seen.get("svg", 0) + 1
    node.click()
    return True


def click_drawing(page: Any, rng: Rng, limit: int = 3000) -> dict[str, int]:
    """Play this page's seat to the end by clicking the drawing; returns what was clicked."""
    seen = play_by_clicks(page, rng, step_on_drawing, limit=limit)
    return {k: seen.get(k, 0) for k in ("svg", "source", "button", "other_button")}


@pytest.mark.parametrize(("options", "players"), VARIANTS, ids=["two-seats", "solo-challenge-4"])
def test_a_game_to_its_end_by_clicking_the_drawing(page: Any, web: Server,
                                                  options: dict[str, str], players: int) -> None:
    """The two-seat game is played whole by clicking the drawing; the solo game from a late
    position that the seat reaches over the server's API (``driver.fast_forward``), finished by
    clicks: no choice with a target goes unlit, and the final pad (the page's and the
    drawing's) is the engine's. The long version, both whole by clicks:
    ``MEEPLE_WHOLE_GAMES=1``."""
    table = create_from_lobby(page, web, "pergola", options, players)
    whole = players == 2 or not fast_forward(page, web, table, Rng(players))
    seen = click_drawing(page, Rng(11 + players))
    assert seen["svg"] > (20 if whole else 0)
    assert seen["other_button"] == 0, seen
    assert phase(page) == "over"
    engine = assert_pad_is_engines(page, web, table)
    # the pad drawn in the viewer's garden agrees with the engine too
    drawn = dict(page.eval_on_selector_all(
        "svg.pg-main [data-row]", "ns => ns.map(n => [n.dataset.row, Number(n.textContent)])"))
    assert drawn == {**engine[0].breakdown, "total": engine[0].total}
    if players == 1:
        text = page.inner_text("#board")
        assert "Neighbour's discards" in text or "discards" in page.inner_html("#board")
        assert "Przemek" in page.inner_html("#board")


def _layout_ids(layout: dict[str, Any]) -> set[str]:
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("id"), str):
                out.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(layout)
    return out


@pytest.mark.parametrize(("options", "players"), VARIANTS, ids=["two-seats", "solo-challenge-4"])
def test_every_layout_element_is_drawn(page: Any, web: Server, options: dict[str, str],
                                       players: int) -> None:
    table = create_from_lobby(page, web, "pergola", options, players)
    phase(page)
    page.wait_for_selector("svg.pg-main")
    layout = web.api("GET", f"/api/tables/{table}/layout").json()["layout"]
    view = page.evaluate(f"fetch('/api/tables/{table}/view').then(r => r.json())")["view"]
    board = view["board"]
    ids = _layout_ids(layout)
    # the tools: only those out of the holder can be drawn (the holder's order is hidden)
    tools = {i for i in ids if i.startswith("tool:")}
    visible = {a["tool"] for a in board["action_board"] if a["tool"]}
    visible |= {t for g in board["gardens"] for t in g["tools"]} | set(board["discards"])
    ids = (ids - tools) | visible
    missing = page.evaluate(
        "ids => ids.filter(id => !document.getElementById(id) && "
        "!document.querySelector(`[data-el=\"${CSS.escape(id)}\"]`))", sorted(ids))
    assert missing == []
    # every garden is drawn, the viewer's large one with the ids
    assert page.locator("svg.pg-garden").count() == players
    assert page.locator("svg.pg-main [id]").count() > 50


def test_lit_choices_carry_their_moves(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "pergola", {}, 2)
    assert phase(page) == "my-turn"
    page.wait_for_selector("#board svg .lit")
    lit = page.eval_on_selector_all(
        "#board svg .lit", "ns => ns.map(n => [n.id, n.getAttribute('data-move'), "
        "n.getAttribute('role'), n.getAttribute('tabindex')])")
    legal = page.eval_on_selector_all("#choices button.choice",
                                      "bs => bs.map(b => b.getAttribute('data-move'))")
    # the first decision is a tool to pick: each lit tool is one of the legal moves
    assert lit and all(m in legal and role == "button" and tab == "0" for _, m, role, tab in lit)
    assert all(i.startswith("tool:") for i, *_ in lit)
    # Enter on a lit element plays it, as a click does
    first = page.locator("#board svg .lit").first
    move = first.get_attribute("data-move")
    first.focus()
    page.keyboard.press("Enter")
    settle(page)
    assert move in turn_moves(page)


def test_colour_blind_mode_adds_letters(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "pergola", {}, 2)
    phase(page)
    page.wait_for_selector("svg.pg-main")
    assert page.locator("#board .pg-cb").count() == 0
    page.check("#cb-toggle")
    page.wait_for_function("() => document.querySelectorAll('#board .pg-cb').length > 0")
    letters = page.eval_on_selector_all("#board .pg-cb", "ns => ns.map(n => n.textContent)")
    # every leaf colour carries its initial (on the leaf piles and the birdhouse's colours)
    assert {"G", "Y", "O", "R", "Br"} <= set(letters)


def test_phone_width_has_no_horizontal_overflow(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    pg = ctx.new_page()
    try:
        create_from_lobby(pg, web, "pergola", {"challenge": "9"}, 1)
        phase(pg)
        pg.wait_for_selector("svg.pg-main")
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 375
        # the drawing is laid out for the narrow page: its sections are not shrunk below
        # three quarters of their size
        box = pg.locator("svg.pg-main").bounding_box()
        vb = pg.evaluate("document.querySelector('svg.pg-main').viewBox.baseVal.width")
        assert box["width"] / vb > 0.75
        pg.locator("#board svg .lit").first.click()
        settle(pg)
    finally:
        ctx.close()
