"""Reefs for a player at the terminal: the score pad as printed, readable colours, the route ends
and next spaces on the lattice, announcements in words, the move help and bare forms."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import Color

import meeple
from meeple.core.present import announcements, presentation
from meeple.core.view import terminal_score, terminal_text
from meeple.games.reefs.rules import ReefsState
from meeple.games.reefs.sheet import COLOURS, LETTERS
from tests.games.reefs.helpers import lattice_sheet, new, roll, turn


def _screen(s: ReefsState, seat: int | None) -> str:
    """The terminal screen about ``seat`` as that seat sees it (drawn from its view)."""
    return terminal_text(s, seat, seat)


def _pad(s: ReefsState, seat: int | None) -> str:
    """The score pads as printed, ``seat`` first, from its view."""
    text = terminal_score(s, seat, seat)
    assert text is not None
    return text


def _plain(markup: str) -> str:
    from rich.text import Text

    return Text.from_markup(markup).plain


def _level(level: int, players: int = 2) -> ReefsState:
    s = meeple.new_game("reefs", players=players, level=level, seed=1)
    assert isinstance(s, ReefsState)
    return s


# ---------------------------------------------------------------------- the score pad

def _pad_position() -> ReefsState:
    """Seat 0 ('you') recovered a 3 orange treasure and a coin; seat 1 ('Ann') nothing."""
    sheet = lattice_sheet(treasures=(("a2", "orange", 3),), coins=("a1",))
    s = new(sheet, players=2)
    s.seats = ["you", "Ann"]
    roll(s, O="3any")
    turn(s, "O", "in1", "a3", "a2", "a1")
    return s


def test_score_pad_prints_every_row_of_every_seat() -> None:
    s = _pad_position()
    text = _plain(_pad(s, 0))
    lines = text.splitlines()
    for name in ("you", "Ann"):
        assert name in lines
    for c, colour in enumerate(COLOURS):
        rows = [ln for ln in lines if ln.startswith(f"{LETTERS[c]} {colour}")]
        assert len(rows) == 2, colour  # one row per seat
    assert len([ln for ln in lines if ln.startswith("$ coins")]) == 2
    assert len([ln for ln in lines if "game end:" in ln]) == 2
    assert len([ln for ln in lines if ln.startswith("TOTAL")]) == 2
    # your orange row: three coloured boxes (two of them grey), the next box marked
    orange = next(ln for ln in lines if ln.startswith("O orange"))
    # the test sheet's row: values 1 2 4 6 8, the first four boxes grey
    assert "O░ 1 O░ 2 O░ 4 >░ 6 ·  8  = 4" in orange
    coins = next(ln for ln in lines if ln.startswith("$ coins"))
    assert "$  1 >  2" in coins and coins.endswith("= 1")
    assert "★ 2 boxes in every row: open (5); a full row: open (5)" in text
    assert "(reached: none)" in text and "last coin box (1 of 8)" in text


def test_score_pad_names_the_star_holders() -> None:
    s = _pad_position()
    s.two_each_holder = 1
    s.full_row_holder = 0
    text = _plain(_pad(s, 0))
    you, ann = text.split("\nAnn\n")
    assert "★ 2 boxes in every row: Ann; a full row +5" in you
    assert "★ 2 boxes in every row +5; a full row: you" in ann


def test_score_pad_shows_grey_boxes_and_propellers_used_left_to_right() -> None:
    s = _level(3)
    sh = s.sheet_for_update(0)
    sh.props, sh.props_used = 3, 1
    text = _plain(_pad(s, 0))
    assert "% propellers x % % · ·" in text
    assert "3 of 5 collected, 1 used, 2 ready" in text
    grey = s.board.row_grey[0]
    orange = next(ln for ln in text.splitlines() if ln.startswith("O orange"))
    assert orange.count("░") == grey


def test_score_pad_viewer_first() -> None:
    s = _pad_position()
    assert _plain(_pad(s, 1)).splitlines()[0] == "Ann"
    assert _plain(_pad(s, None)).splitlines()[0] == "you"


# ---------------------------------------------------------------------- colours

def _contrast(rgb: tuple[int, int, int], against: float) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])
    hi, lo = max(lum, against), min(lum, against)
    return (hi + 0.05) / (lo + 0.05)


_WORDS = {"bold", "dim", "reverse", "underline", "italic", "not", "on", "/"}


def _colours_used(markup: str) -> set[str]:
    found = set()
    for tag in re.findall(r"(?<!\\)\[([^\]]*)\]", markup):
        for word in tag.split():
            if word not in _WORDS and word:
                found.add(word)
    return found


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_colour_reads_on_dark_and_light_terminals(level: int) -> None:
    s = _level(level)
    roll(s, O="3any", B="2straight")
    s.play("take B")
    s.play(str(s.legal_moves()[0]))
    used = _colours_used(_screen(s, 0)) | _colours_used(_pad(s, 0))
    assert len(used) >= 5  # the five pencils at least
    for name in used:
        rgb = Color.parse(name).get_truecolor()
        rgb_t = (rgb.red, rgb.green, rgb.blue)
        assert _contrast(rgb_t, 0.0) >= 3.0, f"{name} is too dark on a black terminal"
        assert _contrast(rgb_t, 1.0) >= 3.0, f"{name} is too light on a white terminal"


def test_the_drawing_reads_without_colour() -> None:
    s = new(lattice_sheet(treasures=(("b3", "red", 2),)), players=1)
    roll(s, O="3any")
    turn(s, "O", "in1", "a3", "b3")
    text = _plain(_screen(s, 0))
    assert ">in1O" in text and "OOOOOO" in text  # the route is its letter
    assert "b3:2r" in text  # a red treasure, not collected by orange
    assert "Routes: O in1→b3 (2)  R -" in text
    assert "Orange: next step from b3 to" in text
    # the spaces offered are the legal steps
    where = text.split("next step from b3 to ", 1)[1].split(" (underlined)")[0]
    assert sorted(where.split(", ")) == sorted(str(m) for m in s.legal_moves() if m.kind == 3)


def test_next_spaces_are_underlined_and_route_end_reversed() -> None:
    s = new(players=1)
    roll(s, O="3any")
    turn(s, "O", "in1")
    markup = _screen(s, 0)
    assert re.search(r"\[bold #[0-9a-f]{6} reverse\]>in1O", markup)
    assert re.search(r"\[bold underline\]a3\[/\]", markup)


# ---------------------------------------------------------------------- announcements

def _announced(s: ReefsState, *moves: str) -> list[str]:
    before = s.clone()
    for m in moves:
        s.play(m)
    return announcements(before, s)


def test_a_recovered_treasure_is_announced_in_words() -> None:
    s = new(lattice_sheet(treasures=(("a3", "orange", 2),)), players=1)
    s.seats = ["you"]
    roll(s, O="2any")
    s.play("take O")
    said = _announced(s, "in1", "a3")
    assert said == ["you recover the orange treasure (2) on a3: your orange row +2 boxes, "
                    "scores 2 (R7)"]


def test_wording_agrees_with_you_and_with_named_seats() -> None:
    sheet = lattice_sheet(treasures=(("a3", "neutral", 1),), coins=("a2",))
    for name, recover, row in (("you", "you recover", "your"), ("Ann", "Ann recovers", "Ann's")):
        s = new(sheet, players=1)
        s.seats = [name]
        roll(s, O="2any")
        s.play("take O")
        said = " ".join(_announced(s, "in1", "a3", "a2"))
        assert (f"{recover} the neutral treasure (1) on a3 with orange: {row} orange row "
                f"+1 box, scores 1 (R7)") in said
        assert f"{row} coin row 1 of 8, scores 1 (R8)" in said
        assert "you's" not in said and "you recovers" not in said and "you takes" not in said


def test_forfeit_coin_whirlpool_propeller_and_bonus_stars_are_announced() -> None:
    sheet = lattice_sheet(whirlpools=("b3",), propellers=("a2",), coins=("a1",),
                          treasures=tuple((f"{c}{i}", colour, 1) for c, colour in zip(
                              "abcde", COLOURS, strict=True) for i in (4, 5)))
    s = new(sheet, players=1, level=3)
    s.seats = ["you"]
    roll(s, O="1any", R="2any")
    said = _announced(s, "take O", "forfeit")
    assert said == ["you forfeit the orange pencil: nothing is drawn (R6)"]
    said = _announced(s, "take R", "in1", "a3", "b3")
    assert said == ["your red route reaches the whirlpool b3: the rest of the pencil is lost "
                    "and the route goes on with exactly 3 any steps from there (R12)"]
    said = _announced(s, "b2", "a2", "a1")
    assert said == ["you take the coin on a1: your coin row 1 of 8, scores 1 (R8)",
                    "you collect the propeller on a2 (1 ready to use) (R13)"]
    # bonus star for 2 boxes in every row, given by hand through the holder
    before = s.clone()
    s.two_each_holder = 0
    assert announcements(before, s) == ["you take the star for 2 boxes in every row first: "
                                       "+5 (R10)"]


def test_the_end_of_the_game_and_why_is_announced() -> None:
    s = new(lattice_sheet(coins=("a3",), coin_row=(1,)), players=1)
    s.seats = ["Ann"]
    roll(s, O="1any")
    s.play("take O")
    said = _announced(s, "in1", "a3")
    assert said[-1] == ("The game is over: Ann has reached the last coin box (+5), which ends "
                        "the game (R10, R11)")
    assert any("Ann takes the coin on a3" in x for x in said)
    pad = _plain(_pad(s, 0))
    assert "end, last coin box +5" in pad and "game end:" in pad
    assert "Game over: Ann has reached the last coin box (R11)" in _plain(_screen(s, 0))


def test_announcements_cover_a_whole_game_without_errors() -> None:
    import random

    for level in (1, 2, 3):
        s = _level(level)
        s.seats = ["you", "greedy (1)"]
        r = random.Random(level)
        said: list[str] = []
        while not s.is_over:
            before = s.clone()
            s.play(r.choice(s.legal_moves()))
            said.extend(announcements(before, s))
        assert said[-1].startswith("The game is over")
        bad = re.compile(r"you's|\byou (recovers|takes|collects|uses|forfeits|has|reaches)\b")
        assert not any(bad.search(x) for x in said)


# ---------------------------------------------------------------------- notation

def test_notation_help_is_registered_and_every_example_reads() -> None:
    help_text = presentation("reefs").notation_help
    assert "take O propeller" in help_text and "forfeit" in help_text and "stop" in help_text
    s = _level(3)
    for example in ("take O", "O", "orange", "take O propeller", "O propeller", "take O prop",
                    "O prop", "in1", "enter in1", "c3", "step c3", "stop", "forfeit",
                    "roll O 2any", "roll O2any", "roll orange 2 any", "TAKE o", "C3"):
        assert example.split()[0].lower() in help_text.lower()
        s.parse_move(example)


@pytest.mark.parametrize(("bare", "canonical"), [
    ("O", "take O"), ("orange", "take O"), ("p", "take P"), ("Purple", "take P"),
    ("B propeller", "take B propeller"), ("G prop", "take G propeller"),
    ("take r prop", "take R propeller"), ("roll O2any", "roll O 2any"),
    ("roll G 4+ straight", "roll G 4+straight"), ("roll blue 3 straight", "roll B 3straight"),
    ("enter in2", "in2"), ("step c3", "c3"),
])
def test_bare_forms_read_as_their_canonical_move(bare: str, canonical: str) -> None:
    s = _level(3)
    assert str(s.parse_move(bare)) == canonical


def test_a_bare_form_never_hides_a_space_id() -> None:
    sheet = lattice_sheet()
    sheet["spaces"].append({"id": "O", "x": 9, "y": 9})
    sheet["connections"].append(["O", "e5"])
    s = new(sheet)
    assert str(s.parse_move("O")) == "O"
    assert s.parse_move("O").kind == 3  # a step to the space called O
    assert str(s.parse_move("take O")) == "take O"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_canonical_text_reads_alone_and_two_steps_never_read_as_one(level: int) -> None:
    s = _level(level)
    table = s.moves
    moves = [m for row in table.roll for m in row] + [m for pair in table.take for m in pair]
    moves += [m for m in table.enter if (s.board.entry_mask >> m.a) & 1]
    moves += [m for m in table.step if not (s.board.entry_mask >> m.a) & 1]
    moves += [table.stop, table.forfeit]
    for m in moves:
        assert s.parse_move(str(m)) == m
    ids = s.board.ids
    for a, b in itertools.pairwise(ids):  # 'in1 c3' is two steps, never one move
        with pytest.raises(meeple.IllegalMove):
            s.parse_move(f"{a} {b}")
    for letter in LETTERS:
        with pytest.raises(meeple.IllegalMove):
            s.parse_move(f"take {letter} {ids[0]}")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_case_and_spacing_do_not_matter(data: st.DataObject) -> None:
    s = _level(2)
    steps = [m for m in s.moves.step if not (s.board.entry_mask >> m.a) & 1]
    entries = [s.moves.enter[e] for e in s.board.entries]
    m = data.draw(st.sampled_from([*steps, *entries, *s.moves.take[1], s.moves.stop]))
    words = ["".join(ch.upper() if data.draw(st.booleans()) else ch.lower() for ch in w)
             for w in str(m).split()]
    text = (" " * data.draw(st.integers(1, 3))).join(words)
    assert s.parse_move(f" {text}  ") == m


def test_a_refused_bare_form_leaves_the_state_as_it_was() -> None:
    s = _level(1)
    roll(s, O="1any")
    key = s.key()
    with pytest.raises(meeple.IllegalMove):
        s.play("Z")
    with pytest.raises(meeple.IllegalMove):
        s.play("c3")  # a step before taking a pencil
    assert s.key() == key


def test_a_whirlpool_where_the_route_cannot_go_on_is_announced_as_its_end() -> None:
    rows = {c: {"values": [1, 2, 3], "grey": 1} for c in COLOURS}
    sheet = {
        "name": "dead-end", "entry_points": ["in1"], "whirlpools": ["w"],
        "spaces": [{"id": "in1", "x": 0, "y": 0}, {"id": "a", "x": 1, "y": 0},
                   {"id": "w", "x": 2, "y": 0}, {"id": "z", "x": 2, "y": 1}],
        "connections": [["in1", "a"], ["a", "w"], ["w", "z"]],
        "treasure_rows": rows, "coin_row": {"values": [1, 2]},
    }
    s = new(sheet, players=1)
    s.seats = ["you"]
    roll(s, O="2any")
    s.play("take O")
    said = _announced(s, "in1", "a", "w")
    assert said[0] == ("your orange route reaches the whirlpool w: the rest of the pencil is "
                       "lost and the route cannot draw 3 more steps and ends there (R12)")


def test_the_pencil_in_words_agrees_in_number() -> None:
    s = new(players=1)
    roll(s, O="1any", R="3any")
    s.play("take O")
    assert "1 any step to draw" in _plain(_screen(s, 0))
    s.play("in1")
    s.play("a3")
    s.play("take R")
    assert "3 any steps to draw" in _plain(_screen(s, 0))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_line_fits_80_columns_all_game(level: int) -> None:
    import random

    s = _level(level, players=3)
    s.seats = ["you", "greedy (1)", "a long seat name (2)"]
    r = random.Random(level)
    while True:
        if len(s.history) % 9 == 0 or s.is_over:  # a sample of the game's screens
            viewer = s.to_move if s.to_move is not None and s.to_move >= 0 else 0
            for text in (_screen(s, viewer), _pad(s, 0)):
                for line in _plain(text).splitlines():
                    assert len(line) <= 80, line
        if s.is_over:
            break
        s.play(r.choice(s.legal_moves()))


def test_boxes_lost_over_a_full_row_are_announced() -> None:
    s = new(lattice_sheet(treasures=(("a3", "orange", 3), ("a2", "orange", 3))), players=1)
    s.seats = ["you"]
    roll(s, O="2any")
    s.play("take O")
    said = _announced(s, "in1", "a3", "a2")
    assert said[1] == ("you recover the orange treasure (3) on a2: your orange row +2 boxes "
                       "(1 lost: the row is full), scores 8 (R7)")
    assert said[2] == "you take the star for filling a whole row first: +5 (R10)"
