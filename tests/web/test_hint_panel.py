"""The hint module of the table page (``static/js/hint.js``): button, level, panel."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.server.test_play import create, join


def test_the_hint_button_shows_the_servers_hint_and_its_errors(web: Server, page: Any,
                                                              tmp_path: Path) -> None:
    joined = create(web, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}],
                    join_as="Ann")
    table = joined["table"]["id"]
    bob = join(web, table, "Bob")
    secrets = {joined["seat"]: joined["secret"], bob["seat"]: bob["secret"]}
    view: dict[str, Any] = {}
    for _ in range(100):
        view = web.api("GET", f"/api/tables/{table}/view", params={"seat": joined["seat"]},
                       headers={"X-Seat-Secret": joined["secret"]}).json()["view"]
        if view["to_move"] is not None:
            break
        time.sleep(0.1)
    mover = view["to_move"]
    other = next(s for s in secrets if s != mover)
    page.goto(f"{web.base}/t/{table}")
    page.evaluate("""async ([table, mover, secret, other, otherSecret]) => {
        const m = await import("/static/js/hint.js");
        const box = document.createElement("div");
        box.id = "hint-test";
        box.style.cssText = "position:fixed;top:0;left:0;width:560px;background:#fff;" +
                            "padding:12px;z-index:99;border:1px solid #999";
        box.append(m.hintButton(table, () => ({seat: mover, secret}), box));
        const wrong = document.createElement("div");
        wrong.id = "hint-wrong";
        wrong.append(m.hintButton(table, () => ({seat: other, secret: otherSecret}), wrong));
        const none = document.createElement("div");
        none.id = "hint-none";
        none.append(m.hintButton(table, () => null, none));
        box.append(wrong, none);
        document.body.append(box);
    }""", [table, mover, secrets[mover], other, secrets[other]])
    page.select_option("#hint-test > .hint-tools .hint-level", "easy")
    page.click("#hint-test > .hint-tools button")
    panel = page.locator("#hint-test > .hint-panel")
    panel.wait_for(timeout=60_000)
    expected = web.api("GET", f"/api/tables/{table}/hint",
                       params={"seat": mover, "level": "easy"},
                       headers={"X-Seat-Secret": secrets[mover]}).json()["hint"]
    text = panel.inner_text()
    assert "Hint (easy)" in text, text
    # in whole points, as a player counts them (issue 54 #7)
    worth = math.floor(abs(expected["best"]["value"]) + 0.5)
    assert (f"worth about {worth} point" if worth else "worth less than a point") in text, text
    assert "Other turns:" in text
    assert panel.locator("ol.hint-alternatives li").count() == len(expected["alternatives"]) == 3
    page.screenshot(path=str(tmp_path / "hint.png"), clip={"x": 0, "y": 0, "width": 580,
                                                           "height": 420})
    # the seat not to move is told why; a browser holding no seat too
    page.click("#hint-wrong .hint-tools button")
    wrong = page.locator("#hint-wrong .hint-panel.error")
    wrong.wait_for(timeout=60_000)
    assert "not to move" in wrong.inner_text()
    page.click("#hint-none .hint-tools button")
    assert "Hints are for the seat to move" in page.locator("#hint-none .hint-panel").inner_text()
    # asking again replaces the panel instead of adding one
    page.click("#hint-test > .hint-tools button")
    page.wait_for_function("() => !document.querySelector('#hint-test > .hint-tools button')"
                           ".disabled", timeout=60_000)
    assert page.locator("#hint-test > .hint-panel").count() == 1


def test_the_table_page_offers_a_hint_on_its_seats_turn_only(web: Server, page: Any) -> None:
    from tests.web.driver import phase

    t = web.api("POST", "/api/tables", json={
        "game": "reefs", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    ).json()["id"]
    page.goto(f"{web.base}/t/{t}?join")
    page.fill("#join-name", "Ann")
    page.click("#join-form button[type=submit]")
    assert phase(page) == "my-turn"
    assert page.locator("#hint-box").is_visible()
    page.click("#hint")
    panel = page.locator("#hint-box .hint-panel")
    panel.wait_for(timeout=120_000)
    legal = page.evaluate("() => [...document.querySelectorAll('#choices button.choice')]"
                          ".map(b => b.dataset.move || b.textContent)")
    first = panel.locator(".hint-moves").first.inner_text().split(", ")[0]
    assert "Hint (" in panel.inner_text()
    assert first in legal, (first, legal)
    # a spectator's page has no hint tools
    other = page.context.browser.new_page()
    try:
        other.goto(f"{web.base}/t/{t}")
        phase(other)
        assert not other.locator("#hint-box").is_visible()
    finally:
        other.close()
