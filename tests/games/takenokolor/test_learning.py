"""Takenokolor's LEARNING record: the shared checks over every sheet and seat count, the action
order, hand-checked observations, and the score block against the engine's own score pad."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.layers import Block
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.games.takenokolor import LEARNING
from meeple.games.takenokolor.learning import _tables
from meeple.games.takenokolor.rules import TakenokolorState
from tests.games.learning_checks import check_playouts
from tests.games.takenokolor.helpers import it, mini, new, paint, roll

INFO = meeple.game_info("takenokolor")
CASES = [(v, p) for v in INFO.variants for p in INFO.player_range(v)]


@pytest.mark.parametrize(("variant", "players"), CASES,
                         ids=[f"{v['sheet']}-{p}p" for v, p in CASES])
def test_shared_checks(variant: dict[str, Any], players: int) -> None:
    assert check_playouts("takenokolor", variant, players, range(12)) > 0


def blocks(state: TakenokolorState, seat: int) -> dict[str, list[int]]:
    """The observation cut into its named blocks."""
    values = LEARNING.observe(state.seen_by(seat), seat)
    out: dict[str, list[int]] = {}
    at = 0
    for b in LEARNING.layout(state):
        out[b.name] = list(values[at: at + b.words])
        at += b.words
    assert at == len(values)
    return out


def bits(s: TakenokolorState, *ids: str) -> int:
    return sum(1 << s.cs.index[i] for i in ids)


def test_action_order_on_the_two_panda_sheet() -> None:
    s = new("2-pandas", 2)
    a = LEARNING.actions(s)
    assert a[:4] == ("take B", "take Y", "take P", "take G")
    assert a[4] == "colour b1.1" and a[4 + 34] == "colour s5"  # all 35 items, sheet order
    assert a[39] == "free b1.1" and a[-1] == "free b8.4"  # the cloud's grant: bamboo only
    assert len(a) == 4 + 35 + 26
    assert "free c1" not in a and "free s1" not in a
    assert LEARNING.actions(new("2-pandas", 4)) is a  # one list per sheet, cached


def test_action_counts_per_sheet() -> None:
    sizes = {v["sheet"]: len(LEARNING.actions(new(v["sheet"], 2))) for v in INFO.variants}
    assert sizes == {"2-pandas": 65, "3-pandas": 62, "4-pandas-river": 76,
                     "4-pandas-dragon": 68}


def test_layout_of_the_two_panda_sheet() -> None:
    lay = LEARNING.layout(new("2-pandas", 2))
    assert [b.name for b in lay] == [
        "seat+0.coloured", "seat+0.open", "seat+0.ladybugs",
        "seat+1.coloured", "seat+1.open", "seat+1.ladybugs",
        "rolled", "left", "hand", "phase", "to_move", "holder", "free_target",
        "free_pending", "round", "score"]
    by = {b.name: b for b in lay}
    assert by["seat+0.coloured"] == Block("seat+0.coloured", (1, 35), by["seat+0.coloured"].doc,
                                          bits=True)
    assert by["score"].shape == (2, 4) and by["score"].high == 55 + 5 + 8
    assert by["free_pending"].shape == (1,) and by["free_pending"].high == 2
    assert sum(b.size for b in lay) == 230


def test_optional_blocks_follow_the_sheet() -> None:
    three = {b.name: b for b in LEARNING.layout(new("3-pandas", 3))}
    assert "seat+2.blocked" in three and "seat+0.dragon" not in three
    assert three["score"].shape == (3, 7)
    dragon = {b.name: b for b in LEARNING.layout(new("4-pandas-dragon", 2))}
    assert dragon["seat+1.dragon"].shape == (4, 11)
    assert dragon["seat+0.races"].shape == (2, 3)
    assert "seat+0.blocked" not in dragon


def test_hand_checked_position() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle circle triangle circle")  # B circle, Y circle, P triangle, G circle
    s.play("take G")
    s.play("colour b1.1")
    s.play("take Y")
    s.play("colour b4.1")
    roll(s, "circle square triangle square")  # round 2: seat 1 holds the panda
    s.play("take G")  # G square: seat 1 has only c4 to colour
    start = s.cs.initial_avail
    o = blocks(s, 0)
    assert o["seat+0.coloured"] == [bits(s, "b1.1")]
    assert o["seat+0.open"] == [start & ~bits(s, "b1.1") | bits(s, "b1.2")]
    assert o["seat+1.coloured"] == [bits(s, "b4.1")]
    assert o["seat+1.open"] == [start & ~bits(s, "b4.1") | bits(s, "b4.2")]
    assert o["seat+0.ladybugs"] == o["seat+1.ladybugs"] == [0]
    assert o["rolled"] == [0b001, 0b010, 0b100, 0b010]
    assert o["left"] == [0b1111] and o["hand"] == [0b1000]
    assert o["phase"] == [1 << 2]  # colour
    assert o["to_move"] == [0b10] and o["holder"] == [0b10]
    assert o["free_target"] == [0] and o["free_pending"] == [0]
    assert o["round"] == [1]
    assert o["score"] == [1, 0, 0, 1, 1, 0, 0, 1]
    mine = blocks(s, 1)  # seat 1's own sheet first
    assert mine["seat+0.coloured"] == [bits(s, "b4.1")]
    assert mine["seat+1.coloured"] == [bits(s, "b1.1")]
    assert mine["to_move"] == [0b01] and mine["holder"] == [0b01]
    s.play("colour c4")
    o = blocks(s, 0)
    assert o["left"] == [0b0111] and o["hand"] == [0] and o["phase"] == [1 << 1]
    assert o["to_move"] == [0b01]


def test_free_colourings_of_the_cloud() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    s.play("take G")
    s.play("colour c4")  # the cloud is complete: two free sections on one bamboo
    o = blocks(s, 0)
    assert o["phase"] == [1 << 3]
    assert o["free_pending"] == [2]
    assert o["free_target"] == [(1 << 26) - 1]  # every bamboo section, b1.1 .. b8.4
    s.play("free b3.1")
    o = blocks(s, 0)
    assert o["free_pending"] == [1]
    assert o["free_target"] == [bits(s, "b3.1", "b3.2", "b3.3")]  # the same bamboo
    s.play("free b3.2")
    o = blocks(s, 0)
    assert o["free_pending"] == [0] and o["free_target"] == [0]
    assert o["phase"] == [1 << 1] and o["to_move"] == [0b10]


def test_dragon_block_holds_the_marker_colours() -> None:
    s = new("4-pandas-dragon", 2)
    cs = s.cs
    dragon = [i for i in range(cs.n) if cs.adjacent >> i & 1]
    paint(s, 0, cs.item_ids[dragon[0]], colour="P")
    paint(s, 0, cs.item_ids[dragon[1]], colour="G")
    o = blocks(s, 0)
    assert o["seat+0.dragon"] == [0, 0, 0b01, 0b10]  # B, Y, P, G rows
    assert blocks(s, 1)["seat+1.dragon"] == [0, 0, 0b01, 0b10]
    assert o["seat+1.dragon"] == [0, 0, 0, 0]


def score_rows(s: TakenokolorState, seat: int) -> list[int]:
    out = []
    for r in range(s.players):
        sc = s.scores()[(seat + r) % s.players]
        out += [*sc.breakdown.values(), sc.total]
    return out


@pytest.mark.parametrize("sheet", [v["sheet"] for v in INFO.variants])
def test_score_block_is_the_score_pad(sheet: str) -> None:
    for players in (1, 3, 4):
        for seed in range(3):
            s = new(sheet, players)
            rng = Rng(seed)
            while s.to_move is not None:
                if s.to_move == CHANCE:
                    s.sample_chance()
                    continue
                seat = s.to_move
                assert blocks(s, seat)["score"] == score_rows(s, seat)
                s.play(rng.choice(s.legal_moves()))
            for seat in range(players):
                assert blocks(s, seat)["score"] == score_rows(s, seat)
            _tables(s.cs).pads.clear()  # made afresh: the same values
            assert blocks(s, 0)["score"] == score_rows(s, 0)


def test_a_users_own_sheet() -> None:
    data = mini([{"id": "b", "kind": "bamboo", "order": "sequence", "items": [
        it("b.1", "G", "circle", 0, 0, points=1), it("b.2", "G", "square", 0, 1, points=2)]},
        {"id": "c", "kind": "cloud", "items": [it("c.1", "B", "circle", 1, 0)],
         "on_complete": [{"target": "bamboo", "count": 1}]}])
    s = new(data, 2)
    assert LEARNING.actions(s) == ("take B", "take Y", "take P", "take G", "colour b.1",
                                   "colour b.2", "colour c.1", "free b.1", "free b.2")
    assert {b.name: b.shape for b in LEARNING.layout(s)}["score"] == (2, 3)
    assert check_playouts("takenokolor", {"sheet": data}, 2, range(3)) > 0
