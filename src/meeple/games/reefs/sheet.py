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
from typing import Annotated, Any, Literal

from pydantic import Field

from meeple.core.sheets import (
    Found,
    Loc,
    SheetModel,
    as_int,
    as_str,
    check_sheet_data,
    entries,
    listed,
    load_sheet,
)

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

    values: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)
    grey: int = Field(default=0, ge=0)

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        grey, values = as_int(data.get("grey")), data.get("values")
        if grey is not None and grey > 0 and isinstance(values, list) and grey > len(values):
            return [(("grey",), f"grey is {grey}; allowed 0..{len(values)} (the number of "
                                f"grey-shaded boxes from the left)")]
        return []


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
    """A Reefs sheet. Every problem is reported at the entry that is wrong (``spaces[3].id``,
    ``connections[12]``, ``coins[2]``, ...), all of them at once."""

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

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        """Space ids and positions used once; connections, items and entry points naming
        spaces of the sheet, one item per space, no two connections of a space in the same
        direction; every problem at its own entry."""
        found: list[Found] = []
        xy = _check_spaces(data, found)
        _check_connections(data, xy, found)
        items: dict[str, str] = {}
        for key, kind in _ITEM_FIELDS:
            for k, entry in listed(data, key):
                sid = as_str(entry.get("space")) if isinstance(entry, Mapping) else as_str(entry)
                loc: Loc = (key, k, "space") if kind == "treasure" else (key, k)
                if sid is None:
                    continue
                if sid not in xy:
                    found.append((loc, f"a {kind} names space {sid!r}, which is not in spaces"))
                elif sid in items:
                    found.append((loc, f"space {sid!r} holds both a {items[sid]} and a {kind}; "
                                       f"one item per space"))
                else:
                    items[sid] = kind
        _check_entry_points(data, xy, items, found)
        return found


def _check_spaces(data: Mapping[str, Any], found: list[Found]) -> dict[str, tuple[int, int] | None]:
    """Each space's id allowed and its own, its position its own: id -> (x, y) of every space
    with an id (None where its position is not two integers)."""
    xy: dict[str, tuple[int, int] | None] = {}
    where: dict[tuple[int, int], str] = {}
    for i, sp in entries(data, "spaces"):
        sid, x, y = as_str(sp.get("id")), as_int(sp.get("x")), as_int(sp.get("y"))
        if sid is not None:
            if not _ID.match(sid):
                found.append((("spaces", i, "id"), f"space id {sid!r} is not allowed: use "
                                                   f"letters, digits and '_' only"))
            elif sid.lower() in _RESERVED:
                found.append((("spaces", i, "id"), f"space id {sid!r} is reserved for a move; "
                                                   f"choose another id (not one of "
                                                   f"{', '.join(sorted(_RESERVED))})"))
            if sid in xy:
                found.append((("spaces", i, "id"), f"space id {sid!r} is used twice; ids must "
                                                   f"be unique"))
                continue
            xy[sid] = (x, y) if x is not None and y is not None else None
        if x is not None and y is not None:
            if (x, y) in where:
                found.append((("spaces", i, "x"), f"spaces {where[(x, y)]!r} and "
                                                  f"{sid or f'spaces[{i}]'!r} share the "
                                                  f"position ({x}, {y}); every space needs its "
                                                  f"own coordinates"))
            else:
                where[(x, y)] = sid or f"spaces[{i}]"
    return xy


def _check_connections(data: Mapping[str, Any], xy: Mapping[str, tuple[int, int] | None],
                       found: list[Found]) -> None:
    """Each connection between two known, different spaces, listed once, and no space with
    two connections in the same direction (straight steps would be ambiguous)."""
    seen_pairs: set[frozenset[str]] = set()
    dirs_at: dict[tuple[str, tuple[int, int]], str] = {}
    for k, conn in listed(data, "connections"):
        if not (isinstance(conn, list | tuple) and len(conn) == 2
                and all(isinstance(sid, str) for sid in conn)):
            continue
        a, b = conn
        loc: Loc = ("connections", k)
        unknown = [sid for sid in (a, b) if sid not in xy]
        if unknown:
            found.append((loc, f"connection [{a!r}, {b!r}] names space {unknown[0]!r}, which "
                               f"is not in spaces"))
            continue
        if a == b:
            found.append((loc, f"connection [{a!r}, {b!r}] joins a space to itself"))
            continue
        pair = frozenset((a, b))
        if pair in seen_pairs:
            found.append((loc, f"connection [{a!r}, {b!r}] is listed twice"))
            continue
        seen_pairs.add(pair)
        pa, pb = xy[a], xy[b]
        if pa is None or pb is None:
            continue
        d = direction(pa, pb)
        for src, dst, dd in ((a, b, d), (b, a, (-d[0], -d[1]))):
            other = dirs_at.get((src, dd))
            if other is not None:
                found.append((loc, f"space {src!r} has two connections in the same direction "
                                   f"{dd} (to {other!r} and {dst!r}); straight steps would be "
                                   f"ambiguous"))
                break
            dirs_at[(src, dd)] = dst


def _check_entry_points(data: Mapping[str, Any], xy: Mapping[str, Any], items: Mapping[str, str],
                        found: list[Found]) -> None:
    """Each entry point a known space, listed once, holding no item, with a connection."""
    touched = {sid for _, pair in listed(data, "connections")
               if isinstance(pair, list | tuple) for sid in pair if isinstance(sid, str)}
    seen: set[str] = set()
    for k, e in listed(data, "entry_points"):
        if not isinstance(e, str):
            continue
        loc: Loc = ("entry_points", k)
        if e not in xy:
            found.append((loc, f"entry point {e!r} is not in spaces"))
        elif e in seen:
            found.append((loc, f"entry point {e!r} is listed twice"))
        elif e in items:
            found.append((loc, f"entry point {e!r} holds a {items[e]}; entry points hold no "
                               f"items"))
        elif "connections" in data and e not in touched:
            found.append((loc, f"entry point {e!r} has no connection; a route could not start"))
        seen.add(e)


_ITEM_FIELDS = (("treasures", "treasure"), ("coins", "coin"), ("whirlpools", "whirlpool"),
                ("propellers", "propeller"))


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
        self._compile_connections(sheet)
        self.entries: tuple[int, ...] = tuple(self.index[e] for e in sheet.entry_points)
        self.entry_mask = sum(1 << e for e in self.entries)
        self.coin_mask = sum(1 << self.index[c] for c in sheet.coins)
        self.whirl_mask = sum(1 << self.index[w] for w in sheet.whirlpools)
        self.prop_mask = sum(1 << self.index[p] for p in sheet.propellers)
        self._compile_treasures(sheet)
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


    def _compile_connections(self, sheet: ReefsSheet) -> None:
        """The connections (a bit each), their directions, and per space: its neighbours, the
        link to each neighbour and the straight step in each direction."""
        n = self.n
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

    def _compile_treasures(self, sheet: ReefsSheet) -> None:
        """Each space's treasure (-1: none), and each treasure's colour and value."""
        tr_at = [-1] * self.n
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
