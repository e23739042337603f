"""Passkeys on /account (issue 52), in Chromium with a virtual authenticator (the DevTools
protocol's WebAuthn domain: a platform authenticator with resident keys and user
verification, as a laptop's): sign up with a password, add a passkey, sign out, sign in with
it (no username or password typed) and see My games, rename and remove it; change the
password; sign up with a passkey alone, where its only passkey cannot be removed, set a
password, and delete an account by confirming with a passkey. The page is opened at
http://localhost:PORT: WebAuthn needs a secure context, and an IP address is no relying party."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server

PASSWORD = "correct horse battery"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def laptop(browser: Any) -> Iterator[tuple[Any, Any]]:
    """A page in a browser with a virtual platform authenticator (its own, empty), and the
    DevTools session that holds it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    cdp.authenticator = found["authenticatorId"]
    try:
        yield page, cdp
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def base(web: Server) -> str:
    return f"http://localhost:{web.port}"


def stored(cdp: Any) -> list[dict[str, Any]]:
    """The credentials the virtual authenticator holds."""
    got: list[dict[str, Any]] = cdp.send("WebAuthn.getCredentials",
                                         {"authenticatorId": cdp.authenticator})["credentials"]
    return got


def text(page: Any, selector: str) -> str:
    return str(page.text_content(selector) or "")


def wait_text(page: Any, selector: str, words: str) -> None:
    page.wait_for_function(
        "([s, w]) => (document.querySelector(s)?.textContent || '').includes(w)",
        arg=[selector, words], timeout=30_000)


def sign_up_with_password(page: Any, web: Server, username: str) -> None:
    page.goto(base(web) + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-display", "Ann Passkey")
    page.click("#signup")
    page.wait_for_selector("#signed-in", state="visible")


def me_status(page: Any) -> int:
    return int(page.evaluate("fetch('/api/me').then((r) => r.status)"))


def test_add_a_passkey_sign_in_with_it_rename_and_remove_it(laptop: tuple[Any, Any],
                                                           web: Server) -> None:
    page, cdp = laptop
    name = f"ann{secrets.token_hex(4)}"
    sign_up_with_password(page, web, name)
    page.wait_for_selector("#passkeys-none", state="visible")
    assert text(page, "#password-title") == "Change password"
    page.fill("#passkey-name", "This laptop")
    page.click("#passkey-add")
    wait_text(page, "#passkeys-status", "added")
    assert text(page, "#passkeys-status") == "Passkey “This laptop” added: you can sign in with it."
    page.wait_for_selector("#passkeys-list li")
    assert page.locator("#passkeys-list li").count() == 1
    assert "never used yet" in text(page, "#passkeys-list li")
    assert len(stored(cdp)) == 1 and stored(cdp)[0]["isResidentCredential"]
    # the same laptop again: it has a passkey for this account already
    page.click("#passkey-add")
    wait_text(page, "#passkeys-status", "has a passkey for this account already")
    assert page.locator("#passkeys-list li").count() == 1

    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    assert me_status(page) == 401
    page.screenshot(path=str(SHOTS / "account-passkey-signin.png"), full_page=True)
    page.click("#passkey-signin")  # no username, no password
    page.wait_for_selector("#signed-in", state="visible")
    assert text(page, "#account-status").startswith("Signed in with a passkey as Ann Passkey")
    assert me_status(page) == 200
    assert page.input_value("#signin-username") == "" and page.input_value("#signin-password") == ""
    wait_text(page, "#passkeys-list li", "last used")
    assert stored(cdp)[0]["signCount"] >= 1
    # signed in: the lobby shows My games
    page.goto(base(web) + "/")
    page.wait_for_selector("#my-games-card", state="visible")
    page.wait_for_function("() => document.getElementById('account-link')?.textContent "
                           "=== 'Ann Passkey'")

    page.goto(base(web) + "/account")
    page.wait_for_selector("#passkeys-list li")
    page.screenshot(path=str(SHOTS / "account-passkeys.png"), full_page=True)
    # rename it
    page.click("#passkeys-list li .passkey-rename")
    page.fill("#passkeys-list li .passkey-new-name", "Work laptop")
    page.click("#passkeys-list li .passkey-save")
    wait_text(page, "#passkeys-status", "renamed")
    # (the status is said before the list is drawn again: wait for the new name)
    page.wait_for_function("() => document.querySelector('#passkeys-list li .passkey-name')"
                           "?.textContent === 'Work laptop'")
    # remove it: asked first, kept on "Keep it"
    page.click("#passkeys-list li .passkey-remove")
    page.click("text=Keep it")
    assert page.locator("#passkeys-list li").count() == 1
    page.click("#passkeys-list li .passkey-remove")
    page.click("#passkeys-list li .passkey-remove-yes")
    wait_text(page, "#passkeys-status", "removed")
    page.wait_for_selector("#passkeys-none", state="visible")
    assert page.locator("#passkeys-list li").count() == 0
    # the authenticator still holds it, but the server no longer takes it
    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    page.click("#passkey-signin")
    wait_text(page, "#passkey-signin-error", "not registered here")
    assert me_status(page) == 401


def test_change_the_password(laptop: tuple[Any, Any], web: Server) -> None:
    page, _ = laptop
    name = f"ann{secrets.token_hex(4)}"
    sign_up_with_password(page, web, name)
    page.fill("#old-password", "not the password at all")
    page.fill("#new-password", "a brand new secret")
    page.click("#password-save")
    wait_text(page, "#password-error", "the password is not this account's")
    assert text(page, "#password-error") == \
        "the password is not this account's; nothing was changed"
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "short")
    page.click("#password-save")
    wait_text(page, "#password-error", "10 to 200")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "a brand new secret")
    page.click("#password-save")
    wait_text(page, "#password-status", "Password changed")
    assert text(page, "#password-error") == ""
    assert me_status(page) == 200  # this browser's new session
    # a change after it carries the new session's CSRF token
    page.select_option("#set-hint-level", "easy")
    wait_text(page, "#settings-status", "Hint level saved.")
    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    page.fill("#signin-username", name)
    page.fill("#signin-password", "a brand new secret")
    page.click("#signin")
    page.wait_for_selector("#signed-in", state="visible")


