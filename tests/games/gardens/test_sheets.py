"""Gardens sheet files: the shipped ones match the issue's shape; user sheets get clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
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
        (('id = "A3"', 'id = "A1"'), None, "unique; repeated: A1"),
        (("q = 2", "q = 1"), None, "share the coordinates"),
        (("row_stars = [10, 12]", "row_stars = [10]"), 8, "one star per row"),
        (("pencil_penalties = [-1, -2]", "pencil_penalties = [1, 2]"), 8, "negative"),
        (('level = 1', 'level = "one"'), 2, "integer"),
        (('{ id = "A3", q = 2, r = 0, garden = "b" }', '{ id = "A3", q = 5, r = 0, garden = "b" }'),
         None, "connected"),
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
