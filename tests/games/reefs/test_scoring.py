"""Scenario tests for treasures, coins, scoring rows, bonuses and the end of the game:
R1, R7-R11, G2 (draft), A3, A5 and the rulebook's "Recovering Treasures", "Collecting Coins",
"Bonus Points", "End of the Game" and "Final Scoring"."""

from __future__ import annotations

import meeple
from meeple.games.reefs.rules import P_ROLL, P_TAKE, ReefsState
from tests.conformance.recount_reefs import recount
from tests.games.reefs.helpers import forfeit_rest, lattice_sheet, legal, new, roll, turn

SIX_ENTRIES = ((0, 3, 1, 3), (3, 0, 3, 1), (6, 3, 5, 3), (3, 6, 3, 5), (0, 1, 1, 1), (6, 5, 5, 5))


# ---------------------------------------------------------------- R1 / G2 / A5
def test_r1_each_roll_is_one_pencil_six_equally_likely_faces() -> None:
    s = new()
    assert s.to_move == meeple.CHANCE
    outs = s.chance_outcomes()
    assert [str(m) for m, _ in outs] == [
        "roll O 1any", "roll O 2any", "roll O 3any", "roll O 2straight", "roll O 3straight",
        "roll O 4+straight"]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outs)
    s.play("roll O 3any")
    assert str(s.chance_outcomes()[0][0]) == "roll R 1any"  # then red, blue, green, purple


def test_g2_draft_roller_takes_first_next_roller_is_seat_after_last_taker() -> None:
    s = new(players=3)
    roll(s)
    takers = []
    for colour in "ORBGP":
        takers.append(s.to_move)
        turn(s, colour, "forfeit")
    assert takers == [0, 1, 2, 0, 1]  # seats 0 and 1 get two pencils
    assert s.to_move == meeple.CHANCE and s.roller == 2
    roll(s)
    assert s.to_move == 2


def test_a5_solo_player_takes_every_pencil() -> None:
    s = new(players=1)
    roll(s)
    for colour in "ORBGP":
        assert s.to_move == 0
        turn(s, colour, "forfeit")
    assert s.phase == P_ROLL and s.rounds == 1


# ---------------------------------------------------------------- R7 treasures
def test_r7_treasures_own_colour_other_colour_neutral_and_touching_in_passing() -> None:
    sheet = lattice_sheet(treasures=(("b3", "orange", 2), ("c3", "red", 3), ("d3", "neutral", 1)))
    s = new(sheet)
    roll(s, O="4+straight", R="3any")
    turn(s, "O", "in1", "a3", "b3", "c3", "d3", "stop")
    sh = s.sheets[0]
    # b3 own colour (2) recovered in passing; c3 is red: nothing; d3 neutral goes to orange
    assert sh.boxes == [3, 0, 0, 0, 0]
    assert sh.treasure == [0, -1, 0]
    # the red treasure stayed available for red
    turn(s, "R", "in2", "c1", "c2", "c3")
    assert sh.boxes == [3, 3, 0, 0, 0]
    forfeit_rest(s)
    roll(s, R="3any")
    turn(s, "R", "c4", "d4", "d3")  # the neutral treasure was already recovered by orange
    assert sh.boxes == [3, 3, 0, 0, 0] and sh.treasure == [0, 1, 0]


def test_r7_neutral_treasure_goes_to_the_first_colour_touching_it() -> None:
    s = new(lattice_sheet(treasures=(("a3", "neutral", 2),)))
    roll(s, B="1any", O="2any")
    turn(s, "B", "in1", "a3")
    assert s.sheets[0].boxes == [0, 0, 2, 0, 0]
    assert s.sheets[0].treasure == [2]  # coloured blue


def test_r7_excess_boxes_are_lost_and_each_treasure_counts_once() -> None:
    s = new(lattice_sheet(treasures=(("a3", "orange", 3), ("b3", "orange", 3))))
    roll(s, O="3any")
    turn(s, "O", "in1", "a3", "b3", "b2")
    assert s.sheets[0].boxes[0] == 5  # 3 + 3 over a row of 5 boxes
    forfeit_rest(s)
    roll(s, O="3any")
    turn(s, "O", "a2", "a3", "a4")  # crosses a3 again: nothing more
    assert s.sheets[0].boxes[0] == 5


