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
from tests.server.test_seat_identity import _finished, _join
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


def test_a_page_whose_seat_was_left_and_taken_watches_and_says_why(
        page: Any, web: Server) -> None:
    """The probe's repro as a player meets it: this browser took seat 1 of a 3-seat table by
    its link; the seat is left (its secret, by a script) and another person takes it; the
    page stops playing the seat."""
    r = web.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                              "seats": [{"kind": "human"}] * 3,
                                              "join_as": "Ann"})
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    page.goto(f"{web.base}/t/{table}?join")
    page.wait_for_selector("#join-form", state="visible")
    page.fill("#join-name", "Bob")
    page.select_option("#join-seat", "1")
    page.click("#join-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('seats').textContent"
                           ".includes('(you)')", timeout=60_000)
    secret = page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{table}'].secret")
    r = web.api("POST", f"/api/tables/{table}/leave", json={"seat": 1, "secret": secret})
    assert r.status_code == 200, r.text
    _join(web, table, 1, "Cat")
    page.wait_for_function("() => document.body.dataset.phase === 'watching'", timeout=60_000)
    assert "no longer yours" in (page.text_content("#refusal") or "")
    _join(web, table, 2, "Dan")  # the game starts: Cat's seat, not this page's
    page.wait_for_function("() => document.getElementById('seats').textContent"
                           ".includes('Cat')", timeout=60_000)
    assert not _mine(page) and table not in (_seats(page) or "")
    assert page.evaluate("document.body.dataset.phase") == "watching"


def test_a_stranger_cannot_take_a_seat_at_someone_elses_rematch(page: Any, web: Server) -> None:
    finished, (ann, _) = _finished(web)
    r = web.api("POST", f"/api/tables/{finished}/rematch",
                json={"seat": 0, "secret": ann, "name": "Ann"})
    assert r.status_code == 201, r.text
    rematch = r.json()["table"]["id"]
    page.goto(f"{web.base}/t/{rematch}?join")
    page.wait_for_selector("#join-form", state="visible")
    page.fill("#join-name", "Eve")
    page.click("#join-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('join-error').textContent !== ''")
    said = page.text_content("#join-error") or ""
    assert "This table is a rematch" in said and "You can watch it" in said
    assert "/api/" not in said and "403" not in said
    assert 1 in web.api("GET", f"/api/tables/{rematch}").json()["open_seats"]
    page.screenshot(path=str(SHOTS / "rematch-stranger-refused.png"))


def test_the_lobby_knows_a_signed_in_persons_own_waiting_table(page: Any, web: Server) -> None:
    """No secret is kept for it, yet the lobby's waiting list offers its maker "play", not
    "join" (the account's tables, from My games)."""
    sign_up(page, web, fresh_name())
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "gardens")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "friend")  # signed in: no name asked (the account's)
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = str(page.url.rsplit("/", 1)[1])
    assert table not in (_seats(page) or "")
    page.goto(web.base + "/")
    row = page.locator(f"#waiting tbody tr:has(a[href^='/t/{table}'])")
    row.wait_for(timeout=60_000)
    assert row.locator("a").first.text_content() == "play"
