"""Takenokolor in the terminal: colours readable on dark and light backgrounds, letters that
read without colour, 'your' wording, the score pad as printed, the notation help and the
announcements after a move (ladybugs, races, areas, free colourings, the panda, the end)."""

from __future__ import annotations

import random

import pytest
from rich.color import ColorType
from rich.style import Style
from rich.text import Text

import meeple
from meeple.core.present import announcements, presentation
from meeple.core.view import terminal_score, terminal_text
from meeple.games.takenokolor.sheet import COLOURS
from tests.games.takenokolor.helpers import new, paint, roll

SHEETS = ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"]


def _played(sheet: str, players: int = 3, moves: int = 150, seed: int = 4) -> meeple.State:  # type: ignore[type-arg]
    s = new(sheet, players)
    s.seats = ["you", "greedy (1)", "Ann", "Bob"][:players]
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        s.play(rng.choice(s.legal_moves()))
    return s


def _luminance(rgb: tuple[int, int, int]) -> float:
    def ch(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _styles(markup: str) -> list[Style]:
    text = Text.from_markup(markup)
    out = []
    for span in text.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
        out.append(style)
    return out


BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def _screen(s: meeple.State, seat: int) -> str:  # type: ignore[type-arg]
    """The screen ``seat`` sees of their own garden."""
    return terminal_text(s, seat, seat)


def _pad(s: meeple.State, seat: int) -> str:  # type: ignore[type-arg]
    """The score pad alone, as ``seat`` sees it."""
    pad = terminal_score(s, seat, seat)
    assert pad is not None
    return pad


@pytest.mark.parametrize("sheet", SHEETS)
def test_colours_read_on_dark_and_light_terminals(sheet: str) -> None:
    s = _played(sheet)
    for markup in (_screen(s, 0), _pad(s, 0)):
        for style in _styles(markup):
            for colour in (style.color, style.bgcolor):
                # the 16 theme colours differ between terminals (dark blue on black)
                assert colour is None or colour.type not in (ColorType.STANDARD,
                                                              ColorType.WINDOWS), style
            if style.color is None:
                continue
            fg = tuple(style.color.get_truecolor())
            if style.bgcolor is None:
                assert _contrast(fg, BLACK) >= 3 and _contrast(fg, WHITE) >= 3, style
            else:
                assert _contrast(fg, tuple(style.bgcolor.get_truecolor())) >= 4.5, style


@pytest.mark.parametrize("sheet", SHEETS)
def test_every_item_reads_without_colour_id_letter_and_symbol(sheet: str) -> None:
    s = _played(sheet)
    plain = Text.from_markup(_screen(s, 0)).plain
    cs = s.cs
    for i, iid in enumerate(cs.item_ids):
        c = cs.item_colour[i]
        done = s.coloured[0] >> i & 1
        letter = "*" if c == 4 else COLOURS[c]
        if done and cs.adjacent >> i & 1:
            letter = COLOURS[(s.colcode[0] >> (2 * i)) & 3]
        assert f"{iid} {letter}" in plain, iid
    for area in cs.sheet.areas:  # every area is named in the grid or the list below it
        assert area.id in plain
    assert "○ □ △" in plain and "B blue" in plain and "> legal now" in plain


def test_your_garden_never_you_s() -> None:
    s = _played("2-pandas", 2, moves=0)
    text = Text.from_markup(_screen(s, 0)).plain
    assert "Your garden" in text and "you's" not in text.lower()
    assert "Ann" not in text
    s.seats = ["Ann", "you"]
    assert "Ann's garden" in Text.from_markup(_screen(s, 0)).plain


def test_refusals_say_you_with_the_right_verb() -> None:
    s = new("2-pandas", 2)
    s.seats = ["you", "Ann"]
    roll(s, "circle square triangle square")
    reasons = []
    for text in ("roll B circle", "colour b7.1", "take B", "take Y"):
        try:
            s.play(text)  # 'take B' is legal; the others are refused
        except meeple.IllegalMove as exc:
            reasons.append(exc.reason)
    assert len(reasons) == 3
    joined = " ".join(reasons)
    assert "you are to move" in joined and "you colour one item" in joined
    for wrong in ("you's", "you is", "you colours", "you has"):
        assert wrong not in joined


def test_free_colouring_refusal_says_you_have() -> None:
    s = new("2-pandas", 1)
    s.seats = ["you"]
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    s.play("take G")
    s.play("c4")
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("take B")
    assert "you have a free colouring" in exc.value.reason


@pytest.mark.parametrize("sheet", SHEETS)
def test_score_pad_every_row_as_printed_with_what_it_counts(sheet: str) -> None:
    s = _played(sheet, 3, moves=300)
    assert presentation("takenokolor").draw_score is not None
    pad = Text.from_markup(_pad(s, 0)).plain
    lines = pad.splitlines()
    scores = s.scores()
    assert lines[0].split()[:2] == ["Score", "pad"] and "greedy (1)" in lines[0]
    for row in s.cs.sheet.scoring:
        line = next(ln for ln in lines if ln.startswith(row.row))
        values = [int(v) for v in line[len(row.row):].split()]
        assert values == [sc.breakdown[row.row] for sc in scores], row.row
        meaning = lines[lines.index(line) + 1]
        assert meaning.startswith("  ") and len(meaning.strip()) > 5  # what it counts
    total = next(ln for ln in lines if ln.startswith("Total"))
    assert [int(v) for v in total.split()[1:]] == [sc.total for sc in scores]
    # the pad alone: no garden grid
    assert "garden" not in pad.lower() or "Your garden" not in pad


def test_score_pad_details_count_the_rows_for_each_seat() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "s1", "s2", "s3", "s4", "s5", "b1.1")
    pad = Text.from_markup(_pad(s, 0)).plain
    lines = pad.splitlines()
    sun = next(k for k, ln in enumerate(lines) if ln.startswith("Sun"))
    assert lines[sun].split()[1:] == ["5", "0"]
    assert "5 per complete sun" in lines[sun + 1]
    assert lines[sun + 2].split() == ["1", "of", "1", "0", "of", "1"]


