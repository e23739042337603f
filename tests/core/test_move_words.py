"""Moves in words (issue 54 #7): every game's ``Presentation.describe`` says each move of a
seeded random playout in words, the words of a decision are those its choice has in the view
(the button, the hint and the log agree), and a log line made from two positions carries them."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.present import move_words, presentation
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.core.view import log_line
from tests.core.view_snapshots import cases

CASES = cases()


@pytest.mark.parametrize(("ident", "game", "variant", "players"), CASES,
                         ids=[c[0] for c in CASES])
def test_every_move_of_a_playout_has_words_and_a_decision_its_choices_label(
        ident: str, game: str, variant: dict[str, Any], players: int) -> None:
    assert presentation(game).describe is not None, f"{game} has no words for its moves"
    state = meeple.new_game(game, players=players, seed=5, **variant)
    rng = Rng(5)
    decisions = chances = 0
    while not state.is_over:
        before = state.clone()
        if state.to_move == CHANCE:
            state.sample_chance(rng)
            chances += 1
        else:
            seat = state.to_move
            move = rng.choice(state.legal_moves())
            board = presentation(game).view_board(before.seen_by(seat), seat)
            labels = {c["move"]: c["label"] for c in board["choices"]}
            state.play(move)
            words = move_words(before, state.last_logged()[1])
            # the choice's label, as the button says it (Takenokolor's starts with a capital)
            assert words.lower() == labels[str(move)].lower(), (str(move), words)
            decisions += 1
        move = state.last_logged()[1]
        words = move_words(before, move)
        # the words are not the notation (but for a move that is a word: skip, stop, waste)
        assert words and (words != str(move) or str(move).isalpha()), f"{move}: {words!r}"
        assert "\n" not in words and len(words) < 200
    assert decisions and chances


def test_a_describe_that_fails_gives_the_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from meeple.core import present

    def broken(state: Any, move: Any) -> str:
        raise KeyError("a defect")

    pres = presentation("gardens")
    monkeypatch.setitem(present.PRESENTATIONS, "gardens", dataclasses.replace(pres, describe=broken))
    state = meeple.new_game("gardens", players=2, seed=1, level=1)
    outcome = state.chance_outcomes()[0][0]
    assert move_words(state, outcome) == str(outcome)


def test_a_log_line_carries_the_words_of_its_move() -> None:
    state = meeple.new_game("gardens", players=2, seed=1, level=1)
    rng = Rng(1)
    while state.to_move == CHANCE:
        state.sample_chance(rng)
    before = state.clone()
    state.play("take O")
    line = log_line(state, [], move_words(before, state.last_logged()[1]))
    assert line.move == "take O"
    assert line.words.startswith("take the orange pencil (")
    # made without the position before it, a line has no words: a client shows the notation
    assert log_line(state, []).words == ""
