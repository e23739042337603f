"""The bots' rating seeds: a round robin between the named difficulties of each
game, rated with OpenSkill as people's games are (``meeple calibrate-bots``).

Every pair of difficulties plays ``games_per_pair`` two-seat games of each game: seeds
``seed, seed+1, ...``, each played twice with the seats swapped (the same dice and draws for
both bots), the variants that take two seats in turn. The games are rated one after another
in that fixed order (pair by pair within a seed) from a new player's rating, so the same
results always give the same seeds; the results themselves depend a little on the machine
(``hard`` thinks within a CPU-time budget).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import meeple
from meeple.bots.ratings import MU, RATED_BOTS, SIGMA, model, shown
from meeple.core.errors import MeepleError
from meeple.sim.runner import play_game

#: What the seed file says it is.
FORMAT = "meeple-bot-ratings/1"
#: The least ``sigma`` a seed keeps: a seed as sure of itself as hundreds of bot games make
#: it would hardly move with people's games, yet bots may play people otherwise than they
#: play each other (a third of a new player's sigma).
SIGMA_FLOOR = SIGMA / 3


@dataclass(frozen=True)
class Pairing:
    """One calibration game: ``game`` on ``variant``, ``bots`` by seat, ``seed``."""

    game: str
    variant: dict[str, Any]
    bots: tuple[str, str]
    seed: int


def two_seat_variants(game: str) -> list[dict[str, Any]]:
    """The standard variants of ``game`` that take two seats."""
    info = meeple.game_info(game)
    found = [dict(v) for v in info.variants if 2 in info.player_range(v)]
    if not found:
        raise MeepleError(f"{info.title} has no variant for two seats to calibrate its bots on")
    return found


def schedule(game: str, games_per_pair: int, seed: int = 0,
             difficulties: Sequence[str] = RATED_BOTS) -> list[Pairing]:
    """The calibration games of ``game``, in the order they are rated: for each seed, each
    pair of difficulties in both seat orders (so ``games_per_pair`` rounds up to even)."""
    if games_per_pair < 2:
        raise MeepleError(f"games per pair must be at least 2 (each seed is played with the "
                          f"seats both ways), not {games_per_pair}")
    variants = two_seat_variants(game)
    pairs = list(itertools.combinations(difficulties, 2))
    out = []
    for k in range((games_per_pair + 1) // 2):
        variant = variants[k % len(variants)]
        for a, b in pairs:
            for bots in ((a, b), (b, a)):
                out.append(Pairing(game, variant, bots, seed + k))
    return out


def play(p: Pairing) -> list[int]:
    """Play one calibration game: each seat's finishing place (1 first, equal places tied,
    as the game's own rules rank them)."""
    rec = play_game(p.game, p.variant, p.bots, p.seed)
    state = meeple.replay(rec)
    return state.places()


@dataclass
class GameCalibration:
    """What one game's round robin found."""

    game: str
    variants: list[dict[str, Any]]
    games: int
    seconds: float
    ratings: dict[str, tuple[float, float]]
    #: per pair "a-b": games, a's wins, b's wins, ties
    results: dict[str, dict[str, int]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "variants": self.variants, "games": self.games, "seconds": round(self.seconds, 1),
            "bots": {d: {"mu": round(mu, 4), "sigma": round(max(sigma, SIGMA_FLOOR), 4),
                         "sigma_measured": round(sigma, 4),
                         "rating": shown(mu, max(sigma, SIGMA_FLOOR))}
                     for d, (mu, sigma) in self.ratings.items()},
            "results": self.results,
        }


def rate(pairings: Sequence[Pairing], places: Sequence[Sequence[int]],
         difficulties: Sequence[str] = RATED_BOTS) -> dict[str, tuple[float, float]]:
    """The difficulties' ``(mu, sigma)`` after the games (rated in order) from a new
    player's rating."""
    m = model()
    now = {d: m.rating(mu=MU, sigma=SIGMA, name=d) for d in difficulties}
    for p, got in zip(pairings, places, strict=True):
        teams = [[now[b]] for b in p.bots]
        rated = m.rate(teams, ranks=[float(x) for x in got])
        for b, team in zip(p.bots, rated, strict=True):
            now[b] = team[0]
    return {d: (float(r.mu), float(r.sigma)) for d, r in now.items()}


