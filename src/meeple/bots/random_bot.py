"""The random bot: a uniformly random legal decision, reproducible from its seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.bots.base import Bot, register_bot
from meeple.core.rng import Rng
from meeple.core.state import State


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **options)
        if options:
            raise TypeError(f"unknown option(s) {', '.join(sorted(options))}; random takes none")
        self.rng = Rng(seed)

    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        return self.rng.choice(legal_moves)


register_bot("random", RandomBot)