def test_r7_each_players_sheet_is_their_own() -> None:
    s = new(lattice_sheet(treasures=(("a3", "neutral", 2),)), players=2)
    roll(s)
    turn(s, "O", "in1", "a3")
    turn(s, "R", "in1", "a3")  # seat 1 draws on its own sheet
    assert s.sheets[0].boxes == [2, 0, 0, 0, 0]
    assert s.sheets[1].boxes == [0, 2, 0, 0, 0]


# ---------------------------------------------------------------- R8 coins, R9 rows
def test_r8_coin_collected_by_any_colour_once() -> None:
    s = new(lattice_sheet(coins=("b3", "a4")))
    roll(s, O="2any", R="3any")
    turn(s, "O", "in1", "a3", "b3")
    assert s.sheets[0].coins == 1
    turn(s, "R", "in2", "c1", "c2", "c3")
    forfeit_rest(s)
    roll(s, R="1any")
    turn(s, "R", "b3")  # crossing the collected coin again: nothing
    assert s.sheets[0].coins == 1


def test_r9_rows_score_the_value_above_the_last_coloured_box() -> None:
    sheet = lattice_sheet(treasures=(("a3", "orange", 3),), coins=("b3", "b2"),
                          row=(1, 3, 5, 7, 9), coin_row=(2, 4, 8, 16))
    s = new(sheet)
    roll(s, O="3any")
    turn(s, "O", "in1", "a3", "b3", "b2")
    sc = s.scores()[0]
    assert sc.breakdown["orange"] == 5 and sc.breakdown["coins"] == 4
    assert sc.total == 9 == sum(sc.breakdown.values())
    assert list(sc.breakdown) == ["orange", "red", "blue", "green", "purple", "coins",
                                  "bonus 2 each", "bonus full row", "end grey", "end coins"]


# ---------------------------------------------------------------- R10 bonuses
ROUTES = {"O": ("in1", "a3"), "R": ("in2", "c1"), "B": ("in3", "e3"), "G": ("in4", "c5"),
          "P": ("in5", "a1")}


def _all_five_each(s: ReefsState, check_bonus: bool) -> None:
    """Two rolls of 1any: each seat starts a route of every colour onto a neutral treasure.
    Roll 1 (seat 0 rolls): 0 O, 1 R, 0 B, 1 G, 0 P; roll 2 (seat 1 rolls): 1 O, 0 R, 1 B,
    0 G (seat 0 has all five now), 1 P."""
    roll(s)
    for seat, colour in zip((0, 1, 0, 1, 0), "ORBGP", strict=True):
        assert s.to_move == seat
        turn(s, colour, *ROUTES[colour])
    roll(s)
    for seat, colour in zip((1, 0, 1, 0, 1), "ORBGP", strict=True):
        assert s.to_move == seat
        if check_bonus:
            assert s.two_each_holder == (0 if colour == "P" else -1)
        turn(s, colour, *ROUTES[colour])
        if s.is_over:
            return
    if check_bonus:
        assert s.two_each_holder == 0  # seat 1 reached it later: no bonus (A3)


def test_r10_two_boxes_in_every_colour_bonus_goes_to_the_first_only() -> None:
    neutrals = tuple((sp, "neutral", 2) for sp in ("a3", "c1", "e3", "c5", "a1"))
    s = new(lattice_sheet(entries=SIX_ENTRIES, treasures=neutrals), players=2)
    _all_five_each(s, check_bonus=True)
    sc = s.scores()
    assert sc[0].breakdown["bonus 2 each"] == 5 and sc[1].breakdown["bonus 2 each"] == 0


def test_r10_full_treasure_row_bonus_goes_to_the_first_only() -> None:
    s = new(lattice_sheet(treasures=(("a3", "neutral", 5), ("c1", "neutral", 5))), players=2)
    roll(s)
    turn(s, "O", "in1", "a3")  # seat 0 fills the orange row
    turn(s, "R", "in2", "c1")  # seat 1 fills the red row later
    assert s.full_row_holder == 0
    sc = s.scores()
    assert sc[0].breakdown["bonus full row"] == 5 and sc[1].breakdown["bonus full row"] == 0


