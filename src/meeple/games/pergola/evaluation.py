"""Pergola: the score so far plus credit for progress toward points not scored yet.

``pergola_evaluation(state, seat)`` is the game's evaluation for the bots (``BOTS.evaluation``). It reads the
seat's garden (public information: Pergola's view hides nothing already decided) and adds, to
the score-pad total, discounted credit for:

- bee flowers partly or not yet filled (a lavender flower is worth 8 when full, a large buttercup
  4, a small one 2; only full flowers score), and flying bees that a flutter can still place;
- free hollyhock flowers, valued by the level a butterfly would sit on (1 / 2 / 3 points), and
  hollyhock rows one colour short of the next set;
- free magnolia buds (the next piece scores by its level) and free magnolia spots on levels that
  already hold ladybugs (ladybugs score by how many share a level);
- unpaired buttercups, an odd lavender leaf, dragonfly requirements under way, waterdrops on the
  way down the cascade, the next honey pot, unused lanterns (their option value);
- in a solo challenge game, progress toward the chosen challenge (and a bonus once it is met).

Credit shrinks with the seat's turns left (``left``); at the end of the game only the score (and
a met challenge) counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.core.memo import made_once_per
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.rules import Garden, PergolaState, score_garden
from meeple.games.pergola.sheet import BOTTOM, LARGE, REQUIREMENTS, SMALL, Compiled
from meeple.games.pergola.solo import challenge_met

__all__ = ["pergola_evaluation", "turns_left"]

BFLY = (1, 2, 2, 3)  # butterfly value by level index 0, 1, 2, 3+
MAG = (1, 1, 1, 2)  # magnolia piece value by level index 0..3, 3 from index 4 on
REQ_BITS = (1, 2, 4, 8)  # magnolia, hollyhock, buttercup, lavender (REQUIREMENTS order)

# weights (tuned by measurement, see docs/eval-pergola.md)
W_BEES = 0.6
B_EMPTY = 0.1  # share of a flower's value credited while it has no bee yet
W_FLY_BEE = 0.5
W_HOLLY_SLOT = 0.35
W_HOLLY_SET = 0.35
W_MAG_BUD = 0.5
W_LADY = 0.4
W_CUP_PAIR = 0.5
W_LAV_ODD = 0.5
W_DRAGON = 0.25
W_DROP = 0.7
W_POT = 1.0
W_LANTERN = 1.5
W_FLY_OTHER = 0.5
CHALLENGE_BONUS = 20.0
CHALLENGE_PROGRESS = 1.0
C7_TALL = 0.8  # challenge 7: weight of the tallest hollyhock column (per level, up to 4)


#: The points a seat still gains beyond its credit, by turns left (index 0: one turn left):
#: the mean over 23,026 turn starts of 450 two- and three-seat games (greedy and mcts, records of
#: docs/strength.md's runs), fitted by ``tools/fit_pergola_value.py``. It is the same for every
#: turn a seat can play now, so greedy's choices do not change; it makes positions where seats
#: have different numbers of turns left comparable (right after a seat's turn it is one turn
#: behind its opponent, worth about 7 points, which a search comparing margins must not take
#: for a lead).
AHEAD = (6.42, 12.32, 17.87, 25.78, 33.34, 40.79, 48.1, 55.22, 62.48, 69.62, 76.57, 82.97,
         89.03, 94.74, 101.04)


def turns_left(state: PergolaState, seat: int) -> int:
    """Turns ``seat`` still plays (0 at the end of the game)."""
    p = state.players
    done = state.turn // p + (1 if state.turn % p > seat else 0)
    return max(0, state.c.turns - done)


def _lady_gain(n: int) -> int:
    """What one more ladybug adds on a level holding ``n``."""
    return (n + 1) * min(n + 1, 3) - n * min(n, 3)


def pergola_evaluation(state: Any, seat: int) -> float:
    """The seat's score plus discounted credit for progress (see the module docstring)."""
    return _evaluate(state, seat)


#: The credit terms, in the order :func:`credit_terms` returns them, with each one's weight and
#: the time factor it is discounted by (``soon``: can it still happen, min(1, left / 3);
#: ``much``: how much of the game is left, left / turns).
TERMS: tuple[tuple[str, float, str], ...] = (
    ("bees", W_BEES, "soon"),
    ("flying bees", W_FLY_BEE, "soon"),
    ("hollyhock slots", W_HOLLY_SLOT, "much"),
    ("hollyhock sets", W_HOLLY_SET, "much"),
    ("flying butterflies", W_FLY_OTHER, "soon"),
    ("magnolia bud", W_MAG_BUD, "much"),
    ("ladybug spot", W_LADY, "much"),
    ("flying ladybugs", W_FLY_OTHER, "soon"),
    ("buttercup pair", W_CUP_PAIR, "much"),
    ("odd lavender leaf", W_LAV_ODD, "much"),
    ("dragonflies", W_DRAGON, "soon"),
    ("waterdrops", W_DROP, "soon"),
    ("honey pot", W_POT, "soon"),
    ("lanterns", W_LANTERN, "soon"),
)


