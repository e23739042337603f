"""Takenokolor: the score so far plus credit for goals under way, discounted by the time left.

The evaluation is sheet driven (it reads the compiled sheet, so user sheets work too). For the
seat it values:

* the exact score-pad total (computed from the bit masks, equal to ``state.scores()``);
* **ladybugs** not yet circled: the ladybug's point plus a bonus (circling ladybugs ends the game,
  T4, and areas with a ladybug are where the big points are), times the share of the ladybug's
  areas already coloured;
* **areas** that score when complete (sun, pond: ``complete`` rows), **bamboo groups** (the group
  sign), **free colourings** earned by completing an area (cloud, 3-panda river), each times the
  share coloured;
* **items** with printed points or free colourings (leaves, fish, river, party favours, dragon)
  not coloured yet: a fraction of their value, less the further up their area they are;
* **products** (shoots x ponds, bamboo x lanterns, bursts x trail): the expected final product
  minus the current one, each factor grown by the items still reachable;
* **shared races**: the sun majority with its lock-out (T6: a ray is worth something only while
  the seat can still finish first) and the first-player numbers (lanterns T7, dragon feet): the
  first number if no one has it and the seat is at least as close as every other seat, the later
  number otherwise.

Every credit is multiplied by the chance of finishing the goal in time: the rounds left are
estimated from the ladybug race (the fewest colourings any other seat needs for the ladybugs
that end the game), and the chance that ``c`` more colourings fit in ``R`` rounds is a binomial
tail. Credits are small next to the points (see ``Params``): they mostly decide between turns of
(nearly) equal points.

Two terms look at the other seats:

* **the markers left** (a shared race within the round): minus ``deny`` x what the seats still
  to play this round can gain at best with the markers the seat leaves them (shared among the
  other seats at 3-4 players);
* **the last round** (a seat has its third ladybug, T4): no more credits, the score plus
  ``end_weight`` x the lead over the best other seat, so a seat ahead likes to end the game and
  one behind does not.

At game end the value is the score. It reads only the public state (Takenokolor has no hidden
information) and never calls ``scores()``; about as costly as one ``scores()`` call.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.core.bits import bit_list
from meeple.core.memo import MadeOncePer, made_once_per
from meeple.games.takenokolor.scoring import (
    majority_points,
    pad_rows,
    printed_points,
    side_value,
)
from meeple.games.takenokolor.sheet import Compiled

INF = 10**6
#: Entries each of a sheet model's memos holds before it is cleared (:meth:`_Model.lefts`,
#: :meth:`_Model.race_colourings`, race costs, the sheet part of the score, each evaluation's
#: own credit and denial memos), shared by every search in
#: the process. All six full take about 16 MB per sheet and process (tracemalloc: 7.0 MB for
#: 42,000 entries on 4-pandas-river at four seats, about 170 bytes each). 0 turns the memos off
#: (the benchmark and the tests compare both ways: the same values).
MEMO_SIZE = 1 << 14

_TOKENS = itertools.count()


@dataclass(frozen=True)
class Params:
    """Weights of :func:`make_evaluation`. The defaults are the best measured against greedy on
    the plain score (``docs/eval-takenokolor.md``): small credits, so that the printed points
    lead and the credits mostly decide between turns of (nearly) equal points."""

    ladybug_bonus: float = 3.0  # value of circling a ladybug beyond its printed point
    free_value: float = 1.5  # one free colouring, in points
    option: float = 0.05  # share of an item's points credited while it is one step away
    decay: float = 0.5  # ... times decay ** (steps - 1) further away
    area_weight: float = 0.1  # weight of area / group / ladybug / race / majority goals
    product_weight: float = 0.1  # weight of the expected product gain
    p_round: float = 0.3  # chance per round of advancing a given goal one step
    rounds_per_step: float = 1.6  # rounds the leader needs per colouring toward their ladybugs
    self_end: bool = False  # count the seat's own ladybug race when estimating the rounds left
    rho: float = 0.0  # > 0: areas valued as investments, each colouring costing rho points
    lookahead: float = 0.0  # weight of the best immediate gain expected next round
    deny: float = 0.6  # weight of what the seats still to play this round can gain
    deny_share: bool = True  # ... divided by the number of other seats (3-4 players)
    end_weight: float = 1.0  # last round: weight of the lead over the best other seat


#: Weights tuned for a shipped sheet (others use ``Params()``).
SHEET_PARAMS: dict[str, Params] = {
    # the sun race (6/4/2 with lock-out) and the 7-point pond reward area goals
    "3-pandas": Params(area_weight=0.5, option=0.1),
}


# ---------------------------------------------------------------- binomial tails
_MAX_R = 120
_TAILS: dict[float, list[list[float]]] = {}


def _tail_table(p: float) -> list[list[float]]:
    """``t[r][c]`` = P(Binomial(r, p) >= c) for r <= _MAX_R, c <= r + 1."""
    t = _TAILS.get(p)
    if t is not None:
        return t
    t = []
    for r in range(_MAX_R + 1):
        pmf = [math.comb(r, k) * p**k * (1 - p) ** (r - k) for k in range(r + 1)]
        row = [0.0] * (r + 2)
        acc = 0.0
        for k in range(r, -1, -1):
            acc += pmf[k]
            row[k] = min(1.0, acc)
        t.append(row)
    _TAILS[p] = t
    return t


# ---------------------------------------------------------------- the sheet model
def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key`` in a memo of at most :data:`MEMO_SIZE` entries."""
    if MEMO_SIZE:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = value


