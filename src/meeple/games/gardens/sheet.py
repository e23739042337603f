"""Gardens play sheets: the TOML model, its validation, and the compiled form the rules use.

A sheet lists its fields (id, axial hex coordinates, garden, optional flower colour or tree),
the score pad values and the bonus goals. Adjacency and the outer fields (G5) are derived from
the geometry, never written by hand, so any sheet a user draws in this format plays.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from meeple.core.hexgrid import hex_neighbours, outside_positions
from meeple.core.sheets import (
    Found,
    SheetModel,
    as_int,
    as_str,
    check_sheet_data,
    entries,
    listed,
    load_sheet,
)

SHEETS_DIR = Path(__file__).parent / "sheets"

#: G1: the five pencils, in the order they are rolled and listed.
COLOURS: tuple[str, ...] = ("orange", "red", "green", "blue", "purple")
LETTERS: tuple[str, ...] = ("O", "R", "G", "B", "P")
#: A bit per colour, all five set: every pencil, every flower box, every tree box.
ALL_PENCILS = 0b11111
ColourName = Literal["orange", "red", "green", "blue", "purple"]

_ID = re.compile(r"^[A-Z][0-9]{1,2}$")


Points = Annotated[int, Field(ge=0)]


class FieldSpec(SheetModel):
    id: str = Field(description="Field id used in notation, a capital letter and a number, e.g. 'D4'")
    q: int
    r: int
    garden: str = Field(min_length=1)
    flower: ColourName | None = None
    tree: bool = False

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        found: list[Found] = []
        fid = as_str(data.get("id"))
        if fid is not None and not _ID.match(fid):
            found.append((("id",), f"field id {fid!r} must be a capital letter and 1-2 digits, "
                                   f"e.g. 'D4'"))
        if data.get("flower") is not None and data.get("tree") is True:
            found.append((("tree",), f"field {fid or '?'} cannot hold both a flower and a tree"))
        return found


class ScorePad(SheetModel):
    """Score pad values (G6, G7, G8, G9, G11, G12): points, never negative, but for the pencil
    penalties (minus points) and the four-gardens count (at least one garden)."""

    single_colour_boxes: list[Points] = Field(min_length=1,
                                              description="G6, per colour, top to bottom")
    row_stars: list[Points] = Field(description="G7, one per row of single-colour boxes")
    colourful_boxes: list[Points] = Field(min_length=1)
    colourful_star: int = Field(default=0, ge=0)
    pencil_penalties: list[int] = Field(min_length=1, description="G9, negative numbers")
    outer_fields_bonus: int = Field(default=6, ge=0)
    all_fields_bonus: int = Field(default=6, ge=0)
    largest_area_bonus: int = Field(default=6, ge=0)
    flower_box: int = Field(default=2, ge=0)
    flower_star: int = Field(default=10, ge=0)
    all_flower_fields_bonus: int = Field(default=6, ge=0)
    tree_star: int = Field(default=10, ge=0)
    four_gardens_count: int = Field(default=4, ge=1)
    four_gardens_bonus: int = Field(default=0, ge=0)

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        found: list[Found] = []
        stars, boxes = data.get("row_stars"), data.get("single_colour_boxes")
        if isinstance(stars, list) and isinstance(boxes, list) and boxes and (
                len(stars) != len(boxes)):
            found.append((("row_stars",), f"row_stars has {len(stars)} values but there are "
                                          f"{len(boxes)} rows of single_colour_boxes; give one "
                                          f"star per row"))
        for k, p in listed(data, "pencil_penalties"):
            if as_int(p) is not None and p > 0:
                found.append((("pencil_penalties", k), f"pencil_penalties are minus points: "
                                                       f"write them as negative numbers (0 or "
                                                       f"less); got {p}"))
        return found


class GardensSheet(SheetModel):
    name: str
    level: int = Field(ge=1)
    reconstructed: bool = False
    note: str = ""
    fountain: list[tuple[int, int]] = Field(default_factory=list,
                                            description="non-playable spaces, for drawing")
    scoring: ScorePad
    fields: list[FieldSpec] = Field(min_length=2)

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        """Ids, coordinates and flower colours used once each; gardens and the play area
        connected (G4 requires it to be fillable); the fountain off the fields."""
        found: list[Found] = []
        fields = entries(data, "fields")
        if len(listed(data, "fields")) > 200:
            found.append((("fields",), f"a sheet has at most 200 fields, this one has "
                                       f"{len(listed(data, 'fields'))}"))
        first_id: dict[str, int] = {}
        at: dict[tuple[int, int], int] = {}
        flower_at: dict[str, int] = {}
        gardens: dict[str, dict[tuple[int, int], int]] = {}
        for i, f in fields:
            fid, q, r = as_str(f.get("id")), as_int(f.get("q")), as_int(f.get("r"))
            name = fid or f"fields[{i}]"
            if fid is not None:
                if fid in first_id:
                    found.append((("fields", i, "id"), f"field id {fid!r} is used twice (also "
                                                       f"fields[{first_id[fid]}]); field ids "
                                                       f"must be unique"))
                else:
                    first_id[fid] = i
            if q is not None and r is not None:
                if (q, r) in at:
                    j = at[(q, r)]
                    found.append((("fields", i, "q"), f"field {name} and fields[{j}] share "
                                                      f"the coordinates ({q}, {r}); each field "
                                                      f"needs its own"))
                else:
                    at[(q, r)] = i
                    garden = as_str(f.get("garden"))
                    if garden:
                        gardens.setdefault(garden, {})[(q, r)] = i
            flower = as_str(f.get("flower"))
            if flower is not None and flower in COLOURS:
                if flower in flower_at:
                    found.append((("fields", i, "flower"), f"the {flower} flower is also on "
                                                           f"fields[{flower_at[flower]}]; each "
                                                           f"flower colour may appear on at "
                                                           f"most one flower field (G11)"))
                else:
                    flower_at[flower] = i
        for k, space in listed(data, "fountain"):
            if isinstance(space, list | tuple) and len(space) == 2:
                pos = (as_int(space[0]), as_int(space[1]))
                if pos in at:
                    found.append((("fountain", k), f"fountain space {list(pos)} is also a "
                                                   f"field (fields[{at[pos]}]); a fountain "
                                                   f"space is not a field"))
        for garden, cells in gardens.items():
            for part in _components(cells)[1:]:
                i = min(part.values())
                found.append((("fields", i, "garden"), f"garden {garden!r} is not connected: "
                                                       f"this field (and {len(part) - 1} more) "
                                                       f"touches no other field of it; every "
                                                       f"garden must be one group of "
                                                       f"neighbouring fields"))
        for part in _components(at)[1:]:
            i = min(part.values())
            found.append((("fields", i), f"the play area must be connected: this field (and "
                                         f"{len(part) - 1} more) touches no other field"))
        return found


def _components(cells: Mapping[tuple[int, int], int]) -> list[dict[tuple[int, int], int]]:
    """The groups of neighbouring cells (cell -> its field index), the largest first (of
    equal ones, the one listed first)."""
    left = dict(cells)
    parts: list[dict[tuple[int, int], int]] = []
    while left:
        start = min(left, key=lambda c: left[c])
        part = {start: left.pop(start)}
        todo = [start]
        while todo:
            q, r = todo.pop()
            for p in hex_neighbours(q, r):
                if p in left:
                    part[p] = left.pop(p)
                    todo.append(p)
        parts.append(part)
    parts.sort(key=lambda p: (-len(p), min(p.values())))
    return parts


@dataclass(frozen=True)
class CompiledSheet:
    """The sheet as bit masks: what the rules engine reads in its hot loops."""

    data: GardensSheet
    n: int
    ids: tuple[str, ...]
    index: dict[str, int]
    coords: tuple[tuple[int, int], ...]
    neighbours: tuple[int, ...]
    all_mask: int
    outer_mask: int
    garden_of: tuple[int, ...]
    garden_masks: tuple[int, ...]
    garden_names: tuple[str, ...]
    flower_colour: tuple[int, ...]  # -1 where no flower
    flower_mask: int
    tree_mask: int

    @property
    def has_flowers(self) -> bool:
        return self.flower_mask != 0

    @property
    def has_trees(self) -> bool:
        return self.tree_mask != 0


def compile_sheet(sheet: GardensSheet) -> CompiledSheet:
    """The sheet as the rules read it: indices, neighbour and outer masks, gardens, flowers
    and trees."""
    fields = sheet.fields
    ids = tuple(f.id for f in fields)
    index = {fid: i for i, fid in enumerate(ids)}
    coords = tuple((f.q, f.r) for f in fields)
    names, garden_of, gmasks = _gardens(sheet)
    flower_colour = tuple(COLOURS.index(f.flower) if f.flower else -1 for f in fields)
    flower_mask = sum(1 << i for i, c in enumerate(flower_colour) if c >= 0)
    tree_mask = sum(1 << i for i, f in enumerate(fields) if f.tree)
    return CompiledSheet(
        data=sheet, n=len(fields), ids=ids, index=index, coords=coords,
        neighbours=_neighbour_masks(coords), all_mask=(1 << len(fields)) - 1,
        outer_mask=_outer_mask(coords),
        garden_of=garden_of, garden_masks=gmasks, garden_names=names,
        flower_colour=flower_colour, flower_mask=flower_mask, tree_mask=tree_mask,
    )


def _neighbour_masks(coords: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Each field's neighbouring fields as a bit mask."""
    at = {c: i for i, c in enumerate(coords)}
    neighbours = []
    for q, r in coords:
        m = 0
        for p in hex_neighbours(q, r):
            j = at.get(p)
            if j is not None:
                m |= 1 << j
        neighbours.append(m)
    return tuple(neighbours)


