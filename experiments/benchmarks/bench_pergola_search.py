"""Pergola search time: the defaults of rounds 19 and 20 against the searches before them.

Since round 19 (docs/research/strength-history.md, C36) a plain ``mcts`` in Pergola at three and four seats
plays the other seats' greedy turns (``others=greedy;beam=4``), then its own greedy turn before
judging a leaf (``rollout=greedy;horizon=1``), with common random numbers and one root
candidate per tool (``crn=1;diverse=1;top=4``). Before it the tree listed its own replies
(``others=tree;beam=0;horizon=0;crn=0;diverse=0;top=8``). Since round 20 (C38) a solo search is
the same without ``others`` (round 10's solo default was ``beam=4`` alone). This times
100-iteration searches of each default and the search before it (no time cap, so the work is
the same on every machine) at eight positions per seat count (every eleventh decision of
greedy self-play, four from each of seeds 0-1; solo games play challenge 7), in one run, and
prints iterations per second and the cost of an iteration against the old search.

    uv run python experiments/benchmarks/bench_pergola_search.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repository

from experiments.positions import greedy_selfplay_positions, time_searches

ITERATIONS = 100
#: Per number of seats: the variant played and the searches timed (a name and the MctsBot
#: options), the default first and the search before it last.
SETTINGS: tuple[tuple[int, dict[str, Any], tuple[tuple[str, dict[str, Any]], ...]], ...] = (
    (1, {"challenge": 7}, (("default (round 20)", {}),
                           ("before round 20", {"horizon": 0, "crn": 0, "diverse": 0,
                                                "top": 8}))),
    *((players, {}, (("default (round 19)", {}),
                     ("before round 19", {"others": "tree", "beam": 0, "horizon": 0, "crn": 0,
                                          "diverse": 0, "top": 8}))) for players in (3, 4)),
)


def main() -> None:
    print(f"{ITERATIONS} iterations a search, no cap")
    print("| seats | search | positions | seconds | iterations/s | cost of an iteration |")
    print("|---:|---|---:|---:|---:|---:|")
    for players, variant, searches in SETTINGS:
        found = greedy_selfplay_positions("pergola", players, seeds=2, every=11, per_seed=4,
                                          min_choices=2, **variant)
        rates = []
        for name, options in searches:
            total, done, _moves = time_searches(found, ITERATIONS, **options)
            rates.append((name, total, done / total))
        base = rates[-1][2]
        for name, total, rate in rates:
            print(f"| {players} | {name} | {len(found)} | {total:.2f} | {rate:.0f} "
                  f"| {base / rate:.1f} x |")


if __name__ == "__main__":
    main()
