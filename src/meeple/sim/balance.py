"""Balance summaries across variants and seat counts (used for docs/balance.md).

``balance_tables(records)`` gives one row per (game, variant, seats, bot) with the score
distribution, the win share of each seat position and the game length; ``balance_figures``
draws, per game, score box plots by variant and seat count, seat-position win shares with
95 % intervals, and mean points per score-pad row by variant.

Records come from self-play runs (every seat the same bot spec), e.g.::

    meeple simulate gardens --level 2 -n 30 --bots greedy,greedy,greedy --out g.jsonl
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from meeple.sim.report import group_records, row_bars, save_figure
from meeple.sim.stats import mean, quantiles, stdev, wilson, win_share

Key = tuple[str, str, int, str]  # game, variant json, seats, bot


def by_setting(records: list[dict[str, Any]]) -> dict[Key, list[dict[str, Any]]]:
    out: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for group, recs in group_records(records).items():
        for rec in recs:
            bots = sorted(set(rec.get("bots", ["?"])))
            out[(*group, "+".join(bots))].append(rec)
    return dict(out)


def balance_rows(records: list[dict[str, Any]]) -> list[list[Any]]:
    """Per (game, variant, seats, bot): games, mean, sd, q25, median, q75 of the total, each
    seat position's win share (with its 95 % interval), mean seat decisions per game."""
    rows = []
    for (game, variant, seats, bot), recs in sorted(by_setting(records).items()):
        totals = [float(s["total"]) for r in recs for s in r["scores"]]
        q25, q50, q75 = quantiles(totals, (0.25, 0.5, 0.75))
        seat_cells = []
        for seat in range(seats):
            shares = [win_share(r, seat) for r in recs]
            lo, hi = wilson(sum(shares), len(shares))
            seat_cells.append(f"{sum(shares) / len(shares):.2f} [{lo:.2f}-{hi:.2f}]")
        length = mean([float(sum(t["decisions"] for t in r["timings"])) for r in recs if "timings" in r])
        v = ", ".join(f"{k}={x}" for k, x in json.loads(variant).items()) or "standard"
        rows.append([game, v, seats, bot, len(recs), mean(totals), stdev(totals), q25, q50, q75,
                     " / ".join(seat_cells), length])
    return rows


def seat_rows(records: list[dict[str, Any]]) -> list[list[Any]]:
    """Per (game, seats), every variant and bot pooled: games and each seat position's win
    share with its 95 % interval (a first-player advantage shows as seat 0 above 1/seats)."""
    pooled: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for (game, _variant, seats, _bot), recs in by_setting(records).items():
        if seats > 1:
            pooled[(game, seats)].extend(recs)
    rows = []
    for (game, seats), recs in sorted(pooled.items()):
        cells = []
        for seat in range(seats):
            shares = [win_share(r, seat) for r in recs]
            lo, hi = wilson(sum(shares), len(shares))
            cells.append(f"{sum(shares) / len(shares):.2f} [{lo:.2f}-{hi:.2f}]")
        rows.append([game, seats, len(recs), f"{1 / seats:.2f}", " / ".join(cells)])
    return rows


def decisive_rows(records: list[dict[str, Any]], top: int = 5) -> list[list[Any]]:
    """Which score-pad rows decide games: per game (variants, seat counts and bots pooled,
    games with two or more seats), each row's mean lead of the winners over the other seats
    (winners' mean points in the row less the others' mean; a game everybody wins is left
    out), the ``top`` rows with the largest lead, and the share of games where the winners
    had more in that row than the others. The leads of all rows add up to the winners' mean
    lead in total."""
    pooled: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (game, _variant, seats, _bot), recs in by_setting(records).items():
        if seats > 1:
            pooled[game].extend(recs)
    out = []
    for game, recs in sorted(pooled.items()):
        leads: dict[str, list[float]] = defaultdict(list)
        totals = []
        for r in recs:
            won = set(r.get("winners") or [])
            if not won or len(won) == len(r["scores"]):
                continue
            rows = {row for sc in r["scores"] for row in sc.get("breakdown", {})}
            for row in rows:
                leads[row].append(_lead([float(sc.get("breakdown", {}).get(row, 0))
                                         for sc in r["scores"]], won))
            totals.append(_lead([float(sc["total"]) for sc in r["scores"]], won))
        if not totals:
            continue
        n = len(totals)
        ranked = sorted(leads.items(), key=lambda kv: -sum(kv[1]) / n)[:top]
        cells = [f"{row} {sum(v) / n:+.1f} ({sum(1 for x in v if x > 0) / n:.0%})"
                 for row, v in ranked]
        out.append([game, n, f"{mean(totals):+.1f}", "; ".join(cells)])
    return out


def _lead(values: list[float], won: set[int]) -> float:
    """The winners' mean of ``values`` (one per seat) less the other seats' mean."""
    return (mean([v for i, v in enumerate(values) if i in won])
            - mean([v for i, v in enumerate(values) if i not in won]))


def solo_rows(records: list[dict[str, Any]]) -> list[list[Any]]:
    """Per solo (game, variant, bot): games, mean, sd, q25, median and q75 of the score, and
    the share of games where the variant's challenge was met (``-`` when records say none)."""
    rows = []
    settings = by_setting(records)
    # challenge 10 after 9: sort the variant's options by value, not by their JSON text
    for key in sorted(settings, key=lambda k: (k[0], sorted(json.loads(k[1]).items()), k[3])):
        game, variant, seats, bot = key
        recs = settings[key]
        if seats != 1:
            continue
        totals = [float(r["scores"][0]["total"]) for r in recs]
        q25, q50, q75 = quantiles(totals, (0.25, 0.5, 0.75))
        met = [bool(r["challenge"]["met"]) for r in recs if isinstance(r.get("challenge"), dict)]
        v = ", ".join(f"{k}={x}" for k, x in json.loads(variant).items()) or "standard"
        rows.append([game, v, bot, len(recs), mean(totals), stdev(totals), q25, q50, q75,
                     f"{sum(met) / len(met):.0%}" if met else "-"])
    return rows


