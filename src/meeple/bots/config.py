"""The ``mcts`` bot's options: one typed, frozen config, parsed once from the spec string.

``MctsConfig.parse({"iterations": "200", "top": "4"})`` validates every option (an unknown
option, or a value out of range, raises :class:`~meeple.core.errors.MeepleError` naming the
option and what is allowed). Options a spec leaves out are ``None`` where a game may preset
them; :meth:`MctsConfig.resolve` fills those in from the game's presets (its registry entry's
``BotKnowledge.presets["mcts"]``, then the sheet's ``presets["mcts_sheets"][name]``) and then the
general defaults. What each option does is in docs/bots.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.errors import MeepleError

#: A net's name: 1-40 lower-case letters, digits and hyphens (``meeple.bots.learned`` finds
#: the nets by it; kept here so parsing a spec needs no numpy).
NET_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
NET_NAME_RULE = "1-40 lower-case letters, digits and hyphens, starting with a letter or digit"

#: Rollout policies: ``random`` (a uniformly random decision at a time) or ``greedy`` (each
#: seat plays the whole turn its evaluation likes best, as the ``greedy`` bot would).
ROLLOUT_POLICIES = ("random", "greedy")
#: Whom a leaf is measured against with three or more seats: ``best`` (the best other seat) or
#: ``each`` (every other seat in turn, the pairwise rewards averaged).
VERSUS = ("best", "each")
#: How the other seats' turns are found: ``tree`` (tree nodes with their own candidates) or
#: ``greedy`` (greedy's whole turn in every determinisation, not part of the tree).
OTHERS = ("tree", "greedy")

#: Research options removed (no preset, documented use or test of behaviour
#: needed them): the search plays fixed values (:class:`~meeple.bots.mcts.MctsBot`'s ``c``,
#: ``expand``, ``scale``, ``turns`` and ``root_turns``; ``replies`` 1 with three or more seats,
#: else ``top``; ``ref`` the mean of the leaves at the same depth solo, else the root; ``eval``
#: the game's evaluation). ``experiments/research_mcts.py`` searches with them changed.
REMOVED = ("c", "expand", "scale", "turns", "root_turns", "ref", "replies", "eval")

#: The options a game may preset (per seat count, per sheet), with their general defaults.
PRESETTABLE: dict[str, Any] = {
    "top": 8,
    "horizon": 0,
    "crn": False,
    "diverse": False,
    "versus": "best",
    "beam": 0,
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


def _float(name: str, low: float, what: str) -> Callable[[Any], float]:
    def conv(value: Any) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}") from None
        if x != x or x < low:
            raise MeepleError(f"mcts option {name} must be {what}, not {value!r}")
        return x
    return conv


def _flag(name: str) -> Callable[[Any], bool]:
    def conv(value: Any) -> bool:
        if value in (0, 1, "0", "1", True, False):
            return bool(int(value))
        raise MeepleError(f"mcts option {name} must be 0 (off) or 1 (on), not {value!r}")
    return conv


def _net_name(value: Any) -> str:
    """A net's name (``meeple.bots.learned.NET_NAME``, checked here without numpy)."""
    if not isinstance(value, str) or NET_NAME.fullmatch(value) is None:
        raise MeepleError(f"mcts option net must be a net's name ({NET_NAME_RULE}; a name, "
                          f"never a file or path), not {value!r}")
    return value


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
    "horizon": _int("horizon", -1, "a whole number of seat turns (-1: to the end)"),
    "crn": _flag("crn"),
    "diverse": _flag("diverse"),
    "versus": _choice("versus", VERSUS),
    "beam": _int("beam", 0, "0 (off) or a positive width"),
    "others": _choice("others", OTHERS),
    "bias": _float("bias", 0.0, "a number, 0 or more"),
    "rollout": _choice("rollout", ROLLOUT_POLICIES),
    "net": _net_name,
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
    horizon: int | None = None
    crn: bool | None = None
    diverse: bool | None = None
    versus: str | None = None
    beam: int | None = None
    others: str | None = None
    bias: float | None = None
    rollout: str | None = None
    #: the game's nets (by name) that judge the search's leaves; ``None``: the evaluation
    #: alone. Not presettable: a difficulty's spec names its nets itself.
    net: str | None = None

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> MctsConfig:
        """A config from option values (numbers or their text), every one checked."""
        unknown = sorted(set(options) - set(_CONVERT))
        if unknown:
            removed = [k for k in unknown if k in REMOVED]
            why = (f" ({', '.join(removed)}: removed, the search plays fixed values; "
                   "experiments/research_mcts.py can change them)" if removed else "")
            raise MeepleError(f"unknown mcts option(s) {', '.join(unknown)}{why}; options: "
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
                value = fallback
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
    horizon: int
    crn: bool
    diverse: bool
    versus: str
    beam: int
    others: str
    bias: float
    rollout: str
    net: str | None


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
