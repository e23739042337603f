"""The ``mcts`` bot's options: one typed, frozen config, parsed once from the spec string.

``MctsConfig.parse({"iterations": "200", "top": "4"})`` validates every option (an unknown
option, or a value out of range, raises :class:`~meeple.core.errors.MeepleError` naming the
option and what is allowed). Options a spec leaves out are ``None`` where a game may preset
them; :meth:`MctsConfig.resolve` fills those in from the game's presets (its registry entry's
``bot_presets["mcts"]``, then the sheet's ``bot_presets["mcts_sheets"][name]``) and then the
general defaults. What each option does is in docs/bots.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.errors import MeepleError

#: Rollout policies: ``random`` (a uniformly random decision at a time) or ``greedy`` (each
#: seat plays the whole turn its evaluation likes best, as the ``greedy`` bot would).
ROLLOUT_POLICIES = ("random", "greedy")
#: What a leaf is judged against: ``root`` (the margin over the best other seat; solo: the
#: evaluation's rise over the root's) or ``depth`` (that, less the mean of the leaves so far at
#: the same number of turns past the root).
REFERENCES = ("root", "depth")
#: Whom a leaf is measured against with three or more seats: ``best`` (the best other seat) or
#: ``each`` (every other seat in turn, the pairwise rewards averaged).
VERSUS = ("best", "each")
#: How the other seats' turns are found: ``tree`` (tree nodes with their own candidates) or
#: ``greedy`` (greedy's whole turn in every determinisation, not part of the tree).
OTHERS = ("tree", "greedy")
EVALS = ("game", "score")

#: The options a game may preset (per seat count, per sheet), with their general defaults;
#: a callable default depends on the number of seats (and on ``top``, for ``replies``).
PRESETTABLE: dict[str, Any] = {
    "top": 8,
    "horizon": 0,
    "crn": False,
    "diverse": False,
    "ref": lambda players, top: "depth" if players == 1 else "root",
    "versus": "best",
    "beam": 0,
    "replies": lambda players, top: 1 if players >= 3 else top,
    "others": "tree",
    "bias": 1.0,
    "rollout": "random",
}


def _int(name: str, low: int, what: str) -> Callable[[Any], int]:
    def conv(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}")
        try:
            n = int(value)
        except ValueError:
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}") from None
        if n < low:
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}")
        return n
    return conv


def _float(name: str, low: float, what: str, strict: bool = False) -> Callable[[Any], float]:
    def conv(value: Any) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}") from None
        if x != x or x < low or (strict and x == low):
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}")
        return x
    return conv


def _flag(name: str) -> Callable[[Any], bool]:
    def conv(value: Any) -> bool:
        if value in (0, 1, "0", "1", True, False):
            return bool(int(value))
        raise MeepleError(f"mcts option {name} must be 0 (off) or 1 (on), not {value!r}")
    return conv


def _choice(name: str, allowed: tuple[str, ...]) -> Callable[[Any], str]:
    def conv(value: Any) -> str:
        if str(value) not in allowed:
            raise MeepleError(f"mcts option {name} must be one of {', '.join(allowed)}, "
                              f"not {value!r}")
        return str(value)
    return conv


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "iterations": _int("iterations", 0, "a whole number of iterations, 0 or more"),
    "cpu": _float("cpu", 0.0, "0 (none) or a positive number of CPU seconds"),
    "seconds": _float("seconds", 0.0, "0 (none) or a positive number of seconds"),
    "top": _int("top", 1, "a whole number, at least 1"),
    "c": _float("c", 0.0, "a number, 0 or more"),
    "horizon": _int("horizon", -1, "a whole number of seat turns (-1: to the end)"),
    "expand": _int("expand", 1, "a whole number of visits, at least 1"),
    "scale": _float("scale", 0.0, "a positive number of points", strict=True),
    "turns": _int("turns", 0, "a whole number of turns, 0 or more"),
    "root_turns": _int("root_turns", 0, "a whole number of turns, 0 or more"),
    "crn": _flag("crn"),
    "diverse": _flag("diverse"),
    "ref": _choice("ref", REFERENCES),
    "versus": _choice("versus", VERSUS),
    "beam": _int("beam", 0, "0 (off) or a positive width"),
    "replies": _int("replies", 1, "a whole number, at least 1"),
    "others": _choice("others", OTHERS),
    "bias": _float("bias", 0.0, "a number, 0 or more"),
    "eval": _choice("eval", EVALS),
    "rollout": _choice("rollout", ROLLOUT_POLICIES),
}


@dataclass(frozen=True, slots=True)
class MctsConfig:
    """Every ``mcts`` option. ``None``: not given, the game's preset or the general default
    applies (see :meth:`resolve`)."""

    #: iterations per decision (0: none, then ``cpu`` or ``seconds`` must be given)
    iterations: int = 1000
    #: a budget of CPU seconds per decision (the searching thread's ``time.thread_time``)
    cpu: float = 0.0
    #: a safety cap in wall-clock seconds per decision; a search it stops says so
    seconds: float = 0.0
    top: int | None = None
    c: float = 0.7
    horizon: int | None = None
    expand: int = 10
    scale: float = 4.0
    turns: int = 300
    root_turns: int = 5000
    crn: bool | None = None
    diverse: bool | None = None
    ref: str | None = None
    versus: str | None = None
    beam: int | None = None
    replies: int | None = None
    others: str | None = None
    bias: float | None = None
    eval: str = "game"
    rollout: str | None = None

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> MctsConfig:
        """A config from option values (numbers or their text), every one checked."""
        unknown = sorted(set(options) - set(_CONVERT))
        if unknown:
            raise MeepleError(f"unknown mcts option(s) {', '.join(unknown)}; options: "
                              f"{', '.join(_CONVERT)}")
        values = {k: _CONVERT[k](v) for k, v in options.items() if v is not None}
        cfg = cls(**values)
        if cfg.iterations == 0 and cfg.cpu == 0 and cfg.seconds == 0:
            raise MeepleError("give mcts a positive budget: iterations=N, cpu=S and/or seconds=S")
        return cfg

    def given(self) -> dict[str, Any]:
        """The options whose values differ from the defaults (a spec's own choices)."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    def resolve(self, presets: Mapping[str, Any] | None, players: int,
                sheet: str | None = None) -> MctsSettings:
        """Every presettable option filled in: the spec's own value, else the sheet's preset
        for this number of seats, else the game's, else the general default. A preset value
        is either plain (every seat count) or a dict by seat count (``{3: "greedy"}``)."""
        presets = presets or {}
        layers = (presets.get("mcts_sheets", {}).get(sheet or "", {}), presets.get("mcts", {}))
        filled: dict[str, Any] = {}
        for name, fallback in PRESETTABLE.items():
            if getattr(self, name) is not None:
                continue
            value = _preset(layers, name, players)
            if value is None:
                if name == "replies":  # depends on top, resolved first
                    top = filled.get("top", self.top)
                    value = fallback(players, top)
                else:
                    value = fallback(players, None) if callable(fallback) else fallback
            filled[name] = _CONVERT[name](value)
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        values.update(filled)
        return MctsSettings(**values)


@dataclass(frozen=True, slots=True)
class MctsSettings:
    """A :class:`MctsConfig` resolved for one game, sheet and number of seats: every option
    has its value (what a search plays with)."""

    iterations: int
    cpu: float
    seconds: float
    top: int
    c: float
    horizon: int
    expand: int
    scale: float
    turns: int
    root_turns: int
    crn: bool
    diverse: bool
    ref: str
    versus: str
    beam: int
    replies: int
    others: str
    bias: float
    eval: str
    rollout: str


def _preset(layers: tuple[Mapping[str, Any], ...], name: str, players: int) -> Any:
    for defaults in layers:  # the sheet's exceptions first, then the game's defaults
        if name not in defaults:
            continue
        value = defaults[name]
        if isinstance(value, Mapping):
            if players in value:
                return value[players]
            continue
        return value
    return None
