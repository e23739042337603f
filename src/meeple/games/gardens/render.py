"""Terminal drawing of Gardens as Rich markup, read from a seat's view and the table's layout.

Everything drawn comes from the two things a client of a server also holds: the layout (the
sheet's hex fields, gardens, fountain, flowers, trees and the printed score area) and the
per-seat view (its ``board``: every seat's marks, the pencils, the pencil in hand; its score
rows, seats and winners). Nothing here reads the engine, so ``meeple join`` draws the very
screen ``meeple play`` does. Markup is built as plain strings (no Rich import).

The screen, top to bottom (the sheet and whose turn come last, nearest the prompt):

- the score pad of the seat the screen is about, as printed (:func:`draw_pad`): coloured boxes
  ``[n]``, the next box to colour ``>n<``, empty boxes ``n``, each row's star and how close it
  is, the pencil symbols crossed, the bonus goals with who took them, the largest area; then
  every seat's total when several play;
- a table of the gardens (:func:`draw_gardens`): each garden's letter and size, and per seat
  the fields still free or how the garden was completed;
- the sheet (:func:`draw_sheet`): rows of hex fields, each row half a field off the next, with
  lines between fields of different gardens and round the play area, so every garden keeps its
  shape all game; each field carries its garden's letter on the right. A free field shows its
  id (``D4``), underlined when the pencil in hand may colour it next; a coloured field shows
  its colour's letter on its colour (O R G B P, the rulebook's colour-blind tip), ``+`` beside
  it for the fields of the pencil in hand. ``*O`` is a flower of colour O, ``^`` a tree,
  ``~~~`` the fountain. Every style sets background and foreground both, so the sheet reads
  the same on dark and light terminals; letters are always drawn (``colourblind`` changes
  nothing);
- whose turn it is and what they do (:func:`draw_status`), or how the game ended.

:func:`draw` is the screen (``Presentation.draw``), :func:`draw_score` every seat's pad and
the totals (``Presentation.draw_score``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from meeple.core.text import possessive, subject
from meeple.core.viewmodel import View
from meeple.games.gardens.boards import (
    ColourBoxArea,
    GardenMark,
    GardensBoard,
    GardensLayout,
    Goal,
    ScoreArea,
    SeatBoard,
)
from meeple.games.gardens.words import fields

#: A coloured field, a coloured score box, a pencil in the middle: letter on its colour.
STYLE = {
    "orange": "bold black on dark_orange",
    "red": "bold bright_white on red3",
    "green": "bold black on green3",
    "blue": "bold bright_white on dodger_blue3",
    "purple": "bold bright_white on magenta3",
}
FOUNTAIN_STYLE = "bold black on cyan3"

_TAG = re.compile(r"(?<!\\)\[[a-z#/@][^\[\]]*\]")
LB = "\\["  # a literal "[" in Rich markup

CELL = 8  # columns per field: one border column and seven of content
HALF = CELL // 2
OUTSIDE = -1
FOUNTAIN = -2  # the region of every fountain space; in the grid a fountain space is n + k

LEGEND = ("O orange  R red  G green  B blue  P purple  O+ this pencil  *X flower X  ^ tree\n"
          "~~~ fountain   a, b, ...: each field's garden   lines: borders  "
          "[underline]underlined[/]: open")

PAD_WIDTH = 74  # points column ends here; fits an 80-column terminal


def esc(text: str) -> str:
    """``text`` (a seat or sheet name) shown as is inside Rich markup."""
    return text.replace("[", LB)


def plain_length(markup: str) -> int:
    """The printed width of a line of markup (tags removed, escapes resolved)."""
    return len(_TAG.sub("", markup).replace(LB, "["))


@dataclass(frozen=True)
class Table:
    """What one screen is drawn from: the table's layout, the view and its board, parsed."""

    layout: GardensLayout
    board: GardensBoard
    view: View

    @classmethod
    def read(cls, layout: Mapping[str, Any], view: View) -> Table:
        return cls(GardensLayout.model_validate(layout), GardensBoard.model_validate(view.board),
                   view)

    def name(self, seat: int) -> str:
        return self.view.seats[seat].name

    def marks(self, seat: int) -> SeatBoard:
        return self.board.seats[seat]

    def letter(self, colour: str) -> str:
        """The letter of a colour, by its name."""
        return next(c.letter for c in self.layout.colours if c.name == colour)

    def holder(self, goal: str) -> int | None:
        """The seat that took bonus goal ``goal`` (a layout goal id), or None."""
        return next(g.holder for g in self.board.goals if g.id == goal)

    def sheet_seat(self, seat: int | None) -> int:
        """The seat whose sheet is drawn: ``seat``, else the seat to move (once over: the seat
        whose move ended the game)."""
        if seat is not None:
            return seat
        shown = self.board.seat if self.board.seat is not None else self.board.ended_by
        assert shown is not None, "a Gardens board names the seat to move or the one that ended"
        return shown


