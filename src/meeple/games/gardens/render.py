"""Terminal drawing of Gardens as Rich markup (no Rich import: plain strings).

The sheet is drawn as rows of hex fields, each row shifted half a field from the next. Lines
are drawn between fields of different gardens and around the play area, so every garden's
shape stays readable all game, and every field carries its garden's letter (``a``, ``b``, ...)
on the right. A free field shows its id (``D4``); a coloured field shows its colour letter on
its colour (O orange, R red, G green, B blue, P purple: the rulebook's colour-blind tip), so
the sheet also reads without colour. ``*O`` marks a flower field of colour O, ``^`` a tree,
``~~~`` the fountain; ``O+`` the fields of the pencil in hand, and the ids of the fields open
to it are underlined. Every style sets its own background and foreground, so it reads the same
on dark and light terminals; the letters are always drawn (``colourblind`` changes nothing).

The score pad is drawn as printed (:func:`render_pad`: coloured boxes ``[n]``, the next box
``>n<``, row stars and how close they are, pencil symbols, bonus goals and who took them);
:func:`render_score` is every seat's pad, registered as ``Presentation.render_score``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from meeple.core.text import possessive, subject
from meeple.games.gardens.rules import COLOURING, OVER, ROLLING, GardensState
from meeple.games.gardens.sheet import ALL_PENCILS, COLOURS, LETTERS, CompiledSheet
from meeple.games.gardens.words import end_reason, fields, garden_labels

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


T = TypeVar("T")
_MEMO: dict[tuple[str, int], tuple[CompiledSheet, Any]] = {}


def _per_sheet(fn: Callable[[CompiledSheet], T]) -> Callable[[CompiledSheet], T]:
    """Compute once per compiled sheet (sheets are immutable; keyed by identity)."""

    def wrapper(sheet: CompiledSheet) -> T:
        key = (fn.__name__, id(sheet))
        hit = _MEMO.get(key)
        if hit is not None and hit[0] is sheet:
            return hit[1]  # type: ignore[no-any-return]
        if len(_MEMO) > 64:
            _MEMO.clear()
        value = fn(sheet)
        _MEMO[key] = (sheet, value)
        return value

    return wrapper


# ---------------------------------------------------------------------------------- the sheet
def esc(text: str) -> str:
    """``text`` (a seat or sheet name) shown as is inside Rich markup."""
    return text.replace("[", LB)


@_per_sheet
def _layout(sheet: CompiledSheet) -> tuple[list[int], list[list[int]]]:
    """The drawing grid: the hex rows (r values, top to bottom) and, per row and text column,
    the field index drawn there (``n + k`` for the k-th fountain space, or OUTSIDE)."""
    fountain = [tuple(p) for p in sheet.data.fountain]
    cells = [(q, r, i) for i, (q, r) in enumerate(sheet.coords)]
    cells += [(q, r, sheet.n + k) for k, (q, r) in enumerate(fountain)]
    x0 = min(2 * q + r for q, r, _ in cells)
    x1 = max(2 * q + r for q, r, _ in cells)
    width = (x1 - x0) * HALF + CELL + 1
    rows = sorted({r for _, r, _ in cells})
    grid = []
    for r in rows:
        line = [OUTSIDE] * width
        for q, rr, i in cells:
            if rr == r:
                start = (2 * q + r - x0) * HALF
                for c in range(start, start + CELL):
                    line[c] = i
        grid.append(line)
    return rows, grid


def _region(sheet: CompiledSheet, cell: int) -> int:
    """What a border separates: a garden index, the fountain, or the outside."""
    if cell == OUTSIDE:
        return OUTSIDE
    return sheet.garden_of[cell] if cell < sheet.n else FOUNTAIN


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


@_per_sheet
def _borders(sheet: CompiledSheet) -> tuple[tuple[str, ...], tuple[frozenset[int], ...]]:
    """The border lines between hex rows (one string per gap, top edge first) and, per hex
    row, the text columns where a vertical border is drawn."""
    _rows, grid = _layout(sheet)
    width = len(grid[0])
    bars: list[frozenset[int]] = []
    for line in grid:
        cols = {0} if line[0] != OUTSIDE else set()
        for c in range(1, width):
            left, right = line[c - 1], line[c]
            if left != right \
                    and _region(sheet, left) != _region(sheet, right):
                cols.add(c)
        bars.append(frozenset(cols))
    gaps = []
    empty = [OUTSIDE] * width
    for k in range(len(grid) + 1):
        above = grid[k - 1] if k > 0 else empty
        below = grid[k] if k < len(grid) else empty
        up = bars[k - 1] if k > 0 else frozenset()
        down = bars[k] if k < len(grid) else frozenset()
        horiz = [
            _region(sheet, above[c]) != _region(sheet, below[c])
            for c in range(width)
        ]
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
    return tuple(gaps), tuple(bars)


def _field_text(state: GardensState, seat: int, i: int, labels: tuple[str, ...],
                open_now: int = 0) -> str:
    """Seven columns of content for field ``i`` on ``seat``'s sheet, as markup; the ids of the
    fields in ``open_now`` (those the seat may colour next) are underlined."""
    sheet = state.sheet
    bit = 1 << i
    base = seat * 5
    colour = next((c for c in range(5) if state.cmask[base + c] & bit), -1)
    if sheet.flower_mask & bit:
        mark = "*" + LETTERS[sheet.flower_colour[i]]
    elif sheet.tree_mask & bit:
        mark = " ^"
    else:
        mark = "  "
    label = labels[sheet.garden_of[i]]
    if colour < 0:
        text = f"{sheet.ids[i]:<3}{mark}{label:>2}"[:7]
        if open_now >> i & 1:
            fid = sheet.ids[i]
            return f"[underline]{fid}[/]{text[len(fid):]}"
        return text
    now = state.phase == 2 and seat == state.seat and state.group & bit
    main = LETTERS[colour] + ("+" if now else "")
    text = f"{main:<3}{mark}{label:>2}"[:7]
    return f"[{STYLE[COLOURS[colour]]}]{text}[/]"


def render_sheet(state: GardensState, seat: int, colourblind: bool = True) -> str:
    """The play sheet of ``seat``: fields, garden borders and letters, flowers, trees, fountain."""
    sheet = state.sheet
    labels = garden_labels(sheet)
    _rows, grid = _layout(sheet)
    open_now = (state.g4_colourable_fields()
                if state.phase == COLOURING and seat == state.seat else 0)
    gaps, bars = _borders(sheet)
    lines = [gaps[0]]
    for k, line in enumerate(grid):
        out = []
        c = 0
        width = len(line)
        while c < width:
            cell = line[c]
            edge = "│" if c in bars[k] else " "
            if cell == OUTSIDE or (c > 0 and line[c - 1] == cell):
                out.append(edge)
                c += 1
                continue
            out.append(edge)  # a cell's first column is its left border
            if cell >= sheet.n:
                out.append(f"[{FOUNTAIN_STYLE}]  ~~~  [/]")
            else:
                out.append(_field_text(state, seat, cell, labels, open_now))
            c += CELL
        lines.append("".join(out).rstrip())
        lines.append(gaps[k + 1])
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- gardens
def garden_status(state: GardensState, seat: int, g: int) -> str:
    """One garden on ``seat``'s sheet: fields still free, or how it was completed: the colour
    letter (one colour), ``5c`` (all five colours) or ``mix`` (completed, no box)."""
    mask = state.sheet.garden_masks[g]
    free = mask & ~state.coloured[seat]
    if free:
        return str(free.bit_count())
    base = seat * 5
    present = [c for c in range(5) if state.cmask[base + c] & mask]
    if len(present) == 1:
        return LETTERS[present[0]]
    return "5c" if len(present) == 5 else "mix"


def render_gardens(state: GardensState, names_width: int = 11) -> str:
    """A table of every garden: its letter, its size, and per seat what is left or how it was
    completed (the map shows where each garden lies)."""
    sheet = state.sheet
    labels = garden_labels(sheet)
    per_table = 16
    names = [esc(state.seats[s][:names_width]) + " " * (names_width - len(state.seats[s][:names_width]))
             for s in range(state.players)]
    out = []
    for start in range(0, len(labels), per_table):
        part = range(start, min(start + per_table, len(labels)))
        out.append("garden".ljust(names_width) + "".join(f"{labels[g]:>4}" for g in part))
        out.append("fields".ljust(names_width)
                   + "".join(f"{sheet.garden_masks[g].bit_count():>4}" for g in part))
        for s in range(state.players):
            cells = []
            for g in part:
                st = garden_status(state, s, g)
                if st in LETTERS:
                    cells.append(f"  [{STYLE[COLOURS[LETTERS.index(st)]]}] {st}[/]")
                elif st in ("5c", "mix"):
                    cells.append(f"[bold]{st:>4}[/]")
                else:
                    cells.append(f"[dim]{st:>4}[/]")
            out.append(names[s] + "".join(cells))
    out.append("[dim]per seat: fields to go; done: its colour letter, 5c = five colours, "
               "mix = no box[/]")
    return "\n".join(out)


LEGEND = ("O orange  R red  G green  B blue  P purple  O+ this pencil  *X flower X  ^ tree\n"
          "~~~ fountain   a, b, ...: each field's garden   lines: borders  "
          "[underline]underlined[/]: open")


# ---------------------------------------------------------------------------------- status
def render_status(state: GardensState) -> str:
    name = esc(state.seats[state.seat])
    if state.phase == OVER:
        scores = state.scores()
        winners = state.winners()
        best = max(sc.total for sc in scores)
        if len(winners) == 1:
            who = f"{esc(state.seats[winners[0]])} with {best} points"
        else:
            who = ("tied at " + str(best) + " points, winning together (A4): "
                   + ", ".join(esc(state.seats[w]) for w in winners))
        if state.players == 1:
            return f"[bold]Game over:[/] {esc(end_reason(state))}.\nFinal score: {best} points."
        return f"[bold]Game over:[/] {esc(end_reason(state))}.\nWinner: {who}."
    if state.phase == ROLLING:
        return f"{subject(name, 'rolls')} the pencils."
    middle = [f"[{STYLE[COLOURS[c]]}]{LETTERS[c]}{state.faces[c]}[/]"
              for c in range(5) if state.middle >> c & 1]
    pencils = "middle: " + (" ".join(middle) if middle else "(empty)")
    if state.phase == COLOURING:
        done = state.group.bit_count()
        hand = f"[{STYLE[COLOURS[state.hand]]}]{LETTERS[state.hand]}{state.need}[/]"
        what = (f"{subject(name, 'holds')} the {COLOURS[state.hand]} pencil {hand}: "
                f"{done} of {state.need} coloured, {state.need - done} to go")
        if not done:
            what += " (or waste it)"
        return f"{pencils}\n{what}"
    return f"{pencils}\n{possessive(name)} turn: take a pencil."


# ---------------------------------------------------------------------------------- score pad


def plain_length(markup: str) -> int:
    """The printed width of a line of markup (tags removed, escapes resolved)."""
    return len(_TAG.sub("", markup).replace(LB, "["))


def _box(text: str, state: str, style: str = "bold", width: int = 2) -> str:
    """A score box: ``[n]`` coloured in, ``>n<`` the next one to colour, `` n `` still empty.
    Every box takes ``width + 3`` columns."""
    if state == "filled":
        return f"[{style}]{LB}{text:>{width}}][/] "
    if state == "next":
        return f"[bold]>{text:>{width}}<[/] "
    return f"[dim] {text:>{width}} [/] "


def _star(value: int, got: bool) -> str:
    return f"[bold]★{value} got[/]" if got else f"★{value}"


def _progress(value: int, got: bool, have: int, of: int, missing: str = "") -> str:
    if got:
        return _star(value, True)
    need = f", needs {missing}" if missing else ""
    return f"★{value} {have}/{of}{need}"


PAD_WIDTH = 74  # points column ends here; fits an 80-column terminal


def render_pad(state: GardensState, seat: int) -> str:
    """``seat``'s score pad as printed: every box (coloured ``[n]``, next ``>n<``, empty ``n``),
    each row's star and how close it is, pencil symbols, bonus goals and who took them."""
    pad = state.pad
    score = state.scores()[seat]
    rows = score.breakdown
    name = state.seats[seat]
    w = max(len(str(v)) for v in [*pad.single_colour_boxes, *pad.colourful_boxes, pad.flower_box])
    out = [f"[bold]{esc(possessive(name))} score pad[/]"
           + " " * max(1, PAD_WIDTH - len(f"{possessive(name)} score pad")
                       - len(f"total {score.total}"))
           + f"[bold]total {score.total}[/]"]
    out.append(_pad_line("single-colour gardens",
                         "".join(f" {letter:>{w}}  " for letter in LETTERS) + "row star"))
    out += _single_colour_rows(state, seat, w)
    out += _colourful_and_special_boxes(state, seat, w, rows)
    crossed = state.crossed[seat]
    n_pen = len(pad.pencil_penalties)
    pw = max(len(str(v)) for v in pad.pencil_penalties)
    body = "".join(_box(str(v), "filled" if i < crossed else "next" if i == crossed else "",
                        width=pw) for i, v in enumerate(pad.pencil_penalties))
    out.append(_pad_line("pencil symbols", body + f"{crossed}/{n_pen} (last ends game!)",
                         rows["pencils"]))
    out += _bonus_goals(state, seat, rows)
    out.append(_pad_line("  largest area", _largest_area(state, seat), rows["largest area"]))
    return "\n".join(out)


