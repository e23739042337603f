"""Pergola for clients (the browser): the table's layout and each view's board.

``view_layout(state)`` is what never changes at a table, taken from the data bundle in play (so
a user's own data draws as well as the shipped one): the action board (four action spaces and
their actions), every tool (id, type, components), the pond (lilies with their insect or
dragonfly requirement, adjacency and positions), the cascade (stones with their insects, the
streams between them and to the bottom, positions, the bonus spots), one garden's elements
(hollyhock columns and levels, magnolia levels, lavender flowers, the pergola spaces with the
sizes they take, the flying spots, lanterns, honey pots with their thresholds), the leaf piles
and colours, the supply items, the score pad's rows with their scoring tables and, in solo,
the ten challenges with the printed neighbours' scores.

``view_board(view_state, viewer)`` is what changes: the tools above the action spaces, the
holder's size by tool type (never its order), the leaf piles' top leaves and sizes (never the
leaves below), the dragonfly stacks, the supply, every seat's garden, the solo discards, whose
turn it is and what they are doing in words (and what the seat to move decides), the tool in
play, the challenge's progress in solo, and the choices of the seat to move, each keyed by the
layout element it targets. ``view_boards(state, viewers)`` makes the boards of several viewers
of a position at once: the board once (every seat's view is the same), then each viewer's
name and the choices for the seat to move. The boards are made as JSON data directly, without
building (and validating) their models, which remain the schema.

Element ids: every element id has a prefix and a colon, and ends in the word the move notation
uses: ``space:3`` (the target of ``action drip`` when drip is space 3), ``tool:S05`` (the
target of ``pick 3`` when S05 is above space 3),
``lily:7`` (``jump 7``), ``stone:c`` and ``bottom`` (``drip c>f``), ``stream:c>f``,
``bonus:sets``, ``pile:2`` (``leaf 2``), ``supply:bee`` (``take bee``), ``hollyhock:3``
(``butterfly h3``), ``magnolia:4`` (``magnolia 4``, ``ladybug m4``), ``cup:2``
(``buttercup 2``, ``bee cup2``), ``flower:1`` (``bee flower1``), ``fly:bee`` (``bee fly``),
``lantern:drip``, ``pot:ladybugs``. The garden elements (hollyhock, magnolia, cup, flower,
fly, lantern, pot, bonus) are those of the seat to move's garden when they are a choice's
target. Documented for front-end authors in ``docs/views/pergola.md``. This module reads only
the view state (``state.seen_by(seat)``, which holds public information only) and never imports
the terminal renderer.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meeple.core.state import CHANCE
from meeple.core.text import possessive, subject
from meeple.games.pergola import rules as R
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.moves import (
    ACTION,
    ACTIONS,
    BONUS,
    BUTTERCUP,
    DRAW,
    DRIP,
    HONEY,
    INSECTS,
    JUMP,
    LANTERN,
    LANTERNS,
    LAVENDER,
    LEAF,
    MAGNOLIA,
    MOVE,
    PICK,
    PLACE,
    REVEAL,
    SKIP_FORM,
    STOP_FORM,
    TAKE,
    PergolaMove,
    Spot,
)
from meeple.games.pergola.sheet import (
    BOTTOM,
    HOLLYHOCK_COLOURS,
    LARGE,
    REQUIREMENTS,
    SMALL,
    SUP,
    SUPPLY_ITEMS,
    Compiled,
)
from meeple.games.pergola.solo import (
    CHALLENGES,
    FREE_GAME,
    THOUSAND,
    challenge_met,
    challenge_progress,
)
from meeple.games.pergola.words import decision_text

if TYPE_CHECKING:
    from meeple.games.pergola.rules import PergolaState

LAYOUT_SCHEMA = "pergola-layout/1"
BOARD_SCHEMA = "pergola-board/1"

Insect = Literal["butterfly", "ladybug", "bee"]
Requirement = Literal["magnolia", "hollyhock", "buttercup", "lavender"]
Size = Literal["small", "large"]
ChoiceKind = Literal[
    "tool", "magnolia", "buttercup", "lavender", "insect", "action", "lantern", "flutter",
    "stop", "leaf", "take", "drip", "bonus", "jump", "honey", "skip",
]
Phase = Literal[
    "setup", "refill", "pick", "magnolia", "buttercup", "lavender", "insect", "insect-lantern",
    "action", "flutter", "bird", "drip", "bottom", "bonus", "frog", "drip-lantern",
    "jump-lantern", "honey", "over",
]

#: One word per task kind (``rules.TASK_NAMES`` order): the board's ``phase``.
PHASES: tuple[Phase, ...] = (
    "pick", "magnolia", "buttercup", "lavender", "insect", "insect-lantern", "action",
    "flutter", "bird", "drip", "bottom", "bonus", "frog", "drip-lantern", "jump-lantern",
    "honey",
)
assert len(PHASES) == len(R.TASK_NAMES)

ACTION_WORDS = {"flutter": "insect flutter", "bird": "bird flight", "drip": "water drip",
                "frog": "frog jump"}
ACTION_TEXTS = {
    "flutter": "move up to 2 of your butterflies, ladybugs or bees (never a dragonfly) to "
               "other free spots or to fly about",
    "bird": "take the top leaf of a pile onto your birdhouse, with its insect (and an extra "
            "1-insect flutter if the leaf shows one); with no leaves left, take an insect",
    "drip": "move one of your water drops one stone down a stream and take the stone's "
            "insect; at the bottom take an insect and a bonus spot; with both drops at the "
            "bottom, take an insect",
    "frog": "jump your frog to a lily (the first jump anywhere, later ones to an adjacent "
            "lily) and take its insect, or its top dragonfly if you meet its requirement",
}
LANTERN_TEXTS = {
    "drip": "after a water drip, drip again", "jump": "after a frog jump, jump again",
    "insect": "after taking an insect, take another of the same type",
    "action": "perform another action instead of the tool's",
}
POT_TEXTS = {"butterflies": "1 point per butterfly", "leaves": "1 point per 2 leaves",
             "ladybugs": "1 point per ladybug", "lanterns": "1 point per lantern"}
BONUS_TEXTS = {"sets": "1 point per set of a butterfly, a ladybug and a bee",
               "dragonflies": "1 point per dragonfly", "honey": "2 points per filled honey pot"}
REQUIREMENT_TEXTS = {r: f"at least {R.DRAGONFLY_REQUIREMENT} {w} in your garden" for r, w in
                     (("magnolia", "magnolias"), ("hollyhock", "hollyhocks"),
                      ("buttercup", "buttercups"), ("lavender", "lavender leaves"))}
COMPONENT_LABELS = {
    "hollyhock-blue": "blue hollyhock", "hollyhock-yellow": "yellow hollyhock",
    "hollyhock-red": "red hollyhock", "magnolia-single": "magnolia (1 branch)",
    "magnolia-double": "magnolia (2 branches)", "buttercup-small": "small buttercup",
    "buttercup-large": "large buttercup", "lavender-leaf": "lavender leaf",
    "butterfly": "butterfly", "ladybug": "ladybug", "bee": "bee",
    "lantern-drip": "drip lantern", "lantern-jump": "jump lantern",
    "lantern-insect": "insect lantern", "lantern-action": "action lantern",
    "lavender-flower": "lavender flower", "dragonfly-small": "small dragonfly",
    "dragonfly-medium": "medium dragonfly", "dragonfly-large": "large dragonfly",
}
#: A colour per leaf colour and hollyhock colour, readable on dark and light backgrounds; the
#: name always goes with it (colour-blind mode).
RGB = {"blue": "#1f6fd1", "yellow": "#d4a900", "red": "#d12a2a", "green": "#2e8b2e",
       "orange": "#e0740b", "purple": "#8e44ad", "pink": "#e05a9a", "white": "#9a9a9a",
       "brown": "#8b5a2b"}
DEFAULT_RGB = "#7a7a7a"
PLURALS = {"butterfly": "butterflies", "ladybug": "ladybugs", "bee": "bees"}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------------- the layout


class ActionSpace(_Frozen):
    """One of the four action spaces of the action board, left to right (P9: insect flutter
    first, where tools leave; new tools enter from the other end)."""

    id: str = Field(description="element id 'space:<n>' (n = 1..4, as in 'pick n'); also the "
                                "target of 'action X' and 'lantern action X' for its action")
    number: int = Field(description="1..4")
    action: Literal["flutter", "bird", "drip", "frog"]
    label: str = Field(description="the action in words: 'insect flutter'")
    text: str = Field(description="what the action does, in words")
    x: int = Field(description="column, left to right (0..3)")


class Tool(_Frozen):
    """One tool of the data (P2): its components are taken when it is picked."""

    id: str = Field(description="element id 'tool:<tool id>'")
    tool: str = Field(description="the tool id as in 'draw S05'")
    type: str = Field(description="its type (shovel, hoe, ...: the holder's sections)")
    components: list[str] = Field(description="supply items it gives, in order")
    labels: list[str] = Field(description="the components in words")


class Lily(_Frozen):
    """A water lily of the pond: a frog jump lands on it."""

    id: str = Field(description="element id 'lily:<lily id>' ('jump <lily id>')")
    lily: str = Field(description="the lily id as in moves")
    x: float
    y: float
    insect: Insect | None = Field(description="the insect it gives, or None (a dragonfly lily)")
    dragonfly: Requirement | None = Field(
        description="a dragonfly lily's requirement (None for an insect lily)")
    requirement: str | None = Field(description="the requirement in words")
    stack: int | None = Field(description="index into the board's 'stacks' of its dragonfly "
                                          "stack (dragonfly lilies only)")
    adjacent: list[str] = Field(description="element ids of the lilies a frog may jump to next")


class Stone(_Frozen):
    """A stone of the cascade (each player's own cascade board has the same stones)."""

    id: str = Field(description="element id 'stone:<stone id>'")
    stone: str = Field(description="the stone id as in 'drip c>f'")
    x: float
    y: float
    insect: Insect | None = Field(description="the insect a drop reaching it gives (start "
                                              "spots give none)")
    start: bool = Field(description="a water drop starts here")
    to: list[str] = Field(description="element ids the streams from it lead to: stones or "
                                      "'bottom'")


class Stream(_Frozen):
    """A stream from a stone down to another stone or the bottom."""

    id: str = Field(description="element id 'stream:<from>><to>', as in 'drip <from>><to>'")
    source: str = Field(description="element id of the stone it leaves")
    to: str = Field(description="element id of the stone it reaches, or 'bottom'")


class Place(_Frozen):
    """A spot drawn with a position (the bottom of the cascade, its bonus spots)."""

    id: str
    label: str
    text: str = ""
    x: float
    y: float


class Cascade(_Frozen):
    stones: list[Stone]
    streams: list[Stream]
    bottom: Place = Field(description="the bottom of the cascade (element id 'bottom'), below "
                                     "the lowest stones")
    bonus_spots: list[Place] = Field(description="the bottom's bonus spots 'bonus:<name>' "
                                                "(P8: one drop each, scored at the end)")
    starts: list[str] = Field(description="element ids of the two start stones")


class Pond(_Frozen):
    lilies: list[Lily]


class PergolaSpace(_Frozen):
    """A buttercup space of the pergola board."""

    id: str = Field(description="element id 'cup:<n>' ('buttercup n', 'bee cupn')")
    number: int
    accepts: list[Size] = Field(description="the buttercup sizes it takes")
    x: int


class Pot(_Frozen):
    id: str = Field(description="element id 'pot:<name>' ('honey <name>')")
    name: Literal["butterflies", "leaves", "ladybugs", "lanterns"]
    text: str


class LanternKind(_Frozen):
    id: str = Field(description="element id 'lantern:<kind>' ('lantern <kind>')")
    kind: Literal["drip", "jump", "insect", "action"]
    text: str


class Level(_Frozen):
    id: str = Field(description="element id: 'hollyhock:<level>' or 'magnolia:<level>'")
    level: int = Field(description="1-based")


class Labelled(_Frozen):
    id: str
    label: str
    rgb: str | None = None


class GardenLayout(_Frozen):
    """The elements of one garden (every seat's is the same; a choice's target is in the
    garden of the seat to move)."""

    hollyhock_columns: list[Labelled] = Field(description="'hollyhock:blue', ... in column order")
    hollyhock_levels: list[Level] = Field(description="'hollyhock:<level>', as many as a "
                                                      "column can grow")
    magnolia_levels: list[Level] = Field(description="'magnolia:<level>', as many as the tree "
                                                     "can grow")
    flowers: list[Labelled] = Field(description="'flower:<n>': the lavender flowers in the "
                                                "order they were placed (3 bees fill one)")
    lavender_pairs: int = Field(description="pairs of lavender leaves the supply allows")
    pergola: list[PergolaSpace]
    fly: list[Labelled] = Field(description="'fly:<insect>': insects flying about (score "
                                            "nothing where they score by plant)")
    lanterns: list[LanternKind]
    pots: list[Pot]
    honey_thresholds: list[int] = Field(description="bees on buttercups needed for the 1st, "
                                                    "2nd, 3rd honey pot (P7)")
    max_pots: int
    birdhouse: Labelled


class Piles(_Frozen):
    piles: list[Labelled] = Field(description="'pile:<n>' ('leaf n')")
    size: int = Field(description="leaves in each pile at the start")
    colours: list[Labelled] = Field(description="the leaf colours ('leaf-colour:<name>')")


class SupplyItem(_Frozen):
    id: str = Field(description="element id 'supply:<item>' (the target of 'take <insect>' "
                                "and 'lavender flower' / 'lavender dragonfly')")
    item: str
    label: str
    start: int = Field(description="how many the supply holds at the start (P1)")


class Table(_Frozen):
    """A scoring table: what a thing is worth (``values[i]`` for ``keys[i]``)."""

    keys: list[str]
    values: list[int]


class PadRow(_Frozen):
    """A row of the score pad, in printed order; its key in the view's ``scores[].rows``."""

    key: str
    label: str
    text: str = Field(description="how the row scores, in words")
    table: Table | None = Field(description="the row's scoring table, if it has one")


class Challenge(_Frozen):
    number: int
    title: str
    goal: str
    przemek: int = Field(description="the printed neighbour Przemek's score at this challenge")
    golab: int = Field(description="the printed neighbour Gołąb's score at this challenge")


class Solo(_Frozen):
    challenge: int = Field(description="the challenge played (10 = free game)")
    challenges: list[Challenge] = Field(description="all ten, for the achievement table; a "
                                                    "failed challenge's score is recorded in "
                                                    "the free game space")
    thousand: int = Field(description="the 1000 club: all ten spaces with a total this high")


class PergolaLayout(_Frozen):
    """What never changes at a Pergola table."""

    schema_: str = Field(LAYOUT_SCHEMA, alias="schema")
    data: str = Field(description="the data bundle's name ('standard', or a user's own)")
    players: int
    turns: int = Field(description="turns each seat plays")
    action_board: list[ActionSpace]
    tools: list[Tool]
    tool_types: list[str] = Field(description="the holder's sections, in the order they are "
                                              "drawn from, for this player count (P3)")
    pond: Pond
    cascade: Cascade
    garden: GardenLayout
    leaves: Piles
    supply: list[SupplyItem]
    score_pad: list[PadRow]
    solo: Solo | None = Field(description="the solo challenges (one seat only)")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _rgb(name: str) -> str:
    return RGB.get(name, DEFAULT_RGB)


def _stone_el(c: Compiled, i: int) -> str:
    return "bottom" if i == BOTTOM else f"stone:{c.stone_ids[i]}"


def _score_pad(c: Compiled) -> list[PadRow]:
    bl, ml = c.max_holly, c.max_mag
    return [
        PadRow(key="hollyhocks", label="Hollyhocks",
               text="each level of hollyhock flowers scores by how many colours it has",
               table=Table(keys=["1 colour", "2 colours", "3 colours"],
                           values=[sc.HOLLYHOCK_SET[n] for n in (1, 2, 3)])),
        PadRow(key="butterflies", label="Butterflies",
               text="each butterfly on a hollyhock flower scores by its level (flying: 0)",
               table=Table(keys=[f"level {lv}" for lv in range(1, bl + 1)],
                           values=[sc.butterfly_value(lv) for lv in range(1, bl + 1)])),
        PadRow(key="magnolias", label="Magnolias", text="each magnolia scores by its level",
               table=Table(keys=[f"level {lv}" for lv in range(1, ml + 1)],
                           values=[sc.magnolia_value(lv) for lv in range(1, ml + 1)])),
        PadRow(key="ladybugs", label="Ladybugs",
               text="each ladybug on a magnolia level scores by how many ladybugs share that "
                    "level (flying: 0)",
               table=Table(keys=["1 on the level", "2 on the level", "3 or more"],
                           values=[sc.ladybug_value(n) for n in (1, 2, 3)])),
        PadRow(key="buttercups", label="Buttercups",
               text=f"{sc.BUTTERCUP_PAIR} points per pair of a small and a large buttercup",
               table=Table(keys=["pair"], values=[sc.BUTTERCUP_PAIR])),
        PadRow(key="bees", label="Bees", text="only flowers full of bees score",
               table=Table(keys=["full small buttercup (1 bee)", "full large buttercup (2 bees)",
                                 f"full lavender flower ({R.FLOWER_CAP} bees)"],
                           values=[sc.BEES_SMALL, sc.BEES_LARGE, sc.BEES_LAVENDER])),
        PadRow(key="lavender leaves", label="Lavender leaves",
               text=f"{sc.LAVENDER_LEAF} points per lavender leaf",
               table=Table(keys=["leaf"], values=[sc.LAVENDER_LEAF])),
        PadRow(key="dragonflies", label="Dragonflies", text="each dragonfly by its size",
               table=Table(keys=list(sc.DRAGONFLY), values=list(sc.DRAGONFLY.values()))),
        PadRow(key="honey pots", label="Honey pots",
               text="each filled pot: " + "; ".join(f"{p}: {t}" for p, t in POT_TEXTS.items()),
               table=None),
        PadRow(key="waterdrops", label="Waterdrops",
               text="each bonus spot a drop took: " + "; ".join(
                   f"{b}: {t}" for b, t in BONUS_TEXTS.items()), table=None),
        PadRow(key="leaf colours", label="Leaf colours",
               text="1 point per different leaf colour on the birdhouse",
               table=Table(keys=["colour"], values=[1])),
    ]


_LAYOUTS: weakref.WeakKeyDictionary[Compiled, dict[int, dict[str, Any]]] = (
    weakref.WeakKeyDictionary())


def layout_model(state: PergolaState) -> PergolaLayout:
    """The layout of ``state``'s table as a model (see :func:`view_layout`)."""
    c = state.c
    b = c.bundle
    action_board = [ActionSpace(id=f"space:{i + 1}", number=i + 1, action=a,  # type: ignore[arg-type]
                                label=ACTION_WORDS[a], text=ACTION_TEXTS[a], x=i)
                    for i, a in enumerate(c.board)]
    tools = [Tool(id=f"tool:{t.id}", tool=t.id, type=t.type, components=list(t.components),
                  labels=[COMPONENT_LABELS[x] for x in t.components]) for t in b.tools.tool]
    piles = Piles(piles=[Labelled(id=f"pile:{p + 1}", label=f"leaf pile {p + 1}")
                         for p in range(c.piles)],
                  size=c.pile_size,
                  colours=[Labelled(id=f"leaf-colour:{col}", label=col, rgb=_rgb(col))
                           for col in c.colours])
    supply = [SupplyItem(id=f"supply:{item}", item=item, label=COMPONENT_LABELS[item],
                         start=c.supply[i]) for i, item in enumerate(SUPPLY_ITEMS)]
    return PergolaLayout(
        schema=LAYOUT_SCHEMA, data=b.name, players=state.players, turns=c.turns,
        action_board=action_board, tools=tools,
        tool_types=list(b.tools.types[str(state.players)]), pond=_pond_layout(c),
        cascade=_cascade_layout(c), garden=_garden_layout(c), leaves=piles, supply=supply,
        score_pad=_score_pad(c), solo=_solo_layout(state))


def _pond_layout(c: Compiled) -> Pond:
    """The lilies with their insect or dragonfly requirement, stack and neighbours."""
    stack_of = {lily: k for k, lily in enumerate(c.dragon_lilies)}
    return Pond(lilies=[Lily(id=f"lily:{x.id}", lily=x.id, x=x.x, y=x.y, insect=x.insect,
                             dragonfly=x.dragonfly,
                             requirement=REQUIREMENT_TEXTS[x.dragonfly] if x.dragonfly else None,
                             stack=stack_of.get(i), adjacent=[f"lily:{a}" for a in x.adjacent])
                        for i, x in enumerate(c.bundle.pond.lily)])


def _cascade_layout(c: Compiled) -> Cascade:
    """The cascade: its stones and streams, the bottom, and the bonus spots spread in a row
    below it."""
    b = c.bundle
    stones = [Stone(id=f"stone:{s.id}", stone=s.id, x=s.x, y=s.y, insect=s.insect,
                    start=s.id in b.cascade.starts,
                    to=["bottom" if t == "bottom" else f"stone:{t}" for t in s.to])
              for s in b.cascade.stone]
    streams = [Stream(id=f"stream:{s.id}>{t}", source=f"stone:{s.id}",
                      to="bottom" if t == "bottom" else f"stone:{t}")
               for s in b.cascade.stone for t in s.to]
    xs = [s.x for s in b.cascade.stone]
    low = max(s.y for s in b.cascade.stone) + 1
    mid = (min(xs) + max(xs)) / 2
    n_bonus = len(sc.BONUSES)
    spread = max(max(xs) - min(xs), n_bonus - 1)
    bonus = [Place(id=f"bonus:{name}", label=f"{name} bonus", text=BONUS_TEXTS[name],
                  x=mid + (k - (n_bonus - 1) / 2) * spread / max(n_bonus - 1, 1), y=low + 1)
             for k, name in enumerate(sc.BONUSES)]
    return Cascade(stones=stones, streams=streams,
                   bottom=Place(id="bottom", label="bottom of the cascade",
                               text="a drop reaching it takes an insect and a bonus spot",
                               x=mid, y=low),
                   bonus_spots=bonus, starts=[f"stone:{s}" for s in b.cascade.starts])


def _garden_layout(c: Compiled) -> GardenLayout:
    """A player's garden: hollyhock columns and levels, magnolia levels, lavender, the
    pergola's cups, the insects flying about, lanterns, pots and the birdhouse."""
    sizes: dict[int, Size] = {SMALL: "small", LARGE: "large"}
    return GardenLayout(
        hollyhock_columns=[Labelled(id=f"hollyhock:{col}", label=f"{col} hollyhock",
                                    rgb=_rgb(col)) for col in HOLLYHOCK_COLOURS],
        hollyhock_levels=[Level(id=f"hollyhock:{lv}", level=lv)
                          for lv in range(1, c.max_holly + 1)],
        magnolia_levels=[Level(id=f"magnolia:{lv}", level=lv) for lv in range(1, c.max_mag + 1)],
        flowers=[Labelled(id=f"flower:{j + 1}", label=f"lavender flower {j + 1}")
                 for j in range(c.supply[SUP["lavender-flower"]])],
        lavender_pairs=c.supply[SUP["lavender-leaf"]] // 2,
        pergola=[PergolaSpace(id=f"cup:{i + 1}", number=i + 1,
                              accepts=[sizes[a] for a in acc], x=i)
                 for i, acc in enumerate(c.spaces)],
        fly=[Labelled(id=f"fly:{k}", label=f"{PLURALS[k]} flying about") for k in INSECTS],
        lanterns=[LanternKind(id=f"lantern:{k}", kind=k,  # type: ignore[arg-type]
                              text=LANTERN_TEXTS[k]) for k in LANTERNS],
        pots=[Pot(id=f"pot:{p}", name=p, text=POT_TEXTS[p])  # type: ignore[arg-type]
              for p in sc.POTS],
        honey_thresholds=list(c.thresholds), max_pots=R.MAX_POTS,
        birdhouse=Labelled(id="birdhouse", label="birdhouse (leaves taken)"))


def _solo_layout(state: PergolaState) -> Solo | None:
    """A game alone: its challenge and the challenges' table; None with other players."""
    if state.players != 1:
        return None
    return Solo(challenge=state.challenge or FREE_GAME, thousand=THOUSAND,
                challenges=[Challenge(number=ch.number, title=ch.title, goal=ch.goal,
                                      przemek=ch.przemek, golab=ch.golab)
                            for ch in CHALLENGES])


def view_layout(state: PergolaState) -> dict[str, Any]:
    """What never changes at ``state``'s table, as JSON-able data (:class:`PergolaLayout`);
    built once per data bundle, player count and challenge."""
    cache = _LAYOUTS.setdefault(state.c, {})
    key = state.players * 100 + (state.challenge or 0)
    out = cache.get(key)
    if out is None:
        out = cache[key] = layout_model(state).model_dump(mode="json", by_alias=True)
    copied: dict[str, Any] = _copy(out)
    return copied


def _copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) for v in x]
    return x


