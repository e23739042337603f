"""``meeple analyse`` and :mod:`meeple.sim.analyse`: each decision against the bot's best."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import meeple
from meeple.bots.evaluation import evaluate
from meeple.cli import app
from meeple.core.errors import BadRecord, MeepleError
from meeple.core.state import CHANCE
from meeple.sim.analyse import analyse, plot_losses
from meeple.sim.runner import play_game

runner = CliRunner()
TOL = 1e-9


@cache
def game(name: str, bots: tuple[str, ...], seed: int) -> dict[str, Any]:
    return play_game(name, {}, list(bots), seed)


def seat_moves(rec: dict[str, Any]) -> list[tuple[int, int, bool]]:
    """(1-based move number, seat, whether the seat had a choice) of every seat's move."""
    state = meeple.replay(rec, upto=0)
    out = []
    for i, text in enumerate(rec["moves"]):
        if state.to_move != CHANCE:
            assert state.to_move is not None
            out.append((i + 1, state.to_move, len(state.legal_moves()) > 1))
        state.play(text)
    return out


@pytest.mark.parametrize("name", ["gardens", "reefs", "takenokolor", "pergola"])
def test_greedy_judging_its_own_game_finds_no_loss_and_a_row_per_decision(name: str) -> None:
    rec = game(name, ("greedy", "greedy"), 2)
    a = analyse(rec, "greedy")
    assert a.game == name and a.finished and a.bot == "greedy"
    assert a.scores == tuple(s["total"] for s in rec["scores"])
    # every move a seat chose (it had a choice) is in exactly one row, and rows are the
    # record's own moves, in order
    covered: dict[int, int] = {}
    numbers = [d.number for d in a.decisions]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for d in a.decisions:
        assert rec["moves"][d.number - 1:d.number - 1 + len(d.played)] == list(d.played)
        for k in range(d.number, d.number + len(d.played)):
            assert k not in covered
            covered[k] = d.seat
    chosen = [(n, s) for n, s, choice in seat_moves(rec) if choice]
    assert chosen and all(covered.get(n) == s for n, s in chosen)
    for d in a.decisions:
        assert abs(d.loss) <= TOL, d
        assert d.loss == pytest.approx(d.best_value - d.played_value)
    for s in a.summaries:
        mine = a.of_seat(s.seat)
        assert s.decisions == len(mine) and [d.index for d in mine] == list(range(1, len(mine) + 1))
        assert abs(s.total_loss) <= TOL * max(1, len(mine))
        assert s.blunders == ()


def test_a_random_seat_loses_points_a_greedy_seat_does_not() -> None:
    rec = game("reefs", ("greedy", "random"), 3)
    a = analyse(rec)
    greedy, rand = a.summaries
    assert abs(greedy.total_loss) <= TOL * greedy.decisions
    assert all(d.loss >= -TOL for d in a.of_seat(1))  # Reefs ranks every turn: never negative
    assert rand.total_loss > 1.0 and rand.mean_loss == pytest.approx(rand.total_loss / rand.decisions)
    losses = {d.number: d.loss for d in a.decisions}
    worst = [losses[n] for n in rand.blunders]
    assert worst == sorted(worst, reverse=True) and worst[0] == max(d.loss for d in a.of_seat(1))
    # the played value is the evaluation after the played turn from the seat's view
    d = max(a.of_seat(1), key=lambda d: d.loss)
    before = meeple.replay(rec, upto=d.number - 1)
    after = meeple.replay(rec, upto=d.number - 1 + len(d.played))
    assert d.played_value == pytest.approx(evaluate(after.seen_by(1), 1))
    assert before.to_move == 1 and not d.matched


