"""``meeple report``: tables and plots from simulation records (JSONL).

Records are grouped by game, variant and seat count. For each group: total score per bot and
per seat position (mean, spread, quantiles, win share), the mean of every score-pad row per
bot, game length, and the win share by seat position (95 % Wilson intervals) with each bot's
share at each seat. The seat table is a first-player advantage only when every bot sat at
every seat about equally often (``meeple simulate`` rotates the seats; identical bots need
no rotation); otherwise its title says that it mixes the seat with the bot in it.
Tables are printed and written as Markdown (``report.md``); plots are PNG files (matplotlib,
Agg backend).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import meeple
from meeple.sim.stats import mean, quantiles, stdev, wilson, win_share

Group = tuple[str, str, int]


def group_records(records: list[dict[str, Any]]) -> dict[Group, list[dict[str, Any]]]:
    """Records by (game, variant, seats). A sheet other than the variant's default one (a
    user's sheet, or a game whose variants are sheets) adds ``sheet=<its name>`` to the
    variant, so different boards are never pooled."""
    groups: dict[Group, list[dict[str, Any]]] = defaultdict(list)
    defaults: dict[tuple[str, str], Any] = {}
    for rec in records:
        variant = dict(rec.get("variant", {}))
        name = (rec.get("sheet") or {}).get("name") if isinstance(rec.get("sheet"), dict) else None
        if name is not None and "sheet" not in variant:
            key = (rec["game"], json.dumps(variant, sort_keys=True))
            if key not in defaults:
                defaults[key] = _default_sheet_name(rec["game"], variant, int(rec["players"]))
            if name != defaults[key]:
                variant["sheet"] = name
        groups[(rec["game"], json.dumps(variant, sort_keys=True), int(rec["players"]))].append(rec)
    return dict(groups)


def _default_sheet_name(game: str, variant: dict[str, Any], players: int) -> Any:
    """The sheet a variant plays without ``--sheet`` (None where sheets are the variants)."""
    try:
        if any("sheet" in v for v in meeple.game_info(game).variants):
            return None  # the game's variants are its sheets: always name the sheet
        return meeple.new_game(game, players=players, **variant).sheet_data().get("name")
    except Exception:  # an unknown or unregistered game: keep the sheet name in the label
        return None


def _label(group: Group) -> str:
    game, variant, players = group
    v = ", ".join(f"{k}={val}" for k, val in json.loads(variant).items()) or "standard"
    return f"{game} ({v}), {players} seats"


def _slug(group: Group) -> str:
    game, variant, players = group
    v = "-".join(f"{k}{val}" for k, val in json.loads(variant).items())
    return re.sub(r"[^A-Za-z0-9_-]+", "_", f"{game}-{v}-{players}p").strip("_")


def score_rows(records: list[dict[str, Any]]) -> list[list[Any]]:
    """Per bot and per seat: games, mean, sd, min, q10, q25, median, q75, q90, max, win share."""
    by: dict[tuple[str, str], list[float]] = defaultdict(list)
    wins: dict[tuple[str, str], float] = defaultdict(float)
    for rec in records:
        for seat, spec in enumerate(_bots(rec)):
            total = float(rec["scores"][seat]["total"])
            share = win_share(rec, seat)
            for key in ((spec, "all"), (spec, f"{seat}")):
                by[key].append(total)
                wins[key] += share
    out = []
    for (spec, where), xs in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1] != "all", kv[0][1])):
        q = quantiles(xs)
        out.append([spec, where, len(xs), mean(xs), stdev(xs), min(xs), *q, max(xs),
                    wins[(spec, where)] / len(xs)])
    return out


def pad_rows(records: list[dict[str, Any]]) -> tuple[list[str], dict[str, dict[str, float]]]:
    """Score-pad rows (in pad order) and, per bot, the mean points of each row."""
    rows: list[str] = []
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)
    for rec in records:
        for seat, spec in enumerate(_bots(rec)):
            counts[spec] += 1
            for row, value in rec["scores"][seat].get("breakdown", {}).items():
                if row not in rows:
                    rows.append(row)
                sums[spec][row] += value
    return rows, {spec: {r: sums[spec][r] / counts[spec] for r in rows} for spec in counts}


def length_stats(records: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Game length: every move (chance included) and the seats' decisions."""
    moves = [float(len(r["moves"])) for r in records]
    decisions = [float(sum(t["decisions"] for t in r["timings"])) for r in records if "timings" in r]
    return {"moves": moves, "decisions": decisions}


