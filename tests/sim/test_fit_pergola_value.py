"""tools/fit_pergola_value.py: Pergola's points-ahead table (evaluation AHEAD) from records."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from meeple.sim.runner import JobSpec, run_job

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fit_pergola_value.py"


def _fit(*files: Path) -> list[str]:
    out = subprocess.run([sys.executable, str(TOOL), *map(str, files)], capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()


def test_plain_and_gzipped_records_fit_the_same_and_other_games_are_skipped(tmp_path: Path) -> None:
    games = run_job(JobSpec("pergola", ("random", "random"), n=4, seed=0))
    plain = tmp_path / "pergola.jsonl"
    plain.write_text("".join(json.dumps(r) + "\n" for r in games), encoding="utf-8")
    packed = tmp_path / "pergola.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in games)
    # a Gardens game and a solo challenge are not part of the fit
    others = tmp_path / "others.jsonl"
    run_job(JobSpec("gardens", ("random", "random"), n=1, seed=0), out=others)
    run_job(JobSpec("pergola", ("random",), n=1, seed=0, options={"challenge": 2}), out=others)

    lines = _fit(plain)
    assert _fit(packed) == lines
    assert _fit(plain, others) == lines
    head = lines[0].split()
    # every seat at every seat's turn start: two seats, fifteen turns each
    assert head[0] == "samples" and int(head[1]) > 4 * 2 * 2 * 10
    (ahead,) = [line for line in lines if line.startswith("AHEAD = ")]
    assert len(ahead.removeprefix("AHEAD = ").strip("()").split(", ")) == 15
