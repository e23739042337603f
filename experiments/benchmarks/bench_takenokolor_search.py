"""Takenokolor search time with and without the evaluation's memos (rounds 11-12).

Takenokolor's default ``mcts`` at three and four seats plays the other seats' greedy turns in
every iteration (``others=greedy``), so most of its time goes to the evaluation. Its costly
parts are pure functions of one seat's bit sets (and of the rounds left or the markers left),
remembered in bounded memos: round 11's colourings left per area and ladybug race
(``_Model.lefts``, ``_Model.race_colourings``), round 12's race costs, the sheet part of the
score, the seat's own credit and another seat's best gain from the markers left. This runs
300-iteration searches of the default (no time cap, so both ways do the same work and must
choose the same moves: checked) at eight positions per setting (every seventh decision of
greedy self-play, seeds 0-1), first with the memos off (``MEMO_SIZE = 0``: the evaluation
before round 11), then on, in one run, and prints iterations per second and the ratio.

    uv run python experiments/benchmarks/bench_takenokolor_search.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from meeple.core.state import State
from meeple.games.takenokolor import evaluation as eval_takenokolor

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repository

from experiments.positions import greedy_selfplay_positions, time_searches

ITERATIONS = 300
SETTINGS = (("2-pandas", 3), ("2-pandas", 4), ("4-pandas-river", 3), ("4-pandas-dragon", 4))


def positions(sheet: str, players: int) -> list[State[Any]]:
    """Every seventh decision (with a choice) of greedy self-play, four from each of seeds
    0-1."""
    return greedy_selfplay_positions("takenokolor", players, seeds=2, every=7, per_seed=4,
                                     min_choices=2, sheet=sheet)


def run(found: list[State[Any]], memo_size: int) -> tuple[float, int, list[Any]]:
    """Seconds, iterations and moves of the default search at every position."""
    eval_takenokolor.MEMO_SIZE = memo_size
    eval_takenokolor._MODELS.clear()  # a cold start: no memo carried over from another run
    return time_searches(found, ITERATIONS)


def main() -> None:
    size = eval_takenokolor.MEMO_SIZE
    print("| sheet | seats | positions | it/s, memos off | it/s, memos on | ratio | same moves |")
    print("|---|---:|---:|---:|---:|---:|---|")
    try:
        for sheet, players in SETTINGS:
            found = positions(sheet, players)
            off, n_off, moves_off = run(found, 0)
            on, n_on, moves_on = run(found, size)
            assert n_off == n_on
            same = "yes" if moves_off == moves_on else "NO"
            print(f"| {sheet} | {players} | {len(found)} | {n_off / off:.0f} | {n_on / on:.0f} "
                  f"| {off / on:.2f} | {same} |")
    finally:
        eval_takenokolor.MEMO_SIZE = size


if __name__ == "__main__":
    main()
