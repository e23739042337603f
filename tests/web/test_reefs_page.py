"""The Reefs table page in Chromium: whole games of every level played against a random bot by
clicking the lit parts of the drawing (pencils, propeller buttons, entry points, next spaces;
the buttons only for stop and forfeit), the final pad equal to the engine's; every layout
element drawn; colour-blind letters; a 375 px page without sideways scrolling.
``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/reefs-*.png."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.games.reefs.view import view_board
from tests.server.conftest import Server
from tests.web.driver import pad_from_page, phase
from tests.web.test_play_pages import create_from_lobby

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
BUTTON_ONLY = {"stop", "forfeit"}


def settle(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.phase !== 'pending'", timeout=60_000)


def click_svg_through(page: Any, rng: Rng, *, stop_after: int | None = None,
                      limit: int = 4000) -> dict[str, int]:
    """Play this page's seat by clicking lit SVG elements, the buttons only for the choices
    without a target. Returns the clicks made on the drawing and on buttons."""
    made = {"svg": 0, "button": 0, "turns": 0}
    for _ in range(limit):
        now = phase(page)
        if now == "over":
            return made
        if now == "complete":
            page.click("#confirm")
            made["turns"] += 1
            settle(page)
            if stop_after is not None and made["turns"] >= stop_after:
                return made
            continue
        if now != "my-turn":
            page.wait_for_function(
                "() => !['waiting', 'watching'].includes(document.body.dataset.phase)",
                timeout=120_000)
            continue
        legal = page.evaluate("[...document.querySelectorAll('#choices button.choice')]"
                              ".map(b => b.dataset.move)")
        if not legal:
            page.wait_for_timeout(50)
            continue
        lit = page.locator("#board .lit[data-move]")
        moves = [lit.nth(i).get_attribute("data-move") for i in range(lit.count())]
        # every choice with a target is lit on the drawing, and nothing else is
        assert sorted(moves) == sorted(m for m in legal if m not in BUTTON_ONLY), (moves, legal)
        if moves:
            lit.nth(rng.choice(list(range(len(moves))))).click()
            made["svg"] += 1
        else:
            page.locator("#choices button.choice").nth(rng.choice(list(range(len(legal))))).click()
            made["button"] += 1
        settle(page)
    raise AssertionError("the game did not end")


def assert_pad_is_engines(page: Any, web: Server, table: str) -> None:
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    engine = meeple.replay(rec).scores()
    shown = pad_from_page(page)
    assert [s["total"] for s in shown] == [s.total for s in engine]
    for seat, score in enumerate(engine):
        for row, value in score.breakdown.items():
            assert shown[seat][row] == value, (seat, row)


def layout_of(web: Server, table: str) -> dict[str, Any]:
    return dict(web.api("GET", f"/api/tables/{table}/layout").json()["layout"])


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


def shoot(page: Any, name: str) -> None:
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"reefs-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    try:  # a palette of 256 colours keeps the committed PNGs small
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass
    assert path.stat().st_size < 300_000, f"{path.name} is {path.stat().st_size} bytes"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_whole_game_by_clicking_the_drawing(page: Any, web: Server, level: int) -> None:
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
    made = click_svg_through(page, Rng(20 + level), stop_after=3 if level == 3 else None)
    if level == 3:
        page.evaluate("document.querySelectorAll('details.other-sheet')"
                      ".forEach(d => d.open = true)")
        shoot(page, "mid")
        more = click_svg_through(page, Rng(99))
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
