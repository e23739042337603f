"""The Gardens view for clients: the sheet's layout (sent once) and the board (every change).

:func:`view_layout` is what never changes at a table, all taken from the state's own sheet data
(so a user's own sheet draws too): the hex fields with their ids (as written in moves) and
positions, each field's garden and the sides where a thick garden border is drawn, the
fountain, flowers and trees, the gardens, and the score area as printed (single-colour box rows
with their stars, colourful boxes, flower and tree boxes, pencil symbols, bonus goals).

:func:`view_board` is what changes: every seat's marks (coloured fields, completed gardens and
how, boxes ticked, stars reached, symbols crossed), the bonus goals and who took them, the
pencils with their numbers and who took which, the pencil in hand, whose turn it is in a
sentence, and the choices of the seat to move, each aimed at a layout element.
:func:`view_boards` makes the boards of several viewers of a position at once: the board once
(every sheet is public), then the choices for the seat to move. The boards are made as JSON
data directly, without building (and validating) their models, which remain the schema.

Element ids: a field's id is its id on the sheet (``D4``, a capital letter and digits); every
other element's id is lower case with a dash (``pencil-O``, ``box-O-2``, ``symbol-3``,
``goal-outer``), so the two never clash. Documented in ``docs/views/gardens.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meeple.core.bits import bit_list, components
from meeple.core.hexgrid import HEX_DIRECTIONS, hex_to_pixel, outside_positions
from meeple.core.present import public_boards
from meeple.core.text import possessive, subject
from meeple.core.viewmodel import TurnWords
from meeple.games.gardens import moves as mv
from meeple.games.gardens.rules import COLOURING, OVER, ROLLING, TAKING, GardensState
from meeple.games.gardens.sheet import ALL_PENCILS, COLOURS, LETTERS, CompiledSheet
from meeple.games.gardens.words import end_reason, fields, garden_labels

LAYOUT_SCHEMA = "gardens-layout/1"
BOARD_SCHEMA = "gardens-board/1"

#: The six sides of a pointy-top hex, in :data:`HEX_DIRECTIONS` order, as seen on screen
#: (x to the right, y downwards): the neighbour across the side lies in that direction.
SIDE_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
_R3 = math.sqrt(3) / 2
#: The corners of a hex of size 1 round its centre (y downwards), clockwise from the top.
CORNERS: tuple[tuple[float, float], ...] = (
    (0.0, -1.0), (_R3, -0.5), (_R3, 0.5), (0.0, 1.0), (-_R3, 0.5), (-_R3, -0.5))
#: Per side (in SIDE_NAMES order), the two corners it runs between.
_SIDE_CORNERS: tuple[tuple[int, int], ...] = ((1, 2), (0, 1), (5, 0), (4, 5), (3, 4), (2, 3))


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _pt(x: float) -> float:
    return round(x, 4)


# ============================================================================== the layout
class Colour(_Model):
    letter: str = Field(description="the colour's letter, drawn on every mark (colour-blind tip)")
    name: str = Field(description="orange, red, green, blue or purple")


class Side(_Model):
    name: str = Field(description="E, NE, NW, W, SW or SE (on screen, y downwards)")
    dq: int = Field(description="axial step to the neighbour across this side")
    dr: int
    start: tuple[float, float] = Field(description="the side's first corner, relative to the "
                                                   "hex centre, for a hex of size 1")
    end: tuple[float, float] = Field(description="its second corner")


class HexGeometry(_Model):
    orientation: Literal["pointy"] = "pointy"
    size: float = Field(default=1.0, description="centre to corner; every position is in these units")
    corners: list[tuple[float, float]] = Field(description="the six corners round a centre, "
                                                           "clockwise from the top")
    sides: list[Side] = Field(description="the six sides with their neighbour steps")


class Bounds(_Model):
    min_x: float
    min_y: float
    max_x: float
    max_y: float


class Border(_Model):
    side: str = Field(description="which side of the field (a Side name)")
    against: Literal["garden", "fountain", "hole", "outside"] = Field(
        description="what lies across it: another garden's field, the fountain, an enclosed "
                    "non-field space that is not the fountain, or the outside of the play area")


class FieldLayout(_Model):
    id: str = Field(description="the field's id, as written in moves ('D4')")
    index: int = Field(description="the field's position in the sheet's list")
    q: int = Field(description="axial hex coordinates from the sheet")
    r: int
    x: float = Field(description="centre on the drawing: x = sqrt(3) (q + r/2), y = 1.5 r")
    y: float
    garden: str = Field(description="the id of the field's garden")
    flower: str | None = Field(description="the flower's colour (level 2), or null")
    tree: bool = Field(description="whether a tree grows here (level 3)")
    outer: bool = Field(description="an outer field (G5): a side faces the outside")
    neighbours: list[str] = Field(description="ids of the neighbouring fields")
    borders: list[Border] = Field(description="the sides drawn as a thick border: towards "
                                              "another garden, the fountain or the outside")


class FountainSpace(_Model):
    id: str = Field(description="'fountain-1', 'fountain-2', ...")
    q: int
    r: int
    x: float
    y: float


class GardenLayout(_Model):
    id: str = Field(description="the garden's name in the sheet file")
    label: str = Field(description="its short label a, b, ... (as the terminal shows it)")
    index: int
    fields: list[str] = Field(description="its fields' ids")
    size: int
    label_field: str = Field(description="the field nearest the garden's middle, to place "
                                         "the label")
    can_be_colourful: bool = Field(description="at least five fields, so it can hold all five "
                                               "colours (G6)")


class PencilLayout(_Model):
    id: str = Field(description="'pencil-O' ...: what a 'take' choice targets")
    colour: str
    letter: str


class Star(_Model):
    id: str
    value: int


class Box(_Model):
    id: str
    value: int = Field(description="the points it scores when ticked (0 for tree boxes)")
    colour: str | None = Field(description="the box's colour, or null (colourful boxes)")


class BoxRow(_Model):
    row: int = Field(description="1 at the top")
    value: int = Field(description="what each box of this row scores")
    boxes: list[Box] = Field(description="one box per colour, in pencil order")
    star: Star = Field(description="earned once every colour has its box of this row (G7)")


class SingleColourArea(_Model):
    rows: list[BoxRow]
    score_rows: list[str] = Field(description="the score-pad rows it feeds: the five colours "
                                              "and 'row stars'")


class ColourfulArea(_Model):
    boxes: list[Box]
    star: Star | None = Field(description="for ticking every colourful box; null: none")
    score_rows: list[str]


class ColourBoxArea(_Model):
    """Flower boxes (level 2) or tree boxes (level 3): one box per colour and a star."""

    boxes: list[Box]
    star: Star
    score_rows: list[str]


class PencilSymbol(_Model):
    id: str = Field(description="'symbol-1' ...: what a 'waste' choice targets (the next one)")
    number: int
    penalty: int = Field(description="minus points once crossed (G9)")
    ends_game: bool = Field(description="the last symbol: crossing it ends the game (G10)")


class Goal(_Model):
    id: str = Field(description="'goal-outer', 'goal-all', 'goal-flowers', 'goal-largest', "
                                "'goal-four-O' ...")
    kind: Literal["outer", "all", "flowers", "largest", "four"]
    colour: str | None = Field(description="the colour of a 'four' goal, else null")
    label: str = Field(description="what it asks for, in words")
    stars: int = Field(description="the points of its star")
    when: Literal["first", "end"] = Field(description="'first': the first seat to reach it "
                                                      "takes it; 'end': decided at the end")
    target: int = Field(description="fields to colour (outer, all, flowers), gardens to "
                                    "complete (four), 0 for largest")
    ends_game: bool
    score_row: str


class ScoreArea(_Model):
    single_colour: SingleColourArea
    colourful: ColourfulArea
    flowers: ColourBoxArea | None = Field(description="only on sheets with flowers")
    flower_box_value: int | None
    trees: ColourBoxArea | None = Field(description="only on sheets with trees")
    pencils: list[PencilSymbol]
    goals: list[Goal]
    rows: list[str] = Field(description="the score-pad rows in printed order: the keys of the "
                                        "view's scores[].rows")


class ScoreRowLabel(_Model):
    """How one score-pad row reads (the printed pad shows symbols; these are its words)."""

    key: str = Field(description="the row's key in the view's scores[].rows")
    label: str = Field(description="the row in words, for a score table")


#: Every score-pad row a Gardens sheet can have, in words (the keys are the engine's).
SCORE_ROW_LABELS: dict[str, str] = {
    **{c: f"{c.capitalize()} gardens" for c in COLOURS},
    "row stars": "Row stars (every colour)",
    "colourful gardens": "Colourful gardens",
    "colourful star": "Colourful star",
    "flowers": "Flower boxes",
    "flower star": "Flower star",
    "all flower fields": "First: all flower fields",
    "tree star": "Tree star",
    "four gardens": "First: gardens of one colour",
    "all outer fields": "First: all outer fields",
    "all fields": "First: all fields",
    "largest area": "Largest one-colour area",
    "pencils": "Pencil symbols (minus)",
}


class GardensLayout(_Model):
    """What never changes at a Gardens table: the sheet and its score area."""

    schema_: str = Field(default=LAYOUT_SCHEMA, alias="schema")
    name: str = Field(description="the sheet's name")
    level: int
    reconstructed: bool = Field(description="the sheet is a reconstruction, not the print")
    note: str
    colours: list[Colour] = Field(description="the five pencils, in the order they are rolled")
    hex: HexGeometry
    bounds: Bounds = Field(description="the extent of every field and fountain hex drawn")
    fields: list[FieldLayout]
    fountain: list[FountainSpace]
    gardens: list[GardenLayout]
    pencils: list[PencilLayout]
    score: ScoreArea
    score_rows: list[ScoreRowLabel] = Field(description="the score-pad rows in printed order, "
                                                        "each with its label in words")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _layout_model(sheet: CompiledSheet, rows: list[str]) -> GardensLayout:
    data = sheet.data
    sides = [Side(name=SIDE_NAMES[k], dq=dq, dr=dr,
                  start=(_pt(CORNERS[a][0]), _pt(CORNERS[a][1])),
                  end=(_pt(CORNERS[b][0]), _pt(CORNERS[b][1])))
             for k, ((dq, dr), (a, b)) in enumerate(zip(HEX_DIRECTIONS, _SIDE_CORNERS, strict=True))]
    fields = _field_layouts(sheet)
    spaces = _fountain_spaces(sheet)
    xs = [f.x for f in fields] + [s.x for s in spaces]
    ys = [f.y for f in fields] + [s.y for s in spaces]
    bounds = Bounds(min_x=_pt(min(xs) - _R3), min_y=_pt(min(ys) - 1), max_x=_pt(max(xs) + _R3),
                    max_y=_pt(max(ys) + 1))
    return GardensLayout(
        schema=LAYOUT_SCHEMA, name=data.name, level=data.level, reconstructed=data.reconstructed,
        note=data.note, colours=[Colour(letter=LETTERS[c], name=COLOURS[c]) for c in range(5)],
        hex=HexGeometry(corners=[(_pt(x), _pt(y)) for x, y in CORNERS], sides=sides),
        bounds=bounds, fields=fields, fountain=spaces, gardens=_garden_layouts(sheet, fields),
        pencils=[PencilLayout(id=f"pencil-{LETTERS[c]}", colour=COLOURS[c], letter=LETTERS[c])
                 for c in range(5)],
        score=_score_area(sheet, rows),
        score_rows=[ScoreRowLabel(key=r, label=_row_label(r, data.scoring.four_gardens_count))
                    for r in rows])


def _field_layouts(sheet: CompiledSheet) -> list[FieldLayout]:
    """Every field: its place, its neighbours and what each of its sides borders on."""
    data = sheet.data
    at = {c: i for i, c in enumerate(sheet.coords)}
    fountain_set = {(int(q), int(r)) for q, r in data.fountain}
    outside = outside_positions(sheet.coords)
    fields = []
    for i, f in enumerate(data.fields):
        x, y = hex_to_pixel(f.q, f.r)
        nbs = []
        borders = []
        for k, (dq, dr) in enumerate(HEX_DIRECTIONS):
            p = (f.q + dq, f.r + dr)
            j = at.get(p)
            against: Literal["garden", "fountain", "hole", "outside"] | None = None
            if j is not None:
                nbs.append(sheet.ids[j])
                if sheet.garden_of[j] != sheet.garden_of[i]:
                    against = "garden"
            elif p in fountain_set:
                against = "fountain"
            elif p in outside:
                against = "outside"
            else:
                against = "hole"
            if against is not None:
                borders.append(Border(side=SIDE_NAMES[k], against=against))
        fields.append(FieldLayout(
            id=f.id, index=i, q=f.q, r=f.r, x=_pt(x), y=_pt(y), garden=f.garden,
            flower=f.flower, tree=f.tree, outer=bool(sheet.outer_mask >> i & 1),
            neighbours=nbs, borders=borders))
    return fields


def _fountain_spaces(sheet: CompiledSheet) -> list[FountainSpace]:
    spaces = []
    for k, (q, r) in enumerate(sheet.data.fountain):
        x, y = hex_to_pixel(int(q), int(r))
        spaces.append(FountainSpace(id=f"fountain-{k + 1}", q=int(q), r=int(r), x=_pt(x), y=_pt(y)))
    return spaces


def _garden_layouts(sheet: CompiledSheet, fields: list[FieldLayout]) -> list[GardenLayout]:
    """Every garden: its fields, its label and the field nearest its middle that carries it."""
    labels = garden_labels(sheet)
    gardens = []
    for g, name in enumerate(sheet.garden_names):
        members = bit_list(sheet.garden_masks[g])
        cx = sum(fields[i].x for i in members) / len(members)
        cy = sum(fields[i].y for i in members) / len(members)
        middle = min(members, key=lambda i: ((fields[i].x - cx) ** 2 + (fields[i].y - cy) ** 2, i))
        gardens.append(GardenLayout(
            id=name, label=labels[g], index=g, fields=[sheet.ids[i] for i in members],
            size=len(members), label_field=sheet.ids[middle], can_be_colourful=len(members) >= 5))
    return gardens


def _score_area(sheet: CompiledSheet, rows: list[str]) -> ScoreArea:
    """The score pad: the single-colour rows, the colourful gardens, the flower and tree boxes,
    the pencil symbols and the goals."""
    pad = sheet.data.scoring
    box_rows = [
        BoxRow(row=k + 1, value=v,
               boxes=[Box(id=f"box-{LETTERS[c]}-{k + 1}", value=v, colour=COLOURS[c])
                      for c in range(5)],
               star=Star(id=f"star-row-{k + 1}", value=pad.row_stars[k]))
        for k, v in enumerate(pad.single_colour_boxes)]
    colourful = ColourfulArea(
        boxes=[Box(id=f"colourful-{k + 1}", value=v, colour=None)
               for k, v in enumerate(pad.colourful_boxes)],
        star=Star(id="star-colourful", value=pad.colourful_star) if pad.colourful_star else None,
        score_rows=["colourful gardens", *(["colourful star"] if pad.colourful_star else [])])
    flowers = trees = None
    if sheet.has_flowers:
        flowers = ColourBoxArea(
            boxes=[Box(id=f"flower-{LETTERS[c]}", value=pad.flower_box, colour=COLOURS[c])
                   for c in range(5)],
            star=Star(id="star-flower", value=pad.flower_star),
            score_rows=["flowers", "flower star"])
    if sheet.has_trees:
        trees = ColourBoxArea(
            boxes=[Box(id=f"tree-{LETTERS[c]}", value=0, colour=COLOURS[c]) for c in range(5)],
            star=Star(id="star-tree", value=pad.tree_star), score_rows=["tree star"])
    n_pen = len(pad.pencil_penalties)
    symbols = [PencilSymbol(id=f"symbol-{k + 1}", number=k + 1, penalty=v, ends_game=k == n_pen - 1)
               for k, v in enumerate(pad.pencil_penalties)]
    return ScoreArea(
        single_colour=SingleColourArea(rows=box_rows, score_rows=[*COLOURS, "row stars"]),
        colourful=colourful, flowers=flowers,
        flower_box_value=pad.flower_box if sheet.has_flowers else None, trees=trees,
        pencils=symbols, goals=_goals(sheet), rows=rows)


def _goals(sheet: CompiledSheet) -> list[Goal]:
    """The bonus goals: the "first to" ones (outer fields, all fields, flower fields, four
    gardens of a colour) and the largest area at the end."""
    pad = sheet.data.scoring
    goals = [
        Goal(id="goal-outer", kind="outer", colour=None, label="first to colour all outer fields",
             stars=pad.outer_fields_bonus, when="first", target=sheet.outer_mask.bit_count(),
             ends_game=False, score_row="all outer fields"),
        Goal(id="goal-all", kind="all", colour=None,
             label="first to colour all fields (ends the game)", stars=pad.all_fields_bonus,
             when="first", target=sheet.n, ends_game=True, score_row="all fields"),
    ]
    if sheet.has_flowers:
        goals.append(Goal(id="goal-flowers", kind="flowers", colour=None,
                          label="first to colour all flower fields, in any colours",
                          stars=pad.all_flower_fields_bonus, when="first",
                          target=sheet.flower_mask.bit_count(), ends_game=False,
                          score_row="all flower fields"))
    if pad.four_gardens_bonus:
        for c in range(5):
            goals.append(Goal(
                id=f"goal-four-{LETTERS[c]}", kind="four", colour=COLOURS[c],
                label=f"first to complete {pad.four_gardens_count} gardens all in {COLOURS[c]}",
                stars=pad.four_gardens_bonus, when="first", target=pad.four_gardens_count,
                ends_game=False, score_row="four gardens"))
    goals.append(Goal(id="goal-largest", kind="largest", colour=None,
                      label="the largest one-colour area at the end, larger than everyone "
                            "else's", stars=pad.largest_area_bonus, when="end", target=0,
                      ends_game=False, score_row="largest area"))
    return goals


def _row_label(row: str, four: int) -> str:
    if row == "four gardens":
        return f"First: {four} gardens of one colour"
    return SCORE_ROW_LABELS.get(row, row.capitalize())


def view_layout(state: GardensState) -> dict[str, Any]:
    """What never changes at this table (``PRESENTATION.view_layout``), as JSON-able data."""
    rows = list(state.scores()[0].breakdown)
    return _layout_model(state.sheet, rows).model_dump(mode="json", by_alias=True)


# =============================================================================== the board
class PencilMark(_Model):
    id: str = Field(description="the layout's pencil id ('pencil-O')")
    colour: str
    letter: str
    face: int | None = Field(description="the number it shows in this roll; null while not "
                                         "yet rolled")
    where: Literal["middle", "hand", "used", "unrolled"] = Field(
        description="lying in the middle, in the hand of the seat to move, taken earlier in "
                    "this roll, or not yet rolled (while the pencils are being rolled)")
    holder: int | None = Field(description="the seat that took it in this roll, or null")


class Hand(_Model):
    seat: int
    pencil: str = Field(description="the pencil's layout id")
    colour: str
    letter: str
    face: int = Field(description="how many fields it colours")
    coloured: list[str] = Field(description="fields coloured with it so far this turn")
    left: int = Field(description="fields still to colour")
    can_waste: bool = Field(description="wasting is still possible (no field coloured yet)")
    colourable: list[str] = Field(description="the fields it may colour next (G4), in sheet "
                                              "order: for every viewer, as the field choices "
                                              "are for the seat to move")


class GardenMark(_Model):
    id: str = Field(description="the layout's garden id")
    left: int = Field(description="fields of it this seat has still to colour")
    completed: bool
    by: str | None = Field(description="how it was completed: a colour name (all one colour, "
                                       "G6), 'colourful' (all five colours) or 'mixed' (no "
                                       "box); null while not completed")


class RowMark(_Model):
    row: int
    ticked: list[str] = Field(description="the colours (letters) whose box of this row is ticked")
    star: bool = Field(description="the row's star is reached (every colour ticked, G7)")


class SeatBoard(_Model):
    seat: int
    name: str
    coloured: dict[str, str] = Field(description="field id -> colour name, every coloured field")
    coloured_count: int
    fields_left: int = Field(description="fields still uncoloured on this sheet")
    gardens: list[GardenMark] = Field(description="per garden, in layout order")
    boxes: dict[str, int] = Field(description="colour name -> single-colour boxes ticked "
                                              "(from the top)")
    rows: list[RowMark] = Field(description="per row of single-colour boxes")
    single_colour_gardens: dict[str, int] = Field(
        description="colour name -> gardens completed all in that colour (also beyond the "
                    "boxes; counts for the 'four' goals)")
    colourful: int = Field(description="colourful boxes ticked (from the left)")
    colourful_star: bool
    flowers: list[str] = Field(description="colour names of the flower boxes ticked")
    flower_star: bool
    flower_fields: int = Field(description="flower fields coloured, any colour")
    trees: list[str] = Field(description="colour names of the tree boxes ticked")
    tree_star: bool
    pencils_crossed: int = Field(description="pencil symbols crossed (from the left)")
    outer_coloured: int = Field(description="outer fields coloured")
    largest_area: int = Field(description="the largest one-colour connected area now")
    goals: list[str] = Field(description="ids of the bonus goals this seat has taken")


class GoalMark(_Model):
    id: str = Field(description="the layout's goal id")
    holder: int | None = Field(description="the seat that took it, or null")
    holder_name: str | None
    decided: bool = Field(description="taken, or (largest area) settled at the end, maybe by "
                                      "nobody after a tie; its star is crossed out for every "
                                      "other seat")


class Choice(_Model):
    move: str = Field(description="the move's canonical text, to send as is")
    target: str | None = Field(description="the layout element to light and click")
    kind: Literal["pencil", "field", "waste"]
    label: str = Field(description="words for a button")


class GardensBoard(TurnWords):
    """What changes during a Gardens game, as one viewer may see it."""

    schema_: str = Field(default=BOARD_SCHEMA, alias="schema")
    phase: Literal["rolling", "taking", "colouring", "over"]
    seat: int | None = Field(description="whose turn it is (who rolls, takes or colours); null "
                                         "once the game is over")
    pencils: list[PencilMark] = Field(description="the five pencils, in roll order")
    hand: Hand | None = Field(description="the pencil being coloured with, or null")
    seats: list[SeatBoard]
    goals: list[GoalMark] = Field(description="every bonus goal of the layout, same order")
    end: str | None = Field(description="why the game ended (G10), once over")
    ended_by: int | None = Field(description="once over, the seat whose move ended the game; "
                                             "else null")
    choices: list[Choice] = Field(description="the viewer's legal moves when the viewer is to "
                                              "move, each exactly once; else empty")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _takers(state: GardensState) -> dict[int, int]:
    """Pencil colour -> the seat that took it since the last complete roll."""
    out: dict[int, int] = {}
    log = state.log()
    for mover, move in reversed(log):
        if move.kind == mv.ROLL:
            break
        if move.kind == mv.TAKE:
            out[move.colour] = mover
    return out


def _pencils(state: GardensState) -> list[dict[str, Any]]:
    rolling = state.phase == ROLLING
    takers = {} if rolling else _takers(state)
    out = []
    for c in range(5):
        face: int | None = state.faces[c]
        holder = takers.get(c)
        where: Literal["middle", "hand", "used", "unrolled"]
        if rolling:
            where = "unrolled" if c >= state.roll_next else "middle"
            if c >= state.roll_next:
                face = None
        elif state.middle >> c & 1:
            where = "middle"
        elif state.phase == COLOURING and state.hand == c:
            where = "hand"
        else:
            where = "used"
        out.append({"id": f"pencil-{LETTERS[c]}", "colour": COLOURS[c], "letter": LETTERS[c],
                    "face": face, "where": where, "holder": holder})
    return out


def _seat_board(state: GardensState, seat: int,
                holders: dict[str, int | None]) -> dict[str, Any]:
    """A :class:`SeatBoard` as JSON data: ``seat``'s marks on its sheet and score pad."""
    sheet = state.sheet
    pad = state.pad
    base = seat * 5
    cm = state.cmask[base: base + 5]
    coloured = _coloured_fields(state, cm)
    mine = state.coloured[seat]
    boxes = state.boxes[base: base + 5]
    return {
        "seat": seat, "name": state.seats[seat], "coloured": coloured,
        "coloured_count": len(coloured), "fields_left": sheet.n - len(coloured),
        "gardens": _garden_marks(state, seat, cm), "boxes": {COLOURS[c]: boxes[c] for c in range(5)},
        "rows": _row_marks(state, boxes),
        "single_colour_gardens": {COLOURS[c]: state.sc_gardens[base + c] for c in range(5)},
        "colourful": state.colourful[seat],
        "colourful_star": bool(pad.colourful_star)
        and state.colourful[seat] == len(pad.colourful_boxes),
        **_flower_and_tree_marks(state, seat),
        "pencils_crossed": state.crossed[seat],
        "outer_coloured": (mine & sheet.outer_mask).bit_count(),
        "largest_area": _largest_area(state, cm),
        "goals": [g for g, h in holders.items() if h == seat]}