# ---------------------------------------------------------------------- the board


class BoardSpace(_Frozen):
    space: str = Field(description="element id of the action space")
    tool: str | None = Field(description="element id of the tool above it, or None (empty)")


class HolderSection(_Frozen):
    type: str
    left: int = Field(description="tools of this type still in the holder (never which)")


class LeafFace(_Frozen):
    """A revealed leaf."""

    leaf: str = Field(description="the leaf id (as in 'reveal 2 G3')")
    colour: str
    rgb: str
    insect: Insect
    flutter: bool = Field(description="it also gives a 1-insect flutter")


class Pile(_Frozen):
    pile: str = Field(description="element id 'pile:<n>'")
    top: LeafFace | None = Field(description="the face-up top leaf; None while none is "
                                             "revealed (empty, or about to be revealed)")
    size: int = Field(description="leaves in the pile, the top one included")


class Stack(_Frozen):
    lily: str = Field(description="element id of its dragonfly lily")
    dragonflies: list[Literal["medium", "large"]] = Field(description="bottom first; the "
                                                                      "last is taken next")


class HollyhockColumn(_Frozen):
    id: str = Field(description="'hollyhock:<colour>'")
    colour: str
    height: int


class HollyhockLevel(_Frozen):
    id: str = Field(description="'hollyhock:<level>'")
    level: int
    flowers: int = Field(description="columns reaching this level: flowers a butterfly may sit "
                                     "on")
    colours: list[str] = Field(description="the colours of those flowers")
    butterflies: int