def seat_counts(records: list[dict[str, Any]], players: int) -> dict[str, list[int]]:
    """Per bot: how many games it played at each seat position."""
    counts: dict[str, list[int]] = {}
    for rec in records:
        for seat, spec in enumerate(_bots(rec)[:players]):
            counts.setdefault(spec, [0] * players)[seat] += 1
    return counts


def seats_balanced(records: list[dict[str, Any]], players: int) -> bool:
    """Whether every bot sat at every seat about equally often (within one game, or 10 %), so
    that the win share by seat measures the seat and not the bots in it."""
    for per_seat in seat_counts(records, players).values():
        if max(per_seat) - min(per_seat) > max(1, 0.1 * max(per_seat)):
            return False
    return True


def seat_advantage(records: list[dict[str, Any]], players: int) -> list[list[Any]]:
    """Per seat position: games, win share with 95 % CI and mean score of all bots pooled,
    then each bot's win share at that seat with its games there (``"-"`` if none)."""
    bots = sorted(seat_counts(records, players))
    out = []
    for seat in range(players):
        shares = [win_share(r, seat) for r in records]
        totals = [float(r["scores"][seat]["total"]) for r in records]
        lo, hi = wilson(sum(shares), len(shares))
        row: list[Any] = [seat, len(shares), sum(shares) / len(shares), lo, hi, mean(totals)]
        for spec in bots:
            mine = [win_share(r, seat) for r in records if _bots(r)[seat] == spec]
            row.append(f"{sum(mine) / len(mine):.2f} ({len(mine)})" if mine else "-")
        out.append(row)
    return out


def seat_table_title(records: list[dict[str, Any]], players: int) -> str:
    """The seat table's title: what its figures mean for these records."""
    if len(seat_counts(records, players)) <= 1:
        return "Seat position: win share by seat (one bot in every seat: the seat's own advantage)"
    if seats_balanced(records, players):
        return ("Seat position: win share by seat (every bot sat at every seat about equally "
                "often: the seat's own advantage)")
    return ("Seat position: win share by seat. NOT a first-player advantage: the bots did not "
            "sit at every seat equally often (records without seat rotation), so each seat's "
            "figures mix the seat with the bot in it; see each bot's share by seat")


def decision_times(records: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Per bot: mean seconds per decision and the longest decision seen."""
    spent: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    longest: dict[str, float] = defaultdict(float)
    for rec in records:
        if not rec.get("timings"):
            continue  # a game from meeple play: no timings
        for seat, spec in enumerate(_bots(rec)):
            t = rec["timings"][seat]
            spent[spec] += t.get("seconds", 0.0)
            count[spec] += t.get("decisions", 0)
            longest[spec] = max(longest[spec], t.get("longest", 0.0))
    return {s: (spent[s] / count[s] if count[s] else 0.0, longest[s]) for s in count}


def _bots(rec: dict[str, Any]) -> list[str]:
    """Who played each seat: the bot specs of a simulated game; for a game from ``meeple
    play``, the seat names without their seat number ("greedy (1)" is "greedy")."""
    if rec.get("bots"):
        return list(rec["bots"])
    seats = rec.get("seats") or []
    if len(seats) == rec["players"]:
        return [re.sub(r" \(\d+\)$", "", str(name)) for name in seats]
    return [f"seat {i}" for i in range(rec["players"])]


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.2f}"
    return str(x)


def _md_table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(_fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _rich_table(title: str, headers: list[str], rows: list[list[Any]]) -> Table:
    t = Table(title=title)
    for i, h in enumerate(headers):
        t.add_column(h, justify="left" if i == 0 else "right")
    for row in rows:
        t.add_row(*(_fmt(c) for c in row))
    return t


def group_tables(group: Group, records: list[dict[str, Any]]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The report's tables for one group: (title, headers, rows)."""
    players = group[2]
    tables = []
    tables.append(("Total score per bot and seat",
                   ["bot", "seat", "n", "mean", "sd", "min", "q10", "q25", "median", "q75", "q90",
                    "max", "win share"], score_rows(records)))
    rows, means = pad_rows(records)
    tables.append(("Mean points per score-pad row", ["row", *means],
                   [[r, *(means[b][r] for b in means)] for r in rows]))
    ls = length_stats(records)
    length_rows = []
    for name, xs in ls.items():
        if xs:
            length_rows.append([name, len(xs), mean(xs), stdev(xs), min(xs), *quantiles(xs, (0.5,)), max(xs)])
    tables.append(("Game length", ["count", "games", "mean", "sd", "min", "median", "max"], length_rows))
    if players > 1:
        bots = sorted(seat_counts(records, players))
        tables.append((seat_table_title(records, players),
                       ["seat", "games", "win share", "ci95 low", "ci95 high", "mean score",
                        *(f"{b}: win share (games)" for b in bots)],
                       seat_advantage(records, players)))
    times = decision_times(records)
    if times:
        tables.append(("Decision time", ["bot", "mean s/decision", "longest s"],
                       [[b, f"{m:.4f}", f"{mx:.3f}"] for b, (m, mx) in times.items()]))
    return tables


def save_figure(fig: Any, path: Path, dpi: int) -> Path:
    """Lay out a matplotlib figure, write it to ``path`` as PNG at ``dpi`` and free it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def row_bars(path: Path, rows: list[str], means: dict[str, dict[str, float]], title: str,
             ylabel: str, figsize: tuple[float, float] = (8, 4), fontsize: int = 8,
             legend_size: int = 8, dpi: int = 90) -> None:
    """A grouped bar chart of mean points per score-pad row, one bar group per row and one bar
    per series (bot or variant/bot), saved as PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    width = 0.8 / max(1, len(means))
    for i, (name, m) in enumerate(means.items()):
        ax.bar([x + i * width for x in range(len(rows))], [m.get(r, 0.0) for r in rows], width,
               label=name)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(rows))])
    ax.set_xticklabels(rows, rotation=45, ha="right", fontsize=fontsize)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=legend_size)
    save_figure(fig, path, dpi)


