"""Paired comparison of two arms of a strength trial, on the games they share.

    uv run python experiments/paired.py --bot mcts A.jsonl B.jsonl
    uv run python experiments/paired.py --bot mcts A1.jsonl,A2.jsonl B.jsonl

Each arm is one or more record files (comma separated) written by ``meeple tournament ...
--records FILE`` with the same opponents, for example the default ``mcts`` and ``mcts`` with
one option changed, both against ``greedy``. A game of arm A is paired with the game of arm B
that has the same game, variant, seats, seed and seat of the ``--bot`` entrant (the same dice,
draws and rotation), so luck cancels out of the difference.

For every group (game, variant, seats) it prints, over the paired games only:

- each arm's share: the win share with two seats (ties half, A4), the head-to-head share with
  more (how often the entrant finished ahead of an opponent's seat, ties half, averaged over
  the opponents' seats), as in docs/strength.md (the head-to-head share);
- the **margin difference**: the mean over pairs of (A's margin - B's margin), where a
  game's margin is the entrant's score less the mean score of the other seats, with its
  standard error (the spread of the per-pair differences over the square root of their
  number) and their ratio, ``z``. docs/research/strength-history.md states its trial rules in that ``z``
  ("above 2 standard errors");
- the **share difference**: the mean over pairs of (A's share - B's share) in each game, with
  its standard error, computed the same way (round 15's S16 rule).

With more than one group a last row, ``all``, pools every pair of every group.

Games only one arm played are counted and left out. This is the tool the rounds' "the default
on the same games" and "margin difference" columns come from.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from meeple.sim.report import group_records
from meeple.sim.runner import read_records
from meeple.sim.stats import mean, stdev, win_share
from meeple.sim.tournament import head_to_head

Key = tuple[str, str, int, int, int]  # game, variant, seats, seed, the entrant's seat


def entrant_seat(rec: dict[str, Any], bot: str) -> int | None:
    """The one seat whose spec starts with ``bot``, or None if there is not exactly one."""
    seats = [i for i, spec in enumerate(rec["bots"]) if spec.startswith(bot)]
    return seats[0] if len(seats) == 1 else None


def share(rec: dict[str, Any], seat: int) -> float:
    """The entrant's win share (two seats) or head-to-head share (three or more)."""
    if rec["players"] == 2:
        return win_share(rec, seat)
    others = [o for o in range(rec["players"]) if o != seat]
    return head_to_head(rec, {"entrant": [seat], "others": others})[("entrant", "others")]


def margin(rec: dict[str, Any], seat: int) -> float:
    """The entrant's score less the mean score of the other seats."""
    totals = [float(s["total"]) for s in rec["scores"]]
    others = [t for i, t in enumerate(totals) if i != seat]
    return totals[seat] - sum(others) / len(others)


def keyed(paths: list[Path], bot: str) -> dict[Key, tuple[str, dict[str, Any], int]]:
    """The arm's games by pairing key, each with its group's variant text and entrant seat."""
    out: dict[Key, tuple[str, dict[str, Any], int]] = {}
    records = [rec for path in paths for rec in read_records(path)]
    for (game, variant, seats), recs in group_records(records).items():
        for rec in recs:
            seat = entrant_seat(rec, bot)
            if seat is not None:
                out[(game, variant, seats, int(rec["seed"]), seat)] = (variant, rec, seat)
    return out


def compare(a: dict[Key, tuple[str, dict[str, Any], int]],
            b: dict[Key, tuple[str, dict[str, Any], int]]) -> list[dict[str, Any]]:
    """One row per group: shares and the margin difference over the paired games."""
    groups: dict[tuple[str, str, int], list[Key]] = {}
    for key in sorted(set(a) & set(b)):
        groups.setdefault(key[:3], []).append(key)
    def row(game: str, variant: str, seats: str, keys: list[Key]) -> dict[str, Any]:
        diffs = [margin(a[k][1], a[k][2]) - margin(b[k][1], b[k][2]) for k in keys]
        d = mean(diffs)
        se = stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        shares_a = [share(a[k][1], a[k][2]) for k in keys]
        shares_b = [share(b[k][1], b[k][2]) for k in keys]
        sdiffs = [x - y for x, y in zip(shares_a, shares_b, strict=True)]
        sse = stdev(sdiffs) / math.sqrt(len(sdiffs)) if len(sdiffs) > 1 else float("nan")
        return {
            "game": game, "variant": variant, "seats": seats, "pairs": len(keys),
            "share_a": mean(shares_a), "share_b": mean(shares_b),
            "diff": d, "se": se, "z": d / se if se and se > 0 else float("nan"),
            "share_diff": mean(sdiffs), "share_se": sse,
        }

    rows = [row(game, variant, str(seats), keys)
            for (game, variant, seats), keys in sorted(groups.items())]
    if len(groups) > 1:  # every pair of every group, as one sample
        rows.append(row("all", "{}", "all", sorted(k for keys in groups.values() for k in keys)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="mcts", help="the entrant: the spec prefix of its one seat")
    parser.add_argument("arm_a", help="record file(s) of arm A, comma separated")
    parser.add_argument("arm_b", help="record file(s) of arm B, comma separated")
    args = parser.parse_args()
    a = keyed([Path(p) for p in args.arm_a.split(",")], args.bot)
    b = keyed([Path(p) for p in args.arm_b.split(",")], args.bot)
    print(f"paired games: {len(set(a) & set(b))}; only in A: {len(set(a) - set(b))}; "
          f"only in B: {len(set(b) - set(a))}")
    print("| game | variant | seats | pairs | share A | share B | margin A - B | se | z "
          "| share A - B | se |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in compare(a, b):
        variant = ", ".join(f"{k}={v}" for k, v in json.loads(r["variant"]).items()) or "standard"
        print(f"| {r['game']} | {variant} | {r['seats']} | {r['pairs']} | {r['share_a']:.1%} | "
              f"{r['share_b']:.1%} | {r['diff']:+.2f} | {r['se']:.2f} | {r['z']:+.2f} | "
              f"{r['share_diff']:+.1%} | {r['share_se']:.1%} |")


if __name__ == "__main__":
    main()
