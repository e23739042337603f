"""The leaderboard page (issue 53): a game's players by rating a page at a time, the bots as
reference rows where their ratings fall, the signed-in player's rating and the bot they play
like, a player's rating history drawn when their row is clicked; the lobby's Rated checkbox
(signed in only) and rating column, and the rating on a table's seat chips. Chromium against
a real server (tests/web/conftest.py); the screenshot docs/screenshots/leaderboard.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meeple.core.rng import Rng
from meeple.store import Store
from meeple.store.models import RatingRow
from tests.server.conftest import Server
from tests.server.test_accounts import Browser
from tests.server.test_ratings import GAME, close, connect, drive, rated_table, signed_up
from tests.web.test_accounts_pages import SHOTS, sign_in

#: Players the page lists at a time (leaderboard.js's PAGE).
PAGE = 25


@pytest.fixture(scope="module")
def rated(web: Server) -> Iterator[tuple[Browser, list[str]]]:
    """Ann, with three rated games against the easy bot played through the server, and 30
    other players whose ratings are written as rated games would leave them."""
    ann, _ = signed_up(web, "ann")
    rng = Rng(5)
    for _ in range(3):
        t = rated_table(ann, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        players = connect(web, t["table"]["id"], {0: t["secret"]})
        try:
            assert drive(players, rng) == "over"
        finally:
            close(players)
    store = Store(web.db_url)
    others = []
    try:
        for k in range(30):
            b, account = signed_up(web, "rival")
            others.append(b.username)
            b.close()
            mu, sigma = 8.0 + k, 2.5 + (k % 4)
            with store.writing() as s:
                s.add(RatingRow(subject=account, game=GAME, mu=mu, sigma=sigma,
                                ordinal=mu - 3 * sigma, games=5 + k))
    finally:
        store.close()
    yield ann, others
    ann.close()


def test_the_leaderboard_pages_with_the_bots_and_a_players_history(
        page: Any, web: Server, rated: tuple[Browser, list[str]]) -> None:
    ann, _ = rated
    sign_in(page, web, ann.username)
    page.wait_for_selector("#signed-in", state="visible")
    page.goto(web.base + "/leaderboard")  # the first game's
    page.wait_for_url("**/leaderboard/*")
    page.goto(web.base + f"/leaderboard/{GAME}")
    page.wait_for_selector("tr.player")
    assert page.text_content("#board-title") == "Takenokolor: leaderboard"
    assert page.get_attribute(f'.game-tabs a[href="/leaderboard/{GAME}"]', "aria-current") == "page"
    # the signed-in player's own line
    page.wait_for_function("() => document.getElementById('me-line').textContent"
                           ".includes('Your rating')")
    mine = page.text_content("#me-line")
    assert "after 3 rated games" in mine and "you play " in mine and "level" in mine
    # the whole leaderboard, page by page, against the API's
    board = web.api("GET", f"/api/leaderboard/{GAME}?limit=100").json()
    assert board["total"] == 31
    seen: list[tuple[str, int]] = []
    bots_seen: list[str] = []
    provisional: list[tuple[str, bool]] = []
    for k in range(2):
        page.wait_for_function(f"() => document.querySelector('tr.player td.rank')?.textContent "
                               f"=== '{k * PAGE + 1}'")
        rows = page.eval_on_selector_all("#board tbody tr", "rs => rs.map(r => [r.className, "
                                         "r.dataset.username || r.dataset.bot, "
                                         "r.children[2].textContent])")
        for cls, who, rating in rows:
            number = int(rating.replace("~", "").replace("?", "").strip())
            if cls.startswith("player"):
                seen.append((who, number))
                provisional.append((who, rating.endswith("?")))
            else:
                assert cls == "bot-row" and rating.startswith("~ ")
                bots_seen.append(who)
        # the rows, bots among them, go down by rating
        numbers = [int(r[2].replace("~", "").replace("?", "").strip()) for r in rows]
        assert numbers == sorted(numbers, reverse=True), numbers
        if k == 0:
            assert page.text_content("#board-pages").strip().startswith("1–25 of 31")
            page.click("#page-lower")
    assert seen == [(p["username"], p["rating"]) for p in board["players"]]
    # a provisional rating (issue 58) is shown with a '?', a settled one without
    assert provisional == [(p["username"], p["provisional"]) for p in board["players"]]
    assert sorted(bots_seen) == ["easy", "hard", "medium"]  # each bot once, where it falls
    # Ann's row: her history, a point per rated game, the bots as dashed lines
    page.click("#page-higher")
    page.wait_for_function("() => document.querySelector('tr.player td.rank')?.textContent "
                           "=== '1'")
    if not page.query_selector(f'tr.player[data-username="{ann.username}"]'):
        page.click("#page-lower")
    page.click(f'tr.player[data-username="{ann.username}"]')
    page.wait_for_selector("#history-chart svg.rating-chart circle.rating-dot")
    assert page.eval_on_selector_all("#history-chart circle.rating-dot", "d => d.length") == 3
    assert page.eval_on_selector_all("#history-chart line.bot-line", "d => d.length") == 3
    links = page.eval_on_selector_all("#history-chart a", "as => as.map(a => a.getAttribute('href'))")
    assert all(h.startswith("/t/") and h.endswith("?replay") for h in links)
    assert "3 rated games" in page.text_content("#history-note")
    # the screenshot: the first page (the bots among the players) with Ann's own history
    if page.query_selector("#page-higher"):
        page.click("#page-higher")
    page.wait_for_selector("tr.bot-row")
    page.click("#my-history")
    page.wait_for_function("() => document.querySelectorAll('#history-chart circle').length "
                           "=== 3")
    page.screenshot(path=str(SHOTS / "leaderboard.png"), full_page=True)


def test_a_guest_sees_the_leaderboard_and_how_to_get_a_rating(
        page: Any, web: Server, rated: tuple[Browser, list[str]]) -> None:
    page.goto(web.base + f"/leaderboard/{GAME}")
    page.wait_for_selector("tr.player")
    assert "Sign in and play rated tables" in page.text_content("#me-line")
    page.goto(web.base + "/leaderboard/reefs")
    page.wait_for_selector("tr.bot-row")
    assert "Nobody has a rating in this game yet" in page.text_content("#board")
    assert page.eval_on_selector_all("tr.bot-row", "rs => rs.length") == 3
    r = page.goto(web.base + "/leaderboard/nosuchgame")  # the site's 404 page
    assert r is not None and r.status == 404
    assert "There is no leaderboard for" in page.text_content("h1")
    assert "no rating" not in page.text_content("body")


def test_the_lobby_creates_a_rated_table_and_its_seats_show_ratings(
        page: Any, web: Server, rated: tuple[Browser, list[str]]) -> None:
    ann, _ = rated
    page.goto(web.base + "/")
    page.wait_for_selector("#seat-fields select")
    assert page.is_hidden("#rated-field")  # a guest is offered no rated table
    sign_in(page, web, ann.username)
    page.wait_for_selector("#signed-in", state="visible")
    page.goto(web.base + "/")
    page.wait_for_selector("#rated-field", state="visible")
    page.select_option("#game", GAME)
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot:random")
    page.check("#rated")
    # a rated table seats the named difficulties only: random is offered no more
    assert page.eval_on_selector('#seat-1 option[value="bot:random"]', "o => o.disabled")
    assert page.input_value("#seat-1") == "bot:medium"
    # signed in, the page keeps no seat secret (the session plays the account's seat); the
    # test plays the seat from outside by the secret the creation still answers
    made: list[Any] = []

    def keep(route: Any) -> None:  # the creation's answer, read before the page moves on
        answer = route.fetch()
        if route.request.method == "POST":
            made.append(answer.json())
        route.fulfill(response=answer)

    page.route("**/api/tables", keep)
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.unroute("**/api/tables")
    created = made[0]
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seat-chip .seat-rating")
    assert page.text_content("#title").endswith("rated")
    chips = page.eval_on_selector_all(".seat-chip", "cs => cs.map(c => c.textContent)")
    assert len(chips) == 2 and all(" · " in c for c in chips)
    table = page.url.rsplit("/", 1)[-1].split("?")[0]
    out = web.api("GET", f"/api/tables/{table}").json()
    assert out["rated"] is True
    assert [f"{s['rating']}{'?' if s['provisional'] else ''}" for s in out["seats"]] == [
        c.split(" · ")[1].split()[0] for c in chips]
    # the game played to its end (by this seat's secret, from here): the page reads the table
    # again and its chips show what the game changed
    seat, secret = int(created["seat"]), str(created["secret"])
    players = connect(web, table, {seat: secret})
    try:
        assert drive(players, Rng(3)) == "over"
    finally:
        close(players)
    page.wait_for_selector(".seat-chip .rating-change")
    done = web.api("GET", f"/api/tables/{table}").json()
    changes = page.eval_on_selector_all(".seat-chip .rating-change", "cs => cs.map(c => c.textContent)")
    assert changes == [f" ({'+' if s['rating_change'] >= 0 else ''}{s['rating_change']})"
                       for s in done["seats"]]
    # the lobby lists it with its rating column
    page.goto(web.base + "/")
    page.wait_for_selector("#finished .rated-tag")
    assert "rated" in page.text_content("#finished")
