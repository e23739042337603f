"""Pergola for reinforcement learning: the fixed action list and the observation
(:class:`meeple.core.layers.Learning`; docs/rl/pergola.md lists both for the shipped data).

Both are built from the data bundle in play (``state.c``, so a user's own data works too) and
the seat count, and kept per (bundle, seat count).

The action list, in this order (every seat decision the engine can ever offer; ``lantern
action`` alone never is, so it is left out):

1. ``pick 1`` .. ``pick 4`` (action spaces);
2. ``magnolia 1`` .. ``magnolia M`` (M = the garden's magnolia levels);
3. ``buttercup 1`` .. ``buttercup P`` (pergola spaces);
4. ``lavender flower``, ``lavender dragonfly``;
5. insect placements: ``butterfly fly``, ``butterfly h1`` ..; ``ladybug fly``, ``ladybug m1``
   ..; ``bee fly``, ``bee cup1`` .., ``bee flower1`` ..;
6. ``action flutter|bird|drip|frog``; 7. ``lantern action flutter|bird|drip|frog``;
8. ``lantern drip``, ``lantern jump``, ``lantern insect``;
9. flutters ``move KIND FROM>TO``: per insect, every ordered pair of distinct spots of group 5;
10. ``stop``; 11. ``leaf 1`` .. (piles); 12. ``take butterfly|ladybug|bee``;
13. ``drip FROM>TO``, stones in data order, each stone's streams in data order;
14. ``bonus sets|dragonflies|honey``; 15. ``jump LILY``, lilies in data order;
16. ``honey butterflies|leaves|ladybugs|lanterns``; 17. ``skip``.

The observation reads only what ``state.seen_by(seat)`` shows: every garden, the tools above the
action board, how many tools each holder section still holds (never their order), the top
leaf and size of each pile (never the leaves below), the dragonfly stacks, the supply, the
solo discards and the turn's pending task. Blocks: each seat's garden (the observer's first,
then the seats after it in turn order), the shared board, the turn, the score pad.
"""

from __future__ import annotations

import functools
import struct
from array import array
from operator import mul

from meeple.core.layers import Block
from meeple.games.pergola import moves as mv
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.rules import CUP_CAP, FLOWER_CAP, MAX_POTS, TASK_NAMES, Garden, PergolaState
from meeple.games.pergola.sheet import (
    HOLLYHOCKS,
    LARGE,
    REQUIREMENTS,
    SMALL,
    SUP,
    SUPPLY_ITEMS,
    TOOL_COMPONENTS,
    Compiled,
)
from meeple.games.pergola.solo import FREE_GAME, challenge_met

#: Seat prefixes of the garden blocks: the observer, then the seats after it in turn order.
SEAT_PREFIX = ("own", "next1", "next2", "next3")
#: The phase block's bits: one per task kind (``rules.TASK_NAMES`` order), then these two.
CHANCE_BIT = len(TASK_NAMES)
OVER_BIT = CHANCE_BIT + 1
N_KINDS = len(TASK_NAMES)
SCORE_ROWS = (*sc.ROWS, "total")


# ---------------------------------------------------------------------- actions
def insect_spots(c: Compiled, insect: int) -> tuple[mv.Spot, ...]:
    """Every spot an insect of the kind can ever sit on with this data: flying, then its
    plant's spots (hollyhock levels, magnolia levels, pergola spaces then lavender flowers)."""
    if insect == mv.BUTTERFLY:
        return (mv.FLY, *(("h", lv) for lv in range(c.max_holly - 1)))
    if insect == mv.LADYBUG:
        return (mv.FLY, *(("m", lv) for lv in range(c.max_mag)))
    flowers = c.supply[SUP["lavender-flower"]]
    return (mv.FLY, *(("cup", i) for i in range(len(c.spaces))),
            *(("flower", j) for j in range(flowers)))


