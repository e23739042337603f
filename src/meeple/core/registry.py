"""The game registry: ``games()``, ``new_game()`` and ``replay()``.

Each game package exposes ``GAME``, a :class:`GameInfo`, and announces it as an entry point in
the ``meeple.games`` group (``pyproject.toml``), so ``core`` never imports a game by name: on
first use the registry loads every announced entry point. A third-party package can add a game
the same way. When meeple runs from a source tree without installed metadata, the sub-packages
of ``meeple.games`` that define ``GAME`` are found by walking that package instead.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.errors import BadRecord, BadVariant, IllegalMove, MeepleError, UnknownGame
from meeple.core.records import load_record as _read_record
from meeple.core.state import RECORD_FORMAT, State


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of a game.

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
    #: Some variants only exist for some player counts (Pergola's solo challenges): this maps
    #: a variant to its (min, max) players; ``None`` means the game's own range.
    variant_players: Callable[[Mapping[str, Any]], tuple[int, int]] | None = None
    #: The terminal drawing, registered beside the game so the rules never import it:
    #: ``render(state, seat, colourblind)`` gives the whole screen for a seat as Rich markup.
    render: Callable[[Any, int | None, bool], str] | None = None
    #: The score pad alone, as printed (``score`` at the terminal prompt), same arguments.
    render_score: Callable[[Any, int | None, bool], str] | None = None
    #: How moves are written in this game, with examples (``help`` at the terminal prompt).
    notation_help: str = ""
    #: ``announce(before, after)``: what happened between two states of a game, in words, for
    #: players (a garden completed, a bonus taken); see ``State.announcements``.
    announce: Callable[[Any, Any], list[str]] | None = None
    #: ``view_board(view_state, viewer)``: the game's public position as JSON-able data for
    #: clients (``meeple.core.view``): what changes during a game, and the choices of the
    #: seat to move keyed by the layout element each one targets; ``viewer`` is a seat or
    #: None for a spectator.
    view_board: Callable[[Any, int | None], dict[str, Any]] | None = None
    #: ``view_layout(state)``: what never changes during a game, as JSON-able data: the
    #: sheet's or board's geometry, element ids, labels and scoring tables, so a client can
    #: draw any sheet (a user's own too). Sent once per table (``GET .../layout``).
    view_layout: Callable[[Any], dict[str, Any]] | None = None
    #: The pydantic models behind ``view_layout`` and ``view_board`` (for ``meeple schema``).
    layout_model: Any = None
    board_model: Any = None
    #: Game knowledge for the bots, kept beside the rules so ``meeple.bots`` stays
    #: game-agnostic. ``evaluation(state, seat)``: how good the position is for the seat, in
    #: points (the score so far plus credit for what is under way; ``None``: the score total).
    evaluation: Callable[[Any, int], float] | None = None
    #: ``turn_ranker(state, seat, limit)``: the seat's best ``limit`` whole turns, best first,
    #: as (value, moves), found faster than listing and evaluating every whole turn.
    turn_ranker: Callable[[Any, int, int | None], list[tuple[float, tuple[Any, ...]]]] | None = None
    #: The bots' presets as data (see ``meeple.bots.presets``): the ``mcts`` defaults by seat
    #: count and sheet, and what the named difficulties ``easy``, ``medium``, ``hard`` play.
    bot_presets: Mapping[str, Any] = field(default_factory=dict)
    #: A solo achievement table (Pergola's challenges, P10), for servers that keep players'
    #: games: ``solo_report(state)`` is a finished solo game's result as JSON-able data (at
    #: least ``score``); ``solo_table(games)`` a player's table over such results, each with
    #: the server's ``table`` (id or None) and ``finished`` (ISO time) added.
    solo_report: Callable[[Any], dict[str, Any]] | None = None
    solo_table: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None

    def player_range(self, variant: Mapping[str, Any]) -> range:
        lo, hi = (self.min_players, self.max_players)
        if self.variant_players is not None:
            lo, hi = self.variant_players(variant)
        return range(lo, hi + 1)

    def describe_variant(self, variant: Mapping[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in variant.items()) or "standard"


_REGISTRY: dict[str, GameInfo] = {}
_LOADED = False


def register(info: GameInfo) -> GameInfo:
    _REGISTRY[info.name] = info
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

            found = [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
            if not found:
                found = _walk_games_package()
            for info in found:
                if not isinstance(info, GameInfo):
                    raise TypeError(f"a {ENTRY_POINT_GROUP} entry point must name a GameInfo, "
                                    f"got {info!r}")
                register(info)
            _LOADED = True
        finally:
            _LOADING = False


def _walk_games_package() -> list[GameInfo]:
    """Without installed metadata: every sub-package of ``meeple.games`` that defines GAME."""
    package = importlib.import_module(ENTRY_POINT_GROUP)
    out = []
    for mod in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if mod.ispkg:
            info = getattr(importlib.import_module(f"{ENTRY_POINT_GROUP}.{mod.name}"), "GAME", None)
            if isinstance(info, GameInfo):
                out.append(info)
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
    return info.factory(players=players, seed=seed, sheet=sheet, **merged)


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
