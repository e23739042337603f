"""Hand-made tools and forced draws for Pergola scenario tests."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.games.pergola.rules import PergolaState
from meeple.games.pergola.sheet import load_bundle


def data(**tools: list[str]) -> dict[str, Any]:
    """The standard data bundle with some tools' components replaced (``S01=[...]``)."""
    d = load_bundle(None).as_data()
    for t in d["tools"]["tool"]:
        if t["id"] in tools:
            t["components"] = list(tools.pop(t["id"]))
    assert not tools, f"unknown tools {tools}"
    return d


def start(players: int = 1, board: tuple[str, ...] = ("S01", "S02", "S03", "S04"),
          tops: tuple[str, ...] = ("G1", "Y1", "O1"), sheet: Any = None,
          **options: Any) -> PergolaState:
    """A game after setup with the given tools above spaces 1-4 and the given top leaves."""
    s = meeple.new_game("pergola", players=players, sheet=sheet, **options)
    assert isinstance(s, PergolaState)
    for tid in reversed(board):  # P2a: the first tools fill the spaces from right to left
        s.play(f"draw {tid}")
    for p, leaf in enumerate(tops):
        s.play(f"reveal {p + 1} {leaf}")
    return s


def chance(s: PergolaState, *texts: str) -> None:
    for t in texts:
        s.play(t)


def legal(s: PergolaState) -> list[str]:
    return [str(m) for m in s.legal_moves()]


def garden(s: PergolaState, seat: int = 0) -> Any:
    return s.garden_for_update(seat)
