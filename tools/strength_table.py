"""Markdown tables for docs/strength.md from ``meeple tournament --out`` JSON files.

    uv run python tools/strength_table.py results1.json results2.json ...

One row per tournament and entrant pair: the first entrant's win share (2 seats) or its
head-to-head share against each other bot spec (3-4 seats), the 95 % interval, whether it
lies above 50 %, mean scores, and the first entrant's thinking time per game and longest
single decision (median over games / maximum).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HEADERS = ["game", "variant", "seats", "match", "games", "share of first", "95% CI",
           "CI above 50%?", "mean scores", "first's s/game", "first's longest decision, median / max (s)"]


def variant_text(variant: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in variant.items()) or "standard"


def rows(res: dict[str, Any]) -> list[list[str]]:
    results = res["results"]
    first = results[0]
    median = first.get("longest_decision_median") or 0.0
    longest = first.get("longest_decision_max") or 0.0
    timing = (f"{first.get('seconds_per_game', 0):.1f}", f"{median:.2f} / {longest:.2f}")
    out = []
    if res["players"] == 2:
        lo, hi = first["ci95"]
        out.append([res["game"], variant_text(res["variant"]), "2",
                    f"{first['spec']} vs {results[1]['spec']}", str(first["games"]),
                    f"{first['win_rate']:.1%}", f"{lo:.1%}-{hi:.1%}",
                    "**yes**" if lo > 0.5 else "no" if hi < 0.5 else "not separated",
                    f"{first['mean_score']:.1f} vs {results[1]['mean_score']:.1f}", *timing])
        return out
    others = {r["spec"]: r for r in results[1:]}
    for h in res.get("head_to_head", []):
        if h["bot"] != first["spec"]:
            continue
        lo, hi = h["ci95"]
        opp = others.get(h["opponent"])
        opp_score = f"{opp['mean_score']:.1f}" if opp else "?"
        out.append([res["game"], variant_text(res["variant"]), str(res["players"]),
                    f"{first['spec']} vs {res['players'] - 1} x {h['opponent']} (head to head)",
                    str(h["games"]), f"{h['share']:.1%}", f"{lo:.1%}-{hi:.1%}",
                    "**yes**" if lo > 0.5 else "no" if hi < 0.5 else "not separated",
                    f"{first['mean_score']:.1f} vs {opp_score}", *timing])
    return out


def main(paths: list[str]) -> None:
    print("| " + " | ".join(HEADERS) + " |")
    print("|" + "---|" * len(HEADERS))
    for path in paths:
        for res in json.loads(Path(path).read_text(encoding="utf-8")):
            for row in rows(res):
                print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
