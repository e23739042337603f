"""Gardens moves and their canonical text.

- ``roll O3``: chance, the orange pencil shows 3 (G1: faces 1, 1, 2, 3, 4, 5);
- ``take O``: take the orange pencil from the middle (G3: compulsory);
- ``D4``: colour field D4 with the pencil in hand (fields one by one, G4);
- ``waste``: cross the next pencil symbol instead of colouring (G3, G9).

Colour letters: O orange, R red, G green, B blue, P purple (the rulebook's colour-blind tip).
Bare forms are read too (``O`` or ``orange`` for ``take O``, ``d4``, ``w`` for ``waste``); each
is one word, so several steps can share a line. ``str(move)`` is always the canonical text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from meeple.games.gardens.sheet import LETTERS

ROLL, TAKE, FIELD, WASTE = 0, 1, 2, 3

#: Shown by ``help`` at the terminal prompt (``PRESENTATION.notation_help``); plain text.
NOTATION_HELP = """A turn: take a pencil, then colour as many fields as it shows, or waste it.
  take O     take the orange pencil from the middle; also O, orange or takeO
             (pencils: O orange, R red, G green, B blue, P purple)
  D4         colour field D4 with your pencil (or d4), one field a step;
             each touches this pencil's fields (the first: your coloured area)
  waste      cross your next pencil symbol instead (also w); before any field
  steps can share a line, split by spaces:  O D4 D5 E4   or   B w
  rolls are chance moves the game makes ('roll O3': the orange pencil shows 3)"""

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


@lru_cache(maxsize=64)
def field_moves(ids: tuple[str, ...]) -> tuple[GardensMove, ...]:
    """One prebuilt move per field of a sheet (its ``ids``), built once per sheet."""
    return tuple(GardensMove(FIELD, -1, i, fid) for i, fid in enumerate(ids))
