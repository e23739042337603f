"""Sheets as data (R2, R9, R11): the shipped reconstructions, validation of users' sheets,
any graph (diagonals included), records carrying the sheet, and the terminal drawing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple
from meeple.core.sheets import SheetProblems
from meeple.core.view import terminal_text
from meeple.games.reefs.sheet import COLOURS, SHIPPED_DIR, ReefsSheet, load_board
from tests.games.reefs.helpers import lattice_sheet, legal, new, roll, turn


@pytest.mark.parametrize("name", ["small-ocean", "the-whirlpools", "the-propellers"])
def test_shipped_sheets_are_marked_reconstructed(name: str) -> None:
    board = load_board(name)
    assert board.sheet.reconstructed is True
    assert "Reconstructed" in board.sheet.note


def _edge(board: object, e: int) -> bool:
    xs = [x for x, _ in board.xy]  # type: ignore[attr-defined]
    ys = [y for _, y in board.xy]  # type: ignore[attr-defined]
    x, y = board.xy[e]  # type: ignore[attr-defined]
    return x in (min(xs), max(xs)) or y in (min(ys), max(ys))


def test_level1_small_ocean() -> None:
    b = load_board("small-ocean")
    assert len(b.entries) >= 8 and all(_edge(b, e) for e in b.entries)
    colours = {b.treasure_colour[t] for t in range(b.n_treasures)}
    assert colours == set(range(5))
    assert all(1 <= v <= 3 for v in b.treasure_value)
    assert 8 <= bin(b.coin_mask).count("1") <= 12
    assert b.whirl_mask == 0 and b.prop_mask == 0


def test_level2_whirlpools_and_neutral_treasures() -> None:
    b = load_board("the-whirlpools")
    assert b.whirl_mask and 5 in b.treasure_colour  # NEUTRAL
    assert b.n > load_board("small-ocean").n


def test_level3_propellers() -> None:
    b = load_board("the-propellers")
    assert b.n_props > 0
    assert any(d[0] and d[1] for d in b.directions)  # it includes diagonals


def test_level_option_picks_the_sheet() -> None:
    for level, name in ((1, "small-ocean"), (2, "the-whirlpools"), (3, "the-propellers")):
        s = meeple.new_game("reefs", players=2, level=level)
        assert s.sheet_data()["name"] == name
        assert s.variant() == {"level": level}
    with pytest.raises(meeple.BadVariant):
        meeple.new_game("reefs", players=2, level=4)
    with pytest.raises(meeple.BadVariant):
        meeple.new_game("reefs", players=5)


def test_r2_diagonal_connections_are_straight_lines_too() -> None:
    # a3 -> b2 is direction (1, -1); b2 -> c1 goes on in the same direction
    sheet = lattice_sheet(diagonals=(("a3", "b2"), ("b2", "c1")))
    s2 = new(sheet)
    roll(s2, O="3any", R="2straight")
    turn(s2, "O", "in1", "a3", "a4", "a5")
    s2.play("take R")
    s2.play("in2")
    assert legal(s2) == ["c1"]
    s2.play("c1")  # 2 straight from in2 is in2-c1-c2 only
    assert legal(s2) == ["c2"]
    s3 = new(sheet)
    roll(s3, O="1any", R="2straight")
    turn(s3, "O", "in1", "a3")
    s3.play("take R")
    s3.play("forfeit")
    s3.play("take B")
    s3.play("forfeit")
    s3.play("take G")
    s3.play("forfeit")
    s3.play("take P")
    s3.play("forfeit")
    roll(s3, O="2straight")
    s3.play("take O")
    assert "b2" in legal(s3)  # the diagonal a3-b2-c1 is a straight line of 2
    s3.play("b2")
    assert legal(s3) == ["c1"]


def test_user_sheet_file_plays_and_records_carry_the_sheet(tmp_path: Path) -> None:
    text = (SHIPPED_DIR / "small-ocean.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('name = "small-ocean"', 'name = "mine"'), encoding="utf-8")
    s = meeple.new_game("reefs", players=2, sheet=str(path), seed=4)
    assert s.sheet_data()["name"] == "mine"
    rng = meeple.Rng(2)
    for _ in range(40):
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
        else:
            s.play(rng.choice(s.legal_moves()))
    rec = json.loads(json.dumps(s.record()))
    assert meeple.replay(rec).key() == s.key()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["connections"].append(["a1", "b1"]), "listed twice"),
        (lambda d: d["connections"].append(["a1", "zz"]), "not in spaces"),
        (lambda d: d["connections"].append(["a1", "a1"]), "itself"),
        (lambda d: d["coins"].append("in1"), "entry point 'in1' holds a coin"),
        (lambda d: d["coins"].extend(["a1", "a1"]), "one item per space"),
        (lambda d: d["spaces"].append({"id": "a1", "x": 9, "y": 9}), "used twice"),
        (lambda d: d["spaces"].append({"id": "stop", "x": 9, "y": 9}), "reserved"),
        (lambda d: d["spaces"].append({"id": "q q", "x": 9, "y": 9}), "not allowed"),
        (lambda d: d["spaces"].append({"id": "zz", "x": 1, "y": 1}), "share the position"),
        (lambda d: d["treasure_rows"]["red"].update(grey=9), "grey is 9"),
        (lambda d: d["treasures"].append({"space": "a1", "colour": "pink", "value": 1}),
         "neutral"),
        (lambda d: d.update(extra_key=1), "xtra"),
    ],
)
def test_broken_user_sheets_get_clear_errors(change: object, message: str) -> None:
    data = lattice_sheet()
    change(data)  # type: ignore[operator]
    with pytest.raises(meeple.SheetError, match=message):
        load_board(data)


def test_two_connections_in_one_direction_are_refused() -> None:
    data = lattice_sheet()
    data["spaces"].append({"id": "far", "x": 3, "y": 3 + 0})  # same place as c3: refused
    with pytest.raises(meeple.SheetError):
        load_board(data)
    data = lattice_sheet(diagonals=(("a1", "c3"), ("a1", "b2")))
    with pytest.raises(meeple.SheetError, match="same direction"):
        load_board(data)


def test_sheet_error_names_file_and_line(tmp_path: Path) -> None:
    text = (SHIPPED_DIR / "small-ocean.toml").read_text(encoding="utf-8")
    bad = text.replace("values = [1, 2, 3, 5, 7, 9, 12, 15]", 'values = "many"')
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("reefs", players=2, sheet=str(path))
    assert exc.value.line is not None and str(path) in str(exc.value)
    assert "coin_row" in str(exc.value)


def test_model_lists_every_colour_row() -> None:
    assert set(ReefsSheet.model_fields["treasure_rows"].annotation.model_fields) == set(COLOURS)  # type: ignore[union-attr]


def test_terminal_text_shows_routes_letters_ids_and_score_pad() -> None:
    s = meeple.new_game("reefs", players=2, level=2)
    roll(s, O="3any")  # type: ignore[arg-type]
    s.play("take O")
    s.play("in1")
    s.play("b1")
    text = terminal_text(s, None, None)
    assert "in1" in text and "a1" in text and "TOTAL" in text
    assert "O orange" in text and "@" in text
    s.play("b2")
    assert "O" in terminal_text(s, 0, 0).split("seat 0", 1)[1]


@pytest.mark.parametrize("name", ["small-ocean", "the-whirlpools", "the-propellers"])
def test_r11_grey_boxes_reach_the_box_under_6(name: str) -> None:
    b = load_board(name)
    for c in range(5):
        assert b.row_values[c][b.row_grey[c] - 1] == 6


def test_semantic_sheet_errors_point_at_the_key_line(tmp_path: Path) -> None:
    text = (SHIPPED_DIR / "small-ocean.toml").read_text(encoding="utf-8")
    bad = text.replace('coins = ["c1"', 'coins = ["in1", "c1"')
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(meeple.SheetError, match="holds a coin") as exc:
        meeple.new_game("reefs", players=2, sheet=str(path))
    assert exc.value.line is not None
    assert bad.splitlines()[exc.value.line - 1].startswith("entry_points")


# issue 39 #7: every problem at once, each at its own entry's line; no negative values
def test_every_problem_of_a_reefs_file_is_listed_at_once_at_its_own_line(tmp_path: Path) -> None:
    text = (SHIPPED_DIR / "the-whirlpools.toml").read_text(encoding="utf-8")
    bad = (text.replace('{ id = "b1", x = 2, y = 1 }', '{ id = "a1", x = 2, y = "one" }')
           .replace('{ id = "c1", x = 3, y = 1 }', '{ id = "c1", x = 1, y = 1 }')
           .replace("orange = { values = [1, 3, 6", "orange = { values = [1, -3, 6")
           .replace("red = { values = [1, 3, 6, 8, 10, 12], grey = 3 }",
                    "red = { values = [1, 3, 6, 8, 10, 12], grey = 7 }")
           .replace("two_each = 5", "two_each = -5"))
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("reefs", players=2, sheet=str(path))
    got = {where: (line, msg) for line, where, msg in exc.value.problems}
    lines = bad.splitlines()

    def at(where: str) -> str:
        assert got[where][0] is not None, got[where]
        return lines[got[where][0] - 1]

    assert "used twice" in got["spaces[1].id"][1] and '"a1", x = 2' in at("spaces[1].id")
    assert "valid integer" in got["spaces[1].y"][1]
    assert "share the position (1, 1)" in got["spaces[2].x"][1] and '"c1"' in at("spaces[2].x")
    assert got["treasure_rows.orange.values[1]"][1] == "must be 0 or more; got -3"
    assert at("treasure_rows.orange.values[1]").startswith("orange =")
    assert "grey is 7; allowed 0..6" in got["treasure_rows.red.grey"][1]
    assert at("treasure_rows.red.grey").startswith("red =")
    assert got["bonus.two_each"][1] == "must be 0 or more; got -5"
    assert at("bonus.two_each").startswith("two_each")
    assert [p[0] for p in exc.value.problems] == sorted(p[0] or 0 for p in exc.value.problems)


@pytest.mark.parametrize(("change", "where"), [
    (lambda d: d["treasures"].append({"space": "c3", "colour": "red", "value": 0}),
     "treasures[{n}].value"),
    (lambda d: d["coin_row"].update(values=[1, -2]), "coin_row.values[1]"),
    (lambda d: d["treasure_rows"]["blue"].update(grey=-1), "treasure_rows.blue.grey"),
    (lambda d: d["bonus"].update(end_coins=-1) if "bonus" in d else d.update(
        bonus={"end_coins": -1}), "bonus.end_coins"),
])
def test_negative_values_are_refused_with_what_is_allowed(change: object, where: str) -> None:
    data = lattice_sheet()
    n = len(data.get("treasures", []))
    change(data)  # type: ignore[operator]
    with pytest.raises(SheetProblems) as exc:
        load_board(data)
    assert [w for _, w, _ in exc.value.problems] == [where.format(n=n)]
    assert " or more; got " in exc.value.problems[0][2]
