"""Several steps on one line, in every game: the line means exactly the moves typed one by
one, or nothing at all."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.cli.play import LineRefused, Session
from meeple.core.state import State

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("gardens", {}), ("reefs", {"level": 3}), ("takenokolor", {}), ("pergola", {}),
]


def at_a_choice(game: str, variant: dict[str, Any], seed: int, skip: int) -> State[Any]:
    """A two-seat game after ``skip`` decisions of random play, at a decision of a seat with
    more than one choice."""
    s = meeple.new_game(game, players=2, seed=seed, **variant)
    decisions = 0
    while True:
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
            continue
        legal = s.legal_moves()
        if decisions >= skip and len(legal) > 1:
            return s
        s.play(legal[(seed + decisions) % len(legal)])
        decisions += 1


@settings(max_examples=40, deadline=None)
@given(which=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 10_000),
       skip=st.integers(0, 12), data=st.data())
def test_a_line_is_its_steps_played_one_by_one(which: int, seed: int, skip: int,
                                               data: st.DataObject) -> None:
    game, variant = VARIANTS[which]
    start = at_a_choice(game, variant, seed, skip)
    seat = start.to_move
    assert seat is not None and seat >= 0
    s = start.clone()
    steps = []
    while s.to_move == seat and len(steps) < 8:
        legal = s.legal_moves()
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        steps.append(move)
        s.play(move)
    session = Session(start.clone(), ["me", "me"], [None, None])
    line = "  ".join(str(m) for m in steps)
    planned = session.plan_line(seat, line)
    assert [m for _, m, _ in planned] == steps
    assert planned[-1][0].key() == s.key()

    # a word that is no move, anywhere in the line: refused, the game untouched
    at = data.draw(st.integers(0, len(steps)))
    words = [str(m) for m in steps]
    words.insert(at, "zzz9")
    before = session.state.key(), session.state.history
    with pytest.raises(LineRefused):
        session.plan_line(seat, " ".join(words))
    session.play_line(seat, " ".join(words))
    assert (session.state.key(), session.state.history) == before