# ---------------------------------------------------------------------------------- the sheet
@dataclass(frozen=True)
class Grid:
    """The sheet as text columns: per hex row (top first) and column, the cell drawn there (a
    field index, ``n + k`` for the k-th fountain space, or OUTSIDE), and per field its garden."""

    rows: tuple[tuple[int, ...], ...]
    garden_of: tuple[int, ...]

    def region(self, cell: int) -> int:
        """What a border separates: a garden index, the fountain, or the outside."""
        if cell == OUTSIDE:
            return OUTSIDE
        return self.garden_of[cell] if cell < len(self.garden_of) else FOUNTAIN


#: A hex drawn on the sheet: (q, r, its cell: a field index, or n + k for a fountain space).
Hexes = tuple[tuple[int, int, int], ...]


def sheet_lines(layout: GardensLayout) -> tuple[Grid, tuple[frozenset[int], ...], tuple[str, ...]]:
    """The sheet's drawing grid, its vertical borders per hex row and the border lines between
    hex rows: the same all game, worked out once per sheet."""
    n = len(layout.fields)
    hexes = tuple((f.q, f.r, i) for i, f in enumerate(layout.fields))
    hexes += tuple((s.q, s.r, n + k) for k, s in enumerate(layout.fountain))
    garden = {g.id: k for k, g in enumerate(layout.gardens)}
    return _sheet_lines(hexes, tuple(garden[f.garden] for f in layout.fields))


@lru_cache(maxsize=16)
def _sheet_lines(hexes: Hexes, garden_of: tuple[int, ...]
                 ) -> tuple[Grid, tuple[frozenset[int], ...], tuple[str, ...]]:
    grid = sheet_grid(hexes, garden_of)
    bars = vertical_borders(grid)
    return grid, bars, border_lines(grid, bars)


def sheet_grid(hexes: Hexes, garden_of: tuple[int, ...]) -> Grid:
    """Lay the fields and fountain spaces out in text columns, a hex row per line."""
    x0 = min(2 * q + r for q, r, _ in hexes)
    x1 = max(2 * q + r for q, r, _ in hexes)
    width = (x1 - x0) * HALF + CELL + 1
    rows = []
    for r in sorted({r for _, r, _ in hexes}):
        line = [OUTSIDE] * width
        for q, rr, i in hexes:
            if rr == r:
                start = (2 * q + r - x0) * HALF
                line[start: start + CELL] = [i] * CELL
        rows.append(tuple(line))
    return Grid(tuple(rows), garden_of)


_JUNCTION = {
    # (up, down, left, right) -> box-drawing character
    (True, True, False, False): "│", (False, False, True, True): "─",
    (True, False, False, False): "│", (False, True, False, False): "│",
    (False, False, True, False): "─", (False, False, False, True): "─",
    (False, True, False, True): "┌", (False, True, True, False): "┐",
    (True, False, False, True): "└", (True, False, True, False): "┘",
    (True, True, False, True): "├", (True, True, True, False): "┤",
    (False, True, True, True): "┬", (True, False, True, True): "┴",
    (True, True, True, True): "┼", (False, False, False, False): " ",
}


def vertical_borders(grid: Grid) -> tuple[frozenset[int], ...]:
    """Per hex row, the text columns where a vertical border is drawn."""
    bars = []
    for line in grid.rows:
        cols = {0} if line[0] != OUTSIDE else set()
        for c in range(1, len(line)):
            left, right = line[c - 1], line[c]
            if left != right and grid.region(left) != grid.region(right):
                cols.add(c)
        bars.append(frozenset(cols))
    return tuple(bars)


