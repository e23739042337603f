"""The game registry: ``games()``, ``new_game()`` and ``replay()``.

Each game package exposes ``GAME``, a :class:`GameInfo`, and announces it as an entry point in
the ``meeple.games`` group (``pyproject.toml``), so ``core`` never imports a game by name: on
first use the registry loads every announced entry point. A third-party package can add a game
the same way. Every sub-package of ``meeple.games`` that defines ``GAME`` is found too, by walking
that package, so a new game folder needs no list edited (``meeple new-game``). The folders named
in ``MEEPLE_GAMES_PATH`` (separated like ``PATH``) are walked as part of ``meeple.games``: a game
kept outside the source tree (a generated one, under test) is found there, as
``meeple.games.<name>``.

``GameInfo`` holds the rules' facts only. What the other layers need of a game (its words,
views and drawing; its bots' knowledge; its solo reports) is a typed record of its own in the
same package (``PRESENTATION``, ``BOTS``, ``SOLO``), which each layer's registry finds with
:func:`game_part` through the package this registry loaded (``docs/layers.md``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar, overload

from meeple.core.errors import (
    BadRecord,
    BadVariant,
    IllegalMove,
    IncompleteGame,
    MeepleError,
    UnknownGame,
)
from meeple.core.records import load_record as _read_record
from meeple.core.state import RECORD_FORMAT, State


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of a game: the rules' facts, nothing of how it is drawn or
    played by bots (those are the package's other records, see :func:`game_part`).

    ``options`` maps each variant option to the values it offers (e.g. ``{"level": (1, 2, 3)}``);
    ``variants`` lists every standard variant as a dict of options, which is what the conformance
    suite and ``meeple games`` walk through. ``factory(players=, seed=, sheet=, **options)`` makes
    the initial state and raises :class:`BadVariant` for anything it does not accept.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    factory: Callable[..., State[Any]]
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    variants: tuple[Mapping[str, Any], ...] = ({},)
    summary: str = ""
    default_players: int = 2
    #: Whether a player may bring a sheet of their own: one TOML file of the game's sheet format
    #: (``meeple sheets validate``), which the site's uploads take (a game whose sheet data is no
    #: printed sheet to fill in, as Pergola's bundle of boards and tiles, leaves it False).
    own_sheets: bool = False
    #: Some variants only exist for some player counts (Pergola's solo challenges): this maps
    #: a variant to its (min, max) players; ``None`` means the game's own range.
    variant_players: Callable[[Mapping[str, Any]], tuple[int, int]] | None = None

    def player_range(self, variant: Mapping[str, Any]) -> range:
        lo, hi = (self.min_players, self.max_players)
        if self.variant_players is not None:
            lo, hi = self.variant_players(variant)
        return range(lo, hi + 1)

    def describe_variant(self, variant: Mapping[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in variant.items()) or "standard"


_REGISTRY: dict[str, GameInfo] = {}
#: The package each game was found in (its entry point's module), by game name: where the
#: other layers' records of the game are (:func:`game_part`).
_PACKAGES: dict[str, str] = {}
_LOADED = False


def register(info: GameInfo, package: str | None = None) -> GameInfo:
    """Add a game; ``package``: the module that defines its ``GAME`` and its other layers'
    records (``PRESENTATION``, ``BOTS``; see :func:`game_part`)."""
    _REGISTRY[info.name] = info
    if package is not None:
        _PACKAGES[info.name] = package
    return info


ENTRY_POINT_GROUP = "meeple.games"


_LOCK = threading.RLock()
_LOADING = False


def _load() -> None:
    """Register every announced game, once. Threads that ask meanwhile wait for it (the server
    asks from worker threads); a game package that asks while it is being imported (the same
    thread) is answered with what is registered so far."""
    global _LOADED, _LOADING
    if _LOADED:
        return
    with _LOCK:
        if _LOADED or _LOADING:
            return
        _LOADING = True
        try:
            from importlib.metadata import entry_points

            found = [(ep.load(), ep.module) for ep in entry_points(group=ENTRY_POINT_GROUP)]
            announced = {info.name for info, _ in found if isinstance(info, GameInfo)}
            found += [(info, package) for info, package in _walk_games_package()
                      if info.name not in announced]
            for info, package in found:
                if not isinstance(info, GameInfo):
                    raise TypeError(f"a {ENTRY_POINT_GROUP} entry point must name a GameInfo, "
                                    f"got {info!r}")
                register(info, package)
            _LOADED = True
        finally:
            _LOADING = False


#: The environment variable naming further folders of game packages (``os.pathsep`` apart).
GAMES_PATH_ENV = "MEEPLE_GAMES_PATH"


def games_path_folders() -> list[str]:
    """The folders ``MEEPLE_GAMES_PATH`` names, in order (empty entries dropped): where game
    packages kept outside the source tree are found. Read here, where the games are found, so
    every process that plays (the server, its bot workers, the terminal, the tests) sees them."""
    return [folder for folder in os.environ.get(GAMES_PATH_ENV, "").split(os.pathsep) if folder]


def _walk_games_package() -> list[tuple[GameInfo, str]]:
    """Every sub-package of ``meeple.games`` that defines GAME, with its module name, in
    name order: the source tree's games and those of the ``MEEPLE_GAMES_PATH`` folders."""
    package = importlib.import_module(ENTRY_POINT_GROUP)
    for folder in games_path_folders():
        if folder not in package.__path__:
            package.__path__.append(folder)
    out = []
    for mod in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if mod.ispkg:
            name = f"{ENTRY_POINT_GROUP}.{mod.name}"
            info = getattr(importlib.import_module(name), "GAME", None)
            if isinstance(info, GameInfo):
                out.append((info, name))
    return out