def _evaluate(state: PergolaState, seat: int) -> float:
    g = state.gardens[seat]
    c = state.c
    total = float(score_garden(g, c.leaf_colour).total)
    left = turns_left(state, seat)
    bonus = 0.0
    if state.challenge and state.solo:
        bonus = _challenge(state, g, left)
    if left <= 0:
        return total + bonus
    soon = min(1.0, left / 3.0)
    much = left / c.turns
    credit = 0.0
    for (_name, weight, factor), term in zip(TERMS, credit_terms(state, g, left), strict=True):
        credit += weight * (soon if factor == "soon" else much) * term
    return total + credit + bonus + AHEAD[min(left, len(AHEAD)) - 1]


def credit_terms(state: PergolaState, g: Garden, left: int) -> list[float]:
    """The raw credit terms of ``g`` with ``left`` turns to go (see :data:`TERMS`)."""
    c = state.c
    bees_value, fly_bees = _bee_terms(g)
    slot_value, set_value, fly_bfly = _hollyhock_terms(g)
    best_bud, best_lady, fly_lady = _magnolia_terms(g)
    small = sum(1 for x in g.cups if x == SMALL)
    large = sum(1 for x in g.cups if x == LARGE)
    # buttercups without a partner of the other size (while spaces are free)
    cup_pair = sc.BUTTERCUP_PAIR * min(abs(small - large), 1) if 0 in g.cups else 0
    # an odd lavender leaf: the next one makes a pair (a flower or a dragonfly)
    lav_odd = 3.0 if g.lav_leaves % 2 else 0.0
    tables = _tables(c)
    dragons = _dragonflies(state, g, tables, (sum(g.mag), sum(g.holly), small + large,
                                               g.lav_leaves))
    drops = _waterdrops(g, tables)
    pot = _honey_pot(c, g, left / c.turns)
    # unused lanterns: each one is an extra insect, drip, jump or action later
    return [bees_value, fly_bees, slot_value, set_value, fly_bfly, float(best_bud),
            float(best_lady), float(fly_lady), float(cup_pair), lav_odd, dragons, drops, pot,
            float(sum(g.lanterns))]


def _bee_terms(g: Garden) -> tuple[float, float]:
    """Bees: the flowers partly or not yet filled (a share of the full flower's points, growing
    with the square of the bees on it), and the flying bees that still have room."""
    bees_value = 0.0
    open_need = 0
    for size, b in zip(g.cups, g.cup_bees, strict=True):
        if size == SMALL:
            if b < 1:
                bees_value += B_EMPTY * sc.BEES_SMALL
                open_need += 1
        elif size == LARGE and b < 2:
            share = b / 2
            bees_value += (B_EMPTY + (1.0 - B_EMPTY) * share * share) * sc.BEES_LARGE
            open_need += 2 - b
    for b in g.flowers:
        if b < 3:
            share = b / 3
            bees_value += (B_EMPTY + (1.0 - B_EMPTY) * share * share) * sc.BEES_LAVENDER
            open_need += 3 - b
    fly_bees = min(g.bees_fly, open_need) * 2.0 if g.bees_fly and open_need else 0.0
    return bees_value, fly_bees


def _hollyhock_terms(g: Garden) -> tuple[float, float, float]:
    """Hollyhocks: the free flowers for butterflies (by level), the rows one colour short of
    the next set, and the flying butterflies that have a free flower to land on."""
    holly = g.holly
    top = max(holly)
    bfly = g.bfly
    slot_value = 0.0
    set_value = 0.0
    for lv in range(top):
        have = (holly[0] > lv) + (holly[1] > lv) + (holly[2] > lv)
        free = have - bfly[lv]
        if free > 0:
            slot_value += free * BFLY[min(lv, 3)]
        if have < 3:
            set_value += sc.HOLLYHOCK_SET[have + 1] - sc.HOLLYHOCK_SET[have]
    fly_bfly = 0.0
    if g.bfly_fly and slot_value:
        best = max((BFLY[min(lv, 3)] for lv in range(top)
                    if (holly[0] > lv) + (holly[1] > lv) + (holly[2] > lv) > bfly[lv]), default=0)
        fly_bfly = best * min(g.bfly_fly, 2)
    return slot_value, set_value, fly_bfly


