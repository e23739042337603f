"""Pick a Pen: Gardens (Reiner Knizia, AMIGO 2023): roll-and-write with five pencils."""

from meeple.core.registry import GameInfo
from meeple.games.gardens.render import render_text
from meeple.games.gardens.rules import GardensState, new_gardens

GAME = GameInfo(
    name="gardens",
    title="Pick a Pen: Gardens",
    min_players=1,
    max_players=4,
    render=render_text,
    factory=new_gardens,
    options={"level": (1, 2, 3)},
    defaults={"level": 1},
    variants=({"level": 1}, {"level": 2}, {"level": 3}),
    summary="Draft rolled pencils and colour connected groups of hex fields to complete gardens.",
    default_players=2,
)

__all__ = ["GAME", "GardensState", "new_gardens"]
