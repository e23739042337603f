"""An Arena where a person in Chromium meets a bot account run by ``meeple agent``: the person
joins from the tournament's page, the server pairs the two when the window opens, the person
follows the game's link and plays it by clicks while the agent plays its seat over the API,
and each game the Arena pairs her at while its window is open; once the window has closed and
the games ended the Arena is finished, its standings the points of the stored games (2 a win,
1 a draw, 0 a loss), summed."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from meeple.core.rng import Rng
from meeple.server.features.tournaments.pairing import place_points
from tests.cli.test_agent import agent, finish
from tests.server.conftest import Server
from tests.server.test_api_tokens import with_token
from tests.server.test_event_stream import bot_account
from tests.web.driver import click_through, phase
from tests.web.test_accounts_pages import fresh_name, sign_up


def test_an_arena_with_a_person_in_chromium_and_a_bot_agent(page: Any, web: Server,
                                                           tmp_path: Path) -> None:
    robo, secret = bot_account(web, ("play", "tournament", "read"))
    robo_name = robo.username
    robo.close()
    starts = (datetime.now(UTC) + timedelta(seconds=25)).isoformat()
    with with_token(web, secret) as c:  # any account may make one: here the bot's owner
        r = c.post("/api/tournaments", json={
            "name": "Quick Arena", "kind": "arena", "game": "takenokolor", "variant": {},
            "seats": 2, "pace": "live", "clock": 60, "rated": True, "bots": True,
            "starts": starts, "duration": 30})
        assert r.status_code == 201, r.text
        tid = r.json()["tournament"]["id"]
    token = tmp_path / "robo.token"
    token.write_text(secret + "\n")
    proc = agent(web, token, "--policy", "bot:random", "--tournament", tid, "--quiet")
    try:
        sign_up(page, web, fresh_name(), display="Ann")
        page.goto(f"{web.base}/tournaments/{tid}")
        page.click("#tn-join")
        page.wait_for_selector("#tn-withdraw", state="visible")
        page.wait_for_function(
            "() => document.querySelectorAll('#tn-entries li').length === 2", timeout=60_000)
        assert page.locator("#tn-entries .bot-badge").count() == 1
        # the window opens: the two are paired, and the page links the game
        page.wait_for_selector(".tn-game-link", timeout=90_000)
        page.click(".tn-game-link")
        page.wait_for_url("**/t/**")
        table = page.url.split("/t/")[1]
        click_through(page, Rng(11))
        assert phase(page) == "over"
        # while the window is open a free player is paired again: Ann plays each game the
        # Arena gives her, from its link, until the Arena is over
        deadline = time.monotonic() + 240
        while (got := web.api("GET", f"/api/tournaments/{tid}").json()
               )["tournament"]["state"] != "finished":
            assert time.monotonic() < deadline, got
            waiting = [x["url"] for r in got["rounds"] for x in r["pairings"]
                       if x.get("status") != "finished" and any(
                           p["display_name"] == "Ann" for p in x.get("players", ()))]
            if waiting:
                page.goto(web.base + waiting[0])
                click_through(page, Rng(12))
            else:
                time.sleep(0.5)
        page.goto(f"{web.base}/tournaments/{tid}")
        page.wait_for_function(
            "() => /finished/i.test(document.querySelector('#tn-state').textContent)")
        # the standings are the stored games' points by place (2 a win, 1 a draw), summed
        want: dict[str, list[int]] = {}
        for x in (x for r in got["rounds"] for x in r["pairings"]):
            gained = place_points([p["place"] for p in x["players"]])
            for p, points in zip(x["players"], gained, strict=True):
                line = want.setdefault(p["name"], [0, 0])
                line[0] += points
                line[1] += 1
        assert {line["name"]: [line["points"], line["games"]] for line in got["standings"]} \
            == want, got["standings"]
        assert robo_name in want and table in {x["table"] for r in got["rounds"]
                                                for x in r["pairings"]}
        proc.send_signal(signal.SIGTERM)
        code, err = finish(proc, timeout=60)
        assert code == 0 and f"finished table {table}" in err, err[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
