"""Turn-based tables in the browser (issue 54), Chromium against a real server: the lobby's
create form offers the pace (a move's time and a time bank), the table page shows them in
days and hours on the seat chips and its title, "Notify me" (its click only; the permission
granted through the browser context) shows a notification when a turn of yours comes while the
tab is hidden, and the lobby's My games shows the time left to move and labels the table, as
the lobby's lists do.

``MEEPLE_SCREENSHOTS=1`` writes docs/screenshots/lobby-turn-based.png, table-turn-based.png and
lobby-my-games-turn-based.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import phase, play_turn, scroll_to
from tests.web.test_accounts_pages import fresh_name, sign_up
from tests.web.test_table_ux import shoot

#: Before any script of the page: notifications are recorded instead of shown, and the tab can
#: be made "hidden" (document.hidden) by the test.
SPY = """
window.__notes = [];
window.__hidden = false;
const Real = window.Notification;
function Spy(title, options) {
  window.__notes.push({ title, body: (options || {}).body || "" });
  this.addEventListener = () => {};
  this.close = () => {};
}
Object.defineProperty(Spy, "permission", { get: () => Real.permission });
Spy.requestPermission = (...args) => Real.requestPermission(...args);
window.Notification = Spy;
Object.defineProperty(document, "hidden", { get: () => window.__hidden, configurable: true });
"""


@pytest.fixture
def granted(browser: Any, web: Server) -> Iterator[Any]:
    """A page in a browser context that granted this site notifications."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.grant_permissions(["notifications"], origin=web.base)
    ctx.add_init_script(SPY)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def test_a_turn_based_table_from_the_lobby_to_my_games(granted: Any, web: Server) -> None:
    page = granted
    sign_up(page, web, fresh_name())
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "gardens")
    page.select_option("#opt-level", "1")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot:random")
    # the pace: live shows the turn clock; turn-based a move's time and a time bank instead
    assert page.is_visible("#live-clock") and not page.is_visible("#turn-clock")
    page.select_option("#pace", "turn-based")
    assert page.is_visible("#turn-clock") and not page.is_visible("#live-clock")
    page.select_option("#move-time", "86400")
    page.select_option("#bank", "259200")
    scroll_to(page, "#new-table")
    shoot(page, "lobby-turn-based")
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = str(page.url.rsplit("/", 1)[1])
    got = web.api("GET", f"/api/tables/{table}").json()
    assert (got["pace"], got["clock"], got["bank"]) == ("turn-based", 86400, 259200)
    # the table page: the pace in its title, each person's move time and bank on their chip
    page.wait_for_function("() => document.getElementById('title').textContent"
                           ".includes('turn-based')")
    assert "turn-based: 1 d a move, a time bank of 3 d" in page.inner_text("#title")
    assert phase(page) in ("my-turn", "complete")
    page.wait_for_selector("#seats .seat-clock.turn-based.running[data-seat='0']")
    chip = page.inner_text("#seats .seat-clock[data-seat='0']")
    assert " left · bank 3 d" in chip and ("23 h" in chip or "1 d" in chip), chip
    assert page.locator("#seats .seat-clock[data-seat='1']").count() == 0  # a bot's seat
    # Notify me: nothing is asked before the click; after it, notifications are on
    assert page.evaluate("window.__notes.length") == 0
    assert page.inner_text("#notify-me") == "Notify me"
    page.click("#notify-me")
    page.wait_for_function("() => document.getElementById('notify-me').textContent"
                           " === 'Turn notifications off'")
    assert "tells you when it is your turn" in page.inner_text("#notify-state")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-turn-based")
    # the tab hidden: Ann plays her turn, the bot its own, and her next turn is notified
    page.evaluate("window.__hidden = true")
    play_turn(page, Rng(54))
    page.wait_for_function("() => window.__notes.length > 0", timeout=120_000)
    note = page.evaluate("window.__notes[0]")
    assert note["title"] == "Your turn: Pick a Pen: Gardens", note
    # turned off again: no more notifications from this browser
    page.evaluate("window.__hidden = false")
    page.click("#notify-me")
    assert page.inner_text("#notify-me") == "Notify me"
    # My games: the table, labelled turn-based, with the time left to move
    page.goto(web.base + "/")
    row = f"#my-games tr[data-table='{table}']"
    page.wait_for_selector(row)
    page.wait_for_function(f"() => document.querySelector(\"{row}\").textContent"
                           ".includes('left')", timeout=60_000)
    text = page.inner_text(row)
    assert "turn-based" in text and "your turn" in text, text
    # the time until a stand-in would play: the move's day and the 3-day bank
    assert "4 d left" in text or "3 d 23 h left" in text, text
    assert page.is_visible("#my-games-card #notify-me")
    # the lobby's list of tables being played labels it too
    page.wait_for_function("() => [...document.querySelectorAll('#running td')].some("
                           "(td) => td.textContent.includes('turn-based · 1 d a move'))",
                           timeout=30_000)
    scroll_to(page, "#my-games-card")
    shoot(page, "lobby-my-games-turn-based")


def test_the_account_page_keeps_an_address_and_the_mail_settings(page: Any, web: Server
                                                                  ) -> None:
    sign_up(page, web, fresh_name())
    page.wait_for_selector("#mail-card")
    # the test server sends no mail (no MEEPLE_SMTP_URL): the page says so, keeps no address
    page.wait_for_function("() => !document.getElementById('mail-off').classList"
                           ".contains('hidden')")
    assert page.is_disabled("#email-save")
    assert page.is_checked("#notify-turn") and page.is_checked("#notify-rematch")
    page.uncheck("#notify-rematch")
    page.wait_for_function("() => document.getElementById('mail-status').textContent"
                           " === 'Mail settings saved.'")
    got = page.evaluate("fetch('/api/me/mail').then((r) => r.json())")
    assert got["notify"] == {"turn": True, "ended": True, "rematch": False,
                             "challenge": True}, got
    scroll_to(page, "#mail-card")
    shoot(page, "account-mail")


def test_a_mails_link_opens_a_page_whose_button_acts(page: Any, web: Server) -> None:
    # opening the link changes nothing: the page says what the button does; a link whose
    # signature is not the server's is refused with the server's sentence
    query = f"a={'0' * 16}&k=turn&s={'0' * 64}"
    page.goto(f"{web.base}/mail/unsubscribe?{query}")
    page.wait_for_selector("#mail-confirm:not(.hidden)")
    assert page.inner_text("#mail-title") == "Stop these mails"
    assert "no more mail when it is your turn at a turn-based table" in page.inner_text(
        "#mail-text")
    shoot(page, "mail-unsubscribe")
    page.click("#mail-confirm")
    page.wait_for_function("() => document.getElementById('mail-error').textContent !== ''")
    assert "not one this server signed" in page.inner_text("#mail-error")
    page.goto(f"{web.base}/mail/verify?a={'0' * 16}&e={'ab' * 12}&x=1&s={'0' * 64}")
    page.wait_for_selector("#mail-confirm:not(.hidden)")
    assert page.inner_text("#mail-confirm") == "Confirm my address"
