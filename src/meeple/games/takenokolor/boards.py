"""Takenokolor for clients: the garden sheet's layout and the public position as plain data.

``view_layout(state)`` is what never changes at a table: every area and item of the sheet in
use with its grid position, colour, symbol, printed points, free colourings (``+``), order
rules, ladybugs, first-player races and score rows, all read from the sheet data (a user's own
sheet draws the same way). ``view_board(view_state, viewer)`` is what changes: per seat the
coloured items (with the ink used), the items open now, passed or locked, the ladybugs circled
and the races reached; the rolled markers and who took which; the panda holder; whose turn it
is and what they are doing, with the items they may colour now; and, for the seat to move
only, every legal move as a choice pointing at the layout element it concerns. Documented in
``docs/views/takenokolor.md``. ``view_boards(state, viewers)`` makes the boards of several
viewers of a position at once: the board once (every sheet is public), then the choices for the
seat to move. The boards are made as JSON data directly, without building (and validating)
their models, which remain the schema.

Element ids are those of the move notation: an item's id (``colour b3.2``, ``free c1``) and a
marker's letter (``take P``). Nothing here imports the terminal renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meeple.core.bits import bit_list
from meeple.core.present import public_boards
from meeple.core.state import CHANCE
from meeple.core.text import subject, verb
from meeple.core.viewmodel import TurnWords
from meeple.games.takenokolor.moves import COLOUR, FREE, ROLL, TAKE, Move
from meeple.games.takenokolor.sheet import ANY, COLOUR_NAMES, COLOURS, SYMBOLS
from meeple.games.takenokolor.words import (
    AREA_WORDS,
    ITEM_WORDS,
    end_reason,
    measure_text,
    resolve,
    row_detail,
    row_text,
)

if TYPE_CHECKING:
    from meeple.games.takenokolor.rules import TakenokolorState
    from meeple.games.takenokolor.sheet import Compiled, Grant, Measure

LAYOUT_SCHEMA = "takenokolor-layout/1"
BOARD_SCHEMA = "takenokolor-board/1"
OVER = 4  # the engine's phase after the last round


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------------- layout models
class MarkerInfo(_Model):
    """One of the four markers (T1); its id is the letter used in ``take <id>``."""

    id: Literal["B", "Y", "P", "G"] = Field(description="the marker's letter, as in 'take B'")
    name: str = Field(description="the colour's name: blue, yellow, pink, green")


class Face(_Model):
    """A face a rolled marker may show, with its chance."""

    symbol: Literal["circle", "square", "triangle"]
    chance: float = Field(description="probability of this face on one roll (0..1)")


class GrantInfo(_Model):
    """A free colouring (``+``, T3): colour and symbol ignored, order rules kept."""

    target: str = Field(description="the kind of area it colours (e.g. 'bamboo')")
    count: int = Field(description="how many items (ignored for spread 'group')")
    spread: Literal["any", "same", "different", "group"] = Field(
        description="any: anywhere; same: all in one area; different: each in another area; "
                    "group: one item on each area of one group (e.g. each bamboo of a colour)")
    label: str = Field(description="the sheet's own words for it (may be empty)")
    text: str = Field(description="what it gives, in words (the label, or made from the data)")


class ItemInfo(_Model):
    """One item a player colours (a bamboo section, a sun ray, a lantern, a fish...)."""

    id: str = Field(description="the item's id, as in 'colour <id>' / 'free <id>'")
    area: str = Field(description="the id of the area it belongs to")
    kind: str = Field(description="the area's kind (bamboo, cloud, sun, ...)")
    colour: Literal["B", "Y", "P", "G", "any"] = Field(
        description="the printed colour; 'any' for dragon sections any marker may colour")
    symbol: Literal["circle", "square", "triangle"]
    points: int = Field(description="printed points (a bamboo's leaf value; 0 if none)")
    col: int = Field(description="grid column, 0 at the left (abstract units: one cell)")
    row: int = Field(description="grid row, 0 at the top (abstract units: one cell)")
    label: str = Field(description="a printed word beside it (e.g. 'head'), or empty")
    step: int | None = Field(
        description="in an area coloured in order: the 0-based step (bamboo bottom to top, "
                    "river left to right); None in an any-order area")
    alternatives: list[str] = Field(
        description="other items of the same step: only one of them may be coloured")
    requires: str | None = Field(
        description="an item that must be coloured first (a fish on its river section)")
    grants: list[GrantInfo] = Field(
        description="free colourings earned when this item is coloured (drawn as '+')")
    ladybugs: list[str] = Field(description="ids of the ladybugs whose condition includes it")
    races: list[str] = Field(description="ids of the first-player races it counts for")


class Box(_Model):
    """The cells an area's items span: columns col..col+cols-1, rows row..row+rows-1."""

    col: int
    row: int
    cols: int
    rows: int