def games() -> list[GameInfo]:
    """Every registered game, in registry order."""
    _load()
    return list(_REGISTRY.values())


def game_info(name: str) -> GameInfo:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY) or "none"
        raise UnknownGame(f"unknown game {name!r}; known games: {known}") from None


T = TypeVar("T")


@overload
def game_part(name: str, attr: str, kind: type[T]) -> T: ...


@overload
def game_part(name: str, attr: str, kind: type[T], *, required: bool) -> T | None: ...


def game_part(name: str, attr: str, kind: type[T], *, required: bool = True) -> T | None:
    """What game ``name``'s package exposes as ``attr`` (``PRESENTATION``, ``BOTS``, ``SOLO``),
    checked to be a ``kind``: how the layers above the rules find their record of a game
    without core knowing them. A ``required`` record the package lacks raises
    :class:`IncompleteGame` naming the package and what to add; otherwise its absence is
    ``None``."""
    info = game_info(name)
    package = _PACKAGES.get(name)
    part = None if package is None else getattr(importlib.import_module(package), attr, None)
    if part is None:
        if not required:
            return None
        where = f"its package {package}" if package else "it was registered without a package, so it"
        raise IncompleteGame(f"{info.title} ({name}) has no {attr}: {where} defines no {attr} "
                             f"(a {kind.__module__}.{kind.__qualname__}); see docs/layers.md")
    if not isinstance(part, kind):
        raise IncompleteGame(f"{info.title} ({name}): {package}.{attr} must be a "
                             f"{kind.__module__}.{kind.__qualname__}, not {type(part).__name__}")
    return part


#: The how-to-play page a game package may ship beside its modules (Markdown, in the project's
#: own words; the web's ``/rules/<game>``, ``docs/web.md``).
HOW_TO_PLAY = "how-to-play.md"


def game_text(name: str, filename: str = HOW_TO_PLAY) -> str | None:
    """The text of ``filename`` shipped in game ``name``'s package (by default its how-to-play
    page), or None where the package ships none. ``filename`` is a name of the caller's own,
    never one a client sent: a client names a game, which the registry maps to its package.
    Raises :class:`UnknownGame` for a game not registered."""
    game_info(name)
    package = _PACKAGES.get(name)
    if package is None or "/" in filename or "\\" in filename or filename.startswith("."):
        return None
    try:
        return (resources.files(package) / filename).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, TypeError):
        return None


def game_files(name: str) -> Traversable:
    """The folder of game ``name``'s package (its ``sheets/``, its pages), wherever the registry
    found it. Raises :class:`UnknownGame` for a game not registered."""
    game_info(name)
    return resources.files(_PACKAGES.get(name) or f"{ENTRY_POINT_GROUP}.{name}")


