"""Pick a Pen: Reefs for clients (the browser): the table's layout and each view's board.

``view_layout(state)`` is what never changes at a table, taken from the sheet data in play (so a
user's own sheet draws as well as a shipped one): the lattice of spaces with their positions,
the connections (diagonals included) with their directions, the entry points, the items
(treasures with their colour or neutral and their value, coins, whirlpools, propellers), the
five pencils and their faces, and the score pad as printed (the treasure rows with their values
and grey boxes, the coin row, the propeller boxes, the bonus and end stars).

``view_board(view_state, viewer)`` is what changes: the five pencils (rolled faces, in the middle
or taken and by whom), the pencil being drawn, every seat's sheet (each colour's route as the
ordered spaces and connections it was drawn along, recovered treasures, collected coins,
coloured whirlpools, propellers collected and used, boxes coloured per row, stars held), whose
turn it is in words, and the choices of the seat to move, each keyed by the layout element it
targets. It reads only ``view_state`` (Reefs has no hidden information: every sheet is public).
``view_boards(state, viewers)`` makes the boards of several viewers of a position at once: the
board once, then the choices for the seat to move. The boards are made as JSON data directly,
without building (and validating) their models, which remain the schema.

Element ids: a space is its own id (as in move notation: ``c3``, ``in1``); every other element
has a prefix with a ``:`` (which a space id never contains): ``pencil:O``, ``conn:a1-b1``,
``box:orange:0``, ``coin:0``, ``propeller:0``, ``star:two_each``, ``row:orange``. Documented
for front-end authors in ``docs/views/reefs.md``. This module never imports the terminal
renderer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meeple.core.memo import made_once_per
from meeple.core.present import public_boards
from meeple.core.state import CHANCE, Score
from meeple.core.text import subject
from meeple.core.viewmodel import TurnWords
from meeple.games.reefs import moves as mv
from meeple.games.reefs.rules import P_DRAW, P_ROLL, ReefsState
from meeple.games.reefs.sheet import COLOURS, LETTERS, NEUTRAL, Board, direction
from meeple.games.reefs.words import end_reason

LAYOUT_SCHEMA = "reefs-layout/1"
BOARD_SCHEMA = "reefs-board/1"

#: One RGB colour per pencil (O R B G P), readable on dark and light backgrounds; the letter
#: always goes with it (colour-blind mode).
RGB: tuple[str, ...] = ("#d75f00", "#d70000", "#0087ff", "#008700", "#d700d7")
NEUTRAL_RGB = "#8a8a8a"

_MODE_WORDS: dict[int, Mode] = {mv.ANY: "any", mv.STRAIGHT: "straight", mv.PLUS: "4+straight"}
_FACE_LABELS = {
    "1any": "1 any", "2any": "2 any", "3any": "3 any",
    "2straight": "2 straight", "3straight": "3 straight", "4+straight": "4+ straight",
}
#: The score pad rows of ``View.scores[seat].rows`` (``ReefsState.scores``), in pad order.
PAD_ROWS: tuple[str, ...] = (*COLOURS, "coins", "bonus 2 each", "bonus full row", "end grey",
                             "end coins")

#: The score pad's rows in words (the printed pad shows symbols), keyed as in PAD_ROWS.
PAD_LABELS: dict[str, str] = {
    **{c: f"{c.capitalize()} treasures" for c in COLOURS},
    "coins": "Coins",
    "bonus 2 each": "Star: first with 2 boxes in every row",
    "bonus full row": "Star: first full treasure row",
    "end grey": "End star: grey boxes reached",
    "end coins": "End star: last coin box",
}

Colour = Literal["orange", "red", "blue", "green", "purple"]
Mode = Literal["any", "straight", "4+straight"]
Where = Literal["unrolled", "middle", "drawing", "taken"]
Phase = Literal["roll", "take", "draw", "over"]
Source = Literal["face", "propeller", "whirlpool"]
Kind = Literal["space", "entry", "treasure", "coin", "whirlpool", "propeller"]

#: COLOURS, typed for the models.
_COLOUR: tuple[Colour, ...] = ("orange", "red", "blue", "green", "purple")
assert _COLOUR == COLOURS


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------------- the layout


class Face(_Frozen):
    """One of the six faces every pencil has (R1)."""

    id: str = Field(description="the face as written in roll moves: '2any', '4+straight'")
    label: str = Field(description="the face in words: '2 any', '4+ straight'")
    mode: Mode = Field(description="'any' (each step may turn), 'straight' (one direction), "
                                   "'4+straight' (straight, at least 4 steps, stop at will)")
    steps: int = Field(description="steps to draw; for '4+straight' the least number (4)")


class Pencil(_Frozen):
    """One of the five pencils (R1), in roll and score-pad order."""

    id: str = Field(description="element id, 'pencil:O'; the target of its take moves")
    letter: str = Field(description="the colour's letter in moves: O R B G P")
    colour: Colour
    rgb: str = Field(description="a colour to draw it in ('#rrggbb'); always show the letter too")


class Treasure(_Frozen):
    """A treasure printed on a space (R7)."""

    space: str = Field(description="the space it lies on")
    colour: Literal["orange", "red", "blue", "green", "purple", "neutral"] = Field(
        description="the colour whose route recovers it, or 'neutral' (the first route of any "
                    "colour touching it, in that colour)")
    letter: str = Field(description="the colour's letter, 'N' for neutral")
    value: int = Field(description="the number printed on it: boxes it colours in its row")
    rgb: str


class Space(_Frozen):
    """A space (dot) of the lattice."""

    id: str = Field(description="the space id as used in moves ('c3', 'in1'): its element id")
    x: int = Field(description="column, growing to the right (abstract units: 1 per lattice step)")
    y: int = Field(description="row, growing downwards")
    kind: Kind = Field(
        description="what is printed on it: nothing, an entry point, or one item")
    treasure: Treasure | None = Field(default=None, description="the treasure, if kind is "
                                                                "'treasure'")


class Connection(_Frozen):
    """A connection (segment) between two spaces: one line may use it, once (R4)."""

    id: str = Field(description="element id 'conn:<a>-<b>' (the sheet's order of a and b)")
    a: str
    b: str
    dx: int = Field(description="the direction a->b, reduced: x step")
    dy: int = Field(description="the direction a->b, reduced: y step")
    diagonal: bool = Field(description="neither horizontal nor vertical")


class Box(_Frozen):
    """One box of a score row, with the value printed above it."""

    id: str = Field(description="element id: 'box:<colour>:<i>' or 'coin:<i>' (0 = leftmost)")
    value: int
    grey: bool = Field(description="grey-shaded: the game ends once all five rows reach their "
                                   "grey boxes (R11)")


class TreasureRow(_Frozen):
    """A treasure row of the score pad: coloured left to right; scores the value above its last
    coloured box (R9)."""

    id: str = Field(description="element id 'row:<colour>'")
    colour: Colour
    letter: str
    rgb: str
    pad_row: str = Field(description="its key in the view's score pad rows")
    grey: int = Field(description="how many boxes from the left are grey")
    boxes: list[Box]


class CoinRow(_Frozen):
    """The coin row: one box per coin collected (R8); its last box ends the game (R11)."""

    id: str = "row:coins"
    pad_row: str = "coins"
    boxes: list[Box]


class PropellerRow(_Frozen):
    """The propeller boxes (level 3, R13): collected propellers ring a box, left to right; a
    used one fills it in, left to right."""

    id: str = "row:propellers"
    boxes: list[str] = Field(description="element ids 'propeller:<i>', one per propeller space")


class Star(_Frozen):
    """A bonus star of the pad (R10)."""

    id: str = Field(description="element id: 'star:two_each', 'star:full_row', "
                                "'star:end_grey', 'star:end_coins'")
    kind: Literal["first", "end"] = Field(description="'first': the first seat to reach it "
                                                      "(one seat only); 'end': for the seat "
                                                      "that ends the game that way")
    points: int
    pad_row: str = Field(description="its key in the view's score pad rows")
    text: str = Field(description="what earns it, in words")


class Bounds(_Frozen):
    """The smallest box around every space: draw in [min_x, max_x] x [min_y, max_y]."""

    min_x: int
    min_y: int
    max_x: int
    max_y: int


class ScoreRowLabel(_Frozen):
    """How one score-pad row reads, in words."""

    key: str = Field(description="the row's key in the view's scores rows")
    label: str


class ReefsLayout(_Frozen):
    """What never changes at a Reefs table: the sheet as printed. Sent once per table."""

    schema_: str = Field(LAYOUT_SCHEMA, alias="schema", description="this format's version")
    game: Literal["reefs"] = "reefs"
    level: int = Field(description="the variant's level (1 to 3)")
    sheet: str = Field(description="the sheet's name")
    title: str = Field(description="the sheet's title, to print above it")
    reconstructed: bool = Field(description="the layout is a reconstruction, not the printed "
                                            "sheet (then ``note`` says so)")
    note: str
    bounds: Bounds
    spaces: list[Space] = Field(description="every space, in the sheet's order")
    connections: list[Connection]
    entry_points: list[str] = Field(description="the entry points' space ids, in sheet order")
    treasures: list[Treasure]
    coins: list[str] = Field(description="space ids holding a coin")
    whirlpools: list[str] = Field(description="space ids holding a whirlpool (level 2)")
    propellers: list[str] = Field(description="space ids holding a propeller (level 3)")
    pencils: list[Pencil]
    faces: list[Face]
    treasure_rows: list[TreasureRow] = Field(description="one per colour, in pad order O R B G P")
    coin_row: CoinRow
    propeller_row: PropellerRow | None = Field(description="null for a sheet without propellers")
    stars: list[Star] = Field(description="the two 'first to' stars, then the two end stars")
    grey_end: bool = Field(description="the grey-boxes end condition exists (some row has a grey "
                                       "box)")
    pad_rows: list[str] = Field(description="the score pad rows in printed order (the keys of "
                                            "the view's scores rows)")
    end_text: str = Field(description="how the game ends, in words")
    score_rows: list[ScoreRowLabel] = Field(description="the score pad rows in printed order, "
                                                        "each with its label in words")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _treasure(b: Board, t: int, space: str) -> Treasure:
    c = b.treasure_colour[t]
    return Treasure(space=space, colour="neutral" if c == NEUTRAL else _COLOUR[c],
                    letter="N" if c == NEUTRAL else LETTERS[c], value=b.treasure_value[t],
                    rgb=NEUTRAL_RGB if c == NEUTRAL else RGB[c])


def _conn_id(a: str, b: str) -> str:
    return f"conn:{a}-{b}"


def build_layout(state: ReefsState) -> ReefsLayout:
    """The layout model of ``state``'s sheet."""
    b = state.board
    sh = b.sheet
    treasures = [_treasure(b, t, tr.space) for t, tr in enumerate(sh.treasures)]
    grey_end = any(b.row_grey)
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    end = "the game ends at once when a player has coloured "
    end += ("the grey boxes of all five treasure rows or the last coin box" if grey_end
            else "the last coin box")
    end += ", or when no sheet can draw another step"
    return ReefsLayout(
        schema=LAYOUT_SCHEMA, level=state.level, sheet=sh.name, title=sh.title or sh.name,
        reconstructed=sh.reconstructed, note=sh.note,
        bounds=Bounds(min_x=min(xs), min_y=min(ys), max_x=max(xs), max_y=max(ys)),
        spaces=_spaces(b, treasures), connections=_connections(b),
        entry_points=list(sh.entry_points),
        treasures=treasures, coins=list(sh.coins), whirlpools=list(sh.whirlpools),
        propellers=list(sh.propellers),
        pencils=[Pencil(id=f"pencil:{LETTERS[c]}", letter=LETTERS[c], colour=_COLOUR[c],
                        rgb=RGB[c]) for c in range(5)],
        faces=[Face(id=f, label=_FACE_LABELS[f], mode=_MODE_WORDS[m], steps=n)
               for f, m, n in mv.FACES],
        treasure_rows=_treasure_rows(b),
        coin_row=CoinRow(boxes=[Box(id=f"coin:{i}", value=v, grey=False)
                                for i, v in enumerate(b.coin_values)]),
        propeller_row=PropellerRow(boxes=[f"propeller:{i}" for i in range(b.n_props)])
        if b.n_props else None,
        stars=_stars(b), grey_end=grey_end, pad_rows=list(PAD_ROWS), end_text=end,
        score_rows=[ScoreRowLabel(key=r, label=PAD_LABELS[r]) for r in PAD_ROWS],
    )


