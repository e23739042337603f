"""``meeple train``'s pipeline: the same nets on a Dask cluster as on the local pool, a run
killed mid-generation resumes to the nets of an uninterrupted one, the learner fits a known
function, and run.json, the checkpoints and the curve are written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from meeple.bots import MctsBot
from meeple.bots.config import MctsConfig
from meeple.bots.learned import NetFile
from meeple.sim.train import TrainSettings, fit_value_net, residual_targets, search_bot, train, zero_net

distributed = pytest.importorskip("distributed")

TINY = TrainSettings(game="takenokolor", generations=2, games=2, iterations=5, eval_games=0,
                     hidden=(8,), epochs=3, seed=7)


def _nets(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files if k != "meta"}


def _same_nets(a: Path, b: Path) -> None:
    left, right = _nets(a), _nets(b)
    assert sorted(left) == sorted(right)
    for key in left:
        np.testing.assert_array_equal(left[key], right[key])


def test_a_run_on_a_dask_cluster_gives_the_nets_of_the_local_pool(tmp_path: Path) -> None:
    train(TINY, tmp_path / "pool", workers=2, command="test pool")
    with distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1,
                                  processes=True, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        train(TINY, tmp_path / "dask", cluster=cluster.scheduler_address, command="test dask")
    for gen in (1, 2):
        _same_nets(tmp_path / "pool" / f"gen-{gen:03d}.npz",
                   tmp_path / "dask" / f"gen-{gen:03d}.npz")
    run = json.loads((tmp_path / "dask" / "run.json").read_text())
    assert run["settings"] == TINY.to_json()
    assert [g["generation"] for g in run["generations"]] == [0, 1, 2]
    assert all(g["positions"] > 0 for g in run["generations"][1:])
    made_by = NetFile.load(tmp_path / "dask" / "gen-002.npz").made_by
    assert made_by["command"] == "test dask"
    assert made_by["seed"] == 7 and made_by["generation"] == 2 and made_by["games"] == 4
    assert made_by["settings"]["iterations"] == 5


def test_the_curve_and_best_net_follow_the_evaluation(tmp_path: Path) -> None:
    settings = TrainSettings(game="takenokolor", generations=1, games=2, iterations=5,
                             eval_games=3, hidden=(8,), epochs=2, against=("easy", "random"))
    run = train(settings, tmp_path)
    assert [sorted(g["eval"]) for g in run["generations"]] == [["easy", "random"]] * 2
    for g in run["generations"]:
        res = g["eval"]["easy"]
        assert res["games"] == 3 and res["low"] <= res["share"] <= res["high"]
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run["best"] == 1
    _same_nets(tmp_path / "best.npz", tmp_path / "gen-001.npz")


def test_a_run_killed_mid_generation_resumes_to_the_same_nets(tmp_path: Path) -> None:
    settings = TrainSettings(game="takenokolor", generations=2, games=4, iterations=40,
                             eval_games=0, hidden=(8,), epochs=3, seed=3)
    args = ["train", "takenokolor", "--generations", "2", "--games", "4", "--iterations", "40",
            "--eval-games", "0", "--hidden", "8", "--epochs", "3", "--seed", "3",
            "--out", str(tmp_path / "killed")]
    code = "import sys; from meeple.cli import main; sys.argv[0] = 'meeple'; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    run_file = tmp_path / "killed" / "run.json"
    try:
        for _ in range(6000):  # until generation 1 is recorded (at most ten minutes)
            if run_file.exists() and '"generation": 1' in run_file.read_text():
                break
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert not (tmp_path / "killed" / "gen-002.npz").exists(), "killed after generation 2"
    resumed = train(settings, tmp_path / "killed", resume=True)
    assert [g["generation"] for g in resumed["generations"]] == [0, 1, 2]
    train(settings, tmp_path / "whole")
    for gen in (1, 2):
        _same_nets(tmp_path / "killed" / f"gen-{gen:03d}.npz",
                   tmp_path / "whole" / f"gen-{gen:03d}.npz")


def test_the_learner_fits_a_known_function() -> None:
    rng = np.random.default_rng(5)
    x = rng.random((3000, 6)).astype(np.float32)
    y = 10 + 6 * x[:, 0] - 4 * x[:, 1] * x[:, 2] + 3 * np.maximum(x[:, 3] - 0.5, 0)
    net, stats = fit_value_net(x, y, (32, 32), seed=1, epochs=80, batch=128, lr=3e-3)
    assert stats["val_mse"] < 0.02 * stats["zero_mse"]
    again, _ = fit_value_net(x, y, (32, 32), seed=1, epochs=80, batch=128, lr=3e-3)
    np.testing.assert_array_equal(net.predict(x[:50]), again.predict(x[:50]))
    # positions of one game share its final score: a game is held out whole (10 of 100 games)
    _, by_game = fit_value_net(x, y, (8,), seed=1, epochs=2, groups=np.repeat(np.arange(100), 30))
    assert by_game["held_out"] == 300


def test_a_search_bot_without_a_net_for_its_variant_says_so() -> None:
    import meeple

    bot = search_bot("takenokolor", NetFile("takenokolor", {}), {"iterations": 50}, seed=1)
    assert "net" not in bot.last_info  # no nets at all: plain mcts, no net to speak of
    bot = MctsBot(seed=1, config=MctsConfig.parse({"iterations": "50"}),
                  nets=NetFile("takenokolor", {"9p{}": zero_net(3)}))
    state = meeple.new_game("takenokolor", players=2, seed=4)
    while state.to_move is not None and state.to_move < 0:
        state.sample_chance()
    bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert bot.last_info["net"] == "none for this variant"


def test_a_search_with_a_net_answering_zero_plays_as_plain_mcts() -> None:
    """The residual design: a zero net judges as the game's evaluation, so the search bot's
    decisions are mcts's, move for move (seeded, iteration budget)."""
    import meeple
    from meeple.bots import MctsBot
    from meeple.bots.config import MctsConfig
    from meeple.bots.encoding import encoding
    from meeple.bots.learned import variant_key
    from meeple.sim.train import search_options, zero_net

    state = meeple.new_game("takenokolor", players=2, seed=11)
    nets = NetFile("takenokolor", {variant_key(state): zero_net(encoding(state).size)})
    options = search_options("takenokolor", 2, 30)
    learned = search_bot("takenokolor", nets, options, seed=5)
    plain = MctsBot(seed=5, config=MctsConfig.parse(dict(options)))
    decisions = 0
    while state.to_move is not None and decisions < 12:
        if state.to_move < 0:
            state.sample_chance()
            continue
        view, legal = state.seen_by(state.to_move), state.legal_moves()
        move = learned.choose(view, legal)
        assert plain.choose(view, legal) == move
        state.play(move)
        decisions += 1
    assert learned.last_info["net"] == "(in memory)"


