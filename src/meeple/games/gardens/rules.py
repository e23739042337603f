"""Pick a Pen: Gardens rules (rulebook + RULINGS G1-G12), on the meeple State contract.

A seat's turn is: ``take X`` (G3), then its fields one by one (G4), or ``waste`` (G3, G9).
Rolls are explicit chance moves, one pencil at a time (A1, G1), so a log replays exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeple.core.bits import bit_list, components, neighbourhood
from meeple.core.errors import BadVariant, IllegalMove
from meeple.core.state import CHANCE, Score, State
from meeple.core.text import verb
from meeple.games.gardens import moves as mv
from meeple.games.gardens import scoring
from meeple.games.gardens.moves import (
    FACE_PROBABILITY,
    ROLL_MOVES,
    TAKE_MOVES,
    WASTE_MOVE,
    GardensMove,
)
from meeple.games.gardens.sheet import ALL_PENCILS as ALL_PENCILS  # render_pad reads it here
from meeple.games.gardens.sheet import COLOURS, LETTERS, CompiledSheet, load

ROLLING, TAKING, COLOURING, OVER = 0, 1, 2, 3

class GardensState(State[GardensMove]):
    game_name = "gardens"

    def __init__(self, sheet: CompiledSheet, players: int, seed: int) -> None:
        self._init_base(players, seed)
        self.sheet = sheet
        self.pad = sheet.data.scoring
        self.fmoves: tuple[GardensMove, ...] = mv.field_moves(sheet.ids)
        self.cmask = [0] * (players * 5)  # fields coloured per (seat, colour)
        self.coloured = [0] * players
        self.boxes = [0] * (players * 5)  # single-colour score boxes coloured (G6)
        self.sc_gardens = [0] * (players * 5)  # single-colour gardens completed (G12)
        self.colourful = [0] * players
        self.crossed = [0] * players  # pencil symbols crossed (G9)
        self.flower_boxes = [0] * players  # bit c: colour c's flower box (G11)
        self.tree_boxes = [0] * players  # bit c: colour c's tree box (G12)
        self.first_outer = -1
        self.first_all = -1
        self.first_flowers = -1
        self.first_four = [-1] * 5
        self.middle = 0  # pencils lying in the middle, bit per colour
        self.faces = [0] * 5
        self.seat = 0  # A2: seat 0 starts and rolls
        self.phase = ROLLING
        self.roll_next = 0
        self.hand = -1
        self.need = 0
        self.group = 0

    # ------------------------------------------------------------------ contract
    def clone(self) -> GardensState:
        c = GardensState.__new__(GardensState)
        c._copy_base(self)
        c.sheet = self.sheet
        c.pad = self.pad
        c.fmoves = self.fmoves
        c.cmask = self.cmask.copy()
        c.coloured = self.coloured.copy()
        c.boxes = self.boxes.copy()
        c.sc_gardens = self.sc_gardens.copy()
        c.colourful = self.colourful.copy()
        c.crossed = self.crossed.copy()
        c.flower_boxes = self.flower_boxes.copy()
        c.tree_boxes = self.tree_boxes.copy()
        c.first_outer = self.first_outer
        c.first_all = self.first_all
        c.first_flowers = self.first_flowers
        c.first_four = self.first_four.copy()
        c.middle = self.middle
        c.faces = self.faces.copy()
        c.seat = self.seat
        c.phase = self.phase
        c.roll_next = self.roll_next
        c.hand = self.hand
        c.need = self.need
        c.group = self.group
        return c

    @property
    def to_move(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == ROLLING:
            return CHANCE
        return self.seat

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(self.cmask), tuple(self.boxes), tuple(self.sc_gardens), tuple(self.colourful),
            tuple(self.crossed), tuple(self.flower_boxes), tuple(self.tree_boxes),
            self.first_outer, self.first_all, self.first_flowers, tuple(self.first_four),
            self.middle, tuple(self.faces), self.seat, self.phase, self.roll_next, self.hand,
            self.need, self.group, self.turn,
        )

    def variant(self) -> dict[str, Any]:
        return {"level": self.sheet.data.level}

    def sheet_data(self) -> dict[str, Any]:
        return self.sheet.data.model_dump(mode="json")

    def chance_outcomes(self) -> list[tuple[GardensMove, float]]:
        if self.phase != ROLLING:
            return []
        return [(m, FACE_PROBABILITY[m.value]) for m in ROLL_MOVES[self.roll_next]]

    def legal_moves(self) -> list[GardensMove]:
        phase = self.phase
        if phase == COLOURING:
            out = [self.fmoves[i] for i in bit_list(self.g4_colourable_fields())]
            if self.group == 0:
                out.append(WASTE_MOVE)
            return out
        if phase == TAKING:
            return [TAKE_MOVES[c] for c in range(5) if self.middle >> c & 1]
        if phase == ROLLING:
            return list(ROLL_MOVES[self.roll_next])
        return []

    def parse_move(self, text: str) -> GardensMove:
        """Read a move: the canonical texts (``take O``, ``D4``, ``waste``, ``roll O3``) and the
        bare forms, each one word so several can share a line: ``O`` or ``orange`` for
        ``take O``, ``takeO``, ``w`` for ``waste``, any case."""
        t = " ".join(str(text).split())
        low = t.lower()
        if low in ("waste", "w"):
            return WASTE_MOVE
        if low.startswith("take"):
            c = _colour_of(t[4:])
            if c is not None:
                return TAKE_MOVES[c]
        elif low.startswith("roll "):
            arg = t[5:].strip()
            if len(arg) == 2 and arg[1].isascii() and arg[1].isdigit():
                c = _colour_of(arg[0])
                if c is not None:
                    for m in ROLL_MOVES[c]:
                        if m.value == int(arg[1]):
                            return m
                    raise IllegalMove(f"a pencil shows 1 to 5, not {arg[1]} (G1)", text)
        else:
            i = self.sheet.index.get(t.upper())
            if i is not None:
                return self.fmoves[i]
            c = _colour_of(t)
            if c is not None:
                return TAKE_MOVES[c]
            if t[:1].isalpha() and t[1:].isdigit():
                raise IllegalMove(f"there is no field {t.upper()!r} on this sheet "
                                  f"({self.sheet.data.name}); fields are {self.sheet.ids[0]}.."
                                  f"{self.sheet.ids[-1]} as drawn", text)
        raise IllegalMove(
            f"cannot read the move {text!r}; write 'take O' or just 'O' (a pencil: O R G B P), "
            f"a field id such as {self.sheet.ids[0]!r}, 'waste' (or 'w'), or a roll such as "
            "'roll O3'", text)

    def illegal_reason(self, move: GardensMove) -> str | None:
        phase = self.phase
        kind = move.kind
        if phase == ROLLING:
            if kind != mv.ROLL:
                return ("the pencils are being rolled: the next event is chance "
                        f"(the {COLOURS[self.roll_next]} pencil), not a seat's move")
            if move.colour != self.roll_next:
                return f"the {COLOURS[self.roll_next]} pencil is rolled next, not {move}"
            return None
        if kind == mv.ROLL:
            return "the pencils are not being rolled now; rolls are chance events (G2)"
        if phase == TAKING:
            if kind != mv.TAKE:
                return (f"{self.seats[self.seat]} must first take a pencil from the middle (G3): "
                        + self._legal_summary())
            if not self.middle >> move.colour & 1:
                return (f"the {COLOURS[move.colour]} pencil is not in the middle; "
                        f"available: {self._legal_summary()}")
            return None
        # COLOURING
        if kind == mv.TAKE:
            name = self.seats[self.seat]
            left = self.need - self.group.bit_count()
            return (f"{name} already {verb(name, 'holds')} the {COLOURS[self.hand]} pencil: colour "
                    f"{left} more field{'s' if left != 1 else ''}"
                    + ("" if self.group else " or waste it"))
        if kind == mv.WASTE:
            if self.group:
                return ("waste is only possible before colouring a field of this pencil; "
                        "undo the fields to change your mind (G3)")
            return None
        i = move.value
        if i >= self.sheet.n or self.fmoves[i] != move:
            return f"{move} is not a field of this sheet"
        bit = 1 << i
        if self.coloured[self.seat] & bit:
            return f"field {move} is already coloured; each field can only be coloured once"
        if self.g4_colourable_fields() & bit:
            return None
        if self.group:
            return (f"field {move} does not touch the fields coloured with this pencil: "
                    "the new fields must form one connected group (G4)")
        if self.coloured[self.seat] and not neighbourhood(self.coloured[self.seat],
                                                           self.sheet.neighbours) & bit:
            return (f"field {move} does not touch an already coloured field: every group after "
                    "the first must touch one (G4)")
        return (f"a connected group of {self.need} free fields cannot be completed from {move} "
                "(G4); pick another field or waste the pencil")

    def _apply(self, move: GardensMove) -> None:
        kind = move.kind
        if kind == mv.FIELD:
            self.colour_field(move.value)
        elif kind == mv.TAKE:
            self.g3_take_pencil(move.colour)
        elif kind == mv.ROLL:
            self.g1_roll_pencil(move.colour, move.value)
        else:
            self.g3_waste_pencil()

    # ------------------------------------------------------------------ rules
    def g1_roll_pencil(self, colour: int, face: int) -> None:
        """G1/G2: the seat whose turn it is rolls all five pencils, one chance event each."""
        self.faces[colour] = face
        self.roll_next += 1
        if self.roll_next == 5:
            self.middle = ALL_PENCILS
            self.phase = TAKING

    def g3_take_pencil(self, colour: int) -> None:
        """G3: taking a pencil is compulsory; then colour exactly N fields or waste it."""
        self.middle &= ~(1 << colour)
        self.hand = colour
        self.need = self.faces[colour]
        self.group = 0
        self.phase = COLOURING

    def g3_waste_pencil(self) -> None:
        """G3/G9: cross the next pencil symbol; crossing the last one ends the game (G10)."""
        seat = self.seat
        self.crossed[seat] += 1
        if self.crossed[seat] >= len(self.pad.pencil_penalties):
            self.g10_end_game()
            return
        self.g2_next_seat()

    def g4_colourable_fields(self) -> int:
        """G4: the fields the next decision may colour, each leading to a completable group.

        The first field of a group must touch the coloured area (anywhere on an empty sheet);
        later fields touch the group. A first field is offered only if its free region holds
        the whole group, so every partial group can be completed.
        """
        seat = self.seat
        sheet = self.sheet
        free = sheet.all_mask & ~self.coloured[seat]
        if self.group:
            return neighbourhood(self.group, sheet.neighbours) & free
        coloured = self.coloured[seat]
        cand = neighbourhood(coloured, sheet.neighbours) & free if coloured else free
        if not cand:
            return 0
        need = self.need
        out = 0
        for comp in components(free, sheet.neighbours):
            if comp & cand and comp.bit_count() >= need:
                out |= comp & cand
        return out

    def colour_field(self, i: int) -> None:
        """Colour one field with the pencil in hand, then apply every rule it triggers."""
        seat = self.seat
        c = self.hand
        bit = 1 << i
        base = seat * 5
        self.cmask[base + c] |= bit
        self.coloured[seat] |= bit
        self.group |= bit
        sheet = self.sheet
        if sheet.flower_mask & bit:
            self.g11_flower(i, c)
        if sheet.tree_mask & bit:
            self.g12_tree(c)
        garden = sheet.garden_masks[sheet.garden_of[i]]
        if self.coloured[seat] & garden == garden:
            self.g6_complete_garden(garden)
        if self.first_outer < 0 and self.coloured[seat] & sheet.outer_mask == sheet.outer_mask:
            self.first_outer = seat  # G8: first to colour all outer fields
        if self.group.bit_count() == self.need:
            if self.coloured[seat] == sheet.all_mask:
                if self.first_all < 0:
                    self.first_all = seat  # G8: first to colour all fields
                self.g10_end_game()
                return
            self.g2_next_seat()

    def g6_complete_garden(self, garden: int) -> None:
        """G6: a completed garden scores one single-colour box or one colourful box."""
        seat = self.seat
        base = seat * 5
        present = [c for c in range(5) if self.cmask[base + c] & garden]
        if len(present) == 1:
            c = present[0]
            self.sc_gardens[base + c] += 1
            if self.boxes[base + c] < len(self.pad.single_colour_boxes):
                self.boxes[base + c] += 1
            self.g12_four_gardens(c)
        elif len(present) == 5 and self.colourful[seat] < len(self.pad.colourful_boxes):
            self.colourful[seat] += 1

    def g11_flower(self, i: int, colour: int) -> None:
        """G11: a flower coloured in its own colour fills that flower box; first to colour all
        flower fields (any colours) earns the bonus."""
        seat = self.seat
        if self.sheet.flower_colour[i] == colour:
            self.flower_boxes[seat] |= 1 << colour
        fm = self.sheet.flower_mask
        if self.first_flowers < 0 and self.coloured[seat] & fm == fm:
            self.first_flowers = seat

    def g12_tree(self, colour: int) -> None:
        """G12: a tree coloured C fills the C tree box if still empty."""
        self.tree_boxes[self.seat] |= 1 << colour

    def g12_four_gardens(self, colour: int) -> None:
        """G12: first to complete ``four_gardens_count`` single-colour gardens of a colour."""
        if (self.pad.four_gardens_bonus and self.first_four[colour] < 0
                and self.sc_gardens[self.seat * 5 + colour] >= self.pad.four_gardens_count):
            self.first_four[colour] = self.seat

    def g2_next_seat(self) -> None:
        """G2: the turn passes clockwise; with the middle empty, that seat rolls again."""
        self.turn += 1
        self.hand = -1
        self.need = 0
        self.group = 0
        self.seat = (self.seat + 1) % self.players
        if self.middle:
            self.phase = TAKING
        else:
            self.phase = ROLLING
            self.roll_next = 0

    def g10_end_game(self) -> None:
        """G10: the game ends at once; pencils left in the middle stay there."""
        self.turn += 1
        self.hand = -1
        self.need = 0
        self.group = 0
        self.phase = OVER

    # ------------------------------------------------------------------ scoring (scoring.py)
    def largest_area(self, seat: int) -> int:
        """G8: the largest connected area of one colour on a seat's sheet."""
        return scoring.largest_area(self, seat)

    def g8_largest_area_winner(self) -> int:
        """G8: the seat whose largest area is strictly larger than all others, else -1."""
        return scoring.largest_area_winner(self)

    def scores(self) -> list[Score]:
        return scoring.score_pad(self, self.g8_largest_area_winner() if self.phase == OVER else -1)

    # ------------------------------------------------------------------ whole turns
    def whole_turn_groups(self) -> list[tuple[int, int]]:
        """Every whole turn from the TAKING decision as (pencil colour, field mask); a mask of 0
        means the pencil is wasted. Fast enumeration for bots (no states built)."""
        if self.phase == TAKING:
            pencils = [c for c in range(5) if self.middle >> c & 1]
        elif self.phase == COLOURING and self.group == 0:
            pencils = [self.hand]
        else:
            return []
        seat = self.seat
        sheet = self.sheet
        free = sheet.all_mask & ~self.coloured[seat]
        coloured = self.coloured[seat]
        cand = neighbourhood(coloured, sheet.neighbours) & free if coloured else free
        out: list[tuple[int, int]] = []
        cache: dict[int, list[int]] = {}
        for c in pencils:
            need = self.faces[c]
            if need not in cache:
                cache[need] = connected_sets(need, free, cand, sheet.neighbours)
            out.extend((c, g) for g in cache[need])
            out.append((c, 0))
        return out

    def whole_turns(self) -> list[tuple[tuple[GardensMove, ...], State[GardensMove]]]:
        """Every whole turn from :meth:`whole_turn_groups`, each with its end position.

        Each end position is one clone of this state with the turn's rules applied in the
        turn's order (take the pencil, colour each field or waste it: what ``play`` does for
        each move) and its moves logged in one go, as ``play`` would log them one by one (every
        move of a turn is the seat's, in this turn); a group's field order is worked out once
        for every pencil that can colour it."""
        if self.phase not in (TAKING, COLOURING) or (self.phase == COLOURING and self.group):
            return super().whole_turns()
        out: list[tuple[tuple[GardensMove, ...], State[GardensMove]]] = []
        seat, turn = self.seat, self.turn
        taking = self.phase == TAKING
        coloured = self.coloured[seat]
        neighbours = self.sheet.neighbours
        fmoves = self.fmoves
        orders: dict[int, tuple[tuple[GardensMove, ...], tuple[int, ...]]] = {}
        for c, g in self.whole_turn_groups():
            after = self.clone()
            if taking:
                after.g3_take_pencil(c)
            if g == 0:
                moves: tuple[GardensMove, ...] = (TAKE_MOVES[c], WASTE_MOVE) if taking \
                    else (WASTE_MOVE,)
                after.g3_waste_pencil()
            else:
                known = orders.get(g)
                if known is None:
                    order = tuple(connected_order(g, coloured, neighbours))
                    known = orders[g] = (tuple(fmoves[i] for i in order), order)
                moves = (TAKE_MOVES[c], *known[0]) if taking else known[0]
                for i in known[1]:
                    after.colour_field(i)
            after._movers.extend([(seat, turn)] * len(moves))
            after._history.extend(moves)
            out.append((moves, after))
        return out