#: The folder of a game's package that holds the sheets it ships, one TOML file each.
SHEETS_FOLDER = "sheets"


def game_sheets(name: str) -> list[str]:
    """The names of the sheets game ``name`` ships (its ``sheets/*.toml``, without ``.toml``),
    in name order; none where its package has no such folder. Found through the registry, so
    a game kept on ``MEEPLE_GAMES_PATH`` lists its own; a client's game name is looked up here
    before any folder is opened. Raises :class:`UnknownGame` for a game not registered."""
    folder = game_files(name) / SHEETS_FOLDER
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def kept_game_part(found: dict[str, T], name: str, attr: str, kind: type[T],
                   default: T | None = None) -> T:
    """:func:`game_part` looked up once per game and kept in ``found`` (a layer's own table
    of its records, which tests may change): how ``presentation()`` and ``bot_knowledge()``
    find a game's record. With a ``default``, a package without ``attr`` gets that instead of
    :class:`IncompleteGame` (the layer's default for a game that brings none)."""
    part = found.get(name)
    if part is None:
        with _LOCK:
            part = found.get(name)
            if part is None:
                own = game_part(name, attr, kind, required=default is None)
                if own is None:
                    assert default is not None  # game_part raised for a required record
                    own = default
                part = found[name] = own
    return part


def new_game(
    name: str,
    players: int | None = None,
    seed: int = 0,
    sheet: str | Path | Mapping[str, Any] | None = None,
    **options: Any,
) -> State[Any]:
    """A new game. ``sheet`` is a shipped sheet name, a TOML path, or sheet data from a record."""
    info = game_info(name)
    if players is None:
        players = info.default_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise BadVariant(f"players must be a whole number, got {players!r}")
    if not info.min_players <= players <= info.max_players:
        raise BadVariant(
            f"{info.title} takes {info.min_players} to {info.max_players} players, not {players}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadVariant(f"seed must be a whole number, got {seed!r}")
    for key, value in options.items():
        if key not in info.options:
            allowed = ", ".join(sorted(info.options)) or "none"
            raise BadVariant(f"{info.title} has no option {key!r}; options: {allowed}")
        allowed_values = info.options[key]
        if allowed_values and value is not None and value not in allowed_values:
            shown = ", ".join(repr(v) for v in allowed_values)
            raise BadVariant(f"{key}={value!r} is not offered by {info.title}; choose from {shown}")
    merged = {**info.defaults, **{k: v for k, v in options.items() if v is not None}}
    state = info.factory(players=players, seed=seed, sheet=sheet, **merged)
    # how the state starts its game afresh (``State.replay_moves``, ``undo``) without
    # importing this registry: kept by its clones
    state._restart = new_game
    return state


def replay(record: Mapping[str, Any] | str | Path, upto: int | None = None) -> State[Any]:
    """Rebuild the state a record describes (its first ``upto`` moves, default all)."""
    rec = load_record(record) if isinstance(record, (str, Path)) else record
    if rec.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise BadRecord(f"unknown record format {rec.get('format')!r}; expected {RECORD_FORMAT}")
    for key in ("game", "players", "moves"):
        if key not in rec:
            raise BadRecord(f"record has no {key!r} entry")
    try:
        state = new_game(
            rec["game"], players=rec["players"], seed=rec.get("seed", 0),
            sheet=rec.get("sheet"), **rec.get("variant", {}),
        )
    except MeepleError as exc:
        raise BadRecord(f"record cannot start its game: {exc}") from exc
    if "seats" in rec:
        state.seats = list(rec["seats"])
    moves = rec["moves"] if upto is None else rec["moves"][:upto]
    for i, text in enumerate(moves):
        try:
            state.play(text)
        except IllegalMove as exc:
            raise BadRecord(f"move {i + 1} ({text!r}) cannot be replayed: {exc.reason}") from exc
    return state


def load_record(path: str | Path, index: int = 0) -> dict[str, Any]:
    """Read a game record from a file: the game of a one-game JSON file (as ``meeple play``
    writes it), or record ``index`` (0 = first) of a JSON-lines file (``meeple simulate``).
    Raises :class:`BadRecord` naming the file and what is wrong (see
    :mod:`meeple.core.records`)."""
    return _read_record(path, index)