SOLO_HEADERS = ["game", "variant", "bot", "games", "mean", "sd", "q25", "median", "q75",
                "challenge met"]

DECISIVE_HEADERS = ["game", "games", "winners' lead in total",
                    "rows with the largest lead: mean lead (share of games the winners led it)"]

SEAT_HEADERS = ["game", "seats", "games", "fair share",
                "win share by seat, variants and bots pooled (95% CI)"]

BALANCE_HEADERS = ["game", "variant", "seats", "bot", "games", "mean", "sd", "q25", "median", "q75",
                   "win share by seat (95% CI)", "decisions/game"]


def balance_figures(records: list[dict[str, Any]], out: Path) -> list[Path]:
    """Per game: ``<game>-scores.png``, ``<game>-seats.png``, ``<game>-rows.png``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    settings = by_setting(records)
    games = sorted({k[0] for k in settings})
    files = []
    for game in games:
        keys = sorted(k for k in settings if k[0] == game)
        files.append(_scores_figure(plt, game, keys, settings, out))
        multi = [k for k in keys if k[2] > 1]
        if multi:
            files.append(_seats_figure(plt, game, multi, settings, out))
        files.append(_rows_figure(game, keys, settings, out))
    return files


def _scores_figure(plt: Any, game: str, keys: list[Key],
                   settings: dict[Key, list[dict[str, Any]]], out: Path) -> Path:
    """``<game>-scores.png``: score box plots by variant, seats and bot."""
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(keys)), 4))
    data = [[float(s["total"]) for r in settings[k] for s in r["scores"]] for k in keys]
    labels = [f"{_short(k)}" for k in keys]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(keys) + 1))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("total score per seat")
    ax.set_title(f"{game}: scores by variant, seats and bot", fontsize=10)
    return save_figure(fig, out / f"{game}-scores.png", 80)


def _seats_figure(plt: Any, game: str, multi: list[Key],
                  settings: dict[Key, list[dict[str, Any]]], out: Path) -> Path:
    """``<game>-seats.png``: the win share of each seat position with its 95 % interval, for
    the settings of more than one seat (``multi``)."""
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(multi)), 4))
    for i, k in enumerate(multi):
        recs = settings[k]
        seats = k[2]
        for seat in range(seats):
            shares = [win_share(r, seat) for r in recs]
            p = sum(shares) / len(shares)
            lo, hi = wilson(sum(shares), len(shares))
            x = i + (seat - (seats - 1) / 2) * 0.18
            ax.errorbar([x], [p], yerr=[[max(0.0, p - lo)], [max(0.0, hi - p)]], fmt="o", ms=3,
                        color=f"C{seat}", label=f"seat {seat}")
        ax.hlines(1 / seats, i - 0.4, i + 0.4, colors="grey", linestyles="dotted")
    ax.set_xticks(range(len(multi)))
    ax.set_xticklabels([_short(k) for k in multi], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("win share, 95% CI (dotted: 1/seats)", fontsize=8)
    ax.set_title(f"{game}: win share by seat position", fontsize=10)
    handles, names = ax.get_legend_handles_labels()
    uniq = dict(zip(names, handles, strict=True))
    ax.legend(uniq.values(), uniq.keys(), fontsize=7)
    return save_figure(fig, out / f"{game}-seats.png", 80)


def _rows_figure(game: str, keys: list[Key], settings: dict[Key, list[dict[str, Any]]],
                 out: Path) -> Path:
    """``<game>-rows.png``: mean points per score-pad row, by variant and bot (seat counts
    pooled)."""
    pooled: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for k in keys:
        v = ", ".join(f"{a}={b}" for a, b in json.loads(k[1]).items()) or "standard"
        pooled[f"{v} {k[3]}"].extend(settings[k])
    rows: list[str] = []
    means: dict[str, dict[str, float]] = {}
    for name, recs in pooled.items():
        sums: dict[str, float] = defaultdict(float)
        n = 0
        for r in recs:
            for s in r["scores"]:
                n += 1
                for row, val in s.get("breakdown", {}).items():
                    if row not in rows:
                        rows.append(row)
                    sums[row] += val
        means[name] = {row: sums[row] / n for row in rows}
    path = out / f"{game}-rows.png"
    row_bars(path, rows, means, f"{game}: score-pad rows by variant and bot",
             "mean points per seat", figsize=(max(7, 0.55 * len(rows)), 4), fontsize=7,
             legend_size=6, dpi=80)
    return path


def _short(k: Key) -> str:
    """A plot label: the variant, the seats and the bot's name (its options are in the tables)."""
    v = ", ".join(f"{a}={b}" for a, b in json.loads(k[1]).items()) or "std"
    return f"{v} {k[2]}p {k[3].split(':')[0]}"


__all__ = [
    "BALANCE_HEADERS",
    "DECISIVE_HEADERS",
    "SEAT_HEADERS",
    "SOLO_HEADERS",
    "balance_figures",
    "balance_rows",
    "by_setting",
    "decisive_rows",
    "seat_rows",
    "solo_rows",
]
