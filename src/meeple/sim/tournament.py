"""Tournaments: the same seeds played with the seats rotated, so every bot sits in every seat
with the same dice; win rates with 95 % Wilson intervals and mean scores.

With more than two seats a bot's win share is compared with the fair share ``1/seats``, and the
**head-to-head** share says how often one bot finishes ahead of another bot spec in the same
game (:func:`ahead_share`): this is what "A beats B" means at 3-4 seats (docs/strength.md).
Each entrant's decision times come from the records' ``timings``: seconds spent per game and
the longest single decision.

A solo variant (one that takes exactly one player, such as Pergola's challenges) has no seats
to rotate: there each bot plays every seed alone (:func:`solo_tournament`), a bot "wins" a
seed with the best score on it (ties share), and the head-to-head share is how often one bot
scored more than another on the same seed (ties half), the reading docs/strength.md uses."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

import meeple
from meeple.sim.runner import JobSpec, run_job, validate_job
from meeple.sim.stats import mean, quantiles, stdev, wilson, win_share


def _entrant_row(name: str, spec: str, wins: float, games: int, scores: list[float],
                 thinking: list[float], longest: list[float]) -> dict[str, Any]:
    """One entrant's row of a tournament's results: wins over games with the 95 % interval,
    score mean and spread, thinking time per game and its longest decision."""
    lo, hi = wilson(wins, games)
    return {
        "bot": name, "spec": spec, "games": games, "wins": wins, "win_rate": wins / games,
        "ci95": [lo, hi], "mean_score": mean(scores), "score_sd": stdev(scores),
        "seconds_per_game": mean(thinking),
        "longest_decision_median": quantiles(longest, (0.5,))[0] if longest else None,
        "longest_decision_max": max(longest) if longest else None,
    }


def _pair_row(bot: str, opponent: str, values: list[float]) -> dict[str, Any]:
    """One head-to-head row: the mean share over games with its 95 % interval."""
    lo, hi = wilson(sum(values), len(values))
    return {"bot": bot, "opponent": opponent, "games": len(values), "share": mean(values),
            "ci95": [lo, hi]}


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


@dataclass(frozen=True)
class Runs:
    """Where a tournament's games run and what is done with each record."""

    workers: int = 1
    cluster: str | None = None
    records: Path | None = None
    on_record: Callable[[dict[str, Any]], None] | None = None

    def play(self, job: JobSpec) -> Iterator[dict[str, Any]]:
        """The records of ``job``'s games, as they finish."""
        yield from run_job(job, out=self.records, workers=self.workers, cluster=self.cluster,
                           on_record=self.on_record)


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
    """Play seeds ``seed .. seed+n-1`` once per rotation of the seats (k bots, k rotations); in
    a solo variant with several bots, each plays the seeds alone (:func:`solo_tournament`).
    ``workers``/``cluster``: where the games run; ``records``: a file to keep them in;
    ``on_record``: called with each finished game."""
    k = len(specs)
    runs = Runs(workers=workers, cluster=cluster, records=records, on_record=on_record)
    if k > 1 and is_solo(game, variant):
        return solo_tournament(game, variant, specs, n, seed, runs)
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
        for rec in runs.play(job):
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
    rows = [_entrant_row(names[j], specs[j], sum(shares[j]), len(shares[j]), scores[j],
                         thinking[j], longest[j]) for j in range(k)]
    h2h = [_pair_row(a, b, values) for (a, b), values in sorted(pairs.items())]
    return {
        "game": game, "variant": {k2: v for k2, v in variant.items()}, "players": k,
        "games_per_rotation": n, "seed": seed, "mean_moves": mean(lengths), "results": rows,
        "head_to_head": h2h,
    }


def is_solo(game: str, variant: dict[str, Any]) -> bool:
    """Whether ``variant`` of ``game`` takes exactly one player (a solo variant)."""
    return meeple.game_info(game).player_range(variant) == range(1, 2)


def solo_best_shares(totals: Sequence[float]) -> list[float]:
    """Per entrant, its share of one seed's "win" in a solo tournament: 1/t for each of the t
    entrants with the best score on that seed, else 0."""
    best = max(totals)
    tied = sum(1 for t in totals if t == best)
    return [1.0 / tied if t == best else 0.0 for t in totals]


def higher_score_share(a: float, b: float) -> float:
    """1 if ``a`` is the higher score, 0 if ``b`` is, 1/2 if level: one seed of a solo head
    to head."""
    return 1.0 if a > b else 0.0 if a < b else 0.5


