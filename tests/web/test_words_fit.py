"""No word broken mid-word on a 375 px phone (issue 58: "play" wrapped as "pl/ay" in My games):
on the main pages (lobby with My games, account, profile, leaderboard, a table, how ratings
work, a game's rules), signed in with tables of every state, each short word of letters
(2 to 14) in the page's text sits on one line: the line boxes of its characters
(``Range.getClientRects``) share one top. Long tokens (ids, a long name without a space) may
still break anywhere, so they never push the page wider than the phone."""

from __future__ import annotations

import os
from typing import Any

from tests.server.conftest import Server
from tests.web.test_accounts_pages import SHOTS, fresh_name, sign_up

PHONE = {"width": 375, "height": 800}

#: The short words of letters drawn on more than one line: "word in tag#id.class".
BROKEN_WORDS = """() => {
  const broken = [];
  const words = /(?<![A-Za-z0-9_])[A-Za-z]{2,14}(?![A-Za-z0-9_])/g;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    for (const m of n.data.matchAll(words)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0)
        .map((x) => Math.round(x.top)));
      if (tops.size > 1) {
        const cls = typeof el.className === "string" && el.className ? "." + el.className : "";
        broken.push(`${m[0]} in ${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls}`);
      }
    }
  }
  return broken.slice(0, 12);
}"""


def csrf(page: Any) -> str:
    me = page.request.get("/api/me")
    assert me.status == 200, me.text()
    return str(me.json()["csrf"])


def table(page: Any, token: str, **body: Any) -> str:
    r = page.request.post("/api/tables", headers={"X-CSRF-Token": token}, data={
        "game": "gardens", "variant": {"level": 1}, "join_as": "Ann", **body})
    assert r.status == 201, r.text()
    return str(r.json()["table"]["id"])


def assert_no_broken_words(page: Any, what: str) -> None:
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"{what} at 375 px: words broken across lines: {broken}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{what}: the page is {width} px wide on a 375 px phone"
    if os.environ.get("MEEPLE_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / f"phone-{what}.png"), full_page=True)


def test_no_word_is_broken_on_the_main_pages_at_375_px(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport=PHONE, base_url=web.base)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        name = fresh_name()
        sign_up(page, web, name, display="Ann Example")
        token = csrf(page)
        # My games: a table being played (against a bot), one waiting for a person
        playing = table(page, token, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        table(page, token, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
        page.goto("/")
        page.wait_for_selector("table.my-games tr td a")
        assert_no_broken_words(page, "lobby")
        page.goto("/account")
        page.wait_for_selector("#signed-in", state="visible")
        assert_no_broken_words(page, "account")
        page.goto(f"/u/{name}")
        page.wait_for_selector("#profile-body", state="visible")
        assert_no_broken_words(page, "profile")
        page.goto("/leaderboard/gardens")
        page.wait_for_selector("#board tr.bot-row")
        assert_no_broken_words(page, "leaderboard")
        page.goto(f"/t/{playing}")
        page.wait_for_selector("#board svg")
        assert_no_broken_words(page, "table")
        for path in ("/ratings", "/rules/gardens", "/nope"):
            page.goto(path)
            page.wait_for_selector("main h1")
            assert_no_broken_words(page, path.strip("/").replace("/", "-"))
    finally:
        ctx.close()
    assert not errors, errors


def test_the_profile_links_how_ratings_work_to_a_page_of_the_site(page: Any, web: Server
                                                                  ) -> None:
    name = fresh_name()
    sign_up(page, web, name)
    page.goto(f"{web.base}/u/{name}")
    page.wait_for_selector("#profile-body", state="visible")
    text = page.text_content("body")
    assert "docs/" not in text and ".md" not in text, text
    page.click("#profile-ratings-card a[href='/ratings']")
    page.wait_for_url("**/ratings")
    assert page.text_content("h1") == "How ratings work"
    # no page of the site shows a repository path as text
    for path in ("/", "/account", "/leaderboard/gardens", "/rules", "/rules/pergola",
                 "/ratings"):
        page.goto(web.base + path)
        page.wait_for_load_state("networkidle")
        text = page.text_content("body")
        assert "docs/" not in text and ".md " not in text, (path, text)
