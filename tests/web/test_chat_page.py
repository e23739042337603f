"""The table chat on the table page (issue 54), in Chromium against a real server: a player and
a signed-in spectator (two browser contexts: two browsers) chat; a message holding markup shows
as text; muting an author folds their messages in this browser and the muted list unmutes;
reporting a message says thanks (and, again, that it was reported already); the counter near
the limit; an anonymous spectator is told to sign in; a table of bots only has no chat; the
panel at 375 px; a finished game's replay shows its chat, read only (tests/web/conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.server.test_chat import Chatter
from tests.web.driver import SHOTS, create_from_lobby, scroll_to
from tests.web.test_accounts_pages import fresh_name, other, sign_up

__all__ = ["other"]  # the fixture, used by name

HOSTILE = "<script>window.chatPwned = 1</script><b>not bold</b> <img src=x onerror=alert(1)>"


@pytest.fixture
def third(browser: Any) -> Iterator[Any]:
    """A third browser: an anonymous spectator, on a phone's width."""
    ctx = browser.new_context(viewport={"width": 375, "height": 740})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def chat_ready(pg: Any, can_post: bool = True) -> None:
    pg.wait_for_selector("#chat", state="visible")
    if can_post:
        pg.wait_for_function("() => !document.getElementById('chat-input').disabled",
                             timeout=60_000)


def post(pg: Any, text: str, enter: bool = True) -> None:
    pg.fill("#chat-input", text)
    if enter:
        pg.press("#chat-input", "Enter")
    else:
        pg.click("#chat-send")
    # the server's answer comes back: the input is emptied
    pg.wait_for_function("() => document.getElementById('chat-input').value === ''",
                         timeout=60_000)


def texts(pg: Any) -> list[str]:
    return list(pg.eval_on_selector_all("#chat-list > li.chat-msg .chat-text",
                                        "(els) => els.map((e) => e.textContent)"))


def wait_text(pg: Any, text: str) -> None:
    pg.wait_for_function(
        "(t) => [...document.querySelectorAll('#chat-list .chat-text')]"
        ".some((e) => e.textContent === t)", arg=text, timeout=60_000)


