"""Takenokolor: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``).
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    # easy and medium: the general presets (meeple.bots.difficulty.GENERAL); hard: mcts for
    # 0.6 CPU seconds a decision (at most 4000 iterations: at two seats 1000 took only 0.24 s,
    # and against medium neither budget separated on 2-pandas, docs/bots.md; 3 s wall clock:
    # a safety stop)
    # expert: hard's budget (equal think time), the leaves judged by the shipped nets/expert.npz
    "difficulties": {"hard": {"*": "mcts:iterations=4000;cpu=0.6;seconds=3"},
                     "expert": {"*": "mcts:iterations=4000;cpu=0.6;seconds=3;net=expert"}},
    # at three and four seats the other seats play greedy's turn; a leaf is judged against
    # each other seat in turn
    "mcts": {"others": {3: "greedy", 4: "greedy"}, "versus": {3: "each", 4: "each"}},
    "mcts_sheets": {
        # races decided by who gets there first: the margin over the best other seat at three
        # seats, one more round of greedy turns after each leaf at four
        "4-pandas-dragon": {"versus": {3: "best"}, "rollout": {4: "greedy"}, "horizon": {4: 4}},
    },
}