# ---------------------------------------------------------------- R11 end of the game
def test_r11_game_ends_mid_round_on_last_coin_box_with_end_bonus() -> None:
    s = new(lattice_sheet(coins=("a3", "b3"), coin_row=(3, 6)), players=2)
    roll(s, O="2any")
    turn(s, "O", "in1", "a3", "b3")  # seat 0 colours the last coin box
    assert s.is_over and s.to_move is None
    assert [f >= 0 for f in s.middle] == [False, True, True, True, True]  # pencils stay
    sc = s.scores()
    assert sc[0].breakdown["end coins"] == 5 and sc[0].breakdown["end grey"] == 0
    assert sc[0].total == 6 + 5
    assert sc[1].total == 0
    assert s.winners() == [0]
    assert recount(s) == [11, 0]


def test_r11_game_ends_on_grey_boxes_in_all_five_colours() -> None:
    neutrals = tuple((sp, "neutral", 2) for sp in ("a3", "c1", "e3", "c5", "a1"))
    s = new(lattice_sheet(entries=SIX_ENTRIES, treasures=neutrals, grey=2), players=2)
    _all_five_each(s, check_bonus=False)
    assert s.is_over and s.ender == 0
    sc = s.scores()[0]
    assert sc.breakdown["end grey"] == 5 and sc.breakdown["end coins"] == 0
    assert [f >= 0 for f in s.middle] == [False] * 4 + [True]  # purple stays in the middle
    assert s.scores()[1].breakdown["end grey"] == 0
    assert recount(s) == [x.total for x in s.scores()]


def test_r11_both_end_conditions_in_one_turn_give_both_bonuses() -> None:
    neutrals = tuple((sp, "neutral", 1) for sp in ("a3", "c1", "e3", "c5", "a1"))
    sheet = lattice_sheet(entries=SIX_ENTRIES, treasures=neutrals, grey=1, coins=("b3",),
                          coin_row=(4,))
    s = new(sheet)
    roll(s, O="2any")
    turn(s, "R", "in2", "c1")
    turn(s, "B", "in3", "e3")
    turn(s, "G", "in4", "c5")
    turn(s, "P", "in5", "a1")
    assert not s.is_over
    s.play("take O")
    s.play("in1")
    s.play("a3")  # grey reached in all rows: the turn still goes on
    assert not s.is_over
    s.play("b3")  # and the last coin box
    assert s.is_over
    sc = s.scores()[0]
    assert sc.breakdown["end grey"] == 5 and sc.breakdown["end coins"] == 5
    assert recount(s) == [sc.total]


def test_game_ends_when_no_sheet_can_draw_any_more() -> None:
    # our choice where the rules are silent: a 2 x 2 lattice with one entry point is used up
    sheet = lattice_sheet(2, ((0, 1, 1, 1),))
    s = new(sheet)
    roll(s, O="3any")
    turn(s, "O", "in1", "a1", "a2", "b2")
    turn(s, "R", "forfeit")
    turn(s, "B", "forfeit")
    turn(s, "G", "forfeit")
    turn(s, "P", "forfeit")
    roll(s, O="1any", R="2any")
    turn(s, "O", "forfeit")
    assert not s.is_over
    turn(s, "R", "forfeit")  # no entry point left for red
    turn(s, "B", "forfeit")
    turn(s, "G", "forfeit")
    turn(s, "P", "forfeit")
    roll(s, O="2any")
    turn(s, "O", "b1", "a1")  # the last free connections b2-b1, b1-a1
    assert s.is_over and s.ender == -1
    assert s.scores()[0].breakdown["end coins"] == 0


def test_refused_move_names_the_problem_and_changes_nothing() -> None:
    s = new()
    roll(s)
    before = s.key()
    for text, words in (("take X", "cannot read"), ("zz9", "cannot read"),
                        ("a3", "take a pencil first"), ("roll O 1any", "no roll")):
        try:
            s.play(text)
        except meeple.IllegalMove as exc:
            assert words in exc.reason, exc.reason
        else:
            raise AssertionError(f"{text} accepted")
        assert s.key() == before
    s.play("take orange")  # colour names are accepted too
    assert legal(s)[0] == "forfeit"
    assert s.phase != P_TAKE


def test_sheet_without_grey_boxes_has_no_grey_end() -> None:
    s = new(lattice_sheet(grey=0, coins=("a3",)))
    roll(s)
    turn(s, "O", "in1", "a3")
    assert not s.is_over
