"""Pick a Pen: Gardens (Reiner Knizia, AMIGO 2023): roll-and-write with five pencils."""

from meeple.core.layers import BotKnowledge, Learning
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo
from meeple.games.gardens import boards, moves, render, words
from meeple.games.gardens.evaluation import gardens_evaluation
from meeple.games.gardens.learning import gardens_actions, gardens_layout, gardens_observe
from meeple.games.gardens.presets import BOT_PRESETS
from meeple.games.gardens.ranker import gardens_turn_ranker
from meeple.games.gardens.rules import GardensState, new_gardens

GAME = GameInfo(
    name="gardens",
    title="Pick a Pen: Gardens",
    min_players=1,
    max_players=4,
    factory=new_gardens,
    options={"level": (1, 2, 3)},
    # no default level: the factory plays level 1 when neither a level nor a sheet is given,
    # so it can tell an explicit level that contradicts the sheet (refused) from no level
    defaults={},
    variants=({"level": 1}, {"level": 2}, {"level": 3}),
    summary="Draft rolled pencils and colour connected groups of hex fields to complete gardens.",
    default_players=2,
    own_sheets=True,
)

PRESENTATION: Presentation[GardensState] = Presentation.from_modules(
    moves, words, boards, render, layout_model=boards.GardensLayout, board_model=boards.GardensBoard)

BOTS: BotKnowledge[GardensState] = BotKnowledge(
    evaluation=gardens_evaluation,
    turn_ranker=gardens_turn_ranker,
    presets=BOT_PRESETS,
)

LEARNING: Learning[GardensState] = Learning(
    actions=gardens_actions,
    layout=gardens_layout,
    observe=gardens_observe,
)

__all__ = ["BOTS", "GAME", "LEARNING", "PRESENTATION", "GardensState", "new_gardens"]
