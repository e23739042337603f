"""Small hand-made sheets and forced rolls for Gardens scenario tests."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.games.gardens.rules import GardensState

PAD: dict[str, Any] = {
    "single_colour_boxes": [2, 3, 4],
    "row_stars": [10, 12, 15],
    "colourful_boxes": [6, 6, 6, 6, 6],
    "colourful_star": 10,
    "pencil_penalties": [-1, -2, -3, -4, -5],
}


def strip_sheet(gardens: list[int], **scoring: Any) -> dict[str, Any]:
    """A one-row sheet A1..An (hex neighbours left/right) cut into gardens of the given sizes."""
    fields = []
    k = 0
    for g, size in enumerate(gardens):
        for _ in range(size):
            fields.append({"id": f"A{k + 1}", "q": k, "r": 0, "garden": f"g{g + 1}"})
            k += 1
    return {"name": "test strip", "level": 1, "fields": fields, "scoring": {**PAD, **scoring}}


def new(sheet: dict[str, Any], players: int = 1) -> GardensState:
    s = meeple.new_game("gardens", players=players, sheet=sheet)
    assert isinstance(s, GardensState)
    return s


def roll(s: GardensState, spec: str) -> None:
    """Force a roll: spec like 'O3 R1 G2 B5 P4' (pencils in the order they are rolled, G1)."""
    for part in spec.split():
        s.play(f"roll {part}")


def turn(s: GardensState, pencil: str, *fields: str) -> None:
    s.play(f"take {pencil}")
    if fields == ("waste",):
        s.play("waste")
        return
    for f in fields:
        s.play(f)