def _coloured_fields(state: GardensState, cm: Sequence[int]) -> dict[str, str]:
    """Field id -> the colour it was coloured with, in field order, from the seat's colour
    masks ``cm``."""
    colour_of: dict[int, int] = {}
    for c in range(5):
        for i in bit_list(cm[c]):
            colour_of[i] = c
    return {state.sheet.ids[i]: COLOURS[colour_of[i]] for i in sorted(colour_of)}


def _garden_marks(state: GardensState, seat: int, cm: Sequence[int]) -> list[dict[str, Any]]:
    """Each garden's fields left and, once completed, how: one colour, colourful or mixed."""
    mine = state.coloured[seat]
    gardens = []
    for g, mask in enumerate(state.sheet.garden_masks):
        left = (mask & ~mine).bit_count()
        by = None
        if not left:
            present = [c for c in range(5) if cm[c] & mask]
            by = (COLOURS[present[0]] if len(present) == 1
                  else "colourful" if len(present) == 5 else "mixed")
        gardens.append({"id": state.sheet.garden_names[g], "left": left, "completed": not left,
                        "by": by})
    return gardens


def _row_marks(state: GardensState, boxes: Sequence[int]) -> list[dict[str, Any]]:
    """Each row of single-colour boxes: the colours ticked in it and its star."""
    return [{"row": k + 1, "ticked": [LETTERS[c] for c in range(5) if boxes[c] > k],
             "star": min(boxes) > k} for k in range(len(state.pad.single_colour_boxes))]


