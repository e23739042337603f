"""Tournaments: the same seeds played with the seats rotated, so every bot sits in every seat
with the same dice; win rates with 95 % Wilson intervals and mean scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from meeple.sim.runner import JobSpec, run_job, validate_job
from meeple.sim.stats import mean, stdev, wilson, win_share


def labels(specs: Sequence[str]) -> list[str]:
    """Names for the entrants: the spec, with ``#k`` added when a spec appears twice."""
    out = []
    for j, spec in enumerate(specs):
        out.append(spec if list(specs).count(spec) == 1 else f"{spec}#{j + 1}")
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
    for r in range(k):
        order = [(s + r) % k for s in range(k)]  # seat s holds entrant order[s]
        job = JobSpec(game=game, bots=tuple(specs[j] for j in order), n=n, seed=seed, options=variant)
        validate_job(job)
        for rec in run_job(job, out=records, workers=workers, cluster=cluster, on_record=on_record):
            for s, j in enumerate(order):
                shares[j].append(win_share(rec, s))
                scores[j].append(rec["scores"][s]["total"])
            lengths.append(len(rec["moves"]))
    rows = []
    for j in range(k):
        g = len(shares[j])
        wins = sum(shares[j])
        lo, hi = wilson(wins, g)
        rows.append({
            "bot": names[j], "spec": specs[j], "games": g, "wins": wins, "win_rate": wins / g,
            "ci95": [lo, hi], "mean_score": mean(scores[j]), "score_sd": stdev(scores[j]),
        })
    return {
        "game": game, "variant": {k2: v for k2, v in variant.items()}, "players": k,
        "games_per_rotation": n, "seed": seed, "mean_moves": mean(lengths), "results": rows,
    }


def tournament_table(res: dict[str, Any]) -> Table:
    variant = ", ".join(f"{k}={v}" for k, v in res["variant"].items()) or "standard"
    fair = 1 / res["players"]
    table = Table(title=f"{res['game']} ({variant}), {res['players']} seats, "
                        f"{res['games_per_rotation']} seeds x {res['players']} rotations")
    for col in ("bot", "games", "win share", "95% CI", f"vs {fair:.0%}", "mean score", "sd"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in res["results"]:
        lo, hi = row["ci95"]
        verdict = "[green]above[/]" if lo > fair else "[red]below[/]" if hi < fair else "overlaps"
        table.add_row(row["bot"], str(row["games"]), f"{row['win_rate']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", verdict, f"{row['mean_score']:.2f}", f"{row['score_sd']:.2f}")
    return table