def test_notation_help_names_this_games_forms() -> None:
    help_text = presentation("takenokolor").notation_help
    for form in ("take P", "colour b3.2", "free b1.1", "b3.2", "pink"):
        assert form in help_text
    assert "waste" not in help_text  # not Gardens' examples


def _announce(s: meeple.State, text: str) -> list[str]:  # type: ignore[type-arg]
    before = s.clone()
    s.play(text)
    return announcements(before, s)


def test_announces_a_ladybug_circled_and_the_area_completed() -> None:
    s = new("2-pandas", 2)
    s.seats = ["you", "Ann"]
    paint(s, 0, "b1.1")
    roll(s, "circle square triangle square")
    s.play("take G")
    said = _announce(s, "b1.2")
    assert "You circle a ladybug: top of bamboo b1 (1 of 3)" in said
    assert any(x.startswith("You complete your bamboo b1") for x in said)
    assert not any("you's" in x or "you circles" in x for x in said)


def test_announces_ann_circles_her_third_ladybug_and_the_end_of_the_game() -> None:
    s = new("2-pandas", 2)
    s.seats = ["you", "Ann"]
    paint(s, 1, "b1.1", "b1.2", "b5.1", "b5.2", "b3.1", "b3.2")
    roll(s, "circle circle triangle square")
    s.play("take B")
    said = _announce(s, "b7.1")
    assert "Ann can colour nothing" not in " ".join(said)
    s.play("take Y")
    said = _announce(s, "b3.3")
    assert "Ann circles a ladybug: top of bamboo b3 (3 of 3); the game ends after this round (T4)" in said
    assert s.is_over
    assert any(x.startswith("Game over after round 1: Ann circled 3 ladybugs (T4)") for x in said)


def test_announces_the_panda_passing_and_a_skipped_seat() -> None:
    s = new("2-pandas", 2)
    s.seats = ["you", "Ann"]
    paint(s, 1, "b7.1", "c1", "b4.1", "s1", "b1.1", "s5")  # Ann: no circle left to colour
    roll(s, "circle circle circle circle")
    s.play("take B")
    said = _announce(s, "b7.1")
    assert "Ann can colour nothing with the markers left and is skipped (T2)" in said
    assert "Round 1 is over; the panda passes to Ann, who rolls next" in said
    assert s.holder == 1


def test_announces_a_free_colouring_earned_and_a_race_won() -> None:
    s = new("4-pandas-river", 2)
    s.seats = ["you", "Ann"]
    paint(s, 0, "r1", "l1t")
    roll(s, "square circle circle triangle")
    s.play("take B")
    said = _announce(s, "r2a")  # a lantern symbol: top OR bottom of a lantern
    assert any(x.startswith("You earn a free colouring") for x in said)
    said = _announce(s, "l1b")
    assert any(x.startswith("You reach lantern l1") and "you keep 4" in x for x in said)


def test_sun_lock_out_is_announced_and_drawn_x_for_the_others() -> None:
    s = new("3-pandas", 2)
    s.seats = ["you", "Ann"]
    paint(s, 0, "s1", "s2", "s3")
    roll(s, "circle square triangle square")  # B circle: s4
    s.play("take B")
    said = _announce(s, "s4")
    assert "Ann's sun is locked: someone completed theirs first (T6)" in said
    plain = Text.from_markup(_screen(s, 1)).plain
    assert "xs1 Y" in plain and "Ann's garden" in plain


@pytest.mark.parametrize("sheet", SHEETS)
def test_wording_agrees_with_you_in_whole_games(sheet: str) -> None:
    rng = random.Random(sheet)
    s = new(sheet, 3)
    s.seats = ["you", "Ann", "Bob"]
    said: list[str] = []
    while not s.is_over:
        before = s.clone()
        s.play(rng.choice(s.legal_moves()))
        said += announcements(before, s)
    assert any("ladybug" in x for x in said) and "Game over" in said[-1]
    text = " ".join(said) + Text.from_markup(_screen(s, 0) + _pad(s, 0)).plain
    for wrong in ("you's", "you is", "you has", "you circles", "you completes", "you earns",
                  "you keeps", "you reaches", "you rolls", "You is", "You has", "You circles"):
        assert wrong not in text
