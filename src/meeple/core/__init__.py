"""The game-agnostic engine: the State contract, chance, RNG, records and shared geometry."""

from meeple.core.errors import (
    BadRecord,
    BadVariant,
    IllegalMove,
    MeepleError,
    SheetError,
    UnknownGame,
)
from meeple.core.registry import GameInfo, game_info, games, load_record, new_game, register, replay
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, Score, State

__all__ = [
    "CHANCE", "BadRecord", "BadVariant", "GameInfo", "IllegalMove", "MeepleError", "Rng",
    "Score", "SheetError", "State", "UnknownGame", "game_info", "games", "load_record",
    "new_game", "register", "replay",
]
