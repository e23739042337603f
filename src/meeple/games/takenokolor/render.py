"""Terminal rendering: the sheet as a grid of cells (from the sheet's col/row geometry), the
markers, ladybugs, races and the score pad. Every cell shows a colour letter, so it reads
without colour (colour-blind friendly)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.takenokolor.moves import COLOUR, FREE, ROLL, TAKE
from meeple.games.takenokolor.sheet import ANY, COLOURS, SYMBOLS

if TYPE_CHECKING:
    from meeple.games.takenokolor.rules import TakenokolorState

OPEN = {"circle": "○", "square": "□", "triangle": "△"}
FULL = {"circle": "●", "square": "■", "triangle": "▲"}
STYLE = {"B": "bold blue", "Y": "bold yellow", "P": "bold magenta", "G": "bold green"}


def _cell(st: TakenokolorState, p: int, i: int, legal: set[int], colourblind: bool) -> tuple[str, int]:
    cs = st.cs
    c = cs.item_colour[i]
    letter = "*" if c == ANY else COLOURS[c]
    sym = SYMBOLS[cs.item_symbol[i]]
    pts = cs.item_points[i]
    done = st.coloured[p] >> i & 1
    if done and cs.adjacent >> i & 1:
        letter = COLOURS[(st.colcode[p] >> (2 * i)) & 3]
    glyph = FULL[sym] if done else OPEN[sym]
    mark = ">" if i in legal else ("#" if done else ("." if st.avail[p] >> i & 1 else " "))
    extra = "+" if cs.item_grants[i] else ""
    text = f"{mark}{cs.item_ids[i]} {letter}{glyph}{pts if pts else ''}{extra}"
    width = len(text)
    if done:
        style = STYLE.get(letter, "bold")
        text = f"[{style}]{text}[/]"
    elif not (st.avail[p] >> i & 1):
        text = f"[dim]{text}[/]"
    return text, width


def render(st: TakenokolorState, seat: int | None, colourblind: bool) -> str:
    cs = st.cs
    p = seat if seat is not None else (st.seat if st.seat >= 0 else 0)
    lines: list[str] = []
    title = cs.sheet.title or cs.sheet.name
    lines.append(f"[bold]Takenokolor[/] - {title} - round {st.rounds + 1}, "
                 f"panda: {st.seats[st.holder]}")
    marks = []
    for k in range(4):
        s = st.rolled[k]
        face = SYMBOLS[s] if s >= 0 else "?"
        state = "" if st.left >> k & 1 else " (taken)"
        marks.append(f"[{STYLE[COLOURS[k]]}]{COLOURS[k]}[/] {face}{state}")
    lines.append("Markers: " + ", ".join(marks))
    if st.phase == ROLL:
        lines.append(f"Rolling the markers ({COLOURS[st.n_rolled]} next)")
    elif st.phase in (TAKE, COLOUR, FREE):
        what = {TAKE: "take a marker", COLOUR: f"colour an item with {COLOURS[st.taken]}",
                FREE: "make a free colouring (T3)"}[st.phase]
        lines.append(f"To move: {st.seats[st.seat]}: {what}")
    else:
        lines.append("Game over; winners: " + ", ".join(st.seats[w] for w in st.winners()))
    legal: set[int] = set()
    if st.phase in (COLOUR, FREE) and st.seat == p:
        legal = {m.a for m in st.legal_moves()}
    lines.append(f"\n[bold]{st.seats[p]}[/]'s garden (> legal, # coloured, . open now):")
    grid: dict[tuple[int, int], int] = {}
    for i, it in enumerate(it for a in cs.sheet.areas for it in a.items):
        grid[(it.row, it.col)] = i
    cells = {k: _cell(st, p, i, legal, colourblind) for k, i in grid.items()}
    ncols = max(c for _, c in grid) + 1
    widths = [0] * ncols
    for (_, c), (_, w) in cells.items():
        widths[c] = max(widths[c], w + 1)
    for r in sorted({r for r, _ in grid}):
        out = ""
        for c in range(ncols):
            if (r, c) in cells:
                text, w = cells[(r, c)]
                out += text + " " * (widths[c] - w)
            else:
                out += " " * widths[c]
        lines.append(out.rstrip())
    lines.append("")
    for area in cs.sheet.areas:
        if area.title:
            lines.append(f"  {area.id}: {area.title}")
    lbs = [lb.label or lb.id for li, lb in enumerate(cs.sheet.ladybugs) if st.ladybugs[p] >> li & 1]
    lines.append(f"Ladybugs circled: {len(lbs)}/{cs.sheet.ladybugs_to_end}"
                 + (f" ({', '.join(lbs)})" if lbs else ""))
    for ri, race in enumerate(cs.sheet.races):
        mine = ("first" if st.first[p] >> ri & 1 else
                "later" if st.later[p] >> ri & 1 else "-")
        taken = "claimed" if st.claimed >> ri & 1 else "open"
        lines.append(f"  {race.label or race.id}: {mine} ({taken})")
    lines.append("\n[bold]Score pad[/]")
    scores = st.scores()
    rows_ = [r.row for r in cs.sheet.scoring]
    w = max(8, *(len(name) + 2 for name in st.seats))
    lines.append(f"  {'':<24}" + "".join(f"{name:>{w}}" for name in st.seats))
    for name in rows_:
        lines.append(f"  {name[:24]:<24}" + "".join(f"{sc.breakdown[name]:>{w}}" for sc in scores))
    lines.append(f"  {'Total':<24}" + "".join(f"{sc.total:>{w}}" for sc in scores))
    return "\n".join(lines)
