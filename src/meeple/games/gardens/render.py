"""Terminal drawing of a Gardens sheet as Rich markup (no Rich import: plain strings).

Each field shows its id until coloured, then its colour letter on its colour (the rulebook's
colour-blind tip: write the first letter). ``*`` marks a flower field (with its colour letter
in lower case), ``^`` a tree. Gardens are tinted in alternating shades so their borders show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.gardens.sheet import COLOURS, LETTERS, CompiledSheet

if TYPE_CHECKING:
    from meeple.games.gardens.rules import GardensState

STYLE = {
    "orange": "bold black on dark_orange",
    "red": "bold white on red3",
    "green": "bold black on green3",
    "blue": "bold white on blue3",
    "purple": "bold white on magenta3",
}
TINTS = ("grey23", "grey35", "grey15", "grey42", "grey27", "grey50")


def garden_tints(sheet: CompiledSheet) -> tuple[int, ...]:
    """A tint index per garden such that touching gardens differ (greedy colouring)."""
    n = len(sheet.garden_masks)
    touching: list[set[int]] = [set() for _ in range(n)]
    for i in range(sheet.n):
        gi = sheet.garden_of[i]
        nb = sheet.neighbours[i]
        for j in range(sheet.n):
            if nb >> j & 1 and sheet.garden_of[j] != gi:
                touching[gi].add(sheet.garden_of[j])
    tint = [-1] * n
    for g in range(n):
        used = {tint[h] for h in touching[g]}
        tint[g] = next(t for t in range(len(TINTS)) if t not in used)
    return tuple(tint)


def render_sheet(state: GardensState, seat: int, colourblind: bool = True) -> str:
    sheet = state.sheet
    tints = garden_tints(sheet)
    rows: dict[int, list[tuple[int, int]]] = {}
    for i, (q, r) in enumerate(sheet.coords):
        rows.setdefault(r, []).append((q, i))
    fountain = set(map(tuple, sheet.data.fountain))
    xs = [2 * q + r for q, r in sheet.coords] + [2 * q + r for q, r in fountain]
    x0 = min(xs)
    lines = []
    base = seat * 5
    for r in sorted(set(rows) | {r for _, r in fountain}):
        cells = sorted(rows.get(r, []))
        entries = [(2 * q + r - x0, i) for q, i in cells]
        entries += [(2 * q + r - x0, -1) for q, rr in fountain if rr == r]
        entries.sort()
        line = ""
        col = 0
        for x, i in entries:
            pad = x * 2 - col
            line += " " * max(pad, 0)
            col = x * 2
            if i < 0:
                line += "[cyan]~~~[/] "
                col += 4
                continue
            bit = 1 << i
            colour = next((c for c in range(5) if state.cmask[base + c] & bit), -1)
            mark = " "
            if sheet.flower_mask & bit:
                mark = "*"
            elif sheet.tree_mask & bit:
                mark = "^"
            if colour >= 0:
                text = f"{LETTERS[colour]}{mark}".ljust(3)
                if state.phase == 2 and state.group & bit and seat == state.seat:
                    text = f"{LETTERS[colour]}!".ljust(3)
                line += f"[{STYLE[COLOURS[colour]]}]{text}[/] "
            else:
                label = sheet.ids[i]
                if mark != " ":
                    fc = sheet.flower_colour[i]
                    label += mark if fc < 0 else LETTERS[fc].lower()
                line += f"[on {TINTS[tints[sheet.garden_of[i]]]}]{label.ljust(3)}[/] "
            col += 4
        lines.append(line.rstrip())
    return "\n".join(lines)


def render_pad(state: GardensState) -> str:
    scores = state.scores()
    rows = list(scores[0].breakdown)
    names = [state.seats[s] for s in range(state.players)]
    width = max(12, *(len(n) for n in names))
    head = "score pad".ljust(18) + "".join(n[:width].rjust(width + 1) for n in names)
    out = [f"[bold]{head}[/]"]
    for row in rows:
        out.append(row.ljust(18) + "".join(
            str(sc.breakdown[row]).rjust(width + 1) for sc in scores))
    out.append("[bold]" + "total".ljust(18) + "".join(
        str(sc.total).rjust(width + 1) for sc in scores) + "[/]")
    return "\n".join(out)


def render_status(state: GardensState) -> str:
    from meeple.games.gardens.rules import COLOURING, OVER, ROLLING

    parts = []
    if state.phase == OVER:
        return "[bold]game over[/]"
    if state.phase == ROLLING:
        return f"{state.seats[state.seat]} rolls the pencils"
    middle = [f"[{STYLE[COLOURS[c]]}]{LETTERS[c]}{state.faces[c]}[/]"
              for c in range(5) if state.middle >> c & 1]
    parts.append("middle: " + (" ".join(middle) if middle else "(empty)"))
    if state.phase == COLOURING:
        left = state.need - state.group.bit_count()
        parts.append(f"{state.seats[state.seat]} hold(s) [{STYLE[COLOURS[state.hand]]}]"
                     f"{LETTERS[state.hand]}{state.need}[/]: {left} field(s) to colour")
    else:
        parts.append(f"{state.seats[state.seat]} to take a pencil")
    crossed = state.crossed[state.seat]
    total = len(state.pad.pencil_penalties)
    parts.append(f"pencil symbols crossed: {crossed}/{total}")
    return "   ".join(parts)


def render(state: GardensState, seat: int, colourblind: bool = True) -> str:
    title = f"[bold]{state.sheet.data.name}[/] - sheet of {state.seats[seat]}"
    return "\n".join([title, render_sheet(state, seat, colourblind), "",
                      render_status(state), "", render_pad(state)])


def render_text(state: GardensState, seat: int | None, colourblind: bool = True) -> str:
    """The registered renderer: ``seat`` None draws the sheet of the seat to move."""
    return render(state, state.seat if seat is None else seat, colourblind)
