"""Takenokolor garden sheets as data: the pydantic model of a sheet file and its validation.

A sheet is a list of *areas* (a bamboo, a cloud, a sun, a river, a lantern, ...). Each area holds
*items* (the sections a player colours), each with a colour, a symbol, printed points and a grid
position for drawing. How an area may be coloured (any order, or in steps with side-by-side
alternatives), what completing it grants (free colourings, T3), which ladybugs it circles (T4),
the shared races (sun lock-out T6, lanterns T7, dragon feet) and the score pad rows are all data,
so a user who owns a printed sheet can type in its real values and play it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from meeple.core.sheets import Found, Loc, SheetModel, as_int, as_str, entries, listed, load_sheet
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
KINDS: tuple[str, ...] = get_args(Kind)
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

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        return _area_order(data)


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
    places: list[Annotated[int, Field(ge=0)]] = Field(default_factory=list)
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

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        return _sheet_problems(data)


def _selector(data: Mapping[str, Any], known: set[str], present: set[str], loc: Loc,
              where: str, found: list[Found]) -> None:
    """The areas (by id) and kinds a score row or a measure counts: known, and at least one."""
    areas, kinds = listed(data, "areas"), listed(data, "kinds")
    for j, a in areas:
        if isinstance(a, str) and a not in known:
            found.append(((*loc, "areas", j), f"{where}: unknown area {a!r}; areas are "
                                              f"{', '.join(sorted(known))}"))
    for j, k in kinds:
        if isinstance(k, str) and k not in present:
            found.append(((*loc, "kinds", j), f"{where}: no area of kind {k!r} on this sheet; "
                                              f"kinds present: {', '.join(sorted(present))}"))
    if not areas and not kinds and isinstance(data.get("areas", []), list) and isinstance(
            data.get("kinds", []), list):
        found.append((loc, f"{where}: name the areas it counts with 'areas' or 'kinds'"))


def _area_order(area: Mapping[str, Any]) -> list[Found]:
    """Steps only in a sequence, given to every item or none, never going down; the dragon's
    rules (adjacent_different, colour 'any') only in a sequence."""
    aid = as_str(area.get("id"))
    where = f"area {aid!r}" if aid is not None else "this area"
    items = entries(area, "items")
    order = area.get("order", "any")
    found: list[Found] = []
    stepped = [(ii, it) for ii, it in items if it.get("step") is not None]
    if order == "any" and stepped:
        found.append((("items", stepped[0][0], "step"),
                      f"{where}: 'step' is only allowed in areas with order = 'sequence'"))
    if order == "sequence":
        found += _sequence_steps(where, items, stepped)
    found += _dragon_rules(where, area, items, order)
    return found


def _sequence_steps(where: str, items: list[tuple[int, Mapping[str, Any]]],
                    stepped: list[tuple[int, Mapping[str, Any]]]) -> list[Found]:
    """A sequence area's steps: given to every item or none, never going down."""
    found: list[Found] = []
    if stepped and len(stepped) < len(items):
        ii = next(ii for ii, it in items if it.get("step") is None)
        found.append((("items", ii), f"{where}: give 'step' to every item of the area or "
                                     f"to none"))
    last: int | None = None
    for k, (ii, it) in enumerate(items):
        step = as_int(it.get("step")) if it.get("step") is not None else k
        if step is None:
            continue
        if last is not None and step < last:
            found.append((("items", ii, "step") if it.get("step") is not None else
                          ("items", ii), f"{where}: list the items in step order (steps "
                                         f"must not go down)"))
            break
        last = step
    return found


def _dragon_rules(where: str, area: Mapping[str, Any],
                  items: list[tuple[int, Mapping[str, Any]]], order: Any) -> list[Found]:
    """The dragon's rules: adjacent_different only in a sequence, colour 'any' only with
    adjacent_different."""
    found: list[Found] = []
    if area.get("adjacent_different") is True and order != "sequence":
        found.append((("adjacent_different",), f"{where}: adjacent_different needs order = "
                                                "'sequence'"))
    anys = [ii for ii, it in items if it.get("colour") == "any"]
    if anys and area.get("adjacent_different") is not True:
        found.append((("items", anys[0], "colour"),
                      f"{where}: items of colour 'any' are only allowed in an area with "
                      f"adjacent_different = true (the dragon)"))
    return found


