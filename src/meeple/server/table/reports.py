"""The server's registry of solo reports: each game package's optional ``SOLO``
(:class:`~meeple.core.layers.SoloReports`: a finished solo game's result and a player's
achievement table over such results), found through the package the rules registry loaded."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.core.layers import SoloReports
from meeple.core.registry import game_part


def solo_reports(game: str) -> SoloReports[Any] | None:
    """Game ``game``'s solo reports (its package's ``SOLO``), or None if it keeps none."""
    return game_part(game, "SOLO", SoloReports, required=False)


def solo_games() -> list[str]:
    """The games that keep a solo achievement table, in registry order."""
    return [g.name for g in meeple.games() if solo_reports(g.name) is not None]