@functools.lru_cache(maxsize=16)
def _actions(c: Compiled) -> tuple[str, ...]:
    moves = [*c.pick_moves, *c.magnolia_moves, *c.buttercup_moves, *mv.LAVENDER_MOVES.values()]
    moves += [mv.place_move(k, spot) for k in range(len(mv.INSECTS)) for spot in insect_spots(c, k)]
    moves += [*mv.OWN_ACTION_MOVES, *mv.LANTERN_ACTION_MOVES]
    moves += [m for m in mv.LANTERN_MOVES if m.lantern != mv.ACTION_LANTERN]
    for k in range(len(mv.INSECTS)):
        spots = insect_spots(c, k)
        moves += [mv.flutter_move(k, a, b) for a in spots for b in spots if a != b]
    moves += [mv.STOP, *c.leaf_moves, *mv.TAKE_MOVES]
    moves += [m for row in c.drip_moves for m in row]
    moves += [*mv.BONUS_MOVES, *c.jump_moves, *mv.HONEY_MOVES, mv.SKIP]
    return tuple(m.text for m in moves)


def pergola_actions(state: PergolaState) -> tuple[str, ...]:
    """Every seat decision of the state's data, in the order of the module docstring."""
    return _actions(state.c)


# ---------------------------------------------------------------------- tables
def _offers(c: Compiled) -> tuple[tuple[int, ...], ...]:
    """Each tool's count of every component (in TOOL_COMPONENTS' order), then a row of zeros
    for no tool (index -1)."""
    comp_index = {x: i for i, x in enumerate(TOOL_COMPONENTS)}
    offers = []
    for comps in c.tools:
        row = [0] * len(TOOL_COMPONENTS)
        for x in comps:
            row[comp_index[x]] += 1
        offers.append(tuple(row))
    return (*offers, (0,) * len(TOOL_COMPONENTS))


