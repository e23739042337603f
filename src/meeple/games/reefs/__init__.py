"""Pick a Pen: Reefs: draw routes from entry points to recover treasures and coins."""

from meeple.core.layers import BotKnowledge, Learning
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo
from meeple.games.reefs import boards, moves, render, words
from meeple.games.reefs.evaluation import reefs_evaluation
from meeple.games.reefs.learning import reefs_actions, reefs_layout, reefs_observe
from meeple.games.reefs.moves import ReefsMove
from meeple.games.reefs.presets import BOT_PRESETS
from meeple.games.reefs.ranker import TurnRanker
from meeple.games.reefs.rules import ReefsState, make_game

__all__ = ["BOTS", "GAME", "LEARNING", "PRESENTATION", "ReefsMove", "ReefsState", "make_game"]

GAME = GameInfo(
    name="reefs",
    title="Pick a Pen: Reefs",
    min_players=1,
    max_players=4,
    factory=make_game,
    options={"level": (1, 2, 3)},
    # no default level: it follows the sheet (see make_game); without a sheet it is 1
    variants=({"level": 1}, {"level": 2}, {"level": 3}),
    summary="Roll five pencils, draft them, and draw routes from entry points to treasures "
    "and coins; level 2 adds whirlpools, level 3 propellers.",
    default_players=2,
    own_sheets=True,
)

PRESENTATION: Presentation[ReefsState] = Presentation.from_modules(
    moves, words, boards, render, layout_model=boards.ReefsLayout, board_model=boards.ReefsBoard)

BOTS: BotKnowledge[ReefsState] = BotKnowledge(
    evaluation=reefs_evaluation,
    turn_ranker=TurnRanker(reefs_evaluation),
    presets=BOT_PRESETS,
)

LEARNING: Learning[ReefsState] = Learning(
    actions=reefs_actions,
    layout=reefs_layout,
    observe=reefs_observe,
)