def _magnolia_terms(g: Garden) -> tuple[int, int, int]:
    """Magnolias: the best free bud (the next piece scores by its level), the best free ladybug
    spot on a level (ladybugs score by how many share one), and the flying ladybugs."""
    mag = g.mag
    buds = g.mag_buds
    best_bud = 0
    for lv in range(len(buds) - 1, -1, -1):
        if buds[lv]:
            best_bud = MAG[min(lv + 1, 3)] if lv + 1 < 4 else 3
            break
    if not mag[0]:
        best_bud = 1
    lady = g.lady
    best_lady = 0
    for lv, n in enumerate(mag):
        if n > lady[lv]:
            gain = _lady_gain(lady[lv])
            if gain > best_lady:
                best_lady = gain
    fly_lady = best_lady * min(g.lady_fly, 2) if g.lady_fly and best_lady else 0
    return best_bud, best_lady, fly_lady


def _dragonflies(state: PergolaState, g: Garden, tables: _Tables,
                 counts: tuple[int, int, int, int]) -> float:
    """Dragonflies: the requirements under way (``counts``: magnolias, hollyhocks, buttercups,
    lavender leaves) whose stack still holds one, nearer for a frog close to the lily."""
    dragons = 0.0
    for k, si, lily in tables.dragons:
        if g.df_reqs & REQ_BITS[k]:
            continue
        stack = state.stacks[si]
        if not stack:
            continue
        prog = min(1.0, counts[k] / 4.0)
        reach = 1.0 if g.frog < 0 else 1.0 / tables.jumps[g.frog][lily]
        dragons += stack[-1] * prog * prog * reach
    return dragons


def _waterdrops(g: Garden, tables: _Tables) -> float:
    """Waterdrops on the way down the cascade: the best bonus still free at the bottom (and the
    insect taken there), less the further the drop has to go."""
    drops = 0.0
    dfs = g.df_small + g.df_medium + g.df_large
    if len(g.bonuses) < 3:
        bflies = sum(g.bfly) + g.bfly_fly
        ladies = sum(g.lady) + g.lady_fly
        bees = sum(g.cup_bees) + sum(g.flowers) + g.bees_fly
        options = []
        if "sets" not in g.bonuses:
            options.append(min(bflies, ladies, bees) + 1)
        if "dragonflies" not in g.bonuses:
            options.append(dfs + 1)
        if "honey" not in g.bonuses:
            options.append(2 * len(g.pots) + 1)
        best_bonus = max(options) + 1.5  # the insect taken at the bottom
        for d in g.drops:
            if d != BOTTOM:
                drops += best_bonus / (1.0 + tables.drop_steps[d])
    return drops


