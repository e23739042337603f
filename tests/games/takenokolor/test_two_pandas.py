"""2-panda sheet: bamboo bottom to top, the cloud and its two free blue sections, the sun."""

from __future__ import annotations

import pytest

import meeple
from tests.games.takenokolor.helpers import coloured, new, paint, roll, texts, turn


def test_bamboo_is_coloured_bottom_to_top() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle circle circle square")
    s.play("take G")
    assert "colour b1.2" not in texts(s)  # G square, but b1.1 is not coloured yet
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("colour b1.2")
    assert "previous step" in exc.value.reason
    s2 = new("2-pandas", 2)
    paint(s2, 0, "b1.1")
    roll(s2, "circle circle circle square")
    s2.play("take G")
    assert "colour b1.2" in texts(s2)


def test_T3_cloud_free_sections_go_bottom_up_on_one_bamboo() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    turn(s, "G", "c4")
    # T3: colour and symbol ignored: the bottom section of any bamboo
    assert texts(s) == [f"free b{k}.1" for k in range(1, 9)]
    s.play("free b3.1")
    assert texts(s) == ["free b3.2"]  # the same bamboo, next section up
    s.play("free b3.2")
    assert s.to_move == 1
    assert {"b3.1", "b3.2"} <= coloured(s, 0)
    assert len(coloured(s, 0)) == 4 + 2  # exactly two free sections


def test_T3_cloud_second_section_is_lost_when_the_bamboo_is_full() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3", "b1.1")
    roll(s, "circle circle circle square")
    turn(s, "G", "c4", "b1.2")
    # b1 is complete (ladybug) and the second free section has no target on it: lost (T3)
    assert s.to_move == 1
    assert s.ladybugs[0] == 1
    assert s.pending == []


def test_cloud_sections_any_order_and_sun_sections_any_order() -> None:
    s = new("2-pandas", 2)
    open_now = {s.cs.item_ids[i] for i in range(s.cs.n) if s.avail[0] >> i & 1}
    assert {"c1", "c2", "c3", "c4", "s1", "s2", "s3", "s4", "s5"} <= open_now


def test_scoring_leaves_sun_and_ladybugs() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "b2.1", "b2.2", "b2.3", "b2.4")  # leaves 1+2+3+4, ladybug
    paint(s, 0, "s1", "s2", "s3", "s4")
    assert s.scores()[0].breakdown == {"Bamboo leaves": 10, "Sun": 0, "Ladybugs": 1}
    paint(s, 0, "s5")
    assert s.scores()[0].breakdown == {"Bamboo leaves": 10, "Sun": 5, "Ladybugs": 1}
    assert s.scores()[0].total == 16
    assert s.scores()[1].total == 0
