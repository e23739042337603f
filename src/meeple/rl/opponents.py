"""Opponents for the single-agent env: a bot spec or difficulty, a :class:`Bot`, or a policy.

- a string: any ``meeple`` bot spec (``random``, ``greedy``, ``mcts:iterations=200``) or a
  named difficulty (``easy``, ``medium``, ``hard``), made afresh each game with a seed taken
  from the game's, so a seeded ``reset`` replays the same game;
- a :class:`meeple.bots.Bot`: used as it is (its own seed);
- a callable ``policy(observation) -> action``: gets that seat's observation dict
  (``observation``, ``action_mask``) and returns an action number: self-play plugs a copy of
  the learner in here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from meeple.bots import Bot, make_bot
from meeple.core.errors import MeepleError

Policy = Callable[[dict[str, np.ndarray]], int]
Opponent = str | Bot | Policy


class Seat:
    """One opponent seat: how it decides."""

    def __init__(self, opponent: Opponent) -> None:
        if isinstance(opponent, str):
            make_bot(opponent)  # refuse an unknown spec now, with the bot registry's words
        elif not (isinstance(opponent, Bot) or callable(opponent)):
            raise MeepleError(f"an opponent is a bot spec (e.g. 'random', 'easy'), a meeple Bot "
                              f"or a callable policy(observation) -> action, not {opponent!r}")
        self.opponent = opponent
        self.bot: Bot | None = opponent if isinstance(opponent, Bot) else None
        self.policy: Policy | None = (None if isinstance(opponent, str | Bot)
                                      else opponent)

    def new_game(self, seed: int) -> None:
        if isinstance(self.opponent, str):
            self.bot = make_bot(self.opponent, seed=seed)

    def describe(self) -> str:
        """The seat's name in the record: the bot spec as given (``mcts:iterations=300``),
        a :class:`Bot`'s name, or a policy's ``__name__`` (``policy`` for a lambda)."""
        if isinstance(self.opponent, str):
            return self.opponent.strip()
        if isinstance(self.opponent, Bot):
            return self.opponent.name
        name = getattr(self.opponent, "__name__", None)
        return name if isinstance(name, str) and name and name != "<lambda>" else "policy"


def seat_names(names: list[str]) -> list[str]:
    """``names`` with each name that repeats told apart by its seat: ``random (1)``,
    ``random (2)``, as ``meeple play`` names its bots."""
    low = [n.lower() for n in names]
    return [f"{n} ({i})" if low.count(n.lower()) > 1 else n for i, n in enumerate(names)]


def opponents_from(opponents: Any) -> list[Seat]:
    if isinstance(opponents, str | Bot) or callable(opponents):
        opponents = [opponents]
    seats = [Seat(o) for o in opponents]
    return seats
