"""Gardens sheet files: the shipped ones match the issue's shape; user sheets get clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.core.sheets import SheetProblems
from meeple.games.gardens.sheet import load


@pytest.mark.parametrize("name", ["level-1", "level-2", "level-3"])
def test_shipped_sheets_shape(name: str) -> None:
    sheet = load(name)
    data = sheet.data
    assert data.reconstructed and "Reconstructed" in data.note
    assert 55 <= sheet.n <= 70
    sizes = [m.bit_count() for m in sheet.garden_masks]
    assert min(sizes) >= 1 and max(sizes) <= 6
    assert sum(1 for s in sizes if s >= 5) >= 6
    assert data.fountain, "a fountain in the middle"
    if data.level == 2:
        assert sorted(sheet.flower_colour[i] for i in range(sheet.n) if sheet.flower_colour[i] >= 0) \
            == [0, 1, 2, 3, 4]
    if data.level == 3:
        assert sheet.tree_mask.bit_count() >= 6
        assert data.scoring.single_colour_boxes == [2, 3, 4, 5]


def test_level_option_picks_the_sheet() -> None:
    for level in (1, 2, 3):
        s = meeple.new_game("gardens", players=2, level=level)
        assert s.variant() == {"level": level}


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "mine.toml"
    p.write_text(text, encoding="utf-8")
    return p


GOOD = """name = "mine"
level = 1
fields = [
  { id = "A1", q = 0, r = 0, garden = "a" },
  { id = "A2", q = 1, r = 0, garden = "a" },
  { id = "A3", q = 2, r = 0, garden = "b" },
]
[scoring]
single_colour_boxes = [2, 3]
row_stars = [10, 12]
colourful_boxes = [6]
pencil_penalties = [-1, -2]
"""


def test_user_sheet_plays(tmp_path: Path) -> None:
    s = meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, GOOD)))
    assert s.sheet_data()["name"] == "mine"
    rec = s.record()
    assert meeple.replay(rec).key() == s.key()


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (('garden = "b"', 'garden = ""'), 6, "at least 1 character"),
        (('id = "A3"', 'id = "a3"'), 6, "capital letter"),
        (('id = "A3"', 'id = "A1"'), 6, "'A1' is used twice"),
        (("q = 2", "q = 1"), 6, "share the coordinates"),
        (("row_stars = [10, 12]", "row_stars = [10]"), 10, "one star per row"),
        (("pencil_penalties = [-1, -2]", "pencil_penalties = [1, 2]"), 12, "negative"),
        (('level = 1', 'level = "one"'), 2, "integer"),
        (('{ id = "A3", q = 2, r = 0, garden = "b" }', '{ id = "A3", q = 5, r = 0, garden = "b" }'),
         6, "connected"),
        (("colourful_boxes = [6]", "colourful_boxes = [6]\ncolour = 3"), None, "Extra inputs"),
        (("[scoring]", "[scoring"), 8, "not valid TOML"),
    ],
)
def test_bad_user_sheets_name_the_problem(tmp_path: Path, change: tuple[str, str], line: int | None,
                                          words: str) -> None:
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("gardens", players=2, sheet=str(path))
    assert words in str(exc.value)
    if line is not None:
        assert exc.value.line == line, str(exc.value)


def test_missing_sheet_names_shipped_ones() -> None:
    with pytest.raises(meeple.SheetError, match="level-1, level-2, level-3"):
        meeple.new_game("gardens", sheet="level-9")
    with pytest.raises(meeple.SheetError, match="cannot read"):
        meeple.new_game("gardens", sheet="/nonexistent/x.toml")


def test_bad_variant_and_players_are_refused_clearly() -> None:
    with pytest.raises(meeple.BadVariant, match="1 to 4 players"):
        meeple.new_game("gardens", players=5)
    with pytest.raises(meeple.BadVariant, match="choose from 1, 2, 3"):
        meeple.new_game("gardens", level=4)
    with pytest.raises(meeple.BadVariant, match="no option 'colour'"):
        meeple.new_game("gardens", colour="red")
    with pytest.raises(meeple.UnknownGame, match="known games: gardens"):
        meeple.new_game("chess")
    with pytest.raises(meeple.BadVariant, match="whole number"):
        meeple.new_game("gardens", players="2")  # type: ignore[arg-type]


def test_bad_records_are_refused_clearly(tmp_path: Path) -> None:
    s = meeple.new_game("gardens", players=2, seed=3)
    rec = s.record()
    rec["moves"] = ["roll O3", "take O"]
    with pytest.raises(meeple.BadRecord, match="move 2"):
        meeple.replay(rec)
    with pytest.raises(meeple.BadRecord, match="no 'moves'"):
        meeple.replay({"game": "gardens", "players": 2})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(meeple.BadRecord, match="not a JSON game record"):
        meeple.replay(bad)


# issue 39 #7: every problem at once, each at the line of its own field; no negative points
def test_every_problem_is_listed_at_once_each_at_its_own_line(tmp_path: Path) -> None:
    text = (GOOD.replace('{ id = "A3", q = 2', '{ id = "A1", q = 2')
            .replace("row_stars = [10, 12]", "row_stars = [10]")
            .replace('pencil_penalties = [-1, -2]', 'pencil_penalties = [-1, -2]\n'
                     'colourful_star = "many"\nouter_fields_bonus = -6'))
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, text)))
    got = [(line, where) for line, where, _ in exc.value.problems]
    assert got == [(6, "fields[2].id"), (10, "scoring.row_stars"),
                   (13, "scoring.colourful_star"), (14, "scoring.outer_fields_bonus")]
    assert "must be 0 or more; got -6" in exc.value.problems[-1][2]


def test_a_duplicate_is_found_beside_problems_of_the_same_fields(tmp_path: Path) -> None:
    """The duplicate id, a shared position and a disconnected garden are found though another
    field of the same list is wrong (they used to wait until every field was valid)."""
    text = (GOOD.replace('{ id = "A2", q = 1', '{ id = "A1", q = 1')
            .replace('{ id = "A3", q = 2, r = 0, garden = "b" }',
                     '{ id = "A3", q = 2, r = 0, garden = "b", flower = "pink" },\n'
                     '  { id = "A4", q = 0, r = 0, garden = "a" },\n'
                     '  { id = "A5", q = 9, r = 9, garden = "a" }'))
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, text)))
    got = {(line, where): msg for line, where, msg in exc.value.problems}
    assert "used twice" in got[(5, "fields[1].id")]
    assert "Input should be" in got[(6, "fields[2].flower")]
    assert "share the coordinates (0, 0)" in got[(7, "fields[3].q")]
    assert "garden 'a' is not connected" in got[(8, "fields[4].garden")]
    assert "play area must be connected" in got[(8, "fields[4]")]


SCORE_POINTS = ["colourful_star", "outer_fields_bonus", "all_fields_bonus", "largest_area_bonus",
                "flower_box", "flower_star", "all_flower_fields_bonus", "tree_star",
                "four_gardens_bonus"]


@pytest.mark.parametrize("key", SCORE_POINTS)
def test_a_negative_bonus_or_point_value_is_refused(tmp_path: Path, key: str) -> None:
    text = GOOD + f"{key} = -1\n"
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, text)))
    assert exc.value.problems == [(13, f"scoring.{key}", "must be 0 or more; got -1")]
    meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, GOOD + f"{key} = 0\n")))


@pytest.mark.parametrize(("change", "where", "allowed"), [
    (("single_colour_boxes = [2, 3]", "single_colour_boxes = [2, -3]"),
     "scoring.single_colour_boxes[1]", "0 or more"),
    (("row_stars = [10, 12]", "row_stars = [-10, 12]"), "scoring.row_stars[0]", "0 or more"),
    (("colourful_boxes = [6]", "colourful_boxes = [-6]"), "scoring.colourful_boxes[0]",
     "0 or more"),
    (("pencil_penalties = [-1, -2]", "pencil_penalties = [-1, 2]"), "scoring.pencil_penalties[1]",
     "0 or less"),
    (("pencil_penalties = [-1, -2]", "pencil_penalties = [-1, -2]\nfour_gardens_count = 0"),
     "scoring.four_gardens_count", "1 or more"),
])
def test_score_pad_lists_refuse_values_of_the_wrong_sign(tmp_path: Path, change: tuple[str, str],
                                                          where: str, allowed: str) -> None:
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("gardens", players=2, sheet=str(_write(tmp_path, GOOD.replace(*change))))
    assert [(w, allowed in m) for _, w, m in exc.value.problems] == [(where, True)]


@pytest.mark.parametrize("name", ["level-1", "level-2", "level-3"])
def test_shipped_sheets_still_load_with_the_same_values(name: str) -> None:
    data = load(name).data
    assert data.scoring.outer_fields_bonus == 6 and data.scoring.four_gardens_count == 4


def test_sheets_validate_lists_the_same_complete_list(tmp_path: Path) -> None:
    """``meeple sheets validate`` gives every problem, with its line, as the upload does."""
    from typer.testing import CliRunner

    from meeple.cli import app

    text = (GOOD.replace('{ id = "A3", q = 2', '{ id = "A1", q = 2')
            .replace("row_stars = [10, 12]", "row_stars = [10]")
            .replace('pencil_penalties = [-1, -2]', 'pencil_penalties = [-1, -2]\n'
                     'colourful_star = "many"\nouter_fields_bonus = -6'))
    res = CliRunner().invoke(app, ["sheets", "validate", str(_write(tmp_path, text)),
                                   "--game", "gardens"])
    assert res.exit_code == 2
    out = " ".join((res.stderr or res.output).split())
    assert "4 problems" in out
    for shown in ("line 6: fields[2].id: field id 'A1' is used twice",
                  "line 10: scoring.row_stars: row_stars has 1 values",
                  "line 13: scoring.colourful_star: Input should be a valid integer",
                  "line 14: scoring.outer_fields_bonus: must be 0 or more; got -6"):
        assert shown in out, out
