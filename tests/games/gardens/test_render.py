"""The Gardens screen as a player reads it: garden shapes all game, the score pad as printed.

Colour never carries meaning alone: these tests read the screen with the markup stripped. The
screens are drawn as the terminal draws them, from a seat's view and the layout
(:func:`meeple.core.view.terminal_text`, :func:`~meeple.core.view.terminal_score`).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.present import presentation
from meeple.core.view import terminal_score, terminal_text
from meeple.games.gardens.render import CELL, STYLE, plain_length
from meeple.games.gardens.rules import GardensState
from meeple.games.gardens.words import garden_labels
from tests.games.gardens.helpers import new, roll, strip_sheet, turn

TAG = re.compile(r"(?<!\\)\[[a-z#/@][^\[\]]*\]")


def render_text(state: GardensState, seat: int | None) -> str:
    """The screen about ``seat`` as that seat sees it (None: a spectator's, the seat to move's
    sheet)."""
    return terminal_text(state, seat, seat)


def render_score(state: GardensState, seat: int | None) -> str:
    """Every seat's score pad and the totals, as ``seat`` sees them."""
    return terminal_score(state, seat, seat) or ""


def plain(markup: str) -> str:
    """What a terminal without colour shows."""
    return TAG.sub("", markup).replace("\\[", "[")


def fill_sheet(level: int, players: int = 1, seats: list[str] | None = None) -> GardensState:
    """Play every pencil as a 1 and colour the first field offered, until seat 0's sheet is
    full (the game ends there, G10). Several colours, so gardens end up mixed and single."""
    s = meeple.new_game("gardens", players=players, seed=1, level=level)
    assert isinstance(s, GardensState)
    if seats:
        s.seats = seats
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            letter = "ORGBP"[s.roll_next]
            s.play(f"roll {letter}1")
        else:
            s.play(s.legal_moves()[0])
    return s


def sheet_lines(state: GardensState, seat: int = 0) -> list[str]:
    text = plain(render_text(state, seat))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("┌"))
    n_rows = len({r for _, r in state.sheet.coords} | {r for _, r in state.sheet.data.fountain})
    return lines[start: start + 2 * n_rows + 1]


def field_cell(state: GardensState, lines: list[str], i: int) -> tuple[str, str]:
    """(left border character, seven columns of content) of field ``i`` in the drawing."""
    sheet = state.sheet
    cells = [*sheet.coords, *map(tuple, sheet.data.fountain)]
    x0 = min(2 * q + r for q, r in cells)
    r0 = min(r for _, r in cells)
    q, r = sheet.coords[i]
    col = (2 * q + r - x0) * (CELL // 2)
    line = lines[2 * (r - r0) + 1].ljust(col + CELL)
    return line[col], line[col + 1: col + CELL]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_field_shows_its_garden_letter_before_and_after_colouring(level: int) -> None:
    s = meeple.new_game("gardens", players=1, seed=1, level=level)
    assert isinstance(s, GardensState)
    labels = garden_labels(s.sheet)
    for state in (s, fill_sheet(level)):
        lines = sheet_lines(state)
        for i in range(state.sheet.n):
            _, content = field_cell(state, lines, i)
            assert content.split()[-1] == labels[state.sheet.garden_of[i]], (i, content)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_borders_between_gardens_are_drawn_and_stay_once_coloured(level: int) -> None:
    s = meeple.new_game("gardens", players=1, seed=1, level=level)
    assert isinstance(s, GardensState)
    full = fill_sheet(level)
    sheet = s.sheet
    at = {c: i for i, c in enumerate(sheet.coords)}
    for state in (s, full):
        lines = sheet_lines(state)
        for i, (q, r) in enumerate(sheet.coords):
            border, _ = field_cell(state, lines, i)
            left = at.get((q - 1, r))
            same = left is not None and sheet.garden_of[left] == sheet.garden_of[i]
            assert border == (" " if same else "│"), (sheet.ids[i], border)
    # the lines between hex rows are the same all game: colouring never hides a border
    empty, filled = sheet_lines(s), sheet_lines(full)
    assert empty[0::2] == filled[0::2]
    assert sum(line.count("─") for line in empty[0::2]) > 50


def test_coloured_fields_read_without_colour_and_flowers_trees_fountain_show() -> None:
    full = fill_sheet(2)
    lines = sheet_lines(full)
    sheet = full.sheet
    for i in range(sheet.n):
        _, content = field_cell(full, lines, i)
        colour = next(c for c in range(5) if full.cmask[c] >> i & 1)
        assert content[0] == "ORGBP"[colour], content
        if sheet.flower_colour[i] >= 0:
            assert "*" + "ORGBP"[sheet.flower_colour[i]] in content
    assert "~~~" in "\n".join(lines)
    s3 = meeple.new_game("gardens", players=1, seed=1, level=3)
    assert isinstance(s3, GardensState)
    lines3 = sheet_lines(s3)
    for i in range(s3.sheet.n):
        _, content = field_cell(s3, lines3, i)
        assert ("^" in content) == bool(s3.sheet.tree_mask >> i & 1)
        assert content.startswith(s3.sheet.ids[i])


def test_colours_read_on_dark_and_light_terminals() -> None:
    # every colour sets its background and its letter's colour: nothing depends on the
    # terminal's own background, and no colour is used as bare text colour
    for style in STYLE.values():
        fg, on, bg = style.replace("bold ", "").partition(" on ")
        assert on and fg in ("black", "bright_white") and bg
    s = fill_sheet(1, players=2)
    tags = set(re.findall(r"(?<!\\)\[([a-z#@][^\[\]]*)\]", render_text(s, 0) + render_score(s, 0)))
    bare = {t for t in tags if t not in ("bold", "dim", "underline") and " on " not in t}
    assert not bare, bare


def test_fields_open_to_the_pencil_in_hand_are_underlined() -> None:
    s = new(strip_sheet([2, 3]))
    roll(s, "O2 R3 G1 B1 P1")
    s.play("take O")
    s.play("A3")
    sheet = render_text(s, 0)
    assert "[underline]A2[/]" in sheet and "[underline]A4[/]" in sheet
    assert "[underline]A1[/]" not in sheet and "[underline]A5[/]" not in sheet
    assert "O+" in plain(sheet)


def test_each_garden_size_and_completion_per_seat_are_listed() -> None:
    s = new(strip_sheet([2, 3]), players=2)
    s.seats = ["you", "Ann"]
    roll(s, "O2 R3 G1 B1 P1")
    turn(s, "O", "A1", "A2")
    text = plain(render_text(s, 0))
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line.split()[:1] in (["garden"], ["fields"], ["you"], ["Ann"])}
    assert rows["garden"] == ["a", "b"]
    assert rows["fields"] == ["2", "3"]
    assert rows["you"] == ["O", "3"]  # a done in orange, 3 fields of b to go
    assert rows["Ann"] == ["2", "3"]