def border_lines(grid: Grid, bars: tuple[frozenset[int], ...]) -> tuple[str, ...]:
    """The lines drawn between hex rows, the top edge first and the bottom edge last."""
    width = len(grid.rows[0])
    empty = [OUTSIDE] * width
    gaps = []
    for k in range(len(grid.rows) + 1):
        above = grid.rows[k - 1] if k > 0 else empty
        below = grid.rows[k] if k < len(grid.rows) else empty
        up = bars[k - 1] if k > 0 else frozenset()
        down = bars[k] if k < len(grid.rows) else frozenset()
        horiz = [grid.region(above[c]) != grid.region(below[c]) for c in range(width)]
        chars = []
        for c in range(width):
            u, d = c in up, c in down
            if not u and not d:
                chars.append("─" if horiz[c] else " ")
                continue
            left = c > 0 and horiz[c - 1]
            right = c + 1 < width and horiz[c + 1]
            chars.append(_JUNCTION[(u, d, left, right)])
        gaps.append("".join(chars).rstrip())
    return tuple(gaps)


def field_text(t: Table, seat: int, i: int, garden: int, open_ids: set[str]) -> str:
    """Seven columns of content for field ``i`` on ``seat``'s sheet, as markup: its id (or its
    colour's letter once coloured), its flower or tree, its garden's letter."""
    f = t.layout.fields[i]
    mark = "*" + t.letter(f.flower) if f.flower else " ^" if f.tree else "  "
    label = t.layout.gardens[garden].label
    colour = t.marks(seat).coloured.get(f.id)
    if colour is None:
        text = f"{f.id:<3}{mark}{label:>2}"[:7]
        if f.id in open_ids:
            return f"[underline]{f.id}[/]{text[len(f.id):]}"
        return text
    hand = t.board.hand
    now = hand is not None and hand.seat == seat and f.id in hand.coloured
    main = t.letter(colour) + ("+" if now else "")
    text = f"{main:<3}{mark}{label:>2}"[:7]
    return f"[{STYLE[colour]}]{text}[/]"


def draw_sheet(t: Table, seat: int) -> str:
    """The play sheet of ``seat``: fields, garden borders and letters, flowers, trees, fountain."""
    grid, bars, gaps = sheet_lines(t.layout)
    hand = t.board.hand
    open_ids = set(hand.colourable) if hand is not None and hand.seat == seat else set()
    n = len(grid.garden_of)
    lines = [gaps[0]]
    for k, line in enumerate(grid.rows):
        out = []
        c = 0
        while c < len(line):
            cell = line[c]
            out.append("│" if c in bars[k] else " ")  # a cell's first column is its left border
            if cell == OUTSIDE or (c > 0 and line[c - 1] == cell):
                c += 1
                continue
            if cell >= n:
                out.append(f"[{FOUNTAIN_STYLE}]  ~~~  [/]")
            else:
                out.append(field_text(t, seat, cell, grid.garden_of[cell], open_ids))
            c += CELL
        lines.append("".join(out).rstrip())
        lines.append(gaps[k + 1])
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- gardens
def garden_status(t: Table, mark: GardenMark) -> str:
    """One garden on a seat's sheet: fields still free, or how it was completed: the colour
    letter (one colour), ``5c`` (all five colours) or ``mix`` (completed, no box)."""
    if not mark.completed:
        return str(mark.left)
    if mark.by == "colourful":
        return "5c"
    return "mix" if mark.by == "mixed" or mark.by is None else t.letter(mark.by)


def garden_cell(t: Table, mark: GardenMark) -> str:
    """A seat's cell of the gardens table: its status, on the garden's colour when it has one."""
    status = garden_status(t, mark)
    if mark.by in STYLE:
        return f"  [{STYLE[mark.by]}] {status}[/]"
    if mark.completed:
        return f"[bold]{status:>4}[/]"
    return f"[dim]{status:>4}[/]"


def draw_gardens(t: Table, names_width: int = 11) -> str:
    """A table of every garden: its letter, its size, and per seat what is left or how it was
    completed (the sheet shows where each garden lies)."""
    gardens = t.layout.gardens
    per_table = 16
    names = [esc(t.name(s)[:names_width]) + " " * (names_width - len(t.name(s)[:names_width]))
             for s in range(t.view.players)]
    out = []
    for start in range(0, len(gardens), per_table):
        part = range(start, min(start + per_table, len(gardens)))
        out.append("garden".ljust(names_width) + "".join(f"{gardens[g].label:>4}" for g in part))
        out.append("fields".ljust(names_width) + "".join(f"{gardens[g].size:>4}" for g in part))
        for s in range(t.view.players):
            marks = t.marks(s).gardens
            out.append(names[s] + "".join(garden_cell(t, marks[g]) for g in part))
    out.append("[dim]per seat: fields to go; done: its colour letter, 5c = five colours, "
               "mix = no box[/]")
    return "\n".join(out)


