"""Gardens announcements: what a player is told happened (Presentation.announce), in good English
for "you" and for named seats."""

from __future__ import annotations

import re

import meeple
from meeple.core.present import announcements
from meeple.core.rng import Rng
from meeple.core.view import terminal_score, terminal_text
from meeple.games.gardens.rules import GardensState
from tests.games.gardens.helpers import new, roll, strip_sheet, turn


def said(s: GardensState, move: str) -> list[str]:
    before = s.clone()
    s.play(move)
    return announcements(before, s)


def test_completing_a_garden_says_who_which_garden_its_size_and_points() -> None:
    s = new(strip_sheet([2, 3]), players=2)
    s.seats = ["you", "Ann"]
    roll(s, "O2 R3 G1 B1 P1")
    s.play("take O")
    assert said(s, "A1") == []
    assert said(s, "A2") == ["you completed garden a (2 fields) all in orange: orange box 1 (+2)"]
    s.play("take R")
    s.play("A3")
    s.play("A4")
    assert said(s, "A5") == [
        "Ann completed garden b (3 fields) all in red: red box 1 (+2)"]


def test_mixed_and_full_boxes_and_colourful_gardens_are_explained() -> None:
    s = new(strip_sheet([2, 5, 1]))
    s.seats = ["Ann"]
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")
    s.play("take R")
    assert said(s, "A2") == [
        "Ann completed garden a (2 fields) in 2 colours (O R): no box (G6 scores one colour or "
        "all five)"]
    turn(s, "G", "A3")
    turn(s, "B", "A4")
    turn(s, "P", "A5")
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A6")
    s.play("take R")
    assert said(s, "A7") == [
        "Ann completed garden b (5 fields) in all five colours: colourful box 1 (+6)"]


def test_row_star_flower_and_first_goals_are_announced() -> None:
    s = new(strip_sheet([1, 1, 1, 1, 1, 1]), players=1)
    s.seats = ["you"]
    roll(s, "O1 R1 G1 B1 P1")
    for pencil, field in zip("ORGB", ("A1", "A2", "A3", "A4"), strict=True):
        turn(s, pencil, field)
    s.play("take P")
    out = said(s, "A5")
    assert "you completed garden e (1 field) all in purple: purple box 1 (+2)" in out
    assert "you reached the row 1 star: a box of every colour in that row (+10, G7)" in out
    roll(s, "O1 R1 G1 B1 P1")
    s.play("take O")
    out = said(s, "A6")
    assert "you were the first to colour all outer fields: bonus +6 (G8)" in out
    assert "you were the first to colour all fields: bonus +6 (G8)" in out
    assert out[-3].startswith("The game is over: you have coloured every field (G10)")
    assert out[-2] == ("you got the largest-area bonus with 1 field of one colour (+6, G8)")
    assert out[-1].startswith("Final scores: you ")


def test_crossing_pencil_symbols_and_the_end_by_the_last_one() -> None:
    s = new(strip_sheet([3, 3], pencil_penalties=[-1, -2]), players=2)
    s.seats = ["you", "Ann"]
    roll(s, "O1 R1 G1 B1 P1")
    s.play("take O")
    assert said(s, "waste") == [
        "you wasted a pencil and crossed pencil symbol 1 of 2 (-1, G9), 1 left"]
    turn(s, "R", "A1")
    s.play("take G")
    out = said(s, "waste")
    assert out[0] == "you wasted a pencil and crossed pencil symbol 2 of 2 (-2, G9) - the last one"
    assert out[1] == "The game is over: you have crossed the last pencil symbol (G10)."
    assert out[2].startswith("Ann got the largest-area bonus")


def test_a_goal_taken_by_another_seat_and_a_tied_largest_area() -> None:
    s = new(strip_sheet([1, 1]), players=2)
    s.seats = ["Bo", "Ann"]
    roll(s, "O1 R1 G1 B1 P1")
    turn(s, "O", "A1")
    turn(s, "R", "A1")
    turn(s, "G", "waste")
    # Ann is the first to colour all fields; both largest areas are 1: a tie (G8)
    assert said(s, "take B") == []
    out = said(s, "A2")
    assert "Ann was the first to colour all outer fields: bonus +6 (G8)" in out
    assert "The largest one-colour area is a tie at 1 field: nobody gets the largest-area " \
           "bonus (G8)" in out


def test_flower_and_tree_boxes_are_announced() -> None:
    sheet = strip_sheet([2, 3])
    sheet["fields"][0]["flower"] = "orange"
    sheet["fields"][2]["tree"] = True
    s = new(sheet)
    s.seats = ["you"]
    roll(s, "O1 R2 G1 B1 P1")
    s.play("take O")
    assert said(s, "A1") == [
        "you coloured the orange flower orange: orange flower box (+2, G11)",
        "you were the first to colour all five flower fields: bonus +6 (G11)"]
    s.play("take R")
    s.play("A2")
    assert said(s, "A3") == ["you coloured a tree red: the red tree box (no points on its own, "
                             "G12)"]


BAD = re.compile(r"\byou(?:'s| rolls| holds| has| is| wastes| completes| crosses| takes)\b",
                 re.IGNORECASE)


def test_you_is_worded_as_you_everywhere_gardens_prints() -> None:
    rng = Rng(4)
    for level in (1, 2, 3):
        s = meeple.new_game("gardens", players=2, seed=level, level=level)
        s.seats = ["you", "greedy (1)"]
        texts = []
        while not s.is_over:
            before = s.clone()
            if s.to_move == meeple.CHANCE:
                s.sample_chance()
            else:
                moves = s.legal_moves()
                s.play(rng.choice(moves))
            texts += announcements(before, s)
            if len(s.history) % 7 == 0 or s.is_over:
                texts += [terminal_text(s, 0, 0), terminal_text(s, 1, 1),
                          terminal_score(s, None, None) or ""]
        screen = "\n".join(texts)
        assert "your sheet" in screen and "your score pad" in screen
        assert not BAD.search(screen), BAD.search(screen)
        assert "greedy (1)'s sheet" in screen


def test_colourful_star_and_four_gardens_goal_are_announced() -> None:
    s = new(strip_sheet([5, 1, 1, 1, 1, 1, 1], colourful_boxes=[6], four_gardens_count=2,
                        four_gardens_bonus=5))
    s.seats = ["you"]
    roll(s, "O1 R1 G1 B1 P1")
    for pencil, field in zip("ORGB", ("A1", "A2", "A3", "A4"), strict=True):
        turn(s, pencil, field)
    s.play("take P")
    assert said(s, "A5") == [
        "you completed garden a (5 fields) in all five colours: colourful box 1 (+6)",
        "you filled every colourful box: the colourful star (+10, G7)"]
    roll(s, "O1 R1 G1 B1 P1")
    for pencil, field in zip("ORGBP", ("A6", "A7", "A8", "A9", "A10"), strict=True):
        turn(s, pencil, field)
    roll(s, "O1 R1 G1 B1 P1")
    s.play("take O")
    out = said(s, "A11")
    assert "you completed garden g (1 field) all in orange: orange box 2 (+3)" in out
    assert "you were the first to complete 2 orange gardens: bonus +5 (G12)" in out
