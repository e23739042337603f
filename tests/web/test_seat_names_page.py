"""Seat names in the page: signed in, the lobby and the invitation ask for no name ("You play
as ..."), and the seat chips, the result line, My games and a rematch say the account's display
name; a guest's typed name is kept by a rematch (src/meeple/server/features/accounts/README.md,
*The page: Seat names*). Two browser contexts (two people, each with their own cookies and
localStorage) against a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.driver import scroll_to
from tests.web.test_accounts_pages import fresh_name, sign_up

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def bob(browser: Any) -> Iterator[Any]:
    """A second person's browser (its own cookies and localStorage)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def lobby_table_with_a_friend(page: Any, web: Server) -> str:
    """In the lobby, signed in: no name box, "You play as ..."; a two-seat table of this
    person and a friend made (Takenokolor: a short game). Returns its id (the page is left on
    the table)."""
    page.goto(web.base + "/")
    page.wait_for_selector("#play-as", state="visible")
    assert page.is_hidden("#my-name")
    page.select_option("#game", "takenokolor")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "friend")
    page.click("#create")
    page.wait_for_url("**/t/**")
    return str(page.url.rsplit("/", 1)[1])


def chip(page: Any, seat: int) -> str:
    return str(page.text_content(f".seat-chip[data-seat='{seat}']"))


def concede(page: Any, table: str, seat: int) -> None:
    """The page's person concedes (through the page's own API client: by the session when
    signed in, else by the seat's secret this browser keeps); what a concession looks like is
    tried in tests/web/test_table_life_page.py."""
    page.wait_for_selector("#concede", state="visible", timeout=60_000)
    page.evaluate("""async ([table, seat]) => {
      const { api, heldSeat } = await import('/static/js/common.js');
      const held = heldSeat(table);
      const body = held && held.seat === seat ? { seat, secret: held.secret } : { seat };
      await api('POST', `/api/tables/${table}/concede`, body);
    }""", [table, seat])


def test_signed_in_lobby_invitation_chips_and_result_line(page: Any, bob: Any,
                                                          web: Server) -> None:
    ann_user, bob_user = fresh_name(), fresh_name()
    sign_up(page, web, ann_user, "Alice Lee")
    sign_up(bob, web, bob_user, bob_user)
    # a name box left as the lobby used to leave it for a signed-in person: never used
    page.evaluate("localStorage.setItem('meeple.name', 'player')")
    page.goto(web.base + "/")
    page.wait_for_selector("#play-as", state="visible")
    assert page.text_content("#play-as") == "You play as Alice Lee (your account's name)"
    page.screenshot(path=str(SHOTS / "lobby-signed-in-play-as.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    scroll_to(page, "#play-as")
    page.screenshot(path=str(SHOTS / "lobby-signed-in-play-as-375.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    table = lobby_table_with_a_friend(page, web)
    page.wait_for_function("() => document.querySelector(\".seat-chip[data-seat='0']\")"
                           "?.textContent.includes('Alice Lee')", timeout=60_000)
    # Bob opens the invitation link, signed in: no name asked, the seat taken at one click
    bob.goto(f"{web.base}/t/{table}?join")
    bob.wait_for_selector("#join-as", state="visible")
    assert bob.is_hidden("#join-name")
    assert bob.text_content("#join-as") == f"You play as {bob_user} (your account's name)"
    bob.screenshot(path=str(SHOTS / "join-signed-in-play-as.png"))
    bob.set_viewport_size({"width": 375, "height": 800})
    bob.screenshot(path=str(SHOTS / "join-signed-in-play-as-375.png"))
    bob.set_viewport_size({"width": 1280, "height": 900})
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector("#join-panel", state="hidden", timeout=30_000)
    seats = web.api("GET", f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats] == ["Alice Lee", bob_user]
    for p in (page, bob):
        p.wait_for_function(f"() => document.querySelector(\".seat-chip[data-seat='1']\")"
                            f"?.textContent.includes({json.dumps(bob_user)})", timeout=60_000)
        assert "Alice Lee" in chip(p, 0) and "player" not in chip(p, 0)
    # both concede: the stand-ins play it to the end; the result line names the accounts, the
    # one who stayed longer placed first and nobody's win (docs/ratings.md)
    concede(page, table, 0)
    concede(bob, table, 1)
    page.wait_for_selector("#end-winners", state="visible", timeout=180_000)
    # the places come with the table read again at the end
    page.wait_for_function("() => document.querySelector('#end-winners')"
                           ".textContent.includes('placed first')", timeout=30_000)
    line = page.text_content("#end-winners")
    assert line.startswith(f"{bob_user} is placed first"), line
    assert "Alice Lee conceded first" in line, line
    assert "player" not in line
    # My games in the lobby says the names too
    page.goto(web.base + "/")
    page.wait_for_selector(f"#my-games tr[data-table='{table}']")
    assert f"Alice Lee, {bob_user}" in page.text_content(f"#my-games tr[data-table='{table}']")


def test_a_guest_invitee_must_type_a_name_and_a_rematch_keeps_every_name(
        page: Any, bob: Any, web: Server) -> None:
    sign_up(page, web, fresh_name(), "Alice Lee")
    table = lobby_table_with_a_friend(page, web)
    # a guest with an empty name box is told why nothing happened
    bob.goto(f"{web.base}/t/{table}?join")
    bob.wait_for_selector("#join-name", state="visible")
    assert bob.is_hidden("#join-as")
    bob.fill("#join-name", "")
    bob.click("#join-form button[type=submit]")
    bob.wait_for_function("() => document.querySelector('#join-error').textContent"
                          ".includes('Type your name')")
    bob.fill("#join-name", "Bea")
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector("#join-panel", state="hidden", timeout=30_000)
    # the name this browser would type next time is another (a lobby that was left empty)
    bob.evaluate("localStorage.setItem('meeple.name', 'player')")
    concede(page, table, 0)
    concede(bob, table, 1)
    for p in (page, bob):
        p.wait_for_selector("#end-again", state="visible", timeout=180_000)
    page.click("#end-again")
    page.wait_for_url(lambda url: "/t/" in url and table not in url)
    new = page.url.rsplit("/", 1)[1].split("?")[0]
    bob.wait_for_selector("#rematch-ready", state="visible", timeout=60_000)
    bob.click("#end-again")
    bob.wait_for_url(f"{web.base}/t/{new}")
    got = web.api("GET", f"/api/tables/{new}").json()
    assert [s["name"] for s in got["seats"]] == ["Alice Lee", "Bea"]
    page.wait_for_function("() => document.querySelector(\".seat-chip[data-seat='1']\")"
                           "?.textContent.includes('Bea')", timeout=60_000)
    assert "Alice Lee" in chip(page, 0)
