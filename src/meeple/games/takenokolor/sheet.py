"""Takenokolor garden sheets as data: the pydantic model of a sheet file and its validation.

A sheet is a list of *areas* (a bamboo, a cloud, a sun, a river, a lantern, ...). Each area holds
*items* (the sections a player colours), each with a colour, a symbol, printed points and a grid
position for drawing. How an area may be coloured (any order, or in steps with side-by-side
alternatives), what completing it grants (free colourings, T3), which ladybugs it circles (T4),
the shared races (sun lock-out T6, lanterns T7, dragon feet) and the score pad rows are all data,
so a user who owns a printed sheet can type in its real values and play it.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from meeple.core.sheets import SheetModel, load_sheet
from meeple.games.takenokolor.moves import COLOUR, FREE, ROLL, TAKE, Move

SHIPPED_DIR = Path(__file__).parent / "sheets"

#: The four markers (T1), in rolling order.
COLOURS: tuple[str, ...] = ("B", "Y", "P", "G")
COLOUR_NAMES: dict[str, str] = {"B": "blue", "Y": "yellow", "P": "pink", "G": "green"}
SYMBOLS: tuple[str, ...] = ("circle", "square", "triangle")

Colour = Literal["B", "Y", "P", "G"]
ItemColour = Literal["B", "Y", "P", "G", "any"]
Symbol = Literal["circle", "square", "triangle"]
Kind = Literal[
    "bamboo", "cloud", "sun", "pond", "river", "fish", "lantern", "shoot", "favour", "dragon",
    "trail", "burst",
]
DEFAULT_FACES: tuple[Symbol, ...] = ("circle", "circle", "square", "square", "triangle", "triangle")
ID_PATTERN = r"^[a-z0-9][a-z0-9._-]*$"


class Grant(SheetModel):
    """A free colouring (T3): ``count`` items of areas of kind ``target``, colour and symbol
    ignored, order rules kept. ``spread``: ``any`` (anywhere), ``same`` (all in one area, the
    first pick chooses it), ``different`` (each in another area), ``group`` (one item in each area
    of one group, e.g. "one section on each of the three bamboos of that colour"; ``count`` is
    then ignored)."""

    target: Kind
    count: int = Field(default=1, ge=1, le=20)
    spread: Literal["any", "same", "different", "group"] = "any"
    label: str = ""


class Item(SheetModel):
    id: str = Field(pattern=ID_PATTERN)
    colour: ItemColour
    symbol: Symbol
    points: int = Field(default=0, ge=0, le=99)
    #: In a ``sequence`` area: items sharing a step are side-by-side alternatives (one of them
    #: may be coloured); steps are coloured in increasing order. Default: the item's position.
    step: int | None = None
    #: The id of an item that must be coloured first (a fish on its river section).
    requires: str | None = None
    #: Free colourings earned when this item is coloured (river symbols, party favours, ...).
    grants: list[Grant] = Field(default_factory=list)
    col: int = Field(ge=0, le=60)
    row: int = Field(ge=0, le=60)
    label: str = ""


class Area(SheetModel):
    id: str = Field(pattern=ID_PATTERN)
    kind: Kind
    title: str = ""
    #: Bamboo groups (same colour bamboos): group bonus, "group" free colourings.
    group: str | None = None
    #: ``any``: any order; ``sequence``: step by step (bamboo bottom to top, river left to right).
    order: Literal["any", "sequence"] = "any"
    #: Dragon: items in consecutive steps must be coloured with different colours.
    adjacent_different: bool = False
    #: Sun of the 3-panda sheet (T6): once a player completes it, no one else may colour theirs.
    lockout: bool = False
    #: Free colourings earned by completing the area (cloud, river of the 3-panda sheet).
    on_complete: list[Grant] = Field(default_factory=list)
    items: list[Item] = Field(min_length=1)


class Ladybug(SheetModel):
    """Circled when every listed area is complete and every listed item coloured (T4)."""

    id: str = Field(pattern=ID_PATTERN)
    areas: list[str] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)
    label: str = ""


class Race(SheetModel):
    """A shared first-player box: the first player to meet it keeps ``first``, later ones keep
    ``later`` (lanterns T7: all items, 4/2; dragon feet: any touching section)."""

    id: str = Field(pattern=ID_PATTERN)
    items: list[str] = Field(min_length=1)
    when: Literal["all", "any"] = "all"
    first: int = Field(ge=0, le=99)
    later: int = Field(ge=0, le=99)
    label: str = ""


class Measure(SheetModel):
    """``sum``: points of coloured items; ``last``: per area, points of the furthest coloured step
    (the highest bamboo leaf, the last burst); ``count``: number of coloured items."""

    op: Literal["sum", "last", "count"]
    areas: list[str] = Field(default_factory=list)
    kinds: list[Kind] = Field(default_factory=list)


class Row(SheetModel):
    """One row of the score pad.

    ``sum``: points of coloured items of the areas; ``complete``: ``points`` per complete area;
    ``groups``: ``points`` per group whose areas are all complete; ``majority``: ``places``
    (6, 4, 2) by number of coloured items, ties share the place; ``races``: the kept numbers of
    the races (all when ``races`` is empty); ``product``: ``left`` times ``right``;
    ``ladybugs``: ``points`` per circled ladybug."""

    row: str = Field(min_length=1)
    rule: Literal["sum", "complete", "groups", "majority", "races", "product", "ladybugs"]
    areas: list[str] = Field(default_factory=list)
    kinds: list[Kind] = Field(default_factory=list)
    points: int = Field(default=0, ge=0, le=99)
    places: list[int] = Field(default_factory=list)
    races: list[str] = Field(default_factory=list)
    left: Measure | None = None
    right: Measure | None = None


class Sheet(SheetModel):
    name: str = Field(min_length=1)
    title: str = ""
    pandas: int = Field(default=2, ge=1, le=5)
    reconstructed: bool = False
    note: str = ""
    #: A roll of a marker shows one of these faces, equally likely (T1, reconstructed).
    faces: list[Symbol] = Field(
        default_factory=lambda: list(DEFAULT_FACES),
        min_length=1,
    )
    #: The game ends after the round in which a player circles this many ladybugs (T4).
    ladybugs_to_end: int = Field(default=3, ge=1)
    areas: list[Area] = Field(min_length=1)
    ladybugs: list[Ladybug] = Field(default_factory=list)
    races: list[Race] = Field(default_factory=list)
    scoring: list[Row] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> Sheet:
        _validate(self)
        return self


def _selector(sheet: Sheet, areas: list[str], kinds: list[str], where: str) -> None:
    known = {a.id for a in sheet.areas}
    for a in areas:
        if a not in known:
            raise ValueError(f"{where}: unknown area {a!r}; areas are {', '.join(sorted(known))}")
    present = {a.kind for a in sheet.areas}
    for k in kinds:
        if k not in present:
            raise ValueError(f"{where}: no area of kind {k!r} on this sheet; kinds present: "
                             f"{', '.join(sorted(present))}")
    if not areas and not kinds:
        raise ValueError(f"{where}: name the areas it counts with 'areas' or 'kinds'")


def _validate(sheet: Sheet) -> None:
    ids = _unique_ids(sheet)
    item_area = {it.id: a for a in sheet.areas for it in a.items}
    cells: dict[tuple[int, int], str] = {}
    kinds = {a.kind for a in sheet.areas}
    for area in sheet.areas:
        _check_area_order(area)
        _check_area_items(area, cells, item_area)
        _check_area_grants(sheet, area, kinds)
    _check_requires_acyclic(item_area)
    _check_ladybugs(sheet, ids)
    race_ids = _check_races(sheet, ids)
    _check_score_rows(sheet, race_ids)


def _unique_ids(sheet: Sheet) -> dict[str, str]:
    """Every area's and item's id, each used once: id -> "area" or "item"."""
    ids: dict[str, str] = {}
    for area in sheet.areas:
        if area.id in ids:
            raise ValueError(f"id {area.id!r} is used twice; every area and item needs its own id")
        ids[area.id] = "area"
        for it in area.items:
            if it.id in ids:
                raise ValueError(
                    f"id {it.id!r} is used twice; every area and item needs its own id")
            ids[it.id] = "item"
    return ids


def _check_area_order(area: Area) -> None:
    """Steps only in a sequence, given to every item or none, never going down; the dragon's
    rules (adjacent_different, colour 'any') only in a sequence."""
    where = f"area {area.id!r}"
    if area.order == "any" and any(it.step is not None for it in area.items):
        raise ValueError(f"{where}: 'step' is only allowed in areas with order = 'sequence'")
    if area.order == "sequence":
        given = [it.step is not None for it in area.items]
        if any(given) and not all(given):
            raise ValueError(f"{where}: give 'step' to every item of the area or to none")
        steps = [it.step if it.step is not None else k for k, it in enumerate(area.items)]
        if any(b < a for a, b in pairwise(steps)):
            raise ValueError(f"{where}: list the items in step order (steps must not go down)")
    if area.adjacent_different and area.order != "sequence":
        raise ValueError(f"{where}: adjacent_different needs order = 'sequence'")
    if any(it.colour == "any" for it in area.items) and not area.adjacent_different:
        raise ValueError(f"{where}: items of colour 'any' are only allowed in an area with "
                         "adjacent_different = true (the dragon)")


def _check_area_items(area: Area, cells: dict[tuple[int, int], str],
                      item_area: dict[str, Area]) -> None:
    """Each item on a cell of its own (``cells``: those taken so far), requiring a known item
    other than itself."""
    for it in area.items:
        if (it.col, it.row) in cells:
            raise ValueError(f"item {it.id!r} is drawn on the same cell (col {it.col}, row "
                             f"{it.row}) as {cells[(it.col, it.row)]!r}")
        cells[(it.col, it.row)] = it.id
        if it.requires is not None:
            if it.requires not in item_area:
                raise ValueError(f"item {it.id!r} requires unknown item {it.requires!r}")
            if it.requires == it.id:
                raise ValueError(f"item {it.id!r} cannot require itself")


def _check_area_grants(sheet: Sheet, area: Area, kinds: set[Kind]) -> None:
    """The free colourings of the area and its items target a kind on the sheet (with groups,
    for spread = 'group')."""
    where = f"area {area.id!r}"
    for g in [*area.on_complete, *(g for it in area.items for g in it.grants)]:
        if g.target not in kinds:
            raise ValueError(f"{where}: a free colouring targets kind {g.target!r}, but "
                             f"no area has that kind; kinds present: {', '.join(sorted(kinds))}")
        if g.spread == "group" and not any(
            a.group for a in sheet.areas if a.kind == g.target
        ):
            raise ValueError(f"{where}: spread = 'group' needs {g.target} areas with a group")


def _check_requires_acyclic(item_area: dict[str, Area]) -> None:
    """'requires' must not form a cycle."""
    for it_id in item_area:
        seen = {it_id}
        cur = next(it for it in item_area[it_id].items if it.id == it_id).requires
        while cur is not None:
            if cur in seen:
                raise ValueError(f"item {it_id!r}: 'requires' forms a cycle")
            seen.add(cur)
            cur = next(it for it in item_area[cur].items if it.id == cur).requires


def _check_ladybugs(sheet: Sheet, ids: dict[str, str]) -> None:
    """Each ladybug circled by known areas or items, and enough of them to end the game (T4)."""
    for lb in sheet.ladybugs:
        if not lb.areas and not lb.items:
            raise ValueError(f"ladybug {lb.id!r}: name the areas or items that circle it")
        for a in lb.areas:
            if ids.get(a) != "area":
                raise ValueError(f"ladybug {lb.id!r}: unknown area {a!r}")
        for i in lb.items:
            if ids.get(i) != "item":
                raise ValueError(f"ladybug {lb.id!r}: unknown item {i!r}")
    if len(sheet.ladybugs) < sheet.ladybugs_to_end:
        raise ValueError(f"the sheet has {len(sheet.ladybugs)} ladybugs but ladybugs_to_end is "
                         f"{sheet.ladybugs_to_end}; the game could never end by ladybugs")


def _check_races(sheet: Sheet, ids: dict[str, str]) -> set[str]:
    """Each race with an id of its own and known items; returns the race ids."""
    race_ids = set()
    for r in sheet.races:
        if r.id in race_ids or r.id in ids:
            raise ValueError(f"race id {r.id!r} is used twice")
        race_ids.add(r.id)
        for i in r.items:
            if ids.get(i) != "item":
                raise ValueError(f"race {r.id!r}: unknown item {i!r}")
    return race_ids


def _check_score_rows(sheet: Sheet, race_ids: set[str]) -> None:
    """Each score row named once, counting known areas or kinds, with what its rule needs
    (places for a majority, both measures for a product) and known races."""
    rows = set()
    for row in sheet.scoring:
        where = f"score row {row.row!r}"
        if row.row in rows:
            raise ValueError(f"{where} appears twice; row names must differ")
        rows.add(row.row)
        if row.rule in ("sum", "complete", "groups", "majority"):
            _selector(sheet, row.areas, list(row.kinds), where)
        if row.rule == "majority" and not row.places:
            raise ValueError(f"{where}: rule 'majority' needs places, e.g. [6, 4, 2]")
        if row.rule == "product":
            if row.left is None or row.right is None:
                raise ValueError(f"{where}: rule 'product' needs both left and right measures")
            _selector(sheet, row.left.areas, list(row.left.kinds), where + " left")
            _selector(sheet, row.right.areas, list(row.right.kinds), where + " right")
        for r_id in row.races:
            if r_id not in race_ids:
                raise ValueError(f"{where}: unknown race {r_id!r}")


def shipped_names() -> list[str]:
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.toml"))


def load(source: Any) -> Sheet:
    """A validated sheet from a shipped name, a TOML path or sheet data (raises SheetError)."""
    return load_sheet(Sheet, source, SHIPPED_DIR, kind="Takenokolor sheet")


ANY = 4  # item colour index of dragon sections that take any colour


class Compiled:
    """Everything the engine needs from a sheet, precomputed once."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        items = [(ai, it) for ai, area in enumerate(sheet.areas) for it in area.items]
        self.n = len(items)
        self.item_ids = [it.id for _, it in items]
        self.index = {iid: k for k, iid in enumerate(self.item_ids)}
        self.item_area = [ai for ai, _ in items]
        self.item_colour = [
            COLOURS.index(it.colour) if it.colour != "any" else ANY for _, it in items]
        self.item_symbol = [SYMBOLS.index(it.symbol) for _, it in items]
        self.item_points = [it.points for _, it in items]
        self.area_ids = [a.id for a in sheet.areas]
        self.area_index = {a: k for k, a in enumerate(self.area_ids)}
        self._compile_steps()
        self._compile_unlocks(items)
        self._compile_markers()
        self.adjacent = 0
        for ai, area in enumerate(sheet.areas):
            if area.adjacent_different:
                self.adjacent |= self.area_mask[ai]
        self.lockout = [a.lockout for a in sheet.areas]
        self.initial_avail = 0
        for i in range(self.n):
            if self.prev_step[i] == 0 and self.requires[i] == 0:
                self.initial_avail |= 1 << i
        self._compile_grants(items)
        self._compile_groups()
        self._compile_ladybugs()
        self._compile_races()
        self._compile_faces()
        self._prebuild_moves()

    def _compile_steps(self) -> None:
        """Each area's items as bits and its steps in order (a sequence area's items that share a
        step are alternatives; an area in any order has a step per item)."""
        sheet = self.sheet
        n = self.n
        na = len(sheet.areas)
        self.area_mask = [0] * na
        self.area_steps: list[list[int]] = [[] for _ in range(na)]  # step masks in order
        self.area_sequence = [a.order == "sequence" for a in sheet.areas]
        self.item_step = [0] * n  # index of the item's step in its area
        self.prev_step = [0] * n  # mask of the previous step's items (0: first step / any)
        self.peers = [0] * n  # other items of the same step (alternatives)
        self.unlocks = [0] * n  # items that may become available when this one is coloured
        self.requires = [0] * n
        base = 0
        for ai, area in enumerate(sheet.areas):
            m = 0
            for k in range(len(area.items)):
                m |= 1 << (base + k)
            self.area_mask[ai] = m
            if area.order == "sequence":
                step_values: list[int] = []
                for k, it in enumerate(area.items):
                    sv = it.step if it.step is not None else k
                    if not step_values or step_values[-1] != sv:
                        step_values.append(sv)
                        self.area_steps[ai].append(0)
                    self.area_steps[ai][-1] |= 1 << (base + k)
                    self.item_step[base + k] = len(step_values) - 1
            else:
                for k in range(len(area.items)):
                    self.area_steps[ai].append(1 << (base + k))
                    self.item_step[base + k] = k
            base += len(area.items)

    def _compile_unlocks(self, items: list[tuple[int, Item]]) -> None:
        """What colouring an item makes available: the next step of its area, the items that
        require it; and what completes each area."""
        for i in range(self.n):
            ai = self.item_area[i]
            steps = self.area_steps[ai]
            st = self.item_step[i]
            if self.area_sequence[ai]:
                self.peers[i] = steps[st] & ~(1 << i)
                if st > 0:
                    self.prev_step[i] = steps[st - 1]
                if st + 1 < len(steps):
                    self.unlocks[i] |= steps[st + 1]
        for i, (_, it) in enumerate(items):
            if it.requires is not None:
                j = self.index[it.requires]
                self.requires[i] = 1 << j
                self.unlocks[j] |= 1 << i
        self.area_complete_mask = [
            (m if not seq else steps[-1])
            for m, seq, steps in zip(self.area_mask, self.area_sequence, self.area_steps,
                                     strict=True)]

    def _compile_markers(self) -> None:
        """The items each marker can colour: ``match[c][s]``, the fixed-colour items (c, s) plus
        the any-colour items with symbol s."""
        self.match = [[0] * 3 for _ in range(4)]
        for i in range(self.n):
            c, s = self.item_colour[i], self.item_symbol[i]
            if c == ANY:
                for cc in range(4):
                    self.match[cc][s] |= 1 << i
            else:
                self.match[c][s] |= 1 << i

    def _compile_grants(self, items: list[tuple[int, Item]]) -> None:
        """The free colourings (T3) each item and each completed area grants."""
        self.grants: list[Grant] = []
        self.item_grants: list[tuple[int, ...]] = [() for _ in range(self.n)]
        self.area_grants: list[tuple[int, ...]] = [() for _ in range(len(self.sheet.areas))]
        for i, (_, it) in enumerate(items):
            self.item_grants[i] = tuple(self._grant(g) for g in it.grants)
        for ai, area in enumerate(self.sheet.areas):
            self.area_grants[ai] = tuple(self._grant(g) for g in area.on_complete)

    def _compile_groups(self) -> None:
        """The areas by kind, and the bamboo groups: (kind, group) -> its areas' items, its
        number of areas."""
        sheet = self.sheet
        self.kind_mask: dict[str, int] = {}
        for ai, area in enumerate(sheet.areas):
            self.kind_mask[area.kind] = self.kind_mask.get(area.kind, 0) | self.area_mask[ai]
        self.group_mask: dict[tuple[str, str], int] = {}  # (kind, group) -> mask
        self.group_size: dict[tuple[str, str], int] = {}
        self.grouped_kind_mask: dict[str, int] = {}
        self.area_group: list[tuple[str, str] | None] = [None] * len(sheet.areas)
        for ai, area in enumerate(sheet.areas):
            if area.group is not None:
                key = (area.kind, area.group)
                self.area_group[ai] = key
                self.group_mask[key] = self.group_mask.get(key, 0) | self.area_mask[ai]
                self.group_size[key] = self.group_size.get(key, 0) + 1
                self.grouped_kind_mask[area.kind] = (
                    self.grouped_kind_mask.get(area.kind, 0) | self.area_mask[ai])

    def _compile_ladybugs(self) -> None:
        """The ladybugs (T4): the items and areas that circle each, and per item the ladybugs it
        counts toward."""
        self.ladybug_items = []
        self.ladybug_areas: list[tuple[int, ...]] = []
        self.item_ladybugs: list[list[int]] = [[] for _ in range(self.n)]
        for li, lb in enumerate(self.sheet.ladybugs):
            m = 0
            for iid in lb.items:
                m |= 1 << self.index[iid]
            self.ladybug_items.append(m)
            self.ladybug_areas.append(tuple(self.area_index[a] for a in lb.areas))
            touch = m
            for a in lb.areas:
                touch |= self.area_mask[self.area_index[a]]
            for i in range(self.n):
                if touch >> i & 1:
                    self.item_ladybugs[i].append(li)

    def _compile_races(self) -> None:
        """The first-player races (T7, dragon feet): each race's items, whether it needs all of
        them, its first and later numbers; per item the races it counts toward."""
        sheet = self.sheet
        self.race_mask = []
        self.race_all = []
        self.item_races: list[list[int]] = [[] for _ in range(self.n)]
        for ri, race in enumerate(sheet.races):
            m = 0
            for iid in race.items:
                m |= 1 << self.index[iid]
            self.race_mask.append(m)
            self.race_all.append(race.when == "all")
            for i in range(self.n):
                if m >> i & 1:
                    self.item_races[i].append(ri)
        self.race_first = [r.first for r in sheet.races]
        self.race_later = [r.later for r in sheet.races]

    def _compile_faces(self) -> None:
        """The faces of a marker (T1) with their chances, and the items some face can match."""
        counts = [sum(1 for f in self.sheet.faces if f == s) for s in SYMBOLS]
        total = len(self.sheet.faces)
        self.faces = [(s, counts[s] / total) for s in range(3) if counts[s]]
        #: items whose symbol some face shows (others can never be coloured with a marker)
        self.rollable = 0
        for i in range(self.n):
            if counts[self.item_symbol[i]]:
                self.rollable |= 1 << i

    def _prebuild_moves(self) -> None:
        """Every move of the sheet, built once, and by its text."""
        self.roll_moves = [[Move(ROLL, c, s, f"roll {COLOURS[c]} {SYMBOLS[s]}") for s in range(3)]
                           for c in range(4)]
        self.take_moves = [Move(TAKE, c, 0, f"take {COLOURS[c]}") for c in range(4)]
        self.colour_moves = [Move(COLOUR, i, 0, f"colour {iid}")
                             for i, iid in enumerate(self.item_ids)]
        self.free_moves = [Move(FREE, i, 0, f"free {iid}") for i, iid in enumerate(self.item_ids)]
        self.by_text: dict[str, Move] = {}
        for row in self.roll_moves:
            for m_ in row:
                self.by_text[m_.text] = m_
        for m_ in (*self.take_moves, *self.colour_moves, *self.free_moves):
            self.by_text[m_.text] = m_

    def _grant(self, g: Grant) -> int:
        self.grants.append(g)
        return len(self.grants) - 1

    def complete(self, coloured: int, ai: int) -> bool:
        """Is area ``ai`` complete: every item (any order) or its last step (sequence)?"""
        m = self.area_complete_mask[ai]
        if self.area_sequence[ai]:
            return coloured & m != 0
        return coloured & m == m
