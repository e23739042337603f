"""Pick a Pen: Gardens: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``). Gardens plays the general mcts defaults.
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    # easy: the score only, a random whole turn one time in five; medium: greedy; hard: mcts
    # for at most 1000 iterations or 0.6 CPU seconds a decision (3 s wall clock: a safety stop)
    "difficulties": {
        "easy": {"*": "greedy:eval=score;epsilon=0.2"},
        "medium": {"*": "greedy"},
        "hard": {"*": "mcts:iterations=1000;cpu=0.6;seconds=3"},
    },
    "mcts": {},
}
