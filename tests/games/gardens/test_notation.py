"""Gardens notation as players type it (bare forms, one word a step) and the options a game is
started with (a level and a sheet must not contradict each other)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core.present import presentation
from meeple.games.gardens.rules import GardensState
from tests.games.gardens.helpers import new, roll, strip_sheet


def taking() -> GardensState:
    s = new(strip_sheet([3, 3]), players=2)
    roll(s, "O2 R3 G1 B1 P1")
    return s


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("take O", "take O"), ("TAKE o", "take O"), ("O", "take O"), ("o", "take O"),
     ("orange", "take O"), ("Purple", "take P"), ("takeR", "take R"), ("take green", "take G"),
     ("waste", "waste"), ("W", "waste"), ("a2", "A2"), (" A2 ", "A2"), ("roll O3", "roll O3")],
)
def test_bare_and_canonical_forms_parse_to_the_canonical_move(typed: str, canonical: str) -> None:
    s = taking()
    assert str(s.parse_move(typed)) == canonical


def test_each_word_of_a_line_is_a_step_of_its_own() -> None:
    s = taking()
    line = "R A1 A2 A3"  # as typed at the prompt: the CLI splits it into words
    for word in line.split():
        s.play(word)
    assert [str(m) for m in s.history[-4:]] == ["take R", "A1", "A2", "A3"]
    line = "O w"
    for word in line.split():
        s.play(word)
    assert s.crossed[1] == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_every_legal_move_reads_back_from_its_text_in_any_case(seed: int, steps: int) -> None:
    s = meeple.new_game("gardens", players=2, seed=seed, level=1 + seed % 3)
    for _ in range(steps):
        if s.is_over:
            break
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
            continue
        for m in s.legal_moves():
            assert s.parse_move(str(m)) == m
            assert s.parse_move(str(m).lower()) == m
            if str(m).startswith("take "):
                assert s.parse_move(str(m)[5:]) == m
        s.play(s.legal_moves()[seed % len(s.legal_moves())])


@pytest.mark.parametrize(
    ("typed", "words"),
    [("take Z", "cannot read"), ("Z", "cannot read"), ("take", "cannot read"),
     ("Z9", "no field 'Z9'"), ("A1 A2", "cannot read"), ("B", "not in the middle")],
)
def test_refused_input_names_the_problem_and_changes_nothing(typed: str, words: str) -> None:
    s = taking()
    s.play("B")
    s.play("A1")  # seat 0 used the blue pencil; seat 1 takes next
    before = s.key(), list(s.history)
    with pytest.raises(meeple.IllegalMove, match=words):
        s.play(typed)
    assert (s.key(), list(s.history)) == before


def test_notation_help_is_registered_with_examples() -> None:
    text = presentation("gardens").notation_help
    for example in ("take O", "D4", "waste", "O D4 D5", " w", "orange"):
        assert example in text


# ---------------------------------------------------------------------- options
@pytest.mark.parametrize(("level", "sheet"), [(2, "level-1"), (1, "level-3"), (3, "level-2")])
def test_a_level_contradicting_a_shipped_sheet_is_refused(level: int, sheet: str) -> None:
    with pytest.raises(meeple.BadVariant) as exc:
        meeple.new_game("gardens", level=level, sheet=sheet)
    message = str(exc.value)
    assert f"level={level}" in message and repr(sheet) in message
    assert f"level={level} alone" in message and f"sheet={sheet!r} alone" in message


def test_a_level_agreeing_with_the_sheet_or_either_alone_is_accepted() -> None:
    assert meeple.new_game("gardens", level=2, sheet="level-2").variant() == {"level": 2}
    assert meeple.new_game("gardens", sheet="level-3").variant() == {"level": 3}
    assert meeple.new_game("gardens", level=3).variant() == {"level": 3}
    assert meeple.new_game("gardens").variant() == {"level": 1}


MINE = """name = "mine"
level = 1
fields = [
  { id = "A1", q = 0, r = 0, garden = "a" },
  { id = "A2", q = 1, r = 0, garden = "a" },
]
[scoring]
single_colour_boxes = [2]
row_stars = [10]
colourful_boxes = [6]
pencil_penalties = [-1]
"""


def test_a_user_sheet_with_another_level_is_refused_and_its_own_level_accepted(
        tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE, encoding="utf-8")
    with pytest.raises(meeple.BadVariant, match="level 1 sheet: leave out the level"):
        meeple.new_game("gardens", level=2, sheet=str(path))
    s = meeple.new_game("gardens", level=1, sheet=str(path))
    assert s.variant() == {"level": 1}
    # a record carries the sheet and its level: it replays
    assert meeple.replay(s.record()).key() == s.key()


def test_the_command_line_refuses_contradicting_level_and_sheet() -> None:
    result = CliRunner().invoke(app, ["play", "gardens", "--level", "2", "--sheet", "level-1",
                                      "--seats", "me"], input="quit\ny\n")
    assert result.exit_code == 2
    assert "contradicts" in result.output


def test_notation_help_is_plain_text_within_80_columns() -> None:
    text = presentation("gardens").notation_help
    assert "[/" not in text and "[bold" not in text  # no markup: clients print it as is
    assert all(len(line) <= 80 for line in text.splitlines())
