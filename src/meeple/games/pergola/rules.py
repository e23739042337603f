"""Pergola (Rebel, 2023): the game state, the turn and the four actions.

A turn (P5) is a queue of small tasks for the seat to move: pick a tool; place its plants one
by one (hollyhocks and lavender leaves have one place and go there at once), then its lanterns,
then its insects (plants first so new flowers can take the new insects: our order where the
rulebook says "in any order"); perform the action (or another one with an action lantern);
optionally fill a honey pot; clean up. Tasks with a single possible choice resolve themselves.
Every tool draw and every new top leaf is an explicit chance move (A1, P4): the hidden order is
never decided before it is revealed, so ``view`` holds public information only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

from meeple.core.errors import BadVariant, IllegalMove
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, Score, State, part_for_update
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.moves import PergolaMove, mv, parse
from meeple.games.pergola.sheet import (
    ACTIONS,
    INSECTS,
    LANTERNS,
    REQUIREMENTS,
    SUPPLY_ITEMS,
    Bundle,
    load_bundle,
)

SUP = {name: i for i, name in enumerate(SUPPLY_ITEMS)}
HOLLY = {"hollyhock-blue": 0, "hollyhock-yellow": 1, "hollyhock-red": 2}
DRAGONFLY_REQUIREMENT = 4  # "at least 4" of the plant (printed)
MAX_POTS = 3  # P7
SMALL, LARGE = 1, 2
CUP_CAP = {SMALL: 1, LARGE: 2}
FLOWER_CAP = 3
BONUS_NAMES = sc.BONUSES
POT_NAMES = sc.POTS
BOTTOM = -1


class Compiled:
    """Immutable, shared per data bundle: indices, adjacency and the move objects."""

    def __init__(self, b: Bundle) -> None:
        self.bundle = b
        self.turns = b.tools.turns
        self.board = tuple(b.tools.board)
        self.tools = tuple(tuple(t.components) for t in b.tools.tool)
        self.tool_ids = tuple(t.id for t in b.tools.tool)
        self.tool_index = {t: i for i, t in enumerate(self.tool_ids)}
        self.tool_type = tuple(t.type for t in b.tools.tool)
        self.supply = tuple(b.tools.supply[k] for k in SUPPLY_ITEMS)
        lil = b.pond.lily
        self.lily_ids = tuple(x.id for x in lil)
        self.lily_index = {x: i for i, x in enumerate(self.lily_ids)}
        self.lily_insect = tuple(x.insect for x in lil)
        self.lily_req = tuple(x.dragonfly for x in lil)
        self.lily_adj = tuple(tuple(self.lily_index[a] for a in x.adjacent) for x in lil)
        self.dragon_lilies = tuple(i for i, x in enumerate(lil) if x.dragonfly)
        st = b.cascade.stone
        self.stone_ids = tuple(s.id for s in st)
        self.stone_index = {s: i for i, s in enumerate(self.stone_ids)}
        self.stone_insect = tuple(s.insect for s in st)
        self.stone_to = tuple(tuple(BOTTOM if t == "bottom" else self.stone_index[t]
                                    for t in s.to) for s in st)
        self.starts = tuple(self.stone_index[s] for s in b.cascade.starts)
        lv = b.leaves.leaf
        self.leaf_ids = tuple(x.id for x in lv)
        self.leaf_index = {x: i for i, x in enumerate(self.leaf_ids)}
        self.leaf_colour = tuple(x.colour for x in lv)
        self.leaf_insect = tuple(x.insect for x in lv)
        self.leaf_flutter = tuple(x.flutter for x in lv)
        self.piles = b.leaves.piles
        self.pile_size = len(lv) // self.piles
        self.colours = tuple(dict.fromkeys(self.leaf_colour))
        self.spaces = tuple(tuple(SMALL if a == "small" else LARGE for a in s.accepts)
                            for s in b.pergola.space)
        self.thresholds = tuple(b.pergola.honey_thresholds)
        self.draw_moves = tuple(mv(f"draw {t}") for t in self.tool_ids)
        self.reveal_moves = tuple(tuple(mv(f"reveal {p + 1} {x}") for x in self.leaf_ids)
                                  for p in range(self.piles))
        self.max_holly = max(b.tools.supply[k] for k in HOLLY) + 1
        self.max_mag = b.tools.supply["magnolia-single"] + b.tools.supply["magnolia-double"] + 1

    def stacks(self, players: int) -> list[list[int]]:
        """Dragonfly stacks (bottom first, 3 = medium, 5 = large) for the player count."""
        return [[3 if d == "medium" else 5 for d in s]
                for s in self.bundle.pond.stacks[str(players)]]


def compiled(b: Bundle) -> Compiled:
    """The compiled form of a bundle, built once and kept on the bundle."""
    c = b.__dict__.get("_compiled")
    if c is None:
        c = Compiled(b)
        object.__setattr__(b, "_compiled", c)
    assert isinstance(c, Compiled)
    return c


class Garden:
    """One player's boards: garden, pergola, cascade and tool pot (the data scoring reads)."""

    __slots__ = (
        "_key", "bees_fly", "bfly", "bfly_fly", "bonuses", "cup_bees", "cups", "df_large",
        "df_medium", "df_reqs", "df_small", "drops", "flowers", "frog", "holly", "lady",
        "lady_fly", "lanterns", "lanterns_used", "lav_leaves", "leaves", "mag", "mag_buds",
        "pots", "tools",
    )

    def __init__(self, c: Compiled) -> None:
        self.holly = [0, 0, 0]  # heights, blue yellow red
        self.bfly = [0] * c.max_holly  # butterflies per hollyhock level
        self.bfly_fly = 0
        self.mag = [0] * c.max_mag  # magnolia pieces per level
        self.mag_buds = [0] * c.max_mag  # free buds on pieces of each level
        self.lady = [0] * c.max_mag
        self.lady_fly = 0
        self.cups = [0] * len(c.spaces)  # 0 empty, 1 small, 2 large buttercup
        self.cup_bees = [0] * len(c.spaces)
        self.lav_leaves = 0
        self.flowers: list[int] = []  # bees on each lavender flower
        self.df_small = 0
        self.bees_fly = 0
        self.df_medium = 0
        self.df_large = 0
        self.df_reqs = 0  # bit per REQUIREMENTS index already rewarded
        self.lanterns = [0, 0, 0, 0]  # unused, per LANTERNS type
        self.lanterns_used = 0
        self.leaves: list[int] = []  # leaf indices on the birdhouse
        self.pots: list[str] = []
        self.drops = [c.starts[0], c.starts[1]]
        self.bonuses: list[str] = []
        self.frog = -1  # -1: still in the garden
        self.tools: list[int] = []
        self._key: Hashable | None = None  # key() kept until the garden is next changed

    def copy(self) -> Garden:
        g = Garden.__new__(Garden)
        g.holly = self.holly.copy()
        g.bfly = self.bfly.copy()
        g.bfly_fly = self.bfly_fly
        g.mag = self.mag.copy()
        g.mag_buds = self.mag_buds.copy()
        g.lady = self.lady.copy()
        g.lady_fly = self.lady_fly
        g.cups = self.cups.copy()
        g.cup_bees = self.cup_bees.copy()
        g.lav_leaves = self.lav_leaves
        g.flowers = self.flowers.copy()
        g.df_small = self.df_small
        g.bees_fly = self.bees_fly
        g.df_medium = self.df_medium
        g.df_large = self.df_large
        g.df_reqs = self.df_reqs
        g.lanterns = self.lanterns.copy()
        g.lanterns_used = self.lanterns_used
        g.leaves = self.leaves.copy()
        g.pots = self.pots.copy()
        g.drops = self.drops.copy()
        g.bonuses = self.bonuses.copy()
        g.frog = self.frog
        g.tools = self.tools.copy()
        g._key = None
        return g

    def key(self) -> Hashable:
        """Everything in the garden. Kept once made: a garden is changed only through
        :meth:`PergolaState.garden_for_update`, which forgets it."""
        k = self._key
        if k is None:
            k = self._key = (
                tuple(self.holly), tuple(self.bfly), self.bfly_fly, tuple(self.mag),
                tuple(self.mag_buds), tuple(self.lady), self.lady_fly, tuple(self.cups),
                tuple(self.cup_bees), self.lav_leaves, tuple(self.flowers), self.df_small,
                self.bees_fly, self.df_medium, self.df_large, self.df_reqs,
                tuple(self.lanterns), self.lanterns_used, tuple(self.leaves), tuple(self.pots),
                tuple(self.drops), tuple(self.bonuses), self.frog, tuple(self.tools))
        return k

    # ------------------------------------------------------------ counts used by rules
    def butterflies(self) -> int:
        return sum(self.bfly) + self.bfly_fly

    def ladybugs(self) -> int:
        return sum(self.lady) + self.lady_fly

    def bees(self) -> int:
        return sum(self.cup_bees) + sum(self.flowers) + self.bees_fly

    def dragonflies(self) -> int:
        return self.df_small + self.df_medium + self.df_large

    def buttercups(self) -> int:
        return sum(1 for x in self.cups if x)

    def bees_on_buttercups(self) -> int:
        return sum(self.cup_bees)

    def hollyhock_slots(self, level: int) -> int:
        return sum(1 for h in self.holly if h > level)

    def requirement_met(self, req: str) -> bool:
        """Dragonfly lily requirements: at least 4 magnolias / hollyhocks / buttercups /
        lavender leaves in the garden (printed)."""
        if req == "magnolia":
            n = sum(self.mag)
        elif req == "hollyhock":
            n = sum(self.holly)
        elif req == "buttercup":
            n = self.buttercups()
        else:
            n = self.lav_leaves
        return n >= DRAGONFLY_REQUIREMENT

    def full_flowers(self) -> tuple[int, int, int]:
        small = large = 0
        for s, b in zip(self.cups, self.cup_bees, strict=True):
            if s == SMALL and b >= 1:
                small += 1
            elif s == LARGE and b >= 2:
                large += 1
        lav = sum(1 for b in self.flowers if b >= FLOWER_CAP)
        return small, large, lav


