"""Pick a Pen: Gardens: the bots' presets (data for ``meeple.bots``; docs/bots.md explains them).

``mcts``: options an ``mcts`` spec leaves out (Gardens plays the general defaults).
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    "mcts": {},
}