def plot_group(group: Group, records: list[dict[str, Any]], out: Path) -> list[Path]:
    """Score distribution per bot, per-row contributions, game-length histogram (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    slug = _slug(group)
    label = _label(group)
    files = []
    by_bot: dict[str, list[float]] = defaultdict(list)
    for rec in records:
        for seat, spec in enumerate(_bots(rec)):
            by_bot[spec].append(float(rec["scores"][seat]["total"]))
    fig, ax = plt.subplots(figsize=(7, 4))
    for spec, xs in by_bot.items():
        ax.hist(xs, bins=min(30, max(5, len(set(xs)))), alpha=0.55, label=spec)
    ax.set_xlabel("total score")
    ax.set_ylabel("seat-games")
    ax.set_title(f"Score distribution: {label}", fontsize=10)
    ax.legend(fontsize=8)
    files.append(save_figure(fig, out / f"{slug}-scores.png", 90))

    rows, means = pad_rows(records)
    files.append(out / f"{slug}-rows.png")
    row_bars(files[-1], rows, means, f"Score-pad rows: {label}", "mean points")

    ls = length_stats(records)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist(ls["decisions"] or ls["moves"], bins=20, color="tab:gray")
    ax.set_xlabel("seat decisions per game" if ls["decisions"] else "moves per game")
    ax.set_ylabel("games")
    ax.set_title(f"Game length: {label}", fontsize=10)
    files.append(save_figure(fig, out / f"{slug}-length.png", 90))
    return files


def build_report(records: list[dict[str, Any]], out: Path | None, console: Console | None = None,
                 plots: bool = True, source: str = "") -> str:
    """Print the tables, and with ``out`` write ``out/report.md`` and the plots. Returns the
    Markdown."""
    md = [f"# Simulation report{f': {source}' if source else ''}", ""]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for group, recs in group_records(records).items():
        label = _label(group)
        md += [f"## {label}", "", f"{len(recs)} games.", ""]
        if console is not None:
            console.print(f"\n[bold]== {label}: {len(recs)} games ==[/]")
        for title, headers, rows in group_tables(group, recs):
            md += [f"### {title}", "", _md_table(headers, rows), ""]
            if console is not None:
                console.print(_rich_table(title, headers, rows))
        if plots and out is not None:
            for f in plot_group(group, recs, out):
                md += [f"![{f.stem}]({f.name})", ""]
    text = "\n".join(md)
    if out is not None:
        (out / "report.md").write_text(text, encoding="utf-8")
        if console is not None:
            console.print(f"report written to {out / 'report.md'}")
    return text
