"""One-at-a-time check of the Takenokolor evaluation's weights at three or four seats.

    uv run python experiments/weights_check.py --sheet 2-pandas --players 3 --seeds 200 \\
        --seed 91000 '{"deny": 0.0}' '{"area_weight": 0.2}'

Each JSON object changes some fields of the sheet's weights (``SHEET_PARAMS`` or ``Params()``,
src/meeple/games/takenokolor/evaluation.py). For each, one ``greedy`` seat evaluates with the changed
weights and the other seats are the shipped ``greedy``, on seeds ``--seed`` onwards, every seed
once per rotation of the seats (the changed seat in every position; bot seeds as in
``meeple tournament``). It prints the changed seat's head-to-head share (how often it finished
ahead of a shipped seat, ties half, averaged over those seats: docs/strength.md), with the
standard error over games, and its mean margin over the best other seat. The shipped weights
against themselves score exactly 50 % (every rotation plays the same game). Round 12's check
(docs/eval-takenokolor.md) ran this way; greedy games take a few milliseconds a decision, so
600 games take 5-15 s on 2 workers.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

import meeple
from meeple.bots.evaluation import all_turns_ranked
from meeple.bots.greedy import GreedyBot
from meeple.core.state import CHANCE, State
from meeple.games.takenokolor import evaluation as et
from meeple.sim.runner import bot_seed
from meeple.sim.tournament import ahead_share


class WeightedGreedy(GreedyBot):
    """``greedy`` with its own evaluation (the same turn listing and tie-breaks)."""

    def __init__(self, seed: int, evaluate: Any) -> None:
        super().__init__(seed)
        self.evaluate = evaluate

    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        planned = self.plan.next_move(view, legal_moves)
        if planned is not None:
            return planned
        seat = view.to_move
        assert seat is not None
        scored = all_turns_ranked(view, seat, fn=self.evaluate)
        if not scored:
            return self.rng.choice(legal_moves)
        top = scored[0][0]
        return self.plan.set(view, self.rng.choice([m for v, m in scored if v >= top - 1e-9]))


def play(task: tuple[str, int, dict[str, Any], int, int]) -> tuple[float, float]:
    """One game: the changed seat's head-to-head share and its margin over the best other."""
    sheet, players, change, seed, me = task
    weights = dataclasses.replace(et.SHEET_PARAMS.get(sheet, et.Params()), **change)
    evaluate = et.make_evaluation(weights)
    state = meeple.new_game("takenokolor", players=players, seed=seed, sheet=sheet)
    bots = [WeightedGreedy(bot_seed(seed, s), evaluate) if s == me else GreedyBot(bot_seed(seed, s))
            for s in range(players)]
    while state.to_move is not None:
        seat = state.to_move
        if seat == CHANCE:
            state.sample_chance()
            continue
        state.play(bots[seat].choose(state.seen_by(seat), state.legal_moves()))
    totals = [s.total for s in state.scores()]
    record = {"scores": [{"total": t} for t in totals], "winners": list(state.winners())}
    others = [o for o in range(players) if o != me]
    ahead = sum(ahead_share(record, me, o) for o in others) / len(others)
    return ahead, float(totals[me] - max(totals[o] for o in others))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sheet", default="2-pandas")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=91000)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("changes", nargs="+", help='JSON objects of weights, e.g. {"deny": 0.0}')
    args = parser.parse_args()
    fields = {f.name for f in dataclasses.fields(et.Params)}
    changes = [json.loads(c) for c in args.changes]
    for change in changes:
        unknown = set(change) - fields
        if unknown:
            parser.error(f"unknown weight(s) {', '.join(sorted(unknown))}; "
                         f"weights: {', '.join(sorted(fields))}")
    with Pool(args.workers) as pool:
        for change in changes:
            tasks = [(args.sheet, args.players, change, seed, me)
                     for seed in range(args.seed, args.seed + args.seeds)
                     for me in range(args.players)]
            results = pool.map(play, tasks, chunksize=4)
            shares = [r[0] for r in results]
            m = sum(shares) / len(shares)
            se = math.sqrt(sum((x - m) ** 2 for x in shares) / (len(shares) - 1) / len(shares))
            margin = sum(r[1] for r in results) / len(results)
            print(f"{args.sheet}, {args.players} seats, {json.dumps(change)}: {len(shares)} games, "
                  f"head to head {100 * m:.1f} % (se {100 * se:.1f}), margin {margin:+.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
