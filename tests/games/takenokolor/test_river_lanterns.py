"""4-panda River and Lanterns sheet: the river with side-by-side sections and its five
symbols, the lanterns (T7), bamboo shoots times ponds, the group sign, the ladybugs."""

from __future__ import annotations

import pytest

import meeple
from tests.games.takenokolor.helpers import coloured, new, paint, roll, texts, turn

LANTERNS = {"free l1t", "free l1b", "free l2t", "free l2b", "free l3t", "free l3b"}
BOTTOMS = {f"free {c}{k}.1" for c in "gypb" for k in (1, 2)}


def test_river_top_to_bottom_only_one_of_two_side_by_side_sections() -> None:
    s = new("4-pandas-river", 1)
    roll(s, "square circle circle triangle")
    s.play("take B")
    assert "colour r2a" not in texts(s)  # r1 first: top to bottom
    s2 = new("4-pandas-river", 1)
    paint(s2, 0, "r1")
    roll(s2, "square circle circle triangle")
    s2.play("take B")
    assert "colour r2a" in texts(s2)
    s2.play("colour r2a")
    # symbol: the top OR bottom of a lantern
    assert set(texts(s2)) == LANTERNS
    s2.play("free l2t")
    assert s2.to_move == 0 and "take G" in texts(s2)  # solo: next marker
    s2.play("take G")
    assert "colour r2b" not in texts(s2)  # G triangle, but beside r2a
    with pytest.raises(meeple.IllegalMove) as exc:
        s2.play("colour r2b")
    assert "only one of them" in exc.value.reason


def test_T3_river_symbol_one_section_each_of_two_different_bamboos() -> None:
    s = new("4-pandas-river", 1)
    paint(s, 0, "r1", "r2b")
    roll(s, "circle square circle circle")
    turn(s, "Y", "r3")
    assert set(texts(s)) == BOTTOMS
    s.play("free g1.1")
    assert set(texts(s)) == BOTTOMS - {"free g1.1"}  # not g1.2: a different bamboo
    s.play("free b2.1")
    assert {"g1.1", "b2.1"} <= coloured(s, 0)
    assert s.phase != 3


def test_T3_river_symbol_one_of_the_ponds() -> None:
    s = new("4-pandas-river", 1)
    paint(s, 0, "r1", "r2b", "r3")
    roll(s, "triangle square square square")
    s.play("take B")
    s.play("colour r4a")
    assert texts(s) == ["free po1", "free po2", "free po3"]
    s.play("free po3")
    assert "po3" in coloured(s, 0)


def test_T3_river_symbol_free_colouring_lost_without_a_target() -> None:
    s = new("4-pandas-river", 2)
    paint(s, 0, "r1", "r2b", "r3", "po1", "po2", "po3")
    roll(s, "triangle square square square")
    turn(s, "B", "r4a")
    assert s.to_move == 1  # every pond is coloured: the free pond is lost (T3)
    assert s.pending == []


def test_T3_river_symbol_top_and_bottom_of_the_same_lantern_and_the_T7_race() -> None:
    s = new("4-pandas-river", 2)
    paint(s, 0, "r1", "r2b", "r3", "r4a", "r5")
    roll(s, "square square square square")
    turn(s, "G", "r6a")
    assert set(texts(s)) == LANTERNS
    s.play("free l1t")
    assert texts(s) == ["free l1b"]  # the same lantern
    s.play("free l1b")
    assert s.first[0] == 1 and s.claimed == 1  # first to complete lantern l1: cross the 2
    paint(s, 1, "l1t", "l1b")
    assert s.later[1] == 1
    assert [sc.breakdown["Lanterns"] for sc in s.scores()] == [4, 2]


def test_T3_river_symbol_two_sections_of_the_same_bamboo() -> None:
    s = new("4-pandas-river", 1)
    paint(s, 0, "r1", "r2b", "r3", "r4a", "r5")
    roll(s, "triangle square square circle")
    s.play("take B")
    s.play("colour r6b")
    assert set(texts(s)) == BOTTOMS
    s.play("free y2.1")
    assert texts(s) == ["free y2.2"]
    s.play("free y2.2")
    assert {"y2.1", "y2.2"} <= coloured(s, 0)


def test_T7_lantern_first_4_later_2_in_decision_order() -> None:
    s = new("4-pandas-river", 2)
    paint(s, 0, "l2t")
    paint(s, 1, "l2t")
    roll(s, "circle circle circle circle")
    turn(s, "G", "l2b")  # seat 0 completes lantern l2 first
    assert s.to_move == 1
    paint(s, 1, "l2b")
    lanterns = [sc.breakdown["Lanterns"] for sc in s.scores()]
    assert lanterns == [4, 2]


def test_shoots_times_ponds_group_sign_river_points_and_ladybugs() -> None:
    s = new("4-pandas-river", 2)
    paint(s, 0, "sh2", "sh4", "po1", "po2")
    assert s.scores()[0].breakdown["Shoots x ponds"] == (2 + 3) * 2
    paint(s, 0, "g1.1", "g1.2", "g2.1", "g2.2", "g2.3")
    b = s.scores()[0].breakdown
    assert b["Bamboo groups"] == 3
    assert b["Bamboo leaves"] == 1 + 2 + 1 + 2 + 3
    assert b["Ladybugs"] == 1  # the highest green bamboo
    paint(s, 0, "sh1", "sh3", "po3")
    assert s.scores()[0].breakdown["Ladybugs"] == 2  # all shoots and the three ponds
    paint(s, 0, "r1", "r2a", "r3", "r4b", "r5")
    b = s.scores()[0].breakdown
    assert b["River"] == 1 + 1 + 1 + 1 + 2
    assert b["Ladybugs"] == 3  # river section r5 carries a ladybug
