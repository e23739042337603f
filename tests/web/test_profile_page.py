"""A player's profile page (/u/<username>; issue 52): signed up in the browser, two games
against a bot and a Pergola solo game finished (each seat left to its stand-in bot, which plays
it out), the profile shows the numbers per game and variant, the recent games with their
replay links and the solo achievement table; a second browser, not signed in, sees the same
public profile. The solo page of a guest's name offers the one-time claim, and the claimed
game joins the profile. Screenshots at desktop and phone width. Chromium against a real server
(tests/web/conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.test_accounts_pages import SHOTS, fresh_name, sign_up

STAND_IN = {"kind": "human", "bot": "random"}

#: Create a table signed in (the session's CSRF token sent, as the pages send it), take its
#: first seat and leave it: its stand-in bot plays on. The table's id.
PLAY_AND_LEAVE = """async (body) => {
  const me = await (await fetch('/api/session')).json();
  const headers = {'content-type': 'application/json', 'X-CSRF-Token': me.csrf};
  const made = await (await fetch('/api/tables', {method: 'POST', headers,
    body: JSON.stringify(body)})).json();
  const r = await fetch(`/api/tables/${made.table.id}/leave`, {method: 'POST', headers,
    body: JSON.stringify({seat: made.seat, secret: made.secret})});
  if (!r.ok) throw new Error(await r.text());
  return made.table.id;
}"""


def wait_finished(web: Server, table: str, limit: float = 300) -> None:
    deadline = time.monotonic() + limit
    while web.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.2)


@pytest.fixture
def guest(browser: Any) -> Iterator[Any]:
    """A second browser, not signed in (its own cookies and localStorage)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def open_profile(page: Any, web: Server, username: str) -> None:
    page.goto(f"{web.base}/u/{username}")
    page.wait_for_selector("body[data-loaded='1']")


def shown(page: Any) -> dict[str, Any]:
    """What the profile page shows: the totals, the rows per game and variant, the recent
    games' tables and results, the solo table's total."""
    rows = page.eval_on_selector_all(
        "#profile-stats tbody tr[data-game]",
        "trs => trs.map(tr => [tr.dataset.game, tr.dataset.solo === 'true', "
        "tr.querySelector('.played').textContent, tr.querySelector('.wins').textContent])")
    recent = page.eval_on_selector_all(
        "#profile-recent tbody tr[data-table]",
        "trs => trs.map(tr => [tr.dataset.table, tr.querySelector('a[href$=\"?replay\"]')"
        "?.getAttribute('href'), tr.querySelector('.result').textContent])")
    return {"played": page.text_content("#profile-played"),
            "wins": page.text_content("#profile-wins"), "rows": sorted(rows),
            "recent": recent, "solo_total": page.text_content("#profile-solo-total"),
            "name": page.text_content("#profile-name")}


