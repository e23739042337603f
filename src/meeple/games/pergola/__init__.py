"""Pergola (Rebel, 2023): pick tools, grow a garden, attract insects. 1-4 players (1 = solo)."""

from meeple.core.layers import BotKnowledge, Learning, SoloReports
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo
from meeple.games.pergola import boards, moves, render, words
from meeple.games.pergola.evaluation import pergola_evaluation
from meeple.games.pergola.learning import pergola_actions, pergola_layout, pergola_observe
from meeple.games.pergola.presets import BOT_PRESETS
from meeple.games.pergola.ranker import TurnRanker
from meeple.games.pergola.rules import PergolaState, new_pergola, variant_players
from meeple.games.pergola.solo import (
    CHALLENGES,
    achievement_table,
    challenge_report,
    thousand_club,
)

GAME = GameInfo(
    name="pergola",
    title="Pergola",
    min_players=1,
    max_players=4,
    factory=new_pergola,
    options={"challenge": (None, *range(1, 11))},
    defaults={},
    variants=({}, *({"challenge": n} for n in range(1, 11))),
    summary="Pick tools, plant hollyhocks, magnolias, buttercups and lavender, attract insects; "
    "15 turns each. Solo: one of ten challenges.",
    default_players=2,
    variant_players=variant_players,
)

PRESENTATION: Presentation[PergolaState] = Presentation.from_modules(
    moves, words, boards, render, layout_model=boards.PergolaLayout, board_model=boards.PergolaBoard)

BOTS: BotKnowledge[PergolaState] = BotKnowledge(
    evaluation=pergola_evaluation,
    turn_ranker=TurnRanker(pergola_evaluation),
    presets=BOT_PRESETS,
)

SOLO: SoloReports[PergolaState] = SoloReports(report=challenge_report, table=achievement_table)

LEARNING: Learning[PergolaState] = Learning(
    actions=pergola_actions, layout=pergola_layout, observe=pergola_observe, public=True)

__all__ = ["BOTS", "CHALLENGES", "GAME", "LEARNING", "PRESENTATION", "SOLO", "PergolaState",
           "challenge_report", "new_pergola", "thousand_club"]