def test_a_net_fitted_on_noise_is_shrunk_toward_the_games_evaluation() -> None:
    """Targets that are pure luck (independent of the inputs) leave the net nothing to learn:
    what it fits is noise, the held-out games show it, and its answer is shrunk until it
    barely departs from the training mean; a learnable target keeps nearly all of its answer."""
    rng = np.random.default_rng(3)
    x = rng.random((3000, 20)).astype(np.float32)
    groups = np.repeat(np.arange(100), 30)
    noise = rng.normal(0.0, 5.0, 3000).astype(np.float32)
    net, stats = fit_value_net(x, noise, (32,), seed=2, epochs=40, lr=3e-3, groups=groups)
    assert stats["shrink"] < 0.3
    spread = float(np.std(net.predict(x)))
    assert spread < 0.5, spread  # the targets' spread is 5
    learnable = (10 * x[:, 0] - 4 * x[:, 1]).astype(np.float32)
    _, good = fit_value_net(x, learnable, (32,), seed=2, epochs=40, lr=3e-3, groups=groups)
    assert good["shrink"] > 0.9


def test_the_margin_target_is_the_residual_less_its_mean_over_the_positions_seats() -> None:
    """Two positions of a three-seat game and one of two seats: ``score`` is what the evaluation
    misses about each seat's own score; ``margin`` keeps only the differences between seats, so
    two seats' targets are opposite and their difference is the final margin's residual."""
    final = np.array([30, 20, 10, 30, 20, 10], np.float32)
    base = np.array([25, 25, 10, 28, 20, 6], np.float32)
    score = residual_targets(final, base, 3, "score")
    np.testing.assert_array_equal(score, [5, -5, 0, 2, 0, 4])
    margin = residual_targets(final, base, 3, "margin")
    np.testing.assert_allclose(margin, [5, -5, 0, 0, -2, 2])
    two = residual_targets(np.array([40, 31], np.float32), np.array([30, 30], np.float32), 2,
                           "margin")
    np.testing.assert_allclose(two, [4.5, -4.5])  # (40 - 31) - (30 - 30) = 9, half each
    # one seat has no margin: its target is its own residual
    np.testing.assert_allclose(residual_targets(final[:2], base[:2], 1, "margin"), [5, -5])


def test_a_run_written_before_the_target_setting_resumes_as_the_score_target() -> None:
    old = TINY.to_json()
    del old["target"]
    assert TrainSettings.from_json(old).target == "score"
    assert TrainSettings.from_json(TINY.to_json()).target == "margin"
