"""Bots and simulation throughput: MCTS iterations/s per game, greedy decisions/s, and
``simulate`` games/s with 1 and 2 local workers (the scaling ratio).

    uv run python benchmarks/bench_bots_sim.py            # full run (a few minutes)
    uv run python benchmarks/bench_bots_sim.py --quick    # smaller budgets

Prints a Markdown table. Numbers depend on the machine and on its load: run it on an idle
machine and report the CPU.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from typing import Any

import meeple
from meeple.bots import make_bot
from meeple.bots.mcts import MctsBot
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.sim.runner import JobSpec, run_job


def positions(game: str, variant: dict[str, Any], players: int, count: int) -> list[State[Any]]:
    """Turn-start positions from random games (early, middle and late), deterministic."""
    out: list[State[Any]] = []
    rng = Rng(12345)
    seed = 0
    while len(out) < count:
        state = meeple.new_game(game, players=players, seed=seed, **variant)
        seed += 1
        decisions: list[State[Any]] = []
        last = (-1, -1)
        while not state.is_over:
            if state.to_move == CHANCE:
                state.sample_chance(rng)
                continue
            if (state.turn, state.to_move) != last:  # the first decision of a seat's turn
                last = (state.turn, state.to_move)
                decisions.append(state.clone())
            state.play(rng.choice(state.legal_moves()), check=False)
        for frac in (0.1, 0.4, 0.7):
            if decisions and len(out) < count:
                out.append(decisions[int(frac * (len(decisions) - 1))])
    return out


def bench_mcts(game: str, variant: dict[str, Any], players: int, iterations: int,
               count: int) -> tuple[float, float]:
    """(MCTS iterations/s, mean seconds per search of ``iterations``)."""
    total_it = 0
    spent = 0.0
    searches = 0
    for i, pos in enumerate(positions(game, variant, players, count)):
        bot = MctsBot(seed=i, iterations=iterations)
        view = pos.seen_by(pos.to_move)
        t0 = time.perf_counter()
        bot.search(view, pos.to_move)
        spent += time.perf_counter() - t0
        total_it += max(bot.last_iterations, 1)
        searches += 1
    return total_it / spent, spent / searches


def bench_greedy(game: str, variant: dict[str, Any], players: int, count: int) -> float:
    """Greedy whole-turn plans per second (one full turn choice each)."""
    spent = 0.0
    n = 0
    for i, pos in enumerate(positions(game, variant, players, count)):
        bot = make_bot("greedy", seed=i)
        t0 = time.perf_counter()
        bot.choose(pos.seen_by(pos.to_move), pos.legal_moves())
        spent += time.perf_counter() - t0
        n += 1
    return n / spent


def bench_simulate(game: str, variant: dict[str, Any], bots: tuple[str, ...], n: int, workers: int) -> float:
    job = JobSpec(game, bots, n=n, seed=1000, options=variant)
    t0 = time.perf_counter()
    run_job(job, workers=workers)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", default="", help="comma-separated game names (default: all)")
    ap.add_argument("--iterations", type=int, default=1000,
                    help="MCTS iterations per search (default: the bot's default, 1000)")
    args = ap.parse_args()
    iterations = 50 if args.quick else args.iterations
    count = 3 if args.quick else 6
    sim_n = 40 if args.quick else 200
    wanted = [g for g in args.games.split(",") if g]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}")
    print()
    print("| game | variant | seats | MCTS it/s | s per MCTS search "
          f"({iterations} it) | greedy turns/s | random games/s 1 worker | 2 workers | scaling |")
    print("|---|---|---|---|---|---|---|---|---|")
    for info in meeple.games():
        if wanted and info.name not in wanted:
            continue
        variant = dict(info.variants[0])
        seats = info.player_range(variant)
        players = 2 if 2 in seats else seats.start
        its, per = bench_mcts(info.name, variant, players, iterations, count)
        gps = bench_greedy(info.name, variant, players, count)
        bots = tuple(["random"] * players)
        one = bench_simulate(info.name, variant, bots, sim_n, 1)
        two = bench_simulate(info.name, variant, bots, sim_n, 2)
        print(f"| {info.name} | {info.describe_variant(variant)} | {players} | {its:.0f} | {per:.3f} | "
              f"{gps:.1f} | {one:.1f} | {two:.1f} | {two / one:.2f} |", flush=True)


if __name__ == "__main__":
    main()