class MagnoliaLevel(_Frozen):
    id: str = Field(description="'magnolia:<level>'")
    level: int
    magnolias: int = Field(description="magnolia pieces on the level (a ladybug each)")
    free_buds: int = Field(description="free buds on them (each takes a magnolia one level up)")
    ladybugs: int


class Flower(_Frozen):
    id: str = Field(description="'flower:<n>'")
    bees: int
    full: bool


class Lavender(_Frozen):
    leaves: int
    pairs: int = Field(description="complete pairs (each holds a flower or a small dragonfly)")
    flowers: list[Flower]
    small_dragonflies: int = Field(description="pairs holding a small dragonfly")


class CupSpace(_Frozen):
    id: str = Field(description="'cup:<n>'")
    buttercup: Size | None
    bees: int
    capacity: int = Field(description="bees that fill it (0 without a buttercup)")
    full: bool


class Flying(_Frozen):
    butterfly: int
    ladybug: int
    bee: int


class Lanterns(_Frozen):
    unused: dict[str, int] = Field(description="by kind (drip, jump, insect, action)")
    used: int = Field(description="used (turned over) lanterns; they still count for the "
                                  "lanterns pot")


class Honey(_Frozen):
    pots: list[str] = Field(description="element ids of the filled pots, in the order filled")
    bees_on_buttercups: int
    next_threshold: int | None = Field(description="bees on buttercups the next pot needs; "
                                                   "None once no pot is left")
    values: dict[str, int] = Field(description="points each pot would give if filled now, by "
                                               "pot name (butterflies, leaves, ladybugs, "
                                               "lanterns)")


