"""Terminal drawing of a Reefs position, as Rich markup: each seat's lattice with its routes, the
score pad as printed, and the words announcing what a move did.

Everything reads without colour: a drawn connection is its colour's letter (O R B G P), marks on
spaces are characters, and colour only repeats what the letters say. The five colours are fixed
RGB values chosen to read on dark and on light terminals alike (contrast at least 3.5 against
both black and white); free connections are dim, labels bold.

The lattice: spaces at their coordinates with their ids; a connection between two spaces is a
run of dots (``·`` across, ``:`` down, ``╱`` ``╲`` diagonal) while free, its route's letter once
drawn. Marks: ``>in1`` entry point (followed by the letter of the route that started there),
``$`` coin, ``@`` whirlpool, ``%`` propeller, ``c2:3o`` a treasure worth 3 for orange on c2
(``n`` neutral); ``*`` marks an item this sheet has collected (a recovered treasure shows the
upper-case letter of the colour that recovered it). The end of each route is shown in reverse
video and listed in words under the lattice, and while a pencil is drawn the spaces it may go to
next are underlined and listed.
"""

from __future__ import annotations

from meeple.games.reefs.moves import ENTER, FACES, PLUS, PLUS_MIN, STEP
from meeple.games.reefs.rules import P_DRAW, P_ROLL, ReefsState
from meeple.games.reefs.sheet import COLOURS, LETTERS, NEUTRAL
from meeple.games.reefs.words import end_reason

#: One RGB colour per pencil (O R B G P), each with a contrast ratio of at least 3.5 against
#: black and against white, so it reads on dark and light terminals.
STYLE = ("#d75f00", "#d70000", "#0087ff", "#008700", "#d700d7")
CELL_W = 8  # characters per lattice column
CELL_H = 2  # lines per lattice row

_FACE_WORDS = {
    "1any": "1 any", "2any": "2 any", "3any": "3 any",
    "2straight": "2 straight", "3straight": "3 straight", "4+straight": "4+ straight",
}

# style codes of the character grid
_PLAIN = -1
_LABEL = -2
_FREE = -4


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def face_words(face: int) -> str:
    """A pencil face in words: ``2 straight``."""
    return _FACE_WORDS[FACES[face][0]]


def _space_label(state: ReefsState, seat: int, s: int) -> tuple[str, int]:
    """The text drawn at space ``s`` and the colour it is drawn in (-1: none)."""
    b = state.board
    sh = state.sheets[seat]
    bit = 1 << s
    sid = b.ids[s]
    if b.entry_mask & bit:
        owner = next((c for c in range(5) if sh.entry[c] == s), -1)
        return f">{sid}" + (LETTERS[owner] if owner >= 0 else ""), owner
    if b.coin_mask & bit:
        return sid + ("$*" if sh.coins_taken & bit else "$"), -1
    if b.whirl_mask & bit:
        return sid + ("@*" if sh.whirls & bit else "@"), -1
    if b.prop_mask & bit:
        return sid + ("%*" if sh.props_taken & bit else "%"), -1
    t = b.treasure_at[s]
    if t >= 0:
        tc = b.treasure_colour[t]
        got = sh.treasure[t]
        if got >= 0:
            return f"{sid}:{b.treasure_value[t]}{LETTERS[got]}*", got
        letter = "n" if tc == NEUTRAL else LETTERS[tc].lower()
        return f"{sid}:{b.treasure_value[t]}{letter}", -1 if tc == NEUTRAL else tc
    return sid, -1


def next_spaces(state: ReefsState, seat: int) -> list[int]:
    """The spaces the pencil being drawn by ``seat`` may go to next (entry points when its
    route has not started); empty when ``seat`` is not drawing."""
    if state.over or state.phase != P_DRAW or state.seat != seat:
        return []
    return [m.a for m in state.legal_moves() if m.kind in (STEP, ENTER)]