def _last_increments(cs: Compiled) -> list[int]:
    """Per item, what a "last" measure gains with it: its points over the best item below it
    in its area."""
    increment = [0] * cs.n
    for am in cs.area_mask:
        prev = 0
        for i in bit_list(am):
            increment[i] = max(0, cs.item_points[i] - prev)
            prev = max(prev, cs.item_points[i])
    return increment


def _ladybugs_by_area(cs: Compiled) -> tuple[list[list[int]], list[int]]:
    """The ladybugs of a single area (per area: they are part of its completion value) and the
    others (several areas or items), apart."""
    area_lbs: list[list[int]] = [[] for _ in range(len(cs.sheet.areas))]
    multi_lbs: list[int] = []
    for li in range(len(cs.sheet.ladybugs)):
        if len(cs.ladybug_areas[li]) == 1 and not cs.ladybug_items[li]:
            area_lbs[cs.ladybug_areas[li][0]].append(li)
        else:
            multi_lbs.append(li)
    return area_lbs, multi_lbs


def _item_products(cs: Compiled, product_rows: Any) -> list[list[tuple[int, int, str]]]:
    """Per item, the product rows it feeds: (row, side 0/1, op)."""
    item_products: list[list[tuple[int, int, str]]] = [[] for _ in range(cs.n)]
    for r, pair in enumerate(product_rows):
        for side, (op, _, mask) in enumerate(pair):
            for i in bit_list(mask):
                item_products[i].append((r, side, op))
    return item_products


