"""Tournaments: the same seeds played with the seats rotated, so every bot sits in every seat
with the same dice; win rates with 95 % Wilson intervals and mean scores.

With more than two seats a bot's win share is compared with the fair share ``1/seats``, and the
**head-to-head** share says how often one bot finishes ahead of another bot spec in the same
game (:func:`ahead_share`): this is what "A beats B" means at 3-4 seats (docs/strength.md).
Each entrant's decision times come from the records' ``timings``: seconds spent per game and
the longest single decision."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from meeple.sim.runner import JobSpec, run_job, validate_job
from meeple.sim.stats import mean, quantiles, stdev, wilson, win_share


def labels(specs: Sequence[str]) -> list[str]:
    """Names for the entrants: the spec, with ``#k`` added when a spec appears twice."""
    out = []
    for j, spec in enumerate(specs):
        out.append(spec if list(specs).count(spec) == 1 else f"{spec}#{j + 1}")
    return out


def ahead_share(rec: dict[str, Any], seat: int, other: int) -> float:
    """1 if ``seat`` finished ahead of ``other`` (a higher total, or the same total with
    ``seat`` among the winners and ``other`` not), 0 if behind, 1/2 if neither (A4)."""
    a = rec["scores"][seat]["total"]
    b = rec["scores"][other]["total"]
    if a != b:
        return 1.0 if a > b else 0.0
    winners = rec.get("winners") or []
    if (seat in winners) != (other in winners):
        return 1.0 if seat in winners else 0.0
    return 0.5


def head_to_head(rec: dict[str, Any], seats_of: dict[str, list[int]]) -> dict[tuple[str, str], float]:
    """Per ordered pair of distinct specs (a, b) in one game: the mean of :func:`ahead_share`
    over a's seats against b's seats."""
    out = {}
    for a, mine in seats_of.items():
        for b, theirs in seats_of.items():
            if a == b:
                continue
            vals = [ahead_share(rec, s, o) for s in mine for o in theirs]
            out[(a, b)] = sum(vals) / len(vals)
    return out


def run_tournament(
    game: str,
    variant: dict[str, Any],
    specs: Sequence[str],
    n: int,
    seed: int = 0,
    workers: int = 1,
    cluster: str | None = None,
    records: Path | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play seeds ``seed .. seed+n-1`` once per rotation of the seats (k bots, k rotations)."""
    k = len(specs)
    names = labels(specs)
    shares: list[list[float]] = [[] for _ in range(k)]
    scores: list[list[float]] = [[] for _ in range(k)]
    lengths: list[int] = []
    thinking: list[list[float]] = [[] for _ in range(k)]
    longest: list[list[float]] = [[] for _ in range(k)]
    pairs: dict[tuple[str, str], list[float]] = {}
    for r in range(k):
        order = [(s + r) % k for s in range(k)]  # seat s holds entrant order[s]
        job = JobSpec(game=game, bots=tuple(specs[j] for j in order), n=n, seed=seed, options=variant)
        validate_job(job)
        for rec in run_job(job, out=records, workers=workers, cluster=cluster, on_record=on_record):
            seats_of: dict[str, list[int]] = {}
            for s, j in enumerate(order):
                shares[j].append(win_share(rec, s))
                scores[j].append(rec["scores"][s]["total"])
                seats_of.setdefault(specs[j], []).append(s)
                if "timings" in rec:
                    thinking[j].append(rec["timings"][s]["seconds"])
                    longest[j].append(rec["timings"][s]["longest"])
            for pair, value in head_to_head(rec, seats_of).items():
                pairs.setdefault(pair, []).append(value)
            lengths.append(len(rec["moves"]))
    rows = []
    for j in range(k):
        g = len(shares[j])
        wins = sum(shares[j])
        lo, hi = wilson(wins, g)
        rows.append({
            "bot": names[j], "spec": specs[j], "games": g, "wins": wins, "win_rate": wins / g,
            "ci95": [lo, hi], "mean_score": mean(scores[j]), "score_sd": stdev(scores[j]),
            "seconds_per_game": mean(thinking[j]),
            "longest_decision_median": quantiles(longest[j], (0.5,))[0] if longest[j] else None,
            "longest_decision_max": max(longest[j]) if longest[j] else None,
        })
    h2h = []
    for (a, b), values in sorted(pairs.items()):
        lo, hi = wilson(sum(values), len(values))
        h2h.append({"bot": a, "opponent": b, "games": len(values), "share": mean(values),
                    "ci95": [lo, hi]})
    return {
        "game": game, "variant": {k2: v for k2, v in variant.items()}, "players": k,
        "games_per_rotation": n, "seed": seed, "mean_moves": mean(lengths), "results": rows,
        "head_to_head": h2h,
    }


def tournament_table(res: dict[str, Any]) -> Table:
    variant = ", ".join(f"{k}={v}" for k, v in res["variant"].items()) or "standard"
    fair = 1 / res["players"]
    table = Table(title=f"{res['game']} ({variant}), {res['players']} seats, "
                        f"{res['games_per_rotation']} seeds x {res['players']} rotations")
    for col in ("bot", "games", "win share", "95% CI", f"vs {fair:.0%}", "mean score", "sd",
                "s/game", "longest decision"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in res["results"]:
        lo, hi = row["ci95"]
        longest = row.get("longest_decision_max")
        table.add_row(row["bot"], str(row["games"]), f"{row['win_rate']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", _verdict(lo, hi, fair), f"{row['mean_score']:.2f}",
                      f"{row['score_sd']:.2f}", f"{row.get('seconds_per_game', 0.0):.2f}",
                      "-" if longest is None else f"{longest:.2f} s")
    return table


def head_to_head_table(res: dict[str, Any]) -> Table:
    """How often each bot finishes ahead of each other bot spec (ties half), with 95 % CIs."""
    table = Table(title="head to head: finished ahead of the other bot in the same game")
    for col in ("bot", "opponent", "games", "ahead", "95% CI", "vs 50%"):
        table.add_column(col, justify="left" if col in ("bot", "opponent") else "right")
    for row in res.get("head_to_head", []):
        lo, hi = row["ci95"]
        table.add_row(row["bot"], row["opponent"], str(row["games"]), f"{row['share']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", _verdict(lo, hi, 0.5))
    return table


def _verdict(lo: float, hi: float, fair: float) -> str:
    return "[green]above[/]" if lo > fair else "[red]below[/]" if hi < fair else "overlaps"
