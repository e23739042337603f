"""Two browsers at one table seeing each other's moves live, a spectator, a reload and a server
restart mid-game, colour-blind mode and a phone-width page."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import (
    WHOLE_GAMES,
    click_through,
    create_from_lobby,
    phase,
    play_turn,
    version,
)


def committed_log(page: Any) -> list[str]:
    """The log lines the page shows as played (not the player's own unconfirmed steps)."""
    return list(page.eval_on_selector_all("#log li:not(.pending)",
                                          "lis => lis.map(li => li.textContent)"))


def test_two_browsers_and_a_spectator_see_each_others_moves_live(browser: Any,
                                                                 web: Server) -> None:
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context(viewport={"width": 1280, "height": 900})
                                 for _ in range(3))
    try:
        ann = ann_ctx.new_page()
        ann.goto(web.base + "/")
        ann.wait_for_selector("#game option", state="attached")
        ann.select_option("#game", "gardens")
        ann.select_option("#seat-1", "friend")
        ann.fill("#my-name", "Ann")
        ann.click("#create")
        ann.wait_for_url("**/t/**")
        ann.wait_for_selector("#invite-link")
        link = ann.get_attribute("#invite-link", "href")
        assert link and link.endswith("?join")
        bob = bob_ctx.new_page()
        bob.goto(web.base + link)
        bob.fill("#join-name", "Bob")
        bob.click("#join-form button")
        eve = eve_ctx.new_page()
        table = ann.url.rsplit("/", 1)[1]
        eve.goto(f"{web.base}/t/{table}")
        assert phase(eve) == "watching"
        rng = Rng(4)
        for _ in range(4):
            mover = ann if phase(ann) == "my-turn" else bob
            other = bob if mover is ann else ann
            if phase(mover) != "my-turn":
                break
            play_turn(mover, rng)
            version = mover.evaluate("document.body.dataset.version")
            for p in (other, eve):  # arrives without reloading
                p.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")
            assert committed_log(other) == committed_log(eve)
        assert "Bob" in eve.inner_text("#seats") and "Ann" in eve.inner_text("#seats")
        assert eve.locator("#choices button.choice").count() == 0
    finally:
        for c in (ann_ctx, bob_ctx, eve_ctx):
            c.close()


def test_a_reload_and_a_server_restart_mid_game_resume_the_game(page: Any, web: Server) -> None:
    """A turn by clicks, a reload, a kill -9 restart: the page reconnects by itself, shows the
    same game and plays the next turn by clicks, which the restarted server takes. (Finishing
    the game after that proved nothing more: each game's page test finishes games by clicks,
    and tests/server/test_crash.py finishes games across kill -9 restarts; issue 36.)
    ``MEEPLE_WHOLE_GAMES=1`` still plays the whole rest of the game by clicks."""
    table = create_from_lobby(page, web, "reefs", {"level": "2"}, 2)
    rng = Rng(9)
    play_turn(page, rng)
    page.reload()
    assert phase(page) in ("my-turn", "waiting")
    log_before = page.inner_text("#log")
    web.restart(kill=True)
    page.wait_for_function("() => document.getElementById('conn').textContent === 'connected'",
                           timeout=60_000)
    assert phase(page) in ("my-turn", "waiting")
    assert page.inner_text("#log").startswith(log_before.split("\n")[0])
    # the resumed page plays by clicks, and the restarted server takes the turn
    page.wait_for_function("() => document.body.dataset.phase === 'my-turn'", timeout=120_000)
    before = version(page)
    play_turn(page, rng)
    log = web.api("GET", f"/api/tables/{table}/log", params={"after": before}).json()
    assert any(e["seat"] == 0 and e["kind"] == "move" for e in log)
    if WHOLE_GAMES:
        assert click_through(page, rng) > 0 and phase(page) == "over"
        assert web.api("GET", f"/api/tables/{table}").json()["status"] == "finished"


def test_colour_blind_mode_and_a_phone_width_page(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        page = ctx.new_page()
        create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
        page.check("#cb-toggle")
        assert page.evaluate("document.body.classList.contains('cb')")
        page.reload()
        assert page.evaluate("document.body.classList.contains('cb')")  # remembered
        assert phase(page) in ("my-turn", "waiting")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width} px wide on a 375 px screen"
        rng = Rng(2)
        play_turn(page, rng)  # still playable by touch-sized buttons
        box = page.locator("#choices button.choice").first.bounding_box() if \
            page.locator("#choices button.choice").count() else None
        if box is not None:
            assert box["height"] >= 24
    finally:
        ctx.close()
