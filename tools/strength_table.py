"""Markdown strength tables for docs/strength.md, from tournament records.

    uv run python tools/strength_table.py --bot mcts games1.jsonl games2.jsonl ...

The files are written by ``meeple tournament ... --records FILE``. Records are grouped by game,
variant and seat count. In each group the entrant whose spec starts with ``--bot`` is compared
with every other spec: with two seats by its win share (ties half, A4), with more by its
head-to-head share (finishing ahead of that spec's seats in the same game, ties half); solo
(one seat, e.g. Pergola's challenges, from ``meeple simulate`` runs of each bot over the same
seeds) by the share of seeds where it scored more than the other bot (ties half). The
table gives the share, its 95 % Wilson interval, whether that lies above 50 %, mean scores,
and the entrant's thinking time per game and longest single decision (median over games /
maximum), from the records' ``timings``. Gzipped files (``.jsonl.gz``, as
docs/research/records/ keeps them) are read too.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from meeple.sim.report import group_records
from meeple.sim.runner import read_records
from meeple.sim.stats import mean, quantiles, wilson, win_share
from meeple.sim.tournament import head_to_head, higher_score_share

HEADERS = ["game", "variant", "seats", "match", "games", "share", "95% CI", "CI above 50%?",
           "mean scores", "s/game thinking", "longest decision, median / max (s)"]


def load(path: Path) -> list[dict[str, Any]]:
    """The finished game records of a ``.jsonl`` or ``.jsonl.gz`` file."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            recs = [json.loads(line) for line in fh if line.strip()]
    else:
        recs = read_records(path)
    return [r for r in recs if "scores" in r]


def variant_text(variant: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in json.loads(variant).items()) or "standard"


def group_rows(game: str, variant: str, seats: int, recs: list[dict[str, Any]], bot: str) -> list[list[str]]:
    """Rows for every spec starting with ``bot`` in this group (each against the others)."""
    specs = sorted({s for r in recs for s in r["bots"]})
    return [row for me in specs if me.startswith(bot)
            for row in spec_rows(game, variant, seats, recs, me)]


def spec_rows(game: str, variant: str, seats: int, recs: list[dict[str, Any]], me: str) -> list[list[str]]:
    shares: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    thinking: list[float] = []
    longest: list[float] = []
    for rec in recs:
        seats_of: dict[str, list[int]] = defaultdict(list)
        for seat, spec in enumerate(rec["bots"]):
            seats_of[spec].append(seat)
        if me not in seats_of or seats == 1:
            continue
        for seat, spec in enumerate(rec["bots"]):
            scores[spec].append(float(rec["scores"][seat]["total"]))
        for seat in seats_of[me]:
            if "timings" in rec:
                thinking.append(rec["timings"][seat]["seconds"])
                longest.append(rec["timings"][seat]["longest"])
        if seats == 2:
            for other in seats_of:
                if not other.startswith(me.split(":")[0]):
                    shares[other].extend(win_share(rec, s) for s in seats_of[me])
        else:
            for (a, b), value in head_to_head(rec, dict(seats_of)).items():
                if a == me and not b.startswith(me.split(":")[0]):
                    shares[b].append(value)
    if seats == 1:
        by_seed: dict[str, dict[int, float]] = defaultdict(dict)
        for rec in recs:
            by_seed[rec["bots"][0]][int(rec["seed"])] = float(rec["scores"][0]["total"])
            scores[rec["bots"][0]].append(float(rec["scores"][0]["total"]))
            if rec["bots"][0] == me and "timings" in rec:
                thinking.append(rec["timings"][0]["seconds"])
                longest.append(rec["timings"][0]["longest"])
        for other, theirs in by_seed.items():
            if other.startswith(me.split(":")[0]):
                continue
            for seed, score in theirs.items():
                if seed in by_seed[me]:
                    shares[other].append(higher_score_share(by_seed[me][seed], score))
    rows = []
    timing = [f"{mean(thinking):.1f}",
              f"{quantiles(longest, (0.5,))[0]:.2f} / {max(longest):.2f}" if longest else "-"]
    for other, values in sorted(shares.items()):
        lo, hi = wilson(sum(values), len(values))
        verdict = "**yes**" if lo > 0.5 else "no, below" if hi < 0.5 else "not separated"
        match = (f"{me} vs {other}" if seats == 2 else
                 f"{me} vs {other} (solo, same seeds)" if seats == 1 else
                 f"{me} vs {seats - 1} x {other} (head to head)")
        rows.append([game, variant_text(variant), str(seats), match, str(len(values)),
                     f"{mean(values):.1%}", f"{lo:.1%}-{hi:.1%}", verdict,
                     f"{mean(scores[me]):.1f} vs {mean(scores[other]):.1f}", *timing])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--bot", default="mcts", help="spec prefix of the bot to compare")
    args = parser.parse_args()
    records = [r for f in args.files for r in load(f)]
    print("| " + " | ".join(HEADERS) + " |")
    print("|" + "---|" * len(HEADERS))
    for (game, variant, seats), recs in sorted(group_records(records).items()):
        for row in group_rows(game, variant, seats, recs, args.bot):
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
