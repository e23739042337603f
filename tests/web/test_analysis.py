"""The analysis of a finished game: its endpoint and its panel in the replay viewer."""

from __future__ import annotations

import time
from typing import Any

from meeple.sim.analyse import analyse
from tests.server.conftest import Server
from tests.web.driver import phase, shoot


def finished_table(web: Server, game: str = "reefs") -> str:
    t = str(web.api("POST", "/api/tables", json={
        "game": game, "seats": [{"kind": "bot", "bot": "greedy"},
                                {"kind": "bot", "bot": "random"}]}).json()["id"])
    deadline = time.monotonic() + 900
    while web.api("GET", f"/api/tables/{t}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bot table did not finish"
        time.sleep(0.3)
    return t


def test_a_finished_games_analysis_is_the_engines_and_a_running_game_gets_none(
        web: Server) -> None:
    running = web.api("POST", "/api/tables", json={
        "game": "reefs", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
    r = web.api("GET", f"/api/tables/{running['id']}/analysis")
    assert r.status_code == 409 and "only a finished game" in r.json()["detail"]
    assert web.api("GET", "/api/tables/nosuchtable/analysis").status_code == 404
    t = finished_table(web)
    got = web.api("GET", f"/api/tables/{t}/analysis").json()
    record = web.api("GET", f"/api/tables/{t}/record").json()
    assert got["analysis"] == analyse(record).as_dict()
    assert {d["seat"] for d in got["analysis"]["decisions"]} == {0, 1}
    # the greedy seat plays turns as good as the judge's own (ties may be broken otherwise)
    assert all(abs(d["loss"]) < 1e-6 for d in got["analysis"]["decisions"] if d["seat"] == 0)


def test_the_replay_viewer_shows_the_analysis_and_its_bars_go_to_their_turn(
        web: Server, page: Any) -> None:
    t = finished_table(web)
    page.goto(f"{web.base}/t/{t}")
    assert phase(page) == "replay"
    page.click("#rp-analyse")
    page.locator("#rp-analysis .analysis").wait_for(timeout=300_000)
    summary = page.locator("#rp-analysis .an-summary li")
    assert summary.count() == 2
    assert "greedy (0)" in summary.nth(0).inner_text() or "greedy" in summary.nth(0).inner_text()
    a = web.api("GET", f"/api/tables/{t}/analysis").json()["analysis"]
    lost = [d for d in a["decisions"] if not d["matched"]]
    assert lost, "a random seat loses points somewhere"
    d = max(lost, key=lambda d: d["loss"])
    page.click(f"#rp-analysis .an-bar[data-number='{d['number']}']")
    page.wait_for_function(f"() => location.search.includes('at={d['number'] - 1}')")
    # at the position before that turn, the panel names the turn before it; one move on, it
    page.click("#rp-next")
    page.wait_for_function(f"() => location.search.includes('at={d['number']}')")
    here = page.locator("#rp-analysis .an-here").inner_text()
    assert f"move {d['number']}" in here and "would play" in here, here
    assert " ".join(d["best"]) in here
    shoot(page, "reefs", "replay-analysis")