class _Model:
    """What the evaluation needs from a compiled sheet, precomputed once per sheet."""

    def __init__(self, cs: Compiled) -> None:
        sheet = cs.sheet
        self.cs = cs
        self._lefts_memo: dict[tuple[int, int], tuple[int, ...]] = {}
        self._race_memo: dict[tuple[int, int, int, int], int] = {}
        self._race_costs_memo: dict[tuple[int, int], tuple[int, ...]] = {}
        self._sheet_score_memo: dict[int, int] = {}
        #: the evaluations' memos of a seat's own credit, one per evaluation (its token)
        self.credit_memos: dict[int, dict[tuple[int, int, int, float], float]] = {}
        #: ... and of the best gain the markers left offer another seat (``_denial``)
        self.denial_memos: dict[int, dict[tuple[int, ...], float]] = {}
        na = len(sheet.areas)
        self.n_areas = na
        self.area_nsteps = [len(s) for s in cs.area_steps]
        self.item_step = cs.item_step
        self.need = sheet.ladybugs_to_end
        # the score pad's rows, grouped by rule (the game's own scoring code)
        pad = self.pad = pad_rows(cs)
        self.sum_mask = pad.sum_mask  # items whose printed points score as they are (sum rows)
        self.complete_rows = pad.complete_rows
        self.group_rows = pad.group_rows
        self.majority_rows = pad.majority_rows  # mask, places, areas
        self.race_rows = pad.race_rows
        self.product_rows = pad.product_rows
        self.lb_points = pad.ladybug_points
        # increments of "last" measures: points gained over the item below it in its area
        self.increment = _last_increments(cs)
        # free colourings: per item and per area, in number of colourings
        self.item_free = [sum(self._grant_count(g) for g in gs) for gs in cs.item_grants]
        self.area_free = [sum(self._grant_count(g) for g in gs) for gs in cs.area_grants]
        # item goals: items with points in a sum row or a free colouring
        self.item_goals = [i for i in range(cs.n)
                           if (self.sum_mask >> i & 1 and cs.item_points[i]) or self.item_free[i]]
        # per area: the static part of its completion value (complete rows, single-area
        # ladybugs) and its free colourings; ladybugs of several areas or items are apart
        self.area_complete_pts = [0] * na
        for pts, areas in self.complete_rows:
            for ai in areas:
                self.area_complete_pts[ai] += pts
        self.area_lbs, self.multi_lbs = _ladybugs_by_area(cs)
        self.goal_items = [(i, cs.item_area[i], cs.item_step[i], cs.area_sequence[cs.item_area[i]],
                            bool(cs.requires[i])) for i in self.item_goals]
        # per item: the product rows it feeds, (row, side 0/1, op)
        self.item_products = _item_products(cs, self.product_rows)
        self.faces = cs.faces
        # per area, per step: its items
        self.step_items = [[bit_list(sm) for sm in cs.area_steps[ai]] for ai in range(na)]
        self.ladybug_count = len(sheet.ladybugs)
        self.races = list(range(len(sheet.races)))
        # costs from an empty sheet (the denominators of shares)
        self.area_c0 = [self.area_nsteps[ai] for ai in range(na)]
        self.lb_c0 = [self.ladybug_cost(0, 0, li) for li in range(self.ladybug_count)]
        self.race_c0 = [self.race_cost(0, 0, ri) for ri in self.races]

    def _grant_count(self, g: int) -> int:
        grant = self.cs.grants[g]
        if grant.spread == "group":
            sizes = [s for (kind, _), s in self.cs.group_size.items() if kind == grant.target]
            return max(sizes) if sizes else 1
        return grant.count

    # ---------------------------------------------------------- distances
    def left(self, col: int, blocked: int, ai: int) -> int:
        """Colourings still needed to complete area ``ai`` (INF if it is closed to the seat)."""
        cs = self.cs
        am = cs.area_mask[ai]
        m = col & am
        if not cs.area_sequence[ai]:
            done = m.bit_count()
        elif m:
            done = cs.item_step[m.bit_length() - 1] + 1
        else:
            done = 0
        n = self.area_nsteps[ai]
        if done < n and blocked & am & ~col:
            return INF
        return n - done

    def dist(self, col: int, blocked: int, i: int) -> int:
        """Colourings needed until item ``i`` is coloured, itself included (0: coloured,
        INF: it never can be)."""
        bit = 1 << i
        if col & bit:
            return 0
        if blocked & bit:
            return INF
        cs = self.cs
        d = 1
        ai = cs.item_area[i]
        if cs.area_sequence[ai]:
            m = col & cs.area_mask[ai]
            done = cs.item_step[m.bit_length() - 1] + 1 if m else 0
            st = cs.item_step[i]
            if st < done:
                return INF
            d += st - done
        rq = cs.requires[i]
        if rq and not col & rq:
            d += self.dist(col, blocked, rq.bit_length() - 1)
        return d

    def lefts(self, col: int, blocked: int) -> tuple[int, ...]:
        """:meth:`left` of every area. A pure function of the seat's colourings and blocked
        items, remembered (the same few positions come back in every search and every seat's
        evaluation): a bounded memo, cleared when it fills."""
        key = (col, blocked)
        hit = self._lefts_memo.get(key)
        if hit is not None:
            return hit
        cs = self.cs
        seq = cs.area_sequence
        step = cs.item_step
        out = []
        for ai, am in enumerate(cs.area_mask):
            m = col & am
            if not seq[ai]:
                done = m.bit_count()
            elif m:
                done = step[m.bit_length() - 1] + 1
            else:
                done = 0
            n = self.area_nsteps[ai]
            out.append(INF if done < n and blocked & am & ~col else n - done)
        res = tuple(out)
        _remember(self._lefts_memo, key, res)
        return res

    def race_colourings(self, col: int, blocked: int, circled: int, k: int) -> int:
        """The ladybug race: the colourings a seat still needs for the ``k`` cheapest of the
        ladybugs it has not circled (``circled``: their bits), INF or more if it cannot. A
        pure function of its arguments, remembered like :meth:`lefts`."""
        key = (col, blocked, circled, k)
        hit = self._race_memo.get(key)
        if hit is not None:
            return hit
        lq = self.lefts(col, blocked)
        costs = sorted(self.ladybug_cost(col, blocked, li, lq)
                       for li in range(self.ladybug_count) if not circled >> li & 1)
        c = sum(costs[:k])
        _remember(self._race_memo, key, c)
        return c

    def ladybug_cost(self, col: int, blocked: int, li: int,
                     lefts: Sequence[int] | None = None) -> int:
        cs = self.cs
        c = 0
        for ai in cs.ladybug_areas[li]:
            c += lefts[ai] if lefts is not None else self.left(col, blocked, ai)
        m = cs.ladybug_items[li]
        while m:
            low = m & -m
            m ^= low
            c += self.dist(col, blocked, low.bit_length() - 1)
        return min(c, INF)

    def race_cost(self, col: int, blocked: int, ri: int) -> int:
        cs = self.cs
        m = cs.race_mask[ri]
        ds = []
        while m:
            low = m & -m
            m ^= low
            ds.append(self.dist(col, blocked, low.bit_length() - 1))
        if cs.race_all[ri]:
            return min(sum(ds), INF)
        return min(ds)

    def race_costs(self, col: int, blocked: int) -> tuple[int, ...]:
        """:meth:`race_cost` of every race, remembered like :meth:`lefts`."""
        key = (col, blocked)
        hit = self._race_costs_memo.get(key)
        if hit is not None:
            return hit
        res = tuple(self.race_cost(col, blocked, ri) for ri in self.races)
        _remember(self._race_costs_memo, key, res)
        return res

    # ---------------------------------------------------------- the score pad
    def points(self, mask: int) -> int:
        return printed_points(self.cs, mask)

    def measure(self, op: str, areas: Sequence[int], mask: int, col: int) -> int:
        return side_value(self.cs, op, areas, mask, col)

    def score(self, st: Any, p: int) -> int:
        """The seat's score-pad total (the game's scoring, the colour rows remembered)."""
        return self.sheet_score(st.coloured[p]) + self.pad.table_points(
            st.coloured, st.ladybugs[p], st.first[p], st.later[p], p)

    def sheet_score(self, col: int) -> int:
        """The rows of the score pad that read the seat's colourings alone (sums, complete
        areas, bamboo groups, products), remembered like :meth:`lefts`."""
        hit = self._sheet_score_memo.get(col)
        if hit is not None:
            return hit
        total = self.pad.colour_points(col)
        _remember(self._sheet_score_memo, col, total)
        return total

    majority_points = staticmethod(majority_points)


