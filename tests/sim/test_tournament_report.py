"""``meeple tournament`` and ``meeple report``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.sim.report import build_report, group_records
from meeple.sim.runner import JobSpec, read_records, run_job
from meeple.sim.stats import quantiles, wilson
from meeple.sim.tournament import run_tournament

runner = CliRunner()


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert quantiles([1, 2, 3, 4, 5], (0.5, 0.25)) == [3, 2]


def test_tournament_rotates_seats_over_the_same_seeds() -> None:
    res = run_tournament("gardens", {"level": 1}, ["greedy", "random"], n=2, seed=10)
    rows = {r["bot"]: r for r in res["results"]}
    assert rows["greedy"]["games"] == rows["random"]["games"] == 4
    assert abs(rows["greedy"]["win_rate"] + rows["random"]["win_rate"] - 1) < 1e-9
    lo, hi = rows["greedy"]["ci95"]
    assert 0 <= lo <= rows["greedy"]["win_rate"] <= hi <= 1


def test_tournament_labels_a_bot_entered_twice() -> None:
    res = run_tournament("gardens", {"level": 1}, ["random", "random"], n=1, seed=0)
    assert [r["bot"] for r in res["results"]] == ["random#1", "random#2"]


def test_tournament_cli_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    recs = tmp_path / "t.jsonl"
    res = runner.invoke(app, ["tournament", "gardens", "--bots", "greedy,random", "-n", "1",
                              "--level", "2", "--out", str(out), "--records", str(recs)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data[0]["variant"] == {"level": 2}
    assert len(read_records(recs)) == 2
    assert "95% CI" in res.output


def test_tournament_cli_refuses_bad_bots() -> None:
    res = runner.invoke(app, ["tournament", "gardens", "--bots", "greedy,ghost", "-n", "1"])
    assert res.exit_code == 2
    assert "unknown bot" in res.output


def test_report_tables_and_plots(tmp_path: Path) -> None:
    recs = run_job(JobSpec("gardens", ("random", "random"), n=3, seed=0, options={"level": 1}))
    recs += run_job(JobSpec("gardens", ("random", "random", "random"), n=2, seed=0))
    assert len(group_records(recs)) == 2
    md = build_report(recs, tmp_path)
    assert "Total score per bot and seat" in md
    assert "Seat position: win share by seat" in md
    assert "Mean points per score-pad row" in md
    assert (tmp_path / "report.md").exists()
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(pngs) == 6
    assert all(p.startswith("gardens-level1-") for p in pngs)


def test_report_cli(tmp_path: Path) -> None:
    data = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["simulate", "gardens", "-n", "2", "--out", str(data)]).exit_code == 0
    res = runner.invoke(app, ["report", str(data), "--out", str(tmp_path / "rep"), "--no-plots"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "report.md").exists()
    missing = runner.invoke(app, ["report", str(tmp_path / "nothing.jsonl")])
    assert missing.exit_code == 2
    assert "no such file" in missing.output


def test_report_keeps_different_sheets_apart() -> None:
    recs = run_job(JobSpec("gardens", ("random", "random"), n=1, seed=0, options={"level": 1}))
    other = json.loads(json.dumps(recs[0]))
    other["sheet"]["name"] = "my own garden"
    groups = group_records([recs[0], other])
    assert len(groups) == 2
    assert any("my own garden" in g[1] for g in groups)


def test_balance_rows_and_figures(tmp_path: Path) -> None:
    from meeple.sim.balance import BALANCE_HEADERS, balance_figures, balance_rows

    recs = run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0))
    recs += run_job(JobSpec("gardens", ("random",) * 3, n=2, seed=0))
    rows = balance_rows(recs)
    assert len(rows) == 2 and all(len(r) == len(BALANCE_HEADERS) for r in rows)
    assert rows[1][2] == 3 and rows[1][10].count("/") == 2
    files = balance_figures(recs, tmp_path)
    assert {f.name for f in files} == {"gardens-scores.png", "gardens-seats.png", "gardens-rows.png"}


def test_tournament_all_variants_skips_variants_for_other_seat_counts(tmp_path: Path) -> None:
    """Pergola's standard game takes 1-4 players, so five bots skip it; its solo challenges
    take any number of bots (each plays alone), so two bots play them all."""
    res = runner.invoke(app, ["tournament", "pergola", "--all-variants", "-n", "1",
                              "--bots", "random,random,random,random,random"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "skipped (not for 5 seats): standard" in text
    assert "challenge=1)" in text and "challenge=10)" in text
    res = runner.invoke(app, ["tournament", "pergola", "--all-variants", "-n", "1",
                              "--bots", "random,greedy", "--out", str(tmp_path / "all.json")])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "skipped" not in text and "challenge=10), solo" in text and "2 seats" in text
    data = json.loads((tmp_path / "all.json").read_text())
    assert len(data) == 11 and sum(1 for r in data if r.get("solo")) == 10


def test_solo_tournament_compares_bots_on_the_same_seeds(tmp_path: Path) -> None:
    """A solo variant (Pergola's challenges) has no seats to rotate: each bot plays the same
    seeds alone, and the shares are recounted here from the records of each bot's own games."""
    recs = tmp_path / "solo.jsonl"
    specs = ["greedy", "random", "mcts:iterations=2"]
    res = run_tournament("pergola", {"challenge": 8}, specs, n=3, seed=200, records=recs)
    assert res["solo"] is True and res["players"] == 1 and res["entrants"] == 3
    games = read_records(recs)
    assert len(games) == 9 and all(len(r["bots"]) == 1 for r in games)
    total = {(r["bots"][0], r["seed"]): r["scores"][0]["total"] for r in games}
    seeds = (200, 201, 202)
    rows = {r["bot"]: r for r in res["results"]}
    def best_share(spec: str, seed: int) -> float:  # the best score on the seed, ties share
        top = max(total[(o, seed)] for o in specs)
        tops = [o for o in specs if total[(o, seed)] == top]
        return 1 / len(tops) if spec in tops else 0.0

    for spec in specs:
        mine = [total[(spec, s)] for s in seeds]
        assert rows[spec]["games"] == 3
        assert rows[spec]["wins"] == pytest.approx(sum(best_share(spec, s) for s in seeds))
        assert rows[spec]["mean_score"] == pytest.approx(sum(mine) / 3)
        met = [r["challenge"]["met"] for r in games if r["bots"][0] == spec]
        assert rows[spec]["challenge_met"] == pytest.approx(sum(met) / 3)
    assert sum(r["wins"] for r in res["results"]) == pytest.approx(3)
    h2h = {(r["bot"], r["opponent"]): r for r in res["head_to_head"]}
    assert len(h2h) == 6
    for a in specs:
        for b in specs:
            if a == b:
                continue
            want = sum(1.0 if total[(a, s)] > total[(b, s)] else 0.5 if total[(a, s)] == total[(b, s)]
                       else 0.0 for s in seeds) / 3
            assert h2h[(a, b)]["share"] == pytest.approx(want)
            assert h2h[(a, b)]["share"] + h2h[(b, a)]["share"] == pytest.approx(1)
    # the CLI prints both tables, the solo head to head included at two bots
    res_cli = runner.invoke(app, ["tournament", "pergola", "--challenge", "8", "-n", "2",
                                  "--bots", "greedy,random"])
    assert res_cli.exit_code == 0, res_cli.output
    text = " ".join(res_cli.output.split())
    assert "solo: 2 bots each play the same 2 seeds" in text
    assert "a higher score than the other bot on the same seed" in text


def test_solo_tournament_refuses_a_bad_bot_before_playing(tmp_path: Path) -> None:
    recs = tmp_path / "solo.jsonl"
    res = runner.invoke(app, ["tournament", "pergola", "--challenge", "3", "-n", "1",
                              "--bots", "greedy,ghost", "--records", str(recs)])
    assert res.exit_code == 2
    assert "unknown bot" in res.output
    assert not recs.exists() or read_records(recs) == []  # greedy did not play first


def test_solo_best_shares_split_ties() -> None:
    from meeple.sim.tournament import higher_score_share, solo_best_shares

    assert solo_best_shares([100, 98, 100]) == [0.5, 0.0, 0.5]
    assert solo_best_shares([90]) == [1.0]
    assert (higher_score_share(3, 2), higher_score_share(2, 3), higher_score_share(2, 2)) == (1.0, 0.0, 0.5)


def test_seat_rows_pool_variants() -> None:
    from meeple.sim.balance import seat_rows

    recs = run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0, options={"level": 1}))
    recs += run_job(JobSpec("gardens", ("random", "random"), n=2, seed=0, options={"level": 2}))
    rows = seat_rows(recs)
    assert rows == [[*rows[0][:2], 4, "0.50", rows[0][4]]]


