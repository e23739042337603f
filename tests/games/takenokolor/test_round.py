"""The round (T1, T2, A2, A5), the colour AND symbol rule, and the end of the game (T4)."""

from __future__ import annotations

import pytest

import meeple
from tests.games.takenokolor.helpers import coloured, it, mini, new, paint, roll, texts, turn

STRIP = mini([{
    "id": "b", "kind": "bamboo", "order": "sequence",
    "items": [it("b.1", "G", "circle", 0, 2), it("b.2", "G", "square", 0, 1),
              it("b.3", "G", "triangle", 0, 0)],
}])


def test_T1_roll_is_four_chance_moves_one_per_marker() -> None:
    s = new("2-pandas", 2)
    assert s.to_move == meeple.CHANCE
    for colour in "BYPG":
        outcomes = s.chance_outcomes()
        assert [str(m) for m, _ in outcomes] == [
            f"roll {colour} circle", f"roll {colour} square", f"roll {colour} triangle"]
        assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
        s.play(f"roll {colour} square")
    assert s.to_move == 0
    assert s.rolled == [1, 1, 1, 1]


def test_T1_markers_roll_in_order_and_out_of_order_is_refused() -> None:
    s = new("2-pandas", 2)
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("roll Y circle")
    assert "B" in exc.value.reason
    assert s.key() == before


def test_T2_only_markers_that_can_colour_something_may_be_taken() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle circle circle circle")
    # P circle matches nothing open at the start of the 2-panda sheet
    assert texts(s) == ["take B", "take Y", "take G"]
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("take P")
    assert "matches" in exc.value.reason


def test_T2_colour_and_symbol_must_both_match() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle circle circle circle")
    s.play("take G")
    assert texts(s) == ["colour b1.1", "colour s5"]
    before = s.key()
    for wrong in ("colour b2.1", "colour c1"):  # G triangle; B circle
        with pytest.raises(meeple.IllegalMove) as exc:
            s.play(wrong)
        assert "colour AND symbol" in exc.value.reason
        assert s.key() == before


def test_T2_a_player_who_can_colour_nothing_is_skipped_and_takes_no_marker() -> None:
    s = new(STRIP, 3)
    roll(s, "circle circle circle circle")
    assert texts(s) == ["take G"]
    turn(s, "G", "b.1")
    # seats 1 and 2 can colour nothing with B, Y, P circle: skipped, the round is over
    assert s.to_move == meeple.CHANCE
    assert s.rounds == 1
    assert {seat for seat, _ in s._movers if seat >= 0} == {0}
    assert coloured(s, 1) == set() and coloured(s, 2) == set()
    assert s.turn == 1


def test_T2_each_player_takes_at_most_one_marker_a_round_and_the_panda_passes_left() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle circle circle circle")
    turn(s, "B", "b7.1")
    assert s.to_move == 1
    turn(s, "Y", "b4.1")
    # G is still usable but both players have had their marker: next round
    assert s.to_move == meeple.CHANCE
    assert s.holder == 1
    roll(s, "circle circle circle circle")
    assert s.to_move == 1  # the new panda holder starts (A2: clockwise)


def test_A2_clockwise_from_the_roller() -> None:
    s = new("2-pandas", 3)
    order = []
    for _ in range(2):
        roll(s, "circle circle circle circle")
        while s.to_move not in (meeple.CHANCE, None):
            order.append(s.to_move)
            s.play(texts(s)[0])
            while s.phase == 2:  # colour
                s.play(texts(s)[0])
    assert order == [0, 1, 2, 1, 2, 0]


def test_A5_solo_player_takes_every_marker_they_can() -> None:
    s = new("2-pandas", 1)
    roll(s, "circle circle circle circle")
    turn(s, "B", "b7.1")
    assert s.to_move == 0 and s.turn == 1
    turn(s, "Y", "b4.1")
    turn(s, "G", "b1.1")
    assert s.to_move == meeple.CHANCE  # P circle fits nothing: the round is over
    assert s.turn == 3


def test_T4_game_ends_only_after_the_round_of_the_third_ladybug() -> None:
    s = new("2-pandas", 3)
    paint(s, 0, "b1.1", "b1.2", "b5.1", "b5.2", "b7.1", "b7.2")
    assert s.ladybugs[0].bit_count() == 2
    roll(s, "triangle circle circle circle")
    turn(s, "B", "b7.3")  # seat 0 circles the third ladybug
    assert s.ladybugs[0].bit_count() == 3
    assert s.to_move == 1  # the others finish the round
    turn(s, "Y", "b4.1")
    assert s.to_move == 2
    turn(s, "G", "b1.1")
    assert s.to_move is None and s.is_over
    assert s.scores()[0].breakdown["Ladybugs"] == 3
    with pytest.raises(meeple.IllegalMove):
        s.play("roll B circle")