def render_sheet(state: ReefsState, seat: int, colourblind: bool = True) -> list[str]:
    """The lattice of one seat as lines of Rich markup."""
    b = state.board
    sh = state.sheets[seat]
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    x0, y0 = min(xs), min(ys)
    width = (max(xs) - x0) * CELL_W + CELL_W + 2
    height = (max(ys) - y0) * CELL_H + 1
    grid: list[list[str]] = [[" "] * width for _ in range(height)]
    # per character: (kind, colour, extra) where kind is a route colour 0-4 or a code above
    style: list[list[tuple[int, int, str]]] = [[(_PLAIN, -1, "")] * width for _ in range(height)]
    ends = {sh.end[c]: c for c in range(5) if sh.entry[c] >= 0}
    targets = set(next_spaces(state, seat))

    def pos(s: int) -> tuple[int, int]:
        x, y = b.xy[s]
        return (y - y0) * CELL_H, (x - x0) * CELL_W

    for s in range(b.n):
        row, col = pos(s)
        label, colour = _space_label(state, seat, s)
        label = label[: CELL_W - 1]
        extra = ""
        if s in ends:
            colour, extra = ends[s], "reverse"
        elif s in targets:
            extra = "underline"
        for i, ch in enumerate(label):
            if col + i < width:
                grid[row][col + i] = ch
                style[row][col + i] = (_LABEL, colour, extra)
    for ci, (a, c) in enumerate(b.conns):
        owner = sh.owner[ci] - 1
        (ra, ca), (rc, cc) = pos(a), pos(c)
        mark = (owner, owner, "") if owner >= 0 else (_FREE, -1, "")
        if ra == rc:  # horizontal: fill the blanks between the two labels
            lo, hi = sorted((ca, cc))
            for col in range(lo + 1, hi):
                if style[ra][col][0] == _PLAIN:
                    grid[ra][col] = LETTERS[owner] if owner >= 0 else "·"
                    style[ra][col] = mark
        elif ca == cc:  # vertical
            lo, hi = sorted((ra, rc))
            for row in range(lo + 1, hi):
                grid[row][ca + 1] = LETTERS[owner] if owner >= 0 else ":"
                style[row][ca + 1] = mark
        else:  # diagonal: one mark at the midpoint
            row, col = (ra + rc) // 2, (ca + cc) // 2 + 1
            slope = (rc - ra) * (cc - ca) > 0
            grid[row][col] = LETTERS[owner] if owner >= 0 else ("╲" if slope else "╱")
            style[row][col] = mark
    lines = []
    for r in range(height):
        out = []
        run = ""
        run_style: tuple[int, int, str] = (_PLAIN, -1, "")
        for ch, st in [*zip(grid[r], style[r], strict=True), ("", (-3, -1, ""))]:
            if st != run_style and run:
                out.append(_span(run, run_style))
                run = ""
            run_style = st
            run += ch
        lines.append("".join(out).rstrip())
    return lines


def _span(text: str, st: tuple[int, int, str]) -> str:
    kind, colour, extra = st
    e = _esc(text)
    parts = []
    if kind >= 0 or kind == _LABEL:
        parts.append("bold")
    if colour >= 0:
        parts.append(STYLE[colour])
    if kind == _FREE:
        parts.append("dim")
    if extra:
        parts.append(extra)
    return f"[{' '.join(parts)}]{e}[/]" if parts else e


def _plain(markup: str) -> str:
    from rich.text import Text

    return Text.from_markup(markup).plain


def _colour(c: int, text: str) -> str:
    return f"[bold {STYLE[c]}]{_esc(text)}[/]"


def route_lines(state: ReefsState, seat: int) -> list[str]:
    """Each route in words: where it started, where its free end is, how many steps it has;
    and, while this seat draws, where the pencil may go next."""
    b = state.board
    sh = state.sheets[seat]
    parts = []
    for c in range(5):
        if sh.entry[c] < 0:
            parts.append(f"{_colour(c, LETTERS[c])} -")
        else:
            steps = sum(1 for o in sh.owner if o == c + 1)
            parts.append(f"{_colour(c, LETTERS[c])} {b.ids[sh.entry[c]]}→"
                         f"[reverse]{_esc(b.ids[sh.end[c]])}[/] ({steps})")
    out = ["Routes: " + "  ".join(parts)]
    if len(_plain(out[0])) > 79:  # keep within 80 columns: two lines
        out = ["Routes: " + "  ".join(parts[:3]), "        " + "  ".join(parts[3:])]
    targets = next_spaces(state, seat)
    if state.pc >= 0 and state.seat == seat and not state.over:
        c = state.pc
        where = ", ".join(b.ids[t] for t in targets)
        started = sh.entry[c] >= 0
        if where:
            what = f"next step from {b.ids[sh.end[c]]} to" if started else "start at"
            out.append(f"{_colour(c, COLOURS[c].capitalize())}: {what} {where} (underlined)"
                       + ("; or stop" if state.pmode == PLUS and state.prem >= PLUS_MIN else ""))
        elif state.pmode == PLUS and state.prem >= PLUS_MIN:
            out.append(f"{_colour(c, COLOURS[c].capitalize())} cannot go on: stop")
        else:
            out.append(f"{_colour(c, COLOURS[c].capitalize())} cannot be drawn: forfeit")
    return out


def _cell(mark: str, grey: bool, value: int, colour: int = -1, nxt: bool = False) -> str:
    text = f"{mark}{'░' if grey else ' '}{value:>2}"
    if colour >= 0:
        return f"[bold {STYLE[colour]}]{_esc(mark)}[/]{text[1:]}"
    if nxt:
        return f"[bold]{_esc(mark)}[/]{text[1:]}"
    return f"[dim]{_esc(mark)}[/]{text[1:]}"


