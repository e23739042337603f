"""Pick a Pen: Reefs evaluation: the score so far plus discounted credit for what the seat's
routes can still reach.

See docs/eval-reefs.md for what is valued and the measured win rates.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from meeple.core.memo import made_once_per
from meeple.games.reefs.sheet import NEUTRAL


class _Prep:
    """What the evaluation needs from a board, computed once per board."""

    __slots__ = (
        "base_nb", "bonus", "coin_len", "coin_mask", "coinv", "conn", "entries", "grey", "gsum",
        "n", "need2", "prop_mask", "row_len", "rowv", "tr",
    )

    def __init__(self, b: Any) -> None:
        self.n: int = b.n
        block = b.entry_mask
        # per space: the neighbours over any connection, entry points left out (R3: a route
        # never steps onto an entry point); per connection: its ends and their cleared masks
        self.base_nb: tuple[int, ...] = tuple(
            sum(1 << w for _bit, w, _d in b.adj[s] if not (block >> w) & 1) for s in range(b.n)
        )
        self.conn: tuple[tuple[int, int, int, int], ...] = tuple(
            (a, ~(1 << c), c, ~(1 << a)) for a, c in b.conns
        )
        self.entries: tuple[int, ...] = tuple(b.entries)
        # treasures: (index, space bit, colour, value)
        self.tr: tuple[tuple[int, int, int, int], ...] = tuple(
            (t, 1 << s, b.treasure_colour[t], b.treasure_value[t])
            for s, t in enumerate(b.treasure_at) if t >= 0
        )
        self.rowv: tuple[tuple[int, ...], ...] = tuple((0, *v) for v in b.row_values)
        self.row_len: tuple[int, ...] = tuple(b.row_len)
        self.grey: tuple[int, ...] = tuple(b.row_grey) if any(b.row_grey) else (0,) * 5
        self.gsum: int = sum(self.grey)
        self.need2: tuple[int, ...] = tuple(b.two_each_need)
        self.coinv: tuple[int, ...] = (0, *b.coin_values)
        self.coin_len: int = b.coin_len
        self.coin_mask: int = b.coin_mask
        self.prop_mask: int = b.prop_mask
        bo = b.bonus
        self.bonus: tuple[int, int, int, int] = (bo.two_each, bo.full_row, bo.end_grey, bo.end_coins)


#: The :class:`_Prep` of a board, made once per board.
_prep: Callable[[Any], _Prep] = made_once_per(_Prep)


def _layers(src: int, nb: list[int], maxd: int, targets: int) -> list[int]:
    """Breadth-first layers (bit masks of spaces) from ``src`` over free connections, until
    every space of ``targets`` is found or ``maxd`` steps."""
    out = [src]
    seen = src
    f = src
    for _ in range(maxd):
        if not targets & ~seen:
            break
        nx = 0
        while f:
            low = f & -f
            f ^= low
            nx |= nb[low.bit_length() - 1]
        nx &= ~seen
        if not nx:
            break
        seen |= nx
        out.append(nx)
        f = nx
    return out


def _dist(layers: list[int], bit: int) -> int:
    for i, m in enumerate(layers):
        if m & bit:
            return i
    return -1


def _reach_probs(n: int, cand: list[tuple[int, float, int]],
                 levels: tuple[int, ...]) -> list[float]:
    """P(the row reaches each of ``levels`` boxes) when each candidate treasure (dist, p, value)
    is recovered independently with its probability (the three nearest only)."""
    out = [1.0 if n >= k else 0.0 for k in levels]
    if all(o == 1.0 for o in out) or not cand:
        return out
    outcomes = [(n, 1.0)]
    for _d, pr, v in cand[:3]:
        nxt = []
        for m, q in outcomes:
            nxt.append((m + v, q * pr))
            nxt.append((m, q * (1.0 - pr)))
        outcomes = nxt
    return [sum(q for m, q in outcomes if m >= k) for k in levels]


#: Memoised values kept per board before the memo starts afresh (about 200 bytes each).
MEMO_LIMIT = 200_000


def _race_lead(state: Any, p: _Prep) -> float:
    """How far the seat nearest to an end condition (coins or grey boxes, R11) has come, 0-1.
    Everything the evaluation credits fades with it, so at the end it meets the score (and
    ending the game, when it scores, beats waiting)."""
    lead = 0.0
    clen = p.coin_len
    gsum = p.gsum
    g0, g1, g2, g3, g4 = p.grey
    for o in state.sheets:
        if clen and o.coins > lead * clen:
            lead = o.coins / clen
        if gsum:
            # the grey boxes coloured, row by row (at most the row's grey boxes), spelt out:
            # this runs for every end position a turn listing evaluates
            b0, b1, b2, b3, b4 = o.boxes
            x = ((b0 if b0 < g0 else g0) + (b1 if b1 < g1 else g1) + (b2 if b2 < g2 else g2)
                 + (b3 if b3 < g3 else g3) + (b4 if b4 < g4 else g4)) / gsum
            if x > lead:
                lead = x
    return lead


def own_score(state: Any, seat: int) -> int:
    """The seat's score-pad total now (rows, coins, the "first to" stars; end stars at the end)."""
    if state.over:
        return int(state.scores()[seat].total)
    p = _prep(state.board)
    sh = state.sheets[seat]
    rowv = p.rowv
    boxes = sh.boxes
    total: int = (rowv[0][boxes[0]] + rowv[1][boxes[1]] + rowv[2][boxes[2]] + rowv[3][boxes[3]]
             + rowv[4][boxes[4]] + p.coinv[sh.coins])
    if state.two_each_holder == seat:
        total += p.bonus[0]
    if state.full_row_holder == seat:
        total += p.bonus[1]
    return total


