"""The product's ``mcts`` search with the research options issue 36 took out of it.

``meeple.bots.mcts.MctsBot`` keeps only the options a preset, a documented use or a test of
behaviour needs (docs/bots.md). The knobs the trials of docs/research/mcts-options-history.md
turned are here, for experiments: :class:`ResearchMcts` is the product's bot (the same search,
the same decisions for a seed when none of them is given) with these on top:

- ``c`` (UCB1's exploration, default 0.7), ``expand`` (visits before a child node, 10),
  ``scale`` (points per unit of the logistic reward, 4.0), ``turns`` and ``root_turns`` (whole
  turns listed at a node and at the root before single decisions, 300 and 5000): the product
  bot's fixed settings, set on the instance;
- ``replies`` (candidates at another seat's node; default 1 with three or more seats, else
  ``top``);
- ``ref`` (what a leaf's margin is judged against: ``root``, or ``depth``, the mean of the
  leaves so far at the same depth; default ``depth`` solo, else ``root``).

``eval=score`` (an mcts on the score total) was deleted, not moved: no trial used it.

    from experiments.research_mcts import research_bot
    bot = research_bot("mcts:iterations=300;ref=depth;scale=8", seed=1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.bots.base import make_bot, parse_options
from meeple.bots.mcts import MctsBot
from meeple.core.errors import MeepleError
from meeple.core.state import State

REFERENCES = ("root", "depth")


def _number(name: str, low: float, kind: type, strict: bool = False) -> Callable[[Any], Any]:
    def conv(value: Any) -> Any:
        try:
            x = kind(value)
        except (TypeError, ValueError):
            raise MeepleError(f"mcts option {name} must be a number, not {value!r}") from None
        if x != x or x < low or (strict and x == low):
            raise MeepleError(f"mcts option {name} must be {'above' if strict else 'at least'} "
                              f"{low}, not {value!r}")
        return x
    return conv


def _reference(value: Any) -> str:
    if str(value) not in REFERENCES:
        raise MeepleError(f"mcts option ref must be one of {', '.join(REFERENCES)}, not {value!r}")
    return str(value)


#: The research options and how each is read.
KNOBS: dict[str, Callable[[Any], Any]] = {
    "c": _number("c", 0.0, float),
    "expand": _number("expand", 1, int),
    "scale": _number("scale", 0.0, float, strict=True),
    "turns": _number("turns", 0, int),
    "root_turns": _number("root_turns", 0, int),
    "replies": _number("replies", 1, int),
    "ref": _reference,
}


class ResearchMcts(MctsBot):
    """:class:`~meeple.bots.mcts.MctsBot` with the research options of :data:`KNOBS`."""

    def __init__(self, seed: int = 0, **options: Any) -> None:
        knobs = {k: KNOBS[k](options.pop(k)) for k in list(options) if k in KNOBS}
        super().__init__(seed, **options)
        self.options = {**self.options, **knobs}
        self._fixed_replies: int | None = knobs.pop("replies", None)
        self._ref: str | None = knobs.pop("ref", None)
        for name, value in knobs.items():  # c, expand, scale, turns, root_turns
            setattr(self, name, value)

    def replies(self, players: int, top: int) -> int:
        if self._fixed_replies is not None:
            return self._fixed_replies
        return super().replies(players, top)

    def _reference(self, state: State[Any], margins: list[float], players: int) -> list[float]:
        if self._ref is None:
            return super()._reference(state, margins, players)
        if self._ref == "root":
            return margins
        mean = self._depth_reference(state.turn - self._root_turn, margins)
        return [m - r for m, r in zip(margins, mean, strict=True)]


def research_bot(spec: str, seed: int = 0) -> Any:
    """A bot from a spec, as :func:`meeple.bots.make_bot`, but ``mcts`` is
    :class:`ResearchMcts` (so the research options are accepted)."""
    name, _, rest = spec.partition(":")
    if name.strip().lower() != "mcts":
        return make_bot(spec, seed=seed)
    try:
        return ResearchMcts(seed=seed, **parse_options(rest))
    except (TypeError, ValueError) as exc:
        raise MeepleError(f"bad options for bot 'mcts': {exc}") from None
