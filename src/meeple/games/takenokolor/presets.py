"""Takenokolor: the bots' presets (data for ``meeple.bots``; docs/bots.md explains them).

``mcts``: options an ``mcts`` spec leaves out, plain (every seat count) or by seat count;
``mcts_sheets``: exceptions for a shipped sheet (by its name), winning over ``mcts``.
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    # at three and four seats the other seats play greedy's turn; a leaf is judged against
    # each other seat in turn
    "mcts": {"others": {3: "greedy", 4: "greedy"}, "versus": {3: "each", 4: "each"}},
    "mcts_sheets": {
        # races decided by who gets there first: the margin over the best other seat at three
        # seats, one more round of greedy turns after each leaf at four
        "4-pandas-dragon": {"versus": {3: "best"}, "rollout": {4: "greedy"}, "horizon": {4: 4}},
    },
}
