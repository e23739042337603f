"""Pergola data files: tools and supply, pond, cascade, leaves, pergola (TOML, validated),
and their compiled form (:class:`Compiled`: indices, adjacency and the move objects).

A data *bundle* is the five files together. ``sheet`` may be the shipped bundle name
(``"standard"``), a directory holding ``tools.toml``, ``pond.toml``, ``cascade.toml``,
``leaves.toml`` and ``pergola.toml``, one TOML file holding the five tables ``[tools]``,
``[pond]``, ``[cascade]``, ``[leaves]``, ``[pergola]``, or the dict from ``sheet_data()``.
Everything not printed in the rulebook is reconstructed (P2) and each file says so.
"""

from __future__ import annotations

import itertools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from meeple.core.errors import SheetError
from meeple.core.sheets import (
    SheetModel,
    check_sheet_data,
    load_sheet,
    parse_sheet_text,
    read_sheet_text,
    validate_data,
)
from meeple.games.pergola.moves import (
    ACTIONS,
    BOTTOM,
    INSECTS,
    LANTERNS,
    PergolaMove,
    buttercup_move,
    draw_move,
    drip_move,
    jump_move,
    leaf_move,
    magnolia_move,
    pick_move,
    reveal_move,
)

SHEETS_DIR = Path(__file__).parent / "sheets"
PARTS = ("tools", "pond", "cascade", "leaves", "pergola")

HOLLYHOCK_COLOURS = ("blue", "yellow", "red")
REQUIREMENTS = ("magnolia", "hollyhock", "buttercup", "lavender")
TOOL_COMPONENTS = (
    "hollyhock-blue", "hollyhock-yellow", "hollyhock-red", "magnolia-single", "magnolia-double",
    "buttercup-small", "buttercup-large", "lavender-leaf", "butterfly", "ladybug", "bee",
    "lantern-drip", "lantern-jump", "lantern-insect", "lantern-action",
)
SUPPLY_ITEMS = (*TOOL_COMPONENTS, "lavender-flower", "dragonfly-small", "dragonfly-medium",
                "dragonfly-large")
PLAYER_COUNTS = ("1", "2", "3", "4")

#: Index of each supply item in ``PergolaState.supply``.
SUP = {name: i for i, name in enumerate(SUPPLY_ITEMS)}
#: Hollyhock component -> its column in ``Garden.holly`` (blue, yellow, red).
HOLLYHOCKS = {f"hollyhock-{c}": i for i, c in enumerate(HOLLYHOCK_COLOURS)}
#: Buttercup sizes in ``Garden.cups`` (0 = empty space) and the pergola spaces' ``accepts``.
SMALL, LARGE = 1, 2


def _allowed(values: tuple[str, ...] | list[str]) -> str:
    return ", ".join(values)


class _DataFile(SheetModel):
    """One of the data files (sheets/*.toml): each says whether it is reconstructed, and why in
    its note."""

    reconstructed: bool = False
    note: str = ""


class Tool(SheetModel):
    id: str = Field(min_length=1)
    type: str = Field(min_length=1)
    components: list[str] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _known(self) -> Tool:
        for c in self.components:
            if c not in TOOL_COMPONENTS:
                raise ValueError(f"tool {self.id}: unknown component {c!r}; allowed: "
                                 f"{_allowed(TOOL_COMPONENTS)}")
        return self


class ToolsFile(_DataFile):
    turns: int = Field(ge=1, le=40)
    board: list[str]
    types: dict[str, list[str]]
    supply: dict[str, Annotated[int, Field(ge=0)]]
    tool: list[Tool] = Field(min_length=4)

    @model_validator(mode="after")
    def _check(self) -> ToolsFile:
        if sorted(self.board) != sorted(ACTIONS) or self.board[0] != "flutter":
            raise ValueError(f"board must list the four actions once each, insect flutter first "
                             f"(P9): {_allowed(ACTIONS)}; got {self.board}")
        ids = [t.id for t in self.tool]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"tool ids must be unique; repeated: {sorted(dup)}")
        self._check_types()
        self._check_supply()
        return self

    def _check_types(self) -> None:
        """Each player count names known tool types, enough tools for its turns, and no
        other player count is named."""
        known_types = {t.type for t in self.tool}
        for n in PLAYER_COUNTS:
            if n not in self.types:
                raise ValueError(f"types must give the tool types for each player count "
                                 f"{_allowed(PLAYER_COUNTS)}; missing {n!r}")
            for ty in self.types[n]:
                if ty not in known_types:
                    raise ValueError(f"types.{n}: no tool has type {ty!r}; "
                                     f"types: {_allowed(sorted(known_types))}")
            have = sum(1 for t in self.tool if t.type in self.types[n])
            need = self.turns * int(n) * (2 if n == "1" else 1) + (1 if n == "1" else 3)
            if have < need:
                raise ValueError(f"types.{n}: {have} tools, but {n} player(s) need {need} "
                                 f"for {self.turns} turns each")
        for n in self.types:
            if n not in PLAYER_COUNTS:
                raise ValueError(f"types: unknown player count {n!r}; allowed: "
                                 f"{_allowed(PLAYER_COUNTS)}")

    def _check_supply(self) -> None:
        """The supply counts every item, and only those."""
        for k in self.supply:
            if k not in SUPPLY_ITEMS:
                raise ValueError(f"supply: unknown item {k!r}; allowed: {_allowed(SUPPLY_ITEMS)}")
        for k in SUPPLY_ITEMS:
            if k not in self.supply:
                raise ValueError(f"supply: missing {k!r} (every item needs a count)")