class AreaInfo(_Model):
    """One area of the garden (a bamboo, the cloud, the sun, the river, a lantern...)."""

    id: str
    kind: Literal["bamboo", "cloud", "sun", "pond", "river", "fish", "lantern", "shoot",
                  "favour", "dragon", "trail", "burst"]
    kind_name: str = Field(description="the kind in words ('party favours', 'fireworks trail')")
    item_name: str = Field(description="one item of this kind in words ('sun ray')")
    title: str = Field(description="the sheet's description of the area (may be empty)")
    label: str = Field(description="a short name to write on the sheet ('b1', 'cloud', "
                                   "'lantern l1')")
    group: str | None = Field(description="the bamboo group (same-colour bamboos), if any")
    order: Literal["any", "sequence"] = Field(
        description="any: items in any order; sequence: step by step, no going back")
    adjacent_different: bool = Field(
        description="dragon: sections of consecutive steps need different colours")
    lockout: bool = Field(description="sun of the 3-panda sheet (T6): once someone completes "
                                      "theirs, no one else may colour their own")
    on_complete: list[GrantInfo] = Field(description="free colourings earned by completing it")
    items: list[str] = Field(description="its item ids, in sheet order")
    steps: list[list[str]] = Field(
        description="sequence areas: item ids per step in colouring order (an inner list of "
                    "two or more: side-by-side alternatives); any-order areas: one item each")
    box: Box
    ladybugs: list[str] = Field(description="ids of the ladybugs completing it helps circle")


class LadybugInfo(_Model):
    """A ladybug: circled once every listed area is complete and every listed item coloured
    (T4); the game ends after the round in which a player circles ``ladybugs_to_end``."""

    id: str
    label: str = Field(description="what circles it, in words")
    areas: list[str] = Field(description="areas that must be complete")
    items: list[str] = Field(description="items that must be coloured")
    anchor: str = Field(description="the item to draw the ladybug beside (the top of a "
                                    "bamboo, the last step of a sequence)")


class RaceInfo(_Model):
    """A first-player box shared by all seats (lanterns T7, dragon feet): the first seat to
    meet it keeps ``first``, later seats keep ``later``."""

    id: str
    label: str
    items: list[str]
    when: Literal["all", "any"] = Field(description="all: every item coloured; any: one of them")
    first: int
    later: int
    anchor: str = Field(description="the item to draw the box beside")


class MeasureInfo(_Model):
    """One side of a product row."""

    op: Literal["sum", "last", "count"] = Field(
        description="sum: points of coloured items; last: per area, points of the furthest "
                    "coloured step; count: number of coloured items")
    areas: list[str] = Field(description="the areas it reads (kinds resolved to area ids)")
    text: str


class RowInfo(_Model):
    """One row of the score pad, in pad order (``View.scores[seat].rows`` has its value)."""

    row: str = Field(description="the row's name, the key in the score pad")
    rule: Literal["sum", "complete", "groups", "majority", "races", "product", "ladybugs"]
    text: str = Field(description="what the row counts, in words")
    areas: list[str] = Field(description="the areas it counts (kinds resolved to area ids)")
    points: int = Field(description="points per complete area / group / ladybug (0 if unused)")
    places: list[int] = Field(description="majority: points for 1st, 2nd, 3rd place")
    races: list[str] = Field(description="races: the race ids it adds up")
    left: MeasureInfo | None
    right: MeasureInfo | None


class SheetInfo(_Model):
    name: str
    title: str
    pandas: int = Field(description="the panda count printed on the sheet")
    reconstructed: bool = Field(description="true: values are ours, not the printed sheet's")
    note: str


class Grid(_Model):
    """The grid the items sit on: columns 0..cols-1, rows 0..rows-1."""

    cols: int
    rows: int


