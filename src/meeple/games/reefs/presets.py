"""Pick a Pen: Reefs: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``).
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
    # no progressive bias: it lost win share in every level's trial
    "mcts": {"bias": 0.0},
    "mcts_sheets": {
        # level 1 at four seats: one round of greedy turns after each leaf
        "small-ocean": {"rollout": {4: "greedy"}, "horizon": {4: 4}},
        # level 2 (whirlpools move a pencil far in one turn): two rounds at three seats, one
        # at four judged against each other seat in turn
        "the-whirlpools": {"rollout": {3: "greedy", 4: "greedy"}, "horizon": {3: 6, 4: 4},
                           "versus": {4: "each"}},
    },
}
