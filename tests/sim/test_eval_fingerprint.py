"""tools/eval_fingerprint.py: a recording of the evaluations, rankers, views and drawings over
seeded random games compares equal on the same code, and a changed value is reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "eval_fingerprint.py"
SMALL = ["--games", "reefs", "--per", "1", "--positions", "12", "--every", "3"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args, *SMALL], capture_output=True,
                          text=True)


def test_a_recording_compares_equal_and_a_changed_value_is_found(tmp_path: Path) -> None:
    path = tmp_path / "before.json"
    assert _run("record", str(path)).returncode == 0
    recorded = json.loads(path.read_text())
    # every standard variant at 1, 2 and 4 seats, each position with a value per seat
    assert len(recorded) == 9
    first = recorded["reefs level=1 p2 s0"]
    assert first[0][0] == "layout"
    assert float(first[1][0]) > 0.0  # the evaluation's credit before anything is scored
    same = _run("compare", str(path))
    assert same.returncode == 0, same.stdout
    assert "0 differ" in same.stdout
    first[1][0] = repr(float(first[1][0]) + 1e-12)
    path.write_text(json.dumps(recorded))
    changed = _run("compare", str(path))
    assert changed.returncode == 1
    assert "DIFFERS: reefs level=1 p2 s0 at position 1" in changed.stdout