class TakenokolorLayout(_Model):
    """What never changes at a Takenokolor table: the sheet to draw (every seat has the same)."""

    schema_: str = Field(LAYOUT_SCHEMA, alias="schema", description="this format's version")
    game: Literal["takenokolor"] = "takenokolor"
    sheet: SheetInfo
    markers: list[MarkerInfo] = Field(description="the four markers in rolling order")
    faces: list[Face] = Field(description="the faces a rolled marker may show")
    ladybugs_to_end: int = Field(description="the game ends after the round in which a player "
                                             "circles this many ladybugs")
    grid: Grid
    areas: list[AreaInfo]
    items: list[ItemInfo] = Field(description="every item, in sheet order")
    ladybugs: list[LadybugInfo]
    races: list[RaceInfo]
    scoring: list[RowInfo] = Field(description="the score pad's rows, in pad order")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# ---------------------------------------------------------------------- board models
class MarkerState(_Model):
    """A marker this round."""

    id: Literal["B", "Y", "P", "G"]
    symbol: Literal["circle", "square", "triangle"] | None = Field(
        description="the rolled face; None until it is rolled this round")
    taken: bool = Field(description="someone has taken it this round (in hand counts)")
    by: int | None = Field(description="the seat that took it this round, or None")
    in_hand: bool = Field(description="taken by the seat to move, who is now colouring with it")


class Coloured(_Model):
    """A coloured item of a seat."""

    item: str
    ink: Literal["B", "Y", "P", "G"] = Field(
        description="the marker it was coloured with: the item's colour, blue for a free "
                    "colouring (T3: 'with their blue marker'), the marker used on a dragon "
                    "section")
    free: bool = Field(description="coloured by a free colouring")


class RaceKept(_Model):
    race: str
    kept: Literal["first", "later"] = Field(description="first: this seat got there first")
    points: int = Field(description="the number this seat keeps")


class SeatBoard(_Model):
    """Everything marked on one seat's sheet (all sheets are visible to all, as on paper)."""

    seat: int
    name: str
    coloured: list[Coloured] = Field(description="coloured items, in sheet order")
    open: list[str] = Field(
        description="items the order rules allow colouring now (whatever the roll)")
    passed: list[str] = Field(
        description="items of a sequence area behind its furthest coloured step or beside "
                    "a coloured alternative: they can never be coloured")
    locked: list[str] = Field(description="items locked because another seat completed a "
                                          "lock-out area first (T6)")
    complete: list[str] = Field(description="ids of complete areas")
    ladybugs: list[str] = Field(description="ids of the circled ladybugs")
    races: list[RaceKept] = Field(description="races this seat has reached")
    pad: dict[str, str] = Field(description="per score row, what it counts now for this seat "
                                            "(e.g. '3 of 4', '5 x 2'); values are in "
                                            "View.scores")


class FreeColouring(_Model):
    """The free colouring the seat to move is making now (T3)."""

    text: str = Field(description="what it gives, in words")
    label: str = Field("", description="the sheet's own words for it (may be empty; ``text`` "
                                       "is made from the data then)")
    target: str = Field(description="the kind of area it colours")
    spread: Literal["any", "same", "different", "group"]
    remaining: int = Field(description="items still to colour for it (group: once the group "
                                       "is chosen)")
    queued: int = Field(description="further free colourings waiting after this one")


class Choice(_Model):
    """One legal move of the seat to move, tied to the layout element it concerns."""

    move: str = Field(description="the move's canonical text, to send as is")
    target: str | None = Field(description="a layout element id: a marker letter for 'take', "
                                           "an item id for 'colour' and 'free'")
    kind: Literal["take", "colour", "free"] = Field(
        description="take: a marker; colour: an item with the marker in hand; free: a free "
                    "colouring")
    label: str = Field(description="words for a button")
    items: list[str] = Field(default_factory=list, description="take: the items this marker "
                             "could then colour (to light them before the marker is taken)")


