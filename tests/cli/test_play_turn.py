"""The terminal's turn in progress (meeple.core.turn.Turn in ``meeple play``): undo takes the
kept position back, never replays the game; a typed forced step counts as typed; a resumed
game's undo still works."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.cli.play import Session
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from tests.steps import EngineSteps


def a_long_turn(game: str, seed: int, players: int = 1, least: int = 3
                ) -> tuple[State[Any], list[str]]:
    """A position some turns into a game where seat 0 starts a turn of at least ``least``
    decisions (the first legal move each time), and that turn's move texts."""
    s = meeple.new_game(game, players=players, seed=seed)
    while True:
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        assert s.to_move is not None
        trial, steps = s.clone(), []
        while trial.to_move == s.to_move and trial.turn == s.turn:
            m = trial.legal_moves()[0]
            steps.append(str(m))
            trial.play(m)
        if s.to_move == 0 and len(steps) >= least and len(s.history) > 10 and not s.can_undo():
            return s, steps
        s.play(s.legal_moves()[0])


def test_undo_takes_back_the_kept_position_without_a_replay(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    start, steps = a_long_turn("gardens", 4)
    session = Session(start.clone(), ["me"], [None])
    count = EngineSteps(monkeypatch, type(start))
    keys = []
    for text in steps[:-1]:
        keys.append((session.state.key(), session.state.history))
        session.play_line(0, text)
    assert len(session.state.history) == len(start.history) + len(steps) - 1
    count.take()
    while keys:
        key, history = keys.pop()
        session.undo(0)
        assert count.take() == 0  # the kept position: no replay of the game
        assert (session.state.key(), session.state.history) == (key, history)
    session.undo(0)  # nothing left of this turn
    assert "nothing to undo" in capsys.readouterr().out
    assert session.state.history == start.history


def test_undo_takes_back_forced_steps_with_the_decision_without_a_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Reefs seed 1, one seat (as in test_play_loop): the entry point chosen at move 7 leaves
    # one step, played by itself, that ends the turn
    state = meeple.new_game("reefs", players=1, seed=1)
    while len(state.history) < 6:
        if state.to_move == meeple.CHANCE:
            state.sample_chance()
        else:
            state.play(state.legal_moves()[0])
    before = state.history
    session = Session(state, ["me"], [None])
    session.play_line(0, str(state.legal_moves()[0]))  # the only choice after it follows
    assert len(session.state.history) == len(before) + 2 and session.auto
    count = EngineSteps(monkeypatch, type(state))
    session.undo(0)
    assert count.take() == 0
    assert session.state.history == before and not session.auto


def test_a_typed_forced_step_counts_as_typed_and_a_line_plays_as_typed_one_by_one() -> None:
    # a Reefs turn with a forced step inside it (a decision with one legal move, then more)
    found = None
    s = meeple.new_game("reefs", players=1, seed=1)
    rng = Rng(1)
    while found is None and not s.is_over:
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        seat, turn = s.to_move, s.turn
        trial, steps, one = s.clone(), [], []
        pick = Rng(1 + len(s.history))
        while trial.to_move == seat and trial.turn == turn:
            legal = trial.legal_moves()
            one.append(len(legal) == 1)
            move = pick.choice(legal)
            steps.append(str(move))
            trial.play(move)
        if True in one[1:-1] and not one[0]:
            found = s
        else:
            s.play(rng.choice(s.legal_moves()))
    assert found is not None
    for typed_forced in (True, False):
        session = Session(found.clone(), ["me"], [None])
        words = [w for w, f in zip(steps, one, strict=True) if typed_forced or not f]
        session.play_line(0, " ".join(words))
        assert session.state.key() == trial.key()
        assert session.state.history == trial.history
        n = len(found.history)
        forced_at = {n + i for i, f in enumerate(one) if f}
        # typed: not marked as played by itself (as before the turn object)
        assert session.auto == (set() if typed_forced else forced_at)


def test_a_resumed_game_undoes_a_decision_made_before_it_was_saved() -> None:
    start, steps = a_long_turn("gardens", 4)
    state = start.clone()
    for text in steps[:2]:
        state.play(text)
    session = Session(state.replay_moves(state.history), ["me"], [None])  # as --resume does
    session.undo(0)
    after_one = start.clone()
    after_one.play(steps[0])
    assert session.state.key() == after_one.key()
    assert session.state.history == after_one.history
    session.play_line(0, steps[1])  # and the turn goes on from there
    session.undo(0)
    assert session.state.history == after_one.history
