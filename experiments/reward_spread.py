"""How far apart an ``mcts`` search's root turns come out: the saturation check of round 13.

    uv run python experiments/reward_spread.py reefs --players 3 --variant level=2
    uv run python experiments/reward_spread.py reefs --players 3 --variant level=2 --bot "mcts:ref=depth"

Positions: every ``--every``-th decision (with at least two legal moves) of greedy self-play
games on seeds ``0..--seeds-1``, ``--per-seed`` of them per seed. At each, the bot searches for
the seat to move with an iteration budget only (``--iterations``, default 300, so the figures
are the same on every machine), and the mean rewards of its root turns for that seat are
compared. The bot is :class:`experiments.research_mcts.ResearchMcts`, so the research options
(``ref``, ``scale``, ``c``, ...) may be given. It prints one line:

- **saturated**: the share of positions where the best root turn's mean reward is above
  ``1 - --edge`` or below ``--edge`` (default 0.1). A reward is the logistic of a margin over
  ``scale`` points (docs/bots-and-simulation.md); where margins are many ``scale`` wide, it is
  flat and the turns' differences vanish under the exploration term;
- **median gap**: the median, over positions, of the gap between the two best mean rewards;
- **top visits**: the median share of the root's visits that went to the most visited turn
  (1 / the number of candidates when the visits spread evenly).

docs/research/strength-history.md, round 13, quotes it for every three- and four-seat setting.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from meeple.bots.mcts import MctsBot
from meeple.cli.common import variant_options
from meeple.core.errors import MeepleError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository

from experiments.positions import greedy_selfplay_positions
from experiments.research_mcts import research_bot


def spread(game: str, players: int, variant: dict[str, Any], spec: str, iterations: int,
           seeds: int, every: int, per_seed: int, edge: float) -> dict[str, float]:
    """The saturated share, median gap and median top-visit share over the positions."""
    found = greedy_selfplay_positions(game, players, seeds=seeds, every=every, per_seed=per_seed,
                                      min_choices=2, **variant)
    saturated = 0
    gaps: list[float] = []
    tops: list[float] = []
    for state in found:
        seat = state.to_move
        assert seat is not None
        joiner = ";" if ":" in spec else ":"
        bot = research_bot(f"{spec}{joiner}iterations={iterations};seconds=0", seed=1)
        assert isinstance(bot, MctsBot)
        bot.search(state.seen_by(seat), seat)
        root = bot.last_root
        edges = [e for e in (root.edges if root else []) if e.n]
        if len(edges) < 2:
            continue  # one candidate (or none searched): nothing to compare
        means = sorted((e.w[seat] / e.n for e in edges), reverse=True)
        if means[0] > 1 - edge or means[0] < edge:
            saturated += 1
        gaps.append(means[0] - means[1])
        tops.append(max(e.n for e in edges) / sum(e.n for e in edges))
    if not gaps:
        raise ValueError("no position with two searched root turns: play more seeds")
    return {"positions": len(gaps), "saturated": saturated / len(gaps),
            "gap": statistics.median(gaps), "top": statistics.median(tops)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--option", "--variant", dest="variant", action="append", default=[],
                        metavar="KEY=VALUE", help="a variant option, as meeple tournament's --option")
    parser.add_argument("--bot", default="mcts", help="an mcts spec, e.g. 'mcts:ref=depth'")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--per-seed", type=int, default=10)
    parser.add_argument("--edge", type=float, default=0.1)
    args = parser.parse_args(argv)
    try:
        # the CLI's own parser: an unknown game is refused with the games there are, and
        # values are typed as the game declares its options
        variant = variant_options(args.game, option=args.variant)
        if not args.bot.strip().lower().startswith("mcts"):
            raise ValueError(f"--bot must be an mcts spec such as 'mcts:ref=depth', not {args.bot!r}")
        if args.iterations < 1:
            raise ValueError(f"--iterations must be at least 1, not {args.iterations}")
        if not 0 < args.edge < 0.5:
            raise ValueError(f"--edge must be between 0 and 0.5, not {args.edge}")
        out = spread(args.game, args.players, variant, args.bot, args.iterations, args.seeds,
                     args.every, args.per_seed, args.edge)
    except (ValueError, MeepleError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    where = " ".join(f"{k}={v}" for k, v in variant.items()) or "standard"
    print(f"{args.game} {where}, {args.players} seats, {args.bot}, {args.iterations} iterations: "
          f"{out['positions']} positions, saturated {out['saturated']:.0%}, "
          f"median gap {out['gap']:.4f}, top visits {out['top']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
