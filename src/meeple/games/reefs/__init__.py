"""Pick a Pen: Reefs: draw routes from entry points to recover treasures and coins."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meeple.core.errors import BadVariant
from meeple.core.registry import GameInfo
from meeple.games.reefs.moves import ReefsMove
from meeple.games.reefs.render import render
from meeple.games.reefs.rules import ReefsState
from meeple.games.reefs.sheet import LEVEL_SHEETS, load_board

__all__ = ["GAME", "ReefsMove", "ReefsState", "make_game"]


def make_game(
    players: int = 2,
    seed: int = 0,
    sheet: str | Path | Mapping[str, Any] | None = None,
    level: int = 1,
) -> ReefsState:
    """A new game. ``sheet``: None (the level's shipped sheet), a shipped sheet name, a TOML
    path, or the data from ``sheet_data()``."""
    if level not in LEVEL_SHEETS:
        raise BadVariant(f"level={level!r} does not exist; choose from 1, 2, 3")
    if not 1 <= players <= 4:
        raise BadVariant(f"Pick a Pen: Reefs takes 1 to 4 players, not {players}")
    board = load_board(LEVEL_SHEETS[level] if sheet is None else sheet)
    return ReefsState(board, players, seed, level)


GAME = GameInfo(
    name="reefs",
    title="Pick a Pen: Reefs",
    min_players=1,
    max_players=4,
    render=render,
    factory=make_game,
    options={"level": (1, 2, 3)},
    defaults={"level": 1},
    variants=({"level": 1}, {"level": 2}, {"level": 3}),
    summary="Roll five pencils, draft them, and draw routes from entry points to treasures "
    "and coins; level 2 adds whirlpools, level 3 propellers.",
    default_players=2,
)