def test_a_player_and_a_signed_in_spectator_chat(page: Any, other: Any, third: Any,
                                                 web: Server) -> None:
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    chat_ready(page)
    assert page.text_content("#chat-title") == "Table chat"
    assert page.text_content("#chat-list") == "No messages yet."
    # the spectator: another browser, signed in
    sign_up(other, web, fresh_name(), display="Cy Watcher")
    other.goto(f"{web.base}/t/{table}")
    chat_ready(other)
    post(page, "Hello Cy, welcome!")
    wait_text(other, "Hello Cy, welcome!")
    post(other, "Good luck, Ann", enter=False)
    wait_text(page, "Good luck, Ann")
    last = page.locator("#chat-list > li.chat-msg").last
    assert last.locator(".chat-name").text_content() == "Cy Watcher"
    assert "(spectator)" in (last.text_content() or "")
    # own messages carry no Mute or Report; the others' do
    mine = page.locator("#chat-list > li.chat-msg").first
    assert mine.locator(".chat-mute").count() == 0 and "mine" in (mine.get_attribute("class") or "")
    # markup stays text: no script ran, no element was made of it
    post(other, HOSTILE)
    wait_text(page, HOSTILE)
    assert page.evaluate("window.chatPwned") is None
    assert page.locator("#chat-list b, #chat-list img, #chat-list script").count() == 0
    assert texts(page) == ["Hello Cy, welcome!", "Good luck, Ann", HOSTILE]
    # an anonymous spectator on a phone reads, and is told to sign in to chat
    third.goto(f"{web.base}/t/{table}")
    chat_ready(third, can_post=False)
    third.wait_for_function("() => document.getElementById('chat-list')"
                            ".querySelectorAll('li.chat-msg').length === 3")
    assert third.is_disabled("#chat-input") and third.is_disabled("#chat-send")
    assert "Sign in to chat as a spectator" in (third.text_content("#chat-note") or "")
    assert third.get_attribute("#chat-note a", "href") == "/account"
    assert third.evaluate("document.documentElement.scrollWidth") <= 375
    box = third.locator("#chat").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    scroll_to(third, "#chat")
    third.locator("#chat").screenshot(path=str(SHOTS / "table-chat-phone.png"))

    # the counter near the limit, and a message over it cannot be sent
    page.fill("#chat-input", "x" * 399)
    assert page.is_hidden("#chat-count")
    page.fill("#chat-input", "x" * 450)
    assert page.text_content("#chat-count") == "450/500" and page.is_enabled("#chat-send")
    page.fill("#chat-input", "é" * 510)
    assert page.text_content("#chat-count") == "510/500: too long"
    assert page.is_disabled("#chat-send")
    page.fill("#chat-input", "")

    # report: a reason typed in the page, the server's thanks; again: reported already
    other.locator("#chat-list > li.chat-msg").first.locator(".chat-report-button").click()
    other.wait_for_selector("#chat-report-form", state="visible")
    assert "Ann's message" in (other.text_content("#chat-report-form label") or "")
    other.fill("#chat-report-reason", "rude greeting")
    other.click("#chat-report-send")
    other.wait_for_function("() => document.getElementById('chat-note').textContent"
                            ".startsWith('Thank you')", timeout=60_000)
    assert other.is_hidden("#chat-report")
    other.locator("#chat-list > li.chat-msg").first.locator(".chat-report-button").click()
    other.fill("#chat-report-reason", "still rude")
    other.click("#chat-report-send")
    other.wait_for_function("() => document.getElementById('chat-note').textContent"
                            ".includes('reported this message already')", timeout=60_000)

    # mute the spectator in Ann's browser: their messages fold, new ones too
    page.locator("#chat-list > li.chat-msg").nth(1).locator(".chat-mute").click()
    page.wait_for_selector("#chat-list > li.chat-folded")
    assert page.text_content("#chat-list > li.chat-folded summary") == "2 muted messages"
    assert texts(page) == ["Hello Cy, welcome!"]
    post(other, "can you hear me?")
    page.wait_for_function("() => document.querySelector('#chat-list > li.chat-folded summary')"
                           "?.textContent === '3 muted messages'", timeout=60_000)
    assert page.text_content("#chat-muted summary") == "Muted players (1)"
    # kept in this browser: a reload still folds them
    page.reload()
    chat_ready(page)
    page.wait_for_selector("#chat-list > li.chat-folded")
    assert texts(page) == ["Hello Cy, welcome!"]
    # a folded group opens on a click; the list unmutes
    page.click("#chat-list > li.chat-folded summary")
    assert page.locator("#chat-list li.chat-folded li.chat-msg").count() == 3
    page.click("#chat-muted summary")
    page.click("#chat-muted .chat-unmute")
    page.wait_for_function("() => !document.querySelector('#chat-list > li.chat-folded')")
    assert texts(page) == ["Hello Cy, welcome!", "Good luck, Ann", HOSTILE, "can you hear me?"]
    assert page.is_hidden("#chat-muted")

    # the screenshot: the player's page with the chat, a report being written
    page.locator("#chat-list > li.chat-msg").nth(3).locator(".chat-report-button").click()
    page.fill("#chat-report-reason", "spam")
    page.fill("#chat-input", "Thanks, see you next game")
    page.evaluate("document.getElementById('chat').scrollIntoView({block: 'end'})")
    page.screenshot(path=str(SHOTS / "table-chat.png"))


def test_a_table_of_bots_only_has_no_chat_panel(page: Any, web: Server) -> None:
    made = web.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1},
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    assert made.status_code == 201
    page.goto(f"{web.base}/t/{made.json()['id']}?live")
    page.wait_for_function("() => document.getElementById('conn').textContent === 'connected'"
                           " || document.body.dataset.phase", timeout=60_000)
    page.wait_for_selector("#board svg, #board pre", timeout=60_000)
    assert page.locator("#chat").count() == 0


def test_a_finished_games_replay_shows_its_chat_read_only(page: Any, web: Server) -> None:
    made = web.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1}, "seats": [{"kind": "human", "bot": "random"}],
        "join_as": "Ann"}).json()
    table = made["table"]["id"]
    ann = Chatter(web, table, 0, made["secret"])
    assert ann.say("good game, everyone")["type"] == "chat"
    ann.close()
    # Ann leaves; her stand-in (random) plays the game to its end
    r = web.api("POST", f"/api/tables/{table}/leave", json={"seat": 0, "secret": made["secret"]})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while web.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the stand-in did not finish the game"
        time.sleep(0.2)
    page.goto(f"{web.base}/t/{table}")
    page.wait_for_selector("#chat", state="visible")
    wait_text(page, "good game, everyone")
    assert page.is_hidden("#chat-form")
    assert page.get_attribute("#chat-note a", "href") == f"/t/{table}?live"
