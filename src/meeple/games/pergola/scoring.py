"""Pergola scoring as pure functions over a player's garden data (printed values).

Each function scores one row of the score pad from plain numbers, so the rulebook's worked
examples can be built directly in tests. ``ROWS`` is the score pad order.
"""

from __future__ import annotations

from collections.abc import Sequence

ROWS = (
    "hollyhocks", "butterflies", "magnolias", "ladybugs", "buttercups", "bees",
    "lavender leaves", "dragonflies", "honey pots", "waterdrops", "leaf colours",
)

HOLLYHOCK_SET = {0: 0, 1: 1, 2: 3, 3: 6}
BEES_SMALL = 2  # a full small buttercup (1 bee)
BEES_LARGE = 4  # a full large buttercup (2 bees)
BEES_LAVENDER = 8  # a full lavender flower (3 bees)
LAVENDER_LEAF = 2
DRAGONFLY = {"small": 1, "medium": 3, "large": 5}
BUTTERCUP_PAIR = 3
POTS = ("butterflies", "leaves", "ladybugs", "lanterns")
BONUSES = ("sets", "dragonflies", "honey")


def score_hollyhocks(heights: Sequence[int]) -> int:
    """Hollyhock sets: each row (level) of flowers in different colours: 3 -> 6, 2 -> 3, 1 -> 1."""
    # the levels below the i-th tallest column (tallest first) and above the next one hold
    # i + 1 colours
    tall = sorted(heights, reverse=True)
    total = 0
    for i, h in enumerate(tall):
        below = tall[i + 1] if i + 1 < len(tall) else 0
        if h > below:
            total += (h - below) * HOLLYHOCK_SET[i + 1]
    return total


def butterfly_value(level: int) -> int:
    """A butterfly on a hollyhock flower of ``level`` (1-based): 1; 2-3: 2; 4+: 3."""
    return 1 if level <= 1 else 2 if level <= 3 else 3


def score_butterflies(levels: Sequence[int]) -> int:
    """``levels``: the level of each butterfly sitting on a hollyhock (flying ones score 0)."""
    return sum(butterfly_value(lv) for lv in levels)


def magnolia_value(level: int) -> int:
    """A magnolia piece on ``level``: levels 1-3 give 1, level 4 gives 2, level 5+ gives 3."""
    return 1 if level <= 3 else 2 if level == 4 else 3


def score_magnolias(per_level: Sequence[int]) -> int:
    """``per_level[i]``: magnolia pieces on level i+1."""
    return sum(n * magnolia_value(i + 1) for i, n in enumerate(per_level) if n)


def ladybug_value(count_on_level: int) -> int:
    """Each ladybug on a level with n ladybugs: 1 if n = 1, 2 if n = 2, 3 if n >= 3."""
    return min(count_on_level, 3)


def score_ladybugs(per_level: Sequence[int]) -> int:
    """``per_level[i]``: ladybugs on magnolias of level i+1 (flying ones score 0)."""
    return sum(n * ladybug_value(n) for n in per_level if n)


def score_buttercups(small: int, large: int) -> int:
    """Each pair of buttercups of different sizes: 3 points, bees or not."""
    return BUTTERCUP_PAIR * min(small, large)


def score_bees(full_small: int, full_large: int, full_lavender: int) -> int:
    """Only fully occupied flowers score: small buttercup 2, large buttercup 4, lavender 8."""
    return BEES_SMALL * full_small + BEES_LARGE * full_large + BEES_LAVENDER * full_lavender


def score_lavender_leaves(leaves: int) -> int:
    return LAVENDER_LEAF * leaves


def score_dragonflies(small: int, medium: int, large: int) -> int:
    return DRAGONFLY["small"] * small + DRAGONFLY["medium"] * medium + DRAGONFLY["large"] * large


def pot_value(pot: str, butterflies: int, leaves: int, ladybugs: int, lanterns: int) -> int:
    """A filled honey pot: 1 per butterfly, 1 per 2 leaves, 1 per ladybug, 1 per lantern."""
    if pot == "butterflies":
        return butterflies
    if pot == "leaves":
        return leaves // 2
    if pot == "ladybugs":
        return ladybugs
    if pot == "lanterns":
        return lanterns
    raise ValueError(f"unknown honey pot {pot!r}; pots: {', '.join(POTS)}")


def score_honey_pots(pots: Sequence[str], butterflies: int, leaves: int, ladybugs: int,
                     lanterns: int) -> int:
    return sum(pot_value(p, butterflies, leaves, ladybugs, lanterns) for p in pots)


def bonus_value(bonus: str, butterflies: int, ladybugs: int, bees: int, dragonflies: int,
                full_pots: int) -> int:
    """A cascade bonus: 1 per butterfly+ladybug+bee set, 1 per dragonfly, 2 per full pot."""
    if bonus == "sets":
        return min(butterflies, ladybugs, bees)
    if bonus == "dragonflies":
        return dragonflies
    if bonus == "honey":
        return 2 * full_pots
    raise ValueError(f"unknown cascade bonus {bonus!r}; bonuses: {', '.join(BONUSES)}")


def score_waterdrops(bonuses: Sequence[str], butterflies: int, ladybugs: int, bees: int,
                     dragonflies: int, full_pots: int) -> int:
    return sum(bonus_value(b, butterflies, ladybugs, bees, dragonflies, full_pots)
               for b in bonuses)


def score_leaf_colours(colours: Sequence[str]) -> int:
    """Each different leaf colour on the birdhouse: 1 point."""
    return len(set(colours))
