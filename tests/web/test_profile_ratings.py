"""A profile's ratings (issue 53): after a rated game (conceded: its stand-in finishes it, and
the concession counts as last place), the player's /u/<name> shows the game's rating, the bot
they play like and the rating-history chart. Chromium against a real server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.server.test_accounts import Browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_a_profile_shows_the_rating_and_its_history_chart(page: Any, web: Server) -> None:
    ann = Browser(web)
    try:
        ann.sign_up()
        made = ann.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}], rated=True)
        table = made["table"]["id"]
        r = ann.request("POST", f"/api/tables/{table}/concede", json={"seat": made["seat"]})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 180
        while web.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the stand-in did not finish the game"
            time.sleep(0.3)
        page.goto(f"{web.base}/u/{ann.username}")
        page.wait_for_selector(".profile-rating[data-game='gardens'] svg.rating-chart",
                               timeout=30_000)
        text = page.text_content(".profile-rating[data-game='gardens']")
        assert "1 rated game" in text and "Pick a Pen: Gardens" in text
        label = page.get_attribute(".profile-rating svg.rating-chart", "aria-label")
        assert "1 rated game" in label
        page.locator("#profile-ratings-card").screenshot(path=str(SHOTS / "profile-ratings.png"))
    finally:
        ann.close()
