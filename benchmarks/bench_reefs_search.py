"""Reefs search time: 300-iteration ``mcts`` searches (the default, and ``others=greedy``)
at twelve positions of greedy self-play games at four seats, level 2 (every ninth decision of
seeds 0-2). No time cap, so the work is the same on every version of the code: compare two
versions by running this on both, back to back (benchmarks/README.md).

    uv run python benchmarks/bench_reefs_search.py
"""

from __future__ import annotations

import time
from typing import Any

from meeple.bots.mcts import MctsBot
from meeple.core.state import State
from meeple.sim.positions import greedy_selfplay_positions


def positions(players: int, level: int) -> list[State[Any]]:
    """Every ninth decision of greedy self-play games, four from each of seeds 0-2."""
    return greedy_selfplay_positions("reefs", players, seeds=3, every=9, per_seed=4, level=level)


def main() -> None:
    print("| search | positions | seconds |")
    print("|---|---:|---:|")
    for name, options in (("default", {}), ("others=greedy", {"others": "greedy"})):
        found = positions(4, 2)
        total = 0.0
        for p in found:
            seat = p.to_move
            assert seat is not None
            bot = MctsBot(seed=1, iterations=300, **options)
            start = time.perf_counter()
            bot.choose(p.view(seat), p.legal_moves())
            total += time.perf_counter() - start
        print(f"| {name} | {len(found)} | {total:.2f} |")


if __name__ == "__main__":
    main()
