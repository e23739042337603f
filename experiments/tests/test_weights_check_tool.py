"""experiments/weights_check.py: one greedy seat with changed Takenokolor weights against shipped ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "weights_check.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)


def test_the_shipped_weights_against_themselves_score_exactly_half() -> None:
    """Every rotation of the same seed plays the same game, so the changed seat (here not
    changed at all) is ahead of the others exactly as often as behind; a real change is
    reported on the same games."""
    out = _run("--sheet", "2-pandas", "--players", "3", "--seeds", "3", "--workers", "1",
               "{}", '{"deny": 0.0, "end_weight": 0.0}')
    assert out.returncode == 0, out.stderr
    same, changed = out.stdout.splitlines()
    assert same.startswith("2-pandas, 3 seats, {}: 9 games, head to head 50.0 % (se")
    assert changed.startswith('2-pandas, 3 seats, {"deny": 0.0, "end_weight": 0.0}: 9 games')


def test_an_unknown_weight_is_refused_with_the_weights_allowed() -> None:
    out = _run("--seeds", "1", '{"bogus": 1}')
    assert out.returncode == 2
    assert "unknown weight(s) bogus" in out.stderr and "deny" in out.stderr
    assert out.stdout == ""