#: The :class:`_Model` of a compiled sheet, made once per sheet.
_model: MadeOncePer[Compiled, _Model] = made_once_per(_Model)


def _p_first(mine: int, others: list[int]) -> float:
    """Chance of getting somewhere before every other seat, from the colourings each needs."""
    best = min(others, default=INF)
    if best >= INF:
        return 1.0
    if mine < best:
        return 0.8
    if mine == best:
        return 0.5
    return 0.2 if mine == best + 1 else 0.05


# ---------------------------------------------------------------- the evaluation
def make_evaluation(params: Params | None = None) -> Callable[[Any, int], float]:
    """A Takenokolor evaluation with the given weights."""
    prm = params or Params()
    tails = _tail_table(prm.p_round)

    rows: dict[float, list[float]] = {}
    token = next(_TOKENS)  # this evaluation's key to its memos in the sheet models

    def row_for(r: float) -> list[float]:
        """P(at least c advances in ``r`` rounds) for every c, interpolated between whole
        rounds (cached: ``r`` takes few values)."""
        r = min(max(r, 0.0), float(_MAX_R))
        lo = int(r)
        frac = r - lo
        a = tails[lo]
        if frac <= 0.0 or lo >= _MAX_R:
            row = list(a)
        else:
            b = tails[lo + 1]
            row = [(a[c] if c < len(a) else 0.0) * (1 - frac) + b[c] * frac for c in range(len(b))]
        if len(rows) > 4096:
            rows.clear()
        return row

    def chance(c: int, r: float) -> float:
        """P(at least ``c`` advances in ``r`` rounds)."""
        if c <= 0:
            return 1.0
        row = rows.get(r)
        if row is None:
            row = rows[r] = row_for(r)
        return row[c] if c < len(row) else 0.0

    def evaluate(state: Any, seat: int) -> float:
        model = _model(state.cs)
        total = float(model.score(state, seat))
        if state.phase == 4:  # OVER
            return total
        col = state.coloured[seat]
        blocked = state.blocked[seat]
        rounds = _rounds_left(model, prm, state, seat)
        if prm.deny:
            total -= prm.deny * _denial(model, prm, state, seat,
                                        model.denial_memos.setdefault(token, {}))
        if rounds <= 0.0:
            return _last_round(total, model, prm, state, seat)
        if rounds >= INF:
            rounds = float(_MAX_R)
        lbs = state.ladybugs[seat]
        crow = rows.get(rounds)
        if crow is None:
            crow = rows[rounds] = row_for(rounds)
        lefts = model.lefts(col, blocked)
        if prm.lookahead:  # reads the items open to the seat: not remembered
            credit = _own_credit(prm, chance, state, seat, model, col, blocked, lbs, rounds, crow,
                                 lefts)
        else:
            memo = model.credit_memos.setdefault(token, {})
            key = (col, blocked, lbs, rounds)
            hit = memo.get(key)
            if hit is None:
                hit = _own_credit(prm, chance, state, seat, model, col, blocked, lbs, rounds, crow,
                                  lefts)
                _remember(memo, key, hit)
            credit = hit
        if model.majority_rows:
            credit = _sun_majority(credit, model, prm.area_weight, state, seat, crow, lefts)
        if model.race_rows:
            credit = _first_player_races(credit, model, prm.area_weight, state, seat, crow)
        return float(total + credit)

    return evaluate