class TakenokolorBoard(TurnWords):
    """What changes during a Takenokolor game, as one viewer may see it (everything is public)."""

    schema_: str = Field(BOARD_SCHEMA, alias="schema", description="this format's version")
    round: int = Field(description="the round being played (1-based); the last one once over")
    rounds_played: int = Field(description="rounds completed")
    holder: int = Field(description="the seat holding the panda: the roller, first to choose")
    phase: Literal["roll", "take", "colour", "free", "over"]
    to_move: int | None = Field(description="the seat deciding; None while rolling and once over")
    next_marker: Literal["B", "Y", "P", "G"] | None = Field(
        description="while rolling: the marker rolled next")
    markers: list[MarkerState] = Field(description="the four markers in rolling order")
    free: FreeColouring | None = Field(description="the free colouring being made, if any")
    seats: list[SeatBoard]
    claimed: list[str] = Field(description="races someone has reached (their first number "
                                           "is gone for everyone else)")
    end_reason: str | None = Field(description="why the game ended, once over")
    choices: list[Choice] = Field(description="the viewer's legal moves; empty unless the "
                                              "viewer is the seat to move")
    colourable: list[str] = Field(
        default_factory=list,
        description="colour and free phases: the items the seat to move may colour now (the "
                    "targets of its legal moves), the same for every viewer; else empty")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# ---------------------------------------------------------------------- words
def grant_text(g: Grant) -> str:
    if g.label:
        return g.label
    what = ITEM_WORDS.get(g.target, g.target)
    if g.spread == "group":
        return f"one {what} on each {AREA_WORDS.get(g.target, g.target)} of one group"
    many = what if g.count == 1 else f"{g.count} {what}s"
    tail = {"any": "", "same": " of one area", "different": ", each in another area"}
    return f"{'one ' if g.count == 1 else ''}{many}{tail[g.spread]}"


def _area_label(kind: str, aid: str) -> str:
    if kind == "bamboo" or aid.startswith(kind[:4]):
        return aid
    return f"{kind} {aid}"


# ---------------------------------------------------------------------- layout
def _grant(g: Grant) -> GrantInfo:
    return GrantInfo(target=g.target, count=g.count, spread=g.spread, label=g.label,
                     text=grant_text(g))


def _measure(cs: Compiled, m: Measure | None) -> MeasureInfo | None:
    if m is None:
        return None
    return MeasureInfo(op=m.op, areas=resolve(cs, m.areas, m.kinds), text=measure_text(cs, m))


def build_layout(cs: Compiled) -> TakenokolorLayout:
    """The layout model of a compiled sheet."""
    sheet = cs.sheet
    all_items = [it for a in sheet.areas for it in a.items]
    return TakenokolorLayout(
        schema=LAYOUT_SCHEMA,
        sheet=SheetInfo(name=sheet.name, title=sheet.title, pandas=sheet.pandas,
                        reconstructed=sheet.reconstructed, note=sheet.note),
        markers=[MarkerInfo(id=c, name=COLOUR_NAMES[c]) for c in COLOURS],  # type: ignore[arg-type]
        faces=[Face(symbol=SYMBOLS[s], chance=p) for s, p in cs.faces],  # type: ignore[arg-type]
        ladybugs_to_end=sheet.ladybugs_to_end,
        grid=Grid(cols=max(it.col for it in all_items) + 1,
                  rows=max(it.row for it in all_items) + 1),
        areas=_area_infos(cs), items=_item_infos(cs), ladybugs=_ladybug_infos(cs),
        races=[RaceInfo(id=r.id, label=r.label or r.id, items=list(r.items), when=r.when,
                        first=r.first, later=r.later, anchor=r.items[0]) for r in sheet.races],
        scoring=_score_rows(cs))


def _item_infos(cs: Compiled) -> list[ItemInfo]:
    """Every item, area by area, with its step, alternatives, grants, ladybugs and races."""
    sheet = cs.sheet
    ids = cs.item_ids
    item_lbs: dict[str, list[str]] = {iid: [] for iid in ids}
    for i, lis in enumerate(cs.item_ladybugs):
        item_lbs[ids[i]] = [sheet.ladybugs[li].id for li in lis]
    item_races = {ids[i]: [sheet.races[ri].id for ri in ris]
                  for i, ris in enumerate(cs.item_races)}
    items: list[ItemInfo] = []
    base = 0
    for ai, area in enumerate(sheet.areas):
        seq = cs.area_sequence[ai]
        for k, it in enumerate(area.items):
            i = base + k
            items.append(ItemInfo(
                id=it.id, area=area.id, kind=area.kind, colour=it.colour, symbol=it.symbol,
                points=it.points, col=it.col, row=it.row, label=it.label,
                step=cs.item_step[i] if seq else None,
                alternatives=[ids[j] for j in bit_list(cs.peers[i])],
                requires=it.requires, grants=[_grant(g) for g in it.grants],
                ladybugs=item_lbs[it.id], races=item_races[it.id]))
        base += len(area.items)
    return items