def _free_neighbours(p: _Prep, used: int) -> list[int]:
    """The free neighbours of every space: the board's, minus the connections carrying a line
    (``used``: the seat's connections, one bit each)."""
    nb = list(p.base_nb)
    conn = p.conn
    while used:
        low = used & -used
        used ^= low
        a, not_b, c2, not_a = conn[low.bit_length() - 1]
        nb[a] &= not_b
        nb[c2] &= not_a
    return nb


def _free_entry_points(p: _Prep, nb: list[int], used_entries: int) -> tuple[int, int]:
    """The entry points a new route can still start from (mask, count): unused, with a free
    connection."""
    free_entries = 0
    n_free = 0
    for e in p.entries:
        if not (used_entries >> e) & 1 and nb[e]:
            free_entries |= 1 << e
            n_free += 1
    return free_entries, n_free


def _treasures_sought(p: _Prep, tr_state: Any) -> tuple[list[int], int]:
    """The treasures still to recover: each colour's own (a mask per colour) and the neutral
    ones, which any colour may recover (one mask)."""
    wanted = [0, 0, 0, 0, 0]
    neutral = 0
    for t, bit, col, _v in p.tr:
        if tr_state[t] < 0:
            if col == NEUTRAL:
                neutral |= bit
            else:
                wanted[col] |= bit
    return wanted, neutral


def _colour_layers(p: _Prep, sh: Any, nb: list[int],
                   maxd_i: int) -> tuple[list[list[int]], list[float], int]:
    """Distance layers per colour: from its route's end, or, for a colour not started, from
    every free entry point (shared: fewer free entry points than colours to start scale the new
    routes' chances down). Returns the layers, each colour's share and the sources (route ends
    and free entry points) the coins and propellers are measured from."""
    entry = sh.entry
    end = sh.end
    free_entries, n_free = _free_entry_points(p, nb, sh.entries_used)
    unstarted = 0
    sources = 0
    for c in range(5):
        if entry[c] < 0:
            unstarted += 1
        elif nb[end[c]]:
            sources |= 1 << end[c]
    # what each colour's search looks for: its own treasures and the neutral ones left
    wanted, neutral = _treasures_sought(p, sh.treasure)
    new_targets = 0
    for c in range(5):
        if entry[c] < 0:
            new_targets |= wanted[c]
    if neutral:
        new_targets |= neutral
    new_layers: list[int] = []
    if unstarted and free_entries:
        sources |= free_entries
        if new_targets:
            new_layers = _layers(free_entries, nb, maxd_i, new_targets)
    start_share = min(1.0, n_free / unstarted) if unstarted else 1.0
    per_colour: list[list[int]] = []
    shares: list[float] = []
    for c in range(5):
        if entry[c] >= 0:
            e = end[c]
            targets = wanted[c] | neutral
            per_colour.append(_layers(1 << e, nb, maxd_i, targets) if targets and nb[e] else [])
            shares.append(1.0)
        else:
            per_colour.append(new_layers)
            shares.append(start_share)
    return per_colour, shares, sources