class Lily(SheetModel):
    id: str = Field(min_length=1)
    x: float = 0
    y: float = 0
    insect: Literal["butterfly", "ladybug", "bee"] | None = None
    dragonfly: Literal["magnolia", "hollyhock", "buttercup", "lavender"] | None = None
    adjacent: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one(self) -> Lily:
        if (self.insect is None) == (self.dragonfly is None):
            raise ValueError(f"lily {self.id}: give exactly one of insect (butterfly, ladybug, "
                             f"bee) or dragonfly (magnolia, hollyhock, buttercup, lavender)")
        return self


class PondFile(_DataFile):
    lily: list[Lily] = Field(min_length=2)
    stacks: dict[str, list[list[Literal["medium", "large"]]]]

    @model_validator(mode="after")
    def _check(self) -> PondFile:
        ids = [x.id for x in self.lily]
        if len(set(ids)) != len(ids):
            raise ValueError("lily ids must be unique")
        by = {x.id: x for x in self.lily}
        for x in self.lily:
            for a in x.adjacent:
                if a not in by:
                    raise ValueError(f"lily {x.id}: adjacent lily {a!r} does not exist; "
                                     f"lilies: {_allowed(ids)}")
                if x.id not in by[a].adjacent:
                    raise ValueError(f"lily {x.id} lists {a} as adjacent but lily {a} does not "
                                     f"list {x.id} (adjacency must be symmetric)")
                if a == x.id:
                    raise ValueError(f"lily {x.id} cannot be adjacent to itself")
        dls = [x.dragonfly for x in self.lily if x.dragonfly]
        if len(dls) != len(set(dls)):
            raise ValueError("each dragonfly requirement may appear on one lily only")
        for n in PLAYER_COUNTS:
            if n not in self.stacks:
                raise ValueError(f"stacks: missing player count {n!r}")
            if len(self.stacks[n]) != len(dls):
                raise ValueError(f"stacks.{n}: give one stack per dragonfly lily "
                                 f"({len(dls)}), got {len(self.stacks[n])}")
        return self


class Stone(SheetModel):
    id: str = Field(min_length=1)
    insect: Literal["butterfly", "ladybug", "bee"] | None = None
    to: list[str] = Field(min_length=1)
    x: float = 0
    y: float = 0


class CascadeFile(_DataFile):
    starts: list[str] = Field(min_length=2, max_length=2)
    stone: list[Stone] = Field(min_length=2)

    @model_validator(mode="after")
    def _check(self) -> CascadeFile:
        ids = [s.id for s in self.stone]
        if len(set(ids)) != len(ids) or "bottom" in ids:
            raise ValueError("stone ids must be unique and not 'bottom'")
        if self.starts[0] == self.starts[1]:
            raise ValueError("the two start spots must differ")
        for st in self.starts:
            if st not in ids:
                raise ValueError(f"start {st!r} is not a stone; stones: {_allowed(ids)}")
        for s in self.stone:
            for t in s.to:
                if t != "bottom" and t not in ids:
                    raise ValueError(f"stone {s.id}: stream to {t!r}, which is neither a stone "
                                     f"nor 'bottom'; stones: {_allowed(ids)}")
                if t in self.starts:
                    raise ValueError(f"stone {s.id}: a stream cannot lead back to a start spot")
        # every stone must reach the bottom, with no loop (streams run downhill)
        by = {s.id: s for s in self.stone}
        state: dict[str, int] = {}

        def visit(i: str) -> None:
            if state.get(i) == 2:
                return
            if state.get(i) == 1:
                raise ValueError(f"streams form a loop through stone {i}; they must run downhill")
            state[i] = 1
            for t in by[i].to:
                if t != "bottom":
                    visit(t)
            state[i] = 2

        for i in ids:
            visit(i)
        return self


class Leaf(SheetModel):
    id: str = Field(min_length=1)
    colour: str = Field(min_length=1)
    insect: Literal["butterfly", "ladybug", "bee"]
    flutter: bool = False


