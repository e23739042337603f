"""experiments/research_mcts.py: the product's mcts with the research options back."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from experiments.research_mcts import ResearchMcts, research_bot
from meeple.bots import make_bot
from meeple.bots.mcts import MctsBot
from meeple.core.errors import MeepleError
from meeple.core.state import CHANCE, State


def _decision(game: str, players: int, seed: int, **variant: Any) -> State[Any]:
    state = meeple.new_game(game, players=players, seed=seed, **variant)
    while state.to_move == CHANCE:
        state.sample_chance()
    return state


def _root(bot: MctsBot, state: State[Any]) -> list[Any]:
    seat = state.to_move
    bot.choose(state.seen_by(seat), state.legal_moves())
    assert bot.last_root is not None
    return [(e.moves, e.n, e.w) for e in bot.last_root.edges]


def test_without_research_options_it_is_the_product_search() -> None:
    for game, players in (("gardens", 3), ("takenokolor", 1)):
        state = _decision(game, players, 4)
        mine = research_bot("mcts:iterations=30;top=4", seed=2)
        assert isinstance(mine, ResearchMcts)
        theirs = make_bot("mcts:iterations=30;top=4", seed=2)
        assert isinstance(theirs, MctsBot)
        assert _root(mine, state) == _root(theirs, state)


def test_research_options_change_the_search_they_name() -> None:
    bot = research_bot("mcts:iterations=20;c=1.4;expand=2;scale=8;turns=50;root_turns=100;replies=2")
    assert (bot.c, bot.expand, bot.scale, bot.turns, bot.root_turns) == (1.4, 2, 8.0, 50, 100)
    assert bot.replies(3, 8) == 2 and MctsBot().replies(3, 8) == 1
    assert bot.options["scale"] == 8.0 and MctsBot.scale == 4.0  # the product's class untouched
    solo = _decision("takenokolor", 1, 2)
    depth = _root(research_bot("mcts:iterations=40", seed=3), solo)
    assert _root(research_bot("mcts:iterations=40;ref=depth", seed=3), solo) == depth
    assert _root(research_bot("mcts:iterations=40;ref=root", seed=3), solo) != depth
    assert research_bot("greedy").name == "greedy"
    with pytest.raises(MeepleError, match="ref must be one of root, depth"):
        research_bot("mcts:ref=leaf")
    with pytest.raises(MeepleError, match="scale must be above 0"):
        research_bot("mcts:scale=0")
    with pytest.raises(MeepleError, match=r"unknown mcts option\(s\) eval"):
        research_bot("mcts:eval=score")