def _spaces(b: Board, treasures: list[Treasure]) -> list[Space]:
    """The sheet's spaces with their kind (entry, coin, whirlpool, propeller, treasure or a
    plain space) and treasure."""
    sh = b.sheet
    by_space = {t.space: t for t in treasures}
    kinds: dict[str, Kind] = {e: "entry" for e in sh.entry_points}
    kinds.update({c: "coin" for c in sh.coins})
    kinds.update({w: "whirlpool" for w in sh.whirlpools})
    kinds.update({p: "propeller" for p in sh.propellers})
    kinds.update({t.space: "treasure" for t in treasures})
    return [Space(id=sp.id, x=sp.x, y=sp.y, kind=kinds.get(sp.id, "space"),
                  treasure=by_space.get(sp.id)) for sp in sh.spaces]


def _connections(b: Board) -> list[Connection]:
    """The connections with their direction (diagonals marked)."""
    conns = []
    for a, c in b.conns:
        dx, dy = direction(b.xy[a], b.xy[c])
        conns.append(Connection(id=_conn_id(b.ids[a], b.ids[c]), a=b.ids[a], b=b.ids[c],
                                dx=dx, dy=dy, diagonal=dx != 0 and dy != 0))
    return conns


def _treasure_rows(b: Board) -> list[TreasureRow]:
    """The score pad's five treasure rows with their values and grey boxes."""
    return [TreasureRow(
        id=f"row:{COLOURS[c]}", colour=_COLOUR[c], letter=LETTERS[c], rgb=RGB[c],
        pad_row=COLOURS[c], grey=b.row_grey[c],
        boxes=[Box(id=f"box:{COLOURS[c]}:{i}", value=v, grey=i < b.row_grey[c])
               for i, v in enumerate(b.row_values[c])]) for c in range(5)]