def _pad_line(label: str, body: str, points: int | None = None) -> str:
    """One line of the score pad: its label, its boxes and (right-aligned) its points."""
    text = f"{label:<22}{body}"
    if points is not None:
        pts = f"{points:>4}"
        text += " " * max(1, PAD_WIDTH - plain_length(text) - len(pts)) + pts
    return text.rstrip()


def _single_colour_rows(state: GardensState, seat: int, w: int) -> list[str]:
    """The single-colour gardens rows: a box per pencil colour and the row's star."""
    pad = state.pad
    base = seat * 5
    boxes = state.boxes[base: base + 5]
    out = []
    for k, value in enumerate(pad.single_colour_boxes):
        body = "".join(
            _box(str(value), "filled" if boxes[c] > k else "next" if boxes[c] == k else "",
                 STYLE[COLOURS[c]], w) for c in range(5))
        have = sum(1 for b in boxes if b > k)
        missing = " ".join(LETTERS[c] for c in range(5) if boxes[c] <= k)
        star = pad.row_stars[k]
        body += _progress(star, have == 5, have, 5, missing)
        out.append(_pad_line(f"  row {k + 1}", body, have * value + (star if have == 5 else 0)))
    return out


def _colourful_and_special_boxes(state: GardensState, seat: int, w: int,
                                 rows: Mapping[str, int]) -> list[str]:
    """The colourful gardens row, and the flower and tree boxes of the sheets that have them."""
    pad = state.pad
    sheet = state.sheet
    n_cf = state.colourful[seat]
    body = "".join(_box(str(v), "filled" if i < n_cf else "next" if i == n_cf else "",
                        width=w) for i, v in enumerate(pad.colourful_boxes))
    if pad.colourful_star:
        n = len(pad.colourful_boxes)
        body += _progress(pad.colourful_star, n_cf == n, n_cf, n)
    out = [_pad_line("colourful gardens", body,
                     rows["colourful gardens"] + rows.get("colourful star", 0))]
    if sheet.has_flowers:
        fb = state.flower_boxes[seat]
        body = "".join(_box(str(pad.flower_box), "filled" if fb >> c & 1 else "",
                            STYLE[COLOURS[c]], w) for c in range(5))
        body += _progress(pad.flower_star, fb == ALL_PENCILS, fb.bit_count(), 5)
        out.append(_pad_line(f"flower boxes ({pad.flower_box} each)", body,
                             rows["flowers"] + rows["flower star"]))
    if sheet.has_trees:
        tb = state.tree_boxes[seat]
        body = "".join(_box("^", "filled" if tb >> c & 1 else "", STYLE[COLOURS[c]], w)
                       for c in range(5))
        body += _progress(pad.tree_star, tb == ALL_PENCILS, tb.bit_count(), 5)
        out.append(_pad_line("tree boxes (0 each)", body, rows["tree star"]))
    return out


