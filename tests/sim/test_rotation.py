"""simulate moves the bots round the table, and report's seat table says what it measures."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli import app
from meeple.sim.report import build_report, seat_advantage, seat_table_title, seats_balanced
from meeple.sim.runner import JobSpec, read_records, rotated, run_job, strip_timings

runner = CliRunner()


def test_rotation_rule() -> None:
    assert rotated(("a", "b", "c"), 0) == (("a", "b", "c"), 0)
    assert rotated(("a", "b", "c"), 1) == (("b", "c", "a"), 1)
    assert rotated(("a", "b", "c"), 5) == (("c", "a", "b"), 2)


def test_a_rotating_job_seats_every_bot_in_every_seat() -> None:
    job = JobSpec("gardens", ("greedy", "random", "random"), n=6, seed=10, rotate=True)
    recs = run_job(job)
    seats = Counter((s, spec) for r in recs for s, spec in enumerate(r["bots"]))
    assert seats == {(s, spec): n for s in range(3) for spec, n in (("greedy", 2), ("random", 4))}
    for r in recs:
        assert r["lineup"] == ["greedy", "random", "random"]
        assert r["rotation"] == r["seed"] % 3
        assert r["bots"] == list(rotated(job.bots, r["seed"])[0])


def test_identical_bots_are_not_rotated_and_the_records_stay_as_before() -> None:
    plain = run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0))
    rot = run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0, rotate=True))
    assert [strip_timings(r) for r in plain] == [strip_timings(r) for r in rot]
    assert all("rotation" not in r for r in rot)


def test_simulate_rotates_seats(tmp_path: Path) -> None:
    """Without rotation greedy would sit in seat 0 in both games."""
    out = tmp_path / "r.jsonl"
    res = runner.invoke(app, ["simulate", "gardens", "-n", "2", "--bots", "greedy,random",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert [r["bots"] for r in read_records(out)] == [["greedy", "random"], ["random", "greedy"]]
    assert "seats rotate" in res.output


def test_simulate_resumes_a_rotated_file_and_does_not_mix_in_unrotated_games(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_job(JobSpec("gardens", ("greedy", "random"), n=2, seed=0), out=out)  # old, unrotated
    args = ["simulate", "gardens", "--bots", "greedy,random", "--out", str(out)]
    res = runner.invoke(app, [*args, "-n", "2"])
    assert res.exit_code == 0, res.output
    assert "2 other record(s)" in " ".join(res.output.split())
    assert len(read_records(out)) == 4  # the unrotated games were not taken for rotated ones
    res = runner.invoke(app, [*args, "-n", "4"])
    assert res.exit_code == 0, res.output
    assert "2 of 4 games already there" in " ".join(res.output.split())
    recs = read_records(out)
    assert len(recs) == 6
    assert [r["rotation"] for r in recs if "rotation" in r] == [0, 1, 0, 1]


def test_report_seat_table_is_honest_about_unrotated_records(tmp_path: Path) -> None:
    fixed = run_job(JobSpec("gardens", ("greedy", "random"), n=4, seed=0))
    turning = run_job(JobSpec("gardens", ("greedy", "random"), n=4, seed=0, rotate=True))
    assert not seats_balanced(fixed, 2) and seats_balanced(turning, 2)
    assert "NOT a first-player advantage" in seat_table_title(fixed, 2)
    assert "equally often: the seat's own advantage" in seat_table_title(turning, 2)
    rows = seat_advantage(fixed, 2)
    # each bot's share at each seat, with its games there: greedy only ever sat at seat 0
    assert rows[0][6].endswith("(4)") and rows[0][7] == "-"
    assert rows[1][6] == "-" and rows[1][7].endswith("(4)")
    rows = seat_advantage(turning, 2)
    assert all(cell.endswith("(2)") for row in rows for cell in row[6:])
    md = build_report(fixed + turning, None)
    assert "greedy: win share (games)" in md


def test_report_cli_prints_the_seat_table_for_a_simulate_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_job(JobSpec("gardens", ("greedy", "random"), n=2, seed=0, rotate=True), out=out)
    res = runner.invoke(app, ["report", str(out), "--no-plots"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "every bot sat at every seat about equally often" in text
    assert "first-player advantage" not in text.replace("NOT a first-player advantage", "")
    lines = out.read_text().splitlines()
    assert all(json.loads(line)["lineup"] == ["greedy", "random"] for line in lines)