def _stars(b: Board) -> list[Star]:
    """The bonus stars (first to reach) and the end stars, with their points."""
    bonus = b.bonus
    return [
        Star(id="star:two_each", kind="first", points=bonus.two_each, pad_row="bonus 2 each",
             text="the first to colour 2 boxes in every treasure row"),
        Star(id="star:full_row", kind="first", points=bonus.full_row, pad_row="bonus full row",
             text="the first to colour a whole treasure row"),
        Star(id="star:end_grey", kind="end", points=bonus.end_grey, pad_row="end grey",
             text="ending the game by reaching the grey boxes of all five treasure rows"),
        Star(id="star:end_coins", kind="end", points=bonus.end_coins, pad_row="end coins",
             text="ending the game by colouring the last coin box"),
    ]


def view_layout(state: ReefsState) -> dict[str, Any]:
    """What never changes at this table, as JSON-able data (:class:`ReefsLayout`)."""
    return build_layout(state).model_dump(mode="json", by_alias=True)


# ---------------------------------------------------------------------- the board


class PencilState(_Frozen):
    """Where one pencil is this round."""

    id: str = Field(description="its layout element, 'pencil:O'")
    letter: str
    colour: Colour
    where: Where = Field(
        description="'unrolled': not yet rolled this round; 'middle': can be taken; "
                    "'drawing': taken and being drawn now; 'taken': drawn (or forfeited) "
                    "this round")
    face: str | None = Field(description="the face rolled ('2any'), null if not rolled yet")
    face_label: str | None
    holder: int | None = Field(description="the seat that took it this round, else null")
    propeller: bool = Field(description="taken with a propeller: 3 any steps instead of the face")