def test_ahead_share_compares_totals_then_the_winners() -> None:
    from meeple.sim.tournament import ahead_share, head_to_head

    rec = {"scores": [{"total": 10}, {"total": 7}, {"total": 10}, {"total": 7}], "winners": [2]}
    assert ahead_share(rec, 0, 1) == 1.0 and ahead_share(rec, 1, 0) == 0.0
    assert ahead_share(rec, 2, 0) == 1.0 and ahead_share(rec, 0, 2) == 0.0  # tie broken (A4)
    assert ahead_share(rec, 1, 3) == 0.5  # a tie nobody broke
    pairs = head_to_head(rec, {"a": [0, 1], "b": [2, 3]})
    # a's seats 0 and 1 against b's 2 and 3: 0-vs-2 lost, 0-vs-3 won, 1-vs-2 lost, 1-vs-3 tied
    assert pairs[("a", "b")] == pytest.approx((0 + 1 + 0 + 0.5) / 4)
    assert pairs[("b", "a")] == pytest.approx(1 - pairs[("a", "b")])


def test_three_seat_tournament_reports_head_to_head_and_decision_times() -> None:
    res = run_tournament("gardens", {"level": 1}, ["greedy", "random", "random"], n=1, seed=3)
    h2h = {(r["bot"], r["opponent"]): r for r in res["head_to_head"]}
    assert set(h2h) == {("greedy", "random"), ("random", "greedy")}
    assert h2h[("greedy", "random")]["games"] == 3  # one seed, three rotations
    assert h2h[("greedy", "random")]["share"] + h2h[("random", "greedy")]["share"] == pytest.approx(1)
    rows = {r["bot"]: r for r in res["results"]}
    assert rows["greedy"]["longest_decision_max"] > 0
    # a game's thinking time holds its longest decision: the longest game's at least the max
    # (the mean over games need not, when one game has a slow decision and the others do not)
    games = rows["greedy"]["games"]
    assert rows["greedy"]["seconds_per_game"] * games >= rows["greedy"]["longest_decision_max"]
    assert rows["greedy"]["longest_decision_median"] <= rows["greedy"]["longest_decision_max"]
    res_cli = runner.invoke(app, ["tournament", "gardens", "--bots", "greedy,random,random", "-n", "1"])
    assert res_cli.exit_code == 0, res_cli.output
    assert "head to head" in res_cli.output
