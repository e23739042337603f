"""Pick a Pen: Reefs: the bots' presets (data for ``meeple.bots``; the keys are those of
``meeple.core.layers.BotKnowledge.presets``).
"""

from typing import Any

BOT_PRESETS: dict[str, Any] = {
    # easy, medium, hard and expert: the general presets (meeple.bots.difficulty.GENERAL)
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