class LeavesFile(_DataFile):
    piles: int = Field(ge=1, le=6)
    leaf: list[Leaf] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> LeavesFile:
        ids = [x.id for x in self.leaf]
        if len(set(ids)) != len(ids):
            raise ValueError("leaf ids must be unique")
        if len(self.leaf) % self.piles:
            raise ValueError(f"{len(self.leaf)} leaves cannot make {self.piles} equal piles")
        return self


class Space(SheetModel):
    accepts: list[Literal["small", "large"]] = Field(min_length=1)


class PergolaFile(_DataFile):
    honey_thresholds: list[int] = Field(min_length=1, max_length=4)
    space: list[Space] = Field(min_length=1, max_length=30)

    @model_validator(mode="after")
    def _check(self) -> PergolaFile:
        t = self.honey_thresholds
        if any(b <= a for a, b in itertools.pairwise(t)) or t[0] < 1:
            raise ValueError(f"honey_thresholds must be positive and increasing, got {t}")
        return self


MODELS: dict[str, type[SheetModel]] = {
    "tools": ToolsFile, "pond": PondFile, "cascade": CascadeFile, "leaves": LeavesFile,
    "pergola": PergolaFile,
}


@dataclass(frozen=True)
class Bundle:
    """The five validated data files of one game."""

    name: str
    tools: ToolsFile
    pond: PondFile
    cascade: CascadeFile
    leaves: LeavesFile
    pergola: PergolaFile

    def as_data(self) -> dict[str, Any]:
        return {p: getattr(self, p).model_dump(mode="json") for p in PARTS}


_CACHE: dict[str, Bundle] = {}
_DICT_CACHE: dict[str, Bundle] = {}


def load_bundle(source: str | Path | Mapping[str, Any] | None) -> Bundle:
    """Load and validate a data bundle (see the module docstring for what ``source`` may be)."""
    if source is None or source == "standard":
        if "standard" not in _CACHE:
            parts = {p: load_sheet(MODELS[p], p, SHEETS_DIR, kind=f"pergola {p} file")
                     for p in PARTS}
            _CACHE["standard"] = Bundle("standard", **parts)  # type: ignore[arg-type]
        return _CACHE["standard"]
    if isinstance(source, Mapping):
        check_sheet_data(source, path="<pergola data>")  # bounded before json.dumps
        key = json.dumps(source, sort_keys=True, default=str)
        if key in _DICT_CACHE:
            return _DICT_CACHE[key]
        bundle = _bundle_from_dict(source)
        if len(_DICT_CACHE) >= 32:
            _DICT_CACHE.pop(next(iter(_DICT_CACHE)))
        _DICT_CACHE[key] = bundle
        return bundle
    return _bundle_from_path(source)


def _bundle_from_dict(source: Mapping[str, Any]) -> Bundle:
    missing = [p for p in PARTS if p not in source]
    if missing:
        raise SheetError(f"pergola data needs the tables {', '.join(PARTS)}; "
                         f"missing: {', '.join(missing)}", path="<pergola data>")
    extra = [k for k in source if k not in PARTS]
    if extra:
        raise SheetError(f"unknown pergola data tables {extra}; allowed: {', '.join(PARTS)}",
                         path="<pergola data>")
    parts = {p: validate_data(MODELS[p], source[p], path=f"<pergola {p} data>")
             for p in PARTS}
    return Bundle("custom", **parts)  # type: ignore[arg-type]


def _bundle_from_path(source: str | Path) -> Bundle:
    path = Path(str(source))
    if path.is_dir():
        parts = {}
        for p in PARTS:
            f = path / f"{p}.toml"
            if not f.exists():
                raise SheetError(f"the data directory has no {p}.toml; it needs "
                                 f"{', '.join(f'{q}.toml' for q in PARTS)}", path=str(path))
            parts[p] = load_sheet(MODELS[p], str(f), SHEETS_DIR)
        return Bundle(path.name, **parts)  # type: ignore[arg-type]
    if str(source).endswith(".toml") or "/" in str(source) or path.exists():
        text = read_sheet_text(path, "pergola data file")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SheetError(f"not valid TOML: {exc}", path=str(path)) from None
        missing = [p for p in PARTS if p not in data]
        if missing:
            raise SheetError(f"a one-file pergola bundle needs the tables "
                             f"{', '.join(f'[{p}]' for p in PARTS)}; missing: "
                             f"{', '.join(missing)}", path=str(path))
        parts = {p: validate_data(MODELS[p], data[p], path=str(path), text=text, prefix=(p,))
                 for p in PARTS}
        return Bundle(path.stem, **parts)  # type: ignore[arg-type]
    raise SheetError(f"no shipped pergola data named {source!r}; shipped: standard; or give a "
                     f"directory with {', '.join(f'{p}.toml' for p in PARTS)}, or one .toml file "
                     f"with the tables {', '.join(f'[{p}]' for p in PARTS)}")


