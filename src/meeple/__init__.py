"""meeple: play, study and train agents on four published tabletop games.

>>> import meeple
>>> s = meeple.new_game("gardens", players=3, level=2, seed=7)
>>> s.to_move == meeple.CHANCE
True
"""

from meeple.core import (
    CHANCE,
    BadRecord,
    BadVariant,
    GameInfo,
    IllegalMove,
    MeepleError,
    Rng,
    Score,
    SheetError,
    State,
    UnknownGame,
    game_info,
    games,
    load_record,
    new_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "BadRecord", "BadVariant", "GameInfo", "IllegalMove", "MeepleError", "Rng",
    "Score", "SheetError", "State", "UnknownGame", "__version__", "game_info", "games",
    "load_record", "new_game", "replay",
]