def _area_infos(cs: Compiled) -> list[AreaInfo]:
    """Every area with its rules, items, steps, box on the grid and ladybugs."""
    sheet = cs.sheet
    ids = cs.item_ids
    area_lbs: dict[str, list[str]] = {a: [] for a in cs.area_ids}
    for lb in sheet.ladybugs:
        touched = list(lb.areas) + [cs.area_ids[cs.item_area[cs.index[i]]] for i in lb.items]
        for a in dict.fromkeys(touched):
            area_lbs[a].append(lb.id)
    areas: list[AreaInfo] = []
    for ai, area in enumerate(sheet.areas):
        cols = [it.col for it in area.items]
        rows = [it.row for it in area.items]
        areas.append(AreaInfo(
            id=area.id, kind=area.kind, kind_name=AREA_WORDS[area.kind],
            item_name=ITEM_WORDS[area.kind], title=area.title,
            label=_area_label(area.kind, area.id), group=area.group, order=area.order,
            adjacent_different=area.adjacent_different, lockout=area.lockout,
            on_complete=[_grant(g) for g in area.on_complete],
            items=[it.id for it in area.items],
            steps=[[ids[j] for j in bit_list(m)] for m in cs.area_steps[ai]],
            box=Box(col=min(cols), row=min(rows), cols=max(cols) - min(cols) + 1,
                    rows=max(rows) - min(rows) + 1),
            ladybugs=area_lbs[area.id]))
    return areas


def _ladybug_infos(cs: Compiled) -> list[LadybugInfo]:
    """Every ladybug with the item it is drawn at: the last step of its first area, or its
    last item."""
    ladybugs = []
    for lb in cs.sheet.ladybugs:
        if lb.areas:
            ai = cs.area_index[lb.areas[0]]
            anchor = cs.item_ids[bit_list(cs.area_steps[ai][-1])[0]]
        else:
            anchor = lb.items[-1]
        ladybugs.append(LadybugInfo(id=lb.id, label=lb.label or lb.id, areas=list(lb.areas),
                                    items=list(lb.items), anchor=anchor))
    return ladybugs


def _score_rows(cs: Compiled) -> list[RowInfo]:
    """The score pad's rows with their rule in words and the areas they count."""
    return [RowInfo(row=row.row, rule=row.rule, text=row_text(cs, row),
                    areas=resolve(cs, row.areas, row.kinds) if row.areas or row.kinds else [],
                    points=row.points, places=list(row.places), races=list(row.races),
                    left=_measure(cs, row.left), right=_measure(cs, row.right))
            for row in cs.sheet.scoring]


def view_layout(state: TakenokolorState) -> dict[str, Any]:
    """What never changes at this table: the sheet in use, to draw (``PRESENTATION.view_layout``)."""
    return build_layout(state.cs).model_dump(mode="json", by_alias=True)


# ---------------------------------------------------------------------- board


def _cap(text: str) -> str:
    """A sentence starting with a seat's name: "You ..." capitalised, other names as written."""
    return "Y" + text[1:] if text.startswith("you ") else text


def _passed(cs: Compiled, col: int, i: int) -> bool:
    """An item behind (or beside) the furthest coloured step of its sequence area."""
    ai = cs.item_area[i]
    if not cs.area_sequence[ai]:
        return False
    done = col & cs.area_mask[ai]
    return bool(done) and cs.item_step[done.bit_length() - 1] >= cs.item_step[i]


def _marker_words(k: int, s: int) -> str:
    return f"{COLOUR_NAMES[COLOURS[k]]} {SYMBOLS[s]}"


def _doing(st: TakenokolorState) -> str:
    """What the seat to move is doing, without its name ("take a marker ..."); empty while
    rolling and once over."""
    ph = st.phase
    if ph == TAKE:
        return "take a marker that matches an item (colour and symbol)"
    if ph == COLOUR:
        k = st.taken
        return (f"colour a {_marker_words(k, st.rolled[k])} item with the "
                f"{COLOUR_NAMES[COLOURS[k]]} marker")
    if ph == FREE:
        g = st.cs.grants[st.pending[0][0]]
        return (f"make a free colouring: {grant_text(g)} (any colour and symbol, order rules "
                "kept)")
    return ""


def _result(st: TakenokolorState) -> str:
    return f"The game ended after round {st.rounds}: {end_reason(st, cite=False)}."


