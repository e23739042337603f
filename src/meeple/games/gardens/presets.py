"""Pick a Pen: Gardens: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``). Gardens plays the general mcts defaults.
"""

from typing import Any

#: easy, medium, hard and expert play the general presets (``meeple.bots.difficulty.GENERAL``)
BOT_PRESETS: dict[str, Any] = {"mcts": {}}