class Dragonflies(_Frozen):
    small: int
    medium: int
    large: int
    requirements_taken: list[Requirement] = Field(description="dragonfly lilies already "
                                                              "rewarded (one each)")


class Counts(_Frozen):
    butterflies: int
    ladybugs: int
    bees: int
    dragonflies: int
    leaves: int
    lanterns: int


class GardenBoard(_Frozen):
    """One seat's garden, pergola, cascade, birdhouse and tool pot (all public)."""

    seat: int
    name: str
    hollyhock_columns: list[HollyhockColumn]
    hollyhock_levels: list[HollyhockLevel] = Field(description="level 1 up to the tallest "
                                                               "column")
    magnolia_levels: list[MagnoliaLevel] = Field(description="level 1 up to the highest piece")
    lavender: Lavender
    pergola: list[CupSpace]
    flying: Flying
    lanterns: Lanterns
    honey: Honey
    birdhouse: list[LeafFace]
    drops: list[str] = Field(description="the two water drops: element ids of their stones "
                                         "or 'bottom'")
    bonus_spots: list[str] = Field(description="element ids of the bonus spots taken")
    frog: str | None = Field(description="element id of the frog's lily; None: still in the "
                                         "garden")
    dragonflies: Dragonflies
    tools: list[str] = Field(description="element ids of the tools taken, in order")
    counts: Counts


