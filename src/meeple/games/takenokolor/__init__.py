"""Takenokolor (Bombyx): colour your garden with the rolled markers; four garden sheets.

No turn ranker (no ``ranker.py``): a whole turn is a marker taken and an item coloured (and the
free colourings that earns), so its whole turns are few and cheap and the bots simply list them
(docs/bots.md).
"""

from __future__ import annotations

from meeple.core.layers import BotKnowledge, Learning
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo
from meeple.games.takenokolor import boards, moves, render, words
from meeple.games.takenokolor.evaluation import takenokolor_evaluation
from meeple.games.takenokolor.learning import (
    takenokolor_actions,
    takenokolor_layout,
    takenokolor_observe,
)
from meeple.games.takenokolor.presets import BOT_PRESETS
from meeple.games.takenokolor.rules import TakenokolorState, factory

GAME = GameInfo(
    name="takenokolor",
    title="Takenokolor",
    min_players=1,
    max_players=4,
    factory=factory,
    options={},
    defaults={},
    variants=(
        {"sheet": "2-pandas"},
        {"sheet": "3-pandas"},
        {"sheet": "4-pandas-river"},
        {"sheet": "4-pandas-dragon"},
    ),
    summary="Roll four markers, take one a round and colour a matching item of your garden; "
            "the game ends after the round of a third ladybug. Sheets: 2-pandas, 3-pandas, "
            "4-pandas-river, 4-pandas-dragon (sheet=...).",
    default_players=3,
    own_sheets=True,
)

PRESENTATION: Presentation[TakenokolorState] = Presentation.from_modules(
    moves, words, boards, render, layout_model=boards.TakenokolorLayout, board_model=boards.TakenokolorBoard)

BOTS: BotKnowledge[TakenokolorState] = BotKnowledge(
    evaluation=takenokolor_evaluation,
    presets=BOT_PRESETS,
)

LEARNING: Learning[TakenokolorState] = Learning(
    actions=takenokolor_actions,
    layout=takenokolor_layout,
    observe=takenokolor_observe,
)

__all__ = ["BOTS", "GAME", "LEARNING", "PRESENTATION", "TakenokolorState"]
