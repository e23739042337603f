"""Reefs sheets: the TOML model (validated) and the compiled, immutable board the engine plays.

A sheet is a graph (R2): spaces with integer coordinates and ids, connections between two
spaces (each has a direction given by the coordinates), entry points, treasures (a colour or
neutral, with a value), coins, whirlpools (level 2), propellers (level 3), one treasure row per
colour (values printed above the boxes, how many boxes are grey-shaded) and the coin row.
Nothing about a layout lives in code: any valid sheet a user writes can be played.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from math import gcd
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from meeple.core.sheets import SheetModel, check_sheet_data, load_sheet

#: R1: the five pencils, in the order they are rolled and shown on the score pad.
COLOURS: tuple[str, ...] = ("orange", "red", "blue", "green", "purple")
LETTERS: tuple[str, ...] = ("O", "R", "B", "G", "P")
NEUTRAL = 5

SHIPPED_DIR = Path(__file__).parent / "sheets"
#: The shipped sheet of each level.
LEVEL_SHEETS: dict[int, str] = {1: "small-ocean", 2: "the-whirlpools", 3: "the-propellers"}

_ID = re.compile(r"^[A-Za-z0-9_]+$")
_RESERVED = frozenset({"stop", "forfeit", "roll", "take", "enter", "step", "propeller"})


class SpaceModel(SheetModel):
    """A space (dot) of the sheet: ``id`` used in move notation, ``x``/``y`` grid position
    (x grows to the right, y grows downwards)."""

    id: str
    x: int
    y: int


class TreasureModel(SheetModel):
    """A treasure on a space: its colour (or ``neutral``) and its number (boxes to colour)."""

    space: str
    colour: Literal["orange", "red", "blue", "green", "purple", "neutral"]
    value: int = Field(ge=1)


class RowModel(SheetModel):
    """A score row: ``values`` printed above each box, left to right; ``grey`` = how many boxes
    from the left are grey-shaded (treasure rows only; R11)."""

    values: list[int] = Field(min_length=1)
    grey: int = 0

    @model_validator(mode="after")
    def _check_row(self) -> RowModel:
        if any(v < 0 for v in self.values):
            raise ValueError("values must not be negative")
        if not 0 <= self.grey <= len(self.values):
            raise ValueError(
                f"grey is {self.grey}; allowed 0..{len(self.values)} "
                "(the number of grey-shaded boxes from the left)"
            )
        return self


class TreasureRowsModel(SheetModel):
    orange: RowModel
    red: RowModel
    blue: RowModel
    green: RowModel
    purple: RowModel


class BonusModel(SheetModel):
    """R10 bonus stars (5 each by default)."""

    two_each: int = Field(default=5, ge=0)
    full_row: int = Field(default=5, ge=0)
    end_grey: int = Field(default=5, ge=0)
    end_coins: int = Field(default=5, ge=0)


class ReefsSheet(SheetModel):
    """A Reefs sheet. Fields are validated in this order, each against the ones before it, so
    an error points at the key that is wrong (``connections``, ``coins``, ...)."""

    name: str
    title: str = ""
    reconstructed: bool = False
    note: str = ""
    spaces: list[SpaceModel] = Field(min_length=2)
    connections: list[tuple[str, str]] = Field(min_length=1)
    treasures: list[TreasureModel] = Field(default_factory=list)
    coins: list[str] = Field(default_factory=list)
    whirlpools: list[str] = Field(default_factory=list)
    propellers: list[str] = Field(default_factory=list)
    entry_points: list[str] = Field(min_length=1)
    treasure_rows: TreasureRowsModel
    coin_row: RowModel
    bonus: BonusModel = Field(default_factory=BonusModel)

    @field_validator("spaces")
    @classmethod
    def _check_spaces(cls, spaces: list[SpaceModel]) -> list[SpaceModel]:
        ids: set[str] = set()
        where: dict[tuple[int, int], str] = {}
        for sp in spaces:
            if not _ID.match(sp.id):
                raise ValueError(
                    f"space id {sp.id!r} is not allowed: use letters, digits and '_' only"
                )
            if sp.id.lower() in _RESERVED:
                raise ValueError(
                    f"space id {sp.id!r} is reserved for a move; choose another id "
                    f"(not one of {', '.join(sorted(_RESERVED))})"
                )
            if sp.id in ids:
                raise ValueError(f"space id {sp.id!r} is used twice; ids must be unique")
            if (sp.x, sp.y) in where:
                raise ValueError(
                    f"spaces {where[(sp.x, sp.y)]!r} and {sp.id!r} share the position "
                    f"({sp.x}, {sp.y}); every space needs its own coordinates"
                )
            ids.add(sp.id)
            where[(sp.x, sp.y)] = sp.id
        return spaces

    @field_validator("connections")
    @classmethod
    def _check_connections(
        cls, conns: list[tuple[str, str]], info: ValidationInfo
    ) -> list[tuple[str, str]]:
        xy = _coords(info)
        if xy is None:
            return conns
        seen_pairs: set[frozenset[str]] = set()
        dirs_at: dict[tuple[str, tuple[int, int]], str] = {}
        for a, b in conns:
            for sid in (a, b):
                if sid not in xy:
                    raise ValueError(f"connection [{a!r}, {b!r}] names space {sid!r}, "
                                     "which is not in spaces")
            if a == b:
                raise ValueError(f"connection [{a!r}, {b!r}] joins a space to itself")
            pair = frozenset((a, b))
            if pair in seen_pairs:
                raise ValueError(f"connection [{a!r}, {b!r}] is listed twice")
            seen_pairs.add(pair)
            d = direction(xy[a], xy[b])
            for src, dst, dd in ((a, b, d), (b, a, (-d[0], -d[1]))):
                other = dirs_at.get((src, dd))
                if other is not None:
                    raise ValueError(
                        f"space {src!r} has two connections in the same direction {dd} "
                        f"(to {other!r} and {dst!r}); straight steps would be ambiguous"
                    )
                dirs_at[(src, dd)] = dst
        return conns

    @field_validator("treasures")
    @classmethod
    def _check_treasures(
        cls, treasures: list[TreasureModel], info: ValidationInfo
    ) -> list[TreasureModel]:
        _check_items([t.space for t in treasures], "treasure", info)
        return treasures

    @field_validator("coins", "whirlpools", "propellers")
    @classmethod
    def _check_space_lists(cls, spaces: list[str], info: ValidationInfo) -> list[str]:
        """Coins, whirlpools and propellers: each a list of existing, distinct space ids."""
        _check_items(spaces, str(info.field_name).removesuffix("s"), info)
        return spaces

    @field_validator("entry_points")
    @classmethod
    def _check_entry_points(cls, entries: list[str], info: ValidationInfo) -> list[str]:
        xy = _coords(info)
        if xy is None:
            return entries
        items = _items_before(info, "entry_points")
        touched = {sid for pair in info.data.get("connections", []) for sid in pair}
        seen: set[str] = set()
        for e in entries:
            if e not in xy:
                raise ValueError(f"entry point {e!r} is not in spaces")
            if e in seen:
                raise ValueError(f"entry point {e!r} is listed twice")
            if e in items:
                raise ValueError(
                    f"entry point {e!r} holds a {items[e]}; entry points hold no items"
                )
            if "connections" in info.data and e not in touched:
                raise ValueError(f"entry point {e!r} has no connection; a route could not start")
            seen.add(e)
        return entries


def _coords(info: ValidationInfo) -> dict[str, tuple[int, int]] | None:
    """Space id -> (x, y) from the already validated spaces (None if they failed)."""
    spaces = info.data.get("spaces")
    if spaces is None:
        return None
    return {sp.id: (sp.x, sp.y) for sp in spaces}


_ITEM_FIELDS = (("treasures", "treasure"), ("coins", "coin"), ("whirlpools", "whirlpool"),
                ("propellers", "propeller"))


def _items_before(info: ValidationInfo, field: str) -> dict[str, str]:
    """Space id -> item kind for the item lists validated before ``field``."""
    items: dict[str, str] = {}
    for key, kind in _ITEM_FIELDS:
        if key == field:
            break
        for entry in info.data.get(key, []):
            items[entry.space if isinstance(entry, TreasureModel) else entry] = kind
    return items


def _check_items(spaces: list[str], kind: str, info: ValidationInfo) -> None:
    """Items lie on known spaces, at most one item per space."""
    xy = _coords(info)
    if xy is None:
        return
    items = _items_before(info, kind + "s" if kind != "treasure" else "treasures")
    for sid in spaces:
        if sid not in xy:
            raise ValueError(f"a {kind} names space {sid!r}, which is not in spaces")
        if sid in items:
            raise ValueError(
                f"space {sid!r} holds both a {items[sid]} and a {kind}; one item per space"
            )
        items[sid] = kind


def direction(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """R2: the direction of the connection a->b, as the coordinate step divided by its gcd."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    g = gcd(dx, dy) or 1
    return (dx // g, dy // g)


class Board:
    """A compiled sheet: everything the engine needs as tuples and bit masks. Immutable and
    shared by every clone of a game."""

    def __init__(self, sheet: ReefsSheet) -> None:
        self.sheet = sheet
        self.data: dict[str, Any] = sheet.model_dump(mode="json")
        self.ids: tuple[str, ...] = tuple(sp.id for sp in sheet.spaces)
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.ids)}
        self.xy: tuple[tuple[int, int], ...] = tuple((sp.x, sp.y) for sp in sheet.spaces)
        n = len(self.ids)
        self.n = n
        dir_index: dict[tuple[int, int], int] = {}
        self.conns: list[tuple[int, int]] = []
        adj: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        link: list[dict[int, tuple[int, int, int]]] = [{} for _ in range(n)]
        straight: list[dict[int, tuple[int, int]]] = [{} for _ in range(n)]
        for ci, (a_id, b_id) in enumerate(sheet.connections):
            a, b = self.index[a_id], self.index[b_id]
            self.conns.append((a, b))
            bit = 1 << ci
            for s, t in ((a, b), (b, a)):
                d = direction(self.xy[s], self.xy[t])
                di = dir_index.setdefault(d, len(dir_index))
                adj[s].append((bit, t, di))
                link[s][t] = (bit, di, ci)
                straight[s][di] = (bit, t)
        self.directions = tuple(dir_index)
        self.adj: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(tuple(x) for x in adj)
        self.link = tuple(link)
        self.straight = tuple(straight)
        self.entries: tuple[int, ...] = tuple(self.index[e] for e in sheet.entry_points)
        self.entry_mask = sum(1 << e for e in self.entries)
        self.coin_mask = sum(1 << self.index[c] for c in sheet.coins)
        self.whirl_mask = sum(1 << self.index[w] for w in sheet.whirlpools)
        self.prop_mask = sum(1 << self.index[p] for p in sheet.propellers)
        tr_at = [-1] * n
        tcol: list[int] = []
        tval: list[int] = []
        for ti, tr in enumerate(sheet.treasures):
            tr_at[self.index[tr.space]] = ti
            tcol.append(NEUTRAL if tr.colour == "neutral" else COLOURS.index(tr.colour))
            tval.append(tr.value)
        self.treasure_at = tuple(tr_at)
        self.treasure_colour = tuple(tcol)
        self.treasure_value = tuple(tval)
        self.n_treasures = len(tcol)
        rows = [getattr(sheet.treasure_rows, c) for c in COLOURS]
        self.row_values: tuple[tuple[int, ...], ...] = tuple(tuple(r.values) for r in rows)
        self.row_len: tuple[int, ...] = tuple(len(r.values) for r in rows)
        self.row_grey: tuple[int, ...] = tuple(r.grey for r in rows)
        self.two_each_need: tuple[int, ...] = tuple(min(2, n_) for n_ in self.row_len)
        self.coin_values: tuple[int, ...] = tuple(sheet.coin_row.values)
        self.coin_len = len(self.coin_values)
        self.bonus = sheet.bonus
        self.n_props = len(sheet.propellers)
        self.move_cache: object = None  # the MoveTable of state.py, built on first use


_CACHE: dict[str, Board] = {}


def load_board(source: str | Path | Mapping[str, Any]) -> Board:
    """A compiled board from a shipped sheet name, a TOML path or sheet data (cached)."""
    if isinstance(source, Mapping):
        check_sheet_data(source, path="<Reefs sheet data>")  # bounded before json.dumps
        key = "data:" + json.dumps(source, sort_keys=True)
    else:
        key = "src:" + str(source)
        if ("/" in str(source) or str(source).endswith(".toml")):
            key = ""  # user files may change between games: never cache them
    if key and key in _CACHE:
        return _CACHE[key]
    board = Board(load_sheet(ReefsSheet, source, SHIPPED_DIR, kind="reefs sheet"))
    if key:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = board
    return board
