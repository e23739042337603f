"""Scenario tests for Pick a Pen: Gardens: every ruling G1-G12 and the rulebook's placement and
scoring sentences. Sheets are built here so each test sees exactly the geometry it needs."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.gardens.sheet import load
from tests.games.gardens.helpers import new, roll, strip_sheet, turn


# ---------------------------------------------------------------- G1 pencils and rolls
def test_g1_each_pencil_has_faces_1_1_2_3_4_5() -> None:
    s = meeple.new_game("gardens", players=2, seed=1)
    assert s.to_move == meeple.CHANCE
    outcomes = s.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == ["roll O1", "roll O2", "roll O3", "roll O4", "roll O5"]
    probs = dict((str(m), p) for m, p in outcomes)
    assert probs["roll O1"] == pytest.approx(2 / 6)
    assert probs["roll O5"] == pytest.approx(1 / 6)
    assert sum(probs.values()) == pytest.approx(1.0)


def test_g1_pencils_are_rolled_one_by_one_in_colour_order() -> None:
    s = meeple.new_game("gardens", players=2, seed=1)
    roll(s, "O3 R1")
    with pytest.raises(meeple.IllegalMove, match="green"):
        s.play("roll B2")
    with pytest.raises(meeple.IllegalMove, match="1 to 5"):
        s.play("roll G6")
    roll(s, "G2 B5 P4")
    assert s.to_move == 0
    assert [str(m) for m in s.legal_moves()] == ["take O", "take R", "take G", "take B", "take P"]


# ---------------------------------------------------------------- G2 draft
def test_g2_roller_takes_first_then_clockwise_and_next_seat_rolls() -> None:
    s = new(strip_sheet([6] * 10), players=3)
    roll(s, "O1 R1 G1 B1 P1")
    order = []
    for pencil in "ORGBP":
        order.append(s.to_move)
        turn(s, pencil, "waste")
    assert order == [0, 1, 2, 0, 1]
    # no pencil left: the seat whose turn it is (seat 2) rolls and takes first
    assert s.to_move == meeple.CHANCE
    roll(s, "O1 R1 G1 B1 P1")
    assert s.to_move == 2


def test_g2_with_two_players_a_seat_gets_three_pencils_in_a_roll() -> None:
    s = new(strip_sheet([6] * 10), players=2)
    roll(s, "O1 R1 G1 B1 P1")
    takers = []
    for pencil in "ORGBP":
        takers.append(s.to_move)
        turn(s, pencil, "waste")
    assert takers.count(0) == 3 and takers.count(1) == 2


# ---------------------------------------------------------------- G3 take, colour or waste
def test_g3_taking_a_pencil_is_compulsory() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O2 R1 G1 B1 P1")
    assert all(str(m).startswith("take ") for m in s.legal_moves())
    before = s.key()
    for text in ("A1", "waste"):
        with pytest.raises(meeple.IllegalMove, match="take a pencil"):
            s.play(text)
    assert s.key() == before


def test_g3_waste_is_allowed_even_when_colouring_is_possible() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O2 R1 G1 B1 P1")
    s.play("take O")
    assert "waste" in [str(m) for m in s.legal_moves()]
    s.play("waste")
    assert s.crossed[0] == 1
    assert s.scores()[0].breakdown["pencils"] == -1


def test_g3_exactly_n_fields_then_the_turn_ends() -> None:
    s = new(strip_sheet([5, 5]), players=2)
    roll(s, "O3 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2")
    assert s.to_move == 0 and s.can_undo()
    s.play("A3")
    assert s.to_move == 1
    assert not s.can_undo()


def test_g3_waste_only_before_the_first_field() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O3 R1 G1 B1 P1")
    turn(s, "O", "A1")
    with pytest.raises(meeple.IllegalMove, match="before colouring"):
        s.play("waste")
    s.undo()
    s.play("waste")


def test_g3_holding_a_pencil_no_second_take() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O3 R1 G1 B1 P1")
    s.play("take O")
    with pytest.raises(meeple.IllegalMove, match="already holds"):
        s.play("take R")


# ---------------------------------------------------------------- G4 connected groups
def test_g4_first_group_anywhere_and_connected() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O3 R1 G1 B1 P1")
    s.play("take O")
    assert len([m for m in s.legal_moves() if str(m) != "waste"]) == 10
    s.play("A5")
    with pytest.raises(meeple.IllegalMove, match="connected group"):
        s.play("A8")
    assert sorted(str(m) for m in s.legal_moves()) == ["A4", "A6"]


def test_g4_group_may_ignore_garden_borders() -> None:
    s = new(strip_sheet([2, 2, 6]))
    roll(s, "O4 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3", "A4")  # spans gardens g1 and g2
    assert s.coloured[0] == 0b1111


def test_g4_later_groups_must_touch_a_coloured_field() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O2 R2 G1 B1 P1")
    turn(s, "O", "A4", "A5")
    s.play("take R")
    assert sorted(str(m) for m in s.legal_moves()) == ["A3", "A6", "waste"]
    before = s.key()
    with pytest.raises(meeple.IllegalMove, match="does not touch an already coloured field"):
        s.play("A9")
    assert s.key() == before


def test_g4_each_field_is_coloured_once() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O2 R2 G1 B1 P1")
    turn(s, "O", "A4", "A5")
    s.play("take R")
    with pytest.raises(meeple.IllegalMove, match="already coloured"):
        s.play("A4")


def test_g4_a_group_that_cannot_be_completed_is_not_offered() -> None:
    # A1..A10; colour A3 first; a pencil of 3 cannot start at A2 (only A1, A2 free on that side)
    s = new(strip_sheet([5, 5]))
    roll(s, "O1 R3 G1 B1 P1")
    turn(s, "O", "A3")
    s.play("take R")
    assert sorted(str(m) for m in s.legal_moves()) == ["A4", "waste"]
    with pytest.raises(meeple.IllegalMove, match="cannot be completed"):
        s.play("A2")


def test_g4_every_offered_partial_group_can_be_completed() -> None:
    sheet = load("level-1")
    for seed in range(30):
        s = meeple.new_game("gardens", players=1, seed=seed)
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance()
                continue
            moves = s.legal_moves()
            s.play(moves[(seed * 7 + len(s.history)) % len(moves)])
            assert s.legal_moves() or s.is_over
        assert sheet.n == 60


# ---------------------------------------------------------------- G5 outer fields
def test_g5_outer_fields_of_shipped_sheets_exclude_fountain_neighbours() -> None:
    sheet = load("level-1")
    assert sheet.outer_mask.bit_count() == 24  # the ring of radius 4
    fountain_ring = [i for i, (q, r) in enumerate(sheet.coords) if max(abs(q), abs(r), abs(q + r)) == 1]
    assert len(fountain_ring) == 6
    assert all(not sheet.outer_mask >> i & 1 for i in fountain_ring)


def test_g5_hole_in_a_user_sheet_is_not_outside() -> None:
    fields = []
    for r in range(-2, 3):
        for q in range(-2, 3):
            if abs(q + r) <= 2 and (q, r) != (0, 0):
                fields.append({"id": f"{'ABCDE'[r + 2]}{q + 3}", "q": q, "r": r, "garden": "g1"})
    sheet = {"name": "ring", "level": 1, "fields": fields, "scoring": strip_sheet([1])["scoring"]}
    s = new(sheet)
    assert s.sheet.outer_mask.bit_count() == 12  # ring of radius 2; the 6 around the hole are inner


# ---------------------------------------------------------------- G6 gardens
def test_g6_single_colour_gardens_score_2_3_4_then_nothing() -> None:
    s = new(strip_sheet([1, 1, 1, 1, 5], pencil_penalties=[-1] * 20))
    got = []
    for field in ("A1", "A2", "A3", "A4"):
        roll(s, "O1 R1 G1 B1 P1")
        turn(s, "O", field)
        got.append(s.scores()[0].breakdown["orange"])
        for p in "RGBP":
            turn(s, p, "waste")
    assert got == [2, 2 + 3, 2 + 3 + 4, 2 + 3 + 4]  # all boxes full: no further points


def test_g6_colourful_garden_and_box_order() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O1 R1 G1 B1 P1")
    for p, f in zip("ORGBP", ["A1", "A2", "A3", "A4", "A5"], strict=True):
        turn(s, p, f)
    sc = s.scores()[0].breakdown
    assert sc["colourful gardens"] == 6
    assert sum(sc[c] for c in ("orange", "red", "green", "blue", "purple")) == 0


def test_g6_garden_of_two_colours_scores_nothing() -> None:
    s = new(strip_sheet([3, 5]))
    roll(s, "O2 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2")
    turn(s, "R", "A3")
    sc = s.scores()[0]
    assert sc.total == 0


def test_g6_small_garden_can_never_be_colourful() -> None:
    s = new(strip_sheet([4, 5]))
    roll(s, "O1 R1 G1 B1 P1")
    for p, f in zip("ORGB", ["A1", "A2", "A3", "A4"], strict=True):
        turn(s, p, f)
    assert s.colourful[0] == 0 and s.scores()[0].total == 0


def test_g6_completing_two_gardens_with_one_group() -> None:
    s = new(strip_sheet([2, 2, 6]))
    roll(s, "O4 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3", "A4")
    assert s.scores()[0].breakdown["orange"] == 2 + 3


def _single_colour_boxes(s, counts: dict[int, int]) -> None:  # type: ignore[no-untyped-def]
    for c, n in counts.items():
        s.boxes[c] = n


def test_g7_row_star_when_every_colour_has_a_box_in_the_row() -> None:
    s = new(strip_sheet([1] * 10))
    _single_colour_boxes(s, {0: 1, 1: 1, 2: 1, 3: 1})
    assert s.scores()[0].breakdown["row stars"] == 0
    _single_colour_boxes(s, {4: 2})
    assert s.scores()[0].breakdown["row stars"] == 10
    _single_colour_boxes(s, {0: 2, 1: 2, 2: 2, 3: 3})
    assert s.scores()[0].breakdown["row stars"] == 10 + 12


def test_g7_colourful_star_when_all_colourful_boxes_are_filled() -> None:
    s = new(strip_sheet([1] * 10))
    s.colourful[0] = 4
    assert s.scores()[0].breakdown["colourful star"] == 0
    s.colourful[0] = 5
    assert s.scores()[0].breakdown["colourful star"] == 10
    assert s.scores()[0].breakdown["colourful gardens"] == 30


def test_g6_played_row_star_example_one_garden_in_every_colour() -> None:
    # "if you have completed a garden in every colour, colour the bonus star of the first row"
    s = new(strip_sheet([1, 1, 1, 1, 1, 5]))
    roll(s, "O1 R1 G1 B1 P1")
    for p, f in zip("ORGBP", ["A1", "A2", "A3", "A4", "A5"], strict=True):
        turn(s, p, f)
    sc = s.scores()[0].breakdown
    assert [sc[c] for c in ("orange", "red", "green", "blue", "purple")] == [2] * 5
    assert sc["row stars"] == 10
    assert s.scores()[0].total == 20


# ---------------------------------------------------------------- G8 bonus goals
def test_g8_first_to_colour_all_outer_fields_only_first() -> None:
    s = new(strip_sheet([5, 5]), players=2)  # on a strip every field is outer
    roll(s, "O5 R5 G5 B5 P1")
    turn(s, "O", "A1", "A2", "A3", "A4", "A5")
    turn(s, "R", "A1", "A2", "A3", "A4", "A5")
    turn(s, "G", "A6", "A7", "A8", "A9", "A10")  # seat 0 colours every field: game ends
    assert s.is_over
    assert s.first_outer == 0 and s.first_all == 0
    b0, b1 = (x.breakdown for x in s.scores())
    assert b0["all outer fields"] == 6 and b1["all outer fields"] == 0
    assert b0["all fields"] == 6


def test_g8_g10_colouring_the_last_field_ends_the_game_at_once() -> None:
    s = new(strip_sheet([2]), players=2)
    roll(s, "O2 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2")
    assert s.is_over and s.to_move is None
    assert s.middle == 0b11110  # G10: the other pencils stay in the middle
    with pytest.raises(meeple.IllegalMove, match="over"):
        s.play("take R")


def test_g8_largest_area_strictly_larger_wins_tie_gives_nobody() -> None:
    s = new(strip_sheet([5, 5]), players=2)
    roll(s, "O3 R3 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3")
    turn(s, "R", "A1", "A2", "A3")
    s.g10_end_game()
    assert [x.breakdown["largest area"] for x in s.scores()] == [0, 0]
    s2 = new(strip_sheet([5, 5]), players=2)
    roll(s2, "O3 R2 G1 B1 P1")
    turn(s2, "O", "A1", "A2", "A3")
    turn(s2, "R", "A1", "A2")
    s2.g10_end_game()
    assert [x.breakdown["largest area"] for x in s2.scores()] == [6, 0]


def test_g8_largest_area_counts_only_at_the_end_and_lone_player_gets_it() -> None:
    s = new(strip_sheet([5, 5]), players=1)
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")
    assert s.scores()[0].breakdown["largest area"] == 0
    s.g10_end_game()
    assert s.scores()[0].breakdown["largest area"] == 6


def test_g8_largest_area_is_one_colour_connected() -> None:
    s = new(strip_sheet([10]), players=1)
    roll(s, "O2 R1 G2 B1 P1")
    turn(s, "O", "A1", "A2")
    turn(s, "R", "A3")
    turn(s, "G", "A4", "A5")
    assert s.largest_area(0) == 2


# ---------------------------------------------------------------- G9 pencil symbols
def test_g9_penalties_and_fifth_symbol_ends_the_game() -> None:
    s = new(strip_sheet([5, 5]), players=2)
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "waste")
    turn(s, "R", "waste")
    turn(s, "G", "waste")
    turn(s, "B", "waste")
    turn(s, "P", "waste")
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "waste")  # seat 1's third
    turn(s, "R", "waste")  # seat 0's fourth
    turn(s, "G", "waste")
    assert not s.is_over
    turn(s, "B", "waste")  # seat 0's fifth
    assert s.is_over
    assert s.scores()[0].breakdown["pencils"] == -1 - 2 - 3 - 4 - 5
    assert s.scores()[1].breakdown["pencils"] == -1 - 2 - 3 - 4


# ---------------------------------------------------------------- G11 flowers (level 2)
def _flower_sheet() -> dict[str, object]:
    sheet = strip_sheet([5, 5])
    for f, col in zip(sheet["fields"][:5], ["orange", "red", "green", "blue", "purple"], strict=True):
        f["flower"] = col
    return sheet


def test_g11_flower_in_matching_colour_fills_the_flower_box() -> None:
    s = new(_flower_sheet())
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")  # orange flower, orange pencil
    turn(s, "G", "A2")  # red flower, green pencil: nothing
    b = s.scores()[0].breakdown
    assert b["flowers"] == 2


def test_g11_all_flower_boxes_star_and_first_to_all_flower_fields() -> None:
    s = new(_flower_sheet(), players=2)
    roll(s, "O1 R1 G1 B1 P1")
    s.play("take O"); s.play("A1")  # noqa: E702
    s.play("take R"); s.play("A1")  # noqa: E702  seat 1: mismatched flower
    s.play("take G"); s.play("A2")  # noqa: E702
    s.play("take B"); s.play("A2")  # noqa: E702
    s.play("take P"); s.play("A3")  # noqa: E702
    b0 = s.scores()[0].breakdown
    assert b0["flowers"] == 2  # only A1 matched
    s2 = new(_flower_sheet())
    roll(s2, "O1 R1 G1 B1 P1")
    for p, f in zip("ORGBP", ["A1", "A2", "A3", "A4", "A5"], strict=True):
        turn(s2, p, f)
    b = s2.scores()[0].breakdown
    assert b["flowers"] == 10 and b["flower star"] == 10 and b["all flower fields"] == 6


def test_g11_all_flower_fields_bonus_in_any_colours() -> None:
    s = new(_flower_sheet())
    roll(s, "O5 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3", "A4", "A5")
    b = s.scores()[0].breakdown
    assert b["all flower fields"] == 6 and b["flowers"] == 2 and b["flower star"] == 0


# ---------------------------------------------------------------- G12 trees and four gardens (level 3)
def _tree_sheet() -> dict[str, object]:
    sheet = strip_sheet([1, 1, 1, 1, 1, 1, 1, 1, 2], single_colour_boxes=[2, 3, 4, 5],
                        row_stars=[10, 12, 15, 18], colourful_star=0, four_gardens_bonus=5)
    for f in sheet["fields"][:6]:
        f["tree"] = True
    return sheet


def test_g12_tree_boxes_score_nothing_alone_and_star_for_all_five() -> None:
    s = new(_tree_sheet())
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")
    turn(s, "R", "A2")
    b = s.scores()[0].breakdown
    assert b["tree star"] == 0 and s.tree_boxes[0] == 0b00011
    turn(s, "G", "A3")
    turn(s, "B", "A4")
    turn(s, "P", "A5")
    assert s.scores()[0].breakdown["tree star"] == 10


def test_g12_second_tree_in_same_colour_does_nothing() -> None:
    s = new(_tree_sheet())
    roll(s, "O2 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2")
    assert s.tree_boxes[0] == 0b00001


def test_g12_first_to_four_single_colour_gardens_of_a_colour() -> None:
    s = new(_tree_sheet(), players=2)
    roll(s, "O4 R4 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3", "A4")  # seat 0: four orange one-field gardens
    turn(s, "R", "A1", "A2", "A3", "A4")  # seat 1: four red ones
    b0, b1 = (x.breakdown for x in s.scores())
    assert b0["four gardens"] == 5 and b1["four gardens"] == 5
    assert b0["orange"] == 2 + 3 + 4 + 5
    assert s.first_four[0] == 0 and s.first_four[1] == 1


def test_g12_four_gardens_bonus_only_for_the_first() -> None:
    s = new(_tree_sheet(), players=2)
    roll(s, "O4 R1 G1 B1 P1")
    turn(s, "O", "A1", "A2", "A3", "A4")  # seat 0: four orange gardens first
    for p in "RGBP":  # seats 1, 0, 1, 0
        turn(s, p, "waste")
    assert s.to_move == meeple.CHANCE
    roll(s, "O4 R1 G1 B1 P1")
    assert s.to_move == 1
    turn(s, "O", "A1", "A2", "A3", "A4")  # seat 1: four orange too, but second
    b0, b1 = (x.breakdown for x in s.scores())
    assert s.first_four[0] == 0
    assert b0["four gardens"] == 5 and b1["four gardens"] == 0
    assert b1["orange"] == 2 + 3 + 4 + 5


# ---------------------------------------------------------------- rulebook example
def test_rulebook_final_scoring_example_items() -> None:
    """Razia: a garden in every colour (row star 10), a colourful garden (6), no minus points,
    first to all outer fields (6) and to all fields (6), the largest one-colour area (6).
    The picture that makes up her total of 60 is lost, so every item the text lists is checked
    (her boxes here add 10 more: five single-colour gardens at 2 each)."""
    s = new(strip_sheet([1, 1, 1, 1, 1, 5]), players=2)
    plan = [  # (pencil, field) in draft order; seat 0 rolls rounds 1 and 3, seat 1 rounds 2 and 4
        [("O", "A1"), ("R", "A10"), ("G", "A2"), ("B", "A9"), ("P", "A3")],
        [("O", "A8"), ("R", "A4"), ("G", "A7"), ("B", "A5"), ("P", "A6")],
        [("B", "A6"), ("O", "A5"), ("R", "A7"), ("G", "A4"), ("P", "A8")],
        [("R", "A3"), ("O", "A9"), ("B", "A2"), ("G", "A10")],
    ]
    for rnd in plan:
        roll(s, "O1 R1 G1 B1 P1")
        for pencil, field in rnd:
            turn(s, pencil, field)
    assert s.is_over and s.winners() == [0]
    razia = s.scores()[0].breakdown
    assert razia["row stars"] == 10
    assert razia["colourful gardens"] == 6
    assert razia["pencils"] == 0
    assert razia["all outer fields"] == 6 and razia["all fields"] == 6
    assert razia["largest area"] == 6
    assert s.scores()[0].total == 10 + 10 + 6 + 6 + 6 + 6
    assert s.scores()[1].breakdown["all outer fields"] == 0


def test_unknown_or_malformed_move_text_is_refused_with_the_forms() -> None:
    s = new(strip_sheet([5, 5]))
    roll(s, "O1 R1 G1 B1 P1")
    before = s.key()
    for text, pattern in [("take X", "cannot read"), ("Z9", "no field"), ("hello", "cannot read"),
                          ("roll O9", "1 to 5"), ("", "cannot read")]:
        with pytest.raises(meeple.IllegalMove, match=pattern):
            s.play(text)
        assert s.key() == before
    s.play("TAKE o")  # case and spacing are forgiven, the canonical text is 'take O'
    assert str(s.history[-1]) == "take O"
