"""experiments/paired.py: two arms of a trial compared on the games they share."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from meeple.sim.tournament import run_tournament

TOOL = Path(__file__).resolve().parents[1] / "paired.py"


def _rows(a: str, b: str) -> tuple[str, list[list[str]]]:
    out = subprocess.run([sys.executable, str(TOOL), "--bot", "greedy", a, b],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    return lines[0], [[c.strip() for c in line.strip("|").split("|")] for line in lines[3:]]


def _margins(path: Path) -> dict[tuple[str, int, int], float]:
    """The greedy seat's score less the other seat's, by (variant, seed, greedy's seat): a
    recount."""
    out = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        seat = next(i for i, s in enumerate(rec["bots"]) if s.startswith("greedy"))
        totals = [s["total"] for s in rec["scores"]]
        out[(json.dumps(rec["variant"]), rec["seed"], seat)] = float(totals[seat] - totals[1 - seat])
    return out


def _mean_se(diffs: list[float]) -> tuple[float, float]:
    d = sum(diffs) / len(diffs)
    return d, math.sqrt(sum((x - d) ** 2 for x in diffs) / (len(diffs) - 1)) / math.sqrt(len(diffs))


def test_an_arm_against_itself_differs_by_nothing(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    run_tournament("gardens", {"level": 1}, ["greedy", "random"], n=2, seed=3, records=a)
    head, rows = _rows(str(a), str(a))
    assert head == "paired games: 4; only in A: 0; only in B: 0"
    assert len(rows) == 1 and rows[0][:4] == ["gardens", "level=1", "2", "4"]
    assert rows[0][4] == rows[0][5] and rows[0][6] == "+0.00" and rows[0][7] == "0.00"
    assert rows[0][9] == "+0.0%" and rows[0][10] == "0.0%"


def test_margin_difference_pairs_seed_and_seat(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    b1 = tmp_path / "b1.jsonl"
    b2 = tmp_path / "b2.jsonl"
    run_tournament("gardens", {"level": 1}, ["greedy", "random"], n=3, seed=0, records=a)
    # arm B in two files, one seed short of arm A: that seed's games are left out
    run_tournament("gardens", {"level": 1}, ["greedy:epsilon=0.5", "random"], n=1, seed=0, records=b1)
    run_tournament("gardens", {"level": 1}, ["greedy:epsilon=0.5", "random"], n=1, seed=1, records=b2)
    head, rows = _rows(str(a), f"{b1},{b2}")
    assert head == "paired games: 4; only in A: 2; only in B: 0"
    ma, mb = _margins(a), {**_margins(b1), **_margins(b2)}
    d, se = _mean_se([ma[k] - mb[k] for k in mb])
    assert len(rows) == 1 and rows[0][3] == "4"
    assert rows[0][6] == f"{d:+.2f}" and rows[0][7] == f"{se:.2f}"
    # the mean of the per-pair share differences is the difference of the paired shares
    share_a, share_b = (float(c.rstrip("%")) for c in rows[0][4:6])
    assert abs(float(rows[0][9].rstrip("%")) - (share_a - share_b)) <= 0.11


def test_a_last_row_pools_the_groups(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    for level in (1, 2):
        run_tournament("gardens", {"level": level}, ["greedy", "random"], n=1, seed=5, records=a)
        run_tournament("gardens", {"level": level}, ["greedy:epsilon=0.5", "random"], n=1, seed=5,
                       records=b)
    _, rows = _rows(str(a), str(b))
    assert [r[:4] for r in rows] == [["gardens", "level=1", "2", "2"], ["gardens", "level=2", "2", "2"],
                                     ["all", "standard", "all", "4"]]
    ma, mb = _margins(a), _margins(b)
    d, se = _mean_se([ma[k] - mb[k] for k in ma])
    assert len(ma) == 4 and rows[2][6] == f"{d:+.2f}" and rows[2][7] == f"{se:.2f}"