def tally(pairings: Sequence[Pairing], places: Sequence[Sequence[int]]
          ) -> dict[str, dict[str, int]]:
    """Wins and ties per pair of difficulties, whatever their seats."""
    out: dict[str, dict[str, int]] = {}
    for p, got in zip(pairings, places, strict=True):
        a, b = sorted(p.bots, key=RATED_BOTS.index)
        row = out.setdefault(f"{a}-{b}", {"games": 0, a: 0, b: 0, "ties": 0})
        row["games"] += 1
        place = dict(zip(p.bots, got, strict=True))
        if place[a] == place[b]:
            row["ties"] += 1
        else:
            row[a if place[a] < place[b] else b] += 1
    return out


def check_difficulties(difficulties: Sequence[str]) -> list[str]:
    """``difficulties`` in the ladder's order, checked: at least two, each a rated difficulty
    and named once (a MeepleError names what is allowed)."""
    unknown = [d for d in difficulties if d not in RATED_BOTS]
    if unknown:
        raise MeepleError(f"unknown difficulty {unknown[0]!r}; difficulties: "
                          f"{', '.join(RATED_BOTS)}")
    if len(set(difficulties)) != len(difficulties):
        raise MeepleError("each difficulty may be named once")
    if len(difficulties) < 2:
        raise MeepleError(f"a round robin needs at least 2 difficulties, not {len(difficulties)}")
    return sorted(difficulties, key=RATED_BOTS.index)


def calibrate(games: Sequence[str], games_per_pair: int, seed: int = 0, workers: int = 1,
              progress: Callable[[str, int, int], None] | None = None,
              difficulties: Sequence[str] = RATED_BOTS) -> list[GameCalibration]:
    """The round robin of ``difficulties`` in every game in ``games`` (``workers`` processes
    play it), rated."""
    difficulties = check_difficulties(difficulties)
    out = []
    for game in games:
        pairings = schedule(game, games_per_pair, seed, difficulties)
        started = time.monotonic()
        places: list[list[int]] = []
        if workers <= 1:
            for p in pairings:
                places.append(play(p))
                if progress is not None:
                    progress(game, len(places), len(pairings))
        else:
            with ProcessPoolExecutor(workers) as pool:
                for got in pool.map(play, pairings):
                    places.append(got)
                    if progress is not None:
                        progress(game, len(places), len(pairings))
        out.append(GameCalibration(
            game=game, variants=two_seat_variants(game), games=len(pairings),
            seconds=time.monotonic() - started, ratings=rate(pairings, places, difficulties),
            results=tally(pairings, places)))
    return out


def seed_file(found: Sequence[GameCalibration], games_per_pair: int, seed: int,
              seconds: float, workers: int, difficulties: Sequence[str] = RATED_BOTS
              ) -> dict[str, Any]:
    """The seed file's data (``ratings_seed.json``)."""
    bots = "" if list(difficulties) == list(RATED_BOTS) else \
        "".join(f" --bot {d}" for d in difficulties)
    return {
        "format": FORMAT,
        "made": datetime.now(UTC).strftime("%Y-%m-%d"),
        "how": (f"meeple calibrate-bots --games-per-pair {games_per_pair} --seed {seed} "
                f"--workers {workers}{bots}"),
        "model": "openskill PlackettLuce, defaults (mu 25, sigma 25/3)",
        "sigma_floor": round(SIGMA_FLOOR, 4),
        "games_per_pair": games_per_pair + games_per_pair % 2,
        "seconds": round(seconds, 1),
        "games": {c.game: c.as_dict() for c in found},
    }


__all__ = ["FORMAT", "SIGMA_FLOOR", "GameCalibration", "Pairing", "calibrate", "check_difficulties",
           "play", "rate",
           "schedule", "seed_file", "tally", "two_seat_variants"]
