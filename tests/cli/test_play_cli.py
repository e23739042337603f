"""The terminal commands, driven as a user would: typed input, saved records, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app

runner = CliRunner()


def test_games_lists_every_registered_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for info in meeple.games():
        assert info.name in result.output


def test_play_gardens_against_bots_to_the_end(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    # a human who always wastes: 'take' the first pencil offered, then 'waste'
    script = "\n".join(["help", "moves", "take Z", "score"] + ["take O", "take R", "take G",
                       "take B", "take P", "waste"] * 40) + "\n"
    result = runner.invoke(app, ["play", "gardens", "--level", "2", "--seats", "me,random,random",
                                 "--seed", "5", "--record", str(out)], input=script)
    assert result.exit_code == 0, result.output
    assert "Commands" in result.output  # help was shown
    assert "refused" in result.output  # 'take Z' was refused with a reason
    assert "Game over" in result.output
    rec = json.loads(out.read_text())
    assert rec["game"] == "gardens" and rec["variant"] == {"level": 2}
    state = meeple.replay(rec)
    assert state.is_over
    assert rec["scores"] == [s.as_dict() for s in state.scores()]


def test_play_undo_inside_the_turn(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    s = meeple.new_game("gardens", players=1, seed=9)
    while s.to_move == meeple.CHANCE:
        s.sample_chance()
    big = max((c for c in range(5) if s.middle >> c & 1), key=lambda c: s.faces[c])
    pencil = "ORGBP"[big]
    script = f"take {pencil}\nE1\nundo\nundo\nundo\nquit\n"
    result = runner.invoke(app, ["play", "gardens", "--seats", "me", "--seed", "9",
                                 "--record", str(out)], input=script)
    assert result.exit_code == 0, result.output
    assert "took back E1" in result.output or "took back" in result.output
    assert "nothing to undo" in result.output
    rec = json.loads(out.read_text())
    assert rec["moves"][-1].startswith("roll ")  # both decisions were taken back
    assert "scores" not in rec  # unfinished game


def test_replay_steps_and_jumps(tmp_path: Path) -> None:
    s = meeple.new_game("gardens", players=2, seed=4)
    from meeple.core.rng import Rng

    rng = Rng(2)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
        else:
            s.play(rng.choice(s.legal_moves()))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(s.record()))
    result = runner.invoke(app, ["replay", str(path)], input="n\nn\np\ng 12\ne\nzz\nq\n")
    assert result.exit_code == 0, result.output
    assert "move 1/" in result.output and "move 12/" in result.output
    assert f"move {len(s.history)}/{len(s.history)}" in result.output
    result = runner.invoke(app, ["replay", str(path), "--at", "7", "--seat", "1"])
    assert result.exit_code == 0 and "move 7/" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "gardens", "--level", "9"], "level=9 is not offered"),
        (["play", "gardens", "--seats", "me,me,me,me,me"], "takes 1 to 4"),
        (["play", "gardens", "--seats", "me,deepblue"], "unknown bot 'deepblue'"),
        (["play", "gardens", "--option", "nonsense"], "key=value"),
        (["replay", "/no/such/file.json"], "no such file"),
        (["sheets", "validate", "/no/such.toml"], "no such file"),
    ],
)
def test_bad_cli_input_gives_a_clear_error(args: list[str], words: str) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert words in result.output


def test_replay_refuses_bad_seat_and_position(tmp_path: Path) -> None:
    s = meeple.new_game("gardens", players=2, seed=4)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(s.record()))
    assert "--seat must be" in runner.invoke(app, ["replay", str(path), "--seat", "5"]).output
    assert "--at must be" in runner.invoke(app, ["replay", str(path), "--at", "99"]).output


def test_sheets_validate_good_and_bad(tmp_path: Path) -> None:
    from meeple.games.gardens.sheet import SHEETS_DIR

    good = SHEETS_DIR / "level-2.toml"
    result = runner.invoke(app, ["sheets", "validate", str(good), "--game", "gardens"])
    assert result.exit_code == 0 and "valid" in result.output and "reconstructed" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('id = "C3"', 'id = "c3"'))
    result = runner.invoke(app, ["sheets", "validate", str(bad), "--game", "gardens"])
    assert result.exit_code == 2
    assert "capital letter" in result.output and "bad.toml:" in result.output
    result = runner.invoke(app, ["sheets", "list", "gardens"])
    assert "level-1" in result.output
