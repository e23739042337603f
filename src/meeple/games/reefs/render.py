"""Terminal drawing of a Reefs table, as Rich markup, made from what a client receives: the
table's layout (:class:`~meeple.games.reefs.boards.ReefsLayout`, the sheet as printed) and one
viewer's :class:`~meeple.core.viewmodel.View` (its ``board`` a
:class:`~meeple.games.reefs.boards.ReefsBoard`). It never sees the engine's state, so ``meeple
join`` draws from a server's view the very screen ``meeple play`` shows.

The screen: a title with the sheet and round, the pencils in the middle, who is to do what, then
for each seat shown its lattice, its routes in words and its score pad as printed; a legend ends
it. :func:`draw_score` is the score pads alone (``score`` at the prompt), the seat asked about
first.

Everything reads without colour: a drawn connection is its colour's letter (O R B G P), marks on
spaces are characters, and colour only repeats what the letters say. The pencils are drawn in the
layout's RGB colours (chosen to read on dark and on light terminals alike, contrast at least 3.5
against both black and white); free connections are dim, labels bold.

The lattice: spaces at their coordinates with their ids; a connection between two spaces is a
run of dots (``·`` across, ``:`` down, ``╱`` ``╲`` diagonal) while free, its route's letter once
drawn. Marks: ``>in1`` entry point (followed by the letter of the route that started there),
``$`` coin, ``@`` whirlpool, ``%`` propeller, ``c2:3o`` a treasure worth 3 for orange on c2
(``n`` neutral); ``*`` marks an item this sheet has collected (a recovered treasure shows the
upper-case letter of the colour that recovered it). The end of each route is shown in reverse
video and listed in words under the lattice, and while a pencil is drawn the spaces it may go to
next (the board's ``drawing.next_spaces``) are underlined and listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.markup import strip_markup
from meeple.core.viewmodel import View
from meeple.games.reefs.boards import Drawing, ReefsBoard, ReefsLayout, SeatBoard, Space

CELL_W = 8  # characters per lattice column
CELL_H = 2  # lines per lattice row

#: A character's style on the lattice: (kind, colour, extra); kind is the route colour 0-4 of
#: a drawn connection or one of the codes below, colour a pencil (-1: none), extra a Rich style.
Style = tuple[int, int, str]
_PLAIN = -1
_LABEL = -2
_LINE_END = -3
_FREE = -4

_PAD_LEGEND = ("[dim]box: mark, ░ if grey, value printed above; "
               "O R B G P $ coloured, > next, · empty[/]")
_LEGEND = (
    "[dim]> entry point  $ coin  @ whirlpool  % propeller  * collected  (n neutral)[/]",
    "[dim]c2:3o a treasure worth 3 for orange on c2; routes drawn as O R B G P[/]",
    "[dim]Routes: start→end (steps); route ends in reverse video, next spaces underlined[/]",
)


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


class _Table:
    """The layout and the board read once, with the lookups every part of the drawing needs."""

    def __init__(self, layout: Mapping[str, Any], view: View) -> None:
        self.view = view
        self.layout = ReefsLayout.model_validate(layout)
        self.board = ReefsBoard.model_validate(view.board)
        self.letters = [p.letter for p in self.layout.pencils]
        self.rgb = [p.rgb for p in self.layout.pencils]
        #: pencil index (0-4, O R B G P) of each colour name
        self.index = {p.colour: c for c, p in enumerate(self.layout.pencils)}

    def name(self, seat: int) -> str:
        return _esc(self.board.seats[seat].name)

    def colour(self, c: int, text: str) -> str:
        """``text`` in pencil ``c``'s colour, bold."""
        return f"[bold {self.rgb[c]}]{_esc(text)}[/]"

    def drawing_for(self, seat: int) -> Drawing | None:
        """The pencil being drawn, if ``seat`` draws it now."""
        d = self.board.drawing
        return d if d is not None and d.seat == seat else None


# ---------------------------------------------------------------------- the lattice