def _honey_pot(c: Compiled, g: Garden, much: float) -> float:
    """The next honey pot: the best kind still free, times the share of the bees it needs
    already on buttercups (``much``: the share of the game left)."""
    pot = 0.0
    pots = len(g.pots)
    if pots < min(3, len(c.thresholds)):
        on_cups = sum(g.cup_bees)
        need = c.thresholds[pots]
        lanterns = sum(g.lanterns) + g.lanterns_used
        values = []
        if "butterflies" not in g.pots:
            values.append(sum(g.bfly) + g.bfly_fly)
        if "leaves" not in g.pots:
            values.append(len(g.leaves) // 2)
        if "ladybugs" not in g.pots:
            values.append(sum(g.lady) + g.lady_fly)
        if "lanterns" not in g.pots:
            values.append(lanterns)
        if values:
            prog = min(1.0, on_cups / need)
            pot = prog * (max(values) + 2.0 * much)
    return pot


class _Tables:
    """Per data bundle: drips from each stone to the bottom, the dragonfly lilies and frog
    distances between lilies."""

    def __init__(self, c: Compiled) -> None:
        steps: dict[int, int] = {}

        def dist(s: int) -> int:
            if s == BOTTOM:
                return 0
            if s not in steps:
                steps[s] = 1 + min(dist(t) for t in c.stone_to[s])
            return steps[s]

        self.drop_steps = tuple(dist(s) for s in range(len(c.stone_to)))
        self.dragons = tuple((REQUIREMENTS.index(str(c.lily_req[lily])), si, lily)
                             for si, lily in enumerate(c.dragon_lilies))
        n = len(c.lily_adj)
        jumps = []
        for a in range(n):
            d = [n + 1] * n
            d[a] = 0
            todo = [a]
            for x in todo:
                for y in c.lily_adj[x]:
                    if d[y] > d[x] + 1:
                        d[y] = d[x] + 1
                        todo.append(y)
            jumps.append(tuple(max(1, v) for v in d))
        self.jumps = tuple(jumps)


#: The :class:`_Tables` of a compiled bundle, made once per bundle.
_tables: Callable[[Compiled], _Tables] = made_once_per(_Tables)


def _challenge(state: PergolaState, g: Garden, left: int) -> float:
    """Solo: ``CHALLENGE_BONUS`` once the chosen challenge is met; before that (while turns are
    left) a share growing with the square of the progress toward it."""
    number = state.challenge
    if number is None or number == 10:
        return 0.0
    if challenge_met(state, number):
        return CHALLENGE_BONUS
    if left <= 0:
        return 0.0
    prog = _challenge_progress(state, g, number)
    return CHALLENGE_PROGRESS * CHALLENGE_BONUS * prog * prog


def _challenge_progress(state: PergolaState, g: Garden, number: int) -> float:
    """How far the garden is toward solo challenge ``number`` (0 to 1, 1 is not yet met)."""
    progress = _CHALLENGE_PROGRESS.get(number)
    return 0.0 if progress is None else progress(state, g)


def _ladybugs_on_magnolia_levels(state: PergolaState, g: Garden) -> float:
    """Challenge 1: a ladybug on each of 3 magnolia levels (levels need magnolias first)."""
    with_lady = sum(1 for n in g.lady if n)
    levels = sum(1 for n in g.mag if n)
    return min(0.95, (with_lady + 0.5 * min(3, levels)) / 4.5)


def _lanterns_used(state: PergolaState, g: Garden) -> float:
    """Challenge 2: use 4 lanterns."""
    return min(0.95, (g.lanterns_used + 0.6 * sum(g.lanterns)) / 4.0)


def _four_of_each_insect(state: PergolaState, g: Garden) -> float:
    """Challenge 3: 4 butterflies, 4 ladybugs, 4 bees."""
    return (min(4, g.butterflies()) + min(4, g.ladybugs()) + min(4, g.bees())) / 12.0


def _drop_at_bottom_and_bonus(state: PergolaState, g: Garden) -> float:
    """Challenge 4: a drop at the bottom and a bonus worth 5."""
    steps = _tables(state.c).drop_steps
    near = max((1.0 if d == BOTTOM else 1.0 / (1 + steps[d])) for d in g.drops)
    worth = max(min(g.butterflies(), g.ladybugs(), g.bees()), g.dragonflies(),
                2 * len(g.pots))
    return 0.5 * near + 0.5 * min(1.0, worth / 5.0) - 0.05


def _honey_pot_worth_five(state: PergolaState, g: Garden) -> float:
    """Challenge 5: a filled honey pot worth 5."""
    lanterns = sum(g.lanterns) + g.lanterns_used
    worth = max(g.butterflies(), len(g.leaves) // 2, g.ladybugs(), lanterns)
    ready = 1.0 if g.pots else min(1.0, sum(g.cup_bees) / state.c.thresholds[0])
    return 0.5 * ready + 0.5 * min(1.0, worth / 5.0) - 0.05


def _flowers_full_of_bees(state: PergolaState, g: Garden) -> float:
    """Challenge 6: 4 flowers full of bees."""
    full = sum(g.full_flowers())
    part = float(sum(1 for s, b in zip(g.cups, g.cup_bees, strict=True)
                     if s == LARGE and b == 1))
    part += sum(b / 3 for b in g.flowers if b < 3)
    return min(0.95, (full + 0.5 * part) / 4.0)


def _high_butterflies(state: PergolaState, g: Garden) -> float:
    """Challenge 7: 2 butterflies on level 4+."""
    high = sum(g.bfly[3:])
    tall = min(4, max(g.holly))
    return (high + C7_TALL * tall) / (2.0 + 4.0 * C7_TALL)


def _leaf_colours(state: PergolaState, g: Garden) -> float:
    """Challenge 8: 5 leaf colours."""
    colours = len({state.c.leaf_colour[i] for i in g.leaves})
    return colours / 5.0


def _four_dragonflies(state: PergolaState, g: Garden) -> float:
    """Challenge 9: 4 dragonflies."""
    return g.dragonflies() / 4.0


#: the progress toward each solo challenge, by its number
_CHALLENGE_PROGRESS: dict[int, Callable[[PergolaState, Garden], float]] = {
    1: _ladybugs_on_magnolia_levels, 2: _lanterns_used, 3: _four_of_each_insect,
    4: _drop_at_bottom_and_bonus, 5: _honey_pot_worth_five, 6: _flowers_full_of_bees,
    7: _high_butterflies, 8: _leaf_colours, 9: _four_dragonflies,
}

