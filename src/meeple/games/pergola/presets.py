"""Pergola: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``).
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    # easy and medium: the general presets (meeple.bots.difficulty.GENERAL); hard: mcts for at
    # most 1000 iterations or 0.8 CPU seconds a decision (3 s wall clock: a safety stop)
    # expert: hard's budget (equal think time), the leaves judged by the shipped nets/expert.npz
    "difficulties": {"hard": {"*": "mcts:iterations=1000;cpu=0.8;seconds=3"},
                     "expert": {"*": "mcts:iterations=1000;cpu=0.8;seconds=3;net=expert"}},
    # the other seats play greedy's turn, inner turns listed by a beam of width 4; solo and at
    # three and four seats the seat's own greedy next turn before a leaf is judged, common
    # random numbers and one root candidate per tool
    "mcts": {"beam": {1: 4, 2: 4, 3: 4, 4: 4}, "others": {2: "greedy", 3: "greedy", 4: "greedy"},
             "rollout": {1: "greedy", 3: "greedy", 4: "greedy"}, "horizon": {1: 1, 3: 1, 4: 1},
             "crn": {1: 1, 3: 1, 4: 1}, "diverse": {1: 1, 3: 1, 4: 1}, "top": {1: 4, 3: 4, 4: 4}},
}
