"""Pergola (Rebel, 2023): the game state, the turn and the four actions.

A turn (P5) is a queue of small tasks for the seat to move: pick a tool; place its plants one
by one (hollyhocks and lavender leaves have one place and go there at once), then its lanterns,
then its insects (plants first so new flowers can take the new insects: our order where the
rulebook says "in any order"); perform the action (or another one with an action lantern);
optionally fill a honey pot; clean up. Tasks with a single possible choice resolve themselves.
Every tool draw and every new top leaf is an explicit chance move (A1, P4): the hidden order is
never decided before it is revealed, so ``view`` holds public information only.

Each task kind has one rule, named by the rulebook's words: a method listing the seat's choices
(``frog_jump_options``) beside the method doing what the chosen move says (``frog_jump``);
:data:`RULES` pairs them by task kind. A rule returns the tasks it adds to the front of the
queue (``frog_jump`` adds placing the insect it gives, then offering a jump lantern).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from meeple.core.errors import BadVariant, IllegalMove
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, KeptKey, Score, State, part_for_update
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.moves import (
    ACTION_LANTERN,
    ACTIONS,
    BEE,
    BIRD_ACTION,
    BONUS_MOVES,
    BUTTERFLY,
    DRIP_ACTION,
    DRIP_LANTERN,
    FLUTTER_ACTION,
    FLY,
    HONEY_MOVES,
    INSECT_LANTERN,
    INSECTS,
    JUMP_LANTERN,
    LADYBUG,
    LANTERN_ACTION_MOVES,
    LANTERN_MOVES,
    LANTERNS,
    LAVENDER_MOVES,
    OWN_ACTION_MOVES,
    SKIP,
    STOP,
    TAKE_MOVES,
    PergolaMove,
    Spot,
    flutter_move,
    is_move_text,
    parse,
    parse_spot,
    place_move,
)
from meeple.games.pergola.sheet import (
    BOTTOM,
    HOLLYHOCKS,
    LARGE,
    REQUIREMENTS,
    SMALL,
    SUP,
    Bundle,
    Compiled,
    compiled,
    load_bundle,
)
from meeple.games.pergola.solo import challenge_report

DRAGONFLY_REQUIREMENT = 4  # "at least 4" of the plant (printed)
MAX_POTS = 3  # P7
CUP_CAP = {SMALL: 1, LARGE: 2}
FLOWER_CAP = 3
BONUS_NAMES = sc.BONUSES
POT_NAMES = sc.POTS
#: Tool component -> the lantern kind / the insect it gives.
LANTERN_OF = {f"lantern-{x}": i for i, x in enumerate(LANTERNS)}
INSECT_OF = {x: i for i, x in enumerate(INSECTS)}


class Garden(KeptKey):
    """One player's boards: garden, pergola, cascade and tool pot (the data scoring reads)."""

    __slots__ = (
        "_seen", "bees_fly", "bfly", "bfly_fly", "bonuses", "cup_bees", "cups", "df_large",
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
        self.lanterns = [0, 0, 0, 0]  # unused, by kind: [DRIP_LANTERN], ..., [ACTION_LANTERN]
        self.lanterns_used = 0
        self.leaves: list[int] = []  # leaf indices on the birdhouse
        self.pots: list[str] = []
        self.drops = [c.starts[0], c.starts[1]]
        self.bonuses: list[str] = []
        self.frog = -1  # -1: still in the garden
        self.tools: list[int] = []
        self._key: Hashable | None = None  # key() kept until the garden is next changed
        # the garden's observation parts (learning.py), kept until the garden is next changed
        self._seen: Any = None

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
        g._seen = None
        return g

    def make_key(self) -> Hashable:
        """Everything in the garden. Kept once made: a garden is changed only through
        :meth:`PergolaState.garden_for_update`, which forgets it."""
        return (tuple(self.holly), tuple(self.bfly), self.bfly_fly, tuple(self.mag),
                tuple(self.mag_buds), tuple(self.lady), self.lady_fly, tuple(self.cups),
                tuple(self.cup_bees), self.lav_leaves, tuple(self.flowers), self.df_small,
                self.bees_fly, self.df_medium, self.df_large, self.df_reqs,
                tuple(self.lanterns), self.lanterns_used, tuple(self.leaves), tuple(self.pots),
                tuple(self.drops), tuple(self.bonuses), self.frog, tuple(self.tools))

    # ------------------------------------------------------------ insects on their spots
    def add_insect(self, k: int, spot: Spot) -> None:
        """Put an insect of kind ``k`` on ``spot`` (flying, or on its plant)."""
        where, i = spot
        if k == BUTTERFLY:
            if where == "fly":
                self.bfly_fly += 1
            else:
                self.bfly[i] += 1
        elif k == LADYBUG:
            if where == "fly":
                self.lady_fly += 1
            else:
                self.lady[i] += 1
        elif where == "fly":
            self.bees_fly += 1
        elif where == "cup":
            self.cup_bees[i] += 1
        else:
            self.flowers[i] += 1

    def remove_insect(self, k: int, spot: Spot) -> None:
        """Take an insect of kind ``k`` off ``spot``."""
        where, i = spot
        if k == BUTTERFLY:
            if where == "fly":
                self.bfly_fly -= 1
            else:
                self.bfly[i] -= 1
        elif k == LADYBUG:
            if where == "fly":
                self.lady_fly -= 1
            else:
                self.lady[i] -= 1
        elif where == "fly":
            self.bees_fly -= 1
        elif where == "cup":
            self.cup_bees[i] -= 1
        else:
            self.flowers[i] -= 1


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
Task = tuple[int, int]  # (kind, argument): the argument is the insect, size, flutters left, ...

#: The first word a short form stands for at each decision (``7`` at a frog jump is
#: ``jump 7``); used to explain a short form that is not legal now. See ``parse_move``.
SHORT_FOR: dict[int, tuple[str, ...]] = {
    PICK: ("pick",), MAGNOLIA: ("magnolia",), BUTTERCUP: ("buttercup",),
    LAVPAIR: ("lavender",), ACTION: ("action",), BIRD: ("leaf", "take"),
    DRIP: ("drip", "take"), BOTTOM_INSECT: ("take",), BONUS: ("bonus",), FROG: ("jump",),
    HONEY: ("honey",),
}
_KEYWORDS = frozenset(("pick", "magnolia", "buttercup", "lavender", *INSECTS, "action",
                       "lantern", "move", "stop", "leaf", "take", "drip", "bonus", "jump",
                       "honey", "skip", "draw", "reveal"))
#: Which insect sits on a kind of spot (a flutter's short form ``fly>h3`` moves a butterfly).
_SPOT_INSECT = {"h": BUTTERFLY, "m": LADYBUG, "cup": BEE, "flower": BEE}


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
        """Canonical text; case and extra spaces are forgiven for the moves legal now, and so
        are the short forms of the decision pending (``3`` for ``pick 3`` at a pick, ``7`` for
        ``jump 7`` at a frog jump, ``fly>cup2`` for ``move bee fly>cup2`` in a flutter; see
        :attr:`PergolaMove.short`). A short form that is not legal now reads as the full move,
        so that the refusal says what the decision takes."""
        if isinstance(text, str) and self.to_move is not None:
            t = " ".join(text.split()).lower()
            legal = self.legal_moves()
            for m in legal:
                if m.text.lower() == t:
                    return m
            if not self.chance and self.tasks:
                short = self._short_forms(legal).get(t)
                if short is not None:
                    return short
                written = " ".join(text.split())
                if written and not is_move_text(written):
                    full = self._read_short(t)
                    if full is not None:
                        return parse(full)
        return parse(text)

    @staticmethod
    def _short_forms(legal: list[PergolaMove]) -> dict[str, PergolaMove]:
        """Each short form of a legal move, if no other legal move has it too."""
        out: dict[str, PergolaMove] = {}
        taken: set[str] = set()
        for m in legal:
            for f in m.short:
                f = f.lower()
                if f in out and out[f] is not m:
                    taken.add(f)
                out[f] = m
        for f in taken:
            del out[f]
        return out

    def _read_short(self, written: str) -> str | None:
        """The full text a short form (in lower case) stands for at the decision pending, if
        it reads as one."""
        if written.split(" ", 1)[0] in _KEYWORDS:
            return None
        kind, arg = self.tasks[0]
        if kind == INSECT:
            words: tuple[str, ...] = (INSECTS[arg],)
        elif kind == FLUTTER:
            words = ("move",) if " " in written else self._flutter_word(written)
        else:
            words = SHORT_FOR.get(kind, ())
        for w in words:
            if is_move_text(f"{w} {written}"):
                return f"{w} {written}"
        return None

    @staticmethod
    def _flutter_word(written: str) -> tuple[str, ...]:
        """``move KIND`` for a flutter's short form ``FROM>TO``: the kind its spots take."""
        kinds = set()
        for code in written.split(">"):
            try:
                where = parse_spot(code)[0]
            except ValueError:
                return ()
            if where != "fly":
                kinds.add(_SPOT_INSECT[where])
        return (f"move {INSECTS[kinds.pop()]}",) if len(kinds) == 1 else ()

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

    # ------------------------------------------------------------------ the turn engine
    def _options(self, task: Task) -> list[PergolaMove]:
        """The seat's choices for ``task`` (its rule's options; the garden is not changed)."""
        kind, arg = task
        return RULES[kind][0](self, self.gardens[self.seat], arg)

    def _apply(self, move: PergolaMove) -> None:
        if not move.form:  # known by its text only: play the legal move written so
            move = self._legal_move_written(move)
        self._legal = None
        if self.chance:
            self._apply_chance(move)
        else:
            self._apply_seat(move)
            if not self.tasks:
                self._clean_up()
        self._advance()

    def _legal_move_written(self, move: PergolaMove) -> PergolaMove:
        for m in self.legal_moves():
            if m.text == move.text:
                return m
        raise IllegalMove(self.illegal_reason(move) or f"{move} is not legal now", move)

    def _apply_seat(self, move: PergolaMove) -> None:
        """Take the task at the front of the queue and do what ``move`` chose (its rule's
        effect); the tasks the rule adds go to the front, in order."""
        kind, arg = self.tasks.pop(0)
        new = RULES[kind][1](self, self.garden_for_update(self.seat), arg, move)
        if new:
            self.tasks[0:0] = new

    def _apply_chance(self, move: PergolaMove) -> None:
        """A1, P2a, P4: a tool drawn from the holder onto an action space, or a new top leaf."""
        what, arg = self.chance.pop(0)
        if what == "draw":
            tool = move.tool
            for h in self.holder:
                if tool in h:
                    h.remove(tool)
                    break
            self.board[arg] = tool
        else:
            self.pool.remove(move.leaf)
            self.tops[arg] = move.leaf
        if not self.chance and self.turn < self.players * self.c.turns and not self.tasks:
            self.tasks = [(PICK, 0)]

    def garden_for_update(self, seat: int) -> Garden:
        """``seat``'s garden, ready to be changed: copied first if another state shares it
        (clones share gardens until one changes), its kept key and observation parts
        forgotten. Every change to a
        garden goes through here (the rules, and tests that set up positions)."""
        self._own = part_for_update(self.gardens, self._own, seat)
        garden = self.gardens[seat]
        garden._seen = None
        return garden

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

    def _gain_insect(self, k: int) -> list[Task]:
        """Take an insect from the supply (P1: nothing if none is left): tasks to place it and
        to offer an insect lantern."""
        idx = SUP[INSECTS[k]]
        if not self.supply[idx]:
            return []
        self.supply[idx] -= 1
        return [(INSECT, k), (LANT_INSECT, k)]

    def _take_options(self) -> list[PergolaMove]:
        """An insect of the seat's choice (``take bee``), of the kinds the supply still has."""
        return [TAKE_MOVES[k] for k, x in enumerate(INSECTS) if self.supply[SUP[x]]]

    # ============================================================== the rules, task by task
    # ---------------------------------------------------------- 1 pick a tool (P5, P9, P10)
    def pick_tool_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """P5 step 1: any one of the tools above the action board (``pick 3``)."""
        return [self.c.pick_moves[i] for i, t in enumerate(self.board) if t >= 0]

    def pick_tool(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """P5 steps 1-2: take the tool above ``move.space``, take its components (P1: nothing
        if the supply has none) and place them: hollyhocks, lavender leaves and lanterns at
        once, then the other plants, then the insects; then the action (P5 step 3: with an
        action lantern, a choice) and the honey pot (P7). Solo: the neighbour's discard (P10)."""
        space = move.space
        tool = self.board[space]
        self.board[space] = -1
        self.current_tool = tool
        g.tools.append(tool)
        if self.solo:
            self.neighbour_discard(space)
        plants: list[Task] = []
        insects: list[Task] = []
        for comp in self.c.tools[tool]:
            i = SUP[comp]
            if not self.supply[i]:
                continue
            self.supply[i] -= 1
            if comp in HOLLYHOCKS:  # hollyhock: on top of its colour's column
                g.holly[HOLLYHOCKS[comp]] += 1
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
            elif comp in LANTERN_OF:
                g.lanterns[LANTERN_OF[comp]] += 1
            else:
                self.supply[i] += 1  # taken through _gain_insect
                insects += self._gain_insect(INSECT_OF[comp])
        action = ACTIONS.index(self.c.board[space])
        act: list[Task] = ([(ACTION, action)] if g.lanterns[ACTION_LANTERN]
                           else self._action_tasks(action))
        return plants + insects + act + [(HONEY, 0)]

    def neighbour_discard(self, space: int) -> None:
        """P10: the solo neighbour discards the other tool in the same half of the board."""
        other = space ^ 1
        if self.board[other] >= 0:
            self.discards.append(self.board[other])
            self.board[other] = -1

    # ---------------------------------------------------------- 2 enrich your garden
    def place_magnolia_options(self, g: Garden, branches: int) -> list[PergolaMove]:
        """Rulebook, Magnolia: one tree; the first piece anywhere (level 1), later ones on a
        free bud, one level above the piece that holds it (``magnolia 4``)."""
        mm = self.c.magnolia_moves
        if not g.mag[0]:
            return [mm[0]]
        return [mm[lv + 1] for lv, n in enumerate(g.mag_buds) if n and lv + 1 < len(g.mag)]

    def place_magnolia(self, g: Garden, branches: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Magnolia: a piece on level L uses a free bud of level L-1 and brings 1
        (single branch) or 2 (double branch) new buds."""
        level = move.level
        if level > 0:
            g.mag_buds[level - 1] -= 1
        g.mag[level] += 1
        g.mag_buds[level] += branches
        return []

    def place_buttercup_options(self, g: Garden, size: int) -> list[PergolaMove]:
        """Rulebook, Buttercup: on a free pergola space that takes its size (``buttercup 2``)."""
        return [self.c.buttercup_moves[i] for i in self._buttercup_spaces(g, size)]

    def place_buttercup(self, g: Garden, size: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Buttercup: the buttercup stays on its space (P6: plants never move)."""
        g.cups[move.space] = size
        return []

    def _buttercup_spaces(self, g: Garden, size: int) -> list[int]:
        """Buttercups go on free pergola spaces that take their size (one per kind of space)."""
        seen: set[tuple[int, ...]] = set()
        out = []
        for i, acc in enumerate(self.c.spaces):
            if not g.cups[i] and size in acc and acc not in seen:
                seen.add(acc)
                out.append(i)
        return out

    def lavender_pair_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Lavender: a new pair of leaves takes a lavender flower or a small
        dragonfly, whichever the supply still has (P1)."""
        out = []
        if self.supply[SUP["lavender-flower"]]:
            out.append(LAVENDER_MOVES["flower"])
        if self.supply[SUP["dragonfly-small"]]:
            out.append(LAVENDER_MOVES["dragonfly"])
        return out

    def lavender_pair(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Lavender: the flower (3 spaces for bees) or the small dragonfly stays
        between the pair for the rest of the game."""
        if move.name == "flower":
            self.supply[SUP["lavender-flower"]] -= 1
            g.flowers.append(0)
        else:
            self.supply[SUP["dragonfly-small"]] -= 1
            g.df_small += 1
        return []

    def place_insect_options(self, g: Garden, insect: int) -> list[PergolaMove]:
        """P6: an insect just taken sits flying or on a free spot of its plant (``bee cup4``)."""
        return [place_move(insect, s) for s in self._free_spots(g, insect)]

    def place_insect(self, g: Garden, insect: int, move: PergolaMove) -> list[Task]:
        """P6: the insect goes where the move says."""
        g.add_insect(insect, move.spot)
        return []

    def _free_spots(self, g: Garden, insect: int) -> list[Spot]:
        """Where an insect may sit: flying (always, P6) or a free spot on its plant."""
        out: list[Spot] = [FLY]
        if insect == BUTTERFLY:  # butterflies on hollyhock flowers, one each
            for lv in range(max(g.holly)):
                if g.bfly[lv] < g.hollyhock_slots(lv):
                    out.append(("h", lv))
        elif insect == LADYBUG:  # ladybugs on magnolias, one each
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

    def insect_lantern_options(self, g: Garden, insect: int) -> list[PergolaMove]:
        """Rulebook, Lanterns (P5: usable on the turn it is gained): after taking an insect,
        an insect lantern takes another of the same type, if the supply has one."""
        if g.lanterns[INSECT_LANTERN] and self.supply[SUP[INSECTS[insect]]]:
            return [LANTERN_MOVES[INSECT_LANTERN], SKIP]
        return []

    def insect_lantern(self, g: Garden, insect: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Lanterns: the lantern is turned over and the second insect is placed."""
        if move.lantern != INSECT_LANTERN:
            return []
        self._use_lantern(g, INSECT_LANTERN)
        return self._gain_insect(insect)

    @staticmethod
    def _use_lantern(g: Garden, lantern: int) -> None:
        """Rulebook, Lanterns: a used lantern is flipped (it still counts for a honey pot)."""
        g.lanterns[lantern] -= 1
        g.lanterns_used += 1

    # ---------------------------------------------------------- 3 perform an action
    def choose_action_options(self, g: Garden, action: int) -> list[PergolaMove]:
        """P5 step 3: the tool's action, or another one with an action lantern (asked only
        when the seat has one)."""
        return [OWN_ACTION_MOVES[action]] + [LANTERN_ACTION_MOVES[a] for a in range(len(ACTIONS))
                                             if a != action]

    def choose_action(self, g: Garden, action: int, move: PergolaMove) -> list[Task]:
        """P5 step 3: perform the chosen action (an action lantern is used up for another)."""
        if move.lantern == ACTION_LANTERN:
            self._use_lantern(g, ACTION_LANTERN)
        return self._action_tasks(move.action)

    @staticmethod
    def _action_tasks(action: int) -> list[Task]:
        """The task that performs an action: a 2-insect flutter, a bird flight, a water drip,
        a frog jump."""
        if action == FLUTTER_ACTION:
            return [(FLUTTER, 2)]
        if action == BIRD_ACTION:
            return [(BIRD, 0)]
        if action == DRIP_ACTION:
            return [(DRIP, 0)]
        return [(FROG, 0)]

    def insect_flutter_options(self, g: Garden, left: int) -> list[PergolaMove]:
        """Rulebook, Insect flutter: move one butterfly, ladybug or bee (never a dragonfly,
        P6) to a free spot of its plant or to fly about (``move bee fly>cup2``); ``stop`` ends
        the flutter. A move that changes nothing (between two equal flowers) is not offered."""
        out = [STOP]
        for k in range(len(INSECTS)):
            for src in self._occupied_spots(g, k):
                g.remove_insect(k, src)  # listed as if lifted; put back below
                for dst in self._free_spots(g, k):
                    if dst == src or self._same_kind_of_spot(g, k, src, dst):
                        continue
                    out.append(flutter_move(k, src, dst))
                g.add_insect(k, src)
        return out

    def insect_flutter(self, g: Garden, left: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Insect flutter: up to ``left`` insects (2, or 1 for a leaf's flutter),
        one move each; ``stop`` ends it early."""
        if move.insect < 0:  # stop
            return []
        g.remove_insect(move.insect, move.source)
        g.add_insect(move.insect, move.spot)
        return [(FLUTTER, left - 1)] if left > 1 else []

    def _occupied_spots(self, g: Garden, insect: int) -> list[Spot]:
        """Where insects of a kind sit now (one spot per kind of spot, as in _free_spots)."""
        out: list[Spot] = []
        if insect == BUTTERFLY:
            if g.bfly_fly:
                out.append(FLY)
            out += [("h", lv) for lv, n in enumerate(g.bfly) if n]
        elif insect == LADYBUG:
            if g.lady_fly:
                out.append(FLY)
            out += [("m", lv) for lv, n in enumerate(g.lady) if n]
        else:
            if g.bees_fly:
                out.append(FLY)
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

    @staticmethod
    def _same_kind_of_spot(g: Garden, k: int, src: Spot, dst: Spot) -> bool:
        """A bee moved between two equal flowers changes nothing (skip such moves)."""
        if k != BEE or src[0] != dst[0] or src[0] == "fly":
            return False
        if src[0] == "cup":
            return (g.cups[src[1]] == g.cups[dst[1]]
                    and g.cup_bees[dst[1]] == g.cup_bees[src[1]])  # src already lowered
        return g.flowers[dst[1]] == g.flowers[src[1]]

    def bird_flight_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Bird flight: the top leaf of any pile (``leaf 2``); with no leaves left,
        an insect of the seat's choice (``take bee``)."""
        if any(t >= 0 for t in self.tops):
            return [self.c.leaf_moves[p] for p, t in enumerate(self.tops) if t >= 0]
        return self._take_options()

    def bird_flight(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Bird flight: the leaf goes onto the birdhouse and gives its insect, then
        its extra 1-insect flutter if it shows one; or the insect chosen."""
        if move.pile < 0:  # take an insect: no leaves left
            return self._gain_insect(move.insect)
        p = move.pile
        leaf = self.tops[p]
        self.tops[p] = -1
        self.pile_left[p] -= 1
        g.leaves.append(leaf)
        new = self._gain_insect(INSECT_OF[self.c.leaf_insect[leaf]])
        if self.c.leaf_flutter[leaf]:
            new.append((FLUTTER, 1))
        return new

    def water_drip_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Water drip: one drop one space down a stream (``drip c>f``); two drops
        never share a stone; with both drops at the bottom, take an insect instead."""
        d = g.drops
        if d[0] == BOTTOM and d[1] == BOTTOM:
            return self._take_options()
        out = []
        for k in (0, 1):
            if d[k] == BOTTOM:
                continue
            for t, m in zip(self.c.stone_to[d[k]], self.c.drip_moves[d[k]], strict=True):
                if t != BOTTOM and t == d[1 - k]:
                    continue
                out.append(m)
        return out

    def water_drip(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Water drip: a stone gives its insect; the bottom of the cascade gives an
        insect and a bonus spot (P8); then a drip lantern may drip again."""
        if move.stone < 0:  # take an insect: both drops at the bottom
            return [*self._gain_insect(move.insect), (LANT_DRIP, 0)]
        k = 0 if g.drops[0] == move.stone else 1
        if move.to == BOTTOM:
            g.drops[k] = BOTTOM
            return [(BOTTOM_INSECT, 0), (BONUS, 0), (LANT_DRIP, 0)]
        g.drops[k] = move.to
        ins = self.c.stone_insect[move.to]
        new = self._gain_insect(INSECT_OF[ins]) if ins else []
        return [*new, (LANT_DRIP, 0)]

    def bottom_of_cascade_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Water drip: a drop reaching the bottom takes a butterfly, a ladybug or a
        bee (P1: of the kinds left)."""
        return self._take_options()

    def bottom_of_cascade(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Water drip: the insect chosen at the bottom of the cascade is placed
        (the bonus spot is chosen next, P8)."""
        return self._gain_insect(move.insect)

    def cascade_bonus_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """P8: a drop on the bottom takes a bonus spot not taken yet (``bonus sets``)."""
        return [BONUS_MOVES[i] for i, b in enumerate(BONUS_NAMES) if b not in g.bonuses]

    def cascade_bonus(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """P8: the drop stays on its bonus spot (scored at the end)."""
        g.bonuses.append(move.name)
        return []

    def frog_jump_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Frog jump: the first jump lands on any lily, later ones on an adjacent
        lily (``jump 7``); a dragonfly lily needs its requirement met."""
        return [self.c.jump_moves[i] for i in self._frog_targets(g)]

    def _frog_targets(self, g: Garden) -> list[int]:
        """The lilies the frog may land on (indices)."""
        cands = range(len(self.c.lily_ids)) if g.frog < 0 else self.c.lily_adj[g.frog]
        out = []
        for i in cands:
            req = self.c.lily_req[i]
            if req is None or g.requirement_met(req):
                out.append(i)
        return out

    def frog_jump(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Frog jump: an insect lily gives its insect; a dragonfly lily gives its top
        dragonfly, one per requirement per player, nothing if the stack is empty; then a jump
        lantern may jump again."""
        lily = move.lily
        g.frog = lily
        new: list[Task] = []
        ins = self.c.lily_insect[lily]
        if ins:
            new = self._gain_insect(INSECT_OF[ins])
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

    @staticmethod
    def _lantern_again_options(g: Garden, lantern: int) -> list[PergolaMove]:
        """Rulebook, Lanterns: a drip or jump lantern, if the seat has one unused, repeats the
        action just done; the seat uses it or skips."""
        return [LANTERN_MOVES[lantern], SKIP] if g.lanterns[lantern] else []

    def _lantern_again(self, g: Garden, lantern: int, move: PergolaMove, again: Task) -> list[Task]:
        """Rulebook, Lanterns: the lantern is turned over and the action follows once more."""
        if move.lantern != lantern:
            return []
        self._use_lantern(g, lantern)
        return [again]

    def drip_lantern_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Lanterns: after a water drip, a drip lantern drips again (same or other
        drop)."""
        return self._lantern_again_options(g, DRIP_LANTERN)

    def drip_lantern(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Lanterns: the lantern is turned over and another water drip follows."""
        return self._lantern_again(g, DRIP_LANTERN, move, (DRIP, 0))

    def jump_lantern_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """Rulebook, Lanterns: after a frog jump, a jump lantern jumps again."""
        return self._lantern_again_options(g, JUMP_LANTERN)

    def jump_lantern(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """Rulebook, Lanterns: the lantern is turned over and another frog jump follows."""
        return self._lantern_again(g, JUMP_LANTERN, move, (FROG, 0))

    # ---------------------------------------------------------- honey (P5, P7)
    def fill_honey_pot_options(self, g: Garden, arg: int) -> list[PergolaMove]:
        """P7: when the bees on buttercups reach the next threshold (4, 7, 9), the seat may
        fill one of the pots not filled yet (``honey ladybugs``), at most three, or ``skip``."""
        if self._honey_ready(g):
            return [HONEY_MOVES[i] for i, p in enumerate(POT_NAMES) if p not in g.pots] + [SKIP]
        return []

    def fill_honey_pot(self, g: Garden, arg: int, move: PergolaMove) -> list[Task]:
        """P7: the pot stays filled even if bees later move."""
        if move.name:
            g.pots.append(move.name)
        return []

    def _honey_ready(self, g: Garden) -> bool:
        """P7: the next honey pot can be filled when the bees on buttercups reach 4, 7, 9."""
        n = len(g.pots)
        return (n < MAX_POTS and n < len(self.c.thresholds)
                and g.bees_on_buttercups() >= self.c.thresholds[n])

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The game record; a finished solo game also carries its challenge report (P10)."""
        rec = super().record()
        if self.solo and self.is_over:
            rec["challenge"] = challenge_report(self)
        return rec

    # ------------------------------------------------------------------ hidden info
    def seen_by(self, seat: int) -> PergolaState:
        """P4: the holder order and the leaves under the tops are never decided before they are
        revealed (each draw is a chance move), so the state holds public information only."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} does not exist; seats are 0..{self.players - 1}")
        return self.clone()

    def sample_hidden(self, seat: int, rng: Rng) -> PergolaState:
        """A determinisation consistent with ``seen_by(seat)``: nothing hidden is decided yet, so
        any state equal to the view is consistent; future draws come from chance moves."""
        return self.seen_by(seat)

    def holder_order(self, rng: Rng) -> list[str]:
        """A sampled order of the tools still in the holder (for search that wants one)."""
        out: list[str] = []
        for h in self.holder:
            part = [self.c.tool_ids[t] for t in h]
            rng.shuffle(part)
            out += part
        return out


Options = Callable[[PergolaState, Garden, int], list[PergolaMove]]
Effect = Callable[[PergolaState, Garden, int, PergolaMove], list[Task]]
S = PergolaState
#: Each task kind's rule: (the seat's choices, what the chosen move does), by task kind.
RULES_BY_KIND: dict[int, tuple[Options, Effect]] = {
    PICK: (S.pick_tool_options, S.pick_tool),
    MAGNOLIA: (S.place_magnolia_options, S.place_magnolia),
    BUTTERCUP: (S.place_buttercup_options, S.place_buttercup),
    LAVPAIR: (S.lavender_pair_options, S.lavender_pair),
    INSECT: (S.place_insect_options, S.place_insect),
    LANT_INSECT: (S.insect_lantern_options, S.insect_lantern),
    ACTION: (S.choose_action_options, S.choose_action),
    FLUTTER: (S.insect_flutter_options, S.insect_flutter),
    BIRD: (S.bird_flight_options, S.bird_flight),
    DRIP: (S.water_drip_options, S.water_drip),
    BOTTOM_INSECT: (S.bottom_of_cascade_options, S.bottom_of_cascade),
    BONUS: (S.cascade_bonus_options, S.cascade_bonus),
    FROG: (S.frog_jump_options, S.frog_jump),
    LANT_DRIP: (S.drip_lantern_options, S.drip_lantern),
    LANT_JUMP: (S.jump_lantern_options, S.jump_lantern),
    HONEY: (S.fill_honey_pot_options, S.fill_honey_pot),
}
del S
RULES: tuple[tuple[Options, Effect], ...] = tuple(RULES_BY_KIND[k] for k in range(len(TASK_NAMES)))
assert len(RULES) == len(RULES_BY_KIND) == HONEY + 1


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


def variant_players(variant: Mapping[str, Any]) -> tuple[int, int]:
    """The players a variant takes (``GameInfo.variant_players``): a solo challenge 1 (P10), the
    game without one 1 to 4."""
    return (1, 1) if variant.get("challenge") else (1, 4)


__all__ = [
    "BOTTOM", "LARGE", "RULES", "SMALL", "TASK_NAMES", "Compiled", "Garden", "PergolaState",
    "compiled", "new_pergola", "score_garden", "variant_players",
]
