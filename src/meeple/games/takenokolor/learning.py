"""Takenokolor for reinforcement learning: the fixed action list, the observation layout and the
observation itself (:data:`meeple.games.takenokolor.LEARNING`, read by ``meeple.rl``;
docs/rl/takenokolor.md lists both for the shipped sheets).

Actions, in this order (the same for every seat count of a sheet):

1. ``take B``, ``take Y``, ``take P``, ``take G`` (indices 0..3, the rolling order);
2. ``colour <item>`` for every item some face of a marker can match, in sheet order (areas as
   the sheet file lists them, items within each area in order);
3. ``free <item>`` for every item some free colouring of the sheet can go to (the items of the
   areas its grants target), in sheet order.

Rolls are chance and have no action. The observation is seat-relative: each seat's sheet (the
observer's first, then the seats after it in turn order), the markers and the turn, then the
score pad of every seat in the same order. Takenokolor hides nothing, so every block is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from meeple.core.layers import Block
from meeple.core.memo import made_once_per
from meeple.games.takenokolor.moves import COLOUR, FREE, TAKE
from meeple.games.takenokolor.rules import TakenokolorState
from meeple.games.takenokolor.scoring import _areas, _mask, _race_indices
from meeple.games.takenokolor.sheet import COLOURS, Compiled, Measure, Row

#: The round counter is capped here (the rulebook sets no limit on rounds; games run 6..40).
ROUND_CAP = 255
INT16_MAX = (1 << 15) - 1

#: ``rolled[k]`` (-1 before the roll, else the symbol) as a one-hot of the three symbols.
_SYMBOL_BIT = (1, 2, 4, 0)

#: A score-pad row's value from one seat's bits: ``(coloured, ladybugs, first, later)``.
RowValue = Callable[[int, int, int, int], int]
#: How many score pads (a seat's own rows by its bits; majority rows by the seats' counts)
#: each sheet keeps before it starts afresh.
PAD_CACHE = 1 << 14


def _planes(points: Sequence[int], mask: int) -> tuple[tuple[int, int], ...]:
    """The items of ``mask`` by bit of their printed points: ``(shift, items)``, so that the
    points of coloured items ``c`` are ``sum(popcount(c & items) << shift)``."""
    out = []
    for b in range(max((points[i] for i in range(len(points)) if mask >> i & 1), default=0)
                   .bit_length()):
        m = 0
        for i, pt in enumerate(points):
            if mask >> i & 1 and pt >> b & 1:
                m |= 1 << i
        if m:
            out.append((b, m))
    return tuple(out)


def _points_of(planes: tuple[tuple[int, int], ...], col: int) -> int:
    total = 0
    for b, m in planes:
        total += (col & m).bit_count() << b
    return total


class _Side:
    """A product row's factor (:class:`~meeple.games.takenokolor.sheet.Measure`), made once."""

    def __init__(self, cs: Compiled, m: Measure) -> None:
        areas = _areas(cs, m.areas, m.kinds)
        self.op = m.op
        self.mask = _mask(cs, areas)
        self.planes = _planes(cs.item_points, self.mask)
        self.area_masks = tuple(cs.area_mask[ai] for ai in areas)
        self.points = cs.item_points
        if m.op == "count":
            self.high = self.mask.bit_count()
        elif m.op == "sum":
            self.high = sum(cs.item_points[i] for i in range(cs.n) if self.mask >> i & 1)
        else:
            self.high = sum(max(cs.item_points[i] for i in range(cs.n) if am >> i & 1)
                            for am in self.area_masks)

    def value(self, col: int) -> int:
        if self.op == "count":
            return (col & self.mask).bit_count()
        if self.op == "sum":
            return _points_of(self.planes, col)
        pts = self.points
        total = 0
        for am in self.area_masks:
            m = col & am
            if m:
                total += pts[m.bit_length() - 1]
        return total


def _no_own_value(col: int, lady: int, first: int, later: int) -> int:
    return 0


