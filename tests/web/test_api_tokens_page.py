"""API tokens and bot accounts in the pages (issue 60): /account makes a token (its secret
shown once, copied, gone after), lists it and revokes it; a bot account's BOT badge on the
leaderboard (and its show/hide toggle), on a table's seat chip and on its profile. Chromium
against a real server (tests/web/conftest.py); screenshots in docs/screenshots."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from meeple.store import Store
from meeple.store.models import RatingRow
from tests.server.conftest import TLS, Server
from tests.server.test_accounts import Browser
from tests.server.test_api_tokens import make_token, with_token
from tests.web.test_accounts_pages import SHOTS, fresh_name, sign_up


def test_the_account_page_makes_shows_once_and_revokes_a_token(browser: Any, web: Server
                                                                ) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.base)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(page, web, fresh_name())
        page.wait_for_selector("#tokens-none", state="visible")
        page.fill("#token-name", "my bot")
        page.check("input[name=token-scope][value=read]")
        page.select_option("#token-expiry", "90")
        page.click("#token-make")
        page.wait_for_selector("#token-secret-box", state="visible")
        secret = page.text_content("#token-secret") or ""
        assert secret.startswith("mpl_") and len(secret) == 47
        row = page.locator("#tokens-list li")
        for words in ("my bot", "scopes: play, read", "never used"):  # (the list is read anew)
            expect(row).to_contain_text(words)
        assert row.count() == 1
        page.screenshot(path=str(SHOTS / "account-token-made.png"), full_page=True)
        page.click("#token-copy")
        page.wait_for_function("() => document.getElementById('token-copied').textContent")
        assert page.evaluate("navigator.clipboard.readText()") == secret
        # the token works for a program
        with with_token(web, secret) as c:
            assert c.get("/api/me").status_code == 200
        # once copied and dismissed, the secret is nowhere in the page, nor after a reload
        page.click("#token-done")
        page.wait_for_selector("#token-secret-box", state="hidden")
        assert secret not in page.content()
        page.reload()
        page.wait_for_selector("#tokens-list li")
        assert secret not in page.content()
        assert "last used" in (page.locator("#tokens-list li").first.text_content() or "")
        page.set_viewport_size({"width": 375, "height": 800})
        page.locator("#tokens-card").screenshot(path=str(SHOTS / "account-tokens-phone.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        # revoke: asked first, then refused for every request
        page.click(".token-revoke")
        page.click(".token-revoke-yes")
        page.wait_for_selector("#tokens-none", state="visible")
        assert "revoked" in (page.text_content("#tokens-status") or "")
        with with_token(web, secret) as c:
            r = c.get("/api/me")
            assert r.status_code == 401 and "revoked" in r.json()["detail"]
        # a scope-less token is refused with the server's words
        page.uncheck("input[name=token-scope][value=play]")
        page.fill("#token-name", "nothing")
        page.click("#token-make")
        page.wait_for_function("() => document.getElementById('tokens-status').textContent"
                               ".includes('at least one scope')")
        assert page.locator("#token-secret-box").is_hidden()
    finally:
        ctx.close()
    assert not errors, errors


def test_a_bot_account_shows_bot_on_the_leaderboard_a_seat_chip_and_its_profile(
        page: Any, web: Server) -> None:
    robo = Browser(web)
    robo.sign_up(fresh_name())
    secret, _ = make_token(robo, ["play"])
    with with_token(web, secret) as c:
        account = c.post("/api/me/bot").json()["account"]
        made = c.post("/api/tables", json={"game": "takenokolor", "variant": {},
                                           "seats": [{"kind": "human"}, {"kind": "human"}],
                                           "join_as": "Robo"})
        assert made.status_code == 201, made.text
    person = Browser(web)
    person.sign_up(fresh_name())
    person_id = person.http.get("/api/me").json()["account"]["id"]
    store = Store(web.db_url)
    try:  # ratings as rated games would leave them (the ratings tests play those)
        with store.writing() as s:
            s.add(RatingRow(subject=account["id"], game="takenokolor", mu=60.0, sigma=2.0,
                            ordinal=54.0, games=9))
            s.add(RatingRow(subject=person_id, game="takenokolor", mu=59.0, sigma=2.0,
                            ordinal=53.0, games=9))
    finally:
        store.close()
    page.goto(web.base + "/leaderboard/takenokolor")
    row = page.locator(f"tr.player[data-username='{robo.username}']")
    row.wait_for()
    assert row.locator(".bot-badge").text_content() == "BOT"
    human = page.locator(f"tr.player[data-username='{person.username}']")
    assert human.locator(".bot-badge").count() == 0
    page.screenshot(path=str(SHOTS / "leaderboard-bot-account.png"))
    # hidden with the toggle (and kept in the address), shown again
    page.uncheck("#bots-toggle")
    row.wait_for(state="detached")
    assert human.count() == 1 and "bot_accounts=hide" in page.url
    page.reload()
    page.wait_for_selector(f"tr.player[data-username='{person.username}']")
    assert not page.is_checked("#bots-toggle") and row.count() == 0
    page.check("#bots-toggle")
    row.wait_for()
    # the seat chip of its table, seen by a spectator
    table = made.json()["table"]["id"]
    page.goto(f"{web.base}/t/{table}")
    chip = page.locator(".seat-chip[data-seat='0']")
    chip.wait_for()
    assert chip.locator(".bot-badge").text_content() == "BOT"
    assert page.locator(".seat-chip[data-seat='1'] .bot-badge").count() == 0
    page.screenshot(path=str(SHOTS / "table-bot-account-chip.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    page.screenshot(path=str(SHOTS / "table-bot-account-chip-phone.png"))
    # its profile
    page.goto(f"{web.base}/u/{robo.username}")
    page.wait_for_selector("#profile-name .bot-badge")
    assert page.text_content("#profile-name") == f"{account['display_name']}BOT"
    robo.close()
    person.close()
    assert httpx.get(f"{web.base}/api/users/{robo.username}", verify=TLS).json()["bot_account"]