class Drawing(_Frozen):
    """The pencil being drawn now, by the seat to move."""

    seat: int
    pencil: str = Field(description="the pencil's letter")
    colour: Colour
    mode: Mode = Field(description="how the next step may go")
    source: Source = Field(
        description="why this mode: the pencil's face, a propeller used (3 any), or a whirlpool "
                    "reached (3 any from it, R12)")
    steps_left: int | None = Field(description="steps still to draw ('any'/'straight'); null for "
                                               "'4+straight'")
    steps_drawn: int = Field(description="steps drawn in this mode so far (for '4+straight': at "
                                         "least 4 before it may stop)")
    direction: list[int] | None = Field(description="[dx, dy] a straight line keeps, once its "
                                                    "first step is drawn; else null")
    route_started: bool = Field(description="false: the next choice is an entry point")
    at: str | None = Field(description="the route's end (where the next step starts), or null")
    can_stop: bool
    can_forfeit: bool
    next_spaces: list[str] = Field(
        description="the spaces the pencil may go to next, in the order of the legal moves: "
                    "the free entry points while the route has not started, else the spaces "
                    "one step from its end; empty when it can only stop or be forfeited. The "
                    "same for every viewer (``choices`` are only the mover's)")


class Route(_Frozen):
    """One colour's route on a sheet (R3): a single line from its entry point."""

    pencil: str = Field(description="the colour's letter")
    colour: Colour
    entry: str | None = Field(description="the entry point it started at; null if not started")
    spaces: list[str] = Field(description="the spaces in drawing order, the entry point first "
                                          "and the free end last; a space may appear twice (a "
                                          "route may cross itself)")
    connections: list[str] = Field(description="the connections drawn, in order: "
                                               "connections[i] joins spaces[i] and spaces[i+1]")
    end: str | None = Field(description="the free end the route continues from")


class RecoveredTreasure(_Frozen):
    space: str
    colour: Colour = Field(description="the route colour that recovered it")


class RowState(_Frozen):
    """One treasure row of a seat's pad."""

    id: str = Field(description="the layout row, 'row:orange'")
    colour: Colour
    boxes: int = Field(description="boxes coloured, from the left (box:<colour>:0 .. boxes-1)")
    grey_reached: bool = Field(description="every grey box of the row is coloured")
    full: bool
    score: int = Field(description="the value above the last coloured box (R9), 0 if none")


class SeatBoard(_Frozen):
    """One seat's sheet and pad, as everyone sees them."""

    seat: int
    name: str
    total: int
    routes: list[Route] = Field(description="one per colour, O R B G P")
    treasures: list[RecoveredTreasure] = Field(description="treasures recovered, in sheet order")
    coins: list[str] = Field(description="coin spaces collected (in sheet order)")
    coin_boxes: int = Field(description="coin boxes coloured (coin:0 .. coin_boxes-1)")
    coin_score: int
    whirlpools: list[str] = Field(description="whirlpools coloured")
    propellers: list[str] = Field(description="propeller spaces collected")
    propellers_collected: int = Field(description="boxes ringed: propeller:0 .. collected-1")
    propellers_used: int = Field(description="boxes filled in: propeller:0 .. used-1")
    rows: list[RowState] = Field(description="the treasure rows, O R B G P")
    stars: list[str] = Field(description="the star ids this seat holds")
    stuck: bool = Field(description="no colour of this sheet can draw a step any more (R15)")


class StarHolder(_Frozen):
    id: str = Field(description="the layout star")
    holder: int | None = Field(description="the seat holding it, null while open")


class Choice(_Frozen):
    """One legal move of the seat to move, keyed by what to click."""

    move: str = Field(description="the move's canonical text, to send")
    target: str | None = Field(description="the layout element to click, or null (a button)")
    kind: Literal["pencil", "propeller", "entry", "step", "stop", "forfeit"]
    label: str = Field(description="words for a button or a tooltip")


