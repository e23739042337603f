"""Bring your own sheet, in Chromium: upload a changed Gardens sheet in the lobby, see it
previewed with its own values, see every problem of a broken file as "line N, field: message",
create the table and find the changed sheet drawn on the table page. Reefs and Takenokolor
files preview too. ``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/upload-preview.png."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.server.test_sheets_upload import changed_gardens, line_of, shipped
from tests.web.driver import phase

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def upload(page: Any, tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.set_input_files("#sheet-file", str(path))


def lobby(page: Any, web: Server, game: str) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    page.wait_for_selector("#own-sheet:not(.hidden)")


def shoot(page: Any, name: str) -> None:
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.locator("#new-table").screenshot(path=str(path))
    try:  # a palette of 256 colours keeps the committed PNG small
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass
    assert path.stat().st_size < 400_000, f"{path.name} is {path.stat().st_size} bytes"


def test_upload_preview_errors_and_a_table_on_the_changed_sheet(page: Any, web: Server,
                                                                tmp_path: Path) -> None:
    lobby(page, web, "gardens")
    # a starting point: the shipped sheets can be downloaded
    links = page.eval_on_selector_all("#sheet-downloads a", "as => as.map(a => a.textContent)")
    assert links == ["level-1", "level-2", "level-3"]
    href = page.get_attribute("#sheet-downloads a >> nth=1", "href")
    assert web.api("GET", str(href)).text == shipped("gardens", "level-2")

    # a broken file: every problem listed with its line and field, and nothing to preview
    text = changed_gardens()
    broken = text.replace("colourful_star = 19", 'colourful_star = "many"')
    broken = broken.replace('{ id = "B2", q = 0', '{ id = "B2", colour = "red", q = 0')
    upload(page, tmp_path, "broken.toml", broken)
    page.wait_for_selector("#sheet-errors li.sheet-problem")
    problems = page.eval_on_selector_all("#sheet-errors li.sheet-problem",
                                         "lis => lis.map(li => li.textContent)")
    assert len(problems) == 2  # in the order of the file
    b2 = line_of(broken, 'id = "B2"')
    assert problems[0].startswith(f"line {b2}, fields[6].colour: ")
    assert problems[1].startswith(f"line {line_of(broken, 'colourful_star')}, "
                                  "scoring.colourful_star: ")
    assert "error" in (page.get_attribute("#sheet-status", "class") or "")
    assert page.is_hidden("#sheet-preview")

    # the changed sheet: valid, previewed with its own values (no marks), level locked
    upload(page, tmp_path, "mine.toml", text)
    page.wait_for_selector("#sheet-preview [data-el='star-row-3'] text")
    assert page.is_hidden("#sheet-errors")
    assert "valid" in page.inner_text("#sheet-status")
    assert "My printed sheet" in page.inner_text("#sheet-preview")
    assert (page.text_content("#sheet-preview [data-el='star-row-3'] text") or "").strip() == "17"
    assert (page.text_content("#sheet-preview [data-el='star-colourful'] text") or "").strip() == "19"
    assert (page.text_content("#sheet-preview [data-el='box-P-3'] text") or "").strip() == "7"
    assert page.locator("#sheet-preview .gd-check").count() == 0
    assert page.is_disabled("#opt-level")
    shoot(page, "upload-preview")
    # colour-blind mode redraws the preview with the letters
    page.check("#cb-toggle")
    page.wait_for_selector("#sheet-preview .gd-cb-on")
    page.uncheck("#cb-toggle")
    page.wait_for_selector("#sheet-preview .gd:not(.gd-cb-on)")

    # create the table: it plays on the changed sheet
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot:random")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/", 1)[1]
    assert phase(page) in ("my-turn", "waiting", "complete")
    page.wait_for_selector("#board svg [data-el='star-row-3'] text")
    assert "My printed sheet" in page.inner_text("#board")
    assert (page.text_content("#board [id='star-row-3'] text") or "").strip() == "17"
    assert (page.text_content("#board [id='box-P-3'] text") or "").strip() == "7"
    info = web.api("GET", f"/api/tables/{table}").json()
    assert info["own_sheet"] == "My printed sheet"
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    assert rec["sheet"]["scoring"]["row_stars"] == [11, 13, 17]
    # the lobby lists the table with its own sheet
    page.goto(web.base + "/")
    page.wait_for_selector(".own-sheet-tag")
    assert "own sheet: My printed sheet" in page.inner_text("main")


@pytest.mark.parametrize(("game", "name", "probe"), [
    ("reefs", "the-whirlpools", ".rf-sheet.main svg"),
    ("takenokolor", "3-pandas", ".tk-main svg"),
])
def test_reefs_and_takenokolor_sheets_preview(page: Any, web: Server, tmp_path: Path, game: str,
                                              name: str, probe: str) -> None:
    lobby(page, web, game)
    upload(page, tmp_path, f"{name}.toml", shipped(game, name))
    page.wait_for_selector(f"#sheet-preview {probe}")
    assert page.locator("#sheet-preview .lit").count() == 0
    if game == "takenokolor":  # the choice of shipped sheets gives way to the own one
        assert page.is_disabled("#opt-sheet")
        assert page.eval_on_selector("#opt-sheet", "s => s.selectedOptions[0].textContent") \
            == "your own sheet"
    # another file for the same game replaces it; a broken one clears the preview
    upload(page, tmp_path, "bad.toml", "title = 3\n")
    page.wait_for_selector("#sheet-errors li.sheet-problem")
    assert page.is_hidden("#sheet-preview")
    page.click("#sheet-clear")
    assert page.is_hidden("#sheet-errors") and page.inner_text("#sheet-status") == ""
    if game == "takenokolor":
        assert page.is_enabled("#opt-sheet")
        assert page.input_value("#opt-sheet") == "2-pandas"


def test_pergola_offers_no_upload(page: Any, web: Server) -> None:
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "gardens")
    page.wait_for_selector("#own-sheet:not(.hidden)")
    page.select_option("#game", "pergola")
    page.wait_for_selector("#own-sheet.hidden", state="attached")


def test_the_upload_and_its_preview_fit_a_phone(browser: Any, web: Server, tmp_path: Path
                                                 ) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        page = ctx.new_page()
        lobby(page, web, "takenokolor")
        upload(page, tmp_path, "river.toml", shipped("takenokolor", "4-pandas-river"))
        page.wait_for_selector("#sheet-preview .tk-main svg")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the lobby scrolls sideways: {width} px wide"
        box = page.locator("#own-sheet").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375
    finally:
        ctx.close()


def test_every_problem_of_a_sheet_is_listed_at_once_each_on_its_own_line(
        page: Any, web: Server, tmp_path: Path) -> None:
    """Issue 39 #7: a file with a wrong type, a duplicate field id, a second row of stars too
    few and a negative bonus lists all four at once (not the duplicate only once the others are
    fixed), each at the line of the field itself (not its section's header), in file order;
    the negative bonus is refused with what is allowed."""
    lobby(page, web, "gardens")
    text = changed_gardens()
    broken = text.replace("colourful_star = 19", 'colourful_star = "many"')
    broken = broken.replace('{ id = "B3", q = 1', '{ id = "A2", q = 1')
    broken = broken.replace("row_stars = [11, 13, 17]", "row_stars = [11, 13]")
    broken = broken.replace("outer_fields_bonus = 6", "outer_fields_bonus = -6")
    assert broken.count('id = "A2"') == 2 and "= -6" in broken and "[11, 13]\n" in broken
    upload(page, tmp_path, "broken.toml", broken)
    page.wait_for_selector("#sheet-errors li.sheet-problem")
    problems = page.eval_on_selector_all("#sheet-errors li.sheet-problem",
                                         "lis => lis.map(li => li.textContent)")
    dup = broken.splitlines().index(next(ln for ln in broken.splitlines()
                                         if '{ id = "A2", q = 1, r = -3' in ln)) + 1
    expected = [
        (dup, "fields[7].id", "A2"),
        (line_of(broken, "row_stars ="), "scoring.row_stars", "one star per row"),
        (line_of(broken, "colourful_star ="), "scoring.colourful_star", "integer"),
        (line_of(broken, "outer_fields_bonus ="), "scoring.outer_fields_bonus", "0 or more"),
    ]
    assert len(problems) == len(expected), problems
    for shown, (line, where, word) in zip(problems, expected, strict=True):
        assert shown.startswith(f"line {line}, {where}: "), (shown, line, where)
        assert word in shown, (shown, word)
    assert "4 problems" in page.inner_text("#sheet-status")
    assert page.is_hidden("#sheet-preview")
    shoot_problems(page)


def shoot_problems(page: Any) -> None:
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / "upload-problems.png"
    page.locator("#own-sheet").screenshot(path=str(path))
    assert path.stat().st_size < 400_000, f"{path.name} is {path.stat().st_size} bytes"
