"""Gardens' LEARNING record: the shared checks over random playouts of every level and seat
count, and exact values on hand-played positions (docs/rl/gardens.md)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.games.gardens import LEARNING
from meeple.games.gardens.rules import GardensState
from tests.games.gardens.helpers import new, roll, strip_sheet, turn
from tests.games.learning_checks import check_playouts, split_blocks

VARIANTS = [(v, p) for v in meeple.game_info("gardens").variants
            for p in meeple.game_info("gardens").player_range(v)]


@pytest.mark.parametrize(("variant", "players"), VARIANTS,
                         ids=[f"level{v['level']}-{p}p" for v, p in VARIANTS])
def test_playouts(variant: dict[str, int], players: int) -> None:
    assert check_playouts("gardens", variant, players, range(4)) > 0


def _blocks(state: GardensState, seat: int) -> dict[str, list[int]]:
    return split_blocks(LEARNING.layout(state), LEARNING.observe(state.seen_by(seat), seat))


def _level1(players: int = 2) -> GardensState:
    s = meeple.new_game("gardens", players=players, seed=0, level=1)
    assert isinstance(s, GardensState)
    return s


def test_action_order() -> None:
    s = _level1()
    actions = LEARNING.actions(s)
    assert actions[:6] == ("take O", "take R", "take G", "take B", "take P", "waste")
    assert actions[6:] == s.sheet.ids
    assert actions[6] == "A1" and len(actions) == 66
    s3 = meeple.new_game("gardens", players=1, seed=0, level=3)
    assert isinstance(s3, GardensState) and len(LEARNING.actions(s3)) == 64
    assert LEARNING.actions(s) is actions  # cached per sheet


def test_own_sheet_actions_and_layout() -> None:
    s = new(strip_sheet([2, 3]), players=3)
    assert LEARNING.actions(s) == ("take O", "take R", "take G", "take B", "take P", "waste",
                                   "A1", "A2", "A3", "A4", "A5")
    names = [b.name for b in LEARNING.layout(s)]
    assert names[:12] == [f"{p}_{k}" for p in ("own", "opp1", "opp2")
                          for k in ("fields", "boxes", "gardens", "marks")]
    assert names[12:] == ["middle", "faces", "claims", "phase", "to_move", "hand", "steps",
                          "group", "turn", "scores"]
    check_playouts("gardens", {"sheet": strip_sheet([2, 3])}, 3, range(2))


def test_hand_played_position() -> None:
    s = _level1()
    roll(s, "O3 R1 G2 B5 P4")
    start = _blocks(s, 0)
    assert start["phase"] == [0b0010] and start["to_move"] == [0b01]
    assert start["middle"] == [0b11111] and start["faces"] == [3, 1, 2, 5, 4]
    assert start["hand"] == [0] and start["steps"] == [0, 0] and start["turn"] == [0]
    # seat 0 takes orange (3) and colours A1 A2 (fields 0 and 1): one step still to go
    s.play("take O")
    s.play("A1")
    s.play("A2")
    mid = _blocks(s, 0)
    assert mid["phase"] == [0b0100] and mid["hand"] == [0b00001]
    assert mid["steps"] == [1, 2] and mid["group"] == [0b11]
    assert mid["middle"] == [0b11110]
    assert mid["own_fields"] == [0b11, 0, 0, 0, 0] and mid["opp1_fields"] == [0] * 5
    s.play("B2")  # field 6: the turn passes to seat 1
    # seat 1 takes red (1) and colours E1 (field 26)
    turn(s, "R", "E1")
    # seat 0 wastes the green pencil
    turn(s, "G", "waste")
    for seat, own, opp in ((0, 0b1000011, 1 << 26), (1, 1 << 26, 0b1000011)):
        b = _blocks(s, seat)
        mine = [own, 0, 0, 0, 0] if seat == 0 else [0, own, 0, 0, 0]
        theirs = [0, opp, 0, 0, 0] if seat == 0 else [opp, 0, 0, 0, 0]
        assert b["own_fields"] == mine and b["opp1_fields"] == theirs
        assert b["own_marks"] == [0, 1 - seat] and b["opp1_marks"] == [0, seat]
        assert b["own_boxes"] == [0, 0] and b["own_gardens"] == [0] * 5
        assert b["phase"] == [0b0010] and b["middle"] == [0b11000]
        assert b["to_move"] == [0b10 if seat == 0 else 0b01]  # seat 1 is to move
        assert b["faces"] == [3, 1, 2, 5, 4] and b["turn"] == [3]
        assert b["claims"] == [0] * 8 and b["group"] == [0] and b["hand"] == [0]
        pad = s.scores()
        assert b["scores"] == [v for q in (seat, 1 - seat)
                               for v in (*pad[q].breakdown.values(), pad[q].total)]
    assert _blocks(s, 0)["scores"][12] == -1  # seat 0's total: one pencil crossed


def test_faces_hide_the_unrolled_pencils() -> None:
    s = new(strip_sheet([1, 1, 1, 1]), players=1)
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")
    for c in "RGBP":
        turn(s, c, "waste")
    s.play("roll O2")
    b = _blocks(s, 0)
    assert b["phase"] == [0b0001] and b["faces"] == [2, 0, 0, 0, 0] and b["middle"] == [0]


def test_scores_and_claims_match_the_engine() -> None:
    for level in (1, 2, 3):
        s = meeple.new_game("gardens", players=3, seed=level, level=level)
        assert isinstance(s, GardensState)
        layout = LEARNING.layout(s)
        rows = layout[-1].shape[1] - 1
        rng = Rng(level)
        while True:
            for seat in range(3):
                b = _blocks(s, seat)
                pad = s.scores()
                assert list(pad[seat].breakdown) == layout[-1].doc.split("(")[1] \
                    .split(")")[0].split(", ")
                assert len(pad[seat].breakdown) == rows
                assert b["scores"] == [v for k in range(3) for q in [(seat + k) % 3]
                                       for v in (*pad[q].breakdown.values(), pad[q].total)]
                firsts = (s.first_outer, s.first_all, s.first_flowers, *s.first_four)
                assert b["claims"] == [0 if v < 0 else (v - seat) % 3 + 1 for v in firsts]
            if s.to_move is None:
                break
            if s.to_move == CHANCE:
                s.sample_chance()
            else:
                s.play(rng.choice(s.legal_moves()))
