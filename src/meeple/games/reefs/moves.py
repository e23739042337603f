"""Pick a Pen: Reefs, the moves: kinds, pencil faces (R1), notation and the prebuilt move table
of a board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from meeple.games.reefs.sheet import COLOURS, LETTERS, Board

# Move kinds.
ROLL: Final = 0
TAKE: Final = 1
ENTER: Final = 2
STEP: Final = 3
STOP: Final = 4
FORFEIT: Final = 5

# Pencil modes (R5).
ANY: Final = 0
STRAIGHT: Final = 1
PLUS: Final = 2  # "4+ straight": at least four steps in one direction

#: R1: the six faces of every pencil, equally likely: (text, mode, steps).
FACES: tuple[tuple[str, int, int], ...] = (
    ("1any", ANY, 1), ("2any", ANY, 2), ("3any", ANY, 3),
    ("2straight", STRAIGHT, 2), ("3straight", STRAIGHT, 3), ("4+straight", PLUS, 4),
)
PLUS_MIN: Final = 4
PROPELLER_STEPS: Final = 3  # R13
WHIRLPOOL_STEPS: Final = 3  # R12

FORMS = (
    "'take <colour>' (or the bare colour: 'O'), 'take <colour> propeller' (or 'O propeller'), "
    "'<entry point id>' to start a route, '<space id>' for a step, 'stop', 'forfeit', "
    "'roll <colour> <face>' (chance; faces: 1any 2any 3any 2straight 3straight 4+straight); "
    "colours: O orange, R red, B blue, G green, P purple"
)

#: ``help`` at the prompt (plain text): every move form with an example, canonical text first.
NOTATION_HELP = """One decision at a time, or several on one line: take O in1 c3 c4
  take O            take the orange pencil with its face (O R B G P, or the
                    colour's name); bare form: O, orange
  take O propeller  take it and draw 3 any steps instead, using a propeller
                    (level 3); bare forms: O propeller, take O prop, O prop
  in1               start this colour's route at entry point in1 (also: enter in1)
  c3                draw one step to space c3 (also: step c3)
  stop              end a 4+ straight pencil after 4 or more steps
  forfeit           draw nothing with the pencil taken (before drawing anything)
  roll O 2any       chance, played for you: the orange pencil shows 2 any
                    (faces 1any 2any 3any 2straight 3straight 4+straight;
                    also roll O2any, roll orange 2 any)
Case and extra spaces do not matter (TAKE o, C3)."""


@dataclass(frozen=True, slots=True)
class ReefsMove:
    """One small decision. Prebuilt per board; compare by (kind, a, b)."""

    kind: int
    a: int = 0
    b: int = 0
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"ReefsMove({self.text!r})"


class MoveTable:
    """Every move of a board, prebuilt once, with the text index used by ``parse_move``.

    Canonical texts (colour letters as in Gardens): ``roll O 2any``, ``take O``,
    ``take O propeller``, ``in1`` (start at entry point in1), ``c3`` (step to space c3),
    ``stop``, ``forfeit``. ``parse_move`` also accepts colour names (``take orange``), the
    long forms ``enter in1`` / ``step c3``, the bare colour ``O`` for ``take O``,
    ``O propeller`` / ``take O prop`` / ``O prop``, and rolls written ``roll O2any`` or
    ``roll O 2 any``; any case. A bare form never hides a space id of the sheet.
    """

    def __init__(self, board: Board) -> None:
        self.roll = tuple(
            tuple(ReefsMove(ROLL, c, f, f"roll {LETTERS[c]} {FACES[f][0]}") for f in range(6))
            for c in range(5)
        )
        self.take = tuple(
            (ReefsMove(TAKE, c, 0, f"take {LETTERS[c]}"),
             ReefsMove(TAKE, c, 1, f"take {LETTERS[c]} propeller"))
            for c in range(5)
        )
        self.enter = tuple(ReefsMove(ENTER, s, 0, board.ids[s]) for s in range(board.n))
        self.step = tuple(ReefsMove(STEP, s, 0, board.ids[s]) for s in range(board.n))
        self.stop = ReefsMove(STOP, 0, 0, "stop")
        self.forfeit = ReefsMove(FORFEIT, 0, 0, "forfeit")
        by_text = self._canonical_texts(board)
        # bare and spelled-out forms; a space id of the sheet always keeps its own text
        ids = {sid.lower() for sid in board.ids}
        for text, m in self._bare_texts().items():
            if text.lower() not in ids:
                by_text.setdefault(text, m)
        self.by_text = by_text
        # forgiving about case ("TAKE o", "C3"), unless two ids differ only in case
        folded: dict[str, ReefsMove | None] = {}
        for text, m in by_text.items():
            k = text.lower()
            folded[k] = m if folded.get(k, m) == m else None
        self.folded = {k: m for k, m in folded.items() if m is not None}

    def _canonical_texts(self, board: Board) -> dict[str, ReefsMove]:
        """Rolls and takes by colour letter or name, spaces by id (with ``enter``/``step``),
        ``stop`` and ``forfeit``."""
        by_text: dict[str, ReefsMove] = {}
        for c in range(5):
            for names in (LETTERS[c], COLOURS[c], LETTERS[c].lower()):
                for f in range(6):
                    by_text[f"roll {names} {FACES[f][0]}"] = self.roll[c][f]
                by_text[f"take {names}"] = self.take[c][0]
                by_text[f"take {names} propeller"] = self.take[c][1]
        for s in range(board.n):
            if (board.entry_mask >> s) & 1:
                by_text[board.ids[s]] = by_text["enter " + board.ids[s]] = self.enter[s]
            else:
                by_text[board.ids[s]] = by_text["step " + board.ids[s]] = self.step[s]
        by_text["stop"] = self.stop
        by_text["forfeit"] = self.forfeit
        return by_text

    def _bare_texts(self) -> dict[str, ReefsMove]:
        """The bare colour for ``take``, ``prop`` for ``propeller``, and rolls with the face
        joined or spelled out (``roll O2any``, ``roll O 2 any``)."""
        bare: dict[str, ReefsMove] = {}
        for c in range(5):
            for names in (LETTERS[c], COLOURS[c]):
                bare[names] = self.take[c][0]
                for prop in ("propeller", "prop"):
                    bare[f"{names} {prop}"] = bare[f"take {names} {prop}"] = self.take[c][1]
                for f in range(6):
                    face = FACES[f][0]
                    bare[f"roll {names}{face}"] = self.roll[c][f]
                    bare[f"roll {names} {face.replace('any', ' any')}"] = self.roll[c][f]
                    bare[f"roll {names} {face.replace('straight', ' straight')}"] = (
                        self.roll[c][f])
        return bare

def move_table(board: Board) -> MoveTable:
    """The board's prebuilt moves, made once and kept on the board itself."""
    t = board.move_cache
    if not isinstance(t, MoveTable):
        t = board.move_cache = MoveTable(board)
    return t