def _outer_mask(coords: tuple[tuple[int, int], ...]) -> int:
    """G5: the fields with a side facing the sheet's outside; holes (fountain) do not count."""
    outside = outside_positions(coords)
    outer = 0
    for i, (q, r) in enumerate(coords):
        if any(p in outside for p in hex_neighbours(q, r)):
            outer |= 1 << i
    return outer


def _gardens(sheet: GardensSheet) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """The gardens' names in order of first field, each field's garden, each garden's mask."""
    names: list[str] = []
    for f in sheet.fields:
        if f.garden not in names:
            names.append(f.garden)
    gidx = {g: k for k, g in enumerate(names)}
    garden_of = tuple(gidx[f.garden] for f in sheet.fields)
    gmasks = [0] * len(names)
    for i, g in enumerate(garden_of):
        gmasks[g] |= 1 << i
    return tuple(names), garden_of, tuple(gmasks)


_CACHE: dict[str, CompiledSheet] = {}


def load(source: str | Path | dict[str, Any]) -> CompiledSheet:
    """A compiled sheet from a shipped name ('level-1'), a TOML path, or record data."""
    if isinstance(source, (str, Path)):
        key = str(source)
        cacheable = "/" not in key and not key.endswith(".toml")
    else:
        check_sheet_data(source, path="<Gardens sheet data>")  # bounded before json.dumps
        key = json.dumps(source, sort_keys=True)
        cacheable = True
    if key in _CACHE:
        return _CACHE[key]
    model = load_sheet(GardensSheet, source, SHEETS_DIR, kind="Gardens sheet")
    compiled = compile_sheet(model)
    if cacheable:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = compiled
    return compiled