# ---------------------------------------------------------------------------------- status
def draw_game_over(t: Table) -> str:
    """How the game ended, and who won with how many points."""
    totals = [pad.total for pad in t.view.scores]
    winners = t.view.winners
    best = max(totals)
    reason = esc(t.board.end or "the game is over")
    if t.view.players == 1:
        return f"[bold]Game over:[/] {reason}.\nFinal score: {best} points."
    if len(winners) == 1:
        who = f"{esc(t.name(winners[0]))} with {best} points"
    else:
        who = ("tied at " + str(best) + " points, winning together (A4): "
               + ", ".join(esc(t.name(w)) for w in winners))
    return f"[bold]Game over:[/] {reason}.\nWinner: {who}."


def draw_status(t: Table) -> str:
    """Whose turn it is and what they do: roll, take a pencil from the middle (shown with its
    number), or colour with the pencil in hand; or how the game ended."""
    board = t.board
    if board.phase == "over" or board.seat is None:
        return draw_game_over(t)
    name = esc(t.name(board.seat))
    if board.phase == "rolling":
        return f"{subject(name, 'rolls')} the pencils."
    middle = [f"[{STYLE[p.colour]}]{p.letter}{p.face}[/]"
              for p in board.pencils if p.where == "middle"]
    pencils = "middle: " + (" ".join(middle) if middle else "(empty)")
    hand = board.hand
    if hand is None:
        return f"{pencils}\n{possessive(name)} turn: take a pencil."
    done = len(hand.coloured)
    pencil = f"[{STYLE[hand.colour]}]{hand.letter}{hand.face}[/]"
    what = (f"{subject(name, 'holds')} the {hand.colour} pencil {pencil}: "
            f"{done} of {hand.face} coloured, {hand.face - done} to go")
    if not done:
        what += " (or waste it)"
    return f"{pencils}\n{what}"


# ---------------------------------------------------------------------------------- score pad
def _box(text: str, state: str, style: str = "bold", width: int = 2) -> str:
    """A score box: ``[n]`` coloured in, ``>n<`` the next one to colour, `` n `` still empty.
    Every box takes ``width + 3`` columns."""
    if state == "filled":
        return f"[{style}]{LB}{text:>{width}}][/] "
    if state == "next":
        return f"[bold]>{text:>{width}}<[/] "
    return f"[dim] {text:>{width}} [/] "


def _ticked(ticked: int, k: int) -> str:
    """The state of box ``k`` (from 0) of a row ticked from the start ``ticked`` times."""
    return "filled" if ticked > k else "next" if ticked == k else ""


def _star(value: int, got: bool) -> str:
    return f"[bold]★{value} got[/]" if got else f"★{value}"


def _progress(value: int, got: bool, have: int, of: int, missing: str = "") -> str:
    if got:
        return _star(value, True)
    need = f", needs {missing}" if missing else ""
    return f"★{value} {have}/{of}{need}"


def _pad_line(label: str, body: str, points: int | None = None) -> str:
    """One line of the score pad: its label, its boxes and (right-aligned) its points."""
    text = f"{label:<22}{body}"
    if points is not None:
        pts = f"{points:>4}"
        text += " " * max(1, PAD_WIDTH - plain_length(text) - len(pts)) + pts
    return text.rstrip()


def _box_width(score: ScoreArea) -> int:
    """The widest value of the single-colour, colourful and flower boxes."""
    values = [row.value for row in score.single_colour.rows]
    values += [box.value for box in score.colourful.boxes]
    if score.flower_box_value is not None:
        values.append(score.flower_box_value)
    return max(len(str(v)) for v in values)


