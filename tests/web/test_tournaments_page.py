"""Tournaments in the browser (issue 60): a person creates a Swiss from the lobby's form and
joins it on its page; a second person joins from the lobby's list; a bot account enters by
its token; the page shows the entrants (BOT badge) and, once it starts, the round's pairings
with a link to each game and a bye. Chromium against a real server (tests/web/conftest.py);
screenshots at 1280 and 375 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.server.test_api_tokens import bot_account, make_token, with_token
from tests.web.test_accounts_pages import fresh_name, other, sign_up

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
__all__ = ["other"]  # the fixture, used by name


def test_create_join_and_watch_a_tournament_from_the_pages(page: Any, other: Any,
                                                           web: Server) -> None:
    sign_up(page, web, fresh_name(), display="Ann")
    page.goto(web.base + "/")
    page.wait_for_selector("#tournaments-card")
    page.click("#tn-create summary")
    page.fill("#tn-name", "Sunday Swiss")
    page.select_option("#tn-kind", "swiss")
    page.select_option("#tn-game", "takenokolor")
    page.fill("#tn-rounds", "1")
    page.check("#tn-bots")
    # it starts 25 seconds from now (the field takes the browser's local time)
    page.eval_on_selector("#tn-starts", """el => {
        const d = new Date(Date.now() + 25000), p = (n) => String(n).padStart(2, "0");
        el.value = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T` +
                   `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`; }""")
    page.click("#tn-go")
    page.wait_for_url("**/tournaments/**")
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#tn-join", state="visible")
    assert "Starts" in page.text_content("#tn-state")
    page.click("#tn-join")
    page.wait_for_selector("#tn-withdraw", state="visible")
    assert "Ann" in page.text_content("#tn-entries")
    # a second person joins from the lobby's list
    sign_up(other, web, fresh_name(), display="Bea")
    other.goto(web.base + "/")
    join = f"#tn-upcoming button[data-tournament='{tid}']"
    other.wait_for_selector(join)
    assert other.text_content(join) == "Join"
    other.click(join)
    other.wait_for_function("(sel) => document.querySelector(sel).textContent === 'Withdraw'",
                            arg=join)
    other.screenshot(path=str(SHOTS / "lobby-tournaments.png"))
    # a bot account enters by its token (bots are allowed): marked BOT among the entrants
    robo, _ = bot_account(web)
    secret, _ = make_token(robo, ["tournament"])
    with with_token(web, secret) as c:
        assert c.post(f"/api/tournaments/{tid}/join").status_code == 200
    page.wait_for_function("() => document.querySelectorAll('#tn-entries li').length === 3")
    assert page.locator("#tn-entries .bot-badge").count() == 1
    # once it starts: the round's table, linked, and the bye
    page.wait_for_selector(".tn-game-link", timeout=90_000)
    assert "Being played" in page.text_content("#tn-state")
    href = page.get_attribute(".tn-game-link", "href")
    assert href is not None and href.startswith("/t/")
    assert "has a bye" in page.text_content("#tn-rounds")
    assert page.locator("#tn-standings tbody tr").count() == 3
    page.screenshot(path=str(SHOTS / "tournament.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    page.screenshot(path=str(SHOTS / "tournament-375.png"), full_page=True)
    # the game's link opens its table
    page.click(".tn-game-link")
    page.wait_for_url(f"**{href}")
    robo.close()
