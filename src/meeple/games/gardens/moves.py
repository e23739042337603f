"""Gardens moves and their canonical text.

- ``roll O3``: chance, the orange pencil shows 3 (G1: faces 1, 1, 2, 3, 4, 5);
- ``take O``: take the orange pencil from the middle (G3: compulsory);
- ``D4``: colour field D4 with the pencil in hand (fields one by one, G4);
- ``waste``: cross the next pencil symbol instead of colouring (G3, G9).

Colour letters: O orange, R red, G green, B blue, P purple (the rulebook's colour-blind tip).
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.games.gardens.sheet import LETTERS

ROLL, TAKE, FIELD, WASTE = 0, 1, 2, 3

#: G1: the six faces of every pencil.
FACES: tuple[int, ...] = (1, 1, 2, 3, 4, 5)
FACE_PROBABILITY: dict[int, float] = {v: FACES.count(v) / len(FACES) for v in sorted(set(FACES))}


@dataclass(frozen=True, slots=True)
class GardensMove:
    kind: int
    colour: int = -1
    value: int = -1  # the face for ROLL, the field index for FIELD
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"GardensMove({self.text!r})"


ROLL_MOVES: tuple[tuple[GardensMove, ...], ...] = tuple(
    tuple(GardensMove(ROLL, c, v, f"roll {LETTERS[c]}{v}") for v in sorted(set(FACES)))
    for c in range(5)
)
TAKE_MOVES: tuple[GardensMove, ...] = tuple(
    GardensMove(TAKE, c, -1, f"take {LETTERS[c]}") for c in range(5)
)
WASTE_MOVE = GardensMove(WASTE, -1, -1, "waste")


def field_moves(ids: tuple[str, ...]) -> tuple[GardensMove, ...]:
    return tuple(GardensMove(FIELD, -1, i, fid) for i, fid in enumerate(ids))
