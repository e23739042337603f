"""``meeple train`` from the command line: a tiny run's output, and bad input refused with one
clear line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.sim.train import TrainSettings

runner = CliRunner()

TINY = ["--generations", "1", "--games", "2", "--iterations", "5", "--eval-games", "0",
        "--hidden", "8", "--epochs", "2"]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def test_a_tiny_run_writes_its_checkpoint_run_file_and_curve(tmp_path: Path) -> None:
    res = runner.invoke(app, ["train", "takenokolor", *TINY, "--seed", "4",
                              "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "best generation 1" in res.output
    assert {"gen-001.npz", "data-001.npz", "best.npz", "run.json", "curve.png"} <= set(
        _files(tmp_path))
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["settings"]["seed"] == 4 and run["settings"]["hidden"] == [8]
    assert run["command"].startswith("meeple train takenokolor --players 2 --generations 1 ")
    assert "--seed 4" in run["command"]


def _run_file(folder: Path, **changes: object) -> None:
    settings = TrainSettings(game="takenokolor", generations=1, games=2, iterations=5,
                             eval_games=0, hidden=(8,), epochs=2).to_json()
    settings.update(changes)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "run.json").write_text(json.dumps({"settings": settings, "generations": []}))


@pytest.mark.parametrize(("args", "says"), [
    (["train", "chess", *TINY], "unknown game"),
    (["train", "takenokolor", "--level", "9", *TINY], "level"),
    (["train", "takenokolor", "--option", "colour=red", *TINY], "colour"),
    (["train", "takenokolor", "--players", "9", *TINY], "players"),
    (["train", "takenokolor", *TINY, "--hidden", "8,x"], "--hidden"),
    (["train", "takenokolor", *TINY, "--hidden", "0"], "--hidden"),
    (["train", "takenokolor", *TINY, "--games", "0"], "--games"),
    (["train", "takenokolor", *TINY, "--lr", "5"], "--lr"),
    (["train", "takenokolor", *TINY, "--against", "grandmaster"], "unknown bot"),
    (["train", "takenokolor", *TINY, "--workers", "0"], "--workers"),
    (["train", "takenokolor", *TINY, "--minutes", "-1"], "--minutes"),
    (["train", "takenokolor", *TINY, "--target", "wins"], "give one of margin, score"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, args: list[str],
                                                         says: str) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, [*args, "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert says in res.output.lower() or says in res.output
    assert len(res.output.strip().splitlines()) <= 3  # one message (wrapped at most)
    assert not out.exists()


@pytest.mark.parametrize(("changes", "extra", "says"), [
    ({"game": "gardens"}, ["--resume"], "holds a run of 'gardens'"),
    ({}, [], "give --resume"),
    ({"seed": 9}, ["--resume"], "seed: run 9, now 0"),
    ({"hidden": [16]}, ["--resume"], "hidden"),
    ({"target": "score"}, ["--resume"], "target"),
])
def test_an_out_folder_holding_another_run_is_refused(tmp_path: Path, changes: dict[str, object],
                                                      extra: list[str], says: str) -> None:
    _run_file(tmp_path, **changes)
    before = _files(tmp_path)
    res = runner.invoke(app, ["train", "takenokolor", *TINY, "--out", str(tmp_path), *extra])
    assert res.exit_code == 2, res.output
    assert says in " ".join(res.output.split())
    assert _files(tmp_path) == before


def test_an_out_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("x")
    res = runner.invoke(app, ["train", "takenokolor", *TINY, "--out", str(out)])
    assert res.exit_code == 2 and "is a file" in res.output
    assert out.read_text() == "x"