def _rounds_left(model: _Model, prm: Params, state: Any, seat: int) -> float:
    """The rounds left, from the ladybug race (T4): the fewest colourings any other seat (and
    the seat itself with ``self_end``) needs for the ladybugs that end the game, times
    ``rounds_per_step``; 0 in the last round, INF if no seat can end it."""
    players = state.players
    coloured = state.coloured
    blockeds = state.blocked
    need = model.need
    rounds = float(INF)
    for q in range(players):
        have = state.ladybugs[q].bit_count()
        if have >= need:
            rounds = 0.0
            break
        if q == seat and not prm.self_end:
            continue
        c = model.race_colourings(coloured[q], blockeds[q], state.ladybugs[q], need - have)
        if c < INF:
            rounds = min(rounds, prm.rounds_per_step * c)
    return rounds


def _last_round(total: float, model: _Model, prm: Params, state: Any, seat: int) -> float:
    """The last round (a seat has its third ladybug, T4): no more credits, ``total`` plus
    ``end_weight`` x the lead over the best other seat."""
    players = state.players
    if prm.end_weight and players > 1:
        best = max(model.score(state, q) for q in range(players) if q != seat)
        total += prm.end_weight * (model.score(state, seat) - best)
    return total


def _own_credit(prm: Params, chance: Callable[[int, float], float], state: Any, seat: int,
                model: _Model, col: int, blocked: int, lbs: int, rounds: float, crow: list[float],
                lefts: Sequence[int]) -> float:
    """The credit of the seat's own goals under way: its ladybugs, areas, bamboo groups,
    items and products. Without the look-ahead a pure function of its colourings, blocked
    items, ladybugs and the rounds left (remembered by the evaluation)."""
    aw = prm.area_weight
    # ---- ladybugs: the bonus of those circled, credit for those under way
    credit = aw * prm.ladybug_bonus * lbs.bit_count()
    if prm.rho > 0:
        credit += _npv_areas(model, prm, state, seat, rounds, chance)
    credit = _ladybugs_under_way(credit, model, prm, col, blocked, lbs, crow, lefts)
    if prm.rho <= 0:
        if model.complete_rows:
            credit = _complete_rows(credit, model, aw, crow, lefts)
        if prm.free_value:
            credit = _area_free_colourings(credit, model, aw, prm.free_value, crow, lefts)
    if model.group_rows:
        credit = _bamboo_groups(credit, model, aw, crow, lefts)
    if prm.option and prm.rho <= 0:
        credit = _items_under_way(credit, model, prm, col, blocked, crow, lefts)
    if prm.lookahead:
        credit += prm.lookahead * _next_round(model, prm, state, seat, lefts)
    if model.product_rows and prm.product_weight:
        credit = _products(credit, model, prm, col, blocked, rounds, chance)
    return credit


def _ladybugs_under_way(credit: float, model: _Model, prm: Params, col: int, blocked: int,
                        lbs: int, crow: list[float], lefts: Sequence[int]) -> float:
    """``credit`` plus the ladybugs not circled yet (their point and bonus), times the share of
    their areas and items coloured and the chance of finishing them in time (with ``rho``
    only the ladybugs of several areas or items: the others are in the areas' values)."""
    nrow = len(crow)
    aw = prm.area_weight
    lb_value = model.lb_points + prm.ladybug_bonus
    for li in (model.multi_lbs if prm.rho > 0 else range(model.ladybug_count)):
        if lbs >> li & 1:
            continue
        c = model.ladybug_cost(col, blocked, li, lefts)
        if c >= INF:
            continue
        c0 = model.lb_c0[li]
        credit += aw * lb_value * (c0 - c) / c0 * (crow[c] if c < nrow else 0.0)
    return credit