def _treasure_candidates(p: _Prep, tr_state: Any, per_colour: list[list[int]],
                         shares: list[float], pd: list[float]) -> list[list[tuple[int, float, int]]]:
    """Per colour, the reachable treasures as (distance, chance, value) (a neutral one counts
    for the colour nearest to it)."""
    cand: list[list[tuple[int, float, int]]] = [[], [], [], [], []]
    for t, bit, col, v in p.tr:
        if tr_state[t] >= 0:
            continue
        if col == NEUTRAL:
            best = -1
            bestd = 99
            for c in range(5):
                d = _dist(per_colour[c], bit)
                if 0 <= d < bestd:
                    bestd, best = d, c
            if best >= 0:
                cand[best].append((bestd, pd[bestd] * shares[best], v))
        else:
            d = _dist(per_colour[col], bit)
            if d >= 0:
                cand[col].append((d, pd[d] * shares[col], v))
    return cand


def _treasure_row_gain(p: _Prep, cand: list[list[tuple[int, float, int]]], boxes: Any) -> float:
    """The expected gain of the treasure rows: per colour, the candidates nearest first (sorted
    in place), each with its chance times its marginal row value."""
    gain = 0.0
    rowv = p.rowv
    row_len = p.row_len
    for c in range(5):
        lst = cand[c]
        if not lst:
            continue
        lst.sort()
        rv = rowv[c]
        n = boxes[c]
        ln = row_len[c]
        for _d, pr, v in lst:
            m = min(ln, n + v)
            gain += pr * (rv[m] - rv[n])
            n = m
    return gain


def _coins_and_propellers(value: float, p: _Prep, sh: Any, sources: int, nb: list[int],
                          pd: list[float], maxd_i: int, coin_w: float, prop_w: float,
                          end_w: float) -> float:
    """``value`` plus the coins and propellers in reach, by distance from the nearest route end
    or free entry point (the coin row's end bonus with its last box)."""
    clen = p.coin_len
    coins = sh.coins
    free_coins = p.coin_mask & ~sh.coins_taken if clen and coins < clen else 0
    free_props = p.prop_mask & ~sh.props_taken if prop_w else 0
    if sources and (free_coins or free_props):
        near = _layers(sources, nb, maxd_i, free_coins | free_props)
        if free_coins:
            cv = p.coinv
            n = coins
            cg = 0.0
            for d, layer in enumerate(near):
                k = (layer & free_coins).bit_count()
                while k and n < clen:
                    cg += pd[d] * (cv[n + 1] - cv[n])
                    n += 1
                    k -= 1
                    if n == clen:
                        cg += pd[d] * end_w * p.bonus[3]
            value += coin_w * cg
        if free_props:
            for d, layer in enumerate(near):
                k = (layer & free_props).bit_count()
                if k:
                    value += prop_w * 0.5 * pd[d] * k
    return value


def _bonus_stars(value: float, state: Any, p: _Prep, boxes: Any,
                 cand: list[list[tuple[int, float, int]]], bonus_w: float, end_w: float) -> float:
    """``value`` plus the bonus stars still free: the chance of reaching 2 boxes in every row,
    a full row, and (the end bonus) the grey boxes of every row."""
    bo = p.bonus
    need2 = p.need2
    grey = p.grey
    row_len = p.row_len
    p2 = 1.0
    pg = 1.0
    pnf = 1.0
    for c in range(5):
        reach = _reach_probs(boxes[c], cand[c], (need2[c], grey[c], row_len[c]))
        p2 *= reach[0]
        pg *= reach[1]
        pnf *= 1.0 - reach[2]
    if state.two_each_holder < 0:
        value += bonus_w * bo[0] * p2
    if state.full_row_holder < 0:
        value += bonus_w * bo[1] * (1.0 - pnf)
    if p.gsum:
        value += bonus_w * end_w * bo[2] * pg
    return value