class ReefsBoard(TurnWords):
    """What changes at a Reefs table, as one viewer sees it (every sheet is public)."""

    schema_: str = Field(BOARD_SCHEMA, alias="schema", description="this format's version")
    round: int = Field(description="rolls so far (1 in the first round)")
    phase: Phase = Field(
        description="'roll': pencils being rolled (chance); 'take': the seat to move takes a "
                    "pencil; 'draw': it draws the pencil taken; 'over'")
    roller: int = Field(description="the seat that rolls and takes first this round")
    to_move: int | None = Field(description="the seat to move, null while rolling or once over")
    pencils: list[PencilState] = Field(description="the five pencils, O R B G P")
    drawing: Drawing | None
    seats: list[SeatBoard]
    stars: list[StarHolder] = Field(description="every star of the layout with its holder")
    ended_by: int | None = Field(description="the seat that ended the game (R11), else null")
    end_reason: str | None = Field(description="why the game ended, in words, once over")
    choices: list[Choice] = Field(description="the legal moves, only for the seat to move "
                                              "viewing; empty otherwise and while rolling")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


#: The games whose latest walks a board keeps (the tables being shown at once), and the
#: walks kept per game (its position and a preview of its seat's turn, shown in turn).
WALKED_GAMES = 256
WALKS_PER_GAME = 3
#: The seat boards a board keeps, by what they show.
SEAT_BOARDS = 4096


class _BoardCache:
    """What the board views need of a compiled sheet, made once per board; and what the
    views of its games made last, so that the next view of a game does only what its new
    moves changed (:func:`_walk_of`, :func:`_seat_board`)."""

    def __init__(self, b: Board) -> None:
        self.conn_ids = tuple(_conn_id(b.ids[a], b.ids[c]) for a, c in b.conns)
        self.pencil_ids = tuple(f"pencil:{L}" for L in LETTERS)
        #: by game (seed, seats): its latest walks, each with the log it walked
        self.walks: OrderedDict[tuple[int, int], list[_Walked]] = OrderedDict()
        #: seat boards by everything they are made from (see :func:`_seat_board`)
        self.seat_boards: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self.lock = threading.Lock()  # views may be made on several threads


#: The :class:`_BoardCache` of a board, made once per board.
_cache: Callable[[Board], _BoardCache] = made_once_per(_BoardCache)


class _Walk:
    """What the move log says beyond the marks: the order of each route, this round's takes,
    the face of each pencil, and why the pencil being drawn has its mode. Made by walking the
    log move by move (:meth:`take`); a walk kept for a view is only read, and copied before it
    walks further (:func:`_walk_of`)."""

    __slots__ = ("colour", "conns", "faces", "holder", "mode_steps", "prop", "source",
                 "spaces", "whirled")

    def __init__(self, players: int) -> None:
        self.spaces: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(players)]
        self.conns: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(players)]
        self.faces: list[int] = [-1] * 5
        self.holder: list[int] = [-1] * 5
        self.prop: list[bool] = [False] * 5
        self.source: Source = "face"
        self.mode_steps = 0  # steps drawn since the mode was last set
        self.whirled: list[set[int]] = [set() for _ in range(players)]
        self.colour = [-1] * players  # the pencil each seat took this round

    def copy(self) -> _Walk:
        c = _Walk.__new__(_Walk)
        c.spaces = [[route[:] for route in seat] for seat in self.spaces]
        c.conns = [[route[:] for route in seat] for seat in self.conns]
        c.faces = self.faces[:]
        c.holder = self.holder[:]
        c.prop = self.prop[:]
        c.source = self.source
        c.mode_steps = self.mode_steps
        c.whirled = [w.copy() for w in self.whirled]
        c.colour = self.colour[:]
        return c

    def take(self, b: Board, mover: int, move: mv.ReefsMove) -> None:
        """Walk one more move of the log."""
        kind = move.kind
        if kind == mv.ROLL:
            if move.a == 0:
                self.holder = [-1] * 5
                self.prop = [False] * 5
            self.faces[move.a] = move.b
        elif kind == mv.TAKE:
            self.colour[mover] = move.a
            self.holder[move.a] = mover
            self.prop[move.a] = move.b == 1
            self.source = "propeller" if move.b == 1 else "face"
            self.mode_steps = 0
        elif kind == mv.ENTER:
            self.spaces[mover][self.colour[mover]] = [move.a]
        elif kind == mv.STEP:
            colour = self.colour[mover]
            route = self.spaces[mover][colour]
            if route:
                self.conns[mover][colour].append(b.link[route[-1]][move.a][2])
            route.append(move.a)
            self.mode_steps += 1
            whirled = self.whirled[mover]
            if (b.whirl_mask >> move.a) & 1 and move.a not in whirled:
                whirled.add(move.a)
                self.source = "whirlpool"
                self.mode_steps = 0


#: A walk kept for a game: the log it walked (who moved in which turn, the moves), the walk.
_Walked = tuple[list[tuple[int, int]], list[mv.ReefsMove], _Walk]