class Choice(_Frozen):
    """One legal move of the seat to move."""

    move: str = Field(description="the move's canonical text, to send as is")
    target: str | None = Field(description="element id to light and click; None for skip/stop")
    source: str | None = Field(default=None, description="for a flutter or a drip: the element "
                                                         "the insect or drop leaves (click it "
                                                         "first when targets repeat)")
    kind: ChoiceKind
    label: str = Field(description="words for a button")


class ChallengeProgress(_Frozen):
    number: int
    title: str
    goal: str
    met: bool = Field(description="met by the garden now (at the end: met or not)")
    progress: str = Field(description="how far along, in words")
    przemek: int
    golab: int
    recorded_as: int | None = Field(description="at the end: the achievement-table space the "
                                                "score goes to (10 when failed)")


class PergolaBoard(_Frozen):
    """What changes during a Pergola game, for one viewer."""

    schema_: str = Field(BOARD_SCHEMA, alias="schema")
    viewer: int | None
    to_move: int | None = Field(description="the seat deciding now; None during chance "
                                            "(tools drawn, leaves revealed) and at the end")
    seat_turn: int | None = Field(description="whose turn it is (also while its tools are "
                                              "refilled); None at the end")
    round: int = Field(description="1-based turn number of that seat (of 'turns')")
    phase: Phase
    doing: str = Field(description="what is happening, in words")
    tasks: list[str] = Field(description="the seat's steps still to come this turn, in words "
                                         "(the first is being decided)")
    decision: str | None = Field(description="what the seat to move decides now, in words "
                                             "(named from its legal moves, for every viewer); "
                                             "None while chance is pending and at the end")
    current_tool: str | None = Field(description="element id of the tool in play")
    action_board: list[BoardSpace]
    holder: list[HolderSection]
    piles: list[Pile]
    stacks: list[Stack]
    supply: dict[str, int]
    gardens: list[GardenBoard]
    discards: list[str] = Field(description="solo: element ids of the tools the neighbour "
                                            "discarded (P10), in order")
    challenge: ChallengeProgress | None
    choices: list[Choice]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _leaf(c: Compiled, i: int) -> dict[str, Any]:
    """Leaf ``i`` face up, as the JSON data of a :class:`LeafFace`."""
    col = c.leaf_colour[i]
    return {"leaf": c.leaf_ids[i], "colour": col, "rgb": _rgb(col), "insect": c.leaf_insect[i],
            "flutter": c.leaf_flutter[i]}