def butterfly_levels(g: Garden) -> list[int]:
    return [lv + 1 for lv, n in enumerate(g.bfly) if n for _ in range(n)]


def score_garden(g: Garden, leaf_colour: tuple[str, ...]) -> Score:
    """The score pad of one garden (rows in printed order)."""
    small = large = 0
    for x in g.cups:
        if x == SMALL:
            small += 1
        elif x == LARGE:
            large += 1
    fs, fl, fv = g.full_flowers()
    lanterns = sum(g.lanterns) + g.lanterns_used
    butterflies, ladybugs = g.butterflies(), g.ladybugs()
    rows = {
        "hollyhocks": sc.score_hollyhocks(g.holly),
        "butterflies": sc.score_butterflies(butterfly_levels(g)),
        "magnolias": sc.score_magnolias(g.mag),
        "ladybugs": sc.score_ladybugs(g.lady),
        "buttercups": sc.score_buttercups(small, large),
        "bees": sc.score_bees(fs, fl, fv),
        "lavender leaves": sc.score_lavender_leaves(g.lav_leaves),
        "dragonflies": sc.score_dragonflies(g.df_small, g.df_medium, g.df_large),
        "honey pots": sc.score_honey_pots(g.pots, butterflies, len(g.leaves), ladybugs,
                                          lanterns) if g.pots else 0,
        "waterdrops": sc.score_waterdrops(g.bonuses, butterflies, ladybugs, g.bees(),
                                          g.dragonflies(), len(g.pots)) if g.bonuses else 0,
        "leaf colours": sc.score_leaf_colours([leaf_colour[i] for i in g.leaves]),
    }
    return Score(sum(rows.values()), rows)


