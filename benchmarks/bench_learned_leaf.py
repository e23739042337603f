"""MCTS iterations per CPU second with and without a learned leaf judgement (``mcts:net=...``).

At positions of seeded random two-seat games of each game, a fresh ``mcts`` searches a fixed
number of iterations with that game's hard settings, once judging leaves by the game's
evaluation alone and once by the evaluation plus a value net (``meeple.bots.learned``) of the
given hidden widths with random weights (the cost of a net does not depend on its weights).
Prints CPU seconds and iterations per CPU second, and their ratio.

    uv run python benchmarks/bench_learned_leaf.py [--iterations 300] [--positions 6]
        [--hidden 64,64]
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

import meeple
from meeple.bots import make_bot
from meeple.bots.encoding import encoding
from meeple.bots.learned import NetFile, ValueNet, register_nets, variant_key
from meeple.core.state import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bots.test_learned_leaf import random_position

GAMES = ("gardens", "reefs", "takenokolor", "pergola")


def positions(game: str, n: int) -> list[State[Any]]:
    out = []
    for seed in range(n):
        state = random_position(meeple.new_game(game, players=2, seed=seed), seed, 3 * seed)
        if not state.is_over:
            out.append(state)
    return out


def random_net(size: int, hidden: list[int]) -> ValueNet:
    rng = np.random.default_rng(0)
    widths = [size, *hidden, 1]
    return ValueNet([(rng.normal(0, 0.1, (a, b)), np.zeros(b)) for a, b in pairwise(widths)])


def searched(spec: str, states: list[State[Any]]) -> tuple[float, int]:
    cpu, done = 0.0, 0
    for state in states:
        bot = make_bot(spec, seed=1)
        view = state.seen_by(state.to_move)
        start = time.thread_time()
        bot.choose(view, view.legal_moves())
        cpu += time.thread_time() - start
        done += bot.last_info["iterations"]  # type: ignore[attr-defined]
    return cpu, done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--hidden", default="64,64", help="the net's hidden widths")
    args = ap.parse_args()
    hidden = [int(h) for h in args.hidden.split(",") if h]
    print(f"| game | without a net: it/CPU s | with a net {hidden}: it/CPU s | ratio |")
    print("|---|---|---|---|")
    for game in GAMES:
        states = positions(game, args.positions)
        register_nets(game, "bench", NetFile(game, {variant_key(s): random_net(
            encoding(s).size, hidden) for s in states}))
        spec = f"mcts:iterations={args.iterations};cpu=0;seconds=0"
        cpu0, n0 = searched(spec, states)
        cpu1, n1 = searched(spec + ";net=bench", states)
        a, b = n0 / cpu0, n1 / cpu1
        print(f"| {game} | {a:.0f} | {b:.0f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