def _bonus_goals(state: GardensState, seat: int, rows: Mapping[str, int]) -> list[str]:
    """The "first to" bonus goals: all outer fields, all fields, all flower fields and four
    gardens of one colour, each with how close the seat is and who took it."""
    pad = state.pad
    sheet = state.sheet
    out = [_pad_line("bonus goals", "[dim](! ends the game at once, G10)[/]")]
    out.append(_pad_line("  all outer fields", _goal(
        state, seat, pad.outer_fields_bonus, state.first_outer,
        (state.coloured[seat] & sheet.outer_mask).bit_count(), sheet.outer_mask.bit_count()),
        rows["all outer fields"]))
    out.append(_pad_line("  all fields!", _goal(state, seat, pad.all_fields_bonus, state.first_all,
                                                state.coloured[seat].bit_count(), sheet.n),
                         rows["all fields"]))
    if sheet.has_flowers:
        fm = sheet.flower_mask
        out.append(_pad_line("  all flower fields", _goal(
            state, seat, pad.all_flower_fields_bonus, state.first_flowers,
            (state.coloured[seat] & fm).bit_count(), fm.bit_count()), rows["all flower fields"]))
    if pad.four_gardens_bonus:
        base = seat * 5
        parts = []
        for c in range(5):
            holder = state.first_four[c]
            if holder == seat:
                parts.append(f"[{STYLE[COLOURS[c]]}]{LETTERS[c]} got[/]")
            elif holder >= 0:
                parts.append(f"[dim]{LETTERS[c]} taken[/]")
            else:
                n = min(state.sc_gardens[base + c], pad.four_gardens_count)
                parts.append(f"{LETTERS[c]} {n}/{pad.four_gardens_count}")
        out.append(_pad_line(f"  {pad.four_gardens_count} gardens, 1 colour",
                             f"★{pad.four_gardens_bonus} each: " + " ".join(parts),
                             rows["four gardens"]))
        takers = [f"{LETTERS[c]} by {esc(state.seats[h])}" for c, h in enumerate(state.first_four)
                  if h >= 0 and h != seat]
        if takers:
            out.append(_pad_line("", "[dim]taken: " + ", ".join(takers) + "[/]"))
    return out