def _plants(s: PergolaState, seat: int) -> dict[str, Any]:
    """The plants of ``seat``'s garden as the first fields of its :class:`GardenBoard`, as
    JSON data: hollyhocks, magnolias, lavender and the pergola's buttercups."""
    g = s.gardens[seat]
    cols = [{"id": f"hollyhock:{col}", "colour": col, "height": g.holly[i]}
            for i, col in enumerate(HOLLYHOCK_COLOURS)]
    levels = [{"id": f"hollyhock:{lv + 1}", "level": lv + 1, "flowers": g.hollyhock_slots(lv),
               "colours": [col for i, col in enumerate(HOLLYHOCK_COLOURS) if g.holly[i] > lv],
               "butterflies": g.bfly[lv]}
              for lv in range(max(g.holly))]
    top = max((lv + 1 for lv, n in enumerate(g.mag) if n), default=0)
    mag = [{"id": f"magnolia:{lv + 1}", "level": lv + 1, "magnolias": g.mag[lv],
            "free_buds": g.mag_buds[lv], "ladybugs": g.lady[lv]} for lv in range(top)]
    flowers = [{"id": f"flower:{j + 1}", "bees": b, "full": b >= R.FLOWER_CAP}
               for j, b in enumerate(g.flowers)]
    sizes: dict[int, Size] = {SMALL: "small", LARGE: "large"}
    cups = []
    for i, x in enumerate(g.cups):
        cap = R.CUP_CAP.get(x, 0)
        cups.append({"id": f"cup:{i + 1}", "buttercup": sizes.get(x), "bees": g.cup_bees[i],
                     "capacity": cap, "full": bool(cap) and g.cup_bees[i] >= cap})
    return {
        "seat": seat, "name": s.seats[seat], "hollyhock_columns": cols,
        "hollyhock_levels": levels, "magnolia_levels": mag,
        "lavender": {"leaves": g.lav_leaves, "pairs": g.lav_leaves // 2, "flowers": flowers,
                     "small_dragonflies": g.df_small},
        "pergola": cups}


def _garden(s: PergolaState, seat: int) -> dict[str, Any]:
    """``seat``'s garden as the JSON data of a :class:`GardenBoard`."""
    c = s.c
    g = s.gardens[seat]
    n = len(g.pots)
    nxt = (c.thresholds[n] if n < min(R.MAX_POTS, len(c.thresholds)) else None)
    lanterns = sum(g.lanterns) + g.lanterns_used
    return {
        **_plants(s, seat),
        "flying": {"butterfly": g.bfly_fly, "ladybug": g.lady_fly, "bee": g.bees_fly},
        "lanterns": {"unused": {k: g.lanterns[i] for i, k in enumerate(LANTERNS)},
                     "used": g.lanterns_used},
        "honey": {"pots": [f"pot:{p}" for p in g.pots],
                  "bees_on_buttercups": g.bees_on_buttercups(), "next_threshold": nxt,
                  "values": {p: sc.pot_value(p, g.butterflies(), len(g.leaves), g.ladybugs(),
                                             lanterns) for p in sc.POTS}},
        "birdhouse": [_leaf(c, i) for i in g.leaves],
        "drops": [_stone_el(c, d) for d in g.drops],
        "bonus_spots": [f"bonus:{b}" for b in g.bonuses],
        "frog": None if g.frog < 0 else f"lily:{c.lily_ids[g.frog]}",
        "dragonflies": {"small": g.df_small, "medium": g.df_medium, "large": g.df_large,
                        "requirements_taken": [r for k, r in enumerate(REQUIREMENTS)
                                               if g.df_reqs >> k & 1]},
        "tools": [f"tool:{c.tool_ids[t]}" for t in g.tools],
        "counts": {"butterflies": g.butterflies(), "ladybugs": g.ladybugs(), "bees": g.bees(),
                   "dragonflies": g.dragonflies(), "leaves": len(g.leaves),
                   "lanterns": lanterns}}


def spot_element(spot: Spot, insect: int) -> str:
    """The garden element an insect's spot is drawn as."""
    where, i = spot
    if where == "fly":
        return f"fly:{INSECTS[insect]}"
    if where == "h":
        return f"hollyhock:{i + 1}"
    if where == "m":
        return f"magnolia:{i + 1}"
    return f"{where}:{i + 1}"


def _spot_words(spot: Spot) -> str:
    where, i = spot
    return {"fly": "flying", "h": f"hollyhock level {i + 1}", "m": f"magnolia level {i + 1}",
            "cup": f"buttercup space {i + 1}", "flower": f"lavender flower {i + 1}"}[where]


def _choice(*, move: str, target: str | None, kind: ChoiceKind, label: str,
            source: str | None = None) -> dict[str, Any]:
    """A :class:`Choice` as JSON data."""
    return {"move": move, "target": target, "source": source, "kind": kind, "label": label}


def choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    """The choice a legal move of the seat to move is: its target element and words, as the
    JSON data of a :class:`Choice`."""
    make = _CHOICES.get(m.form)
    if make is None:
        raise ValueError(f"no choice for the move {m.text!r} (form {m.form!r})")
    return make(s, m)


def _pick_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    c = s.c
    t = s.board[m.space]
    tool = c.tool_ids[t]
    parts = ", ".join(COMPONENT_LABELS[x] for x in c.tools[t])
    return _choice(move=m.text, target=f"tool:{tool}", kind="tool",
                   label=f"pick tool {tool}: {parts}; then {ACTION_WORDS[c.board[m.space]]}")


def _magnolia_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=f"magnolia:{m.level + 1}", kind="magnolia",
                   label=f"magnolia on level {m.level + 1}")


def _buttercup_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=f"cup:{m.space + 1}", kind="buttercup",
                   label=f"buttercup on space {m.space + 1}")


def _lavender_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    item = "lavender-flower" if m.name == "flower" else "dragonfly-small"
    return _choice(move=m.text, target=f"supply:{item}", kind="lavender",
                   label=f"a {COMPONENT_LABELS[item]} between the leaves")


def _place_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=spot_element(m.spot, m.insect), kind="insect",
                   label=f"{INSECTS[m.insect]} {_spot_words(m.spot)}")