def render_pad(state: ReefsState, seat: int) -> list[str]:
    """The score pad of one seat as printed: the treasure rows (box values, grey boxes, the
    coloured boxes and the next one), the coin row, propellers, the bonus stars and the total."""
    b = state.board
    sh = state.sheets[seat]
    sc = state.scores()[seat]
    lines = []
    for c in range(5):
        cells = []
        for i, v in enumerate(b.row_values[c]):
            grey = i < b.row_grey[c]
            if i < sh.boxes[c]:
                cells.append(_cell(LETTERS[c], grey, v, colour=c))
            elif i == sh.boxes[c]:
                cells.append(_cell(">", grey, v, nxt=True))
            else:
                cells.append(_cell("·", grey, v))
        lines.append(f"{_colour(c, f'{LETTERS[c]} {COLOURS[c]:<7}')} {' '.join(cells)}"
                     f"  = {sc.breakdown[COLOURS[c]]}")
    coins = []
    for i, v in enumerate(b.coin_values):
        if i < sh.coins:
            coins.append(_cell("$", False, v, nxt=True))
        elif i == sh.coins:
            coins.append(_cell(">", False, v, nxt=True))
        else:
            coins.append(_cell("·", False, v))
    lines.append(f"$ coins    {' '.join(coins)}  = {sc.breakdown['coins']}")
    if b.n_props:
        marks = ["x" if i < sh.props_used else "%" if i < sh.props else "·"
                 for i in range(b.n_props)]
        ready = sh.props - sh.props_used
        lines.append(f"% propellers {' '.join(marks)}   {sh.props} of {b.n_props} collected, "
                     f"{sh.props_used} used, {ready} ready (x used, % ready)")
    grey_rows = [LETTERS[c] for c in range(5) if sh.boxes[c] >= b.row_grey[c]]
    coin_end = f"last coin box ({sh.coins} of {b.coin_len})"
    if any(b.row_grey):
        lines.append(f"  game end: grey in all 5 rows (reached: "
                     f"{' '.join(grey_rows) or 'none'}) or {coin_end}")
    else:
        lines.append(f"  game end: {coin_end}")
    lines.append("  " + _stars(state, seat))
    lines.append(f"[bold]TOTAL {sc.total}[/]")
    return lines


def _stars(state: ReefsState, seat: int) -> str:
    """The four bonus stars of the pad: taken by this seat (+points), by another, or open."""
    b = state.board
    bonus = b.bonus

    def first(holder: int, points: int, what: str) -> str:
        if holder == seat:
            return f"{what} +{points}"
        if holder >= 0:
            return f"{what}: {_esc(state.seats[holder])}"
        return f"{what}: open ({points})"

    parts = [
        first(state.two_each_holder, bonus.two_each, "2 boxes in every row"),
        first(state.full_row_holder, bonus.full_row, "a full row"),
    ]
    if state.over and state.ender == seat:
        if state.end_grey:
            parts.append(f"end, grey boxes +{bonus.end_grey}")
        if state.end_coins:
            parts.append(f"end, last coin box +{bonus.end_coins}")
    return "★ " + "; ".join(parts)


def render_score(state: ReefsState, seat: int | None = None, colourblind: bool = True) -> str:
    """Every seat's score pad, as printed (``score`` at the prompt); ``seat`` comes first."""
    order = list(range(state.players))
    if seat is not None and 0 <= seat < state.players:
        order.remove(seat)
        order.insert(0, seat)
    out: list[str] = []
    for s in order:
        out.append(f"[bold]{_esc(state.seats[s])}[/]")
        out.extend(render_pad(state, s))
        out.append("")
    out.append(_PAD_LEGEND)
    return "\n".join(out)


_PAD_LEGEND = ("[dim]box: mark, ░ if grey, value printed above; "
               "O R B G P $ coloured, > next, · empty[/]")


def _status(state: ReefsState) -> str:
    if state.over:
        return f"[bold]Game over[/]: {_esc(end_reason(state))}"
    if state.phase == P_ROLL:
        return f"Rolling the pencils for {_esc(state.seats[state.roller])}"
    who = _esc(state.seats[state.seat])
    if state.phase == P_DRAW:
        return f"To move: {who}, drawing {_esc(state.pencil_text())}"
    return f"To move: {who}, take a pencil"


def render(state: ReefsState, seat: int | None, colourblind: bool = True) -> str:
    seats = range(state.players) if seat is None else [seat]
    out: list[str] = [f"[bold]Pick a Pen: Reefs[/] - {_esc(state.board.sheet.title)}"
                      f" - round {state.rounds}"]
    mid = []
    for c in range(5):
        f = state.middle[c]
        if f >= 0:
            mid.append(f"{_colour(c, LETTERS[c])} {face_words(f)}")
    out.append("Middle: " + (", ".join(mid) or "no pencils"))
    out.append(_status(state))
    for s in seats:
        out.append("")
        out.append(f"[bold]{_esc(state.seats[s])}[/]")
        out.extend(render_sheet(state, s, colourblind))
        out.extend(route_lines(state, s))
        out.extend(render_pad(state, s))
    if seat is not None and state.players > 1:
        others = state.scores()
        out.append("Others: " + ", ".join(
            f"{_esc(state.seats[i])} {others[i].total}" for i in range(state.players) if i != seat))
    out.append("")
    out.append(_PAD_LEGEND)
    out.append("[dim]> entry point  $ coin  @ whirlpool  % propeller  * collected  "
               "(n neutral)[/]")
    out.append("[dim]c2:3o a treasure worth 3 for orange on c2; routes drawn as O R B G P[/]")
    out.append("[dim]Routes: start→end (steps); route ends in reverse video, "
               "next spaces underlined[/]")
    return "\n".join(out)
