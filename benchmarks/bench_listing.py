"""Whole-turn listing speed: the time to list every whole turn (``expand_turns``) and to rank
them by the evaluation (``all_turns_ranked``, what ``greedy`` does where a game has no turn
ranker) at the turn starts of random games.

    uv run python benchmarks/bench_listing.py                   # Pergola, 2 and 4 seats
    uv run python benchmarks/bench_listing.py --game reefs --players 3

Each position is timed three times and the fastest kept, so load on a shared machine matters
less. To compare two versions of the code, run it on both in one session, back to back
(benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import meeple
from meeple.bots.evaluation import all_turns_ranked
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.turns import expand_turns


def turn_starts(game: str, players: int, seed: int) -> list[State[Any]]:
    """Every turn start of one game whose seats play uniformly random whole turns."""
    rng = Rng(seed)
    state = meeple.new_game(game, players=players, seed=seed)
    out: list[State[Any]] = []
    while not state.is_over:
        if state.to_move == CHANCE:
            state.sample_chance(rng)
            continue
        turns = expand_turns(state)
        out.append(state.clone())
        moves, _after = rng.choice(turns)
        for move in moves:
            state.play(move)
    return out


def fastest(fn: Any, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="pergola")
    ap.add_argument("--players", default="2,4", help="comma-separated seat counts")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    print(f"{platform.machine()}, Python {platform.python_version()}")
    print("| game | seats | turn starts | whole turns | listing (s) | ranking (s) |")
    print("|---|---|---:|---:|---:|---:|")
    for players in (int(p) for p in args.players.split(",")):
        positions = turn_starts(args.game, players, args.seed)
        count = sum(len(expand_turns(p)) for p in positions)
        listing = sum(fastest(lambda p=p: expand_turns(p)) for p in positions)
        ranking = sum(fastest(lambda p=p: all_turns_ranked(p, p.to_move)) for p in positions)
        print(f"| {args.game} | {players} | {len(positions)} | {count} | {listing:.2f} | {ranking:.2f} |")


if __name__ == "__main__":
    main()