def test_score_pad_shows_boxes_next_box_and_row_star_progress() -> None:
    s = new(strip_sheet([2, 1, 1, 3]), players=2)
    s.seats = ["you", "Ann"]
    roll(s, "O2 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2")  # you: garden a all orange, orange box 1 (2)
    turn(s, "R", "A1")
    turn(s, "G", "A3")  # you: garden b all green
    pad = plain(render_score(s, None))
    mine = pad.split("Ann's score pad")[0]
    assert "your score pad" in mine and "total 4" in mine
    row1 = next(line for line in mine.splitlines() if line.strip().startswith("row 1"))
    # O and G coloured, R B P next; 2 of 5 colours towards the row star, which needs R B P
    assert row1.split()[2:7] == ["[2]", ">2<", "[2]", ">2<", ">2<"]
    assert "★10 2/5, needs R B P" in row1 and row1.endswith("4")
    row2 = next(line for line in mine.splitlines() if line.strip().startswith("row 2"))
    assert row2.split()[2:7] == [">3<", "3", ">3<", "3", "3"]
    assert "colourful gardens" in mine and ">6<" in mine
    assert "pencil symbols" in mine and ">-1<" in mine
    assert "all outer fields" in mine and "all fields" in mine and "largest area" in mine
    assert "Ann's score pad" in pad and "totals: you 4, Ann 0" in pad


def test_score_pad_shows_crossed_symbols_and_goals_taken_by_whom() -> None:
    s = new(strip_sheet([2, 1]), players=2)
    s.seats = ["you", "Ann"]
    roll(s, "O2 R1 G1 B1 P1")
    turn(s, "O", "waste")
    turn(s, "R", "A3")
    turn(s, "G", "waste")
    turn(s, "B", "A2")
    turn(s, "P", "A1")
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")  # Ann coloured every field: first to all outer and all fields; ends
    assert s.is_over
    pad = plain(render_score(s, None))
    mine, ann = pad.split("Ann's score pad")
    pencils = next(line for line in mine.splitlines() if line.startswith("pencil symbols"))
    assert pencils.split()[2:7] == ["[-1]", "[-2]", ">-3<", "-4", "-5"]
    assert pencils.endswith("-3")
    assert "★6 taken by Ann" in mine
    assert "★6 got (first)" in ann
    status = "\n".join(plain(render_text(s, 0)).splitlines()[-2:])
    assert "Game over" in status and "Ann has coloured every field" in status
    assert "Winner: Ann with" in status


def test_level_pads_show_flower_tree_and_four_garden_boxes() -> None:
    two = plain(render_score(meeple.new_game("gardens", players=2, level=2), 0))
    assert "flower boxes (2 each)" in two and "all flower fields" in two
    three = plain(render_score(meeple.new_game("gardens", players=2, level=3), 0))
    assert "tree boxes (0 each)" in three and "row 4" in three
    assert "4 gardens, 1 colour" in three and "O 0/4" in three


@pytest.mark.parametrize("level", [1, 2, 3])
def test_screens_fit_80_columns(level: int) -> None:
    s = fill_sheet(level, players=4, seats=["you", "Ann", "Bo", "greedy (3)"])
    for text in (render_text(s, 0), render_score(s, None),
                 render_text(meeple.new_game("gardens", players=4, level=level), None),
                 presentation("gardens").notation_help):
        for line in text.splitlines():
            assert plain_length(line) <= 80, line


def test_names_with_brackets_are_shown_as_typed() -> None:
    s = new(strip_sheet([2, 1]), players=2)
    s.seats = ["[bold]Ann", "Bo [2]"]
    text = plain(render_text(s, 0) + render_score(s, None))
    assert "[bold]Ann's sheet" in text and "Bo [2]'s score pad" in text
    from rich.console import Console

    console = Console(width=100, color_system=None, record=True)
    console.print(render_text(s, 0))
    assert "[bold]Ann's sheet" in console.export_text()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 200))
def test_markup_is_valid_rich_in_any_position(seed: int, players: int, steps: int) -> None:
    from rich.console import Console

    from meeple.core.rng import Rng

    s = meeple.new_game("gardens", players=players, seed=seed, level=1 + seed % 3)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
        else:
            s.play(rng.choice(s.legal_moves()))
    for markup in (render_text(s, None), render_score(s, None)):
        console = Console(width=200, color_system=None, record=True)
        console.print(markup)  # a markup error would raise here
        shown = [line.rstrip() for line in console.export_text().splitlines()]
        assert shown == [line.rstrip() for line in plain(markup).splitlines()]
