"""The bots' registry of game knowledge: each game package's ``BOTS``
(:class:`~meeple.core.layers.BotKnowledge`: its evaluation, turn ranker and presets), found
through the package the rules registry loaded, so ``meeple.bots`` never imports a game."""

from __future__ import annotations

from typing import Any

from meeple.core.layers import BotKnowledge
from meeple.core.registry import kept_game_part

#: Knowledge found so far, by game name (tests may replace a game's).
KNOWLEDGE: dict[str, BotKnowledge[Any]] = {}


def bot_knowledge(game: str) -> BotKnowledge[Any]:
    """Game ``game``'s knowledge for bots (its package's ``BOTS``). Raises
    :class:`~meeple.core.errors.UnknownGame` for a game not registered and
    :class:`~meeple.core.errors.IncompleteGame` for one whose package has none."""
    return kept_game_part(KNOWLEDGE, game, "BOTS", BotKnowledge)
