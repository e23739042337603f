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


ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "docs" / "research" / "records" / "strength"


def _doc_rows() -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """(game, variant, seats) -> (games, share, interval) of the docs/strength.md rows whose
    records are kept: the three- and four-seat rows marked "yes" and the solo challenges."""
    rows: dict[tuple[str, str, str], tuple[str, str, str]] = {}
    section = ""
    for line in (ROOT / "docs" / "strength.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            section = line
        if not line.startswith("| ") or line.startswith(("| game", "| challenge", "| setting")):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if "three and four seats" in section and cells[-1] == "yes":
            game, variant = cells[0].lower(), cells[1]
            variant = variant.replace("level ", "level=") if game != "takenokolor" else f"sheet={variant}"
            rows[(game, variant, cells[2])] = (cells[3], cells[4].replace(" %", "%"),
                                               cells[5].replace(" %", "%"))
        elif "solo challenges" in section and cells[0].isdigit():
            rows[("pergola", f"challenge={cells[0]}", "1")] = ("80", cells[1].replace(" %", "%"),
                                                              cells[2].replace(" %", "%"))
    return rows


def test_the_kept_records_give_the_documented_shares() -> None:
    """Every docs/strength.md row whose records are kept (compressed) is what the tool prints
    from them: the same games, share and 95 % interval."""
    files = sorted(RECORDS.glob("*.jsonl.gz"))
    assert files, RECORDS
    printed = {(r[0], r[1], r[2]): (r[4], r[5], r[6].replace("%-", "-")) for r in _table(*files, bot="mcts")}
    documented = _doc_rows()
    assert len(documented) == 23  # 13 three- and four-seat rows and 10 challenges
    for key, row in documented.items():
        assert printed[key] == row, key