def draw_pad(t: Table, seat: int) -> str:
    """``seat``'s score pad as printed: every box (coloured ``[n]``, next ``>n<``, empty ``n``),
    each row's star and how close it is, pencil symbols, bonus goals and who took them."""
    score = t.layout.score
    pad = t.view.scores[seat]
    rows = pad.rows
    name = t.name(seat)
    w = _box_width(score)
    out = [f"[bold]{esc(possessive(name))} score pad[/]"
           + " " * max(1, PAD_WIDTH - len(f"{possessive(name)} score pad")
                       - len(f"total {pad.total}"))
           + f"[bold]total {pad.total}[/]"]
    out.append(_pad_line("single-colour gardens",
                         "".join(f" {c.letter:>{w}}  " for c in t.layout.colours) + "row star"))
    out += _single_colour_rows(t, seat, w)
    out.append(_colourful_row(t, seat, w, rows))
    if score.flowers is not None:
        out.append(_pad_line(f"flower boxes ({score.flower_box_value} each)",
                             _colour_boxes(score.flowers, t.marks(seat).flowers, None, w),
                             rows["flowers"] + rows["flower star"]))
    if score.trees is not None:
        out.append(_pad_line("tree boxes (0 each)",
                             _colour_boxes(score.trees, t.marks(seat).trees, "^", w),
                             rows["tree star"]))
    out.append(_pencil_symbols(t, seat, rows))
    out += _bonus_goals(t, seat, rows)
    out.append(_pad_line("  largest area", _largest_area(t, seat), rows["largest area"]))
    return "\n".join(out)


def _single_colour_rows(t: Table, seat: int, w: int) -> list[str]:
    """The single-colour gardens rows: a box per pencil colour and the row's star."""
    colours = t.layout.colours
    boxes = [t.marks(seat).boxes[c.name] for c in colours]
    out = []
    for k, row in enumerate(t.layout.score.single_colour.rows):
        body = "".join(_box(str(row.value), _ticked(boxes[c], k), STYLE[colour.name], w)
                       for c, colour in enumerate(colours))
        have = sum(1 for b in boxes if b > k)
        missing = " ".join(colour.letter for c, colour in enumerate(colours) if boxes[c] <= k)
        star = row.star.value
        body += _progress(star, have == 5, have, 5, missing)
        out.append(_pad_line(f"  row {k + 1}", body,
                             have * row.value + (star if have == 5 else 0)))
    return out


def _colourful_row(t: Table, seat: int, w: int, rows: Mapping[str, int]) -> str:
    """The colourful gardens row: its boxes ticked from the left, and its star if any."""
    area = t.layout.score.colourful
    ticked = t.marks(seat).colourful
    body = "".join(_box(str(box.value), _ticked(ticked, i), width=w)
                   for i, box in enumerate(area.boxes))
    if area.star is not None:
        n = len(area.boxes)
        body += _progress(area.star.value, ticked == n, ticked, n)
    return _pad_line("colourful gardens", body,
                     rows["colourful gardens"] + rows.get("colourful star", 0))


def _colour_boxes(area: ColourBoxArea, ticked: list[str], text: str | None, w: int) -> str:
    """A row of one box per colour (flower or tree boxes) with its star's progress; a box
    shows ``text``, or its value when ``text`` is None."""
    body = "".join(_box(str(box.value) if text is None else text,
                        "filled" if box.colour in ticked else "", STYLE[box.colour or ""], w)
                   for box in area.boxes)
    return body + _progress(area.star.value, len(ticked) == 5, len(ticked), 5)


def _pencil_symbols(t: Table, seat: int, rows: Mapping[str, int]) -> str:
    """The pencil symbols, crossed from the left; crossing the last one ends the game."""
    symbols = t.layout.score.pencils
    crossed = t.marks(seat).pencils_crossed
    pw = max(len(str(s.penalty)) for s in symbols)
    body = "".join(_box(str(s.penalty), _ticked(crossed, i), width=pw)
                   for i, s in enumerate(symbols))
    return _pad_line("pencil symbols", body + f"{crossed}/{len(symbols)} (last ends game!)",
                     rows["pencils"])


def _bonus_goals(t: Table, seat: int, rows: Mapping[str, int]) -> list[str]:
    """The "first to" bonus goals: all outer fields, all fields, all flower fields and four
    gardens of one colour, each with how close the seat is and who took it."""
    goals = {g.id: g for g in t.layout.score.goals}
    mine = t.marks(seat)
    out = [_pad_line("bonus goals", "[dim](! ends the game at once, G10)[/]")]
    firsts: list[tuple[str, str, Callable[[SeatBoard], int]]] = [
        ("goal-outer", "  all outer fields", lambda m: m.outer_coloured),
        ("goal-all", "  all fields!", lambda m: m.coloured_count),
        ("goal-flowers", "  all flower fields", lambda m: m.flower_fields),
    ]
    for gid, label, have in firsts:
        if gid in goals:
            goal = goals[gid]
            out.append(_pad_line(label, _goal(t, seat, goal, have(mine)), rows[goal.score_row]))
    fours = [g for g in t.layout.score.goals if g.kind == "four"]
    if fours:
        out += _four_gardens(t, seat, fours, rows)
    return out


