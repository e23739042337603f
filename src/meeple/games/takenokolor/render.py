"""Terminal rendering of Takenokolor: the markers, the garden as a grid of cells (from the
sheet's col/row geometry, each area named in the grid), what each area does, ladybugs, the
first-player races and the score pad; also the pad alone (``render_score``). The names and the
announcements are in :mod:`.words`, the notation help in :mod:`.moves`.

Every cell shows its colour letter and symbol, so the screen reads without colour. Colours are
fixed xterm-256 colours (not the 16 theme colours, which differ between terminals) chosen to keep
a contrast of at least 3:1 against both a black and a white background; a coloured section is a
chip (black or white text on its colour), readable on either background.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape

from meeple.core.text import possessive, subject
from meeple.games.takenokolor.moves import COLOUR, FREE, ROLL, TAKE
from meeple.games.takenokolor.sheet import ANY, COLOUR_NAMES, COLOURS, SYMBOLS
from meeple.games.takenokolor.words import area_label, cap, game_over_text, row_detail, row_text

if TYPE_CHECKING:
    from meeple.games.takenokolor.rules import TakenokolorState
    from meeple.games.takenokolor.sheet import Area

OVER = 4  # the phase after the last round
OPEN = {"circle": "○", "square": "□", "triangle": "△"}
FULL = {"circle": "●", "square": "■", "triangle": "▲"}
#: Letters of items not yet coloured: mid-tone colours, >= 3:1 on black and on white.
INK = {"B": "color(32)", "Y": "color(136)", "P": "color(169)", "G": "color(28)", "*": "bold"}
#: Coloured items: a chip of the colour with black or white text (>= 4.5:1).
CHIP = {"B": "bold color(231) on color(25)", "Y": "bold color(16) on color(178)",
        "P": "bold color(16) on color(211)", "G": "bold color(16) on color(34)"}
#: Items that cannot be coloured yet, are passed or locked: grey, >= 3:1 on black and white.
GREY = "color(244)"
LADYBUG = "✿"
KEY = ("> legal now  . open now  # coloured  - passed (no going back)  x locked (T6)\n"
       "grey: not open yet  B blue  Y yellow  P pink  G green  * any colour\n"
       "○ □ △ symbol (● ■ ▲ coloured)  number: printed points  + earns a free colouring\n"
       f"{LADYBUG} completing the area circles a ladybug  ✓ area complete")
FOOT_KEY = "foot 3/1: a dragon foot, its first / later number (in brackets: what you keep)"


def marker_text(k: int, symbol: int | None = None) -> str:
    """A marker as a chip with its letter and name, and its rolled symbol."""
    c = COLOURS[k]
    face = " ?" if symbol is None or symbol < 0 else f" {OPEN[SYMBOLS[symbol]]} {SYMBOLS[symbol]}"
    return f"[{CHIP[c]}] {c} [/]{face}"


# ---------------------------------------------------------------------- the garden grid
def _status(st: TakenokolorState, p: int, i: int) -> str:
    """One of: coloured, open, locked, passed, later (not open yet)."""
    cs = st.cs
    if st.coloured[p] >> i & 1:
        return "coloured"
    if st.avail[p] >> i & 1:
        return "open"
    if st.blocked[p] >> i & 1:
        return "locked"
    ai = cs.item_area[i]
    if cs.area_sequence[ai]:
        done = st.coloured[p] & cs.area_mask[ai]
        if done and cs.item_step[done.bit_length() - 1] >= cs.item_step[i]:
            return "passed"
    return "later"


def _cell(st: TakenokolorState, p: int, i: int, legal: set[int]) -> tuple[str, int]:
    cs = st.cs
    c = cs.item_colour[i]
    letter = "*" if c == ANY else COLOURS[c]
    sym = SYMBOLS[cs.item_symbol[i]]
    pts = cs.item_points[i]
    status = _status(st, p, i)
    done = status == "coloured"
    if done and cs.adjacent >> i & 1:
        letter = COLOURS[(st.colcode[p] >> (2 * i)) & 3]
    glyph = FULL[sym] if done else OPEN[sym]
    mark = ">" if i in legal else {"coloured": "#", "open": ".", "locked": "x",
                                   "passed": "-"}.get(status, " ")
    tail = f"{letter}{glyph}{pts if pts else ''}{'+' if cs.item_grants[i] else ''}"
    iid = cs.item_ids[i]
    width = len(mark) + len(iid) + 1 + len(tail)
    if done:
        text = f"{mark}{iid} [{CHIP.get(letter, 'bold reverse')}]{tail}[/]"
    elif i in legal:
        text = f"[bold underline {INK[letter]}]{mark}{iid} {tail}[/]"
    elif status == "open":
        text = f"[{INK[letter]}]{mark}{iid} {tail}[/]"
    else:
        text = f"[{GREY}]{mark}{iid} {tail}[/]"
    return text, width


def _ladybug_areas(st: TakenokolorState) -> set[int]:
    cs = st.cs
    out: set[int] = set()
    for li, lb in enumerate(cs.sheet.ladybugs):
        out.update(cs.ladybug_areas[li])
        for iid in lb.items:
            out.add(cs.item_area[cs.index[iid]])
    return out


def _grid(st: TakenokolorState, p: int, legal: set[int]) -> list[str]:
    cs = st.cs
    grid: dict[tuple[int, int], int] = {}
    for i, item in enumerate(it for a in cs.sheet.areas for it in a.items):
        grid[(item.row, item.col)] = i
    cells = {k: _cell(st, p, i, legal) for k, i in grid.items()}
    ncols = max(c for _, c in grid) + 1
    widths = [0] * ncols
    for (_, c), (_, w) in cells.items():
        widths[c] = max(widths[c], w + 1)
    # area names: above an area's top row, below a bamboo (its ground)
    bugs = _ladybug_areas(st)
    above: dict[int, list[tuple[int, str]]] = {}
    below: dict[int, list[tuple[int, str]]] = {}
    runs: dict[int, list[tuple[int, str, list[str], bool]]] = {}  # row: (col, kind, names, bug)
    for ai, area in enumerate(cs.sheet.areas):
        rows = [it.row for it in area.items]
        col = min(it.col for it in area.items)
        name = area_label(st, ai)
        done = " ✓" if cs.complete(st.coloured[p], ai) else ""
        if area.kind == "bamboo":
            mark = f" {LADYBUG}" if ai in bugs else ""
            below.setdefault(max(rows), []).append((col, name + mark + done))
            continue
        run = runs.setdefault(min(rows), [])
        short = name.startswith(area.kind + " ")
        if short and run and run[-1][1] == area.kind:
            # lanterns l1, l2, l3 side by side: one name for them
            c0, kind, names, bug = run[-1]
            run[-1] = (c0, kind, [*names, name[len(kind) + 1:] + done], bug or ai in bugs)
        else:
            run.append((col, area.kind if short else "", [name + done], ai in bugs))
    for ri, race in enumerate(cs.sheet.races):
        if race.when != "any":  # lanterns are named above; a dragon foot is drawn below
            continue
        its = [cs.sheet.areas[cs.item_area[cs.index[iid]]].items for iid in race.items]
        cells_ = [it for items in its for it in items if it.id in race.items]
        kept = (f" ({race.first})" if st.first[p] >> ri & 1 else
                f" ({race.later})" if st.later[p] >> ri & 1 else "")
        name = "foot" if cs.sheet.areas[cs.item_area[cs.index[race.items[0]]]].kind == "dragon" \
            else race.id
        below.setdefault(max(it.row for it in cells_), []).append(
            (min(it.col for it in cells_), f"{name} {race.first}/{race.later}{kept}"))
    for r, run in runs.items():
        for col, kind, names, bug in run:
            text = (f"{kind}s " + ", ".join(n.removeprefix(kind + " ") for n in names)
                    if len(names) > 1 else names[0])
            above.setdefault(r, []).append((col, text + (f" {LADYBUG}" if bug else "")))
    xs = [sum(widths[:c]) for c in range(ncols + 1)]

    def label_line(labels: list[tuple[int, str]]) -> str:
        labels = sorted(labels)
        out = ""
        for n, (col, name) in enumerate(labels):
            x = xs[col] + 1
            if len(out) > x:
                continue
            room = (xs[labels[n + 1][0]] + 1 if n + 1 < len(labels) else 10**6) - x - 1
            if len(name) > room:
                name = name[:max(room - 1, 1)] + "…"
            out += " " * (x - len(out)) + name
        return f"[italic]{escape(out.rstrip())}[/]"

    lines: list[str] = []
    for r in sorted({r for r, _ in grid}):
        if r in above:
            lines.append(label_line(above[r]))
        out = ""
        for c in range(ncols):
            if (r, c) in cells:
                text, w = cells[(r, c)]
                out += text + " " * (widths[c] - w)
            else:
                out += " " * widths[c]
        lines.append(out.rstrip())
        if r in below:
            lines.append(label_line(below[r]))
    return lines


# ---------------------------------------------------------------------- what each area does
def _gives(st: TakenokolorState, area: Area) -> str:
    labels = [g.label or f"{g.count} {g.target}" for g in area.on_complete]
    return f"; when complete: free {', '.join(labels)}" if labels else ""


def _areas_legend(st: TakenokolorState, p: int) -> list[str]:
    cs = st.cs
    by_title: dict[str, list[int]] = {}
    for ai, area in enumerate(cs.sheet.areas):
        key = area.title or (area.kind + _gives(st, area))
        by_title.setdefault(key, []).append(ai)
    lines = []
    for title, ais in by_title.items():
        names = []
        for ai in ais:
            m = cs.area_mask[ai]
            done = (st.coloured[p] & m).bit_count()
            full = "✓" if cs.complete(st.coloured[p], ai) else f" {done}/{m.bit_count()}"
            names.append(f"{area_label(st, ai)}{full}")
        lines.append(f"  {escape(', '.join(names))}: {escape(title)}")
        grants: dict[str, list[str]] = {}  # what each + item gives
        for ai in ais:
            for it in cs.sheet.areas[ai].items:
                for g in it.grants:
                    grants.setdefault(g.label or f"{g.count} {g.target}", []).append(it.id)
        if grants:
            lines.append("    + free colouring: " + "; ".join(
                f"{' '.join(ids)} → {escape(label)}" for label, ids in grants.items()))
    return lines


def _ladybugs(st: TakenokolorState, p: int) -> list[str]:
    cs = st.cs
    need = cs.sheet.ladybugs_to_end
    labels = [lb.label or lb.id for lb in cs.sheet.ladybugs]
    mine = [x for li, x in enumerate(labels) if st.ladybugs[p] >> li & 1]
    rest = [x for li, x in enumerate(labels) if not st.ladybugs[p] >> li & 1
            and not (len(cs.sheet.ladybugs[li].areas) == 1 and not cs.sheet.ladybugs[li].items)]
    if len(rest) < len(labels) - len(mine):  # the others are one area each, marked in the grid
        rest.append(f"the other areas marked {LADYBUG}")
    counts = ", ".join(f"{escape(name)} {st.ladybugs[q].bit_count()}"
                       for q, name in enumerate(st.seats))
    return [f"[bold]Ladybugs circled: {len(mine)}/{need}[/] {LADYBUG} in "
            f"{escape(possessive(st.seats[p]))} garden"
            + (f" ({escape(', '.join(mine))})" if mine else "")
            + (f"; not yet: {escape(', '.join(rest))}" if rest else ""),
            f"  every garden: {counts}; the round in which someone circles {need} is the "
            "last (T4)"]


def race_state(st: TakenokolorState, ri: int) -> str:
    """Who holds the first number of a race and who kept the later one."""
    first = [st.seats[q] for q in range(st.players) if st.first[q] >> ri & 1]
    later = [st.seats[q] for q in range(st.players) if st.later[q] >> ri & 1]
    race = st.cs.sheet.races[ri]
    if not first:
        return f"open: the first to get there keeps {race.first}"
    text = f"first {', '.join(first)} ({race.first})"
    return text + (f", later ({race.later}): {', '.join(later)}" if later
                   else f"; anyone later keeps {race.later}")


def _races(st: TakenokolorState) -> list[str]:
    races = st.cs.sheet.races
    if not races:
        return []
    lines = ["[bold]First-player boxes[/] (first to get there keeps the first number, A3):"]
    for ri, race in enumerate(races):
        items = (" and " if race.when == "all" else " or ").join(race.items)
        lines.append(f"  {escape(race.label or race.id)} ({items}): "
                     f"{escape(race_state(st, ri))}")
    return lines


def _status_line(st: TakenokolorState) -> str:
    if st.phase == ROLL:
        return (f"{escape(cap(subject(st.seats[st.holder], 'rolls')))} the markers "
                f"(the {COLOUR_NAMES[COLOURS[st.n_rolled]]} marker next)")
    if st.phase == TAKE:
        return (f"To move: {escape(st.seats[st.seat])}: take a marker that can colour a "
                "matching item (colour AND symbol)")
    if st.phase == COLOUR:
        k = st.taken
        return (f"To move: {escape(st.seats[st.seat])}: colour one item that is "
                f"{COLOURS[k]} {OPEN[SYMBOLS[st.rolled[k]]]} ({COLOUR_NAMES[COLOURS[k]]} "
                f"{SYMBOLS[st.rolled[k]]}) with the {COLOUR_NAMES[COLOURS[k]]} marker")
    if st.phase == FREE:
        g = st.cs.grants[st.pending[0][0]]
        left = st.pending[0][1]
        more = f" ({left} to make)" if left > 1 and g.spread != "group" else ""
        return (f"To move: {escape(st.seats[st.seat])}: a free colouring{more}: "
                f"{escape(g.label or g.target)}; any colour and symbol, order rules kept (T3)")
    return game_over_text(st)


def render(st: TakenokolorState, seat: int | None, colourblind: bool) -> str:
    """The whole screen for ``seat`` (default: the seat to move) as Rich markup."""
    cs = st.cs
    p = seat if seat is not None else (st.seat if st.seat >= 0 else 0)
    title = cs.sheet.title or cs.sheet.name
    rnd = st.rounds if st.phase == OVER else st.rounds + 1
    if title.lower().startswith("garden sheet - "):
        title = title[len("garden sheet - "):]
    lines = [f"[bold]Takenokolor[/] · {escape(title)}",
             f"Round {rnd} · the panda is with {escape(st.seats[st.holder])}"
             + (" · the game is over" if st.phase == OVER else "")]
    marks = []
    for k in range(4):
        text = marker_text(k, st.rolled[k])
        if not st.left >> k & 1:
            text = f"[{GREY}] {COLOURS[k]}  taken[/]"
        elif st.phase == COLOUR and k == st.taken:
            text += " (in hand)"
        marks.append(text)
    legal: set[int] = set()
    if st.phase in (COLOUR, FREE) and st.seat == p:
        legal = {m.a for m in st.legal_moves()}
    # top to bottom: the pad and the races, how each area is coloured, then the garden and the
    # markers right above the prompt, where a player looks when choosing
    lines.append("")
    lines.append(score_pad(st, details=False))
    lines.extend(_ladybugs(st, p))
    lines.extend(_races(st))
    lines.append("\n[bold]Areas[/] (coloured so far / items)")
    lines.extend(_areas_legend(st, p))
    lines.append(f"\n[bold]{escape(cap(possessive(st.seats[p])))} garden[/]")
    lines.extend(_grid(st, p, legal))
    lines.append(f"[{GREY}]{KEY}[/]")
    if any(r.when == "any" for r in cs.sheet.races):
        lines.append(f"[{GREY}]{FOOT_KEY}[/]")
    lines.append("")
    if st.phase != OVER:
        lines.append("Markers: " + "  ".join(marks))
    lines.append(_status_line(st))
    return "\n".join(lines)


# ---------------------------------------------------------------------- the score pad
def score_pad(st: TakenokolorState, details: bool = True) -> str:
    """Every seat's pad: each row as printed, with what it counts (``details``) and the total."""
    scores = st.scores()
    rows = st.cs.sheet.scoring
    w = max(8, *(len(name) + 2 for name in st.seats))
    lw = 26
    head = f"[bold]{'Score pad':<{lw}}[/]" + "".join(f"[bold]{escape(n):>{w}}[/]" for n in st.seats)
    lines = [head]
    for row in rows:
        lines.append(f"{escape(row.row[:lw]):<{lw}}"
                     + "".join(f"{sc.breakdown[row.row]:>{w}}" for sc in scores))
        if details:
            lines.append(f"[{GREY}]  {escape(row_text(st.cs, row))}[/]")
            lines.append(f"[{GREY}]{'':<{lw}}"
                         + "".join(f"{escape(row_detail(st, row, q)):>{w}}"
                                   for q in range(st.players)) + "[/]")
    lines.append(f"[bold]{'Total':<{lw}}[/]" + "".join(f"[bold]{sc.total:>{w}}[/]" for sc in scores))
    if st.phase == OVER:
        lines.append(game_over_text(st))
    return "\n".join(lines)


def render_score(st: TakenokolorState, seat: int | None, colourblind: bool) -> str:
    """The score pad alone (``score`` at the prompt): every seat, every row with what it counts."""
    return score_pad(st, details=True)