def _flower_and_tree_marks(state: GardensState, seat: int) -> dict[str, Any]:
    """The flower and tree boxes ticked (by colour), their stars and the flower fields."""
    sheet = state.sheet
    fb = state.flower_boxes[seat]
    tb = state.tree_boxes[seat]
    return {
        "flowers": [COLOURS[c] for c in range(5) if fb >> c & 1],
        "flower_star": sheet.has_flowers and fb == ALL_PENCILS,
        "flower_fields": (state.coloured[seat] & sheet.flower_mask).bit_count(),
        "trees": [COLOURS[c] for c in range(5) if tb >> c & 1],
        "tree_star": sheet.has_trees and tb == ALL_PENCILS}


def _largest_area(state: GardensState, cm: Sequence[int]) -> int:
    """The most fields in one connected area of one colour."""
    nb = state.sheet.neighbours
    return max((comp.bit_count() for c in range(5) for comp in components(cm[c], nb)),
               default=0)


def _goal_holders(state: GardensState) -> tuple[dict[str, int | None], set[str]]:
    """Goal id -> holder seat (or None), in layout order, and the ids already decided."""
    sheet = state.sheet
    pad = state.pad
    holders: dict[str, int | None] = {}

    def put(gid: str, h: int) -> None:
        holders[gid] = h if h >= 0 else None

    put("goal-outer", state.first_outer)
    put("goal-all", state.first_all)
    if sheet.has_flowers:
        put("goal-flowers", state.first_flowers)
    if pad.four_gardens_bonus:
        for c in range(5):
            put(f"goal-four-{LETTERS[c]}", state.first_four[c])
    over = state.phase == OVER
    put("goal-largest", state.g8_largest_area_winner() if over else -1)
    decided = {g for g, h in holders.items() if h is not None}
    if over:
        decided.add("goal-largest")
    return holders, decided