def _row(cs: Compiled, row: Row) -> tuple[RowValue, int]:
    """A score-pad row as a function of one seat's bits (the same values as
    :func:`meeple.games.takenokolor.scoring.pad`, found with popcounts), and its true maximum.
    A majority row reads every seat: its function here gives 0 (``_Tables.majority``)."""
    rule = row.rule
    if rule == "races":
        races = tuple((1 << ri, cs.race_first[ri], cs.race_later[ri])
                      for ri in _race_indices(cs, row))

        def races_value(col: int, lady: int, first: int, later: int) -> int:
            total = 0
            for bit, f, lt in races:
                if first & bit:
                    total += f
                elif later & bit:
                    total += lt
            return total

        return races_value, sum(max(f, lt) for _, f, lt in races)
    if rule == "ladybugs":
        pts = row.points

        def ladybugs_value(col: int, lady: int, first: int, later: int) -> int:
            return pts * lady.bit_count()

        return ladybugs_value, pts * len(cs.sheet.ladybugs)
    if rule == "product":
        assert row.left is not None and row.right is not None
        left, right = _Side(cs, row.left), _Side(cs, row.right)

        def product_value(col: int, lady: int, first: int, later: int) -> int:
            return left.value(col) * right.value(col)

        return product_value, left.high * right.high
    areas = _areas(cs, row.areas, row.kinds)
    if rule == "sum":
        mask = _mask(cs, areas)
        planes = _planes(cs.item_points, mask)

        def sum_value(col: int, lady: int, first: int, later: int) -> int:
            return _points_of(planes, col)

        return sum_value, sum(cs.item_points[i] for i in range(cs.n) if mask >> i & 1)
    if rule == "majority":  # the seats' counts together: see _Tables.majority
        return _no_own_value, max(row.places)
    pts = row.points
    if rule == "complete":
        return _completions(tuple(_completion(cs, (ai,)) for ai in areas), pts)
    # "groups": the areas of each (kind, group), all complete
    groups: dict[tuple[str, str], list[int]] = {}
    for ai in areas:
        key = cs.area_group[ai]
        if key is not None:
            groups.setdefault(key, []).append(ai)
    return _completions(tuple(_completion(cs, g) for g in groups.values()), pts)


