"""The bots' registry of game knowledge: each game package's ``BOTS``
(:class:`~meeple.core.layers.BotKnowledge`: its evaluation, turn ranker and presets), found
through the package the rules registry loaded, so ``meeple.bots`` never imports a game.

A game whose package defines no ``BOTS`` gets :data:`SCORE_ONLY`: its positions judged by the
seat's score-pad total, every whole turn listed and evaluated, and the general presets
(``meeple.bots.difficulty.GENERAL``). A game overrides it by defining its own ``BOTS``."""

from __future__ import annotations

from typing import Any

from meeple.core.layers import BotKnowledge
from meeple.core.registry import kept_game_part
from meeple.core.state import State

#: Knowledge found so far, by game name (tests may replace a game's).
KNOWLEDGE: dict[str, BotKnowledge[Any]] = {}


def score_total(state: State[Any], seat: int) -> float:
    """The default evaluation: the seat's score total as the pad reads now."""
    return float(state.scores()[seat].total)


#: The knowledge of a game that brings none: the score total, no turn ranker, no presets.
SCORE_ONLY: BotKnowledge[Any] = BotKnowledge(evaluation=score_total)


def bot_knowledge(game: str) -> BotKnowledge[Any]:
    """Game ``game``'s knowledge for bots: its package's ``BOTS``, else :data:`SCORE_ONLY`.
    Raises :class:`~meeple.core.errors.UnknownGame` for a game not registered and
    :class:`~meeple.core.errors.IncompleteGame` for a ``BOTS`` that is no ``BotKnowledge``."""
    return kept_game_part(KNOWLEDGE, game, "BOTS", BotKnowledge, default=SCORE_ONLY)