def _walk_of(state: ReefsState, cache: _BoardCache) -> _Walk:
    """The walk of ``state``'s whole log: the longest walk kept for its game whose log
    ``state``'s starts with, walked on over the moves since; the whole log where none is kept
    (a game not shown lately, or a log taken back). A walk depends on the log alone, so one
    continued from a kept walk is the one the whole log gives. Read it, never change it."""
    key = (state.seed, state.players)
    n = state.moves_played()
    with cache.lock:
        kept = list(cache.walks.get(key, ()))
    base: _Walked | None = None
    for walked in kept:
        done = len(walked[1])
        if (done <= n and (base is None or done > len(base[1]))
                and state.log_prefix(done) == (walked[0], walked[1])):
            base = walked
    if base is not None and len(base[1]) == n:
        return base[2]
    walk = base[2].copy() if base is not None else _Walk(state.players)
    b = state.board
    for mover, move in state.log_since(len(base[1]) if base is not None else 0):
        walk.take(b, mover, move)
    movers, moves = state.log_prefix(n)
    with cache.lock:
        walks = cache.walks.setdefault(key, [])
        walks.append((movers, moves, walk))
        del walks[:-WALKS_PER_GAME]
        cache.walks.move_to_end(key)
        while len(cache.walks) > WALKED_GAMES:
            cache.walks.popitem(last=False)
    return walk


def _route_from_marks(b: Board, owner: bytes | bytearray, c: int,
                      entry: int) -> tuple[list[int], list[int]]:
    """A route's spaces and connections from the sheet's marks alone (a position set up
    without its moves): a trail from the entry point to the end over the connections of colour
    ``c`` (Hierholzer). Where a route crossed itself the order of its loops is one of those
    that draw the same line; the trail ends at the route's end, the only other space where an
    odd number of its connections meet."""
    inc: dict[int, list[tuple[int, int]]] = {}
    for ci, o in enumerate(owner):
        if o == c + 1:
            a, w = b.conns[ci]
            inc.setdefault(a, []).append((ci, w))
            inc.setdefault(w, []).append((ci, a))
    for lst in inc.values():
        lst.reverse()  # pop() then takes the sheet's first connection first
    used: set[int] = set()
    stack: list[tuple[int, int]] = [(entry, -1)]
    spaces: list[int] = []
    conns: list[int] = []
    while stack:
        v, via = stack[-1]
        edges = inc.get(v, [])
        while edges and edges[-1][0] in used:
            edges.pop()
        if edges:
            ci, w = edges.pop()
            used.add(ci)
            stack.append((w, ci))
        else:
            stack.pop()
            spaces.append(v)
            if via >= 0:
                conns.append(via)
    spaces.reverse()
    conns.reverse()
    return spaces, conns


def _face_label(f: int) -> str:
    return _FACE_LABELS[mv.FACES[f][0]]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _public(state: ReefsState) -> dict[str, Any]:
    """The board of ``state`` (a ``state.seen_by(...)``) as every viewer sees it, as the JSON
    data of :class:`ReefsBoard` (its models are not built: made here, the data is valid):
    ``choices`` empty."""
    b = state.board
    cache = _cache(b)
    walk = _walk_of(state, cache)
    scores = state.scores()
    over = state.over
    phase: Phase = "over" if over else "roll" if state.phase == P_ROLL else (
        "draw" if state.phase == P_DRAW else "take")
    to_move = state.to_move
    seat_to_move = None if to_move is None or to_move == CHANCE else to_move
    ender = state.ender if over and state.ender >= 0 else -1
    holders = _star_holders(state, ender)
    seats = [_seat_board(state, s, cache, walk, scores[s], [k for k, h in holders.items() if h == s])
             for s in range(len(state.sheets))]
    sentence, doing, result = _words(state, phase, walk)
    return {
        "sentence": sentence, "doing": doing, "result_text": result, "schema": BOARD_SCHEMA,
        "round": state.rounds, "phase": phase, "roller": state.roller, "to_move": seat_to_move,
        "pencils": _pencil_states(state, cache, walk, phase),
        "drawing": _drawing(state, walk) if phase == "draw" else None, "seats": seats,
        "stars": [{"id": k, "holder": h if h >= 0 else None} for k, h in holders.items()],
        "ended_by": ender if ender >= 0 else None,
        "end_reason": end_reason(state, cite=False) if over else None,
        "choices": [],
    }


def _board(public: dict[str, Any], state: ReefsState, viewer: int | None) -> dict[str, Any]:
    """The board ``public`` (:func:`_public` of ``state``) as ``viewer`` sees it: with the
    choices of the seat to move when it is the viewer."""
    if viewer is None or viewer != public["to_move"]:
        return public
    return {**public, "choices": _choices(state)}


def _pencil_states(state: ReefsState, cache: _BoardCache, walk: _Walk,
                   phase: Phase) -> list[dict[str, Any]]:
    """Where each pencil is (unrolled, in the middle, being drawn, taken) and its face."""
    over = state.over
    pencils = []
    for c in range(5):
        f = state.middle[c]
        holder = walk.holder[c]
        where: Where
        if f >= 0:
            where, holder, face = "middle", -1, f
        elif c == state.pc and not over:
            where, face = "drawing", walk.faces[c]
            holder = state.seat
        elif phase == "roll" or holder < 0:
            where, holder, face = "unrolled", -1, -1
        else:
            where, face = "taken", walk.faces[c]
        pencils.append({
            "id": cache.pencil_ids[c], "letter": LETTERS[c], "colour": _COLOUR[c],
            "where": where, "face": mv.FACES[face][0] if face >= 0 else None,
            "face_label": _face_label(face) if face >= 0 else None,
            "holder": holder if holder >= 0 else None,
            "propeller": where in ("drawing", "taken") and walk.prop[c]})
    return pencils


