"""Which rows decide games (meeple.sim.balance.decisive_rows) and tools/balance_doc.py."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.sim.balance import decisive_rows
from meeple.sim.runner import JobSpec, run_job

TOOL = Path(__file__).resolve().parents[2] / "tools" / "balance_doc.py"


def _rec(rows: list[dict[str, int]], winners: list[int], seed: int) -> dict[str, Any]:
    return {"game": "g", "variant": {}, "players": len(rows), "seed": seed, "bots": ["b"] * len(rows),
            "scores": [{"total": sum(r.values()), "breakdown": r} for r in rows], "winners": winners}


def test_decisive_rows_by_hand() -> None:
    recs = [
        # seat 0 wins 10-4: leads a by +5, b by +1
        _rec([{"a": 7, "b": 3}, {"a": 2, "b": 2}], [0], 1),
        # three seats, seat 2 wins 9 against 5 and 3 (others' mean 4): a 5 against a mean of
        # 2.5, b 4 against 1.5: +2.5 each
        _rec([{"a": 4, "b": 1}, {"a": 1, "b": 2}, {"a": 5, "b": 4}], [2], 2),
        # a tie for the win between everybody is left out
        _rec([{"a": 1, "b": 1}, {"a": 1, "b": 1}], [0, 1], 3),
    ]
    (row,) = decisive_rows(recs)
    assert row[:3] == ["g", 2, "+5.5"]  # (6 + 5) / 2
    assert row[3] == "a +3.8 (100%); b +1.8 (100%)"  # (5 + 2.5) / 2, (1 + 2.5) / 2
    # a row a variant lacks counts as no lead there, so the leads still add up to the total
    recs.append(_rec([{"a": 1, "c": 6}, {"a": 3, "c": 0}], [0], 4))
    (row,) = decisive_rows(recs)
    assert row[1] == 3 and row[2] == "+5.0"  # (6 + 5 + 4) / 3
    # c: 6 / 3; a: (5 + 2.5 - 2) / 3; b: (1 + 2.5 + 0) / 3
    assert row[3] == "c +2.0 (33%); a +1.8 (67%); b +1.2 (67%)"


def test_decisive_rows_add_up_to_the_total_lead_in_real_games() -> None:
    recs = run_job(JobSpec("gardens", ("greedy", "greedy", "greedy"), n=4, seed=0))
    (row,) = decisive_rows(recs, top=100)
    leads = [float(cell.rsplit(" (", 1)[0].rsplit(" ", 1)[1]) for cell in row[3].split("; ")]
    assert sum(leads) == pytest.approx(float(row[2]), abs=0.05 * len(leads) + 0.05)


def test_solo_rows_count_challenges_met() -> None:
    from meeple.sim.balance import SOLO_HEADERS, solo_rows

    recs = run_job(JobSpec("pergola", ("greedy",), n=2, seed=5, options={"challenge": 9}))
    recs += run_job(JobSpec("gardens", ("random", "random"), n=1, seed=0))
    (row,) = solo_rows(recs)
    assert len(row) == len(SOLO_HEADERS)
    assert row[:4] == ["pergola", "challenge=9", "greedy", 2]
    met = sum(r["challenge"]["met"] for r in recs if r["game"] == "pergola")
    assert row[9] == f"{met / 2:.0%}"
    assert row[4] == pytest.approx(sum(r["scores"][0]["total"] for r in recs[:2]) / 2)


def test_balance_doc_reads_plain_and_gzipped_records(tmp_path: Path) -> None:
    plain = tmp_path / "two.jsonl"
    run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0), out=plain)
    run_job(JobSpec("pergola", ("random",), n=1, seed=0, options={"challenge": 2}), out=plain)
    three = run_job(JobSpec("gardens", ("random",) * 3, n=2, seed=0))
    packed = tmp_path / "three.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in three)
    figures = tmp_path / "fig"
    out = subprocess.run([sys.executable, str(TOOL), str(plain), str(packed), "--figures", str(figures)],
                         capture_output=True, text=True, check=True).stdout
    assert "<!-- 5 records -->" in out
    assert "| pergola | challenge=2 | random | 1 |" in out  # the solo table, not the figures
    assert "| gardens | 2 | 2 | 0.50 |" in out and "| gardens | 3 | 2 | 0.33 |" in out
    assert "### Which rows decide games, pooled" in out
    assert {p.name for p in figures.iterdir()} == {"gardens-scores.png", "gardens-seats.png",
                                                   "gardens-rows.png"}