def _largest_area(state: GardensState, seat: int) -> str:
    """The largest-area bonus (G8): who got it at the end, or the seat's area against the best
    other one's."""
    pad = state.pad
    areas = [state.largest_area(s) for s in range(state.players)]
    if state.phase == OVER:
        win = state.g8_largest_area_winner()
        if win == seat:
            status = f"[bold]★{pad.largest_area_bonus} got[/] ({fields(areas[seat])})"
        elif win < 0:
            status = f"★{pad.largest_area_bonus}: tie at {fields(max(areas))}, nobody gets it"
        else:
            status = (f"★{pad.largest_area_bonus} to {esc(state.seats[win])} "
                      f"({fields(areas[win])}; yours {areas[seat]})")
    elif state.players == 1:
        status = f"★{pad.largest_area_bonus} at the end (a lone player gets it); now {areas[0]}"
    else:
        others = max(a for s, a in enumerate(areas) if s != seat)
        status = (f"★{pad.largest_area_bonus} at the end; now {areas[seat]}, "
                  f"best other {others}")
    return status


def _goal(state: GardensState, seat: int, value: int, holder: int, mine: int, total: int) -> str:
    if holder == seat:
        return f"[bold]★{value} got[/] (first)"
    if holder >= 0:
        return f"[dim]★{value} taken by {esc(state.seats[holder])}[/]"
    return f"★{value} open: {mine}/{total} coloured"