def _sheet_problems(data: Mapping[str, Any]) -> list[Found]:
    """Every problem across the sheet's parts, each at its own entry: ids used once, items on
    cells of their own, known references (requires, free colourings, ladybugs, races, score
    rows) and no cycle of 'requires'."""
    found: list[Found] = []
    areas = entries(data, "areas")
    ids = _unique_ids(areas, found)
    known_areas = {i for i, what in ids.items() if what == "area"}
    kinds = {k for _, a in areas if isinstance(k := a.get("kind"), str)}
    grouped = {a.get("kind") for _, a in areas if a.get("group") is not None}
    requires: dict[str, str | None] = {}
    cells: dict[tuple[int, int], str] = {}
    for ai, area in areas:
        where = f"area {as_str(area.get('id'))!r}"
        grants: list[tuple[Loc, Mapping[str, Any]]] = [(("areas", ai, "on_complete", g), grant)
                  for g, grant in entries(area, "on_complete")]
        grants += _check_items(ai, area, cells, requires, found)
        _check_grants(where, grants, kinds, grouped, found)
    _check_requires(areas, requires, found)
    _check_ladybugs(data, ids, found)
    races = _check_races(data, ids, found)
    _check_score_rows(data, known_areas, kinds, races, found)
    return found


def _check_items(ai: int, area: Mapping[str, Any], cells: dict[tuple[int, int], str],
                 requires: dict[str, str | None],
                 found: list[Found]) -> list[tuple[Loc, Mapping[str, Any]]]:
    """Each item of area ``ai`` on a cell of its own (``cells``: the cells taken so far);
    notes what each item requires; gives back the items' free colourings."""
    grants: list[tuple[Loc, Mapping[str, Any]]] = []
    for ii, it in entries(area, "items"):
        loc: Loc = ("areas", ai, "items", ii)
        iid = as_str(it.get("id"))
        col, row = as_int(it.get("col")), as_int(it.get("row"))
        if col is not None and row is not None:
            if (col, row) in cells:
                found.append(((*loc, "col"), f"item {iid!r} is drawn on the same cell (col "
                                             f"{col}, row {row}) as {cells[(col, row)]!r}"))
            else:
                cells[(col, row)] = iid or f"areas[{ai}].items[{ii}]"
        if iid is not None:
            requires.setdefault(iid, as_str(it.get("requires")))
        grants += [((*loc, "grants", g), grant) for g, grant in entries(it, "grants")]
    return grants


def _check_grants(where: str, grants: list[tuple[Loc, Mapping[str, Any]]], kinds: set[str],
                  grouped: set[Any], found: list[Found]) -> None:
    """Each free colouring that targets a kind: a kind present, spread by group only over
    areas with a group."""
    for loc, grant in grants:
        target = as_str(grant.get("target"))
        if target is None or target not in KINDS:
            continue
        if target not in kinds:
            found.append(((*loc, "target"), f"{where}: a free colouring targets kind "
                                            f"{target!r}, but no area has that kind; kinds "
                                            f"present: {', '.join(sorted(kinds))}"))
        elif grant.get("spread") == "group" and target not in grouped:
            found.append(((*loc, "spread"), f"{where}: spread = 'group' needs {target} "
                                            f"areas with a group"))


def _check_requires(areas: list[tuple[int, Mapping[str, Any]]],
                    requires: Mapping[str, str | None], found: list[Found]) -> None:
    """Each 'requires' names a known item, not the item itself, and forms no cycle."""
    for ai, area in areas:
        for ii, it in entries(area, "items"):
            iid, req = as_str(it.get("id")), as_str(it.get("requires"))
            loc: Loc = ("areas", ai, "items", ii, "requires")
            if req is None or iid is None:
                continue
            if req not in requires:
                found.append((loc, f"item {iid!r} requires unknown item {req!r}"))
            elif req == iid:
                found.append((loc, f"item {iid!r} cannot require itself"))
            elif _on_cycle(iid, requires):
                found.append((loc, f"item {iid!r}: 'requires' forms a cycle"))