class _Tables:
    """Per (data bundle, seat count): the layout and what observe() looks up."""

    def __init__(self, c: Compiled, players: int) -> None:
        self.players = players
        self.solo = players == 1
        self.turns = c.turns
        self.orders = tuple(tuple((seat + i) % players for i in range(players))
                            for seat in range(players))
        self._bit_tables(c)
        self.offer = _offers(c)
        self.n_flowers = c.supply[SUP["lavender-flower"]]
        self.flower_pad = tuple((-1,) * (self.n_flowers - i) for i in range(self.n_flowers + 1))
        stacks = c.stacks(players)
        self.stack_len = max((len(x) for x in stacks), default=0) or 1
        # a stack only loses its top, so its length says what is left: its row per length
        # (bottom first; 3 = medium -> 1, 5 = large -> 2; 0 past the top)
        self.stack_rows = tuple(
            tuple((*(d >> 1 for d in st[:n]), *(0,) * (self.stack_len - n))
                  for n in range(len(st) + 1)) for st in stacks)
        self.leaf_colour = c.leaf_colour
        self._scoring_tables(c)
        self.layout = self._layout(c, players, stacks)
        self._packers(players)

    def _packers(self, players: int) -> None:
        """The int64 packers of one garden's blocks, one score pad and the shared blocks
        between them, when every bits row fits an int64 (the shipped data's widest row has
        a bit per tool); ``None`` for wider data, which is observed as a plain list."""
        self.packers: tuple[struct.Struct, struct.Struct, struct.Struct] | None = None
        if all(b.shape[1] <= 63 for b in self.layout if b.bits):
            garden = sum(b.words for b in self.layout if b.name.startswith(SEAT_PREFIX[0] + "."))
            shared = sum(b.words for b in self.layout) - players * (garden + len(SCORE_ROWS))
            self.packers = (struct.Struct(f"={garden}q"), struct.Struct(f"={len(SCORE_ROWS)}q"),
                            struct.Struct(f"={shared}q"))

    def _bit_tables(self, c: Compiled) -> None:
        """A bit per tool, leaf, lily, stone, pot and bonus; index -1 (nothing there) reads
        the trailing 0."""
        n_tools, n_leaves = len(c.tool_ids), len(c.leaf_ids)
        self.tool_bit = (*(1 << i for i in range(n_tools)), 0)
        self.leaf_bit = (*(1 << i for i in range(n_leaves)), 0)
        self.lily_bit = (*(1 << i for i in range(len(c.lily_ids))), 0)
        self.stone_bit = (*(1 << i for i in range(len(c.stone_ids))), 0)
        self.all_leaves = (1 << n_leaves) - 1
        self.pot_bit = {p: 1 << i for i, p in enumerate(sc.POTS)}
        self.bonus_bit = {b: 1 << i for i, b in enumerate(sc.BONUSES)}

    def _scoring_tables(self, c: Compiled) -> None:
        """scoring.py's printed values, per level / per count."""
        self.bfly_value = tuple(sc.butterfly_value(lv + 1) for lv in range(c.max_holly))
        self.mag_value = tuple(sc.magnolia_value(lv + 1) for lv in range(c.max_mag))
        most = max(c.supply) + 1
        self.lady_points = tuple(n * sc.ladybug_value(n) for n in range(most))

    def _layout(self, c: Compiled, players: int,
                stacks: list[list[int]]) -> tuple[Block, ...]:
        sup = c.supply
        n_tools, n_leaves = len(c.tool_ids), len(c.leaf_ids)
        n_mag = c.max_mag - 1
        insects = max(sup[SUP[x]] for x in mv.INSECTS)
        lantern_total = sum(sup[SUP[f"lantern-{x}"]] for x in mv.LANTERNS)
        pieces = max(sup[SUP["lavender-leaf"]], sup[SUP["dragonfly-small"]],
                     len(c.dragon_lilies), *(sup[SUP[f"lantern-{x}"]] for x in mv.LANTERNS),
                     lantern_total)
        blocks: list[Block] = []
        for r in range(players):
            who = "the observer's" if r == 0 else f"seat +{r}'s (in turn order)"
            p = SEAT_PREFIX[r] + "."
            blocks += [
                Block(p + "hollyhocks", (3,), f"{who} hollyhock heights: blue, yellow, red",
                      0, max(sup[SUP[h]] for h in HOLLYHOCKS)),
                Block(p + "butterflies", (c.max_holly,),
                      f"{who} butterflies on hollyhock flowers, per level (level 1 first)", 0, 3),
                Block(p + "magnolia", (3, c.max_mag), f"{who} magnolia per level (level 1 "
                      "first): rows pieces, free buds, ladybugs", 0, 2 * n_mag),
                Block(p + "pergola", (2, len(c.spaces)), f"{who} pergola spaces: row 0 the "
                      "buttercup (0 none, 1 small, 2 large), row 1 its bees", 0, 2),
                Block(p + "lavender", (self.n_flowers,), f"{who} lavender flowers in order "
                      "(flower1 first): bees on it, -1 no such flower yet", -1, 3),
                Block(p + "flying", (3,), f"{who} insects flying about: butterflies, "
                      "ladybugs, bees", 0, insects),
                Block(p + "pieces", (9,), f"{who} counts: lavender leaves, small / medium / "
                      "large dragonflies, unused drip / jump / insect / action lanterns, "
                      "lanterns used", 0, pieces),
                Block(p + "frog", (1, len(c.lily_ids)), f"{who} frog: its lily (data order); "
                      "no bit: still in the garden", bits=True),
                Block(p + "drops", (1, len(c.stone_ids)), f"{who} water drops: the stones "
                      "holding one (data order); the others are at the bottom", bits=True),
                Block(p + "marks", (3, 4), f"{who} row 0 dragonfly requirements already "
                      f"rewarded ({', '.join(REQUIREMENTS)}); row 1 honey pots filled "
                      f"({', '.join(sc.POTS)}); row 2 cascade bonus spots taken "
                      f"({', '.join(sc.BONUSES)})", bits=True),
                Block(p + "leaves", (1, n_leaves), f"{who} leaves on the birdhouse (data "
                      "order)", bits=True),
                Block(p + "tools", (1, n_tools), f"{who} tools taken (data order)", bits=True),
            ]
        sections = len(c.bundle.tools.types[str(players)])
        section_size = max(sum(1 for t in c.tool_type if t == ty)
                           for ty in c.bundle.tools.types[str(players)])
        blocks += [
            Block("board", (4, n_tools), "the tool above each action space (space 1 first; "
                  "no bit: empty)", bits=True),
            Block("offer", (4, len(TOOL_COMPONENTS)), "components of the tool above each "
                  "action space, counted per kind (sheet.TOOL_COMPONENTS order)", 0, 4),
            Block("holder", (sections,), "tools left in each holder section, in draw order",
                  0, section_size),
        ]
        if self.solo:
            blocks.append(Block("discards", (1, n_tools), "solo: tools the neighbour "
                                "discarded", bits=True))
        blocks += [
            Block("tops", (c.piles, n_leaves), "the top leaf of each pile (no bit: none)",
                  bits=True),
            Block("piles", (c.piles,), "leaves in each pile, its top included", 0,
                  c.pile_size),
            Block("unrevealed", (1, n_leaves), "leaves not seen yet (in no garden, on no "
                  "top): below the tops, in some order", bits=True),
            Block("stacks", (len(stacks), self.stack_len), "dragonflies left on each "
                  "dragonfly lily's stack (data order), bottom first: 0 none, 1 medium, "
                  "2 large", 0, 2),
            Block("supply", (len(SUPPLY_ITEMS),), "the supply, per item "
                  "(sheet.SUPPLY_ITEMS order)", 0, max(sup)),
            Block("phase", (1, OVER_BIT + 1), "what is pending: one bit, the task kind "
                  "(rules.TASK_NAMES order), then a chance move, then game over", bits=True),
            Block("queue", (1, N_KINDS), "task kinds queued after the pending one this "
                  "turn", bits=True),
            Block("task", (1,), "the pending task's argument: the insect (0 butterfly, 1 "
                  "ladybug, 2 bee) to place or double, the buttercup size, the magnolia's "
                  "branches, the tool's action, flutters left; else 0", 0, 3),
            Block("turn", (2,), "round (turns completed by every seat: 0..turns), whose "
                  "turn it is or is next, relative to the observer", 0,
                  max(self.turns, players - 1)),
            Block("current_tool", (1, n_tools), "the tool in play this turn", bits=True),
        ]
        if self.solo:
            blocks.append(Block("challenge", (2,), "solo: the challenge (0 none) and whether "
                                "its goal is met now", 0, FREE_GAME))
        blocks.append(Block("scores", (players, len(SCORE_ROWS)), "score pad per seat "
                            "(observer first): the rows in printed order, then the total",
                            0, _score_bound(c)))
        return tuple(blocks)


