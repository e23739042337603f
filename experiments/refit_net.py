"""Refit a ``meeple train`` run's value nets on its stored self-play positions with another
target or net size, and measure the search with them against the run's ``--against`` bots on
the run's evaluation seeds: what a target does, without playing the self-play again.

    uv run python experiments/refit_net.py RUN_DIR --generations 1,2 --target margin \\
        --eval-games 80 --hidden 32 [--decay 1e-4] [--workers 2]

The stored targets are the ``score`` residuals of runs written before ``--target`` existed
(``final - evaluation``); ``margin`` is made from them (:func:`residual_targets`). A run
written with ``--target margin`` stores margins already: refit it with ``--target score`` only
by playing it again."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from meeple.bots.learned import NetFile
from meeple.sim.train import (
    TARGETS,
    TrainSettings,
    fit_value_net,
    gen_path,
    load_data,
    residual_targets,
    run_evaluation,
    validate,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--generations", default="1", help="the data-NNN.npz to fit on, e.g. 1,2")
    ap.add_argument("--target", choices=TARGETS, default="margin")
    ap.add_argument("--eval-games", type=int, default=80)
    ap.add_argument("--hidden", default="32")
    ap.add_argument("--decay", type=float, default=1e-4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5, help="the fit's seed")
    args = ap.parse_args()
    stored = json.loads((args.run / "run.json").read_text())["settings"]
    if stored.get("target", "score") != "score":
        ap.error(f"{args.run} stores {stored['target']} targets; refit needs score residuals")
    stored.update(target=args.target, eval_games=args.eval_games, decay=args.decay,
                  hidden=[int(h) for h in args.hidden.split(",")])
    settings = TrainSettings.from_json(stored)
    search = validate(settings)
    data = [load_data(gen_path(args.run, int(g), "data")) for g in args.generations.split(",")]
    nets, fits = {}, {}
    for key in sorted({k for d in data for k in d}):
        x = np.concatenate([d[key][0] for d in data if key in d])
        residual = np.concatenate([d[key][1] for d in data if key in d])
        y = residual_targets(residual, np.zeros_like(residual), settings.players, args.target)
        groups = np.concatenate([d[key][2] for d in data if key in d])
        nets[key], fit = fit_value_net(x, y, settings.hidden, seed=args.seed,
                                       epochs=settings.epochs, batch=settings.batch,
                                       lr=settings.lr, decay=settings.decay, groups=groups)
        fits[key] = {k: fit[k] for k in ("val_mse", "zero_mse", "mean_mse", "shrink")}
        print(f"{key}: {len(y)} rows, {fits[key]}", flush=True)
    blob = NetFile(settings.game, nets, made_by={"command": "experiments/refit_net.py"}).to_bytes()
    t0 = time.monotonic()
    for opponent, r in run_evaluation(settings, search, blob, args.workers, None).items():
        print(f"against {opponent}: {r['share']:.3f} ({r['low']:.2f}-{r['high']:.2f}) of "
              f"{r['games']} games", flush=True)
    print(f"{time.monotonic() - t0:.0f} s of evaluation", flush=True)


if __name__ == "__main__":
    main()