def _unique_ids(areas: list[tuple[int, Mapping[str, Any]]], found: list[Found]) -> dict[str, str]:
    """Every area's and item's id, each used once: id -> "area" or "item"."""
    ids: dict[str, str] = {}
    for ai, area in areas:
        aid = as_str(area.get("id"))
        if aid is not None:
            if aid in ids:
                found.append((("areas", ai, "id"), f"id {aid!r} is used twice; every area and "
                                                   f"item needs its own id"))
            else:
                ids[aid] = "area"
        for ii, it in entries(area, "items"):
            iid = as_str(it.get("id"))
            if iid is None:
                continue
            if iid in ids:
                found.append((("areas", ai, "items", ii, "id"),
                              f"id {iid!r} is used twice; every area and item needs its own id"))
            else:
                ids[iid] = "item"
    return ids


def _on_cycle(start: str, requires: Mapping[str, str | None]) -> bool:
    """Does following 'requires' from item ``start`` come back to it?"""
    seen = {start}
    cur = requires.get(start)
    while cur is not None and cur in requires:
        if cur == start:
            return True
        if cur in seen:
            return False
        seen.add(cur)
        cur = requires[cur]
    return False


def _check_ladybugs(data: Mapping[str, Any], ids: Mapping[str, str], found: list[Found]) -> None:
    """Each ladybug circled by known areas or items, and enough of them to end the game (T4)."""
    for k, lb in entries(data, "ladybugs"):
        name = f"ladybug {as_str(lb.get('id'))!r}"
        areas, items = listed(lb, "areas"), listed(lb, "items")
        if not areas and not items:
            found.append((("ladybugs", k), f"{name}: name the areas or items that circle it"))
        for j, a in areas:
            if isinstance(a, str) and ids.get(a) != "area":
                found.append((("ladybugs", k, "areas", j), f"{name}: unknown area {a!r}"))
        for j, i in items:
            if isinstance(i, str) and ids.get(i) != "item":
                found.append((("ladybugs", k, "items", j), f"{name}: unknown item {i!r}"))
    end = as_int(data.get("ladybugs_to_end", 3))
    count = len(listed(data, "ladybugs"))
    if end is not None and end >= 1 and count < end:
        found.append((("ladybugs_to_end",), f"the sheet has {count} ladybugs but "
                                            f"ladybugs_to_end is {end}; the game could never "
                                            f"end by ladybugs"))


def _check_races(data: Mapping[str, Any], ids: Mapping[str, str], found: list[Found]
                 ) -> set[str]:
    """Each race with an id of its own and known items; returns the race ids."""
    race_ids: set[str] = set()
    for k, race in entries(data, "races"):
        rid = as_str(race.get("id"))
        if rid is not None:
            if rid in race_ids or rid in ids:
                found.append((("races", k, "id"), f"race id {rid!r} is used twice"))
            race_ids.add(rid)
        for j, i in listed(race, "items"):
            if isinstance(i, str) and ids.get(i) != "item":
                found.append((("races", k, "items", j), f"race {rid!r}: unknown item {i!r}"))
    return race_ids


def _check_score_rows(data: Mapping[str, Any], areas: set[str], kinds: set[str],
                      races: set[str], found: list[Found]) -> None:
    """Each score row named once, counting known areas or kinds, with what its rule needs
    (places for a majority, both measures for a product) and known races."""
    rows: set[str] = set()
    for k, row in entries(data, "scoring"):
        name = as_str(row.get("row"))
        where = f"score row {name!r}"
        loc: Loc = ("scoring", k)
        if name is not None:
            if name in rows:
                found.append(((*loc, "row"), f"{where} appears twice; row names must differ"))
            rows.add(name)
        rule = row.get("rule")
        if rule in ("sum", "complete", "groups", "majority"):
            _selector(row, areas, kinds, loc, where, found)
        if rule == "majority" and not row.get("places"):
            found.append((loc, f"{where}: rule 'majority' needs places, e.g. [6, 4, 2]"))
        if rule == "product":
            for side in ("left", "right"):
                measure = row.get(side)
                if measure is None:
                    found.append((loc, f"{where}: rule 'product' needs both left and right "
                                       f"measures (no {side})"))
                elif isinstance(measure, Mapping):
                    _selector(measure, areas, kinds, (*loc, side), f"{where} {side}", found)
        for j, r_id in listed(row, "races"):
            if isinstance(r_id, str) and r_id not in races:
                found.append(((*loc, "races", j), f"{where}: unknown race {r_id!r}"))


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