def _drawing(state: ReefsState, walk: _Walk) -> dict[str, Any]:
    """The pencil being drawn: its mode, the steps drawn and left, where its route ends."""
    b = state.board
    c = state.pc
    sh = state.sheets[state.seat]
    started = sh.entry[c] >= 0
    source: Source = walk.source
    steps_left: int | None
    if state.pmode == mv.PLUS:
        steps_left, drawn, source = None, state.prem, "face"
    else:
        steps_left = state.prem
        if source != "face":
            total = mv.PROPELLER_STEPS  # a propeller's or a whirlpool's 3 any steps
        else:
            total = mv.FACES[walk.faces[c]][2] if walk.faces[c] >= 0 else steps_left
        drawn = max(0, total - steps_left)
    d = b.directions[state.pdir] if state.pdir >= 0 else None
    return {
        "seat": state.seat, "pencil": LETTERS[c], "colour": _COLOUR[c],
        "mode": _MODE_WORDS[state.pmode], "source": source,
        "steps_left": steps_left, "steps_drawn": drawn,
        "direction": list(d) if d is not None else None, "route_started": started,
        "at": b.ids[sh.end[c]] if started else None,
        "can_stop": state.pmode == mv.PLUS and state.prem >= mv.PLUS_MIN,
        "can_forfeit": not state.pdrawn,
        "next_spaces": [b.ids[m.a] for m in state.legal_moves() if m.kind in (mv.STEP, mv.ENTER)]}


def _star_holders(state: ReefsState, ender: int) -> dict[str, int]:
    """Who holds each bonus star (-1: no one): the "first to" ones, and the end bonuses the
    seat that ended the game (``ender``) took."""
    return {
        "star:two_each": state.two_each_holder,
        "star:full_row": state.full_row_holder,
        "star:end_grey": ender if state.end_grey else -1,
        "star:end_coins": ender if state.end_coins else -1,
    }


def _seat_board(state: ReefsState, s: int, cache: _BoardCache, walk: _Walk, score: Score,
                stars: list[str]) -> dict[str, Any]:
    """Seat ``s``'s sheet (:func:`_make_seat_board`), the same object for as long as what it
    shows is the same: a move changes one seat's sheet, so the other seats' boards are those
    of the view before, which the diff of an update then passes over at once (an unchanged
    part compares equal by identity)."""
    sh = state.sheets[s]
    key = (s, state.seats[s], sh.key(), sh.stuck, score.total,
           tuple(score.breakdown.items()), tuple(stars),
           tuple(map(tuple, walk.spaces[s])), tuple(map(tuple, walk.conns[s])))
    with cache.lock:
        made = cache.seat_boards.get(key)
        if made is not None:
            cache.seat_boards.move_to_end(key)
            return made
    made = _make_seat_board(state, s, cache, walk, score, stars)
    with cache.lock:
        cache.seat_boards[key] = made
        while len(cache.seat_boards) > SEAT_BOARDS:
            cache.seat_boards.popitem(last=False)
    return made


def _make_seat_board(state: ReefsState, s: int, cache: _BoardCache, walk: _Walk,
                     score: Score, stars: list[str]) -> dict[str, Any]:
    """Seat ``s``'s sheet: its routes, treasures, coins, whirlpools, propellers and rows."""
    b = state.board
    ids = b.ids
    sh = state.sheets[s]
    routes: list[dict[str, Any]] = []
    for c in range(5):
        e = sh.entry[c]
        if e < 0:
            routes.append({"pencil": LETTERS[c], "colour": _COLOUR[c], "entry": None,
                           "spaces": [], "connections": [], "end": None})
            continue
        sp, cs = walk.spaces[s][c], walk.conns[s][c]
        if not sp or sp[0] != e or sp[-1] != sh.end[c] or not _marks_agree(sh.owner, c, cs):
            sp, cs = _route_from_marks(b, sh.owner, c, e)
        routes.append({
            "pencil": LETTERS[c], "colour": _COLOUR[c], "entry": ids[e],
            "spaces": [ids[i] for i in sp], "connections": [cache.conn_ids[i] for i in cs],
            "end": ids[sh.end[c]]})
    rows = []
    for c in range(5):
        n = sh.boxes[c]
        rows.append({"id": f"row:{COLOURS[c]}", "colour": _COLOUR[c], "boxes": n,
                     "grey_reached": n >= b.row_grey[c], "full": n >= b.row_len[c],
                     "score": score.breakdown[COLOURS[c]]})
    return {
        "seat": s, "name": state.seats[s], "total": score.total, "routes": routes,
        "treasures": [{"space": ids[_treasure_space(b, t)], "colour": _COLOUR[got]}
                      for t, got in enumerate(sh.treasure) if got >= 0],
        "coins": _mask_ids(b, sh.coins_taken), "coin_boxes": sh.coins,
        "coin_score": score.breakdown["coins"],
        "whirlpools": _mask_ids(b, sh.whirls), "propellers": _mask_ids(b, sh.props_taken),
        "propellers_collected": sh.props, "propellers_used": sh.props_used, "rows": rows,
        "stars": stars, "stuck": sh.stuck}


