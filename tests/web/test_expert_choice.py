"""The expert difficulty as a player meets it: the lobby offers it in every bot seat (fitting a
phone), a table made with it by clicks seats the expert bot, and the table's Hint button offers
the expert level."""

from __future__ import annotations

import re
from typing import Any

from tests.server.conftest import Server
from tests.web.driver import shoot
from tests.web.test_lobby_fit import PHONE, assert_fits, lobby


def _seat_choices(page: Any, i: int) -> dict[str, str]:
    return dict(page.eval_on_selector_all(f"#seat-{i} option",
                                          "os => os.map(o => [o.value, o.textContent])"))


def test_the_lobby_offers_expert_and_a_table_made_with_it_seats_it(page: Any, web: Server) -> None:
    lobby(page, web)
    page.select_option("#game", "gardens")
    page.select_option("#players", "2")
    page.wait_for_selector("#seat-1", state="attached")
    choices = _seat_choices(page, 1)
    assert choices["bot:expert"].startswith("bot: expert")
    # the difficulties in order of strength, expert after hard, before the plain bots
    order = list(choices)
    assert order.index("bot:hard") + 1 == order.index("bot:expert") < order.index("bot:random")
    page.select_option("#seat-0", "me")
    page.select_option("#seat-1", "bot:expert")
    shoot(page, "lobby-expert", "1280")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[^/?#]+$"))  # the lobby opens the new table's page
    table = page.url.rsplit("/t/", 1)[1]
    seats = web.api("GET", f"/api/tables/{table}").json()["seats"]
    assert [s.get("bot") for s in seats] == [None, "expert"]
    # the table page's Hint button offers the expert level too
    page.wait_for_selector("select.hint-level option[value='expert']", state="attached")
    levels = page.eval_on_selector_all("select.hint-level option", "os => os.map(o => o.value)")
    assert levels == ["easy", "medium", "hard", "expert"]


def test_expert_fits_a_phones_seat_choices(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        lobby(page, web)
        for game in ("gardens", "takenokolor"):
            page.select_option("#game", game)
            players = page.eval_on_selector_all("#players option", "os => os.map(o => o.value)")
            page.select_option("#players", players[-1])
            page.wait_for_selector(f"#seat-{int(players[-1]) - 1}", state="attached")
            for i in range(int(players[-1])):  # the longest choice, expert's, in every bot seat
                page.select_option(f"#seat-{i}", "bot:expert" if i else "me")
            assert_fits(page, f"{game}, {players[-1]} seats of expert")
        shoot(page, "lobby-expert", "375")
    finally:
        ctx.close()
