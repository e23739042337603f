"""Challenges in the pages (issue 60): two browser contexts signed in to two accounts; one
challenges the other from their profile, the other sees the banner on the page it has open
and accepts, and both land on the same table playing their own seats; a decline's reason is
shown to the challenger; a table page offers to challenge the accounts seated there.
Chromium against a real server (tests/web/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.web.driver import scroll_to
from tests.web.test_accounts_pages import fresh_name, other, sign_up

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
__all__ = ["other"]  # the fixture, used by name


def _challenge_from_profile(page: Any, web: Server, username: str, shot: str | None = None
                            ) -> None:
    page.goto(f"{web.base}/u/{username}")
    page.click(".challenge-open")
    page.wait_for_selector("#challenge-dialog[open]")
    page.select_option("#ch-game", "gardens")
    page.select_option("#ch-seat", "1")  # seat 2: the challenged account moves first
    if shot:
        page.screenshot(path=str(SHOTS / f"{shot}-1280.png"))
        page.set_viewport_size({"width": 375, "height": 740})
        page.screenshot(path=str(SHOTS / f"{shot}-375.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#ch-send")
    page.wait_for_selector("#challenge-dialog", state="detached")
    page.wait_for_selector(".challenge-banner .challenge.outgoing")


def test_a_challenge_from_a_profile_is_accepted_and_both_land_at_one_table(
        page: Any, other: Any, web: Server) -> None:
    ann, bea = fresh_name(), fresh_name()
    sign_up(page, web, ann, display="Ann")
    sign_up(other, web, bea, display="Bea")
    other.goto(web.base + "/")  # Bea has the lobby open
    _challenge_from_profile(page, web, bea, shot="challenge-dialog")
    assert "Waiting for an answer" in page.text_content(".challenge.outgoing")
    # Bea's page finds it by polling and shows who, what, and Accept / Decline
    card = other.wait_for_selector(".challenge-banner .challenge.incoming", timeout=20_000)
    text = card.text_content()
    # the name Ann shows (as everywhere on the site), with the game and its terms
    assert text.startswith("Ann challenges you") and "Pick a Pen: Gardens" in text, text
    assert "rated" in text, text
    other.screenshot(path=str(SHOTS / "challenge-banner-1280.png"))
    other.set_viewport_size({"width": 375, "height": 740})
    other.screenshot(path=str(SHOTS / "challenge-banner-375.png"))
    other.set_viewport_size({"width": 1280, "height": 900})
    other.click(".challenge.incoming .accept")
    other.wait_for_url("**/t/**", timeout=30_000)
    page.wait_for_url("**/t/**", timeout=30_000)  # the challenger's page follows
    table = other.url.split("/t/")[1]
    assert page.url.split("/t/")[1] == table
    # each plays its own seat by session: Bea seat 1, Ann seat 2
    for p, seat in ((other, "0"), (page, "1")):
        p.wait_for_selector(f".seat-chip.me[data-seat='{seat}']", timeout=60_000)
    # the table page offers to challenge the other account seated there
    btn = page.wait_for_selector("#challenge-players .challenge-open", timeout=20_000)
    assert btn.get_attribute("data-username") == bea
    page.set_viewport_size({"width": 375, "height": 740})
    scroll_to(page, "#challenge-players")
    page.screenshot(path=str(SHOTS / "challenge-table-375.png"))


def test_a_declined_challenge_shows_its_reason_to_the_challenger(
        page: Any, other: Any, web: Server) -> None:
    ann, bea = fresh_name(), fresh_name()
    sign_up(page, web, ann, display="Ann")
    sign_up(other, web, bea, display="Bea")
    other.goto(web.base + "/")
    _challenge_from_profile(page, web, bea)
    other.wait_for_selector(".challenge.incoming", timeout=20_000)
    other.click(".challenge.incoming .decline summary")
    other.select_option(".challenge.incoming .decline-reason", "tooFast")
    other.click(".challenge.incoming .decline-send")
    other.wait_for_selector(".challenge.incoming", state="detached", timeout=20_000)
    note = page.wait_for_selector(".challenge-banner .challenge.note", timeout=20_000)
    assert (note.text_content() or "").startswith("Bea declined your challenge")
    assert "this clock is too fast for me" in (note.text_content() or "")
    page.click(".challenge.note .dismiss")
    page.wait_for_selector(".challenge-banner .challenge", state="detached")