def _make_sheet_value(gamma: float, treasure_w: float, coin_w: float, coin_count: float,
                      box_count: float, bonus_w: float, end_w: float, prop_w: float,
                      time_w: float, maxd_i: int) -> Callable[[Any, int, _Prep, Any, float], float]:
    """The evaluation proper with these weights (see :func:`make_reefs_evaluation`)."""

    def sheet_value(state: Any, seat: int, p: _Prep, sh: Any, lead: float) -> float:
        """The value from the seat's sheet and the race (``lead``)."""
        value: float = float(own_score(state, seat))
        h = 1.0 - time_w * lead
        if h <= 0.0:
            return value
        boxes = sh.boxes
        # boxes coloured are steps along rows whose values grow; unused propellers are options
        value += h * (coin_count * sh.coins + box_count * sum(boxes)
                      + prop_w * (sh.props - sh.props_used))
        # the chance of reaching a target at each distance, the fading for time included
        pd = [1.0, h * gamma]
        for _ in range(maxd_i - 1):
            pd.append(pd[-1] * gamma)
        nb = _free_neighbours(p, sh.used)
        per_colour, shares, sources = _colour_layers(p, sh, nb, maxd_i)
        cand = _treasure_candidates(p, sh.treasure, per_colour, shares, pd)
        value += treasure_w * _treasure_row_gain(p, cand, boxes)
        value = _coins_and_propellers(value, p, sh, sources, nb, pd, maxd_i, coin_w, prop_w, end_w)
        if bonus_w:
            value = _bonus_stars(value, state, p, boxes, cand, bonus_w, end_w)
        return value

    return sheet_value


def make_reefs_evaluation(
    gamma: float = 0.6,
    treasure_w: float = 1.0,
    coin_w: float = 0.5,
    coin_count: float = 0.3,
    box_count: float = 0.2,
    bonus_w: float = 1.0,
    end_w: float = 1.0,
    prop_w: float = 1.0,
    time_w: float = 1.0,
    maxd: float = 8,
    memo: bool = True,
) -> Callable[[Any, int], float]:
    """A Reefs evaluation with these weights (the registered one uses the defaults).

    ``gamma``: chance per step of distance that a target is still reached; ``treasure_w``,
    ``coin_w``: weights of the expected treasure-row and coin-row gains; ``coin_count``,
    ``box_count``: credit per coin box and treasure box already coloured; ``bonus_w``: weight
    of the chances of the bonus stars; ``end_w``: weight of the end bonuses; ``prop_w``: value
    of an unused propeller (half for one in reach); ``time_w``: how fast the credit fades as
    another seat nears an end condition; ``maxd``: the farthest distance searched. ``memo``:
    keep the values computed, per board, keyed by everything they depend on (the seat's sheet,
    the race to the end, who holds the "first to" stars): a search meets the same sheets again
    and again, and a hit costs a few microseconds instead of about 250.
    """
    maxd_i = int(maxd)
    sheet_value = _make_sheet_value(gamma, treasure_w, coin_w, coin_count, box_count, bonus_w,
                                    end_w, prop_w, time_w, maxd_i)
    # board -> {what the value depends on: its value}: a search evaluates the same sheet in
    # the same race many times over (the other seats' sheets at every leaf, above all)
    memos: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], float]] = weakref.WeakKeyDictionary()

    def reefs_evaluation(state: Any, seat: int) -> float:
        if state.over:
            return float(state.scores()[seat].total)
        p = _prep(state.board)
        sh = state.sheets[seat]
        lead = _race_lead(state, p)
        if not memo:
            return sheet_value(state, seat, p, sh, lead)
        table = memos.get(state.board)
        if table is None:
            table = memos[state.board] = {}
        elif len(table) > MEMO_LIMIT:
            table.clear()
        two, full = state.two_each_holder, state.full_row_holder
        # the sheet's own key (what is coloured on it) plus the race and the stars' holders
        key = (sh.key(), lead, two == seat, two < 0, full == seat, full < 0)
        value = table.get(key)
        if value is None:
            value = table[key] = sheet_value(state, seat, p, sh, lead)
        return value

    return reefs_evaluation


#: The registered evaluation (default weights, tuned on greedy vs score-only greedy).
reefs_evaluation = make_reefs_evaluation()
