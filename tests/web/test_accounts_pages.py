"""The account pages (issue 52): /account's sign up, sign out, sign in (a wrong password says
so and changes nothing), the settings, the export and the deletion; a guest's seats claimed at
sign-in; the lobby's My games from a second browser signed in to the same account, and the
header's link to /account. Chromium against a real server (tests/web/conftest.py)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.driver import create_from_lobby

PASSWORD = "correct horse battery"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def fresh_name() -> str:
    return f"ann{secrets.token_hex(4)}"


def sign_up(page: Any, web: Server, username: str, display: str = "Ann Example") -> None:
    page.goto(web.base + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-display", display)
    page.click("#signup")
    page.wait_for_selector("#signed-in", state="visible")


def sign_in(page: Any, web: Server, username: str, password: str = PASSWORD) -> None:
    page.goto(web.base + "/account")
    page.wait_for_selector("#signin-form", state="visible")
    page.fill("#signin-username", username)
    page.fill("#signin-password", password)
    page.click("#signin")


def me_status(page: Any) -> int:
    return int(page.evaluate("fetch('/api/me').then((r) => r.status)"))


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """A second browser context (another browser: its own cookies and localStorage)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def test_sign_up_sign_out_a_wrong_password_and_sign_in(page: Any, web: Server) -> None:
    name = fresh_name()
    page.goto(web.base + "/account")
    page.wait_for_selector("#guest", state="visible")
    page.screenshot(path=str(SHOTS / "account-guest.png"), full_page=True)
    sign_up(page, web, name)
    assert page.text_content("#me-display") == "Ann Example"
    assert "Signed up and signed in as Ann Example" in page.text_content("#account-status")
    assert me_status(page) == 200
    page.screenshot(path=str(SHOTS / "account-signed-in.png"), full_page=True)
    # the header of the lobby names the account, and links here
    page.goto(web.base + "/")
    page.wait_for_function("() => document.getElementById('account-link')?.textContent "
                           "=== 'Ann Example'")
    assert page.get_attribute("#account-link", "href") == "/account"

    page.goto(web.base + "/account")
    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    assert page.text_content("#account-status") == "Signed out."
    assert me_status(page) == 401

    sign_in(page, web, name, "not the password at all")
    page.wait_for_function("() => document.getElementById('signin-error').textContent !== ''")
    assert page.text_content("#signin-error") == "wrong username or password"
    assert page.is_visible("#guest") and not page.is_visible("#signed-in")
    assert me_status(page) == 401
    page.screenshot(path=str(SHOTS / "account-wrong-password.png"), full_page=True)

    sign_in(page, web, name.upper())  # any case of the username
    page.wait_for_selector("#signed-in", state="visible")
    assert page.text_content("#me-display") == "Ann Example"
    assert me_status(page) == 200
    # a sign-up with a username taken: the server's sentence, no status code
    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    page.fill("#signup-username", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_function("() => document.getElementById('signup-error').textContent !== ''")
    assert "409" not in page.text_content("#signup-error")
    assert "taken" in page.text_content("#signup-error")


def test_settings_are_kept_and_sign_out_everywhere(page: Any, other: Any, web: Server) -> None:
    name = fresh_name()
    sign_up(page, web, name)
    page.check("#set-colour-blind")  # a PATCH: it needs the CSRF token
    page.wait_for_function("() => document.getElementById('settings-status').textContent "
                           "=== 'Colour-blind mode saved.'")
    page.select_option("#set-hint-level", "hard")
    page.wait_for_function("() => document.getElementById('settings-status').textContent "
                           "=== 'Hint level saved.'")
    sign_in(other, web, name)
    other.wait_for_selector("#signed-in", state="visible")
    assert other.is_checked("#set-colour-blind")
    assert other.input_value("#set-hint-level") == "hard"
    assert other.evaluate("localStorage.getItem('meeple.cb')") == "1"
    other.click("#signout-all")
    other.wait_for_selector("#guest", state="visible")
    assert "Signed out everywhere (2 sessions ended)" in other.text_content("#account-status")
    assert me_status(page) == 401


def test_a_guests_seat_is_claimed_at_sign_in_and_listed_in_my_games_elsewhere(
        page: Any, other: Any, web: Server) -> None:
    name = fresh_name()
    sign_up(other, web, name)  # the account exists; this browser is a guest
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    sign_in(page, web, name)
    page.wait_for_selector("#signed-in", state="visible")
    assert "1 seat of this browser claimed into your account" in \
        page.text_content("#account-status")
    # the second browser, signed in to the account, lists it first in the lobby
    other.goto(web.base + "/")
    other.wait_for_selector(f"#my-games tr[data-table='{table}']")
    row = other.locator(f"#my-games tr[data-table='{table}']")
    assert "Pick a Pen: Gardens" in row.text_content()
    assert "Ann" in row.text_content()
    other.screenshot(path=str(SHOTS / "lobby-my-games.png"), full_page=False)
    # a table made by the signed-in browser in the lobby (its POST carries the CSRF token)
    mine = create_from_lobby(other, web, "gardens", {"level": "1"}, 2)
    other.goto(web.base + "/")
    other.wait_for_selector(f"#my-games tr[data-table='{mine}']")
    row.locator("a").click()
    other.wait_for_url(f"**/t/{table}")
    other.wait_for_selector("#board svg", state="attached", timeout=60_000)
    other.wait_for_function("() => document.getElementById('account-link')?.textContent "
                            "=== 'Ann Example'")


def test_export_downloads_json_and_delete_asks_the_password(page: Any, web: Server,
                                                            tmp_path: Path) -> None:
    name = fresh_name()
    sign_up(page, web, name)
    with page.expect_download() as info:
        page.click("#export")
    saved = tmp_path / "export.json"
    info.value.save_as(saved)
    assert info.value.suggested_filename == f"meeple-{name}.json"
    records = json.loads(saved.read_text(encoding="utf-8"))
    assert records["account"]["username"] == name

    page.fill("#delete-password", "not the password at all")
    page.click("#delete")
    page.wait_for_selector("#delete-confirm", state="visible")
    page.screenshot(path=str(SHOTS / "account-delete-confirm.png"), full_page=True)
    page.click("#delete-yes")
    page.wait_for_function("() => document.getElementById('delete-error').textContent !== ''")
    assert "password" in page.text_content("#delete-error")
    assert me_status(page) == 200  # nothing changed
    page.fill("#delete-password", PASSWORD)
    page.click("#delete")
    page.click("#delete-no")  # cancelled: still there
    assert me_status(page) == 200
    page.click("#delete")
    page.click("#delete-yes")
    page.wait_for_selector("#guest", state="visible")
    assert page.text_content("#account-status") == "Your account was deleted."
    assert me_status(page) == 401
    sign_in(page, web, name)
    page.wait_for_function("() => document.getElementById('signin-error').textContent !== ''")
    assert page.text_content("#signin-error") == "wrong username or password"