def _complete_rows(credit: float, model: _Model, aw: float, crow: list[float],
                   lefts: Sequence[int]) -> float:
    """``credit`` plus the areas that score when complete (sun, pond), times the share
    coloured and the chance in time."""
    nrow = len(crow)
    for pts, areas in model.complete_rows:
        for ai in areas:
            c = lefts[ai]
            if 0 < c < INF:
                c0 = model.area_c0[ai]
                credit += aw * pts * (c0 - c) / c0 * (crow[c] if c < nrow else 0.0)
    return credit


def _area_free_colourings(credit: float, model: _Model, aw: float, fv: float, crow: list[float],
                          lefts: Sequence[int]) -> float:
    """``credit`` plus the free colourings that completing an area earns (cloud, 3-panda river),
    times the share coloured and the chance in time."""
    nrow = len(crow)
    for ai in range(model.n_areas):
        if model.area_free[ai]:
            c = lefts[ai]
            if 0 < c < INF:
                c0 = model.area_c0[ai]
                ch = crow[c] if c < nrow else 0.0
                credit += aw * fv * model.area_free[ai] * (c0 - c) / c0 * ch
    return credit


def _bamboo_groups(credit: float, model: _Model, aw: float, crow: list[float],
                   lefts: Sequence[int]) -> float:
    """``credit`` plus the bamboo groups (the group sign: every area of the group complete),
    times the share coloured and the chance in time."""
    nrow = len(crow)
    for pts, groups in model.group_rows:
        for g in groups:
            c = 0
            c0 = 0
            for ai in g:
                c += lefts[ai]
                c0 += model.area_c0[ai]
            if 0 < c < INF:
                credit += aw * pts * (c0 - c) / c0 * (crow[c] if c < nrow else 0.0)
    return credit


def _items_under_way(credit: float, model: _Model, prm: Params, col: int, blocked: int,
                     crow: list[float], lefts: Sequence[int]) -> float:
    """``credit`` plus the items with printed points or free colourings not coloured yet
    (leaves, fish, river, party favours, dragon): ``option`` x their value, less by ``decay``
    the further up their area they are, times the chance in time."""
    nrow = len(crow)
    fv = prm.free_value
    opt = prm.option
    pts_ = model.cs.item_points
    sm = model.sum_mask
    dec = prm.decay
    nsteps = model.area_nsteps
    for i, ai, step, seq, req in model.goal_items:
        if col >> i & 1:
            continue
        if req:
            d = model.dist(col, blocked, i)
        elif lefts[ai] >= INF:
            continue
        elif seq:
            d = step - (nsteps[ai] - lefts[ai]) + 1
            if d <= 0:
                continue
        else:
            d = 1
        if d >= INF:
            continue
        v = (pts_[i] if sm >> i & 1 else 0) + fv * model.item_free[i]
        credit += opt * v * dec ** (d - 1) * (crow[d] if d < nrow else 0.0)
    return credit


def _products(credit: float, model: _Model, prm: Params, col: int, blocked: int, rounds: float,
              chance: Callable[[int, float], float]) -> float:
    """``credit`` plus the product rows (shoots x ponds, bamboo x lanterns, bursts x trail): the
    expected final product minus the current one, each factor grown by the items still
    reachable."""
    dec = prm.decay
    for (lop, lar, lm), (rop, rar, rm) in model.product_rows:
        lcur = model.measure(lop, lar, lm, col)
        rcur = model.measure(rop, rar, rm, col)
        lexp = lcur + _expected_gain(model, lop, lm, col, blocked, dec, rounds, chance)
        rexp = rcur + _expected_gain(model, rop, rm, col, blocked, dec, rounds, chance)
        credit += prm.product_weight * (lexp * rexp - lcur * rcur)
    return credit


def _sun_majority(credit: float, model: _Model, aw: float, state: Any, seat: int,
                  crow: list[float], lefts: Sequence[int]) -> float:
    """``credit`` plus the sun majority with its lock-out (T6): a ray is worth something only
    while the seat can still finish first."""
    nrow = len(crow)
    players = state.players
    coloured = state.coloured
    blockeds = state.blocked
    for mask, places, areas in model.majority_rows:
        for ai in areas:
            c = lefts[ai]
            if not 0 < c < INF:
                continue
            others = [model.left(coloured[q], blockeds[q], ai)
                      for q in range(players) if q != seat]
            now = model.majority_points(coloured, mask, places, seat)
            gain = (places[0] - now) * _p_first(c, others)
            c0 = model.area_c0[ai]
            credit += aw * gain * (c0 - c) / c0 * (crow[c] if c < nrow else 0.0)
    return credit