def _completion(cs: Compiled, areas: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """When every area of ``areas`` is complete, as ``(need, some)``: the coloured items must
    hold all of ``need`` and one item of each mask of ``some``. An area in any order needs every
    item; a sequence its last step (one item of it: several are side-by-side alternatives)."""
    need = 0
    some: list[int] = []
    for ai in areas:
        m = cs.area_complete_mask[ai]
        if not cs.area_sequence[ai] or m.bit_count() == 1:
            need |= m
        else:
            some.append(m)
    return need, tuple(some)


def _completions(tests: tuple[tuple[int, tuple[int, ...]], ...], pts: int) -> tuple[RowValue, int]:
    """A row worth ``pts`` for each of ``tests`` (:func:`_completion`) the coloured items meet,
    with its best value."""

    def value(col: int, lady: int, first: int, later: int) -> int:
        n = 0
        for need, some in tests:
            if col & need == need and (not some or all(col & m for m in some)):
                n += 1
        return pts * n

    return value, pts * len(tests)


class _Tables:
    """What the learning record needs of a compiled sheet, made once per sheet."""

    def __init__(self, cs: Compiled) -> None:
        self.cs = cs
        n = cs.n
        free_mask = 0
        for g in cs.grants:
            if g.spread == "group":
                free_mask |= cs.grouped_kind_mask.get(g.target, 0)
            else:
                free_mask |= cs.kind_mask.get(g.target, 0)
        self.free_mask = free_mask
        self.actions: tuple[str, ...] = (
            *(f"take {c}" for c in COLOURS),
            *(f"colour {cs.item_ids[i]}" for i in range(n) if cs.rollable >> i & 1),
            *(f"free {cs.item_ids[i]}" for i in range(n) if free_mask >> i & 1),
        )
        self.lockout = any(cs.lockout)
        self.dragon = tuple(i for i in range(n) if cs.adjacent >> i & 1)
        self.dragon_pos = [0] * n
        for k, i in enumerate(self.dragon):
            self.dragon_pos[i] = k
        self.n_ladybugs = len(cs.sheet.ladybugs)
        self.n_races = len(cs.sheet.races)
        self.n_grants = len(cs.grants)
        # most free colourings one grant can leave pending: its count, or a group's size
        largest_group = max(cs.group_size.values(), default=1)
        self.grant_high = tuple(max(g.count, largest_group) if g.spread == "group" else g.count
                                for g in cs.grants)
        rows = [_row(cs, row) for row in cs.sheet.scoring]
        self.row_names = tuple(row.row for row in cs.sheet.scoring)
        self.row_values = tuple(f for f, _ in rows)
        #: the majority rows (3-panda sun): (row index, items counted, points by place)
        self.majority = tuple(
            (k, _mask(cs, _areas(cs, row.areas, row.kinds)), tuple(row.places))
            for k, row in enumerate(cs.sheet.scoring) if row.rule == "majority")
        self.places: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        #: a seat's own rows by its bits (coloured, ladybugs, first, later): (the rows with
        #: 0 for majority rows, then their total, clamped; the total not clamped)
        self.pads: dict[tuple[int, int, int, int], tuple[tuple[int, ...], int]] = {}
        bound = sum(h for _, h in rows)
        self.score_high = min(bound, INT16_MAX)
        self.score_clamp = bound > INT16_MAX
        self._layouts: dict[int, tuple[Block, ...]] = {}
        self._orders: dict[int, tuple[tuple[int, ...], ...]] = {}

    def own_pad(self, key: tuple[int, int, int, int]) -> tuple[tuple[int, ...], int]:
        """A seat's score-pad rows that read its own bits alone, made once per ``key``."""
        vals = [f(*key) for f in self.row_values]
        total = sum(vals)
        if self.score_clamp:
            vals = [min(v, INT16_MAX) for v in vals]
        vals.append(min(total, INT16_MAX))
        if len(self.pads) >= PAD_CACHE:
            self.pads.clear()
        pad = self.pads[key] = (tuple(vals), total)
        return pad

    def majority_points(self, k: int, counts: tuple[int, ...],
                        places: tuple[int, ...]) -> tuple[int, ...]:
        """Each seat's points on majority row ``k`` from the seats' counts, made once (at most
        (items + 1) ** players of them): a seat's place is how many different counts beat its
        own (ties share a place); no item, no points."""
        ranked = sorted(set(counts), reverse=True)
        points = tuple(places[ranked.index(n)] if n and ranked.index(n) < len(places) else 0
                       for n in counts)
        if len(self.places) >= PAD_CACHE:
            self.places.clear()
        self.places[(k, counts)] = points
        return points

    def orders(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Per observing seat, the seats in observation order (itself, then turn order)."""
        o = self._orders.get(players)
        if o is None:
            o = self._orders[players] = tuple(
                tuple((seat + r) % players for r in range(players)) for seat in range(players))
        return o

    def layout(self, players: int) -> tuple[Block, ...]:
        lay = self._layouts.get(players)
        if lay is None:
            lay = self._layouts[players] = self._make_layout(players)
        return lay

    def _make_layout(self, players: int) -> tuple[Block, ...]:
        n = self.cs.n
        blocks: list[Block] = []
        for r in range(players):
            who = "the observer" if r == 0 else f"the seat {r} after the observer (turn order)"
            pre = f"seat+{r}."
            blocks.append(Block(pre + "coloured", (1, n), f"items {who} has coloured (sheet "
                                "order)", bits=True))
            blocks.append(Block(pre + "open", (1, n), f"items {who} may colour now by the "
                                "order rules (steps, requirements, lock-out)", bits=True))
            if self.lockout:
                blocks.append(Block(pre + "blocked", (1, n), f"items {who} may never colour: "
                                    "another seat completed its sun first (T6)", bits=True))
            if self.dragon:
                blocks.append(Block(pre + "dragon", (4, len(self.dragon)), f"dragon sections "
                                    f"{who} has coloured, by marker colour B, Y, P, G (free "
                                    "colourings count as B)", bits=True))
            blocks.append(Block(pre + "ladybugs", (1, self.n_ladybugs),
                                f"ladybugs {who} has circled (sheet order)", bits=True))
            if self.n_races:
                blocks.append(Block(pre + "races", (2, self.n_races), f"races {who} has met: "
                                    "row 0 first (keeps the first number), row 1 later",
                                    bits=True))
        blocks += [
            Block("rolled", (4, 3), "markers B, Y, P, G: the symbol rolled this round (circle, "
                  "square, triangle), none before the roll", bits=True),
            Block("left", (1, 4), "markers B, Y, P, G still in the middle (all four while "
                  "rolling)", bits=True),
            Block("hand", (1, 4), "the marker taken and not yet used (colour decision)",
                  bits=True),
            Block("phase", (1, 5), "the pending decision: roll (chance), take, colour, free, "
                  "game over", bits=True),
            Block("to_move", (1, players), "the seat to decide, relative to the observer "
                  "(none while rolling or once over)", bits=True),
            Block("holder", (1, players), "the panda holder (first to take this round), "
                  "relative to the observer", bits=True),
            Block("free_target", (1, n), "items the current free colouring may go to by its "
                  "spread (same / different area, group); empty when none is pending",
                  bits=True),
        ]
        if self.n_grants:
            blocks.append(Block("free_pending", (self.n_grants,), "free colourings still to "
                                "make, per grant of the sheet (sheet order)", 0,
                                max(self.grant_high)))
        blocks.append(Block("round", (1,), f"rounds completed (capped at {ROUND_CAP})", 0,
                            ROUND_CAP))
        blocks.append(Block("score", (players, len(self.row_names) + 1),
                            "score pad per seat in observation order: the sheet's rows ("
                            + ", ".join(self.row_names) + "), then the total", 0,
                            self.score_high))
        return tuple(blocks)


_tables: Callable[[Compiled], _Tables] = made_once_per(_Tables)


def takenokolor_actions(state: TakenokolorState) -> tuple[str, ...]:
    """Every seat decision of the state's sheet: takes, colourings, free colourings (module
    docstring)."""
    return _tables(state.cs).actions


def takenokolor_layout(state: TakenokolorState) -> tuple[Block, ...]:
    """The observation's blocks for the state's sheet and seat count."""
    return _tables(state.cs).layout(state.players)


def takenokolor_observe(view: TakenokolorState, seat: int) -> list[int]:
    """The ints of every block of :func:`takenokolor_layout`, as ``seat`` sees ``view``."""
    t = _tables(view.cs)
    players = view.players
    order = t.orders(players)[seat]
    coloured, avail, lady = view.coloured, view.avail, view.ladybugs
    first, later = view.first, view.later
    lockout, dragon, races = t.lockout, t.dragon, t.n_races
    out: list[int] = []
    add = out.append
    for s in order:
        col = coloured[s]
        add(col)
        add(avail[s])
        if lockout:
            add(view.blocked[s])
        if dragon:
            rows = [0, 0, 0, 0]
            code = view.colcode[s]
            pos = t.dragon_pos
            m = col & view.cs.adjacent
            while m:
                low = m & -m
                i = low.bit_length() - 1
                m ^= low
                rows[code >> (2 * i) & 3] |= 1 << pos[i]
            out += rows
        add(lady[s])
        if races:
            add(first[s])
            add(later[s])
    rolled = view.rolled
    out += (_SYMBOL_BIT[rolled[0]], _SYMBOL_BIT[rolled[1]], _SYMBOL_BIT[rolled[2]],
            _SYMBOL_BIT[rolled[3]])
    add(view.left)
    taken = view.taken
    add(1 << taken if taken >= 0 else 0)
    phase = view.phase
    add(1 << phase)
    add(1 << (view.seat - seat) % players if phase in (TAKE, COLOUR, FREE) else 0)
    add(1 << (view.holder - seat) % players)
    pending = view.pending
    add(pending[0][2] if pending and phase == FREE else 0)
    if t.n_grants:
        free = [0] * t.n_grants
        for g, remaining, _, _ in pending:
            free[g] = min(free[g] + remaining, t.grant_high[g])
        out += free
    add(min(view.rounds, ROUND_CAP))
    pads = t.pads
    majority = t.majority
    if not majority:
        for s in order:
            key = (coloured[s], lady[s], first[s], later[s])
            pad = pads.get(key) or t.own_pad(key)
            out += pad[0]
        return out
    won = []  # per majority row: its index, each seat's points (by seat number)
    for k, mask, places in majority:
        counts = tuple(map(int.bit_count, map(mask.__and__, coloured)))
        points = t.places.get((k, counts))
        if points is None:
            points = t.majority_points(k, counts, places)
        won.append((k, points))
    for s in order:
        key = (coloured[s], lady[s], first[s], later[s])
        pad = pads.get(key) or t.own_pad(key)
        vals = list(pad[0])
        total = pad[1]
        for k, points in won:
            v = points[s]
            vals[k] = min(v, INT16_MAX)
            total += v
        vals[-1] = min(total, INT16_MAX)
        out += vals
    return out


__all__ = ["takenokolor_actions", "takenokolor_layout", "takenokolor_observe"]
