"""The rating scale people and bots share, and the bots' seeds on it.

A rating is OpenSkill's Plackett-Luce model with the library's own defaults: a skill ``mu``
(25 at the start) and how unsure of it we are, ``sigma`` (25/3 at the start). The number a
player sees is a conservative estimate, ``1500 + 30 * (mu - 3 * sigma)`` rounded
(:func:`shown`): 1500 at the start, rising as the games show what the player can do.

Each named difficulty (``easy``, ``medium``, ``hard``, ``expert``) has a rating per game,
stored as the subject ``bot:<difficulty>``. It starts from a seed that ``meeple
calibrate-bots`` measured in games between the bots (``ratings_seed.json`` beside this module,
docs/ratings.md), and moves with the bot's rated games against people. A difficulty without a
seed in a game (``expert`` until a calibration run includes it) is not on that game's ladder
(:func:`seeded`): no number is shown for it and Play now never seats it; at a rated table a
person chose it for, it starts as a new player does (provisional: nothing is known of it).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from meeple.bots.difficulty import DIFFICULTIES

#: The bots a rated table may seat: the named difficulties (each its game's preset).
RATED_BOTS = DIFFICULTIES
#: A bot's subject in the ratings: ``bot:`` and its difficulty.
BOT_PREFIX = "bot:"
#: The seeds ``meeple calibrate-bots`` wrote.
SEED_FILE = Path(__file__).with_name("ratings_seed.json")
#: The shown number: ``BASE + SCALE * (mu - Z * sigma)``.
BASE, SCALE, Z = 1500, 30, 3


def model() -> PlackettLuce:
    """The rating model: Plackett-Luce with OpenSkill's defaults."""
    return PlackettLuce()


_DEFAULT = model()
#: A new player's skill and uncertainty (the model's defaults).
MU: float = float(_DEFAULT.mu)
SIGMA: float = float(_DEFAULT.sigma)
#: How far beyond the strongest (or weakest) bot's rating a player is said to be above (or
#: below) it rather than at about its level: half the model's performance spread (beta), in
#: rating points.
_HALF_STEP: float = SCALE * float(_DEFAULT.beta) / 2


def shown(mu: float, sigma: float) -> int:
    """The rating a player sees: the conservative estimate ``mu - 3 sigma`` on a scale that
    starts at 1500 (30 points a unit of ``mu``: between two well-known players, 400 points
    apart means the higher wins about 9 games in 10)."""
    return round(BASE + SCALE * (mu - Z * sigma))


#: A rating is provisional (shown with a ``?``) while its uncertainty ``sigma`` is at least
#: this: 5, that is 150 rating points, 60 % of a new player's 25/3. Lichess calls a rating
#: provisional while its deviation is above 110 of a new player's 500; our sigma falls more
#: slowly, so the bound is looser: about 12 two-player games against settled players, fewer
#: at bigger tables. The bots' seeds (sigma at most 2.78) are never provisional.
PROVISIONAL_SIGMA = 5.0


def provisional(sigma: float) -> bool:
    """Whether a rating of this uncertainty is provisional (:data:`PROVISIONAL_SIGMA`): its
    number still moves fast, and players see it with a ``?``."""
    return sigma >= PROVISIONAL_SIGMA


def change_note(before: tuple[float, float], after: tuple[float, float], place: int,
                players: int, gave_up: str | None = None) -> str:
    """Why a rated game changed a rating by what it did, in words, for the seat's tooltip
    (docs/ratings.md, *Why it moved so much*): ``"+103, place 1 of 2. The rating was
    new..."``. ``gave_up``: ``"conceded"`` or ``"left"`` for a seat that forfeited."""
    change = shown(*after) - shown(*before)
    head = f"{'+' if change >= 0 else ''}{change}, place {place} of {players}"
    if gave_up is not None:
        head += (f" ({gave_up}: placed below anyone who played on, the first to give up "
                 "last)")
    head += ". "
    if provisional(before[1]):
        why = ("The rating was new (provisional, shown with ?), so it moves fast; it settles "
               "as more rated games are played.")
    else:
        why = ("An established rating moves little, more when the result is a surprise "
               "(beating a higher-rated player gains more than beating a lower-rated one).")
    if change > 0 and place > 1:
        why += (" It rose although others finished ahead: the shown number is a careful "
                "estimate (skill minus 3 times its uncertainty), and each game makes the "
                "uncertainty smaller.")
    return head + why


def bot_subject(difficulty: str) -> str:
    return BOT_PREFIX + difficulty


def bot_difficulty(subject: str) -> str | None:
    """The difficulty of a bot's subject, None for a person's (an account id)."""
    return subject[len(BOT_PREFIX):] if subject.startswith(BOT_PREFIX) else None


def rated_bot(spec: str | None) -> bool:
    """Whether a bot seat with this spec may sit at a rated table."""
    return spec in RATED_BOTS


@functools.cache
def seeds(path: Path = SEED_FILE) -> dict[str, dict[str, tuple[float, float]]]:
    """The bots' seeds: by game, by difficulty, ``(mu, sigma)``; empty without the file."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {game: {d: (float(r["mu"]), float(r["sigma"]))
                   for d, r in entry.get("bots", {}).items()}
            for game, entry in data.get("games", {}).items()}


def seeded(game: str, difficulty: str) -> bool:
    """Whether ``meeple calibrate-bots`` measured difficulty ``difficulty`` in ``game``: only
    then is it on the game's ladder (shown with a rating, chosen by Play now)."""
    return difficulty in seeds().get(game, {})


def seed_for(game: str, difficulty: str) -> tuple[float, float]:
    """The seed of difficulty ``difficulty`` in ``game`` (a new player's rating if none)."""
    return seeds().get(game, {}).get(difficulty, (MU, SIGMA))


def level(rating: int, bots: Mapping[str, int]) -> str | None:
    """Which bot a player plays like, in words, from their rating and the bots' in the same
    game (by difficulty; shown ratings, so the words agree with the numbers a player sees),
    to follow "you play": ``"at about medium's level"`` for the nearest,
    ``"above hard's level"`` beyond the strongest, ``"below easy's level"`` beneath the
    weakest. None without bots."""
    if not bots:
        return None
    ranked = sorted(bots.items(), key=lambda kv: kv[1])
    weakest, strongest = ranked[0], ranked[-1]
    if rating > strongest[1] + _HALF_STEP:
        return f"above {strongest[0]}'s level"
    if rating < weakest[1] - _HALF_STEP:
        return f"below {weakest[0]}'s level"
    nearest = min(ranked, key=lambda kv: abs(kv[1] - rating))
    return f"at about {nearest[0]}'s level"


__all__ = ["BASE", "BOT_PREFIX", "MU", "PROVISIONAL_SIGMA", "RATED_BOTS", "SCALE", "SEED_FILE",
           "SIGMA", "Z", "bot_difficulty", "bot_subject", "change_note", "level", "model",
           "provisional", "rated_bot", "seed_for", "seeded", "seeds", "shown"]
