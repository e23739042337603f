"""Pergola solo (P10): the ten challenges, the neighbours' printed results, the 1000 club."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.games.pergola import scoring as sc

if TYPE_CHECKING:
    from meeple.games.pergola.rules import Garden, PergolaState

THOUSAND = 1000
FREE_GAME = 10


@dataclass(frozen=True)
class Challenge:
    number: int
    title: str
    goal: str
    przemek: int
    golab: int


CHALLENGES: tuple[Challenge, ...] = (
    Challenge(1, "A ladybug on each magnolia level",
              "at least 1 ladybug on each of at least 3 magnolia levels", 102, 100),
    Challenge(2, "Use 4 lanterns", "use at least 4 lanterns during the game", 99, 103),
    Challenge(3, "At least 4 insects of each type",
              "at least 4 ladybugs, 4 bees and 4 butterflies in the garden", 102, 102),
    Challenge(4, "At least 5 points from a cascade bonus",
              "a waterdrop at the bottom and at least 5 points from a chosen bonus", 104, 105),
    Challenge(5, "At least 5 points for a honey pot",
              "at least 5 points from one filled honey pot", 106, 102),
    Challenge(6, "At least 4 flowers full of bees",
              "at least 4 lavender flowers or buttercups full of bees", 107, 103),
    Challenge(7, "At least 2 butterflies worth 3 points",
              "at least 2 butterflies on hollyhocks worth 3 points each", 105, 106),
    Challenge(8, "A set of 5 different leaves", "1 leaf of each of the 5 colours", 98, 101),
    Challenge(9, "At least 4 dragonflies", "at least 4 dragonflies of any size", 101, 101),
    Challenge(10, "Free game", "a standard game without any additional goal", 105, 104),
)


def _ladybug_levels(g: Garden, n_colours: int) -> bool:
    """Challenge 1: at least 1 ladybug on each of at least 3 magnolia levels."""
    return sum(1 for n in g.lady if n) >= 3


def _four_lanterns(g: Garden, n_colours: int) -> bool:
    """Challenge 2: at least 4 lanterns used."""
    return g.lanterns_used >= 4


def _four_of_each(g: Garden, n_colours: int) -> bool:
    """Challenge 3: at least 4 ladybugs, 4 bees and 4 butterflies anywhere in the garden."""
    return min(g.butterflies(), g.ladybugs(), g.bees()) >= 4


def _best_bonus(g: Garden) -> int:
    """What the best cascade bonus taken is worth now, 0 without one."""
    return max((sc.bonus_value(b, g.butterflies(), g.ladybugs(), g.bees(), g.dragonflies(),
                               len(g.pots)) for b in g.bonuses), default=0)


def _best_pot(g: Garden) -> int:
    """What the best filled honey pot is worth now, 0 without one."""
    lanterns = sum(g.lanterns) + g.lanterns_used
    return max((sc.pot_value(p, g.butterflies(), len(g.leaves), g.ladybugs(), lanterns)
                for p in g.pots), default=0)


def _cascade_five(g: Garden, n_colours: int) -> bool:
    """Challenge 4: a drop at the bottom and at least 5 points from one chosen bonus."""
    return _best_bonus(g) >= 5


def _pot_five(g: Garden, n_colours: int) -> bool:
    """Challenge 5: at least 5 points from one filled honey pot."""
    return _best_pot(g) >= 5


def _four_full_flowers(g: Garden, n_colours: int) -> bool:
    """Challenge 6: at least 4 lavender flowers or buttercups full of bees."""
    return sum(g.full_flowers()) >= 4


def _two_top_butterflies(g: Garden, n_colours: int) -> bool:
    """Challenge 7: at least 2 butterflies worth 3 points (level 4 or higher)."""
    return sum(g.bfly[3:]) >= 2


def _five_leaf_colours(g: Garden, n_colours: int) -> bool:
    """Challenge 8: one leaf of each of the 5 colours (checked by the state's leaf data)."""
    return n_colours >= 5


def _four_dragonflies(g: Garden, n_colours: int) -> bool:
    """Challenge 9: at least 4 dragonflies of any size."""
    return g.dragonflies() >= 4


def _free_game(g: Garden, n_colours: int) -> bool:
    """Challenge 10: no extra goal."""
    return True


CHECKS: dict[int, Callable[[Garden, int], bool]] = {
    1: _ladybug_levels, 2: _four_lanterns, 3: _four_of_each, 4: _cascade_five, 5: _pot_five,
    6: _four_full_flowers, 7: _two_top_butterflies, 8: _five_leaf_colours, 9: _four_dragonflies,
    10: _free_game,
}


def challenge_met(state: PergolaState, number: int, seat: int = 0) -> bool:
    g = state.gardens[seat]
    colours = len({state.c.leaf_colour[i] for i in g.leaves})
    return CHECKS[number](g, colours)


def challenge_report(state: PergolaState) -> dict[str, Any]:
    """The solo result: score, challenge met or not, and the neighbours' printed results."""
    score = state.scores()[0].total
    number = state.challenge or FREE_GAME
    ch = CHALLENGES[number - 1]
    met = challenge_met(state, number)
    return {
        "challenge": number, "title": ch.title, "goal": ch.goal, "met": met,
        "over": state.is_over, "score": score,
        "recorded_as": number if met else FREE_GAME,
        "przemek": ch.przemek, "golab": ch.golab,
        "beats_neighbours": met and score > max(ch.przemek, ch.golab),
    }


def _of(n: int, need: int, unit: str = "") -> str:
    """``n`` against what a challenge needs: "2 of 3", or "5 (4 needed)" once past it."""
    return f"{n} of {need}{unit}" if n <= need else f"{n}{unit} ({need} needed)"


def _ladybug_levels_progress(state: PergolaState, g: Garden) -> str:
    return f"{_of(sum(1 for n in g.lady if n), 3)} magnolia levels with a ladybug"


def _lanterns_progress(state: PergolaState, g: Garden) -> str:
    return f"{_of(g.lanterns_used, 4)} lanterns used ({sum(g.lanterns)} unused)"


def _four_of_each_progress(state: PergolaState, g: Garden) -> str:
    return (f"butterflies {_of(g.butterflies(), 4)}, ladybugs {_of(g.ladybugs(), 4)}, "
            f"bees {_of(g.bees(), 4)}")


def _cascade_progress(state: PergolaState, g: Garden) -> str:
    if not g.bonuses:
        return "no waterdrop at the bottom of the cascade"
    return f"best cascade bonus taken is worth {_of(_best_bonus(g), 5, ' points')}"


def _pot_progress(state: PergolaState, g: Garden) -> str:
    if not g.pots:
        return "no honey pot filled"
    return f"best filled honey pot is worth {_of(_best_pot(g), 5, ' points')}"


def _full_flowers_progress(state: PergolaState, g: Garden) -> str:
    return f"{_of(sum(g.full_flowers()), 4)} flowers full of bees"


def _top_butterflies_progress(state: PergolaState, g: Garden) -> str:
    return (f"{_of(sum(g.bfly[3:]), 2)} butterflies on hollyhock level 4 or higher "
            f"(tallest hollyhock: level {max(g.holly)})")


def _leaf_colours_progress(state: PergolaState, g: Garden) -> str:
    colours = len({state.c.leaf_colour[i] for i in g.leaves})
    return f"{_of(colours, 5)} leaf colours on the birdhouse"


def _dragonflies_progress(state: PergolaState, g: Garden) -> str:
    return f"{_of(g.dragonflies(), 4)} dragonflies"


#: How far a garden is with each challenge, in words (beside :data:`CHECKS`).
PROGRESS: dict[int, Callable[[PergolaState, Garden], str]] = {
    1: _ladybug_levels_progress, 2: _lanterns_progress, 3: _four_of_each_progress,
    4: _cascade_progress, 5: _pot_progress, 6: _full_flowers_progress,
    7: _top_butterflies_progress, 8: _leaf_colours_progress, 9: _dragonflies_progress,
    10: lambda state, g: "no extra goal",
}


def challenge_progress(state: PergolaState, seat: int = 0) -> str:
    """How far the solo player is with the chosen challenge (P10), in words: the count the
    challenge checks against the count it needs ("2 of 3 magnolia levels with a ladybug")."""
    return PROGRESS[state.challenge or FREE_GAME](state, state.gardens[seat])


def thousand_club(results: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The 1000 club over a player's finished solo games.

    Each result is a :func:`challenge_report` dict or a finished solo game record (with
    ``variant.challenge``, ``scores`` and ``challenge_met`` / ``met``). A failed challenge is
    recorded in the Free game space (as the rulebook says); the best score in each space counts.
    The club needs all 10 spaces filled and a total of at least 1000.
    """
    best: dict[int, int] = {}
    for r in results:
        if isinstance(r.get("challenge"), Mapping):  # a finished solo record
            r = r["challenge"]
        if "recorded_as" in r:
            space, score = int(r["recorded_as"]), int(r["score"])
        else:
            number = int((r.get("variant") or {}).get("challenge") or FREE_GAME)
            met = bool(r.get("challenge_met", r.get("met", number == FREE_GAME)))
            space = number if met else FREE_GAME
            score = int(r["scores"][0]["total"]) if "scores" in r else int(r["score"])
        best[space] = max(best.get(space, score), score)
    total = sum(best.values())
    missing = [n for n in range(1, 11) if n not in best]
    return {
        "best": dict(sorted(best.items())), "total": total, "missing": missing,
        "all_challenges": not missing, "member": not missing and total >= THOUSAND,
        "weakest": sorted(best, key=lambda n: best[n])[:3],
    }


def achievement_table(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A player's achievement table (``GAME.solo_table``) over their finished solo games:
    each a :func:`challenge_report` with ``table`` (an id, or None for a private table) and
    ``finished`` (ISO time) added. The ten spaces with the best score in each and the table
    of the first game that reached it, the total, the spaces still missing and the 1000 club
    (a failed challenge counts in the Free game space)."""
    club = thousand_club(games)
    best_table: dict[int, str | None] = {}
    for g in sorted(games, key=lambda g: str(g["finished"])):  # the first to reach the best
        space = g["recorded_as"]
        if g["score"] == club["best"].get(space) and space not in best_table:
            best_table[space] = g.get("table")
    spaces = [{"number": ch.number, "title": ch.title, "goal": ch.goal,
               "przemek": ch.przemek, "golab": ch.golab,
               "best": club["best"].get(ch.number), "table": best_table.get(ch.number)}
              for ch in CHALLENGES]
    return {"games": [{k: g[k] for k in ("table", "finished", "challenge", "met", "score",
                                         "recorded_as")} for g in games],
            "spaces": spaces, "total": club["total"], "missing": club["missing"],
            "member": club["member"], "thousand": THOUSAND}