def _action_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    if m.action < 0:
        raise ValueError(f"no choice for the move {m.text!r} (form {m.form!r})")
    space = s.c.board.index(ACTIONS[m.action])
    return _choice(move=m.text, target=f"space:{space + 1}", kind="action",
                   label=ACTION_WORDS[ACTIONS[m.action]])


def _lantern_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    """A lantern: an action lantern (another action instead) or a lantern of a kind."""
    if m.action >= 0:
        space = s.c.board.index(ACTIONS[m.action])
        word = ACTION_WORDS[ACTIONS[m.action]]
        return _choice(move=m.text, target=f"space:{space + 1}", kind="lantern",
                       label=f"action lantern: {word} instead")
    k = LANTERNS[m.lantern]
    return _choice(move=m.text, target=f"lantern:{k}", kind="lantern",
                   label=f"use {'an' if k[0] in 'aeiou' else 'a'} {k} lantern "
                         f"({LANTERN_TEXTS[k]})")


def _flutter_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=spot_element(m.spot, m.insect),
                   source=spot_element(m.source, m.insect), kind="flutter",
                   label=f"move a {INSECTS[m.insect]} from {_spot_words(m.source)} to "
                         f"{_spot_words(m.spot)}")


def _stop_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=None, kind="stop", label="stop the flutter")


def _skip_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=None, kind="skip", label="skip")


def _leaf_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    top = s.tops[m.pile]
    return _choice(move=m.text, target=f"pile:{m.pile + 1}", kind="leaf",
                   label=f"take leaf {s.c.leaf_ids[top]} from pile {m.pile + 1}")


def _take_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=f"supply:{INSECTS[m.insect]}", kind="take",
                   label=f"take a {INSECTS[m.insect]}")


def _drip_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    c = s.c
    to = _stone_el(c, m.to)
    where = "the bottom" if m.to == BOTTOM else f"stone {c.stone_ids[m.to]}"
    return _choice(move=m.text, target=to, source=f"stone:{c.stone_ids[m.stone]}",
                   kind="drip", label=f"drop from stone {c.stone_ids[m.stone]} to {where}")


def _bonus_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=f"bonus:{m.name}", kind="bonus",
                   label=f"{m.name} bonus ({BONUS_TEXTS[m.name]})")


def _jump_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    lily = s.c.lily_ids[m.lily]
    return _choice(move=m.text, target=f"lily:{lily}", kind="jump",
                   label=f"jump to lily {lily} ({_lily_gives(s, m.lily)})")


def _honey_choice(s: PergolaState, m: PergolaMove) -> dict[str, Any]:
    return _choice(move=m.text, target=f"pot:{m.name}", kind="honey",
                   label=f"fill the {m.name} pot ({POT_TEXTS[m.name]})")


#: the choice of each form of move, by its form
_CHOICES: dict[str, Callable[[PergolaState, PergolaMove], dict[str, Any]]] = {
    PICK: _pick_choice, MAGNOLIA: _magnolia_choice, BUTTERCUP: _buttercup_choice,
    LAVENDER: _lavender_choice, PLACE: _place_choice, ACTION: _action_choice,
    LANTERN: _lantern_choice, MOVE: _flutter_choice, STOP_FORM: _stop_choice,
    SKIP_FORM: _skip_choice, LEAF: _leaf_choice, TAKE: _take_choice, DRIP: _drip_choice,
    BONUS: _bonus_choice, JUMP: _jump_choice, HONEY: _honey_choice,
}


def describe(s: PergolaState, m: PergolaMove) -> str:
    """``PRESENTATION.describe``: ``m`` played from ``s`` in words, as its choice says it
    ("pick tool S07: ...; then insect flutter", "take leaf G3 from pile 3"); chance: "tool S05
    drawn onto action space 2 (red hollyhock, butterfly)", "leaf G3 (green) revealed on pile
    1"."""
    c = s.c
    if m.form == DRAW:
        space = s.chance[0][1] if s.chance and s.chance[0][0] == "draw" else -1
        onto = f" onto action space {space + 1}" if space >= 0 else ""
        parts = ", ".join(COMPONENT_LABELS[x] for x in c.tools[m.tool])
        return f"tool {c.tool_ids[m.tool]} drawn{onto} ({parts})"
    if m.form == REVEAL:
        return (f"leaf {c.leaf_ids[m.leaf]} ({c.leaf_colour[m.leaf]}) revealed on pile "
                f"{m.pile + 1}")
    if m.form == "":  # known by its text only: the legal move of that text
        m = next((x for x in s.legal_moves() if x.text == m.text), m)
        if m.form == "":
            return m.text
    return str(choice(s, m)["label"])


def _lily_gives(s: PergolaState, lily: int) -> str:
    c = s.c
    ins = c.lily_insect[lily]
    if ins:
        return f"a {ins}" if s.supply[SUP[ins]] else f"nothing: no {ins} left"
    req = c.lily_req[lily]
    assert req is not None
    g = s.gardens[s.seat]
    stack = s.stacks[c.dragon_lilies.index(lily)]
    if g.df_reqs >> REQUIREMENTS.index(req) & 1:
        return "nothing: its dragonfly already taken"
    if not stack:
        return "nothing: no dragonfly left"
    return f"a {'large' if stack[-1] == 5 else 'medium'} dragonfly"


def _task_words(s: PergolaState, task: tuple[int, int]) -> str:
    kind, arg = task
    if kind == R.MAGNOLIA:
        return f"place the magnolia ({'1 branch' if arg == 1 else '2 branches'})"
    if kind == R.BUTTERCUP:
        return f"place the {'small' if arg == SMALL else 'large'} buttercup"
    if kind == R.INSECT:
        return f"place the {INSECTS[arg]}"
    if kind == R.LANT_INSECT:
        return f"use an insect lantern for another {INSECTS[arg]}, or skip"
    if kind == R.ACTION:
        return (f"perform {ACTION_WORDS[ACTIONS[arg]]}, or another action with an action "
                f"lantern")
    if kind == R.FLUTTER:
        return f"insect flutter: move {'an insect' if arg == 1 else f'up to {arg} insects'} " \
               f"or stop"
    if kind == R.BIRD and not any(t >= 0 for t in s.tops):
        return "take an insect of any kind (bird flight: no leaves are left)"
    return TASK_WORDS.get(kind, R.TASK_NAMES[kind])


