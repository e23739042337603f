"""A newcomer's trial of the four games (issue 54), in Chromium: each defect they met, tried as
they met it.

1. a broken uploaded sheet is refused at Create table, its problems named (never the shipped
   sheet instead);
2. seats are counted from 1 everywhere a person reads ("Seat 2"), bots are "Easy bot";
3. a waiting table says it waits for players (never "Rolling…"), with the invitation link in
   a box of its own and a Copy button;
6. Pergola at 375 px: every leaf's name above its leaf, every supply name before its count,
   the page far shorter;
7. words where players read: the turn being built, the log, the hint's worth in whole points;
8. no developer notes under a sheet;
9. no typing box or keyboard help on a phone;
10. the lobby does not promise hard a second a turn.

``MEEPLE_SCREENSHOTS=1`` writes docs/screenshots/newcomer-*.png.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from tests.server.conftest import Server
from tests.server.test_sheets_upload import changed_gardens
from tests.web.driver import SHOTS, create_from_lobby, phase, settle

PHONE = {"width": 375, "height": 740}


def shoot(page: Any, name: str, locator: str | None = None, full_page: bool = False) -> None:
    """With ``MEEPLE_SCREENSHOTS=1``: docs/screenshots/<name>.png of ``locator`` (else the
    window, or the whole page), with a palette of 256 colours, under 400 KB."""
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if locator:
        page.locator(locator).first.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=full_page)
    try:  # a palette of 256 colours keeps the committed PNGs small
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass
    assert path.stat().st_size < 400_000, f"{path.name} is {path.stat().st_size} bytes"


def lobby(page: Any, web: Server, game: str) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)


def table_count(web: Server) -> int:
    r = web.api("GET", "/api/tables", params={"limit": 1})
    return int(r.headers["X-Total-Count"])


# ---------------------------------------------------------------- 1. a broken sheet
def test_a_broken_uploaded_sheet_is_refused_at_create_with_its_problems(page: Any, web: Server,
                                                                        tmp_path: Path) -> None:
    lobby(page, web, "gardens")
    page.wait_for_selector("#own-sheet:not(.hidden)")
    broken = changed_gardens().replace("colourful_star = 19", 'colourful_star = "many"')
    path = tmp_path / "my-sheet.toml"
    path.write_text(broken, encoding="utf-8")
    page.set_input_files("#sheet-file", str(path))
    page.wait_for_selector("#sheet-errors li.sheet-problem")
    before = table_count(web)
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_selector("#create-problems li")
    said = page.inner_text("#create-error")
    assert "my-sheet.toml" in said and "not a valid Pick a Pen: Gardens sheet" in said, said
    assert "scoring.colourful_star" in said, said  # the problem, named
    assert "use the shipped sheet instead" in said
    # no table was made on the shipped sheet: the page stays, the lobby has no new table
    page.wait_for_timeout(500)
    assert "/t/" not in page.url
    assert table_count(web) == before
    shoot(page, "newcomer-broken-sheet", locator="#new-table")
    # "use the shipped sheet instead" is the way to play the shipped one
    page.click("#sheet-clear")
    page.click("#create")
    page.wait_for_url("**/t/**")
    assert table_count(web) == before + 1


# ---------------------------------------------------------------- 2, 3. seats, waiting
def test_seats_count_from_one_bots_have_names_and_a_waiting_table_says_so(browser: Any,
                                                                         web: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              permissions=["clipboard-read", "clipboard-write"])
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        lobby(page, web, "gardens")
        page.select_option("#players", "4")
        # the lobby counts seats from 1
        labels = page.eval_on_selector_all("#seat-fields label",
                                           "ls => ls.map(l => l.firstChild.textContent)")
        assert [x.strip() for x in labels] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
        page.select_option("#seat-1", "friend")
        page.select_option("#seat-2", "bot:easy")
        page.select_option("#seat-3", "bot:hard")
        page.fill("#my-name", "Ann")
        page.click("#create")
        page.wait_for_url("**/t/**")
        table = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#seats .seat-chip[data-seat='3']")
        chips = page.eval_on_selector_all("#seats .seat-chip", "cs => cs.map(c => c.textContent)")
        assert chips[1].startswith("Seat 2: ") and "open" in chips[1], chips
        assert chips[2].startswith("Easy bot: ") and chips[3].startswith("Hard bot: "), chips
        assert not any(re.search(r"seat \d|\(\d\)", c) for c in chips), chips
        # 3. waiting: said as it is, whatever the game's chance (no "Rolling…")
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        status = page.inner_text("#status")
        assert "Waiting for 1 more player" in status and "Rolling" not in status, status
        # the invitation: a box of its own, the link at full size, a Copy button
        link = page.locator("#invite-link")
        assert link.get_attribute("href") == f"/t/{table}?join"
        size = float(page.evaluate("parseFloat(getComputedStyle("
                                   "document.getElementById('invite-link')).fontSize)"))
        assert size >= 16, f"the link is {size} px"
        assert "1 seat is open" in page.inner_text("#invite h2")
        page.click("#invite-copy")
        page.wait_for_function("() => document.getElementById('invite-copied').textContent")
        assert page.inner_text("#invite-copied").startswith("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == f"{web.base}/t/{table}?join"
        shoot(page, "newcomer-waiting")
        # the friend's page counts the seat as the lobby did
        friend = browser.new_page()
        try:
            friend.goto(f"{web.base}/t/{table}?join")
            friend.wait_for_selector("#join-seat option", state="attached")
            assert friend.eval_on_selector_all("#join-seat option",
                                               "os => os.map(o => o.textContent)") == ["Seat 2"]
        finally:
            friend.close()
    finally:
        ctx.close()
    assert not errors, errors
    # the protocol keeps its 0-based indexes; the names are the people's
    seats = web.api("GET", f"/api/tables/{table}").json()["seats"]
    assert [(s["index"], s["name"]) for s in seats] == [
        (0, "Ann"), (1, "Seat 2"), (2, "Easy bot"), (3, "Hard bot")]


def test_a_waiting_pergola_table_does_not_roll(page: Any, web: Server) -> None:
    lobby(page, web, "pergola")
    page.select_option("#seat-1", "friend")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#invite-copy")
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")
    status = page.inner_text("#status")
    assert status.startswith("Waiting for 1 more player"), status


def test_two_bots_of_one_kind_are_numbered(web: Server) -> None:
    t = web.api("POST", "/api/tables", json={"game": "reefs", "seats": [
        {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "mcts:seconds=1"},
        {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "greedy", "name": "Gus"}]}).json()
    assert [s["name"] for s in t["seats"]] == ["Easy bot 1", "MCTS bot", "Easy bot 2", "Gus"]


# ---------------------------------------------------------------- 6. Pergola at 375 px
#: each top leaf's name and leaf, and each supply row's name and count, as boxes on the page
PERGOLA_BOXES = r"""() => {
  const box = (n) => { const r = n.getBoundingClientRect(); return {t: r.top, b: r.bottom,
                                                                    l: r.left, r: r.right}; };
  const piles = [...document.querySelectorAll('svg.pg-shared [data-el^="pile:"]')]
    .filter(g => g.querySelector('path'))
    .map(g => ({label: box([...g.querySelectorAll('text')]
                             .find(t => /^[A-Z]+\d+ [a-z]+$/.test(t.textContent))),
                leaf: box(g.querySelector('path'))}));
  const supply = [...document.querySelectorAll('svg.pg-shared [data-el^="supply:"]')]
    .map(g => { const ts = [...g.querySelectorAll('text')];
                return {id: g.dataset.el, label: box(ts[0]), count: box(ts[ts.length - 1])}; });
  return {piles, supply};
}"""


def test_pergola_at_375_px_reads_clearly_and_is_far_shorter(browser: Any, web: Server) -> None:
    ctx = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        create_from_lobby(page, web, "pergola", {}, 2, bot="random")
        assert phase(page) in ("my-turn", "waiting")
        page.wait_for_selector("svg.pg-shared [data-el^='pile:'] path")
        boxes = page.evaluate(PERGOLA_BOXES)
        assert len(boxes["piles"]) == 3 and len(boxes["supply"]) >= 19, boxes
        for pile in boxes["piles"]:  # the name above its leaf, not under the drawing
            assert pile["label"]["b"] <= pile["leaf"]["t"] + 0.5, pile
        for row in boxes["supply"]:  # "magnolia (2 branches)" ends before its count
            assert row["label"]["r"] <= row["count"]["l"] - 2, row
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 6000, f"the page is {height} px tall at 375 px"  # it was 7,300
        shoot(page, "newcomer-pergola-375", full_page=True)
        # the other garden is folded, and opens on a click
        other = page.locator("details.pg-other")
        assert other.count() == 1 and other.get_attribute("open") is None
        other.locator("summary").click()
        assert other.get_attribute("open") is not None
    finally:
        ctx.close()
    assert not errors, errors


# ---------------------------------------------------------------- 7. words, not notation
def test_the_turn_and_the_log_are_in_words(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2, bot="random")
    assert phase(page) == "my-turn"
    pencil = page.locator("#board .gd-pencil.lit").first
    move = str(pencil.get_attribute("data-move"))
    pencil.click()
    settle(page)
    summary = page.inner_text("#buffer")
    colour = {"O": "orange", "R": "red", "G": "green", "B": "blue", "P": "purple"}[move[-1]]
    assert summary.startswith(f"This turn: take the {colour} pencil ("), summary
    assert move not in summary
    lines = page.eval_on_selector_all("#log li", "lis => lis.map(li => li.firstChild.textContent)")
    rolls = [x for x in lines if x.startswith("chance: ")]
    assert rolls and all(re.fullmatch(r"chance: the (orange|red|green|blue|purple) pencil shows \d",
                                      x) for x in rolls), rolls
    mine = page.eval_on_selector_all("#log li.pending", "lis => lis.map(li => li.textContent)")
    assert mine and mine[0].startswith(f"Ann: take the {colour} pencil"), mine
    # the notation stays at hand for who wants it: each line's tooltip and data-move
    assert page.locator("#log li.pending").first.get_attribute("data-move") == move


# ---------------------------------------------------------------- 8. no developer notes
def test_no_developer_notes_under_the_sheets(page: Any, web: Server) -> None:
    for game, options in (("gardens", {"level": "2"}), ("reefs", {"level": "1"})):
        create_from_lobby(page, web, game, options, 2, bot="random")
        phase(page)
        page.wait_for_selector("#board svg")
        text = page.inner_text("#board")
        assert "tools/" not in text and "generated" not in text and "RULINGS" not in text, game
        assert "This sheet is a reconstruction" in text, game


# ---------------------------------------------------------------- 9. typing on a phone
def test_a_phone_shows_no_typing_box_and_no_keyboard_help(browser: Any, web: Server) -> None:
    for viewport, mobile, shown in ((PHONE, True, False), ({"width": 1280, "height": 900}, False, True)):
        ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
        try:
            page = ctx.new_page()
            create_from_lobby(page, web, "takenokolor", {}, 2, bot="random")
            assert phase(page) == "my-turn"
            page.wait_for_selector("#typed", state="attached")
            assert page.locator("#typed").is_visible() is shown
            assert page.get_by_text("Backspace undoes").is_visible() is shown
        finally:
            ctx.close()


# ---------------------------------------------------------------- 10. hard's time
def test_the_lobby_says_what_hard_takes(page: Any, web: Server) -> None:
    lobby(page, web, "gardens")
    options = page.eval_on_selector_all("#seat-1 option", "os => os.map(o => [o.value, o.textContent])")
    said = dict(options)
    assert "~1 s a turn" not in said["bot:hard"] and "a few seconds a turn" in said["bot:hard"], said
    assert "a decision" in said["bot:mcts:seconds=1"], said


def test_the_hint_is_worth_whole_points(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "reefs", {"level": "1"}, 2, bot="random")
    assert phase(page) == "my-turn"
    page.select_option("#hint-box .hint-level", "easy")
    page.click("#hint")
    panel = page.locator("#hint-box .hint-panel[data-moves]")
    panel.wait_for(timeout=120_000)
    text = panel.inner_text()
    assert "worth about " in text or "worth less than a point" in text, text
    assert not re.search(r"\d\.\d", text), text  # no 100.9 points
    assert json.loads(str(panel.get_attribute("data-moves")))