def connected_sets(size: int, allowed: int, anchors: int, neighbours: tuple[int, ...]) -> list[int]:
    """Every connected set of ``size`` cells of ``allowed`` holding at least one ``anchors`` cell.

    ESU-style enumeration with anchors ordered first: a set is generated once, from its
    lowest anchor; cells of lower anchors are excluded from that root's extensions.
    """
    out: list[int] = []
    excluded_anchors = 0
    rest = anchors & allowed
    while rest:
        low = rest & -rest
        rest ^= low
        forbidden = excluded_anchors | low
        ext = neighbours[low.bit_length() - 1] & allowed & ~forbidden
        _extend(low, ext, low | ext | forbidden, size - 1, allowed, neighbours, out)
        excluded_anchors |= low
    return out


def _extend(sub: int, ext: int, seen: int, left: int, allowed: int,
            neighbours: tuple[int, ...], out: list[int]) -> None:
    if left == 0:
        out.append(sub)
        return
    while ext:
        w = ext & -ext
        ext ^= w
        nb = neighbours[w.bit_length() - 1] & allowed & ~seen
        _extend(sub | w, ext | nb, seen | nb, left - 1, allowed, neighbours, out)


def connected_order(group: int, coloured: int, neighbours: tuple[int, ...]) -> list[int]:
    """An order of ``group``'s cells that G4 accepts: start next to the coloured area, grow.

    The first cell is the lowest of the group touching the coloured area (any cell of the group
    on an empty sheet), each next one the lowest touching the cells ordered so far; the cells
    they touch are gathered as they are added, not worked out again at every step."""
    start_zone = neighbourhood(coloured, neighbours) & group if coloured else group
    first = start_zone & -start_zone
    i = first.bit_length() - 1
    order = [i]
    done = first
    touched = neighbours[i]
    while done != group:
        nxt = touched & group & ~done
        low = nxt & -nxt
        i = low.bit_length() - 1
        order.append(i)
        done |= low
        touched |= neighbours[i]
    return order