def _first_player_races(credit: float, model: _Model, aw: float, state: Any, seat: int,
                        crow: list[float]) -> float:
    """``credit`` plus the first-player races (lanterns T7, dragon feet): the first number if
    no one has it (times the chance of getting there first), the later number otherwise."""
    nrow = len(crow)
    cs = model.cs
    players = state.players
    coloured = state.coloured
    blockeds = state.blocked
    got = state.first[seat] | state.later[seat]
    mine = model.race_costs(coloured[seat], blockeds[seat])
    theirs = [model.race_costs(coloured[q], blockeds[q]) for q in range(players) if q != seat]
    for ri in model.race_rows:
        if got >> ri & 1:
            continue
        c = mine[ri]
        if c >= INF:
            continue
        if state.claimed >> ri & 1:
            v = float(cs.race_later[ri])
        else:
            others = [costs[ri] for costs in theirs]
            pf = _p_first(c, others)
            v = cs.race_later[ri] + (cs.race_first[ri] - cs.race_later[ri]) * pf
        c0 = model.race_c0[ri]
        share = (c0 - c + 1) / c0 if c0 else 1.0
        credit += aw * v * share * (crow[c] if c < nrow else 0.0)
    return credit


def _item_values(model: _Model, prm: Params, col: int, lbs: int, lefts: Sequence[int],
                 open_: int) -> list[float]:
    """The immediate gain of colouring each item of ``open_`` for a seat with colourings ``col``
    and ladybugs ``lbs``: printed points,
    free colourings, completing an area (its points, free colourings, ladybug) and the product
    rows it raises."""
    cs = model.cs
    fv = prm.free_value
    pts = cs.item_points
    sm = model.sum_mask
    cur: list[tuple[int, int]] = []
    for (lop, lar, lm), (rop, rar, rm) in model.product_rows:
        cur.append((model.measure(lop, lar, lm, col), model.measure(rop, rar, rm, col)))
    lb_value = model.lb_points + prm.ladybug_bonus
    value = [0.0] * cs.n
    rest = open_
    while rest:
        low = rest & -rest
        rest ^= low
        i = low.bit_length() - 1
        v = (pts[i] if sm >> i & 1 else 0) + fv * model.item_free[i]
        ai = cs.item_area[i]
        if lefts[ai] == 1:
            v += model.area_complete_pts[ai] + fv * model.area_free[ai]
            for li in model.area_lbs[ai]:
                if not lbs >> li & 1:
                    v += lb_value
        for r, side, op in model.item_products[i]:
            other = cur[r][1 - side]
            if op == "count":
                v += other
            elif op == "sum":
                v += pts[i] * other
            else:
                v += model.increment[i] * other
        value[i] = v
    return value


def _denial(model: _Model, prm: Params, state: Any, seat: int,
            memo: dict[tuple[int, ...], float] | None = None) -> float:
    """What the seats still to play this round can gain with the markers left: the best
    immediate gain of each (the markers the seat leaves behind are a shared race). A seat's
    best gain is a pure function of its sheet and the items open to it that the markers
    match, remembered in ``memo``."""
    if state.phase != 1 or state.seat == seat:  # not TAKE by another seat in this round
        return 0.0
    cs = model.cs
    players = state.players
    left = state.left
    rolled = state.rolled
    markers = tuple(cs.match[k][rolled[k]] for k in range(4) if left >> k & 1)
    wanted = 0
    for m in markers:
        wanted |= m
    total = 0.0
    for pos in range(state.pos, players):
        q = (state.holder + pos) % players
        if q == seat:
            continue
        open_ = state.avail[q] & wanted
        if not open_:
            continue
        col, blocked, lbs = state.coloured[q], state.blocked[q], state.ladybugs[q]
        key = (col, blocked, lbs, open_)
        best = memo.get(key) if memo is not None else None
        if best is None:  # the items open to it that one of the markers left matches
            value = _item_values(model, prm, col, lbs, model.lefts(col, blocked), open_)
            best = _best_value(value, open_)
            if memo is not None:
                _remember(memo, key, best)
        total += best
    if prm.deny_share and players > 2:
        total /= players - 1
    return total


def _best_value(value: Sequence[float], mask: int) -> float:
    """The largest ``value`` of an item of ``mask`` (0 if none is larger)."""
    best = 0.0
    while mask:
        low = mask & -mask
        mask ^= low
        x = value[low.bit_length() - 1]
        if x > best:
            best = x
    return best


