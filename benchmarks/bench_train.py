"""``meeple train``'s costs on one core: self-play positions per second (the search bot
without a net, as generation 1 plays, and with a fitted net, as later generations play) and
the time to fit a net on those positions.

    uv run python benchmarks/bench_train.py [--game takenokolor] [--games 6] [--iterations 200]
        [--hidden 64,64] [--epochs 60]

A position is one seat beginning a turn (every seat's features are recorded there). Times are
this process's CPU seconds (one worker; ``--workers N`` scales the self-play by about N).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from meeple.bots.learned import NetFile
from meeple.sim.train import TrainSettings, fit_value_net, search_options, selfplay_game


def selfplay(game: str, games: int, search: dict[str, object],
             nets: NetFile | None) -> tuple[np.ndarray, np.ndarray, str, float, int]:
    blob = nets.to_bytes() if nets is not None else None
    xs, ys = [], []
    key = ""
    t0 = time.process_time()
    for seed in range(games):
        res = selfplay_game((game, {}, 2, seed, search, blob))
        xs.append(res["x"])
        ys.append(res["final"] - res["base"])
        key = res["key"]
    spent = time.process_time() - t0
    x, y = np.concatenate(xs), np.concatenate(ys)
    return x, y, key, spent, len(y) // 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="takenokolor")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--hidden", default="64,64")
    ap.add_argument("--epochs", type=int, default=60)
    args = ap.parse_args()
    hidden = tuple(int(h) for h in args.hidden.split(","))
    search = search_options(args.game, 2, args.iterations)
    x, y, key, spent, positions = selfplay(args.game, args.games, search, None)
    print(f"{args.game} 2 seats, iterations={args.iterations}: no net: {positions} positions "
          f"in {spent:.1f} CPU s = {positions / spent:.2f} positions/s "
          f"({args.games / spent * 60:.1f} games/min)")
    settings = TrainSettings(game=args.game, hidden=hidden, epochs=args.epochs)
    t0 = time.process_time()
    net, stats = fit_value_net(x, y, settings.hidden, seed=0, epochs=settings.epochs)
    fit = time.process_time() - t0
    print(f"fit {hidden} on {len(y)} rows ({x.shape[1]} inputs): {fit:.2f} CPU s, "
          f"{stats['epochs']} epochs, held-out mse {stats['val_mse']:.1f} "
          f"(zero net {stats['zero_mse']:.1f})")
    nets = NetFile(args.game, {key: net})
    _, _, _, spent2, positions2 = selfplay(args.game, args.games, search, nets)
    print(f"with the net: {positions2} positions in {spent2:.1f} CPU s = "
          f"{positions2 / spent2:.2f} positions/s (x{(positions / spent) / (positions2 / spent2):.2f}"
          " the time a position)")


if __name__ == "__main__":
    main()
