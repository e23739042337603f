"""The games, variants and seat counts the RL suite runs over: every game and variant of the
registry with every seat count (the masked random playouts), and a spread of them for the
slower PettingZoo and Gymnasium checkers (each game, its first and last variant, solo and the
most seats)."""

from __future__ import annotations

from typing import Any

import pytest

import meeple


def _id(game: str, variant: dict[str, Any], players: int) -> str:
    return f"{game}-{meeple.game_info(game).describe_variant(variant)}-{players}p".replace(" ", "")


def every_case() -> list[Any]:
    out = []
    for info in meeple.games():
        for variant in info.variants:
            for players in info.player_range(variant):
                out.append(pytest.param(info.name, dict(variant), players,
                                        id=_id(info.name, dict(variant), players)))
    return out


def spread() -> list[Any]:
    """Each game: its first variant with 2 seats and the most seats, its last variant solo
    (Pergola: a solo challenge)."""
    out = []
    for info in meeple.games():
        first, last = dict(info.variants[0]), dict(info.variants[-1])
        seats = info.player_range(first)
        picks = [(first, 2), (first, seats[-1]), (last, info.player_range(last)[0])]
        for variant, players in picks:
            out.append(pytest.param(info.name, variant, players, id=_id(info.name, variant, players)))
    return out
