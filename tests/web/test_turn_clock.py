"""The turn clock as a player lives it (issue 39 #1), in Chromium against a real server:

- every person's seat shows its clock; the one to move counts down;
- when the person's time runs out while their page is open, the stand-in bot plays one
  decision (not the rest of their game), the page says so (the news line and a note with a
  way back), and their next click takes the seat back;
- a stand-in that plays the last decisions of the game while the page is open ends it
  cleanly: the end panel, and no raw error (none naming a 0-based seat).

``MEEPLE_SCREENSHOTS=1`` writes docs/screenshots/table-clock.png and table-stand-in.png."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.server.test_play import create
from tests.web.driver import click_a_button, fast_forward, phase, settle
from tests.web.test_table_ux import shoot

CLOCK = 5  # seconds a decision: the shortest a table may have (the lobby offers 30 s and more)


def open_as(page: Any, web: Server, game: str, variant: dict[str, Any]) -> str:
    """A table of ``game`` with a turn clock: Ann (this page) against a random bot."""
    joined = create(web, game, variant, [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    join_as="Ann", clock=CLOCK)
    table = str(joined["table"]["id"])
    page.goto(web.base + "/")
    page.evaluate("([t, seat, secret]) => localStorage.setItem('meeple.seats', JSON.stringify("
                  "{[t]: {seat, secret, name: 'Ann'}}))", [table, joined["seat"], joined["secret"]])
    page.goto(f"{web.base}/t/{table}")
    return table


def chip(page: Any, seat: int) -> str:
    return str(page.inner_text(f"#seats [data-seat='{seat}']"))


def stand_in_shown(page: Any) -> bool:
    return not bool(page.evaluate("document.getElementById('stand-in').classList.contains('hidden')"))


def seat_clock(page: Any, seat: int) -> str:
    return str(page.inner_text(f"#seats .seat-clock[data-seat='{seat}']"))


def test_each_seat_shows_its_clock_and_a_stand_in_plays_one_decision(page: Any,
                                                                   web: Server) -> None:
    table = open_as(page, web, "gardens", {"level": 1})
    assert phase(page) in ("my-turn", "complete")
    # Ann's clock counts down on her chip; the bot's seat has none
    page.wait_for_selector("#seats .seat-clock.running[data-seat='0']")
    first = seat_clock(page, 0)
    page.wait_for_function(f"() => document.querySelector(\"#seats .seat-clock[data-seat='0']\")"
                           f".textContent !== {first!r}", timeout=30_000)
    assert page.locator("#seats .seat-clock[data-seat='1']").count() == 0
    assert not stand_in_shown(page)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-clock")
    # she does nothing: her time runs out, the stand-in plays one decision, the page says so
    page.wait_for_function("() => !document.getElementById('stand-in').classList.contains('hidden')",
                           timeout=60_000)
    # (the seat is stood in first, then its decision is played and named)
    page.wait_for_function("() => document.getElementById('news').textContent"
                           ".includes('a stand-in bot played')", timeout=60_000)
    note = page.inner_text("#stand-in")
    assert "Your time ran out" in note and "one decision each time" in note, note
    assert "next click takes your seat back" in note, note
    news = page.inner_text("#news")
    assert "Your time ran out: a stand-in bot played" in news, news
    assert "stand-in bot plays for you" in chip(page, 0)
    ran_out = page.evaluate("() => fetch(location.pathname.replace('/t/', '/api/tables/'))"
                            ".then((r) => r.json())")
    assert ran_out["seats"][0]["absent"] and ran_out["status"] == "running"
    log = web.api("GET", f"/api/tables/{table}/log").json()
    standin = [e for e in log if e["kind"] == "move" and e["seat"] == 0]
    # one decision: the rest of her game is hers (the bot seat's moves do not count)
    played = note.split("So far it played: ")[1].split(". Your")[0]
    assert played and "," not in played, note
    assert standin, log
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-stand-in")
    # her next click takes the seat back: the note goes, her chip is hers again
    page.wait_for_function("() => ['my-turn', 'complete'].includes(document.body.dataset.phase)",
                           timeout=60_000)
    if phase(page) == "my-turn":
        click_a_button(page, Rng(3), {})
    else:
        page.click("#stand-in-back")
    page.wait_for_function("() => document.getElementById('stand-in').classList.contains('hidden')",
                           timeout=30_000)
    settle(page)
    deadline = 60
    for _ in range(deadline * 5):
        if not web.api("GET", f"/api/tables/{table}").json()["seats"][0]["absent"]:
            break
        page.wait_for_timeout(200)
    else:
        raise AssertionError("the seat was not taken back")
    assert "stand-in" not in chip(page, 0)


def test_a_game_the_stand_in_ends_shows_the_end_and_no_raw_error(page: Any, web: Server) -> None:
    table = open_as(page, web, "reefs", {"level": 1})
    fast_forward(page, web, table, Rng(5), left=1)
    # Ann looks away for the rest of the game: the stand-in plays it out, a decision a clock
    page.wait_for_function("() => document.body.dataset.phase === 'over'", timeout=600_000)
    page.wait_for_selector("#end-links")
    assert page.inner_text("#refusal") == ""
    body = page.inner_text("body")
    assert "seat 0" not in body and "seat 1'" not in body, body
    assert not stand_in_shown(page)  # the game is over: nothing to take back
    # a click after the end changes nothing and says nothing raw
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.inner_text("#refusal") == ""
    assert web.api("GET", f"/api/tables/{table}").json()["status"] == "finished"
