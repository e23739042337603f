"""Pergola search time at three and four seats: round 19's default against the search before it.

Since round 19 (docs/strength.md, C36) a plain ``mcts`` in Pergola at three and four seats
plays the other seats' greedy turns (``others=greedy;beam=4``), then its own greedy turn before
judging a leaf (``rollout=greedy;horizon=1``), with common random numbers and one root
candidate per tool (``crn=1;diverse=1;top=4``). Before it the tree listed its own replies
(``others=tree;beam=0;horizon=0;crn=0;diverse=0;top=8``). This times 100-iteration searches
of both (no time cap, so the work is the same on every machine) at eight positions per seat
count (every eleventh decision of greedy self-play, four from each of seeds 0-1), in one run,
and prints iterations per second and the cost of an iteration against the old search.

    uv run python benchmarks/bench_pergola_search.py
"""

from __future__ import annotations

from meeple.sim.positions import greedy_selfplay_positions, time_searches

ITERATIONS = 100
#: The searches timed: a name and the MctsBot options.
SEARCHES = (("default (round 19)", {}),
            ("before round 19", {"others": "tree", "beam": 0, "horizon": 0, "crn": 0,
                                 "diverse": 0, "top": 8}))


def main() -> None:
    print(f"{ITERATIONS} iterations a search, no cap")
    print("| seats | search | positions | seconds | iterations/s | cost of an iteration |")
    print("|---:|---|---:|---:|---:|---:|")
    for players in (3, 4):
        found = greedy_selfplay_positions("pergola", players, seeds=2, every=11, per_seed=4,
                                          min_choices=2)
        rates = []
        for name, options in SEARCHES:
            total, done, _moves = time_searches(found, ITERATIONS, **options)
            rates.append((name, total, done / total))
        base = rates[-1][2]
        for name, total, rate in rates:
            print(f"| {players} | {name} | {len(found)} | {total:.2f} | {rate:.0f} "
                  f"| {base / rate:.1f} x |")


if __name__ == "__main__":
    main()