def _score_bound(c: Compiled) -> int:
    """A bound on any seat's total with this data (each row at its most)."""
    sup = c.supply
    n = {x: sup[SUP[x]] for x in SUPPLY_ITEMS}
    insects = (n["butterfly"], n["ladybug"], n["bee"])
    lanterns = sum(n[f"lantern-{x}"] for x in mv.LANTERNS)
    dragonflies = n["dragonfly-small"] + len(c.dragon_lilies)
    rows = (
        sc.score_hollyhocks([n[h] for h in HOLLYHOCKS]),
        3 * n["butterfly"],
        3 * (c.max_mag - 1),
        3 * n["ladybug"],
        sc.BUTTERCUP_PAIR * min(n["buttercup-small"], n["buttercup-large"]),
        sc.BEES_LAVENDER * n["lavender-flower"] + sc.BEES_LARGE * len(c.spaces),
        sc.LAVENDER_LEAF * n["lavender-leaf"],
        n["dragonfly-small"] + sc.DRAGONFLY["large"] * len(c.dragon_lilies),
        MAX_POTS * max(n["butterfly"], len(c.leaf_ids) // 2, n["ladybug"], lanterns),
        2 * max(min(insects), dragonflies, 2 * MAX_POTS),
        len(c.colours),
    )
    return min(sum(rows), (1 << 15) - 1)


@functools.lru_cache(maxsize=64)
def _tables(c: Compiled, players: int) -> _Tables:
    return _Tables(c, players)


def pergola_layout(state: PergolaState) -> tuple[Block, ...]:
    """The observation's blocks for the state's data and seat count."""
    return _tables(state.c, state.players).layout


# ---------------------------------------------------------------------- observe
#: A garden's observation parts, kept on the garden (``Garden._seen``, which
#: ``PergolaState.garden_for_update`` forgets whenever the garden changes): the garden blocks'
#: ints, the score pad's ints, the leaves' bit set, and both ints packed as int64 bytes (``b""``
#: when the data is too wide to pack: see ``_Tables._packers``). They depend on the data
#: bundle only, and a garden never changes bundle.
_Seen = tuple[list[int], list[int], int, bytes, bytes]


def _seen_garden(g: Garden, t: _Tables) -> _Seen:
    """The observation parts of one garden, made once per change of the garden: a step
    changes at most the mover's garden, so the others' parts are only read back."""
    hit: _Seen | None = g._seen
    if hit is None:
        ints, pad = _garden(g, t), _pad(g, t)
        packed_ints = packed_pad = b""
        if t.packers is not None:
            packed_ints, packed_pad = t.packers[0].pack(*ints), t.packers[1].pack(*pad)
        hit = g._seen = (ints, pad, sum(map(t.leaf_bit.__getitem__, g.leaves)),
                         packed_ints, packed_pad)
    return hit


def pergola_observe(view: PergolaState, seat: int) -> array[int] | list[int]:
    """The observation of ``seat`` (ints in layout order), from ``view`` (``state.seen_by(seat)``:
    public information only). An ``array("q")`` (int64, which the encoding reads without a
    conversion per int) built from the gardens' packed parts and the shared blocks; a plain
    list for data whose bit sets do not fit an int64."""
    t = _tables(view.c, view.players)
    gardens = view.gardens
    seen = [_seen_garden(gardens[r], t) for r in t.orders[seat]]
    leaves = 0
    for hit in seen:
        leaves |= hit[2]
    shared = _shared(view, t, seat, leaves)
    if t.packers is None:
        out: list[int] = []
        for hit in seen:
            out += hit[0]
        out += shared
        for hit in seen:
            out += hit[1]
        return out
    packed = array("q")
    packed.frombytes(b"".join([*[hit[3] for hit in seen], t.packers[2].pack(*shared),
                               *[hit[4] for hit in seen]]))
    return packed


def _shared(s: PergolaState, t: _Tables, seat: int, leaves: int) -> list[int]:
    """The blocks between the gardens and the score pads: the shared board, the turn (and
    solo, the challenge), as ``seat`` sees them; ``leaves``: the gardens' leaves as a bit set."""
    out: list[int] = []
    ext = out.extend
    app = out.append
    tool_bit = t.tool_bit
    leaf_bit = t.leaf_bit
    # the shared board
    board = s.board
    ext(map(tool_bit.__getitem__, board))
    offer = t.offer
    for tool in board:
        ext(offer[tool])
    ext(map(len, s.holder))
    if t.solo:
        app(sum(map(tool_bit.__getitem__, s.discards)))
    tops = list(map(leaf_bit.__getitem__, s.tops))
    ext(tops)
    ext(s.pile_left)
    app(t.all_leaves & ~(leaves | sum(tops)))
    for rows, st in zip(t.stack_rows, s.stacks, strict=True):
        ext(rows[len(st)])
    ext(s.supply)
    # the turn
    tasks = s.tasks
    players = t.players
    if s.turn >= players * t.turns:
        app(1 << OVER_BIT)
        app(0)
        app(0)
    elif s.chance or not tasks:
        app(1 << CHANCE_BIT)
        app(0)
        app(0)
    else:
        app(1 << tasks[0][0])
        queued = 0
        for kind, _ in tasks[1:]:
            queued |= 1 << kind
        app(queued)
        app(tasks[0][1])
    app(min(s.turn // players, t.turns))
    app((s.turn - seat) % players)
    app(tool_bit[s.current_tool])
    if t.solo:
        number = s.challenge or 0
        app(number)
        app(1 if challenge_met(s, number or FREE_GAME, seat) else 0)
    return out


def _garden(g: Garden, t: _Tables) -> list[int]:
    """The garden blocks of one garden, in layout order."""
    out: list[int] = [*g.holly, *g.bfly, *g.mag, *g.mag_buds, *g.lady, *g.cups, *g.cup_bees,
                      *g.flowers, *t.flower_pad[len(g.flowers)], g.bfly_fly, g.lady_fly,
                      g.bees_fly, g.lav_leaves, g.df_small, g.df_medium, g.df_large,
                      *g.lanterns, g.lanterns_used, t.lily_bit[g.frog],
                      t.stone_bit[g.drops[0]] | t.stone_bit[g.drops[1]], g.df_reqs,
                      sum(map(t.pot_bit.__getitem__, g.pots)),
                      sum(map(t.bonus_bit.__getitem__, g.bonuses)),
                      sum(map(t.leaf_bit.__getitem__, g.leaves)),
                      sum(map(t.tool_bit.__getitem__, g.tools))]
    return out


#: Printed values used by _pad (scoring.py), read once.
_H1, _H2, _H3 = sc.HOLLYHOCK_SET[1], sc.HOLLYHOCK_SET[2], sc.HOLLYHOCK_SET[3]
_DF_S, _DF_M, _DF_L = sc.DRAGONFLY["small"], sc.DRAGONFLY["medium"], sc.DRAGONFLY["large"]
_FULL_SMALL, _FULL_LARGE = SMALL * CUP_CAP[SMALL], LARGE * CUP_CAP[LARGE]


def _pad(g: Garden, t: _Tables) -> list[int]:
    """The score pad of one garden, as ``rules.score_garden`` gives it (rows, then the total),
    from per-level tables over the levels in use (a few times cheaper than building the Score):
    magnolia pieces fill levels from level 1 up with no gap, and ladybugs sit only on them;
    butterflies sit below the tallest hollyhock; a flower never holds more bees than it takes."""
    a, b, top = sorted(g.holly)
    mag = g.mag
    used = len(mag) - mag.count(0)
    cups = g.cups
    small = cups.count(SMALL)
    large = cups.count(LARGE)
    # size x bees per pergola space: 1 a full small buttercup, 4 a full large one (2: half full)
    products = list(map(mul, cups, g.cup_bees)) if small or large else []
    rows = [
        _H3 * a + _H2 * (b - a) + _H1 * (top - b),
        sum(map(mul, g.bfly[:top], t.bfly_value)),
        sum(map(mul, mag[:used], t.mag_value)),
        sum(map(t.lady_points.__getitem__, g.lady[:used])),
        sc.BUTTERCUP_PAIR * min(small, large),
        sc.BEES_SMALL * products.count(_FULL_SMALL) + sc.BEES_LARGE * products.count(_FULL_LARGE)
        + sc.BEES_LAVENDER * g.flowers.count(FLOWER_CAP),
        sc.LAVENDER_LEAF * g.lav_leaves,
        _DF_S * g.df_small + _DF_M * g.df_medium + _DF_L * g.df_large,
        0,
        0,
        len(set(map(t.leaf_colour.__getitem__, g.leaves))),
    ]
    if g.pots or g.bonuses:
        butterflies = sum(g.bfly) + g.bfly_fly
        ladybugs = sum(g.lady) + g.lady_fly
        if g.pots:
            rows[8] = sc.score_honey_pots(g.pots, butterflies, len(g.leaves), ladybugs,
                                          sum(g.lanterns) + g.lanterns_used)
        if g.bonuses:
            rows[9] = sc.score_waterdrops(g.bonuses, butterflies, ladybugs, g.bees(),
                                          g.dragonflies(), len(g.pots))
    rows.append(sum(rows))
    return rows


__all__ = ["insect_spots", "pergola_actions", "pergola_layout", "pergola_observe"]