def _sentence(st: TakenokolorState) -> str:
    ph = st.phase
    if ph == ROLL:
        return (f"{_cap(subject(st.seats[st.holder], 'rolls'))} the markers (the "
                f"{COLOUR_NAMES[COLOURS[st.n_rolled]]} marker next)")
    if ph == OVER:
        scores = st.scores()
        if st.players == 1:  # a game alone has a score, not a winner (A5)
            return f"{_result(st)} Final score: {scores[0].total}."
        winners = st.winners()
        names = " and ".join(st.seats[w] for w in winners)
        won = "share the win" if len(winners) > 1 else verb(names, "wins")
        return f"{_result(st)} {_cap(f'{names} {won}')} with {scores[winners[0]].total}."
    who = st.seats[st.seat]
    # "you take", "Ann takes": the verb of the phrase agrees with the name
    first, _, rest = _doing(st).partition(" ")
    return f"{_cap(subject(who, first + 's'))} {rest}"


def _item_words(cs: Compiled, i: int) -> str:
    c = cs.item_colour[i]
    colour = "any colour" if c == ANY else COLOUR_NAMES[COLOURS[c]]
    pts = cs.item_points[i]
    return (f"{colour} {SYMBOLS[cs.item_symbol[i]]}"
            + (f", {pts} point{'s' if pts != 1 else ''}" if pts else ""))


def _choices(st: TakenokolorState) -> list[dict[str, Any]]:
    """Every legal move of the seat to move as a :class:`Choice`, as JSON data."""
    cs = st.cs
    out: list[dict[str, Any]] = []
    for m in st.legal_moves():
        if m.kind == TAKE:
            targets = st._targets(st.seat, m.a, st.rolled[m.a])
            out.append({"move": m.text, "target": COLOURS[m.a], "kind": "take",
                        "label": _label(st, m), "items": [cs.item_ids[i] for i in targets]})
        elif m.kind in (COLOUR, FREE):
            out.append({"move": m.text, "target": cs.item_ids[m.a],
                        "kind": "colour" if m.kind == COLOUR else "free",
                        "label": _label(st, m), "items": []})
    return out


def _label(st: TakenokolorState, m: Move) -> str:
    """A decision of the seat to move in words, as its choice's label says it."""
    if m.kind == TAKE:
        return f"Take the {_marker_words(m.a, st.rolled[m.a])} marker"
    iid = st.cs.item_ids[m.a]
    return f"Colour {iid}{' free' if m.kind == FREE else ''} ({_item_words(st.cs, m.a)})"


def describe(st: TakenokolorState, move: Move) -> str:
    """``PRESENTATION.describe``: ``move`` played from ``st`` in words, as its choice says it
    ("take the blue circle marker", "colour b3.2 (blue circle, 2 points)"); a roll: "the blue
    marker shows circle"."""
    if move.kind == ROLL:
        return f"the {COLOUR_NAMES[COLOURS[move.a]]} marker shows {SYMBOLS[move.b]}"
    words = _label(st, move)
    return words[:1].lower() + words[1:]


PHASES: tuple[Literal["roll", "take", "colour", "free"], ...] = ("roll", "take", "colour", "free")


def _from_log(st: TakenokolorState) -> tuple[list[int], list[int | None]]:
    """From the log: the items each seat coloured free (a mask per seat), and who took each
    marker this round."""
    free_items = [0] * st.players
    takers: list[int | None] = [None, None, None, None]
    this_round = True
    for mover, move in reversed(st.log()):
        if mover == CHANCE:
            if move.kind == ROLL and move.a == 0:
                this_round = False  # moves before the blue roll belong to earlier rounds
            continue
        if move.kind == FREE:
            free_items[mover] |= 1 << move.a
        elif move.kind == TAKE and this_round and st.phase != ROLL:
            takers[move.a] = mover
    return free_items, takers