class _Grid:
    """The characters of a lattice, each with its :data:`Style`."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style]] = [[(_PLAIN, -1, "")] * width for _ in range(height)]

    def put(self, row: int, col: int, ch: str, style: Style) -> None:
        self.chars[row][col] = ch
        self.styles[row][col] = style

    def lines(self, rgb: list[str]) -> list[str]:
        """Each row as markup: runs of one style in one span, trailing blanks dropped."""
        out = []
        for chars, styles in zip(self.chars, self.styles, strict=True):
            spans = []
            run = ""
            run_style: Style = (_PLAIN, -1, "")
            for ch, st in [*zip(chars, styles, strict=True), ("", (_LINE_END, -1, ""))]:
                if st != run_style and run:
                    spans.append(_span(run, run_style, rgb))
                    run = ""
                run_style = st
                run += ch
            out.append("".join(spans).rstrip())
        return out


def _span(text: str, st: Style, rgb: list[str]) -> str:
    kind, colour, extra = st
    parts = []
    if kind >= 0 or kind == _LABEL:
        parts.append("bold")
    if colour >= 0:
        parts.append(rgb[colour])
    if kind == _FREE:
        parts.append("dim")
    if extra:
        parts.append(extra)
    return f"[{' '.join(parts)}]{_esc(text)}[/]" if parts else _esc(text)


class _Marks:
    """What one seat has marked on its sheet, by space id."""

    def __init__(self, t: _Table, sb: SeatBoard) -> None:
        self.entry_owner = {r.entry: c for c, r in reversed(list(enumerate(sb.routes)))
                            if r.entry is not None}
        self.ends = {r.end: c for c, r in enumerate(sb.routes) if r.end is not None}
        self.treasures = {tr.space: t.index[tr.colour] for tr in sb.treasures}
        self.collected = {*sb.coins, *sb.whirlpools, *sb.propellers}
        self.owner = {conn: c for c, r in enumerate(sb.routes) for conn in r.connections}


_ITEM_MARKS = {"coin": "$", "whirlpool": "@", "propeller": "%"}


def _space_label(t: _Table, marks: _Marks, sp: Space) -> tuple[str, int]:
    """The text drawn at space ``sp`` and the pencil colour it is drawn in (-1: none)."""
    sid = sp.id
    if sp.kind == "entry":
        owner = marks.entry_owner.get(sid, -1)
        return f">{sid}" + (t.letters[owner] if owner >= 0 else ""), owner
    if sp.kind in _ITEM_MARKS:
        return sid + _ITEM_MARKS[sp.kind] + ("*" if sid in marks.collected else ""), -1
    tr = sp.treasure
    if tr is None:
        return sid, -1
    got = marks.treasures.get(sid, -1)
    if got >= 0:
        return f"{sid}:{tr.value}{t.letters[got]}*", got
    if tr.colour == "neutral":
        return f"{sid}:{tr.value}n", -1
    return f"{sid}:{tr.value}{tr.letter.lower()}", t.index[tr.colour]


def _sheet_lines(t: _Table, seat: int) -> list[str]:
    """The lattice of one seat as lines of Rich markup."""
    b = t.layout.bounds
    grid = _Grid((b.max_x - b.min_x) * CELL_W + CELL_W + 2, (b.max_y - b.min_y) * CELL_H + 1)
    pos = {sp.id: ((sp.y - b.min_y) * CELL_H, (sp.x - b.min_x) * CELL_W)
           for sp in t.layout.spaces}
    marks = _Marks(t, t.board.seats[seat])
    drawing = t.drawing_for(seat)
    _put_labels(t, grid, pos, marks, set(drawing.next_spaces) if drawing else set())
    _put_connections(t, grid, pos, marks)
    return grid.lines(t.rgb)


def _put_labels(t: _Table, grid: _Grid, pos: dict[str, tuple[int, int]], marks: _Marks,
                targets: set[str]) -> None:
    """Each space's label at its place: a route's end reversed, a next space underlined."""
    for sp in t.layout.spaces:
        row, col = pos[sp.id]
        label, colour = _space_label(t, marks, sp)
        extra = ""
        if sp.id in marks.ends:
            colour, extra = marks.ends[sp.id], "reverse"
        elif sp.id in targets:
            extra = "underline"
        for i, ch in enumerate(label[: CELL_W - 1]):
            if col + i < grid.width:
                grid.put(row, col + i, ch, (_LABEL, colour, extra))


def _put_connections(t: _Table, grid: _Grid, pos: dict[str, tuple[int, int]],
                     marks: _Marks) -> None:
    """Each connection between its two labels: dots while free, its route's letter once drawn."""
    for conn in t.layout.connections:
        owner = marks.owner.get(conn.id, -1)
        (ra, ca), (rc, cc) = pos[conn.a], pos[conn.b]
        style: Style = (owner, owner, "") if owner >= 0 else (_FREE, -1, "")
        letter = t.letters[owner] if owner >= 0 else ""
        if ra == rc:  # horizontal: fill the blanks between the two labels
            lo, hi = sorted((ca, cc))
            for col in range(lo + 1, hi):
                if grid.styles[ra][col][0] == _PLAIN:
                    grid.put(ra, col, letter or "·", style)
        elif ca == cc:  # vertical
            lo, hi = sorted((ra, rc))
            for row in range(lo + 1, hi):
                grid.put(row, ca + 1, letter or ":", style)
        else:  # diagonal: one mark at the midpoint
            slope = (rc - ra) * (cc - ca) > 0
            grid.put((ra + rc) // 2, (ca + cc) // 2 + 1, letter or ("╲" if slope else "╱"), style)


# ---------------------------------------------------------------------- routes in words


def _route_lines(t: _Table, seat: int) -> list[str]:
    """Each route in words: where it started, where its free end is, how many steps it has;
    and, while this seat draws, where the pencil may go next."""
    parts = []
    for c, route in enumerate(t.board.seats[seat].routes):
        if route.entry is None or route.end is None:
            parts.append(f"{t.colour(c, t.letters[c])} -")
        else:
            parts.append(f"{t.colour(c, t.letters[c])} {route.entry}→"
                         f"[reverse]{_esc(route.end)}[/] ({len(route.connections)})")
    out = ["Routes: " + "  ".join(parts)]
    if len(strip_markup(out[0])) > 79:  # keep within 80 columns: two lines
        out = ["Routes: " + "  ".join(parts[:3]), "        " + "  ".join(parts[3:])]
    drawing = t.drawing_for(seat)
    if drawing is not None:
        out.append(_pencil_line(t, drawing))
    return out


def _pencil_line(t: _Table, d: Drawing) -> str:
    """Where the pencil being drawn may go next, or why it cannot."""
    name = t.colour(t.index[d.colour], d.colour.capitalize())
    where = ", ".join(d.next_spaces)
    if where:
        what = f"next step from {d.at} to" if d.route_started else "start at"
        return f"{name}: {what} {where} (underlined)" + ("; or stop" if d.can_stop else "")
    if d.can_stop:
        return f"{name} cannot go on: stop"
    return f"{name} cannot be drawn: forfeit"


# ---------------------------------------------------------------------- the score pad


def _box(mark: str, grey: bool, value: int, colour: str = "dim") -> str:
    """One pad box: its mark (styled), ``░`` if grey, the value printed above it."""
    return f"[{colour}]{_esc(mark)}[/]{'░' if grey else ' '}{value:>2}"


def _treasure_row(t: _Table, sb: SeatBoard, c: int) -> str:
    """A treasure row: coloured boxes, the next one, the empty ones, and its score."""
    row = t.layout.treasure_rows[c]
    filled = sb.rows[c].boxes
    cells = []
    for i, box in enumerate(row.boxes):
        if i < filled:
            cells.append(_box(t.letters[c], box.grey, box.value, f"bold {t.rgb[c]}"))
        else:
            cells.append(_box(">" if i == filled else "·", box.grey, box.value,
                              "bold" if i == filled else "dim"))
    return (f"{t.colour(c, f'{t.letters[c]} {row.colour:<7}')} {' '.join(cells)}"
            f"  = {sb.rows[c].score}")


def _coin_row(t: _Table, sb: SeatBoard) -> str:
    cells = []
    for i, box in enumerate(t.layout.coin_row.boxes):
        mark = "$" if i < sb.coin_boxes else ">" if i == sb.coin_boxes else "·"
        cells.append(_box(mark, False, box.value, "bold" if mark != "·" else "dim"))
    return f"$ coins    {' '.join(cells)}  = {sb.coin_score}"


def _propeller_row(t: _Table, sb: SeatBoard) -> str:
    n = len(t.layout.propellers)
    got, used = sb.propellers_collected, sb.propellers_used
    marks = ["x" if i < used else "%" if i < got else "·" for i in range(n)]
    return (f"% propellers {' '.join(marks)}   {got} of {n} collected, "
            f"{used} used, {got - used} ready (x used, % ready)")


def _game_end(t: _Table, sb: SeatBoard) -> str:
    """How far this seat is from ending the game."""
    coin_end = f"last coin box ({sb.coin_boxes} of {len(t.layout.coin_row.boxes)})"
    if not t.layout.grey_end:
        return f"  game end: {coin_end}"
    reached = [t.letters[c] for c, row in enumerate(sb.rows) if row.grey_reached]
    return (f"  game end: grey in all 5 rows (reached: "
            f"{' '.join(reached) or 'none'}) or {coin_end}")


def _stars(t: _Table, seat: int) -> str:
    """The four bonus stars of the pad: taken by this seat (+points), by another, or open."""
    points = {s.id: s.points for s in t.layout.stars}
    holder = {s.id: -1 if s.holder is None else s.holder for s in t.board.stars}

    def first(star: str, what: str) -> str:
        if holder[star] == seat:
            return f"{what} +{points[star]}"
        if holder[star] >= 0:
            return f"{what}: {t.name(holder[star])}"
        return f"{what}: open ({points[star]})"

    parts = [first("star:two_each", "2 boxes in every row"),
             first("star:full_row", "a full row")]
    if holder["star:end_grey"] == seat:
        parts.append(f"end, grey boxes +{points['star:end_grey']}")
    if holder["star:end_coins"] == seat:
        parts.append(f"end, last coin box +{points['star:end_coins']}")
    return "★ " + "; ".join(parts)


def _pad_lines(t: _Table, seat: int) -> list[str]:
    """The score pad of one seat as printed: the treasure rows (box values, grey boxes, the
    coloured boxes and the next one), the coin row, propellers, the bonus stars and the total."""
    sb = t.board.seats[seat]
    lines = [_treasure_row(t, sb, c) for c in range(len(sb.rows))]
    lines.append(_coin_row(t, sb))
    if t.layout.propellers:
        lines.append(_propeller_row(t, sb))
    lines.append(_game_end(t, sb))
    lines.append("  " + _stars(t, seat))
    lines.append(f"[bold]TOTAL {sb.total}[/]")
    return lines


def draw_score(layout: Mapping[str, Any], view: View, seat: int | None,
               colourblind: bool = True) -> str:
    """Every seat's score pad, as printed (``score`` at the prompt); ``seat`` comes first."""
    t = _Table(layout, view)
    order = list(range(view.players))
    if seat is not None and 0 <= seat < view.players:
        order.remove(seat)
        order.insert(0, seat)
    out: list[str] = []
    for s in order:
        out += [f"[bold]{t.name(s)}[/]", *_pad_lines(t, s), ""]
    out.append(_PAD_LEGEND)
    return "\n".join(out)


# ---------------------------------------------------------------------- the screen


def _middle(t: _Table) -> str:
    """The pencils left in the middle with their faces."""
    mid = [f"{t.colour(c, p.letter)} {p.face_label}" for c, p in enumerate(t.board.pencils)
           if p.where == "middle"]
    return "Middle: " + (", ".join(mid) or "no pencils")


def _pencil_words(d: Drawing) -> str:
    """The pencil being drawn, in words: ``orange (O): 2 any steps to draw``."""
    if d.mode == "4+straight":
        return f"{d.colour} ({d.pencil}): 4+ straight, {d.steps_drawn} drawn"
    left = d.steps_left or 0
    return f"{d.colour} ({d.pencil}): {left} {d.mode} {'step' if left == 1 else 'steps'} to draw"


def _status(t: _Table) -> str:
    """Who is to do what, or why the game ended (with the rule: R11 or R15)."""
    b = t.board
    if b.phase == "over":
        rule = "R11" if b.ended_by is not None else "R15"
        return f"[bold]Game over[/]: {_esc(f'{b.end_reason} ({rule})')}"
    if b.phase == "roll" or b.to_move is None:
        return f"Rolling the pencils for {t.name(b.roller)}"
    if b.drawing is not None:
        return f"To move: {t.name(b.to_move)}, drawing {_esc(_pencil_words(b.drawing))}"
    return f"To move: {t.name(b.to_move)}, take a pencil"


def draw(layout: Mapping[str, Any], view: View, seat: int | None,
         colourblind: bool = True) -> str:
    """The whole screen about ``seat`` (None: every seat, as a spectator sees them)."""
    t = _Table(layout, view)
    out = [f"[bold]{_esc(view.title)}[/] - {_esc(t.layout.title)} - round {t.board.round}",
           _middle(t), _status(t)]
    for s in range(view.players) if seat is None else [seat]:
        out += ["", f"[bold]{t.name(s)}[/]", *_sheet_lines(t, s), *_route_lines(t, s),
                *_pad_lines(t, s)]
    if seat is not None and view.players > 1:
        out.append("Others: " + ", ".join(f"{t.name(i)} {sb.total}"
                                          for i, sb in enumerate(t.board.seats) if i != seat))
    out += ["", _PAD_LEGEND, *_LEGEND]
    return "\n".join(out)
