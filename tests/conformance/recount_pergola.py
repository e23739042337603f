"""Independent recount of Pergola final scores from the raw garden data (rulebook pages).

Written apart from ``meeple.games.pergola.scoring``: it reads what each garden holds and
rescores every category from the rulebook text.
"""

from __future__ import annotations

from typing import Any


def _garden_points(g: Any, leaf_colours: list[str]) -> int:
    pts = 0
    # hollyhocks: rows across the colour columns
    for level in range(1, 40):
        n = sum(1 for h in g.holly if h >= level)
        pts += [0, 1, 3, 6][n]
    # butterflies on hollyhocks by level
    for i, n in enumerate(g.bfly):
        level = i + 1
        pts += n * (1 if level == 1 else 2 if level in (2, 3) else 3)
    # magnolias by level
    for i, n in enumerate(g.mag):
        level = i + 1
        pts += n * (1 if level <= 3 else 2 if level == 4 else 3)
    # ladybugs: value by number on the same level
    for n in g.lady:
        pts += n * (0 if n == 0 else 1 if n == 1 else 2 if n == 2 else 3)
    smalls = [b for s, b in zip(g.cups, g.cup_bees, strict=True) if s == 1]
    larges = [b for s, b in zip(g.cups, g.cup_bees, strict=True) if s == 2]
    pts += 3 * min(len(smalls), len(larges))
    pts += 2 * sum(1 for b in smalls if b == 1) + 4 * sum(1 for b in larges if b == 2)
    pts += 8 * sum(1 for b in g.flowers if b == 3)
    pts += 2 * g.lav_leaves
    pts += g.df_small + 3 * g.df_medium + 5 * g.df_large
    butterflies = sum(g.bfly) + g.bfly_fly
    ladybugs = sum(g.lady) + g.lady_fly
    bees = sum(g.cup_bees) + sum(g.flowers) + g.bees_fly
    lanterns = sum(g.lanterns) + g.lanterns_used
    for pot in g.pots:
        pts += {"butterflies": butterflies, "leaves": len(g.leaves) // 2,
                "ladybugs": ladybugs, "lanterns": lanterns}[pot]
    dragonflies = g.df_small + g.df_medium + g.df_large
    for bonus in g.bonuses:
        pts += {"sets": min(butterflies, ladybugs, bees), "dragonflies": dragonflies,
                "honey": 2 * len(g.pots)}[bonus]
    pts += len({leaf_colours[i] for i in g.leaves})
    return pts


def recount(state: Any) -> list[int]:
    colours = [leaf["colour"] for leaf in state.sheet_data()["leaves"]["leaf"]]
    return [_garden_points(g, colours) for g in state.gardens]
