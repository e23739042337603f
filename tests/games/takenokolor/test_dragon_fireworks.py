"""4-panda Dragon and Fireworks sheet: blue-first bamboo, lanterns multiplying bamboo groups,
party favours, the dragon (any colour, neighbours differ, no going back, feet), fireworks."""

from __future__ import annotations

import pytest

import meeple
from tests.games.takenokolor.helpers import coloured, new, paint, roll, texts, turn

BOTTOMS = {f"free {b}.1" for b in ("g1", "g2", "g3", "p1", "p2", "p3")}


def test_first_sections_of_some_bamboo_must_be_blue() -> None:
    s = new("4-pandas-dragon", 1)
    roll(s, "square circle circle circle")
    s.play("take G")
    assert texts(s) == ["colour d1"]  # g1.1 is a blue circle: not with the green marker
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("colour g1.1")
    assert "colour AND symbol" in exc.value.reason
    s2 = new("4-pandas-dragon", 1)
    roll(s2, "circle circle circle circle")
    s2.play("take B")
    assert "colour g1.1" in texts(s2)


def test_lanterns_multiply_the_highest_leaves_of_their_bamboo_group() -> None:
    s = new("4-pandas-dragon", 2)
    paint(s, 0, "g1.1", "g1.2", "g2.1")  # highest leaves 2 and 1
    assert s.scores()[0].breakdown["Green bamboo x lanterns"] == 0  # no lantern coloured
    paint(s, 0, "lg1", "lg3")
    assert s.scores()[0].breakdown["Green bamboo x lanterns"] == (2 + 1) * 2
    paint(s, 0, "lp1")  # a lantern above the other group does not count
    assert s.scores()[0].breakdown["Green bamboo x lanterns"] == 6
    assert s.scores()[0].breakdown["Pink bamboo x lanterns"] == 0


def test_T3_party_favours_top_to_bottom_each_with_a_free_bamboo_section() -> None:
    s = new("4-pandas-dragon", 2)
    fa2 = s.cs.index["fa2"]
    assert not s.avail[0] >> fa2 & 1
    roll(s, "circle triangle circle circle")
    turn(s, "Y", "fa1")
    assert set(texts(s)) == BOTTOMS  # any bamboo, colour ignored (T3): blue firsts too
    s.play("free p2.1")
    assert s.to_move == 1
    assert s.avail[0] >> fa2 & 1
    assert s.scores()[0].breakdown["Party favours"] == 1


def test_dragon_any_colour_left_to_right() -> None:
    s = new("4-pandas-dragon", 1)
    d2 = s.cs.index["d2"]
    assert not s.avail[0] >> d2 & 1  # left to right
    roll(s, "circle circle circle circle")
    for marker in "BYPG":
        c = s.clone()
        c.play(f"take {marker}")
        assert "colour d1" in texts(c)


def test_dragon_section_beside_a_section_of_the_same_colour_is_refused() -> None:
    s = new("4-pandas-dragon", 1)
    roll(s, "circle circle circle circle")
    s.play("take B")
    s.play("colour d1")  # coloured blue
    while s.to_move == 0:  # solo: use up the other circle markers
        s.play(texts(s)[0])
    roll(s, "triangle square square square")
    s.play("take B")
    assert "colour d2b" not in texts(s)  # a blue section beside the blue d1
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("colour d2b")
    assert "different colours" in exc.value.reason
    assert s.key() == before
    s.undo()
    s.play("take Y")
    assert "colour d2" in texts(s)  # yellow beside blue is fine
    s.play("colour d2")
    assert s.colcode[0] >> (2 * s.cs.index["d2"]) & 3 == 1  # remembered as yellow


def test_dragon_no_going_back() -> None:
    s = new("4-pandas-dragon", 1)
    paint(s, 0, "d1", colour="Y")
    paint(s, 0, "d2", colour="P")
    roll(s, "triangle circle circle circle")
    s.play("take B")
    assert "colour d2b" not in texts(s)  # passed: the regular section of its step was chosen
    with pytest.raises(meeple.IllegalMove):
        s.play("colour d2b")


def test_T3_dragon_bamboo_bonus_section_gives_one_bamboo_section() -> None:
    s = new("4-pandas-dragon", 2)
    paint(s, 0, "d1", colour="Y")
    paint(s, 0, "d2", colour="P")  # the blue 2-point section d2b is passed
    roll(s, "square circle circle circle")
    s.play("take B")
    assert "colour d3b" in texts(s)  # the rulebook's example: the bonus section is next
    s.play("colour d3b")
    assert set(texts(s)) == BOTTOMS
    s.play("free g3.1")
    assert "g3.1" in coloured(s, 0)


def test_A3_dragon_feet_first_player_numbers_head_and_blue_sections() -> None:
    s = new("4-pandas-dragon", 2)
    paint(s, 0, "d1", colour="Y")
    paint(s, 0, "d2", colour="P")  # seat 0 is first at the front foot: keeps 3
    paint(s, 1, "d1", colour="G")
    paint(s, 1, "d2b")  # seat 1 later: keeps 1; the blue section is worth 2
    b0, b1 = (sc.breakdown for sc in s.scores())
    assert (b0["Dragon feet"], b1["Dragon feet"]) == (3, 1)
    assert (b0["Dragon"], b1["Dragon"]) == (0, 2)
    paint(s, 1, "d3", colour="Y")
    paint(s, 1, "d4", colour="P")
    paint(s, 1, "d5b")
    paint(s, 1, "d6", colour="G")
    paint(s, 1, "head", colour="Y")
    b1 = s.scores()[1].breakdown
    assert b1["Dragon"] == 2 + 2 + 5
    assert b1["Dragon feet"] == 1 + 4 + 5  # first at the middle and back feet
    assert b1["Ladybugs"] == 1  # the dragon's head


def test_fireworks_bursts_in_order_times_the_trail() -> None:
    s = new("4-pandas-dragon", 2)
    bu2, tr3 = s.cs.index["bu2"], s.cs.index["tr3"]
    assert not s.avail[0] >> bu2 & 1  # start with the 1-point pink burst
    assert s.avail[0] >> tr3 & 1  # the trail goes in any order
    paint(s, 0, "tr3", "bu1", "bu2")
    assert s.scores()[0].breakdown["Fireworks"] == 2 * 1
    paint(s, 0, "tr1", "bu3")
    assert s.scores()[0].breakdown["Fireworks"] == 3 * 2