def test_the_profile_page_signed_in_and_seen_by_a_guest(page: Any, guest: Any,
                                                         web: Server) -> None:
    name = fresh_name()
    sign_up(page, web, name, display="Ann Profile")
    # the account page links the profile
    assert page.get_attribute("#profile-link", "href") == f"/u/{name}"
    tables = [page.evaluate(PLAY_AND_LEAVE, {
        "game": "gardens", "variant": {"level": 1}, "seats": [STAND_IN, {"kind": "bot",
                                                                          "bot": "random"}],
        "join_as": "Ann"}) for _ in range(2)]
    tables.append(page.evaluate(PLAY_AND_LEAVE, {
        "game": "pergola", "variant": {"challenge": 2}, "seats": [STAND_IN], "join_as": "Ann"}))
    for t in tables:
        wait_finished(web, t)
    api = web.api("GET", f"/api/users/{name}").json()
    solo = web.api("GET", f"/api/users/{name}/solo").json()

    open_profile(page, web, name)
    seen = shown(page)
    assert seen["name"] == "Ann Profile"
    assert seen["played"] == "3" and seen["wins"] == str(api["wins"])
    assert seen["rows"] == sorted([["gardens", False, "2", str(api["stats"][0]["wins"])],
                                   ["pergola", True, "1", "–"]])
    # newest first (the three played at once: in the order they finished)
    assert [r[0] for r in seen["recent"]] == [g["table"] for g in api["recent"]]
    assert sorted(r[0] for r in seen["recent"]) == sorted(tables)
    assert all(href == f"/t/{t}?replay" for t, href, _ in seen["recent"])
    for (_, _, result), g in zip(seen["recent"], api["recent"], strict=True):
        if g["solo"]:
            assert result == f"solo: {g['score']}"
        else:
            assert result.startswith("won") if g["won"] else result.startswith(f"{g['place']}")
    assert seen["solo_total"] == str(solo["total"]) and len(solo["games"]) == 1
    assert page.locator("#profile-solo-games tbody tr").count() == 1
    assert "This is your profile" in page.text_content("#profile-own")
    # a bot shows as a bot, and the account's own seat links its profile
    row = page.locator(f"#profile-recent tr[data-table='{tables[0]}']")
    assert row.locator(".bot-tag").count() == 1
    assert row.locator(f"a[href='/u/{name}']").text_content() == "Ann Profile"
    page.screenshot(path=str(SHOTS / "profile.png"), full_page=True)
    # the replay link opens the table's replay
    row.locator("a", has_text="replay").click()
    page.wait_for_url(f"**/t/{tables[0]}?replay")

    # a guest sees the same public profile, and not "your profile"
    open_profile(guest, web, name.upper())
    assert shown(guest) == seen
    assert guest.locator("#profile-own").is_hidden()
    # on a phone: nothing wider than the screen
    guest.set_viewport_size({"width": 375, "height": 800})
    open_profile(guest, web, name)
    assert guest.evaluate("document.documentElement.scrollWidth") <= 375
    guest.screenshot(path=str(SHOTS / "profile-phone.png"), full_page=True)
    # the lobby's My games links the profile once signed in
    page.goto(web.base + "/")
    page.wait_for_selector("#my-games-card", state="visible")
    page.wait_for_function(f"() => document.getElementById('my-profile')"
                           f".getAttribute('href') === '/u/{name}'")

    # no such player: a 404, and the page says so
    r = guest.goto(f"{web.base}/u/nobody_{name}")
    assert r is not None and r.status == 404
    guest.wait_for_selector("body[data-loaded='1']")
    assert "no player has the username" in guest.text_content("#profile-meta")


def test_a_guests_solo_games_are_claimed_on_the_solo_page(page: Any, guest: Any,
                                                          web: Server) -> None:
    seat_name = f"Zed {fresh_name()}"
    made = web.api("POST", "/api/tables", json={
        "game": "pergola", "variant": {"challenge": 10}, "seats": [STAND_IN],
        "join_as": seat_name}).json()
    table = made["table"]["id"]
    r = web.api("POST", f"/api/tables/{table}/leave", json={"seat": 0, "secret": made["secret"]})
    assert r.status_code == 200, r.text
    wait_finished(web, table)
    # a guest's solo page says that signing in keeps the games with an account
    guest.goto(f"{web.base}/solo/{seat_name}")
    guest.wait_for_selector("body[data-loaded='1']")
    assert "Sign in" in guest.text_content("#solo-account")
    assert guest.get_attribute("#solo-sign-in", "href") == "/account"
    # signed in: claim them, once
    name = fresh_name()
    sign_up(page, web, name, display="Zed Claims")
    page.goto(f"{web.base}/solo/{seat_name}")
    page.wait_for_selector("#solo-claim")
    page.click("#solo-claim")
    page.wait_for_function("() => document.getElementById('solo-claim-status')"
                           ".textContent.includes('yours now')")
    assert "1 game is yours now" in page.text_content("#solo-claim-status")
    page.screenshot(path=str(SHOTS / "solo-claimed.png"), full_page=False)
    # the name's page now says who claimed it; the profile has the game
    guest.goto(f"{web.base}/solo/{seat_name}")
    guest.wait_for_selector("#solo-claimed-by")
    assert guest.text_content("#solo-claimed-by") == "Zed Claims"
    assert guest.get_attribute("#solo-claimed-by", "href") == f"/u/{name}"
    open_profile(guest, web, name)
    assert guest.text_content("#profile-played") == "1"
    assert guest.locator(f"#profile-recent tr[data-table='{table}']").count() == 1
    assert guest.locator("#profile-solo-games tbody tr").count() == 1