def render_totals(state: GardensState) -> str:
    scores = state.scores()
    return "totals: " + ", ".join(f"{esc(state.seats[s])} {scores[s].total}"
                                  for s in range(state.players))


def render_score(state: GardensState, seat: int | None = None, colourblind: bool = True) -> str:
    """The registered score pad: every seat's pad as printed, then the totals."""
    pads = [render_pad(state, s) for s in range(state.players)]
    return "\n\n".join([*pads, render_totals(state)])


def render(state: GardensState, seat: int, colourblind: bool = True) -> str:
    """The whole screen for ``seat``: the score pad, the gardens, the sheet, whose turn. The
    sheet and the turn come last, nearest the prompt, where a player looks to choose."""
    name = state.seats[seat]
    title = f"[bold]{esc(state.sheet.data.name)}[/] - {esc(possessive(name))} sheet"
    parts = [render_pad(state, seat)]
    if state.players > 1:
        parts.append(render_totals(state))
    parts += ["", render_gardens(state), "", title, render_sheet(state, seat, colourblind),
              LEGEND, "", render_status(state)]
    return "\n".join(parts)


def render_text(state: GardensState, seat: int | None, colourblind: bool = True) -> str:
    """The registered renderer: ``seat`` None draws the sheet of the seat to move."""
    return render(state, state.seat if seat is None else seat, colourblind)

