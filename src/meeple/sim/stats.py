"""Small statistics for bot comparisons: Wilson intervals and per-bot summaries."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``successes / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_share(rec: dict[str, Any], seat: int) -> float:
    """1 for a sole win, 1/k when k seats tie for the win (A4), else 0."""
    winners = rec.get("winners") or []
    return 1.0 / len(winners) if seat in winners else 0.0


def quantiles(values: Sequence[float], qs: Iterable[float] = (0.1, 0.25, 0.5, 0.75, 0.9)) -> list[float]:
    """Linear-interpolated quantiles (like numpy's default) of ``values``."""
    xs = sorted(values)
    out = []
    for q in qs:
        if not xs:
            out.append(float("nan"))
            continue
        pos = q * (len(xs) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(xs) - 1)
        out.append(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo))
    return out


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def stdev(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def bot_summary(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per bot spec: games (seat-games), wins (ties count for every tied seat), win share,
    mean score."""
    out: dict[str, dict[str, float]] = {}
    for rec in records:
        scores = rec.get("scores") or []
        winners = rec.get("winners") or []
        for seat, spec in enumerate(rec.get("bots", [])):
            row = out.setdefault(spec, {"games": 0, "wins": 0, "share": 0.0, "score": 0.0})
            row["games"] += 1
            row["wins"] += 1 if seat in winners else 0
            row["share"] += win_share(rec, seat)
            if seat < len(scores):
                row["score"] += scores[seat]["total"]
    for row in out.values():
        row["mean_score"] = row["score"] / row["games"] if row["games"] else float("nan")
    return out
