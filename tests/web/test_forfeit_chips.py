"""What a player sees of places with forfeits and of provisional ratings (issue 58), in
Chromium against a real server: a rated two-seat Gardens table at which each person moves,
then Bob concedes and Ann leaves, the bots finish.

- while it runs, Bob's chip says he conceded and a bot plays for him, and no chip at this
  clockless table speaks of time running out;
- once over, the result line puts Ann (who stayed longer) first and says who gave up; the
  chips show each new rating with a '?' (provisional) and a tooltip that explains the size
  of the change. Screenshots at 1280 and 375 px."""

from __future__ import annotations

import time
from typing import Any

from meeple.core.rng import Rng
from meeple.store import Store
from tests.server.conftest import Server
from tests.server.test_accounts import Browser
from tests.server.test_forfeit_places import each_moves_once, finished
from tests.server.test_ratings import close, connect
from tests.web.test_accounts_pages import SHOTS


def chip(page: Any, seat: int) -> str:
    return str(page.text_content(f".seat-chip[data-seat='{seat}']"))


def test_the_chips_and_result_line_after_concede_then_leave(page: Any, web: Server) -> None:
    ann, bob, watcher = Browser(web), Browser(web), Browser(web)
    store = Store(web.db_url)
    try:
        # the seats bear the accounts' display names (src/meeple/server/features/accounts/README.md)
        ann.sign_up(display_name="Ann")
        bob.sign_up(display_name="Bob")
        made = ann.request("POST", "/api/tables", json={
            "game": "gardens", "variant": {"level": 1}, "rated": True, "join_as": "Ann",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        players = connect(web, table, {0: made.json()["secret"], 1: r.json()["secret"]})
        try:
            each_moves_once(store, players, table, Rng(5))
        finally:
            close(players)
        assert bob.request("POST", f"/api/tables/{table}/concede",
                           json={"seat": 1}).status_code == 200
        page.goto(f"{web.base}/t/{table}")
        page.wait_for_selector(".seat-chip[data-seat='1']")
        page.wait_for_function("() => document.querySelector('.seat-chip[data-seat=\"1\"]')"
                               "?.textContent.includes('conceded')")
        bob_chip = chip(page, 1)
        assert "conceded: a bot plays for them to the end" in bob_chip, bob_chip
        assert "placed below the players who play on" in bob_chip
        assert "1500?" in bob_chip  # a new rating: provisional
        for seat in (0, 1):
            assert "time ran out" not in chip(page, seat)
            assert "last place" not in chip(page, seat)
        assert ann.request("POST", f"/api/tables/{table}/leave",
                           json={"seat": 0}).status_code == 200
        finished(web, table)
        page.goto(f"{web.base}/t/{table}")
        page.wait_for_selector("#end-winners")
        page.wait_for_function("() => document.querySelector('#end-winners')"
                               "?.textContent.includes('conceded')")
        line = str(page.text_content("#end-winners"))
        # both gave up: Ann stayed longer and is first, yet nobody won; who went when
        assert "Ann is placed first" in line and "nobody's win" in line, line
        assert "Bob conceded first, then Ann left" in line, line
        assert "Ann wins" not in str(page.text_content("#status"))
        page.wait_for_selector(".seat-chip[data-seat='0'] .rating-change")
        ann_chip, bob_chip = chip(page, 0), chip(page, 1)
        assert "left: 1st place" in ann_chip and "conceded: 2nd place" in bob_chip
        assert "time ran out" not in ann_chip + bob_chip
        seats = web.api("GET", f"/api/tables/{table}").json()["seats"]
        up, down = seats[0]["rating_change"], seats[1]["rating_change"]
        assert up > 0 > down
        assert f"{seats[0]['rating']}?" in ann_chip and f"(+{up})" in ann_chip
        tip = page.get_attribute(".seat-chip[data-seat='0'] .seat-rating", "title")
        assert tip is not None and tip.startswith(f"+{up}, place 1 of 2")
        assert "new (provisional" in tip and "moves fast" in tip
        tip = page.get_attribute(".seat-chip[data-seat='1'] .seat-rating", "title")
        assert tip is not None and "place 2 of 2 (conceded: placed below" in tip
        page.locator("#seats").screenshot(path=str(SHOTS / "forfeit-chips.png"))
        page.screenshot(path=str(SHOTS / "forfeit-end-1280.png"))
        page.set_viewport_size({"width": 375, "height": 800})
        time.sleep(0.3)  # (the layout settles at the new width)
        page.screenshot(path=str(SHOTS / "forfeit-end-375.png"))
    finally:
        store.close()
        for b in (ann, bob, watcher):
            b.close()
