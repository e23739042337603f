"""The command line names the games the registry has: a game made by ``meeple new-game`` in a
folder on ``MEEPLE_GAMES_PATH`` is in every command's help and error, plays with bots, and its
shipped sheets are listed and played from there (never looked for under ``meeple/games``).

The commands run in a process of their own with the folder on ``MEEPLE_GAMES_PATH``: the
registry of this process keeps its four games, so the tests beside these see what they expect."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.kept_game import make_kept_game

ROOT = Path(__file__).resolve().parents[2]
GAME = "pebbles"
ALL = "gardens, pergola, reefs, takenokolor or pebbles"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding pebbles, which ships two sheets."""
    folder = tmp_path_factory.mktemp("games")
    make_kept_game(folder, GAME, sheets=True)
    return folder


def meeple_cmd(games: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``meeple args`` with ``games`` on MEEPLE_GAMES_PATH, its output into a pipe, wide
    enough that no help line wraps."""
    env = {**os.environ, "MEEPLE_GAMES_PATH": str(games), "COLUMNS": "250", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "meeple", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def one_line(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize(("command", "said"), [
    (("--help",), "agents on Pick a Pen: Gardens, Pergola, Pick a Pen: Reefs, Takenokolor and "
                  "Pebbles."),
    (("play", "--help"), f"the game: {ALL} (may be left out with --resume)"),
    (("simulate", "--help"), f"The game: {ALL}."),
    (("tournament", "--help"), f"The game: {ALL}."),
    (("schema", "--help"), f"the game: {ALL}"),
    (("sheets", "list", "--help"), f"the game: {ALL} (without it, every game)"),
    (("sheets", "validate", "--help"), f"the sheet is for: {ALL}"),
    (("calibrate-bots", "--help"), f"A game to calibrate: {ALL}"),
])
def test_every_command_help_names_the_game_from_the_games_path(games: Path,
                                                              command: tuple[str, ...],
                                                              said: str) -> None:
    res = meeple_cmd(games, *command)
    assert res.returncode == 0, res.stderr
    assert said in one_line(res.stdout), res.stdout


def test_the_options_help_names_the_games_that_offer_them(games: Path) -> None:
    out = one_line(meeple_cmd(games, "play", "--help").stdout)
    assert "--level <int> level (gardens or reefs)" in out
    assert "--challenge <int> solo challenge (pergola)" in out


@pytest.mark.parametrize("command", [("play",), ("play", "nope"), ("play", "../pebbles"),
                                     ("schema",), ("sheets", "list", "pebbles/..")])
def test_a_missing_or_unknown_game_is_refused_naming_every_game(games: Path,
                                                                command: tuple[str, ...]) -> None:
    res = meeple_cmd(games, *command)
    assert res.returncode == 2
    said = one_line(res.stderr)
    assert ("known games: gardens, pergola, reefs, takenokolor, pebbles" in said
            or f"({ALL})" in said), said


def test_the_game_plays_with_bots_on_its_shipped_sheet(games: Path, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    res = meeple_cmd(games, "play", GAME, "--seats", "random,greedy", "--seed", "3",
                     "--sheet", "tall", "--record", str(record))
    assert res.returncode == 0, res.stderr
    assert "Game over." in res.stdout
    saved = json.loads(record.read_text())
    assert saved["game"] == GAME and saved["variant"]["pile"] == 12  # the tall sheet's pile
    assert "winners" in saved


def test_sheets_list_finds_the_sheets_in_the_games_folder(games: Path) -> None:
    res = meeple_cmd(games, "sheets", "list", GAME)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [f"{GAME}: short, tall",
                                       f"  in {games / GAME / 'sheets'}"]
    res = meeple_cmd(games, "sheets", "list")  # every game, the new one last
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-2:] == [f"{GAME}: short, tall",
                                            f"  in {games / GAME / 'sheets'}"]


def test_a_game_without_sheets_says_so(tmp_path: Path) -> None:
    make_kept_game(tmp_path, "cairn")
    res = meeple_cmd(tmp_path, "sheets", "list", "cairn")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["cairn: ships no sheets"]


@pytest.mark.parametrize(("seats", "you", "to_move", "takes", "took"), [
    ("me,random", "you", "You are to move:", "You take the last counter (+3).",
     "You took the last counter."),
    ("Ann=me,random", "Ann", "Ann is to move:", "Ann takes the last counter (+3).",
     "Ann took the last counter."),
])
def test_the_new_game_words_read_right_for_you_and_for_a_named_seat(
        tmp_path: Path, seats: str, you: str, to_move: str, takes: str, took: str) -> None:
    """The template's sentences agree with the seat's name: "you" (one person at the
    keyboard) or a name. Seed 7: the person, taking whenever asked, takes the last counter."""
    make_kept_game(tmp_path, GAME)
    env = {**os.environ, "MEEPLE_GAMES_PATH": str(tmp_path), "COLUMNS": "120"}
    res = subprocess.run([sys.executable, "-m", "meeple", "play", GAME, "--seats", seats,
                          "--seed", "7", "--record", str(tmp_path / "game.json")],
                         input="take\n" * 60, cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert to_move in out and takes in out and took in out, out
    assert f"\n{you}: 1 counter\n" in out, out  # one counter, not "1 counters"
    assert "Pile: empty" in out
    for wrong in ("you is", "you takes", "1 counters", "Pile:  (0)"):
        assert wrong not in out, wrong