def _marks_agree(owner: bytes | bytearray, c: int, conns: list[int]) -> bool:
    return all(owner[ci] == c + 1 for ci in conns) and owner.count(c + 1) == len(conns)


def _treasure_space(b: Board, t: int) -> int:
    return b.index[b.sheet.treasures[t].space]


def _mask_ids(b: Board, mask: int) -> list[str]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(b.ids[i])
        mask >>= 1
        i += 1
    return out


def _words(state: ReefsState, phase: str, walk: _Walk) -> tuple[str, str, str]:
    """The board's ``sentence``, ``doing`` and ``result_text``."""
    if phase == "over":
        why = end_reason(state, cite=False)
        return f"Game over: {why}.", "", f"{_cap(why)}."
    if phase == "roll":
        return (f"Rolling the pencils for {state.seats[state.roller]} "
                f"({state.rolled} of 5 rolled)."), "", ""
    who = state.seats[state.seat]
    if phase == "take":
        return (f"{_cap(subject(who, 'takes'))} a pencil from the middle.",
                "take a pencil from the middle", "")
    c = state.pc
    sh = state.sheets[state.seat]
    colour = COLOURS[c]
    if state.pmode == mv.PLUS:
        what = f"4+ straight, {state.prem} drawn"
    else:
        kind = "any" if state.pmode == mv.ANY else "straight"
        what = f"{state.prem} {kind} {'step' if state.prem == 1 else 'steps'} to go"
    extra = {"propeller": " with a propeller", "whirlpool": " after a whirlpool"}.get(
        walk.source, "") if state.pmode != mv.PLUS else ""
    where = (f"from {state.board.ids[sh.end[c]]}" if sh.entry[c] >= 0
             else "starting at an entry point")
    return (f"{_cap(subject(who, 'is'))} drawing {colour}{extra}: {what}, {where}.",
            f"draw {colour}{extra}: {what}, {where}", "")


def _choice(move: str, target: str | None, kind: str, label: str) -> dict[str, Any]:
    """A :class:`Choice` as JSON data."""
    return {"move": move, "target": target, "kind": kind, "label": label}


def _choices(state: ReefsState) -> list[dict[str, Any]]:
    """Every legal move of the seat to move, once each, keyed by the element to click."""
    return [c for m in state.legal_moves() if (c := _choice_of(state, m)) is not None]


def _choice_of(state: ReefsState, m: mv.ReefsMove) -> dict[str, Any] | None:
    """The choice a legal decision of the seat to move is, with its words (None: a roll)."""
    b = state.board
    kind = m.kind
    text = str(m)
    if kind == mv.TAKE:
        c = m.a
        face = _face_label(state.middle[c])
        if m.b == 1:
            return _choice(text, f"pencil:{LETTERS[c]}", "propeller",
                           f"take {COLOURS[c]} and use a propeller: 3 any steps instead of {face}")
        return _choice(text, f"pencil:{LETTERS[c]}", "pencil", f"take {COLOURS[c]} ({face})")
    if kind == mv.ENTER:
        return _choice(text, b.ids[m.a], "entry", f"start {COLOURS[state.pc]} at {b.ids[m.a]}")
    if kind == mv.STEP:
        return _choice(text, b.ids[m.a], "step", f"{COLOURS[state.pc]} to {b.ids[m.a]}")
    if kind == mv.STOP:
        return _choice(text, None, "stop", f"stop {COLOURS[state.pc]} here ({state.prem} steps)")
    if kind == mv.FORFEIT:
        return _choice(text, None, "forfeit", f"forfeit {COLOURS[state.pc]}: draw nothing with it")
    return None


def describe(state: ReefsState, move: mv.ReefsMove) -> str:
    """``PRESENTATION.describe``: ``move`` played from ``state`` in words, as its choice says
    it ("take orange (2 any)", "orange to c3"); a roll: "the orange pencil shows 2 any"."""
    if move.kind == mv.ROLL:
        return f"the {COLOURS[move.a]} pencil shows {_face_label(move.b)}"
    choice = _choice_of(state, move)
    return str(choice["label"]) if choice is not None else str(move)


def view_board(state: ReefsState, viewer: int | None) -> dict[str, Any]:
    """What changes at this table, as ``viewer`` sees it (:class:`ReefsBoard`), JSON-able."""
    return _board(_public(state), state, viewer)


def view_boards(state: ReefsState,
                viewers: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``PRESENTATION.view_boards``: one board for all (every sheet is public)."""
    return public_boards(state, viewers, _public, _board)
