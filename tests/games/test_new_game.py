"""``meeple new-game NAME``: a game written from the template, with no edit outside its folder,
passes the conformance suite, the package shape, the PettingZoo and Gymnasium env checkers and
plays with the bots' defaults; a bad NAME is refused with exit 2 and nothing written.

The game is written into a temporary folder that ``MEEPLE_GAMES_PATH`` names, and the suites
run on it in a pytest of their own (a child process): the registry of this process keeps its
four games, so the tests beside these see what they expect."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core.errors import MeepleError
from meeple.rl import spaces

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def make_game(folder: Path, name: str) -> Path:
    res = runner.invoke(app, ["new-game", name, "--into", str(folder)])
    assert res.exit_code == 0, res.output
    return folder / name


def run_with_game(folder: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """``python args`` in the source tree with ``folder`` on MEEPLE_GAMES_PATH."""
    env = {**os.environ, "MEEPLE_GAMES_PATH": str(folder)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


@pytest.mark.parametrize(("name", "why"), [
    ("Pebbles", "lowercase Python identifier"),
    ("1pebbles", "lowercase Python identifier"),
    ("peb-bles", "lowercase Python identifier"),
    ("class", "lowercase Python identifier"),
    ("", "lowercase Python identifier"),
    ("p" * 31, "at most 30"),
    ("gardens", "exists already"),
])
def test_a_bad_name_is_refused_with_exit_2_and_nothing_written(tmp_path: Path, name: str,
                                                               why: str) -> None:
    res = runner.invoke(app, ["new-game", name, "--into", str(tmp_path)])
    assert res.exit_code == 2
    assert why in " ".join(res.output.split())
    assert list(tmp_path.iterdir()) == []


def test_a_folder_there_already_or_a_missing_into_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pebbles").mkdir()
    res = runner.invoke(app, ["new-game", "pebbles", "--into", str(tmp_path)])
    assert res.exit_code == 2 and "exists already" in res.output
    assert list((tmp_path / "pebbles").iterdir()) == []
    res = runner.invoke(app, ["new-game", "pebbles", "--into", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "is no folder" in res.output
    assert not (tmp_path / "nowhere").exists()


def test_the_game_is_one_folder_of_rules_presentation_and_drawing(tmp_path: Path) -> None:
    game = make_game(tmp_path, "pebbles")
    assert sorted(p.name for p in game.iterdir()) == [
        "__init__.py", "boards.py", "drawing.js", "how-to-play.md", "learning.py", "moves.py",
        "recount.py", "render.py", "rules.py", "scoring.py", "words.py"]
    assert "{{" not in "".join(p.read_text() for p in game.iterdir())
    assert [g.name for g in meeple.games()] == ["gardens", "pergola", "reefs", "takenokolor"]


def test_the_new_game_passes_conformance_shape_and_the_env_checkers(tmp_path: Path) -> None:
    make_game(tmp_path, "pebbles")
    suites = ("tests/conformance/test_conformance.py", "tests/rl/test_envs.py",
              "tests/games/test_package_shape.py")
    res = run_with_game(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
                        "-o", "addopts=", "-v", *suites, "-k", "pebbles")
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    ran = re.findall(r"^(\S+?)::(\S+)\[pebbles\S*\] PASSED", res.stdout, re.MULTILINE)
    for suite in suites:  # each suite took the game, every case of it passed
        assert sum(1 for file, _ in ran if file == suite) >= 1, (suite, res.stdout[-3000:])
    assert "test_gymnasium_check_env_on_the_single_agent_env" in {test for _, test in ran}
    assert "test_pettingzoo_api_and_seed_tests" in {test for _, test in ran}
    passed = re.search(r"(\d+) passed", res.stdout)
    assert passed is not None and int(passed.group(1)) >= 18, res.stdout[-2000:]


def test_the_new_game_plays_with_the_bots_and_learns_with_the_defaults(tmp_path: Path) -> None:
    """No BOTS: the bots judge it by the score pad; no LEARNING.actions: the action list is
    the walk's, every decision text in sorted order."""
    make_game(tmp_path, "pebbles")
    res = run_with_game(tmp_path, "-c", """if True:
        import json, meeple
        from meeple.bots.knowledge import SCORE_ONLY, bot_knowledge
        from meeple.rl.spaces import Encoding
        state = meeple.new_game("pebbles", players=3)
        print(json.dumps({"default_bots": bot_knowledge("pebbles") is SCORE_ONLY,
                          "own_bots": bot_knowledge("gardens") is SCORE_ONLY,
                          "actions": list(Encoding(state).actions)}))
        """)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.splitlines()[-1])
    assert out == {"default_bots": True, "own_bots": False, "actions": ["stop", "take"]}
    records = tmp_path / "games.jsonl"
    res = run_with_game(tmp_path, "-m", "meeple", "simulate", "pebbles", "-n", "2",
                        "-b", "mcts:iterations=30,greedy", "--out", str(records))
    assert res.returncode == 0, res.stderr[-3000:]
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 2 and all(g["game"] == "pebbles" and "winners" in g for g in games)


def test_a_game_too_big_to_walk_is_told_to_bring_its_own_action_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spaces, "WALK_LIMIT", 50)
    with pytest.raises(MeepleError, match="give LEARNING an actions function"):
        spaces.notation_actions(meeple.new_game("gardens", level=1))