#: The other task kinds in words (``rules.TASK_NAMES`` says the same, more tersely).
TASK_WORDS = {
    R.PICK: "pick a tool",
    R.LAVPAIR: "choose a lavender flower or a small dragonfly for the new pair of leaves",
    R.BIRD: "take the top leaf of a pile (bird flight)",
    R.DRIP: "move a water drop one stone down a stream (water drip)",
    R.BOTTOM_INSECT: "take an insect at the bottom of the cascade",
    R.BONUS: "choose a bonus spot at the bottom of the cascade",
    R.FROG: "jump the frog to a lily (frog jump)",
    R.LANT_DRIP: "use a drip lantern to drip again, or skip",
    R.LANT_JUMP: "use a jump lantern to jump again, or skip",
    R.HONEY: "fill a honey pot, or skip",
}


def _doing(s: PergolaState) -> tuple[Phase, str, int | None]:
    """The phase word, the sentence and whose turn it is."""
    if s.is_over:
        return "over", "the game is over", None
    if s.turn >= s.players * s.c.turns:  # the last clean-up's draws
        return "refill", "the last turn is over: the last tools are drawn", None
    seat = s.seat
    name = s.seats[seat]
    if s.chance:
        what, arg = s.chance[0]
        phase: Phase = "setup" if s.turn == 0 and not s.gardens[0].tools else "refill"
        if what == "draw":
            sent = f"a tool is drawn from the holder onto action space {arg + 1}"
        else:
            sent = f"a new top leaf of pile {arg + 1} is revealed"
        if phase == "setup":
            return phase, f"setting up: {sent}", seat
        return phase, f"cleaning up after {possessive(s.seats[(s.turn - 1) % s.players])} " \
                      f"turn: {sent}", seat
    kind = s.tasks[0][0] if s.tasks else R.PICK
    words = _task_words(s, s.tasks[0]) if s.tasks else R.TASK_NAMES[R.PICK]
    return PHASES[kind], f"{subject(name, 'has', 'have')} to {words}", seat


def _challenge(s: PergolaState) -> dict[str, Any] | None:
    """A solo game's challenge and how far the garden is along it, as the JSON data of a
    :class:`ChallengeProgress`; None in a game of several seats."""
    if not s.solo:
        return None
    number = s.challenge or FREE_GAME
    ch = CHALLENGES[number - 1]
    met = challenge_met(s, number)
    return {"number": number, "title": ch.title, "goal": ch.goal, "met": met,
            "progress": challenge_progress(s), "przemek": ch.przemek, "golab": ch.golab,
            "recorded_as": (number if met else FREE_GAME) if s.is_over else None}


def _public(s: PergolaState) -> dict[str, Any]:
    """The board of the view state ``s`` as a spectator sees it, as the JSON data of
    :class:`PergolaBoard` (its models are not built: made here, the data is valid):
    ``viewer`` None, ``choices`` empty."""
    c = s.c
    phase, doing, seat = _doing(s)
    moving = s.to_move is not None and s.to_move != CHANCE
    types = c.bundle.tools.types[str(s.players)]
    return {
        "schema": BOARD_SCHEMA, "viewer": None,
        "to_move": None if s.to_move in (None, CHANCE) else s.to_move,
        "seat_turn": seat, "round": min(s.turn // s.players + 1, c.turns), "phase": phase,
        "doing": doing, "tasks": [] if s.chance else [_task_words(s, t) for t in s.tasks],
        "decision": decision_text([str(m) for m in s.legal_moves()]) if moving else None,
        "current_tool": None if s.current_tool < 0 else f"tool:{c.tool_ids[s.current_tool]}",
        "action_board": [{"space": f"space:{i + 1}",
                          "tool": None if t < 0 else f"tool:{c.tool_ids[t]}"}
                         for i, t in enumerate(s.board)],
        "holder": [{"type": ty, "left": len(h)} for ty, h in zip(types, s.holder, strict=True)],
        "piles": [{"pile": f"pile:{p + 1}", "top": None if s.tops[p] < 0 else _leaf(c, s.tops[p]),
                   "size": s.pile_left[p]} for p in range(c.piles)],
        "stacks": [{"lily": f"lily:{c.lily_ids[lily]}",
                    "dragonflies": ["large" if d == 5 else "medium" for d in s.stacks[k]]}
                   for k, lily in enumerate(c.dragon_lilies)],
        "supply": {item: s.supply[i] for i, item in enumerate(SUPPLY_ITEMS)},
        "gardens": [_garden(s, i) for i in range(s.players)],
        "discards": [f"tool:{c.tool_ids[t]}" for t in s.discards],
        "challenge": _challenge(s), "choices": []}


def _board(public: dict[str, Any], s: PergolaState, viewer: int | None) -> dict[str, Any]:
    """The board ``public`` (:func:`_public` of ``s``) for ``viewer``: named, with the
    choices of the seat to move when it is the viewer."""
    if viewer is None:
        return public
    if viewer != public["to_move"]:
        return {**public, "viewer": viewer}
    return {**public, "viewer": viewer, "choices": [choice(s, m) for m in s.legal_moves()]}


def board_model(s: PergolaState, viewer: int | None) -> PergolaBoard:
    """The board of the view state ``s`` for ``viewer`` as its model (see :func:`view_board`)."""
    return PergolaBoard.model_validate(view_board(s, viewer))


def view_board(view_state: PergolaState, viewer: int | None) -> dict[str, Any]:
    """What changes during the game, for ``viewer`` (a seat, or None for a spectator), as
    JSON-able data (:class:`PergolaBoard`); built from ``view_state`` (``state.seen_by(seat)``)
    alone."""
    return _board(_public(view_state), view_state, viewer)


def view_boards(state: PergolaState,
                viewers: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """The boards of several viewers of ``state`` (``PRESENTATION.view_boards``), each what
    :func:`view_board` gives it. Nothing hidden is ever in the state (P4: the tools in the
    holder and the leaves under the tops are drawn by chance moves when revealed), so
    ``state.seen_by(seat)`` is the same for every seat: the board is made once from one view,
    and the choices for the seat to move. The boards share their parts."""
    seen = state.seen_by(0)
    public = _public(seen)
    return {v: _board(public, seen, v) for v in viewers}


__all__ = ["BOARD_SCHEMA", "LAYOUT_SCHEMA", "PergolaBoard", "PergolaLayout", "board_model",
           "describe", "layout_model", "view_board", "view_boards", "view_layout"]
