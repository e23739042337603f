"""The lobby and the solo page as a player meets them (issue 39 #5, #6, #9): the lobby fits a
375 px phone with every kind of row in it; Pergola's challenges are named, each with its goal;
a wrong table address and ``/solo/`` without a name answer a clear page with a way back; the
lobby asks the server nothing it refuses."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.driver import shoot

PHONE = {"width": 375, "height": 800}

#: what sticks out past the right edge of the screen: (tag#id.class, right edge), widest first
OVERFLOW = """(w) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => [e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
               (typeof e.className === 'string' && e.className ? '.' + e.className : ''),
               Math.round(e.getBoundingClientRect().right)])
  .filter(([, r]) => r > w).sort((a, b) => b[1] - a[1]).slice(0, 8)"""

#: what sticks out of its card (a select past the card's border): (tag#id, right, card's right)
OUT_OF_CARD = """() => [...document.querySelectorAll('.card *')]
  .filter((e) => e.getClientRects().length)
  .map((e) => [e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''),
               Math.round(e.getBoundingClientRect().right),
               Math.round(e.closest('.card').getBoundingClientRect().right)])
  .filter(([, r, c]) => r > c).slice(0, 8)"""


@pytest.fixture(scope="module")
def finished_solo(web: Server) -> str:
    """A finished, listed Pergola solo table (a bot's), so the lobby lists a finished row with
    its achievements link."""
    r = web.api("POST", "/api/tables", json={
        "game": "pergola", "variant": {"challenge": 3}, "public": True,
        "seats": [{"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    deadline = time.monotonic() + 300
    while web.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bot did not finish its solo game"
        time.sleep(0.5)
    return table


def lobby(page: Any, web: Server) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")


def assert_fits(page: Any, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    out = page.evaluate(OVERFLOW, 375)
    assert width <= 375 and not out, f"{what}: the page is {width} px wide on a 375 px phone; " \
                                     f"past the edge: {out}"
    assert not page.evaluate(OUT_OF_CARD), f"{what}: out of its card: {page.evaluate(OUT_OF_CARD)}"


# ---------------------------------------------------------------- #5 the lobby on a phone
def test_the_lobby_fits_a_phone(browser: Any, web: Server, finished_solo: str) -> None:
    # a waiting table with the longest things a row shows: a 20-letter name without a space,
    # a shipped sheet's name, a bot spec
    r = web.api("POST", "/api/tables", json={
        "game": "takenokolor", "variant": {"sheet": "4-pandas-river"}, "public": True,
        "join_as": "Bartholomew_the_3rd_", "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "mcts:seconds=1"},
            {"kind": "bot", "bot": "hard"}]})
    assert r.status_code == 201, r.text
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        lobby(page, web)
        page.wait_for_selector("#finished a.solo-link")
        page.wait_for_selector("#waiting a:text('join')")
        for game in ("gardens", "reefs", "takenokolor", "pergola"):
            page.select_option("#game", game)
            players = page.eval_on_selector_all("#players option", "os => os.map(o => o.value)")
            page.select_option("#players", players[-1])  # the most seat selects
            page.wait_for_selector(f"#seat-{int(players[-1]) - 1}", state="attached")
            for i in range(int(players[-1])):  # the longest choice in every seat
                page.select_option(f"#seat-{i}", "bot:hard" if i else "me")
            assert_fits(page, f"{game}, {players[-1]} players")
        page.select_option("#game", "pergola")
        page.select_option("#opt-challenge", "4")
        assert_fits(page, "a Pergola solo challenge")
        shoot(page, "lobby", "375")
    finally:
        ctx.close()


# ---------------------------------------------------------------- #6 the challenges named
def test_pergola_challenges_are_named_with_their_goal(page: Any, web: Server) -> None:
    lobby(page, web)
    page.select_option("#game", "pergola")
    labels = page.eval_on_selector_all("#opt-challenge option", "os => os.map(o => o.textContent)")
    assert labels[0].startswith("none")
    assert labels[1] == "1. A ladybug on each magnolia level", labels
    assert labels[10] == "10. Free game", labels
    goal = page.locator("#challenge-goal")
    assert goal.is_hidden()  # no challenge: a game against others, no goal to state
    page.select_option("#opt-challenge", "3")
    assert "at least 4 ladybugs, 4 bees and 4 butterflies" in goal.inner_text()
    assert page.eval_on_selector("#players", "s => s.value") == "1"
    page.select_option("#opt-challenge", "")
    assert goal.is_hidden()


def test_the_new_solo_table_states_its_goal_from_the_first_turn(page: Any, web: Server) -> None:
    """The view a solo table page gets before its first move carries the challenge, its goal
    and the progress so far (what the table page shows)."""
    lobby(page, web)
    page.select_option("#game", "pergola")
    page.select_option("#opt-challenge", "9")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/", 1)[1]
    view = web.api("GET", f"/api/tables/{table}/view").json()
    ch = view["view"]["board"]["challenge"] if "view" in view else view["board"]["challenge"]
    assert ch["number"] == 9 and ch["title"] == "At least 4 dragonflies"
    assert ch["goal"] == "at least 4 dragonflies of any size"
    assert ch["progress"] == "0 of 4 dragonflies" and ch["met"] is False


# ---------------------------------------------------------------- #9 wrong addresses
def test_a_wrong_table_address_is_a_404_with_the_way_back(browser: Any, web: Server) -> None:
    r = web.api("GET", "/t/no-such-table")
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"]
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        resp = page.goto(web.base + "/t/nosuchtable7?replay")
        assert resp is not None and resp.status == 404
        text = page.inner_text("main")
        assert "nosuchtable7" in text and "no table" in text.lower()
        assert page.locator("main a[href='/']").count() >= 1
        assert not page.locator(".card:empty").count()
        assert not errors
        assert_fits(page, "the missing table page")
        shoot(page, "table", "404")
        page.click("main a[href='/']")
        page.wait_for_selector("#game option", state="attached")
    finally:
        ctx.close()


def test_a_real_table_address_still_opens_the_table(page: Any, web: Server,
                                                    finished_solo: str) -> None:
    resp = page.goto(web.base + f"/t/{finished_solo}?replay")
    assert resp is not None and resp.status == 200
    page.wait_for_function("() => document.body.dataset.phase === 'replay'")


def test_solo_without_a_name_asks_for_one(page: Any, web: Server, finished_solo: str) -> None:
    for address in ("/solo/", "/solo"):
        page.goto(web.base + address)
        page.wait_for_selector("body[data-loaded='1']", state="attached")
        title = page.inner_text("#solo-title").strip()
        assert title and not title.startswith(":"), title
        assert "name" in page.inner_text("#club").lower()
        assert page.locator("#solo-table").is_hidden()
    bot = web.api("GET", f"/api/tables/{finished_solo}").json()["seats"][0]["name"]
    link = page.locator("#solo-players a", has_text=bot)
    assert link.count() == 1  # the players with a finished solo game, to pick from
    shoot(page, "solo", "no-name")
    page.fill("#solo-name", bot)
    page.click("#solo-go")
    page.wait_for_selector("#solo-table tbody tr")
    assert page.inner_text("#solo-title").startswith(bot)


def test_the_solo_page_of_a_player(browser: Any, web: Server, finished_solo: str) -> None:
    bot = web.api("GET", f"/api/tables/{finished_solo}").json()["seats"][0]["name"]
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(web.base + f"/solo/{bot}")
        page.wait_for_selector("#solo-table tbody tr")
        assert "3. At least 4 insects of each type" in page.inner_text("#solo-games")
        assert_fits(page, "the solo page")
        shoot(page, "solo", "375")
    finally:
        ctx.close()


def test_the_lobby_asks_nothing_the_server_refuses(page: Any, web: Server) -> None:
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    lobby(page, web)
    for game in ("pergola", "gardens", "pergola", "reefs", "takenokolor"):
        page.select_option("#game", game)
        hidden = game == "pergola"
        page.wait_for_selector("#own-sheet" + (".hidden" if hidden else ":not(.hidden)"),
                               state="attached")
    page.wait_for_load_state("networkidle")
    assert not refused, refused
