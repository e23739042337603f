"""An account's seat on a second device (issue 52): a table made in one browser signed in to
an account is played from another browser signed in to the same account, which keeps no
secret for it (the session is the proof); signing out there turns that page into a spectator
(the server closes its socket with 4401) while the first browser, which keeps the seat's
secret, plays on. Chromium against a real server (tests/web/conftest.py)."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, phase, play_turn, version
from tests.web.test_accounts_pages import fresh_name, other, sign_in, sign_up

__all__ = ["other"]  # the fixture, used by name


def test_a_second_browser_plays_the_accounts_seat_and_watches_once_signed_out(
        page: Any, other: Any, web: Server) -> None:
    name = fresh_name()
    sign_up(page, web, name)
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    page.wait_for_function("() => ['my-turn', 'complete', 'waiting']"
                           ".includes(document.body.dataset.phase)", timeout=60_000)
    # the second browser: no seat in its storage, only the account's session
    sign_in(other, web, name)
    other.wait_for_selector("#signed-in", state="visible")
    assert other.evaluate("localStorage.getItem('meeple.seats')") in (None, "{}")
    other.goto(f"{web.base}/t/{table}")
    other.wait_for_function("() => ['my-turn', 'complete', 'waiting']"
                            ".includes(document.body.dataset.phase)", timeout=60_000)
    other.wait_for_function("() => ['my-turn', 'complete']"
                            ".includes(document.body.dataset.phase)", timeout=120_000)
    before = version(page)
    play_turn(other, Rng(7))
    # the first browser sees the turn played on the second
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}",
                           timeout=60_000)
    # signed out on the second browser (in another tab of it): its table page only watches
    signed_out = other.context.new_page()
    signed_out.goto(f"{web.base}/account")
    signed_out.wait_for_selector("#signout", state="visible")
    signed_out.click("#signout")
    signed_out.wait_for_selector("#guest", state="visible")
    other.wait_for_function("() => document.body.dataset.phase === 'watching'",
                            timeout=60_000)
    assert "signed out" in (other.text_content("#refusal") or "").lower()
    other.wait_for_function("() => document.getElementById('account-link')?.textContent "
                            "=== 'Sign in'")
    # the first browser still plays its seat
    page.wait_for_function("() => ['my-turn', 'complete']"
                           ".includes(document.body.dataset.phase)", timeout=120_000)
    assert phase(page) in ("my-turn", "complete")
    play_turn(page, Rng(8))