def solo_tournament(game: str, variant: dict[str, Any], specs: Sequence[str], n: int,
                    seed: int, runs: Runs) -> dict[str, Any]:
    """Each bot plays seeds ``seed .. seed+n-1`` of a solo variant alone (the same deals for
    every bot). Per bot: the share of seeds where it had the best score (ties share) against
    the fair ``1/k``, mean score, how often it met the variant's challenge (where records say),
    and decision times; per ordered pair of bots: how often the first scored more on the same
    seed (ties half)."""
    k = len(specs)
    names = labels(specs)
    jobs = [JobSpec(game=game, bots=(spec,), n=n, seed=seed, options=variant) for spec in specs]
    for job in jobs:  # every bot checked before any game is played
        validate_job(job)
    plays = _SoloPlays(k)
    for j, job in enumerate(jobs):
        for rec in runs.play(job):
            plays.add(j, rec)
    totals = plays.totals
    seeds = sorted(set.intersection(*(set(t) for t in totals)))
    shares = [0.0] * k
    for s in seeds:
        for j, share in enumerate(solo_best_shares([totals[j][s] for j in range(k)])):
            shares[j] += share
    rows = []
    for j in range(k):
        row = _entrant_row(names[j], specs[j], shares[j], len(seeds),
                           [totals[j][s] for s in seeds], plays.thinking[j], plays.longest[j])
        met = plays.met[j]
        row["challenge_met"] = mean([float(m) for m in met]) if met else None
        rows.append(row)
    h2h = [_pair_row(names[a], names[b],
                     [higher_score_share(totals[a][s], totals[b][s]) for s in seeds])
           for a in range(k) for b in range(k) if a != b]
    return {
        "game": game, "variant": dict(variant), "players": 1, "solo": True, "entrants": k,
        "games_per_rotation": n, "seed": seed, "mean_moves": mean(plays.lengths), "results": rows,
        "head_to_head": h2h,
    }


class _SoloPlays:
    """What the records of ``k`` bots' solo games say, per bot: the total by seed, whether
    the challenge was met (where records say), the time thinking and the longest decision;
    and every game's length."""

    def __init__(self, k: int) -> None:
        self.totals: list[dict[int, float]] = [{} for _ in range(k)]
        self.met: list[list[bool]] = [[] for _ in range(k)]
        self.thinking: list[list[float]] = [[] for _ in range(k)]
        self.longest: list[list[float]] = [[] for _ in range(k)]
        self.lengths: list[int] = []

    def add(self, j: int, rec: dict[str, Any]) -> None:
        """The record of a game bot ``j`` played."""
        self.totals[j][rec["seed"]] = rec["scores"][0]["total"]
        if isinstance(rec.get("challenge"), dict) and "met" in rec["challenge"]:
            self.met[j].append(bool(rec["challenge"]["met"]))
        if "timings" in rec:
            self.thinking[j].append(rec["timings"][0]["seconds"])
            self.longest[j].append(rec["timings"][0]["longest"])
        self.lengths.append(len(rec["moves"]))


def tournament_table(res: dict[str, Any]) -> Table:
    variant = ", ".join(f"{k}={v}" for k, v in res["variant"].items()) or "standard"
    solo = bool(res.get("solo"))
    fair = 1 / (res["entrants"] if solo else res["players"])
    title = (f"{res['game']} ({variant}), solo: {res['entrants']} bots each play the same "
             f"{res['games_per_rotation']} seeds" if solo else
             f"{res['game']} ({variant}), {res['players']} seats, "
             f"{res['games_per_rotation']} seeds x {res['players']} rotations")
    table = Table(title=title)
    for col in ("bot", "games", "best score" if solo else "win share", "95% CI", f"vs {fair:.0%}",
                "mean score", "sd", "s/game", "longest decision"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    challenge = any(row.get("challenge_met") is not None for row in res["results"])
    if challenge:
        table.add_column("challenge met", justify="right")
    for row in res["results"]:
        lo, hi = row["ci95"]
        longest = row.get("longest_decision_max")
        cells = [row["bot"], str(row["games"]), f"{row['win_rate']:.1%}",
                 f"{lo:.1%}-{hi:.1%}", _verdict(lo, hi, fair), f"{row['mean_score']:.2f}",
                 f"{row['score_sd']:.2f}", f"{row.get('seconds_per_game', 0.0):.2f}",
                 "-" if longest is None else f"{longest:.2f} s"]
        if challenge:
            rate = row.get("challenge_met")
            cells.append("-" if rate is None else f"{rate:.0%}")
        table.add_row(*cells)
    return table


def head_to_head_table(res: dict[str, Any]) -> Table:
    """How often each bot finishes ahead of each other bot spec (ties half), with 95 % CIs; in
    a solo tournament, how often it scored more on the same seed."""
    table = Table(title="head to head: a higher score than the other bot on the same seed"
                  if res.get("solo") else
                  "head to head: finished ahead of the other bot in the same game")
    for col in ("bot", "opponent", "games", "ahead", "95% CI", "vs 50%"):
        table.add_column(col, justify="left" if col in ("bot", "opponent") else "right")
    for row in res.get("head_to_head", []):
        lo, hi = row["ci95"]
        table.add_row(row["bot"], row["opponent"], str(row["games"]), f"{row['share']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", _verdict(lo, hi, 0.5))
    return table


def _verdict(lo: float, hi: float, fair: float) -> str:
    return "[green]above[/]" if lo > fair else "[red]below[/]" if hi < fair else "overlaps"
