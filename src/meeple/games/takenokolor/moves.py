"""Takenokolor, the moves: decision kinds and the move type with its canonical text."""

from __future__ import annotations

from dataclasses import dataclass

ROLL, TAKE, COLOUR, FREE = 0, 1, 2, 3
KIND_WORD = ("roll", "take", "colour", "free")


@dataclass(frozen=True, slots=True)
class Move:
    """A decision. ``kind``: ROLL (``a`` marker, ``b`` symbol), TAKE (``a`` marker), COLOUR and
    FREE (``a`` item index). ``text`` is the canonical notation."""

    kind: int
    a: int
    b: int
    text: str

    def __str__(self) -> str:
        return self.text