class Compiled:
    """Immutable, shared per data bundle: indices, adjacency and the move objects."""

    def __init__(self, b: Bundle) -> None:
        self.bundle = b
        self._compile_tools(b)
        self._compile_pond(b)
        self._compile_cascade(b)
        self._compile_leaves(b)
        self.spaces = tuple(tuple(SMALL if a == "small" else LARGE for a in s.accepts)
                            for s in b.pergola.space)
        self.thresholds = tuple(b.pergola.honey_thresholds)
        self._compile_moves()

    def _compile_tools(self, b: Bundle) -> None:
        """The tools board, the tools with their components and types, and the supply."""
        self.turns = b.tools.turns
        self.board = tuple(b.tools.board)
        self.tools = tuple(tuple(t.components) for t in b.tools.tool)
        self.tool_ids = tuple(t.id for t in b.tools.tool)
        self.tool_index = {t: i for i, t in enumerate(self.tool_ids)}
        self.tool_type = tuple(t.type for t in b.tools.tool)
        self.supply = tuple(b.tools.supply[k] for k in SUPPLY_ITEMS)
        self.max_holly = max(b.tools.supply[k] for k in HOLLYHOCKS) + 1
        self.max_mag = b.tools.supply["magnolia-single"] + b.tools.supply["magnolia-double"] + 1

    def _compile_pond(self, b: Bundle) -> None:
        """The lilies: their insects, dragonfly requirements and adjacency."""
        lil = b.pond.lily
        self.lily_ids = tuple(x.id for x in lil)
        self.lily_index = {x: i for i, x in enumerate(self.lily_ids)}
        self.lily_insect = tuple(x.insect for x in lil)
        self.lily_req = tuple(x.dragonfly for x in lil)
        self.lily_adj = tuple(tuple(self.lily_index[a] for a in x.adjacent) for x in lil)
        self.dragon_lilies = tuple(i for i, x in enumerate(lil) if x.dragonfly)

    def _compile_cascade(self, b: Bundle) -> None:
        """The cascade's stones, where each drips to, and the starts."""
        st = b.cascade.stone
        self.stone_ids = tuple(s.id for s in st)
        self.stone_index = {s: i for i, s in enumerate(self.stone_ids)}
        self.stone_insect = tuple(s.insect for s in st)
        self.stone_to = tuple(tuple(BOTTOM if t == "bottom" else self.stone_index[t]
                                    for t in s.to) for s in st)
        self.starts = tuple(self.stone_index[s] for s in b.cascade.starts)

    def _compile_leaves(self, b: Bundle) -> None:
        """The leaves (colour, insect, flutter), the piles and the colours in play."""
        lv = b.leaves.leaf
        self.leaf_ids = tuple(x.id for x in lv)
        self.leaf_index = {x: i for i, x in enumerate(self.leaf_ids)}
        self.leaf_colour = tuple(x.colour for x in lv)
        self.leaf_insect = tuple(x.insect for x in lv)
        self.leaf_flutter = tuple(x.flutter for x in lv)
        self.piles = b.leaves.piles
        self.pile_size = len(lv) // self.piles
        self.colours = tuple(dict.fromkeys(self.leaf_colour))

    def _compile_moves(self) -> None:
        """The moves, built once with their meaning (index by space, level, pile, lily, ...)."""
        self.pick_moves = tuple(pick_move(i) for i in range(len(self.board)))
        self.magnolia_moves = tuple(magnolia_move(lv) for lv in range(self.max_mag))
        self.buttercup_moves = tuple(buttercup_move(i) for i in range(len(self.spaces)))
        self.leaf_moves = tuple(leaf_move(p) for p in range(self.piles))
        self.jump_moves = tuple(jump_move(i, x) for i, x in enumerate(self.lily_ids))
        self.drip_moves: tuple[tuple[PergolaMove, ...], ...] = tuple(
            tuple(drip_move(i, t, sid, "bottom" if t == BOTTOM else self.stone_ids[t])
                  for t in self.stone_to[i]) for i, sid in enumerate(self.stone_ids))
        self.draw_moves = tuple(draw_move(i, t) for i, t in enumerate(self.tool_ids))
        self.reveal_moves = tuple(tuple(reveal_move(p, i, x) for i, x in enumerate(self.leaf_ids))
                                  for p in range(self.piles))

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


__all__ = [
    "ACTIONS", "BOTTOM", "HOLLYHOCKS", "INSECTS", "LANTERNS", "LARGE", "REQUIREMENTS", "SMALL",
    "SUP", "SUPPLY_ITEMS", "Bundle", "Compiled", "compiled", "load_bundle", "parse_sheet_text",
]