def _choice(move: str, target: str, kind: str, label: str) -> dict[str, Any]:
    """A :class:`Choice` as JSON data."""
    return {"move": move, "target": target, "kind": kind, "label": label}


def _choices(state: GardensState) -> list[dict[str, Any]]:
    return [_choice_of(state, m) for m in state.legal_moves()]


def _choice_of(state: GardensState, m: mv.GardensMove) -> dict[str, Any]:
    """The choice a legal decision of the seat to move is, with its words."""
    text = str(m)
    name = COLOURS[state.hand] if state.hand >= 0 else ""
    if m.kind == mv.TAKE:
        c = m.colour
        return _choice(text, f"pencil-{LETTERS[c]}", "pencil",
                       f"take the {COLOURS[c]} pencil ({fields(state.faces[c])})")
    if m.kind == mv.FIELD:
        return _choice(text, text, "field", f"colour {text} {name}")
    k = state.crossed[state.seat]
    pen = state.pad.pencil_penalties
    end = ", ends the game" if k == len(pen) - 1 else ""
    return _choice(text, f"symbol-{k + 1}", "waste",
                   f"waste the {name} pencil: cross pencil symbol {k + 1} ({pen[k]}{end})")


def describe(state: GardensState, move: mv.GardensMove) -> str:
    """``PRESENTATION.describe``: ``move`` played from ``state`` in words, as its choice says
    it ("take the green pencil (5 fields)", "colour C7 green"); a roll: "the orange pencil
    shows 3"."""
    if move.kind == mv.ROLL:
        return f"the {COLOURS[move.colour]} pencil shows {move.value}"
    return str(_choice_of(state, move)["label"])


