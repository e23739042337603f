"""``meeple simulate`` and the job runner: records, resuming, workers, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.sim.runner import JobSpec, bot_seed, play_game, read_records, run_job, strip_timings

runner = CliRunner()


def test_play_game_record_has_bots_seed_timings_and_replays() -> None:
    rec = play_game("gardens", {"level": 1}, ["random", "random"], seed=11)
    assert rec["bots"] == ["random", "random"]
    assert rec["seed"] == 11
    assert len(rec["timings"]) == 2
    assert all(t["decisions"] > 0 for t in rec["timings"])
    assert "scores" in rec and "winners" in rec
    state = meeple.replay(rec)
    assert state.is_over
    assert [s.total for s in state.scores()] == [s["total"] for s in rec["scores"]]


def test_play_game_is_deterministic() -> None:
    a = play_game("gardens", {"level": 2}, ["random", "random", "random"], seed=4)
    b = play_game("gardens", {"level": 2}, ["random", "random", "random"], seed=4)
    assert strip_timings(a) == strip_timings(b)


def test_bot_seeds_differ_by_seat_and_game() -> None:
    assert len({bot_seed(g, s) for g in range(5) for s in range(4)}) == 20


def test_simulate_writes_jsonl_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = runner.invoke(app, ["simulate", "gardens", "-n", "3", "--bots", "random,random",
                              "--seed", "7", "--out", str(out), "--level", "1"])
    assert res.exit_code == 0, res.output
    recs = read_records(out)
    assert [r["seed"] for r in recs] == [7, 8, 9]
    assert "mean score" in res.output


def test_simulate_resumes_skipping_seeds_already_written(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["simulate", "gardens", "--bots", "random,random", "--seed", "0", "--out", str(out)]
    assert runner.invoke(app, [*args, "-n", "2"]).exit_code == 0
    first = out.read_text().splitlines()
    res = runner.invoke(app, [*args, "-n", "4"])
    assert res.exit_code == 0, res.output
    lines = out.read_text().splitlines()
    assert lines[:2] == first
    assert [json.loads(x)["seed"] for x in lines] == [0, 1, 2, 3]
    assert "2 of 4 games already there" in " ".join(res.output.split())


def test_workers_give_the_same_records_as_one_process(tmp_path: Path) -> None:
    job = JobSpec("gardens", ("random", "random"), n=4, seed=3, options={"level": 1})
    one = run_job(job, workers=1)
    two = run_job(job, workers=2)
    assert [strip_timings(r) for r in one] == [strip_timings(r) for r in two]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "nosuchgame"], "unknown game"),
        (["simulate", "gardens", "--bots", "random,wizard"], "unknown bot"),
        (["simulate", "gardens", "-n", "0"], "at least 1"),
        (["simulate", "gardens", "--bots", "random,random,random,random,random"], "takes 1 to 4"),
        (["simulate", "gardens", "--option", "colour=3"], "no option 'colour'"),
        (["simulate", "gardens", "--level", "9"], "level"),
        (["simulate", "gardens", "--bots", "random:iterations"], "key=value"),
        (["simulate", "gardens", "--workers", "0"], "--workers"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in " ".join(res.output.split())


def test_resume_does_not_mix_variants(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0, options={"level": 1}), out=out)
    recs = run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0, options={"level": 3}), out=out)
    assert [r["variant"]["level"] for r in recs] == [3, 3]
    assert len(read_records(out)) == 4


def test_a_game_that_does_not_end_is_stopped_with_a_clear_error() -> None:
    from meeple.core.errors import MeepleError

    with pytest.raises(MeepleError, match="did not end within 30 moves"):
        play_game("gardens", {"level": 1}, ["random", "random"], seed=1, max_moves=30)