def _colour_of(text: str) -> int | None:
    t = text.strip().lower()
    for i, (name, letter) in enumerate(zip(COLOURS, LETTERS, strict=True)):
        if t in (name, letter.lower()):
            return i
    return None


LEVEL_SHEETS = {1: "level-1", 2: "level-2", 3: "level-3"}


def new_gardens(players: int, seed: int, sheet: str | Path | dict[str, Any] | None = None,
                level: int | None = None) -> GardensState:
    """The factory the registry calls: a level's shipped sheet, or the user's ``sheet``.

    ``level`` alone picks that level's shipped sheet (level 1 when neither is given). With a
    ``sheet`` as well, the level must be the sheet's own (its ``level`` key): a contradiction
    (``level=2, sheet="level-1"``, or a file saying ``level = 1``) is refused, never resolved.
    """
    if level is not None and level not in LEVEL_SHEETS:
        raise BadVariant(f"Gardens has levels 1, 2 and 3, not {level!r}")
    if sheet is None:
        return GardensState(load(LEVEL_SHEETS[level or 1]), players, seed)
    compiled = load(sheet)
    if level is not None and compiled.data.level != level:
        name = sheet if isinstance(sheet, str) else compiled.data.name
        shipped = LEVEL_SHEETS.get(compiled.data.level)
        if isinstance(sheet, str) and sheet == shipped:
            allowed = (f"give level={level} alone (its sheet is {LEVEL_SHEETS[level]!r}), "
                       f"or sheet={sheet!r} alone (level {compiled.data.level})")
        else:
            allowed = (f"leave out the level (the sheet says level {compiled.data.level}), or "
                       f"change the sheet's 'level' key")
        raise BadVariant(f"level={level} contradicts the sheet {name!r}, which is a level "
                         f"{compiled.data.level} sheet: {allowed}")
    return GardensState(compiled, players, seed)
