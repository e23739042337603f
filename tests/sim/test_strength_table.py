"""tools/strength_table.py: the docs/strength.md tables from tournament and solo records."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from meeple.sim.runner import JobSpec, run_job
from meeple.sim.tournament import run_tournament

TOOL = Path(__file__).resolve().parents[2] / "tools" / "strength_table.py"


def _table(*files: Path, bot: str) -> list[list[str]]:
    out = subprocess.run([sys.executable, str(TOOL), "--bot", bot, *map(str, files)],
                         capture_output=True, text=True, check=True).stdout
    return [[c.strip() for c in line.strip("|").split("|")] for line in out.splitlines()[2:]]


def test_two_and_three_seat_rows_match_the_tournament(tmp_path: Path) -> None:
    two = tmp_path / "two.jsonl"
    three = tmp_path / "three.jsonl"
    res2 = run_tournament("gardens", {"level": 1}, ["greedy", "random"], n=2, seed=4, records=two)
    res3 = run_tournament("gardens", {"level": 1}, ["greedy", "random", "random"], n=1, seed=4,
                          records=three)
    rows = _table(two, three, bot="greedy")
    assert [r[2] for r in rows] == ["2", "3"]
    win = next(r for r in res2["results"] if r["spec"] == "greedy")["win_rate"]
    assert rows[0][3] == "greedy vs random" and rows[0][4] == "4" and rows[0][5] == f"{win:.1%}"
    h2h = next(h for h in res3["head_to_head"] if h["bot"] == "greedy")
    assert rows[1][3] == "greedy vs 2 x random (head to head)"
    assert rows[1][4] == "3" and rows[1][5] == f"{h2h['share']:.1%}"


def test_solo_rows_pair_the_same_seeds(tmp_path: Path) -> None:
    solo = tmp_path / "solo.jsonl"
    for spec in ("greedy", "random"):
        list(run_job(JobSpec(game="gardens", bots=(spec,), n=3, seed=1, options={"level": 1}), out=solo))
    rows = _table(solo, bot="greedy")
    assert len(rows) == 1
    assert rows[0][3] == "greedy vs random (solo, same seeds)" and rows[0][4] == "3"