def test_sign_up_with_a_passkey_alone_set_a_password_and_delete(laptop: tuple[Any, Any],
                                                                web: Server) -> None:
    page, cdp = laptop
    page.goto(base(web) + "/account")
    page.wait_for_selector("#guest", state="visible")
    page.click("#passkey-signup")  # no username yet: the page says what to do
    wait_text(page, "#passkey-signup-error", "Choose a username first")
    name = f"solo{secrets.token_hex(4)}"
    page.fill("#signup-username", name)
    page.fill("#signup-display", "Solo Passkey")
    page.click("#passkey-signup")
    page.wait_for_selector("#signed-in", state="visible")
    assert text(page, "#account-status").startswith(
        "Signed up with a passkey and signed in as Solo Passkey")
    page.wait_for_selector("#passkeys-list li")
    assert text(page, "#password-title") == "Set a password"
    assert not page.is_visible("#old-password") and not page.is_visible("#delete-password")
    assert page.is_visible("#delete-passkey-note")
    # its only passkey cannot go: the server's sentence
    page.click("#passkeys-list li .passkey-remove")
    page.click("#passkeys-list li .passkey-remove-yes")
    wait_text(page, "#passkeys-status", "only way to sign in")
    assert page.locator("#passkeys-list li").count() == 1
    page.screenshot(path=str(SHOTS / "account-passkey-only.png"), full_page=True)
    # deleting: confirmed with the passkey (no password to give)
    page.click("#delete")
    page.click("#delete-yes")
    page.wait_for_selector("#guest", state="visible")
    assert text(page, "#account-status") == "Your account was deleted."
    assert me_status(page) == 401

    # another account of passkeys only sets a password, then signs in with it
    other = f"solo{secrets.token_hex(4)}"
    page.fill("#signup-username", other)
    page.fill("#signup-display", "")
    page.click("#passkey-signup")
    page.wait_for_selector("#signed-in", state="visible")
    page.wait_for_selector("#passkeys-list li")
    page.fill("#new-password", "a brand new secret")
    page.click("#password-save")
    wait_text(page, "#password-status", "Password set")
    page.wait_for_function("() => document.getElementById('password-title').textContent "
                           "=== 'Change password'")
    assert page.is_visible("#old-password") and page.is_visible("#delete-password")
    page.click("#signout")
    page.wait_for_selector("#guest", state="visible")
    page.fill("#signin-username", other)
    page.fill("#signin-password", "a brand new secret")
    page.click("#signin")
    page.wait_for_selector("#signed-in", state="visible")
    assert len(stored(cdp)) == 2


def test_a_cancelled_passkey_and_an_address_say_so(laptop: tuple[Any, Any], web: Server
                                                   ) -> None:
    page, cdp = laptop
    # the person does not verify (the laptop's screen lock refused or dismissed): the
    # browser says NotAllowedError, the page says so in words, nothing is signed in
    cdp.send("WebAuthn.setUserVerified", {"authenticatorId": cdp.authenticator,
                                          "isUserVerified": False})
    page.goto(base(web) + "/account")
    page.wait_for_selector("#guest", state="visible")
    page.fill("#signup-username", f"nope{secrets.token_hex(4)}")
    page.click("#passkey-signup")
    wait_text(page, "#passkey-signup-error", "No passkey was used")
    assert "cancelled" in text(page, "#passkey-signup-error")
    assert me_status(page) == 401 and stored(cdp) == []
    # at an address (no name to be a relying party) the server says what to open instead
    page.goto(web.base + "/account")
    page.wait_for_selector("#guest", state="visible")
    page.click("#passkey-signin")
    wait_text(page, "#passkey-signin-error", "not the address 127.0.0.1")
