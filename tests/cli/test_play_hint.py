"""The ``hint`` command of terminal play: the suggested turn, its value and two others."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import meeple
from meeple.bots import hint
from meeple.cli import app
from meeple.core.state import CHANCE, State

runner = CliRunner()


def start(seed: int) -> State[Any]:
    s = meeple.new_game("gardens", players=2, seed=seed)
    while s.to_move == CHANCE:
        s.sample_chance()
    return s


def test_hint_prints_the_turn_its_value_and_two_others_and_the_turn_can_be_played(
        tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    state = start(4)
    assert state.to_move == 0
    expected = hint(state.seen_by(0), 0, "easy", seed=len(state.history), alternatives=2)
    line = " ".join(expected.best.moves)
    result = runner.invoke(app, ["play", "gardens", "--seats", "me,greedy", "--seed", "4",
                                 "--record", str(out)],
                           input="\n".join(["help", "hint easy", line, "quit", "y"]) + "\n")
    assert result.exit_code == 0, result.output
    text = result.output
    assert re.search(r"hint \[LEVEL\]\s+a suggested turn", text)  # help lists it
    assert f"hint (easy): {line}" in text
    assert f"worth {expected.best.value:.1f} by the game's evaluation" in text
    assert f"scores {expected.best.scored:+d} now" in text
    assert "other turns:" in text
    for alt in expected.alternatives:
        assert f"{' '.join(alt.moves)}  (scores {alt.scored:+d}, worth {alt.value:.1f})" in text
    assert len(expected.alternatives) == 2
    assert text.count("what it does:") == 3
    # the hint played nothing; typing its line plays the turn
    rec = json.loads(out.read_text())
    played = rec["moves"][len(state.history):len(state.history) + len(expected.best.moves)]
    assert played == list(expected.best.moves)


def test_a_bad_level_is_refused_and_nothing_is_played(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    state = start(6)
    result = runner.invoke(app, ["play", "gardens", "--seats", "me,greedy", "--seed", "6",
                                 "--record", str(out)],
                           input="\n".join(["hint grandmaster", "quit", "y"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "no hint: unknown bot or level 'grandmaster'; levels: easy, medium, hard" in \
        result.output
    rec = json.loads(out.read_text())
    assert rec["moves"] == [str(m) for m in state.history]
