"""The drawings fit what a player looks at (issue 39 #4 and #11): after taking a Gardens pencil
the long list of choice buttons is folded away (closed) and the sheet is in view; field ids
stay readable over the lit highlight; the turn's summary tells the letter O from the digit 0;
Takenokolor's other sheets are drawn large enough to read; Reefs at 375 px keeps every space
inside its drawing, with the space ids clear of the items; colour-blind letters keep clear of
the other words and numbers. ``MEEPLE_SCREENSHOTS=1`` also writes the docs/screenshots/ files
named in docs/web.md (*Drawings that fit*)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web import driver
from tests.web.driver import create_from_lobby, fast_forward, phase, settle, turn_moves

#: the box of every element of `sel` (client coordinates), with its text and classes
BOXES = """([root, sel]) => [...document.querySelectorAll(root)].map((svg) =>
  [...svg.querySelectorAll(sel)].map((n) => {
    const r = n.getBoundingClientRect();
    return {l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height,
            text: n.textContent, cls: n.getAttribute('class') || '',
            g: n.closest('[data-space],[data-item],[data-el],g[id]')?.getAttribute('data-space')
               || n.closest('[data-item]')?.getAttribute('data-item') || ''};
  }).filter((b) => b.w > 0 && b.h > 0))"""

#: colour-blind labels of every game's drawing, and what they may not touch
CB_LABELS = ".gd-cb, .rf-cb, .cb-letter, .pg-cb"


def meets(a: dict[str, Any], b: dict[str, Any], gap: float) -> bool:
    """Whether two boxes overlap, or come closer than ``gap`` px."""
    return (a["l"] - gap < b["r"] and b["l"] < a["r"] + gap
            and a["t"] - gap < b["b"] and b["t"] < a["b"] + gap)


def shoot(page: Any, name: str, full: bool = True) -> None:
    """docs/screenshots/<name>.png with ``MEEPLE_SCREENSHOTS=1``: the whole page, or the first
    screen only (what a player sees without scrolling) when not ``full``."""
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    driver.SHOTS.mkdir(parents=True, exist_ok=True)
    path = driver.SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    try:  # a palette of 256 colours keeps the committed PNGs small (as driver.shoot)
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass
    assert path.stat().st_size < 300_000, f"{path.name} is {path.stat().st_size} bytes"


# ---------------------------------------------------------------- Gardens: the folded list
@pytest.mark.parametrize("width,height", [(1400, 900), (375, 740)])
def test_gardens_choices_after_a_pencil_are_folded_and_the_sheet_is_in_view(
        browser: Any, web: Server, width: int, height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    try:
        create_from_lobby(page, web, "gardens", {"level": "2"}, 2)
        assert phase(page) == "my-turn"
        # a few pencils to take: a short list stays as it was, open
        assert page.locator("#choices details.choice-fold").count() == 0
        assert page.locator("#choices button.choice").first.is_visible()
        page.locator("#board .gd-pencil.lit").first.click()
        settle(page)
        assert phase(page) == "my-turn"
        legal = page.eval_on_selector_all("#board .lit[data-move]", "els => els.map(e => e.dataset.move)")
        assert len(legal) > 8, legal
        fold = page.locator("#choices details.choice-fold")
        assert fold.count() == 1 and not fold.evaluate("d => d.open")  # closed by default
        # every choice is still a button in it (keys 1-9 and screen readers keep the list)
        listed = page.eval_on_selector_all("#choices details.choice-fold button.choice",
                                           "els => els.map(e => e.dataset.move)")
        assert sorted(listed) == sorted(legal)
        assert str(len(legal)) in fold.locator("summary").inner_text()
        # the sheet is in view without scrolling: the map starts on the first screen, with a
        # good part of it shown there (on a phone: its top rows)
        top = page.evaluate("document.querySelector('#board .gd-sheet.main svg.gd-map')"
                            ".getBoundingClientRect().top")
        shown = height - top
        shoot(page, f"gardens-pencil-taken-{width}", full=False)
        assert shown >= (250 if width > 600 else 120), f"the map starts {top:.0f} px down"
        # opened, it shows the buttons, and stays open through the next step
        fold.locator("summary").click()
        assert page.locator("#choices button.choice").first.is_visible()
        page.locator("#choices button.choice").first.click()
        settle(page)
        if page.locator("#choices details.choice-fold").count():
            assert page.locator("#choices details.choice-fold").evaluate("d => d.open")
    finally:
        ctx.close()


def test_gardens_field_ids_stay_on_top_of_the_lit_highlight(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    assert phase(page) == "my-turn"
    page.locator("#board .gd-pencil.lit").first.click()
    settle(page)
    fields = page.locator("#board .gd-sheet.main .gd-field.lit")
    assert fields.count() > 0
    # the id is drawn after (over) the lit ring, in a colour that stands out from its tint
    bad = page.eval_on_selector_all("#board .gd-sheet.main .gd-field.lit", """els => els.filter(g => {
        const kids = [...g.children];
        const ring = kids.findIndex(k => k.classList.contains('gd-lit-ring'));
        const id = kids.findIndex(k => k.classList.contains('gd-id'));
        return !(ring >= 0 && id > ring);
      }).map(g => g.id)""")
    assert not bad, f"field ids under the lit highlight: {bad}"


def test_the_turn_summary_tells_the_letter_o_from_the_digit_0(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "reefs", {"level": "1"}, 2)
    assert phase(page) == "my-turn"
    page.locator("#choices button.choice").first.click()
    settle(page)
    assert turn_moves(page)[0].startswith("take ")
    assert page.inner_text("#buffer").startswith("This turn: take ")
    # drawn in the summary's own font, O and 0 must not look alike: a monospace font gives
    # them one width (and most draw them nearly the same)
    ratio = page.evaluate("""() => {
      const s = getComputedStyle(document.getElementById('buffer'));
      const c = document.createElement('canvas').getContext('2d');
      c.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      return c.measureText('O').width / c.measureText('0').width;
    }""")
    assert ratio > 1.12, f"O is {ratio:.2f} times as wide as 0 in the turn's summary"


# ---------------------------------------------------------------- Takenokolor: other sheets
def test_takenokolor_other_sheets_are_drawn_large_enough_to_read(page: Any, web: Server) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    create_from_lobby(page, web, "takenokolor", {"sheet": "4-pandas-dragon"}, 3)
    page.wait_for_selector("#board .tk-others svg.tk-sheet")
    main = page.evaluate("document.querySelector('#board .tk-main svg.tk-sheet')"
                         ".getBoundingClientRect().width")
    others = page.eval_on_selector_all("#board .tk-others svg.tk-sheet",
                                       "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(others) == 2
    for w in others:
        assert w >= 0.9 * main, f"another seat's sheet is {w:.0f} px wide, yours {main:.0f} px"
    # the printed numbers on them as large as on a page's small print
    small = page.eval_on_selector_all("#board .tk-others text.tk-points",
                                      "els => Math.min(...els.map(e => e.getBoundingClientRect().height))")
    assert small >= 12, f"numbers on the other sheets are {small:.1f} px high"
    # folding one away is remembered across redraws
    first = page.locator("#board .tk-others details").first
    first.locator("summary").click()
    page.check("#cb-toggle")  # a redraw
    page.wait_for_selector("#board .tk-others details")
    assert not page.locator("#board .tk-others details").first.evaluate("d => d.open")
    page.locator("#board .tk-others details").first.locator("summary").click()
    shoot(page, "takenokolor-other-sheets")


# ---------------------------------------------------------------- Reefs at 375 px
@pytest.mark.parametrize("level", ["1", "3"])
def test_reefs_at_375_px_keeps_every_space_in_view_and_its_id_clear(browser: Any, web: Server,
                                                                    level: str) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    page = ctx.new_page()
    try:
        table = create_from_lobby(page, web, "reefs", {"level": level}, 2)
        fast_forward(page, web, table, Rng(int(level)), left=4)
        assert phase(page) in ("my-turn", "complete")  # a wholly forced turn opens complete
        page.wait_for_selector("#board svg.rf-lattice")
        sheets = page.evaluate("""() => [...document.querySelectorAll('#board svg.rf-lattice')].map(s => {
          const r = s.getBoundingClientRect();
          const out = [...s.querySelectorAll('.rf-space')]
            .map(g => [g.dataset.space, g.getBoundingClientRect()])
            .filter(([, b]) => b.left < r.left - .5 || b.right > r.right + .5 || b.right > innerWidth
                    || b.top < r.top - .5 || b.bottom > r.bottom + .5).map(([id]) => id);
          return out;
        })""")
        assert all(not bad for bad in sheets), f"spaces clipped: {sheets}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        ids = page.evaluate(BOXES, ["#board svg.rf-lattice", ".rf-sid"])
        items = page.evaluate(BOXES, ["#board svg.rf-lattice",
                                      ".rf-treasure, .rf-coin, .rf-whirl, .rf-prop, .rf-entry, "
                                      ".rf-tletter, .rf-tvalue, .rf-sym, .rf-endmark"])
        hidden = [(a["text"], b["g"]) for sheet, things in zip(ids, items, strict=True) for a in sheet
                  for b in things if meets(a, b, 0)]
        assert not hidden, f"space ids under items: {hidden[:10]}"
        shoot(page, f"reefs-375-level{level}")
    finally:
        ctx.close()


# ---------------------------------------------------------------- colour-blind letters
CB_GAMES = [("gardens", {"level": "2"}), ("reefs", {"level": "3"}),
            ("takenokolor", {"sheet": "4-pandas-dragon"}), ("pergola", {})]


@pytest.mark.parametrize("game,options", CB_GAMES, ids=[g for g, _ in CB_GAMES])
def test_colour_blind_letters_keep_clear_of_other_labels(page: Any, web: Server, game: str,
                                                         options: dict[str, str]) -> None:
    table = create_from_lobby(page, web, game, options, 2)
    fast_forward(page, web, table, Rng(7), left=3)
    assert phase(page) in ("my-turn", "complete")  # a wholly forced turn opens complete
    page.check("#cb-toggle")
    page.wait_for_selector(f"#board svg :is({CB_LABELS})")
    letters = page.evaluate(BOXES, ["#board svg", CB_LABELS])
    # the other words of the drawing: ids, points, names; and the other letters (two routes
    # of Reefs that pass close by put their letters apart)
    texts = page.evaluate(BOXES, ["#board svg", f"text:not(:is({CB_LABELS}))"])
    for ls in letters:
        routes = [x for x in ls if "rf-cb" in x["cls"]]
        for i, a in enumerate(routes):
            for b in routes[i + 1:]:
                assert not meets(a, b, 0), f"two route letters meet: {a}, {b}"
    assert sum(len(s) for s in letters) > 0
    close = []
    for ls, ts in zip(letters, texts, strict=True):
        for a in ls:
            for b in ts:
                same = abs(a["l"] - b["l"]) < .01 and abs(a["t"] - b["t"]) < .01 and a["text"] == b["text"]
                if not same and meets(a, b, 1):
                    close.append((a["text"], a["cls"], b["text"], b["cls"], b["g"] or a["g"]))
    assert not close, f"{len(close)} colour-blind letters run into other labels: {close[:12]}"
    if game in ("gardens", "reefs"):
        shoot(page, f"{game}-colourblind-labels")
