"""One identity per seat in the browser (issue 58), Chromium on two devices (two browser
contexts: their own cookies and localStorage) against a real server on SQLite and on
PostgreSQL: a table made signed in keeps no secret in the page's storage, and sign-out
everywhere from the other device turns its page into a spectator that can no longer move; a
guest's seat is claimed into the account at sign-up and removed from the browser, played on
by the session, and sign-out there leaves the browser no seat at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server, db_url, free_port
from tests.web.driver import create_from_lobby
from tests.web.test_accounts_pages import fresh_name, other, sign_in, sign_up

__all__ = ["db_url", "other"]  # fixtures, used by name

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PLAYING = "() => ['my-turn', 'complete', 'waiting'].includes(document.body.dataset.phase)"


@pytest.fixture(scope="module")
def web(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on each store (the module's ``db_url``: SQLite, then PostgreSQL)."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _seats(page: Any) -> str | None:
    got: str | None = page.evaluate("localStorage.getItem('meeple.seats')")
    return got


def _mine(page: Any) -> bool:
    """Whether the page shows a seat as this person's ("(you)")."""
    return "(you)" in (page.text_content("#seats") or "")


def test_a_table_made_signed_in_is_the_accounts_and_sign_out_everywhere_ends_it(
        page: Any, other: Any, web: Server) -> None:
    name = fresh_name()
    sign_up(page, web, name)
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    page.wait_for_function(PLAYING, timeout=60_000)
    page.wait_for_function("() => document.getElementById('seats').textContent"
                           ".includes('(you)')")
    # the seat is the account's: no secret for it in this browser
    assert table not in (_seats(page) or "")
    # the other device signs out everywhere
    sign_in(other, web, name)
    other.wait_for_selector("#signed-in", state="visible")
    other.click("#signout-all")
    other.wait_for_selector("#guest", state="visible")
    # this page watches now: no "(you)", no move offered, and it says why
    page.wait_for_function("() => document.body.dataset.phase === 'watching'", timeout=60_000)
    assert "signed out" in (page.text_content("#refusal") or "").lower()
    assert not _mine(page)
    assert page.locator("#choices button.choice").count() == 0
    page.screenshot(path=str(SHOTS / "seat-identity-signed-out-everywhere.png"))
    # opened again, it is still a spectator (nothing kept that could play the seat)
    page.goto(f"{web.base}/t/{table}")
    page.wait_for_function("() => document.body.dataset.phase === 'watching'", timeout=60_000)
    assert not _mine(page) and table not in (_seats(page) or "")


def test_a_guests_seat_is_claimed_at_sign_up_and_sign_out_leaves_no_seat(
        page: Any, other: Any, web: Server) -> None:
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    page.wait_for_function(PLAYING, timeout=60_000)
    assert table in (_seats(page) or "")  # a guest: the secret is this browser's
    name = fresh_name()
    sign_up(page, web, name)
    assert "1 seat of this browser claimed into your account" in \
        page.text_content("#account-status")
    assert _seats(page) in (None, "{}")  # claimed: removed from the browser
    # the page plays the seat by the session
    page.goto(f"{web.base}/t/{table}")
    page.wait_for_function(PLAYING, timeout=60_000)
    page.wait_for_function("() => document.getElementById('seats').textContent"
                           ".includes('(you)')")
    # so does the other device, signed in to the account
    sign_in(other, web, name)
    other.wait_for_selector("#signed-in", state="visible")
    other.goto(f"{web.base}/t/{table}")
    other.wait_for_function(PLAYING, timeout=60_000)
    assert _mine(other)
    # signed out on the first device (in another tab): its table page watches
    tab = page.context.new_page()
    tab.goto(f"{web.base}/account")
    tab.wait_for_selector("#signout", state="visible")
    tab.click("#signout")
    tab.wait_for_selector("#guest", state="visible")
    page.wait_for_function("() => document.body.dataset.phase === 'watching'", timeout=60_000)
    assert not _mine(page) and _seats(page) in (None, "{}")
    assert "sign in again" in (page.text_content("#refusal") or "").lower()
    page.set_viewport_size({"width": 375, "height": 800})
    page.screenshot(path=str(SHOTS / "seat-identity-signed-out-375.png"))
    # the other device plays on
    assert _mine(other)
    assert other.evaluate("document.body.dataset.phase") != "watching"