# Task kinds (the front of the queue is what the seat decides now).
PICK, MAGNOLIA, BUTTERCUP, LAVPAIR, INSECT, LANT_INSECT, ACTION, FLUTTER, BIRD, DRIP = range(10)
BOTTOM_INSECT, BONUS, FROG, LANT_DRIP, LANT_JUMP, HONEY = range(10, 16)
TASK_NAMES = (
    "pick a tool", "place the magnolia", "place the buttercup",
    "choose a lavender flower or a small dragonfly", "place the insect",
    "use an insect lantern or skip", "choose the action", "insect flutter (move an insect or "
    "stop)", "bird flight: take a leaf", "water drip", "take an insect at the bottom of the "
    "cascade", "choose a cascade bonus spot", "frog jump", "use a water drip lantern or skip",
    "use a frog jump lantern or skip", "fill a honey pot or skip",
)
Task = tuple[int, int]  # (kind, argument)

STOP, SKIP = mv("stop"), mv("skip")


def spot_code(kind: str, loc: tuple[str, int]) -> str:
    return "fly" if loc[0] == "fly" else f"{loc[0]}{loc[1] + 1}"


def parse_spot(code: str) -> tuple[str, int]:
    if code == "fly":
        return ("fly", 0)
    for pre in ("cup", "flower", "h", "m"):
        if code.startswith(pre) and code[len(pre):].isdigit():
            return (pre, int(code[len(pre):]) - 1)
    raise ValueError(code)