def test_one_seat_an_unfinished_record_and_bad_input() -> None:
    rec = game("takenokolor", ("greedy", "random"), 4)
    only = analyse(rec, seat=1)
    assert only.decisions and {d.seat for d in only.decisions} == {1}
    assert [s.seat for s in only.summaries] == [1]
    full = analyse(rec)
    assert [d for d in full.decisions if d.seat == 1] == list(only.decisions)
    # cut in the middle of a seat's turn: that turn is left out, the ones before stay
    mid = next(d for d in full.decisions if len(d.played) > 1)
    cut = {**rec, "moves": rec["moves"][:mid.number]}
    cut.pop("scores")
    part = analyse(cut)
    assert not part.finished
    assert list(part.decisions) == [d for d in full.decisions if d.number < mid.number]
    with pytest.raises(MeepleError, match="seat 2 does not exist"):
        analyse(rec, seat=2)
    with pytest.raises(MeepleError, match="unknown bot or level"):
        analyse(rec, "grandmaster")
    broken = {**rec, "moves": [*rec["moves"][:3], "no such move"]}
    with pytest.raises(BadRecord, match="move 4"):
        analyse(broken)


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    a = analyse(game("gardens", ("greedy", "random"), 5))
    path = plot_losses(a, tmp_path / "loss.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_the_command_prints_tables_writes_the_plot_and_json(tmp_path: Path) -> None:
    rec = game("gardens", ("greedy", "random"), 5)
    file = tmp_path / "game.json"
    file.write_text(json.dumps(rec))
    png = tmp_path / "loss.png"
    result = runner.invoke(app, ["analyse", str(file), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "per seat" in result.output and "mean loss per turn" in result.output
    assert "seat 1 (random)" in result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    as_json = runner.invoke(app, ["analyse", str(file), "--json", "--seat", "1"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    expected = analyse(rec, seat=1)
    assert len(data["decisions"]) == len(expected.decisions)
    assert data["summaries"][0]["total_loss"] == pytest.approx(expected.summaries[0].total_loss)
    # a JSON-lines file: --index picks the game
    lines = tmp_path / "games.jsonl"
    lines.write_text(json.dumps(game("reefs", ("greedy", "random"), 3)) + "\n"
                     + json.dumps(rec) + "\n")
    second = runner.invoke(app, ["analyse", str(lines), "--index", "1", "--json"])
    assert second.exit_code == 0 and json.loads(second.output)["game"] == "gardens"


@pytest.mark.parametrize(("args", "says"), [
    (["missing.json"], "no such file"),
    (["notjson.json"], "is not a JSON game record"),
    (["game.json", "--plot", "out.jpg"], "the chart is a PNG file"),
    (["game.json", "--plot", "nofolder/out.png"], "does not exist"),
    (["game.json", "--bot", "grandmaster"], "unknown bot or level"),
    (["game.json", "--index", "3"], "there is no record 3"),
])
def test_bad_input_exits_2_with_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              args: list[str], says: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_text(json.dumps(game("gardens", ("greedy", "random"), 5)))
    (tmp_path / "notjson.json").write_text("hello\n")
    result = runner.invoke(app, ["analyse", *args])
    assert result.exit_code == 2
    assert says in result.output
    assert not (tmp_path / "out.jpg").exists()


def test_a_play_record_names_its_people_and_bots_and_an_empty_one_says_so(tmp_path: Path) -> None:
    rec = dict(game("takenokolor", ("greedy", "random"), 6))
    rec.pop("bots")  # a play record names its controllers instead
    rec["seats"], rec["controllers"] = ["Ann", "greedy (1)"], ["me", "greedy"]
    a = analyse(rec)
    assert (a.label(0), a.label(1)) == ("Ann", "greedy (1)")
    start = meeple.new_game("takenokolor", players=2, seed=6)
    while start.to_move == CHANCE:
        start.sample_chance()
    file = tmp_path / "start.json"
    file.write_text(json.dumps(start.record()))
    result = runner.invoke(app, ["analyse", str(file)])
    assert result.exit_code == 0, result.output
    assert "no decision to analyse" in result.output and "unfinished" in result.output
