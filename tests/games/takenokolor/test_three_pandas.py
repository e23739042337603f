"""3-panda sheet: the sun race and lock-out (T6), the river and its fish, the pond, groups."""

from __future__ import annotations

import pytest

import meeple
from tests.games.takenokolor.helpers import coloured, it, mini, new, paint, roll, texts, turn


def test_T6_sun_lockout_applies_within_the_same_round() -> None:
    s = new("3-pandas", 2)
    paint(s, 0, "s1", "s2", "s3")
    paint(s, 1, "s1", "s2")
    s3 = s.cs.index["s3"]
    assert s.avail[1] >> s3 & 1  # seat 1 could still colour s3 (P triangle)
    roll(s, "circle circle triangle circle")
    turn(s, "B", "s4")  # seat 0 colours all its rays
    assert s.to_move == 1  # same round
    assert not s.avail[1] >> s3 & 1
    s.play("take P")  # P triangle still fits p3.1
    assert texts(s) == ["colour p3.1"]
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("colour s3")
    assert "T6" in exc.value.reason
    assert s.key() == before


def test_T6_locked_out_player_is_skipped_in_the_same_round() -> None:
    sheet = mini([{"id": "b", "kind": "bamboo", "items": [it("b1", "G", "square", 0, 1)]},
                  {"id": "sun", "kind": "sun", "lockout": True,
                   "items": [it("s1", "Y", "circle", 0, 0), it("s2", "B", "circle", 1, 0)]}])
    s = new(sheet, 2)
    paint(s, 0, "s1")
    roll(s, "circle circle circle circle")
    turn(s, "B", "s2")
    # seat 1 could have coloured s1 with Y circle, but the sun is locked at once
    assert s.to_move == meeple.CHANCE
    assert coloured(s, 1) == set()


def test_sun_majority_6_4_2_and_ties_share_the_place() -> None:
    s = new("3-pandas", 4)
    paint(s, 0, "s1", "s2", "s3")
    paint(s, 1, "s1", "s2", "s4")
    paint(s, 2, "s3")
    sun = [sc.breakdown["Sun"] for sc in s.scores()]
    assert sun == [6, 6, 4, 0]  # no ray, no points
    s2 = new("3-pandas", 4)
    paint(s2, 1, "s1", "s2")
    paint(s2, 2, "s1")
    paint(s2, 3, "s2")
    paint(s2, 0, "s1", "s2", "s3", "s4")
    assert [sc.breakdown["Sun"] for sc in s2.scores()] == [6, 4, 2, 2]
    assert s2.ladybugs[0] & (1 << 2)  # the whole sun has a ladybug


def test_river_left_to_right_and_fish_only_on_a_coloured_section() -> None:
    s = new("3-pandas", 2)
    roll(s, "square circle circle circle")
    s.play("take B")
    assert "colour r3" not in texts(s)  # B square, but r1 and r2 come first
    s.play("colour po1")
    s.play("take Y")  # seat 1: Y circle fits y1.1 and s1, not the fish f2 on r1
    assert texts(s) == ["colour y1.1", "colour s1"]
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("colour f2")
    assert "once r1 is coloured" in exc.value.reason
    s2 = new("3-pandas", 2)
    paint(s2, 0, "r1")
    roll(s2, "square circle circle circle")
    s2.play("take Y")
    assert "colour f2" in texts(s2)


def test_T3_finished_river_gives_one_section_on_each_bamboo_of_one_colour() -> None:
    s = new("3-pandas", 2)
    paint(s, 0, "r1", "r2", "g1.1")
    roll(s, "square circle circle circle")
    turn(s, "B", "r3")
    assert s.ladybugs[0] & (1 << 3)  # the whole river
    firsts = set(texts(s))
    assert firsts == {"free g1.2", "free g2.1", "free g3.1", "free y1.1", "free y2.1",
                      "free y3.1", "free p1.1", "free p2.1", "free p3.1"}
    s.play("free y2.1")  # the colour is chosen: yellow
    assert set(texts(s)) == {"free y1.1", "free y3.1"}
    s.play("free y3.1")
    assert texts(s) == ["free y1.1"]
    s.play("free y1.1")
    assert s.to_move == 1
    assert {"y1.1", "y2.1", "y3.1"} <= coloured(s, 0)


def test_group_bonus_pond_fish_and_the_5_point_bamboo_ladybug() -> None:
    s = new("3-pandas", 2)
    paint(s, 0, "y1.1", "y1.2", "y2.1", "y2.2", "y3.1", "y3.2", "y3.3")
    b = s.scores()[0].breakdown
    assert b["Bamboo leaves"] == 1 + 2 + 1 + 2 + 1 + 2 + 3
    assert b["Bamboo groups"] == 2  # the sign
    paint(s, 0, "po1", "po2", "po3")
    assert s.scores()[0].breakdown["Pond"] == 7
    paint(s, 0, "r1", "f2", "r2", "f1")
    assert s.scores()[0].breakdown["Fish"] == 1 + 2
    paint(s, 0, "g3.1", "g3.2", "g3.3")
    assert s.ladybugs[0] & 1  # the 5-point bamboo
    assert s.scores()[0].breakdown["Ladybugs"] == 2  # bamboo and pond