def _seat_board(st: TakenokolorState, p: int, free_items: int) -> dict[str, Any]:
    """Seat ``p``'s sheet as a :class:`SeatBoard`, as JSON data; ``free_items``: the items it
    coloured free."""
    cs = st.cs
    ids = cs.item_ids
    col = st.coloured[p]
    code = st.colcode[p]
    coloured = []
    for i in bit_list(col):
        if cs.adjacent >> i & 1:
            ink = COLOURS[(code >> (2 * i)) & 3]
        elif free_items >> i & 1:
            ink = "B"
        else:
            ink = COLOURS[cs.item_colour[i]]
        coloured.append({"item": ids[i], "ink": ink, "free": bool(free_items >> i & 1)})
    rest = ~col & ((1 << cs.n) - 1)
    passed = [ids[i] for i in bit_list(rest & ~st.avail[p] & ~st.blocked[p])
              if _passed(cs, col, i)]
    races = []
    for ri, race in enumerate(cs.sheet.races):
        if st.first[p] >> ri & 1:
            races.append({"race": race.id, "kept": "first", "points": race.first})
        elif st.later[p] >> ri & 1:
            races.append({"race": race.id, "kept": "later", "points": race.later})
    return {
        "seat": p, "name": st.seats[p], "coloured": coloured,
        "open": [ids[i] for i in bit_list(st.avail[p] & ~col)],
        "passed": passed, "locked": [ids[i] for i in bit_list(st.blocked[p] & ~col)],
        "complete": [cs.area_ids[ai] for ai in range(len(cs.area_ids)) if cs.complete(col, ai)],
        "ladybugs": [cs.sheet.ladybugs[li].id for li in bit_list(st.ladybugs[p])],
        "races": races,
        "pad": {row.row: row_detail(st, row, p) for row in cs.sheet.scoring}}


def _markers(st: TakenokolorState, takers: list[int | None]) -> list[dict[str, Any]]:
    """The four markers this round as :class:`MarkerState`, as JSON data."""
    markers = []
    for k in range(4):
        s = st.rolled[k]
        rolled = s >= 0  # this round's roll (once over: the last round's)
        in_hand = st.phase == COLOUR and k == st.taken
        taken = rolled and (not st.left >> k & 1 or in_hand)
        markers.append({"id": COLOURS[k], "symbol": SYMBOLS[s] if rolled else None,
                        "taken": taken, "by": takers[k] if taken else None, "in_hand": in_hand})
    return markers


def _public(st: TakenokolorState) -> dict[str, Any]:
    """The board of ``st`` (a seat's view state) as every viewer sees it, as the JSON data of
    :class:`TakenokolorBoard` (its models are not built: made here, the data is valid):
    ``choices`` empty."""
    cs = st.cs
    ph = st.phase
    free_items, takers = _from_log(st)
    free = None
    if ph == FREE:
        g_idx, remaining, _allowed, _fixed = st.pending[0]
        g = cs.grants[g_idx]
        free = {"text": grant_text(g), "label": g.label, "target": g.target,
                "spread": g.spread, "remaining": remaining, "queued": len(st.pending) - 1}
    to_move = st.to_move
    return {
        "sentence": _sentence(st), "doing": _doing(st),
        "result_text": _result(st) if ph == OVER else "", "schema": BOARD_SCHEMA,
        "round": st.rounds if ph == OVER else st.rounds + 1, "rounds_played": st.rounds,
        "holder": st.holder, "phase": "over" if ph == OVER else PHASES[ph],
        "to_move": None if to_move in (None, CHANCE) else to_move,
        "next_marker": COLOURS[st.n_rolled] if ph == ROLL else None,
        "markers": _markers(st, takers), "free": free,
        "seats": [_seat_board(st, p, free_items[p]) for p in range(st.players)],
        "claimed": [r.id for ri, r in enumerate(cs.sheet.races) if st.claimed >> ri & 1],
        "end_reason": end_reason(st, cite=False) if ph == OVER else None, "choices": [],
        "colourable": [cs.item_ids[m.a] for m in st.legal_moves()] if ph in (COLOUR, FREE)
        else []}


def _board(public: dict[str, Any], st: TakenokolorState, viewer: int | None) -> dict[str, Any]:
    """The board ``public`` (:func:`_public` of ``st``) as ``viewer`` sees it: with the
    choices of the seat to move when it is the viewer."""
    if viewer is None or viewer != public["to_move"]:
        return public
    return {**public, "choices": _choices(st)}


def view_board(view_state: TakenokolorState, viewer: int | None) -> dict[str, Any]:
    """What changes, for ``viewer`` (``PRESENTATION.view_board``): ``view_state`` is
    ``state.seen_by(viewer)`` (``state.seen_by(0)`` for a spectator)."""
    return _board(_public(view_state), view_state, viewer)


def view_boards(state: TakenokolorState,
                viewers: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``PRESENTATION.view_boards``: one board for all (every sheet is public)."""
    return public_boards(state, viewers, _public, _board)
