"""Reefs' LEARNING record: the shared playout checks over every level and seat count (and a
sheet of the user's own), the documented action order, and a hand-checked observation."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.games.reefs import LEARNING
from meeple.games.reefs.rules import ReefsState
from tests.games.learning_checks import check_playouts, split_blocks
from tests.games.reefs.helpers import lattice_sheet, new, roll, turn

VARIANTS = [
    (variant, players)
    for variant in meeple.game_info("reefs").variants
    for players in meeple.game_info("reefs").player_range(variant)
]


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_playouts(variant: dict[str, Any], players: int) -> None:
    assert check_playouts("reefs", variant, players, range(3)) > 0


def test_playouts_on_a_sheet_of_ones_own() -> None:
    sheet = lattice_sheet(
        diagonals=(("a1", "b2"), ("d4", "e5")), treasures=(("b3", "neutral", 2),),
        coins=("c2",), whirlpools=("d3",), propellers=("b4", "c4"))
    for players in (1, 2, 3):
        assert check_playouts("reefs", {"sheet": sheet}, players, range(2)) > 0


def test_action_order() -> None:
    s1 = meeple.new_game("reefs", players=2, level=1)
    a = LEARNING.actions(s1)
    assert len(a) == 51
    assert a[:7] == ("take O", "take R", "take B", "take G", "take P", "stop", "forfeit")
    assert a[7] == "a1" and a[7 + 36] == "in1" and a[-1] == "in8"
    s2 = meeple.new_game("reefs", players=3, level=2)
    assert len(LEARNING.actions(s2)) == 66 and LEARNING.actions(s2)[7] == "a1"
    s3 = meeple.new_game("reefs", players=1, level=3)
    a3 = LEARNING.actions(s3)
    assert len(a3) == 71
    assert a3[5:12] == ("take O propeller", "take R propeller", "take B propeller",
                        "take G propeller", "take P propeller", "stop", "forfeit")
    assert a3[12:] == s3.board.ids  # type: ignore[attr-defined]
    assert LEARNING.actions(s3) is a3  # cached per sheet


def test_layout_sizes() -> None:
    s = meeple.new_game("reefs", players=2, level=1)
    layout = LEARNING.layout(s)
    assert [b.name for b in layout[:6]] == [
        "sheet0_lines", "sheet0_starts", "sheet0_ends", "sheet0_marks", "sheet0_boxes",
        "sheet0_counts"]
    assert [b.name for b in layout[12:]] == [
        "pencils", "stars", "phase", "round", "pencil", "steps", "score"]
    assert layout[0].shape == (5, 68) and layout[1].shape == (5, 44)
    assert layout[-1].shape == (2, 11)
    assert sum(b.words for b in layout) == 102


def _conns(s: ReefsState, *pairs: tuple[str, str]) -> int:
    conns = [tuple(c) for c in s.board.sheet.connections]
    return sum(1 << conns.index(p) for p in pairs)


def _at(s: ReefsState, *ids: str) -> int:
    return sum(1 << s.board.index[i] for i in ids)


def test_hand_checked_position() -> None:
    sheet = lattice_sheet(treasures=(("b3", "orange", 2), ("d3", "neutral", 1)), coins=("c3",))
    s = new(sheet, players=2)
    layout = LEARNING.layout(s)
    roll(s, O="4+straight", R="2any", B="3straight", G="1any", P="2straight")
    turn(s, "O", "in1", "a3", "b3")
    # mid-turn, seat 0: a 4+ straight orange pencil, two steps drawn to the right
    o = split_blocks(layout, LEARNING.observe(s.seen_by(0), 0))
    assert o["phase"] == [2, 0, 0] and o["round"] == [1]
    assert o["pencil"] == [0, 2, 0, 1] and o["steps"] == [2]
    assert o["pencils"] == [0, 1 << 1, 1 << 4, 1 << 0, 1 << 3]
    assert o["sheet0_lines"] == [_conns(s, ("in1", "a3"), ("a3", "b3")), 0, 0, 0, 0]
    assert o["sheet0_ends"] == [_at(s, "b3"), 0, 0, 0, 0]
    assert o["sheet0_boxes"] == [2, 0, 0, 0, 0]
    for m in ("c3", "d3", "stop"):
        s.play(m)
    turn(s, "R", "in2", "c1", "d1")  # seat 1: 2 any steps, the turn ends by itself
    assert s.to_move == 0
    o = split_blocks(layout, LEARNING.observe(s.seen_by(1), 1))
    # seat 1's own sheet first
    assert o["sheet0_lines"] == [0, _conns(s, ("in2", "c1"), ("c1", "d1")), 0, 0, 0]
    assert o["sheet0_starts"] == [0, _at(s, "in2"), 0, 0, 0]
    assert o["sheet0_ends"] == [0, _at(s, "d1"), 0, 0, 0]
    assert o["sheet0_marks"] == [0] * 8
    assert o["sheet0_boxes"] == [0] * 5 and o["sheet0_counts"] == [0, 0, 0, 0]
    # then seat 0's
    assert o["sheet1_lines"] == [
        _conns(s, ("in1", "a3"), ("a3", "b3"), ("b3", "c3"), ("c3", "d3")), 0, 0, 0, 0]
    assert o["sheet1_starts"] == [_at(s, "in1"), 0, 0, 0, 0]
    assert o["sheet1_ends"] == [_at(s, "d3"), 0, 0, 0, 0]
    assert o["sheet1_marks"] == [_at(s, "b3", "d3"), 0, 0, 0, 0, _at(s, "c3"), 0, 0]
    assert o["sheet1_boxes"] == [3, 0, 0, 0, 0] and o["sheet1_counts"] == [1, 0, 0, 0]
    assert o["pencils"] == [0, 0, 1 << 4, 1 << 0, 1 << 3]
    assert o["stars"] == [-1, -1]
    assert o["phase"] == [1, 1, 1]  # take; seat 0 (one after seat 1) to move and rolled
    assert o["pencil"] == [-1, -1, -1, 0] and o["steps"] == [0]
    # orange row: 3 boxes = 4 points; coins: 1 box = 1 point
    assert o["score"] == [0] * 11 + [4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5]
    sc = s.scores()
    assert o["score"][11:] == [*sc[0].breakdown.values(), sc[0].total]


def test_score_block_is_the_score_pad() -> None:
    for level, players in ((1, 3), (3, 2)):
        s = meeple.new_game("reefs", players=players, level=level, seed=11)
        layout = LEARNING.layout(s)
        rng = Rng(4)
        while s.to_move is not None:
            if s.to_move == CHANCE:
                s.sample_chance()
                continue
            s.play(rng.choice(s.legal_moves()))
        pads = s.scores()
        for seat in range(players):
            got = split_blocks(layout, LEARNING.observe(s.seen_by(seat), seat))["score"]
            want = []
            for k in range(players):
                p = pads[(seat + k) % players]
                want += [*p.breakdown.values(), p.total]
            assert got == want
            assert split_blocks(layout, LEARNING.observe(s.seen_by(seat), seat))["phase"][:2] == [3, -1]