def _public(state: GardensState) -> dict[str, Any]:
    """The board of ``state`` (a ``state.seen_by(...)``) as every viewer sees it, as the JSON
    data of :class:`GardensBoard` (its models are not built: made here, the data is valid):
    ``choices`` empty."""
    phase = state.phase
    who = state.seats[state.seat]
    holders, decided = _goal_holders(state)
    hand: dict[str, Any] | None = None
    end = None
    doing = result = ""
    if phase == OVER:
        word: Literal["rolling", "taking", "colouring", "over"] = "over"
        end = end_reason(state)
        sentence = f"Game over: {end}."
        result = end[0].upper() + end[1:] + "."
    elif phase == ROLLING:
        word = "rolling"
        sentence = f"{subject(who, 'rolls')} the pencils."
    elif phase == TAKING:
        word = "taking"
        doing = "take a pencil from the middle"
        sentence = f"{possessive(who)} turn: {doing}."
    else:
        word = "colouring"
        c = state.hand
        done = state.group.bit_count()
        left = state.need - done
        hand = {"seat": state.seat, "pencil": f"pencil-{LETTERS[c]}", "colour": COLOURS[c],
                "letter": LETTERS[c], "face": state.need,
                "coloured": [state.sheet.ids[i] for i in bit_list(state.group)],
                "left": left, "can_waste": done == 0,
                "colourable": [state.sheet.ids[i]
                               for i in bit_list(state.g4_colourable_fields())]}
        sentence = (f"{subject(who, 'colours')} with the {COLOURS[c]} pencil: {done} of "
                    f"{fields(state.need)} done, {left} to go"
                    + (" (or waste it)." if done == 0 else "."))
        doing = (f"colour {fields(state.need)} with the {COLOURS[c]} pencil, or waste it"
                 if done == 0 else
                 f"colour {left} more {'field' if left == 1 else 'fields'} with the "
                 f"{COLOURS[c]} pencil, each touching this pencil's fields")
    sentence = sentence[0].upper() + sentence[1:]
    goals = [{"id": g, "holder": h, "holder_name": state.seats[h] if h is not None else None,
              "decided": g in decided} for g, h in holders.items()]
    return {
        "sentence": sentence, "doing": doing, "result_text": result, "schema": BOARD_SCHEMA,
        "phase": word, "seat": None if phase == OVER else state.seat,
        "pencils": _pencils(state), "hand": hand,
        "seats": [_seat_board(state, s, holders) for s in range(state.players)],
        "goals": goals, "end": end, "ended_by": state.seat if phase == OVER else None,
        "choices": []}


def _board(public: dict[str, Any], state: GardensState, viewer: int | None) -> dict[str, Any]:
    """The board ``public`` (:func:`_public` of ``state``) as ``viewer`` sees it: with the
    choices of the seat to move when it is the viewer (taking or colouring)."""
    if viewer is None or viewer != state.seat or state.phase not in (TAKING, COLOURING):
        return public
    return {**public, "choices": _choices(state)}


def view_board(state: GardensState, viewer: int | None) -> dict[str, Any]:
    """What changes (``PRESENTATION.view_board``): ``state`` is ``state.seen_by(viewer)`` (seat 0's
    view for a spectator, ``viewer`` None); choices only when ``viewer`` is to move."""
    return _board(_public(state), state, viewer)


def view_boards(state: GardensState,
                viewers: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``PRESENTATION.view_boards``: one board for all (every sheet is public)."""
    return public_boards(state, viewers, _public, _board)


__all__ = ["BOARD_SCHEMA", "LAYOUT_SCHEMA", "GardensBoard", "GardensLayout", "describe",
           "view_board", "view_boards", "view_layout"]