def _next_round(model: _Model, prm: Params, state: Any, seat: int, lefts: Sequence[int]) -> float:
    """A one-round look-ahead: the expected best immediate gain over the four markers next
    round (each marker's symbol random, T1), from the items open to the seat now."""
    cs = model.cs
    open_ = state.avail[seat] & cs.rollable
    value = _item_values(model, prm, state.coloured[seat], state.ladybugs[seat], lefts, open_)
    # per marker: its possible gains, one per face
    dists: list[list[tuple[float, float]]] = []
    for k in range(4):
        row = cs.match[k]
        d = []
        for s_, pr in model.faces:
            d.append((_best_value(value, open_ & row[s_]), pr))
        dists.append(d)
    # E[max over markers] from the product of the markers' distribution functions
    levels = sorted({x for d in dists for x, _ in d})
    expected = 0.0
    prev_cdf = 0.0
    for v in levels:
        cdf = 1.0
        for d in dists:
            cdf *= sum(pr for x, pr in d if x <= v)
        expected += v * (cdf - prev_cdf)
        prev_cdf = cdf
    return expected


def _npv_areas(model: _Model, prm: Params, state: Any, seat: int, rounds: float,
               chance: Callable[[int, float], float]) -> float:
    """Areas as investments: the best stopping point of what the area still pays (its items'
    points and free colourings, then at completion its ladybug, complete-row points and free
    colourings) less ``rho`` per colouring, times the chance of getting there in time."""
    cs = model.cs
    col = state.coloured[seat]
    blocked = state.blocked[seat]
    lbs = state.ladybugs[seat]
    rho = prm.rho
    fv = prm.free_value
    sm = model.sum_mask
    pts = cs.item_points
    free = model.item_free
    lb_value = model.lb_points + prm.ladybug_bonus
    total = 0.0
    for ai in range(model.n_areas):
        am = cs.area_mask[ai]
        m = col & am
        if m == am:
            continue
        if blocked & am & ~col:
            continue
        term = _completion_value(model, ai, fv, lbs, lb_value)
        if cs.area_sequence[ai]:
            steps = model.step_items[ai]
            n = len(steps)
            done = cs.item_step[m.bit_length() - 1] + 1 if m else 0
            acc = 0.0
            best = 0.0
            for k in range(done, n):
                u = 0.0
                for i in steps[k]:
                    v = (pts[i] if sm >> i & 1 else 0) + fv * free[i]
                    if v > u:
                        u = v
                acc += u - rho
                if k == n - 1:
                    acc += term
                if acc > 0:
                    val = acc * chance(k - done + 1, rounds)
                    if val > best:
                        best = val
            total += best
        else:
            rest = am & ~col
            single = 0.0
            whole = term
            c = 0
            while rest:
                low = rest & -rest
                rest ^= low
                i = low.bit_length() - 1
                d = model.dist(col, blocked, i)
                if d >= INF:
                    continue
                v = (pts[i] if sm >> i & 1 else 0) + fv * free[i]
                if v > rho * d:
                    single += (v - rho * d) * chance(d, rounds)
                whole += v
                c += d
            if term and whole > rho * c:
                whole_v = (whole - rho * c) * chance(c, rounds)
                total += max(single, whole_v)
            else:
                total += single
    return total


def _completion_value(model: _Model, ai: int, fv: float, lbs: int, lb_value: float) -> float:
    """What completing area ``ai`` pays: its complete-row points, its free colourings (``fv``
    each) and ``lb_value`` for each of its ladybugs not circled yet (``lbs``)."""
    term = model.area_complete_pts[ai] + fv * model.area_free[ai]
    for li in model.area_lbs[ai]:
        if not lbs >> li & 1:
            term += lb_value
    return term


def _expected_gain(model: _Model, op: str, mask: int, col: int, blocked: int, dec: float,
                   rounds: float, chance: Callable[[int, float], float]) -> float:
    """How much a product's factor may still grow: each reachable item weighted by
    ``dec ** (steps - 1)`` and its chance in time (``last``: the rise over the item below)."""
    cs = model.cs
    m = mask & ~col
    gain = 0.0
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        d = model.dist(col, blocked, i)
        if d >= INF:
            continue
        if op == "count":
            v = 1.0
        elif op == "sum":
            v = float(cs.item_points[i])
        else:
            v = float(model.increment[i])
        if v:
            gain += v * dec ** (d - 1) * chance(d, rounds)
    return gain


_DEFAULT = make_evaluation()
_PER_SHEET = {name: make_evaluation(p) for name, p in SHEET_PARAMS.items()}


def takenokolor_evaluation(state: Any, seat: int) -> float:
    """The registered evaluation: the weights of the state's sheet (``SHEET_PARAMS``) or the
    defaults."""
    fn = _PER_SHEET.get(state.cs.sheet.name, _DEFAULT)
    return fn(state, seat)