def _goal(t: Table, seat: int, goal: Goal, mine: int) -> str:
    """A "first to" goal: taken by this seat, taken by another, or how close the seat is."""
    holder = t.holder(goal.id)
    if holder == seat:
        return f"[bold]★{goal.stars} got[/] (first)"
    if holder is not None:
        return f"[dim]★{goal.stars} taken by {esc(t.name(holder))}[/]"
    return f"★{goal.stars} open: {mine}/{goal.target} coloured"


def _four_gardens(t: Table, seat: int, fours: list[Goal], rows: Mapping[str, int]) -> list[str]:
    """The goals of completing so many gardens all in one colour: one per colour, each with
    the seat's count or who took it, then who took the others."""
    count = fours[0].target
    singles = t.marks(seat).single_colour_gardens
    parts = []
    takers = []
    for goal in fours:
        colour = goal.colour or ""
        letter = t.letter(colour)
        holder = t.holder(goal.id)
        if holder == seat:
            parts.append(f"[{STYLE[colour]}]{letter} got[/]")
        elif holder is not None:
            parts.append(f"[dim]{letter} taken[/]")
            takers.append(f"{letter} by {esc(t.name(holder))}")
        else:
            parts.append(f"{letter} {min(singles[colour], count)}/{count}")
    out = [_pad_line(f"  {count} gardens, 1 colour",
                     f"★{fours[0].stars} each: " + " ".join(parts), rows["four gardens"])]
    if takers:
        out.append(_pad_line("", "[dim]taken: " + ", ".join(takers) + "[/]"))
    return out


def _largest_area(t: Table, seat: int) -> str:
    """The largest-area bonus (G8): who got it at the end, or the seat's area against the best
    other one's."""
    bonus = next(g.stars for g in t.layout.score.goals if g.kind == "largest")
    areas = [m.largest_area for m in t.board.seats]
    if t.board.phase == "over":
        win = t.holder("goal-largest")
        if win == seat:
            return f"[bold]★{bonus} got[/] ({fields(areas[seat])})"
        if win is None:
            return f"★{bonus}: tie at {fields(max(areas))}, nobody gets it"
        return f"★{bonus} to {esc(t.name(win))} ({fields(areas[win])}; yours {areas[seat]})"
    if t.view.players == 1:
        return f"★{bonus} at the end (a lone player gets it); now {areas[0]}"
    others = max(a for s, a in enumerate(areas) if s != seat)
    return f"★{bonus} at the end; now {areas[seat]}, best other {others}"


def draw_totals(t: Table) -> str:
    """Every seat's total, on one line."""
    return "totals: " + ", ".join(f"{esc(t.name(s))} {t.view.scores[s].total}"
                                  for s in range(t.view.players))


# ---------------------------------------------------------------------------------- screens
def draw_score(layout: Mapping[str, Any], view: View, seat: int | None,
               colourblind: bool = True) -> str:
    """Every seat's score pad as printed, then the totals (``Presentation.draw_score``)."""
    t = Table.read(layout, view)
    return "\n\n".join([*(draw_pad(t, s) for s in range(view.players)), draw_totals(t)])


def draw(layout: Mapping[str, Any], view: View, seat: int | None,
         colourblind: bool = True) -> str:
    """The whole screen about ``seat`` (None: the seat to move): its score pad, the totals,
    the gardens, its sheet and whose turn it is (``Presentation.draw``)."""
    t = Table.read(layout, view)
    shown = t.sheet_seat(seat)
    title = f"[bold]{esc(t.layout.name)}[/] - {esc(possessive(t.name(shown)))} sheet"
    parts = [draw_pad(t, shown)]
    if view.players > 1:
        parts.append(draw_totals(t))
    parts += ["", draw_gardens(t), "", title, draw_sheet(t, shown), LEGEND, "", draw_status(t)]
    return "\n".join(parts)
