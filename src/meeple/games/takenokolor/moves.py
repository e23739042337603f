"""Takenokolor, the moves: decision kinds, the move type with its canonical text, and the
notation's help (:data:`NOTATION_HELP`, shown by ``help`` at the terminal prompt)."""

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


NOTATION_HELP = """[bold]Takenokolor moves[/]
  take P           take the pink marker (B blue, Y yellow, P pink, G green; also 'take pink')
  P  or  pink      the same: a bare marker means take
  colour b3.2      colour item b3.2 with the marker in hand ('color' works too)
  b3.2             the same: a bare item id colours it, or makes the free colouring
                   when one is pending
  free b1.1        a free colouring you have earned (cloud, river, favour...; T3)
  take P b3.2      several steps on one line, one after the other
Items are written as drawn in the garden (b3.2, c1, head). Only markers that can colour
something are offered; the dice rolls ('roll B circle') are chance and play by themselves."""
