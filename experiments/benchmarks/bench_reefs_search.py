"""Reefs search time: 300-iteration ``mcts`` searches at twelve positions of greedy self-play
games at four seats (every ninth decision of seeds 0-2). No time cap, so the work is the same
on every version of the code: compare two versions by running this on both, back to back
(benchmarks/README.md).

Level 2 at four seats (the default) times the default search and ``others=greedy``. Where
the default rolls each leaf out with greedy turns since round 18 (level 1 at four seats, one
round; level 2 at three seats, two rounds: ``meeple.bots.mcts.SHEET_DEFAULTS``) it times the
default against the same search without the rollout (``horizon=0``).

    uv run python experiments/benchmarks/bench_reefs_search.py [--level 1] [--players 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from meeple.core.state import State

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repository

from experiments.positions import greedy_selfplay_positions, time_searches


def positions(players: int, level: int) -> list[State[Any]]:
    """Every ninth decision of greedy self-play games, four from each of seeds 0-2."""
    return greedy_selfplay_positions("reefs", players, seeds=3, every=9, per_seed=4, level=level)


#: The searches timed: a name and the MctsBot options.
OTHERS = (("default", {}), ("others=greedy", {"others": "greedy"}))
ROLLOUT = (("default (with its rollout)", {}), ("horizon=0", {"horizon": 0}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--level", type=int, choices=(1, 2, 3), default=2)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    args = parser.parse_args()
    level, players = args.level, args.players
    searches = OTHERS if (level, players) == (2, 4) else ROLLOUT
    print(f"level {level}, {players} seats, 300 iterations a search")
    print("| search | positions | seconds | iterations/s |")
    print("|---|---:|---:|---:|")
    for name, options in searches:
        found = positions(players, level)
        total, _done, _moves = time_searches(found, 300, **options)
        print(f"| {name} | {len(found)} | {total:.2f} | {300 * len(found) / total:.0f} |")


if __name__ == "__main__":
    main()
