"""The end of a game on the table page, in Chromium: the end panel lists every seat's whole
score pad row by row (labels as the pad reads, values equal to the engine's, read back from the
record by ``meeple.replay``) and the winners, both live and in the replay's last position; the
Pergola solo verdict with the printed neighbours' scores; a player's solo achievement page that
agrees with ``solo.thousand_club``; announcements in a line of their own, off the choices.
``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/end-*.png and solo-achievements.png."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.games.pergola import CHALLENGES, challenge_report, thousand_club
from tests.server.conftest import Server
from tests.web.driver import phase
from tests.web.test_play_pages import create_from_lobby

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SOLO_NAME = "Wanda"


def shoot(page: Any, name: str) -> None:
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    try:  # a palette of 256 colours keeps the committed PNGs small
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass


def finished_bot_table(web: Server, game: str, variant: dict[str, Any],
                       seats: list[dict[str, Any]], limit: float = 900) -> str:
    """A table of bot seats only (named as given), once its bots have played it to the end."""
    r = web.api("POST", "/api/tables", json={"game": game, "variant": variant, "seats": seats})
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    deadline = time.monotonic() + limit
    while web.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"{game} table {table} did not finish"
        time.sleep(0.3)
    return table


def bots(*names: str, bot: str = "random") -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": bot, "name": n} for n in names]


def end_panel(page: Any) -> dict[str, Any]:
    """The end panel as the page shows it: header names, and per row its key, label, cells."""
    page.wait_for_selector("#end-table", timeout=60_000)
    return dict(page.evaluate("""() => {
      const t = document.querySelector('#end-table');
      const head = [...t.querySelectorAll('thead th')].slice(1).map(th => th.textContent.trim());
      const rows = [...t.querySelectorAll('tbody tr')].map(tr => ({
        key: tr.dataset.row, label: tr.querySelector('th').textContent.trim(),
        cells: [...tr.querySelectorAll('td')].map(td => Number(td.textContent.trim())),
      }));
      const w = document.querySelector('#end-winners');
      return {head, rows, winners: w ? JSON.parse(w.dataset.winners) : null,
              text: w ? w.textContent : ''};
    }"""))


def check_panel(shown: dict[str, Any], state: Any, layout: dict[str, Any]) -> None:
    scores = state.scores()
    keys = list(scores[0].breakdown)
    assert [r["key"] for r in shown["rows"]] == [*keys, "total"]
    labels = {r["key"]: r["label"] for r in layout.get("score_rows") or
              layout.get("score_pad") or []}
    for row in shown["rows"][:-1]:
        assert row["cells"] == [s.breakdown[row["key"]] for s in scores], row["key"]
        if labels:  # the pad's words, not the engine's keys
            assert row["label"] == labels[row["key"]]
    assert shown["rows"][-1]["cells"] == [s.total for s in scores]
    winners = state.winners()
    assert shown["winners"] == winners
    for i, name in enumerate(state.seats):
        assert shown["head"][i] == (f"★ {name}" if i in winners else name)
        if i in winners:
            assert name in shown["text"]


TWO_SEATS = [("gardens", {"level": 3}), ("reefs", {"level": 3}), ("pergola", {})]


@pytest.mark.parametrize(("game", "variant"), TWO_SEATS, ids=[g for g, _ in TWO_SEATS])
def test_the_end_panel_shows_every_seats_pad_and_the_winners(page: Any, web: Server, game: str,
                                                            variant: dict[str, Any]) -> None:
    table = finished_bot_table(web, game, variant, bots("Ann", "Bob"))
    state = meeple.replay(web.api("GET", f"/api/tables/{table}/record").json())
    assert state.is_over
    layout = web.api("GET", f"/api/tables/{table}/layout").json()["layout"]
    if game in ("gardens", "reefs"):
        assert all(r["label"] != r["key"] for r in layout["score_rows"])
    # live (watching the finished table) and in the replay at its last position
    page.goto(f"{web.base}/t/{table}?live")
    assert phase(page) == "over"
    check_panel(end_panel(page), state, layout)
    shoot(page, f"end-{game}")
    page.goto(f"{web.base}/t/{table}")
    assert phase(page) == "replay"
    page.wait_for_function("() => !document.querySelector('#end-panel').classList"
                           ".contains('hidden')", timeout=60_000)
    check_panel(end_panel(page), state, layout)
    total = len(state.history)
    assert page.inner_text("#rp-at") == f"move {total} of {total}"
    # one move back the game is not over: no end panel
    page.click("#rp-prev")
    page.wait_for_function("() => document.querySelector('#end-panel').classList"
                           ".contains('hidden')", timeout=60_000)
    # a link to a position opens there
    page.goto(f"{web.base}/t/{table}?replay&at=5")
    page.wait_for_function(f"() => document.querySelector('#rp-at').textContent === "
                           f"'move 5 of {total}'", timeout=60_000)
    assert page.locator("#end-panel").is_hidden()


def test_a_shared_win_names_every_winner(page: Any, web: Server) -> None:
    page.goto(web.base + "/")
    text = page.evaluate("""async () => {
      const { renderEnd } = await import('/static/js/endgame.js');
      const box = document.createElement('div');
      const pad = (a, b) => ({ total: a + b, rows: { x: a, y: b } });
      renderEnd(box, { view: { over: true, players: 3, winners: [0, 2],
        seats: [{ name: 'Ann', total: 7 }, { name: 'Bob', total: 5 }, { name: 'Cy', total: 7 }],
        scores: [pad(3, 4), pad(5, 0), pad(7, 0)] }, layout: {}, me: 1 });
      return [box.querySelector('#end-winners').textContent,
              [...box.querySelectorAll('thead th')].map(th => th.textContent)];
    }""")
    assert text[0] == "Ann and Cy share the win with 7 points each."
    assert text[1] == ["row", "★ Ann", "Bob", "★ Cy"]


def test_the_pergola_solo_end_and_the_achievement_page(page: Any, web: Server) -> None:
    # a random bot (which seldom meets a challenge) and greedy ones (which often do)
    played = [(4, "random"), (4, "greedy"), (9, "greedy"), (10, "greedy")]
    tables = [finished_bot_table(web, "pergola", {"challenge": c}, bots(SOLO_NAME, bot=b))
              for c, b in played]
    finished_bot_table(web, "pergola", {"challenge": 4}, bots("Not Wanda"))
    reports = {t: challenge_report(meeple.replay(
        web.api("GET", f"/api/tables/{t}/record").json())) for t in tables}  # type: ignore[arg-type]
    table = tables[0]
    rep = reports[table]
    page.goto(f"{web.base}/t/{table}")
    page.wait_for_selector("#end-solo", timeout=60_000)
    solo = page.locator("#end-solo")
    assert solo.get_attribute("data-met") == str(rep["met"]).lower()
    assert solo.get_attribute("data-recorded") == str(rep["recorded_as"])
    text = solo.inner_text()
    assert ("Challenge 4 met" in text) is rep["met"]
    assert ("Challenge 4 not met" in text) is (not rep["met"])
    where = "recorded at challenge 4" if rep["met"] else "recorded in the Free game space"
    assert where in text
    assert page.locator("#end-winners").count() == 0  # no "winner" in solo
    neighbours = page.eval_on_selector_all(
        "#end-neighbours tbody tr",
        "trs => trs.map(tr => [tr.dataset.challenge, ...[...tr.children].slice(1, 3)"
        ".map(td => td.textContent)])")
    expected = [[str(4), str(CHALLENGES[3].przemek), str(CHALLENGES[3].golab)]]
    if not rep["met"]:
        expected.append(["10", str(CHALLENGES[9].przemek), str(CHALLENGES[9].golab)])
    assert neighbours == expected
    shoot(page, "end-pergola-solo")
    # the solo end panel links the achievement table
    page.click("#end-solo-link")
    page.wait_for_url(f"**/solo/{SOLO_NAME}")
    page.wait_for_function("() => document.body.dataset.loaded === '1'", timeout=60_000)
    club = thousand_club(reports.values())
    best = page.eval_on_selector_all(
        "#solo-table tbody tr[data-space]",
        "trs => trs.map(tr => [Number(tr.dataset.space), "
        "tr.querySelector('[data-best]').dataset.best])")
    assert [n for n, _ in best] == list(range(1, 11))
    assert {n: int(b) for n, b in best if b} == club["best"]
    assert page.inner_text("#solo-total") == str(club["total"])
    line = page.inner_text("#club")
    assert ("is in the 1000 club" in line) is club["member"]
    assert (f"{len(club['missing'])} spaces still empty" in line) is bool(club["missing"])
    assert ("the Free game" in line) is (10 in club["missing"])
    assert page.locator("#solo-games tbody tr").count() == len(played)
    shoot(page, "solo-achievements")
    # the lobby's finished solo tables link it too
    page.goto(web.base + "/")
    link = page.locator(f"#finished a.solo-link[href='/solo/{SOLO_NAME}']").first
    link.wait_for(timeout=60_000)
    # a name with no solo game: an empty table, said in words
    page.goto(f"{web.base}/solo/Nobody%20Here")
    page.wait_for_function("() => document.body.dataset.loaded === '1'", timeout=60_000)
    assert "has not finished a Pergola solo game yet" in page.inner_text("#club")
    assert page.locator("#solo-table [data-best='']").count() == 10


def test_announcements_stay_in_their_own_line_on_a_phone(browser: Any, web: Server) -> None:
    """Announcements have a line of their own in the page's flow (issue 39 #3; more in
    test_table_ux.py): the latest replace the last, and no choice is drawn under them."""
    ctx = browser.new_context(viewport={"width": 375, "height": 700})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
        assert phase(page) == "my-turn"
        page.wait_for_selector("#choices button.choice")
        result = page.evaluate("""async () => {
          const { announce } = await import('/static/js/toasts.js');
          announce(['announcement 1', 'announcement 2']);
          announce(['announcement 3', 'announcement 4']);
          const box = document.querySelector('#news');
          const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
            && b.top < a.bottom;
          const avoid = [...document.querySelectorAll(
            '#status, #choices button, #turnbar button:not(.hidden), #board .lit, #pad td')]
            .map(n => n.getBoundingClientRect()).filter(r => r.width && r.height);
          const covered = avoid.some(r => hit(box.getBoundingClientRect(), r));
          return {items: [...box.querySelectorAll('.news-item')].map(d => d.textContent),
                  position: getComputedStyle(box).position, covered, avoided: avoid.length};
        }""")
        assert result["items"] == ["announcement 3", "announcement 4"]  # the latest only
        assert result["position"] == "static"
        assert result["avoided"] > 0 and not result["covered"]
    finally:
        ctx.close()
    assert not errors, errors
