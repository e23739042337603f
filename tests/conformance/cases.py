"""Every game, variant and player count the registry offers, as pytest parameters
``(game, variant, players)``: what the conformance suite and every client's suite run over."""

from __future__ import annotations

from typing import Any

import pytest

import meeple


def every_case() -> list[Any]:
    cases = []
    for info in meeple.games():
        for variant in info.variants:
            for players in info.player_range(variant):
                ident = f"{info.name}-{info.describe_variant(variant)}-{players}p".replace(" ", "")
                cases.append(pytest.param(info.name, dict(variant), players, id=ident))
    return cases


__all__ = ["every_case"]