def test_T4_several_players_may_circle_the_same_ladybug() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "b1.1", "b1.2")
    paint(s, 1, "b1.1", "b1.2")
    assert s.ladybugs[0] == s.ladybugs[1] == 1


def test_T3_free_colourings_are_made_at_once_by_the_earner() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    turn(s, "G", "c4")
    assert s.to_move == 0  # not seat 1: the free colourings come first
    assert all(t.startswith("free ") for t in texts(s))
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("take B")
    assert "free colouring" in exc.value.reason


def test_parse_move_errors_name_the_forms_and_accept_color() -> None:
    s = new("2-pandas", 2)
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("paint b1.1")
    assert "take <B|Y|P|G>" in exc.value.reason
    with pytest.raises(meeple.IllegalMove) as exc:
        s.parse_move("colour zz9")
    assert "no item 'zz9'" in exc.value.reason
    assert str(s.parse_move("color B1.1")) == "colour b1.1"
    assert str(s.parse_move("ROLL b Circle")) == "roll B circle"


def test_A1_undo_inside_a_turn_with_free_colourings_and_replay() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle square triangle square")
    turn(s, "Y", "c2")  # seat 0
    turn(s, "P", "c3")  # seat 1
    roll(s, "circle square triangle square")
    turn(s, "B", "c1")  # seat 1 holds the panda now
    turn(s, "G", "c4")  # seat 0
    roll(s, "circle square triangle square")
    turn(s, "P", "c3")  # seat 0
    turn(s, "Y", "c2")  # seat 1
    roll(s, "circle square triangle square")
    turn(s, "G", "c4")  # seat 1 holds the panda and completes its cloud
    assert s.to_move == 1 and s.phase == 3
    s.play("free b2.1")
    before = s.key()
    assert s.can_undo()
    s.undo()
    assert texts(s)[0] == "free b1.1" and len(texts(s)) == 8
    s.play("free b2.1")
    assert s.key() == before
    s.play("free b2.2")
    assert s.to_move == 0  # seat 1's turn is over: no undo across it
    assert not s.can_undo()
    again = meeple.replay(s.record())
    assert again.key() == s.key()


def test_A4_ties_win_together() -> None:
    s = new("2-pandas", 2)
    for seat in (0, 1):
        paint(s, seat, "b1.1", "b1.2", "b5.1", "b5.2", "b7.1", "b7.2", "b3.1", "b3.2")
    roll(s, "triangle circle circle circle")
    turn(s, "B", "b7.3")
    turn(s, "Y", "b3.3")
    assert s.is_over
    assert [sc.total for sc in s.scores()] == [19, 19]
    assert s.winners() == [0, 1]


def test_a_move_object_of_another_sheet_is_refused() -> None:
    from meeple.games.takenokolor.moves import COLOUR, Move

    s = new("2-pandas", 2)
    roll(s, "circle circle circle circle")
    s.play("take G")
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play(Move(COLOUR, 999, 0, "colour head"))
    assert "not a move of sheet" in exc.value.reason
    assert s.key() == before


def test_game_ends_when_no_seat_can_ever_colour_again() -> None:
    # faces show circles only: the square can never be coloured, and no third ladybug comes
    sheet = mini([{"id": "b", "kind": "bamboo", "order": "sequence",
                   "items": [it("b.1", "G", "circle", 0, 1), it("b.2", "G", "square", 0, 0)]}],
                 faces=["circle"])
    s = new(sheet, 2)
    roll(s, "circle circle circle circle")
    turn(s, "G", "b.1")
    assert not s.is_over  # seat 1 may still colour b.1 some day
    roll(s, "circle circle circle circle")
    turn(s, "G", "b.1")  # seat 1
    assert s.is_over
    # a dragon whose last section is blue beside a blue section is stuck as well
    dragon = mini([{"id": "d", "kind": "dragon", "order": "sequence", "adjacent_different": True,
                    "items": [it("d.1", "any", "circle", 0, 0), it("d.2", "B", "circle", 1, 0)]}])
    s2 = new(dragon, 1)
    roll(s2, "circle circle circle circle")
    turn(s2, "B", "d.1")
    assert s2.is_over
    s3 = new(dragon, 1)
    roll(s3, "circle circle circle circle")
    turn(s3, "Y", "d.1")
    turn(s3, "B", "d.2")
    assert s3.is_over and s3.ladybugs[0] == 0b111
