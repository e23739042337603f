"""Gardens play sheets: the TOML model, its validation, and the compiled form the rules use.

A sheet lists its fields (id, axial hex coordinates, garden, optional flower colour or tree),
the score pad values and the bonus goals. Adjacency and the outer fields (G5) are derived from
the geometry, never written by hand, so any sheet a user draws in this format plays.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from meeple.core.hexgrid import hex_connected, hex_neighbours, outside_positions
from meeple.core.sheets import SheetModel, check_sheet_data, load_sheet

SHEETS_DIR = Path(__file__).parent / "sheets"

#: G1: the five pencils, in the order they are rolled and listed.
COLOURS: tuple[str, ...] = ("orange", "red", "green", "blue", "purple")
LETTERS: tuple[str, ...] = ("O", "R", "G", "B", "P")
#: A bit per colour, all five set: every pencil, every flower box, every tree box.
ALL_PENCILS = 0b11111
ColourName = Literal["orange", "red", "green", "blue", "purple"]

_ID = re.compile(r"^[A-Z][0-9]{1,2}$")


class FieldSpec(SheetModel):
    id: str = Field(description="Field id used in notation, a capital letter and a number, e.g. 'D4'")
    q: int
    r: int
    garden: str = Field(min_length=1)
    flower: ColourName | None = None
    tree: bool = False

    @model_validator(mode="after")
    def _check(self) -> FieldSpec:
        if not _ID.match(self.id):
            raise ValueError(f"field id {self.id!r} must be a capital letter and 1-2 digits, e.g. 'D4'")
        if self.flower is not None and self.tree:
            raise ValueError(f"field {self.id} cannot hold both a flower and a tree")
        return self


class ScorePad(SheetModel):
    """Score pad values (G6, G7, G8, G9, G11, G12)."""

    single_colour_boxes: list[int] = Field(min_length=1, description="G6, per colour, top to bottom")
    row_stars: list[int] = Field(description="G7, one per row of single-colour boxes")
    colourful_boxes: list[int] = Field(min_length=1)
    colourful_star: int = 0
    pencil_penalties: list[int] = Field(min_length=1, description="G9, negative numbers")
    outer_fields_bonus: int = 6
    all_fields_bonus: int = 6
    largest_area_bonus: int = 6
    flower_box: int = 2
    flower_star: int = 10
    all_flower_fields_bonus: int = 6
    tree_star: int = 10
    four_gardens_count: int = 4
    four_gardens_bonus: int = 0

    @model_validator(mode="after")
    def _check(self) -> ScorePad:
        if len(self.row_stars) != len(self.single_colour_boxes):
            raise ValueError(
                f"row_stars has {len(self.row_stars)} values but there are "
                f"{len(self.single_colour_boxes)} rows of single_colour_boxes; give one star per row"
            )
        if any(p > 0 for p in self.pencil_penalties):
            raise ValueError("pencil_penalties are minus points: write them as negative numbers")
        return self


class GardensSheet(SheetModel):
    name: str
    level: int = Field(ge=1)
    reconstructed: bool = False
    note: str = ""
    fountain: list[tuple[int, int]] = Field(default_factory=list,
                                            description="non-playable spaces, for drawing")
    scoring: ScorePad
    fields: list[FieldSpec] = Field(min_length=2)

    @model_validator(mode="after")
    def _check(self) -> GardensSheet:
        ids = Counter(f.id for f in self.fields)
        dup = [i for i, n in ids.items() if n > 1]
        if dup:
            raise ValueError(f"field ids must be unique; repeated: {', '.join(sorted(dup))}")
        pos = Counter((f.q, f.r) for f in self.fields)
        dpos = [p for p, n in pos.items() if n > 1]
        if dpos:
            raise ValueError(f"two fields share the coordinates {dpos[0]}; each field needs its own")
        if len(self.fields) > 200:
            raise ValueError(f"a sheet has at most 200 fields, this one has {len(self.fields)}")
        fountain = set(self.fountain) & set(pos)
        if fountain:
            raise ValueError(f"fountain space {sorted(fountain)[0]} is also a field")
        gardens: dict[str, set[tuple[int, int]]] = {}
        for f in self.fields:
            gardens.setdefault(f.garden, set()).add((f.q, f.r))
        for g, members in gardens.items():
            if not hex_connected(members):
                raise ValueError(f"garden {g!r} is not connected: every garden must be one "
                                 f"group of neighbouring fields")
        # the whole play area must be one connected region (G4 requires it to be fillable)
        if not hex_connected({(f.q, f.r) for f in self.fields}):
            raise ValueError("the play area must be connected: some fields touch no other field")
        flowers = [f.flower for f in self.fields if f.flower]
        if flowers and len(set(flowers)) != len(flowers):
            raise ValueError("each flower colour may appear on at most one flower field (G11)")
        return self


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
    fields = sheet.fields
    ids = tuple(f.id for f in fields)
    index = {fid: i for i, fid in enumerate(ids)}
    coords = tuple((f.q, f.r) for f in fields)
    at = {c: i for i, c in enumerate(coords)}
    neighbours = []
    for q, r in coords:
        m = 0
        for p in hex_neighbours(q, r):
            j = at.get(p)
            if j is not None:
                m |= 1 << j
        neighbours.append(m)
    outside = outside_positions(coords)
    outer = 0
    for i, (q, r) in enumerate(coords):
        # G5: outer if a side faces the sheet's outside; holes (fountain) do not count
        if any(p in outside for p in hex_neighbours(q, r)):
            outer |= 1 << i
    names: list[str] = []
    for f in fields:
        if f.garden not in names:
            names.append(f.garden)
    gidx = {g: k for k, g in enumerate(names)}
    garden_of = tuple(gidx[f.garden] for f in fields)
    gmasks = [0] * len(names)
    for i, g in enumerate(garden_of):
        gmasks[g] |= 1 << i
    flower_colour = tuple(COLOURS.index(f.flower) if f.flower else -1 for f in fields)
    flower_mask = sum(1 << i for i, c in enumerate(flower_colour) if c >= 0)
    tree_mask = sum(1 << i for i, f in enumerate(fields) if f.tree)
    return CompiledSheet(
        data=sheet, n=len(fields), ids=ids, index=index, coords=coords,
        neighbours=tuple(neighbours), all_mask=(1 << len(fields)) - 1, outer_mask=outer,
        garden_of=garden_of, garden_masks=tuple(gmasks), garden_names=tuple(names),
        flower_colour=flower_colour, flower_mask=flower_mask, tree_mask=tree_mask,
    )


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