class PergolaState(State[PergolaMove]):
    game_name = "pergola"

    def __init__(self, players: int, seed: int, bundle: Bundle, challenge: int | None) -> None:
        self._init_base(players, seed)
        c = self.c = compiled(bundle)
        self.challenge = challenge
        self.solo = players == 1
        self.supply = list(c.supply)
        self.board = [-1, -1, -1, -1]  # tool per action space (space 0 = flutter, P9)
        types = c.bundle.tools.types[str(players)]
        self.holder = [[i for i, t in enumerate(c.tool_type) if t == ty] for ty in types]
        self.tops = [-1] * c.piles  # revealed top leaf of each pile
        self.pile_left = [c.pile_size] * c.piles  # leaves in each pile (top included)
        self.pool = list(range(len(c.leaf_ids)))  # leaves not yet revealed (P4)
        self.stacks = c.stacks(players)
        self.gardens = [Garden(c) for _ in range(players)]
        self._own = (1 << players) - 1  # bit per seat whose garden no other state shares
        self.discards: list[int] = []
        self.tasks: list[Task] = []
        self.current_tool = -1
        # setup (P2a): the first four tools fill the spaces from right to left
        self.chance: list[tuple[str, int]] = [("draw", s) for s in (3, 2, 1, 0)]
        self.chance += [("reveal", p) for p in range(c.piles)]
        self._legal: list[PergolaMove] | None = None

    # ------------------------------------------------------------------ contract
    def clone(self) -> PergolaState:
        s = PergolaState.__new__(PergolaState)
        s._copy_base(self)
        s.c = self.c
        s.challenge = self.challenge
        s.solo = self.solo
        s.supply = self.supply.copy()
        s.board = self.board.copy()
        s.holder = [h.copy() for h in self.holder]
        s.tops = self.tops.copy()
        s.pile_left = self.pile_left.copy()
        s.pool = self.pool.copy()
        s.stacks = [x.copy() for x in self.stacks]
        # copy-on-write: the clone shares the gardens until one is changed (a turn changes
        # only its seat's garden, so the others are never copied)
        s.gardens = self.gardens.copy()
        s._own = self._own = 0
        s.discards = self.discards.copy()
        s.tasks = self.tasks.copy()
        s.current_tool = self.current_tool
        s.chance = self.chance.copy()
        s._legal = self._legal
        return s

    @property
    def seat(self) -> int:
        return self.turn % self.players

    @property
    def to_move(self) -> int | None:
        if self.chance:
            return CHANCE
        if self.turn >= self.players * self.c.turns:
            return None
        return self.seat

    def key(self) -> Hashable:
        return (self.turn, tuple(self.supply), tuple(self.board),
                tuple(tuple(h) for h in self.holder), tuple(self.tops), tuple(self.pile_left),
                tuple(self.pool), tuple(tuple(x) for x in self.stacks),
                tuple(g.key() for g in self.gardens), tuple(self.discards), tuple(self.tasks),
                self.current_tool, tuple(self.chance))

    def variant(self) -> dict[str, Any]:
        return {"challenge": self.challenge} if self.challenge else {}

    def sheet_data(self) -> dict[str, Any]:
        return self.c.bundle.as_data()

    def scores(self) -> list[Score]:
        return [score_garden(g, self.c.leaf_colour) for g in self.gardens]

    def parse_move(self, text: str) -> PergolaMove:
        """Canonical text; case and extra spaces are forgiven for the moves legal now."""
        if isinstance(text, str) and self.to_move is not None:
            t = " ".join(text.split()).lower()
            for m in self.legal_moves():
                if m.text.lower() == t:
                    return m
        return parse(text)


    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[PergolaMove, float]]:
        if not self.chance:
            return []
        what, arg = self.chance[0]
        if what == "draw":
            pool = next(h for h in self.holder if h)
            p = 1.0 / len(pool)
            return [(self.c.draw_moves[t], p) for t in pool]
        p = 1.0 / len(self.pool)
        return [(self.c.reveal_moves[arg][x], p) for x in self.pool]

    def legal_moves(self) -> list[PergolaMove]:
        if self.chance:
            return [m for m, _ in self.chance_outcomes()]
        if self.to_move is None:
            return []
        if self._legal is None:
            self._legal = self._options(self.tasks[0]) if self.tasks else []
        return list(self._legal)

    def illegal_reason(self, move: PergolaMove) -> str | None:
        if self.to_move is None:
            return "the game is over"
        legal = self.legal_moves()
        if move in legal:
            return None
        if self.chance:
            what, arg = self.chance[0]
            doing = ("the next tool is drawn from the holder" if what == "draw"
                     else f"a new top leaf of pile {arg + 1} is revealed")
        else:
            doing = f"seat {self.seat} must {TASK_NAMES[self.tasks[0][0]]}"
        shown = ", ".join(str(m) for m in legal[:14])
        more = f", ... ({len(legal)} in all)" if len(legal) > 14 else ""
        return f"{move} is not legal now: {doing}; legal: {shown}{more}"

    # ------------------------------------------------------------------ options
    def _options(self, task: Task) -> list[PergolaMove]:
        kind, arg = task
        g = self.gardens[self.seat]
        if kind == PICK:
            return [mv(f"pick {i + 1}") for i, t in enumerate(self.board) if t >= 0]
        if kind == MAGNOLIA:
            return [mv(f"magnolia {lv}") for lv in self._magnolia_levels(g)]
        if kind == BUTTERCUP:
            return [mv(f"buttercup {i + 1}") for i in self._buttercup_spaces(g, arg)]
        if kind == LAVPAIR:
            out = []
            if self.supply[SUP["lavender-flower"]]:
                out.append(mv("lavender flower"))
            if self.supply[SUP["dragonfly-small"]]:
                out.append(mv("lavender dragonfly"))
            return out
        if kind == INSECT:
            name = INSECTS[arg]
            return [mv(f"{name} {spot_code(name, s)}") for s in self._free_spots(g, arg)]
        if kind == LANT_INSECT:
            if g.lanterns[2] and self.supply[SUP[INSECTS[arg]]]:
                return [mv("lantern insect"), SKIP]
            return []
        if kind == ACTION:
            own = ACTIONS[arg]
            return [mv(f"action {own}")] + [mv(f"lantern action {a}") for a in ACTIONS
                                            if a != own]
        if kind == FLUTTER:
            return self._flutter_moves(g)
        if kind == BIRD:
            if any(t >= 0 for t in self.tops):
                return [mv(f"leaf {p + 1}") for p, t in enumerate(self.tops) if t >= 0]
            return [mv(f"take {x}") for x in INSECTS if self.supply[SUP[x]]]
        if kind == DRIP:
            return self._drip_moves(g)
        if kind == BOTTOM_INSECT:
            return [mv(f"take {x}") for x in INSECTS if self.supply[SUP[x]]]
        if kind == BONUS:
            return [mv(f"bonus {b}") for b in BONUS_NAMES if b not in g.bonuses]
        if kind == FROG:
            return [mv(f"jump {self.c.lily_ids[i]}") for i in self._frog_targets(g)]
        if kind == LANT_DRIP:
            return [mv("lantern drip"), SKIP] if g.lanterns[0] else []
        if kind == LANT_JUMP:
            return [mv("lantern jump"), SKIP] if g.lanterns[1] else []
        if kind == HONEY:
            if self._honey_ready(g):
                return [mv(f"honey {p}") for p in POT_NAMES if p not in g.pots] + [SKIP]
            return []
        raise AssertionError(kind)

    def _magnolia_levels(self, g: Garden) -> list[int]:
        """Magnolia: the first anywhere (level 1); later ones on a free bud (level + 1)."""
        if not g.mag[0]:
            return [1]
        return [lv + 2 for lv, n in enumerate(g.mag_buds) if n and lv + 1 < len(g.mag)]

    def _buttercup_spaces(self, g: Garden, size: int) -> list[int]:
        """Buttercups go on free pergola spaces that take their size (one per kind of space)."""
        seen: set[tuple[int, ...]] = set()
        out = []
        for i, acc in enumerate(self.c.spaces):
            if not g.cups[i] and size in acc and acc not in seen:
                seen.add(acc)
                out.append(i)
        return out

    def _free_spots(self, g: Garden, insect: int) -> list[tuple[str, int]]:
        """Where an insect may sit: flying (always, P6) or a free spot on its plant."""
        out: list[tuple[str, int]] = [("fly", 0)]
        if insect == 0:  # butterflies on hollyhock flowers, one each
            for lv in range(max(g.holly)):
                if g.bfly[lv] < g.hollyhock_slots(lv):
                    out.append(("h", lv))
        elif insect == 1:  # ladybugs on magnolias, one each
            for lv, n in enumerate(g.mag):
                if g.lady[lv] < n:
                    out.append(("m", lv))
        else:  # bees: 1 on a small buttercup, 2 on a large, 3 on a lavender flower
            seen: set[tuple[int, int]] = set()
            for i, s in enumerate(g.cups):
                if s and g.cup_bees[i] < CUP_CAP[s] and (s, g.cup_bees[i]) not in seen:
                    seen.add((s, g.cup_bees[i]))
                    out.append(("cup", i))
            seenf: set[int] = set()
            for j, b in enumerate(g.flowers):
                if b < FLOWER_CAP and b not in seenf:
                    seenf.add(b)
                    out.append(("flower", j))
        return out

    def _occupied_spots(self, g: Garden, insect: int) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        if insect == 0:
            if g.bfly_fly:
                out.append(("fly", 0))
            out += [("h", lv) for lv, n in enumerate(g.bfly) if n]
        elif insect == 1:
            if g.lady_fly:
                out.append(("fly", 0))
            out += [("m", lv) for lv, n in enumerate(g.lady) if n]
        else:
            if g.bees_fly:
                out.append(("fly", 0))
            seen: set[tuple[int, int]] = set()
            for i, s in enumerate(g.cups):
                if g.cup_bees[i] and (s, g.cup_bees[i]) not in seen:
                    seen.add((s, g.cup_bees[i]))
                    out.append(("cup", i))
            seenf: set[int] = set()
            for j, b in enumerate(g.flowers):
                if b and b not in seenf:
                    seenf.add(b)
                    out.append(("flower", j))
        return out

    def _flutter_moves(self, g: Garden) -> list[PergolaMove]:
        """Insect flutter: move one butterfly, ladybug or bee (never a dragonfly, P6) to a
        free spot of its plant or to fly about; ``stop`` ends the flutter."""
        out = [STOP]
        for k, name in enumerate(INSECTS):
            for src in self._occupied_spots(g, k):
                self._remove_insect(g, k, src)
                for dst in self._free_spots(g, k):
                    if dst == src or self._same_kind_of_spot(g, k, src, dst):
                        continue
                    out.append(mv(f"move {name} {spot_code(name, src)}>{spot_code(name, dst)}"))
                self._add_insect(g, k, src)
        return out

    @staticmethod
    def _same_kind_of_spot(g: Garden, k: int, src: tuple[str, int], dst: tuple[str, int]) -> bool:
        """A bee moved between two equal flowers changes nothing (skip such moves)."""
        if k != 2 or src[0] != dst[0] or src[0] == "fly":
            return False
        if src[0] == "cup":
            return (g.cups[src[1]] == g.cups[dst[1]]
                    and g.cup_bees[dst[1]] == g.cup_bees[src[1]])  # src already lowered
        return g.flowers[dst[1]] == g.flowers[src[1]]

    def _drip_moves(self, g: Garden) -> list[PergolaMove]:
        """Water drip: one drop one space down a stream; two drops never share a space; with
        both drops at the bottom, take an insect instead."""
        d = g.drops
        if d[0] == BOTTOM and d[1] == BOTTOM:
            return [mv(f"take {x}") for x in INSECTS if self.supply[SUP[x]]]
        out = []
        for k in (0, 1):
            if d[k] == BOTTOM:
                continue
            for t in self.c.stone_to[d[k]]:
                if t != BOTTOM and t == d[1 - k]:
                    continue
                dst = "bottom" if t == BOTTOM else self.c.stone_ids[t]
                out.append(mv(f"drip {self.c.stone_ids[d[k]]}>{dst}"))
        return out

    def _frog_targets(self, g: Garden) -> list[int]:
        """Frog jump: the first jump lands anywhere, later ones on an adjacent lily; a dragonfly
        lily needs its requirement."""
        cands = range(len(self.c.lily_ids)) if g.frog < 0 else self.c.lily_adj[g.frog]
        out = []
        for i in cands:
            req = self.c.lily_req[i]
            if req is None or g.requirement_met(req):
                out.append(i)
        return out

    def _honey_ready(self, g: Garden) -> bool:
        """P7: the next honey pot can be filled when the bees on buttercups reach 4, 7, 9."""
        n = len(g.pots)
        return (n < MAX_POTS and n < len(self.c.thresholds)
                and g.bees_on_buttercups() >= self.c.thresholds[n])

    # ------------------------------------------------------------------ insects
    @staticmethod
    def _add_insect(g: Garden, k: int, loc: tuple[str, int]) -> None:
        where, i = loc
        if k == 0:
            if where == "fly":
                g.bfly_fly += 1
            else:
                g.bfly[i] += 1
        elif k == 1:
            if where == "fly":
                g.lady_fly += 1
            else:
                g.lady[i] += 1
        elif where == "fly":
            g.bees_fly += 1
        elif where == "cup":
            g.cup_bees[i] += 1
        else:
            g.flowers[i] += 1

    @staticmethod
    def _remove_insect(g: Garden, k: int, loc: tuple[str, int]) -> None:
        where, i = loc
        if k == 0:
            if where == "fly":
                g.bfly_fly -= 1
            else:
                g.bfly[i] -= 1
        elif k == 1:
            if where == "fly":
                g.lady_fly -= 1
            else:
                g.lady[i] -= 1
        elif where == "fly":
            g.bees_fly -= 1
        elif where == "cup":
            g.cup_bees[i] -= 1
        else:
            g.flowers[i] -= 1

    def _gain_insect(self, k: int, front: bool = True) -> list[Task]:
        """Take an insect from the supply (P1: nothing if none is left): tasks to place it and
        to offer an insect lantern."""
        idx = SUP[INSECTS[k]]
        if not self.supply[idx]:
            return []
        self.supply[idx] -= 1
        return [(INSECT, k), (LANT_INSECT, k)]

    # ------------------------------------------------------------------ apply
    def _apply(self, move: PergolaMove) -> None:
        self._legal = None
        if self.chance:
            self._apply_chance(move)
        else:
            self._apply_seat(move)
            if not self.tasks:
                self._clean_up()
        self._advance()

    def _apply_chance(self, move: PergolaMove) -> None:
        what, arg = self.chance.pop(0)
        t = move.text
        if what == "draw":
            tool = self.c.tool_index[t.split(" ", 1)[1]]
            for h in self.holder:
                if tool in h:
                    h.remove(tool)
                    break
            self.board[arg] = tool
        else:
            leaf = self.c.leaf_index[t.split(" ")[2]]
            self.pool.remove(leaf)
            self.tops[arg] = leaf
        if not self.chance and self.turn < self.players * self.c.turns and not self.tasks:
            self.tasks = [(PICK, 0)]

    def garden_for_update(self, seat: int) -> Garden:
        """``seat``'s garden, ready to be changed: copied first if another state shares it
        (clones share gardens until one changes), its kept key forgotten. Every change to a
        garden goes through here (the rules, and tests that set up positions)."""
        self._own = part_for_update(self.gardens, self._own, seat)
        return self.gardens[seat]

    def _apply_seat(self, move: PergolaMove) -> None:
        kind, arg = self.tasks.pop(0)
        g = self.garden_for_update(self.seat)
        text = move.text
        word, _, rest = text.partition(" ")
        new: list[Task] = []
        if kind == PICK:
            new = self._pick_tool(g, int(rest) - 1)
        elif kind == MAGNOLIA:
            self._place_magnolia(g, arg, int(rest) - 1)
        elif kind == BUTTERCUP:
            i = int(rest) - 1
            g.cups[i] = arg
        elif kind == LAVPAIR:
            if rest == "flower":
                self.supply[SUP["lavender-flower"]] -= 1
                g.flowers.append(0)
            else:
                self.supply[SUP["dragonfly-small"]] -= 1
                g.df_small += 1
        elif kind == INSECT:
            self._add_insect(g, arg, parse_spot(rest))
        elif kind == LANT_INSECT:
            if word == "lantern":  # lantern: take another insect of the same type
                g.lanterns[2] -= 1
                g.lanterns_used += 1
                new = self._gain_insect(arg)
        elif kind == ACTION:
            if word == "lantern":  # lantern: a different action than the tool's
                g.lanterns[3] -= 1
                g.lanterns_used += 1
                action = ACTIONS.index(rest.split(" ")[1])
            else:
                action = arg
            new = self._action_tasks(action)
        elif kind == FLUTTER:
            if word == "move":
                name, _, spots = rest.partition(" ")
                src, dst = spots.split(">")
                k = INSECTS.index(name)
                self._remove_insect(g, k, parse_spot(src))
                self._add_insect(g, k, parse_spot(dst))
                if arg > 1:
                    new = [(FLUTTER, arg - 1)]
        elif kind == BIRD:
            new = self._bird_flight(g, word, rest)
        elif kind == DRIP:
            new = self._water_drip(g, word, rest)
        elif kind == BOTTOM_INSECT:
            new = self._gain_insect(INSECTS.index(rest))
        elif kind == BONUS:
            g.bonuses.append(rest)
        elif kind == FROG:
            new = self._frog_jump(g, self.c.lily_index[rest])
        elif kind == LANT_DRIP:
            if word == "lantern":  # lantern: after a water drip, drip again
                g.lanterns[0] -= 1
                g.lanterns_used += 1
                new = [(DRIP, 0)]
        elif kind == LANT_JUMP:
            if word == "lantern":  # lantern: after a frog jump, jump again
                g.lanterns[1] -= 1
                g.lanterns_used += 1
                new = [(FROG, 0)]
        elif kind == HONEY and word == "honey":
            g.pots.append(rest)
        if new:
            self.tasks[0:0] = new

    def _pick_tool(self, g: Garden, space: int) -> list[Task]:
        """Pick a tool (P5), take its components (P1: nothing if the supply has none) and
        place them: plants first, then lanterns, then insects; then the action and honey."""
        tool = self.board[space]
        self.board[space] = -1
        self.current_tool = tool
        g.tools.append(tool)
        if self.solo:
            self._neighbour_discard(space)
        plants: list[Task] = []
        insects: list[Task] = []
        for comp in self.c.tools[tool]:
            i = SUP[comp]
            if not self.supply[i]:
                continue
            self.supply[i] -= 1
            if comp in HOLLY:  # hollyhock: on top of its colour's column
                g.holly[HOLLY[comp]] += 1
            elif comp.startswith("magnolia"):
                plants.append((MAGNOLIA, 1 if comp == "magnolia-single" else 2))
            elif comp.startswith("buttercup"):
                size = SMALL if comp == "buttercup-small" else LARGE
                if self._buttercup_spaces(g, size):
                    plants.append((BUTTERCUP, size))
            elif comp == "lavender-leaf":
                g.lav_leaves += 1
                if g.lav_leaves % 2 == 0:  # a new pair of lavender leaves
                    plants.append((LAVPAIR, 0))
            elif comp.startswith("lantern"):
                g.lanterns[LANTERNS.index(comp.split("-")[1])] += 1
            else:
                self.supply[i] += 1  # taken through _gain_insect
                insects += self._gain_insect(INSECTS.index(comp))
        action = ACTIONS.index(self.c.board[space])
        act: list[Task] = [(ACTION, action)] if g.lanterns[3] else self._action_tasks(action)
        return plants + insects + act + [(HONEY, 0)]

    def _neighbour_discard(self, space: int) -> None:
        """P10: the solo neighbour discards the other tool in the same half of the board."""
        other = space ^ 1
        if self.board[other] >= 0:
            self.discards.append(self.board[other])
            self.board[other] = -1

    def _action_tasks(self, action: int) -> list[Task]:
        name = ACTIONS[action]
        if name == "flutter":
            return [(FLUTTER, 2)]
        if name == "bird":
            return [(BIRD, 0)]
        if name == "drip":
            return [(DRIP, 0)]
        return [(FROG, 0)]

    def _place_magnolia(self, g: Garden, branches: int, level: int) -> None:
        """Magnolia: one tree; a piece on level L uses a free bud of level L-1 and brings
        1 (single branch) or 2 (double branch) new buds."""
        if level > 0:
            g.mag_buds[level - 1] -= 1
        g.mag[level] += 1
        g.mag_buds[level] += branches

    def _bird_flight(self, g: Garden, word: str, rest: str) -> list[Task]:
        """Bird flight: take a top leaf onto the birdhouse and its insect, then its extra
        1-insect flutter; with no leaves left, take an insect of your choice."""
        if word == "take":
            return self._gain_insect(INSECTS.index(rest))
        p = int(rest) - 1
        leaf = self.tops[p]
        self.tops[p] = -1
        self.pile_left[p] -= 1
        g.leaves.append(leaf)
        new = self._gain_insect(INSECTS.index(self.c.leaf_insect[leaf]))
        if self.c.leaf_flutter[leaf]:
            new.append((FLUTTER, 1))
        return new

    def _water_drip(self, g: Garden, word: str, rest: str) -> list[Task]:
        """Water drip: a stone gives its insect; the bottom gives an insect and a bonus spot
        (P8); with both drops at the bottom, take an insect instead."""
        if word == "take":
            return [*self._gain_insect(INSECTS.index(rest)), (LANT_DRIP, 0)]
        src, dst = rest.split(">")
        k = 0 if g.drops[0] == self.c.stone_index[src] else 1
        if dst == "bottom":
            g.drops[k] = BOTTOM
            return [(BOTTOM_INSECT, 0), (BONUS, 0), (LANT_DRIP, 0)]
        t = self.c.stone_index[dst]
        g.drops[k] = t
        ins = self.c.stone_insect[t]
        new = self._gain_insect(INSECTS.index(ins)) if ins else []
        return [*new, (LANT_DRIP, 0)]

    def _frog_jump(self, g: Garden, lily: int) -> list[Task]:
        """Frog jump: an insect lily gives its insect; a dragonfly lily gives its top dragonfly,
        one per requirement per player, nothing if the stack is empty."""
        g.frog = lily
        new: list[Task] = []
        ins = self.c.lily_insect[lily]
        if ins:
            new = self._gain_insect(INSECTS.index(ins))
        else:
            req = self.c.lily_req[lily]
            assert req is not None
            bit = 1 << REQUIREMENTS.index(req)
            stack = self.stacks[self.c.dragon_lilies.index(lily)]
            if stack and not g.df_reqs & bit:
                g.df_reqs |= bit
                if stack.pop() == 5:
                    g.df_large += 1
                else:
                    g.df_medium += 1
        return [*new, (LANT_JUMP, 0)]

    def _advance(self) -> None:
        """Resolve tasks with one choice or none; at the end of a turn, clean up (P9)."""
        while not self.chance:
            if not self.tasks:
                return
            kind = self.tasks[0][0]
            if kind == PICK:
                return
            opts = self._options(self.tasks[0])
            if len(opts) > 1:
                self._legal = opts
                return
            if not opts:
                self.tasks.pop(0)
                if not self.tasks:
                    self._clean_up()
                continue
            self._apply_seat(opts[0])
            if not self.tasks:
                self._clean_up()

    def _clean_up(self) -> None:
        """Clean up (P9): slide the tools away from the flutter space, refill from the
        holder (one chance draw per tool), reveal new top leaves; next seat."""
        self.current_tool = -1
        self.turn += 1
        self._legal = None
        left = [t for t in self.board if t >= 0]
        self.board = [-1] * (4 - len(left)) + left
        over = self.turn >= self.players * self.c.turns
        for p in range(self.c.piles):
            if self.tops[p] < 0 and self.pile_left[p] > 0 and not over:
                self.chance.append(("reveal", p))
        remaining = sum(len(h) for h in self.holder)
        for s in range(3 - len(left), -1, -1):
            if remaining:
                self.chance.append(("draw", s))
                remaining -= 1
        if not self.chance and not over:
            self.tasks = [(PICK, 0)]

    def record(self) -> dict[str, Any]:
        """The game record; a finished solo game also carries its challenge report (P10)."""
        rec = super().record()
        if self.solo and self.is_over:
            from meeple.games.pergola.solo import challenge_report

            rec["challenge"] = challenge_report(self)
        return rec

    # ------------------------------------------------------------------ hidden info
    def view(self, seat: int) -> PergolaState:
        """P4: the holder order and the leaves under the tops are never decided before they are
        revealed (each draw is a chance move), so the state holds public information only."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} does not exist; seats are 0..{self.players - 1}")
        return self.clone()

    def sample_hidden(self, seat: int, rng: Rng) -> PergolaState:
        """A determinisation consistent with ``view(seat)``: nothing hidden is decided yet, so
        any state equal to the view is consistent; future draws come from chance moves."""
        return self.view(seat)

    def holder_order(self, rng: Rng) -> list[str]:
        """A sampled order of the tools still in the holder (for search that wants one)."""
        out: list[str] = []
        for h in self.holder:
            part = [self.c.tool_ids[t] for t in h]
            rng.shuffle(part)
            out += part
        return out


def new_pergola(players: int = 2, seed: int = 0,
                sheet: str | Path | Mapping[str, Any] | None = None,
                challenge: int | None = None) -> PergolaState:
    """A new game. ``challenge`` (1-10) picks the solo challenge (P10); solo only."""
    if challenge is not None:
        if players != 1:
            raise BadVariant(f"the solo challenges are for 1 player only; challenge={challenge} "
                             f"was asked with {players} players")
        if challenge not in range(1, 11):
            raise BadVariant(f"challenge must be 1 to 10, got {challenge!r}")
    if not 1 <= players <= 4:
        raise BadVariant(f"Pergola takes 1 to 4 players, not {players}")
    b = load_bundle(sheet)
    return PergolaState(players, seed, b, challenge)


__all__ = ["Garden", "PergolaState", "new_pergola", "score_garden"]

_ = IllegalMove
