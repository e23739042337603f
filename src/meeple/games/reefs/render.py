"""Terminal drawing of a Reefs position: each seat's lattice with the routes in colour and a
letter per colour (always shown, colour-blind friendly), ids on spaces, and the live score pad.

Spaces are drawn at their coordinates; a connection is drawn between its two spaces (as a run of
its colour's letter when it carries a line, dots when free). Legend: ``>`` entry point, ``$`` coin,
``@`` whirlpool, ``%`` propeller, ``c2:3o`` a treasure worth 3 for orange on c2 (``n`` neutral);
an item already collected gets a ``*`` (a recovered treasure shows the letter of the colour that
recovered it in upper case).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.reefs.sheet import COLOURS, LETTERS, NEUTRAL

if TYPE_CHECKING:
    from meeple.games.reefs.rules import ReefsState

STYLE = ("dark_orange", "red", "blue", "green", "magenta")
CELL_W = 8  # characters per lattice column
CELL_H = 2  # lines per lattice row


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def _space_label(state: ReefsState, seat: int, s: int) -> str:
    b = state.board
    sh = state.sheets[seat]
    bit = 1 << s
    sid = b.ids[s]
    if b.entry_mask & bit:
        used = sh.entries_used & bit
        owner = next((c for c in range(5) if sh.entry[c] == s), -1)
        return f">{sid}" + (LETTERS[owner] if used and owner >= 0 else "")
    if b.coin_mask & bit:
        return sid + ("$*" if sh.coins_taken & bit else "$")
    if b.whirl_mask & bit:
        return sid + ("@*" if sh.whirls & bit else "@")
    if b.prop_mask & bit:
        return sid + ("%*" if sh.props_taken & bit else "%")
    t = b.treasure_at[s]
    if t >= 0:
        tc = b.treasure_colour[t]
        letter = "n" if tc == NEUTRAL else LETTERS[tc].lower()
        got = sh.treasure[t]
        if got >= 0:
            return f"{sid}:{b.treasure_value[t]}{LETTERS[got]}*"
        return f"{sid}:{b.treasure_value[t]}{letter}"
    return sid


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
    style: list[list[int]] = [[-1] * width for _ in range(height)]

    def pos(s: int) -> tuple[int, int]:
        x, y = b.xy[s]
        return (y - y0) * CELL_H, (x - x0) * CELL_W

    for s in range(b.n):
        row, col = pos(s)
        label = _space_label(state, seat, s)[: CELL_W - 1]
        for i, ch in enumerate(label):
            if col + i < width:
                grid[row][col + i] = ch
                style[row][col + i] = -2
    for ci, (a, c) in enumerate(b.conns):
        owner = sh.owner[ci] - 1
        (ra, ca), (rc, cc) = pos(a), pos(c)
        if ra == rc:  # horizontal: fill the blanks between the two labels
            lo, hi = sorted((ca, cc))
            for col in range(lo + 1, hi):
                if style[ra][col] == -1:
                    grid[ra][col] = LETTERS[owner] if owner >= 0 else "·"
                    style[ra][col] = owner
        elif ca == cc:  # vertical
            lo, hi = sorted((ra, rc))
            for row in range(lo + 1, hi):
                grid[row][ca + 1] = LETTERS[owner] if owner >= 0 else ":"
                style[row][ca + 1] = owner
        else:  # diagonal: one mark at the midpoint
            row, col = (ra + rc) // 2, (ca + cc) // 2 + 1
            slope = (rc - ra) * (cc - ca) > 0
            if owner >= 0:
                grid[row][col] = LETTERS[owner]
            else:
                grid[row][col] = "╲" if slope else "╱"
            style[row][col] = owner
    lines = []
    for r in range(height):
        out = []
        run = ""
        run_style = -1
        for ch, st in [*zip(grid[r], style[r], strict=True), ("", -3)]:
            if ch in "·:╱╲" and st == -1:
                st = -4  # free connection
            if st != run_style and run:
                out.append(_span(run, run_style))
                run = ""
            run_style = st
            run += ch
        lines.append("".join(out).rstrip())
    return lines


def _span(text: str, st: int) -> str:
    e = _esc(text)
    if st >= 0:
        return f"[bold {STYLE[st]}]{e}[/]"
    if st == -2:
        return f"[bold]{e}[/]"
    if st == -4:
        return f"[dim]{e}[/]"
    return e


def render_pad(state: ReefsState, seat: int) -> list[str]:
    """The score pad of one seat: treasure rows, coin row, propellers, bonuses."""
    b = state.board
    sh = state.sheets[seat]
    sc = state.scores()[seat]
    lines = []
    for c in range(5):
        boxes = []
        for i, v in enumerate(b.row_values[c]):
            filled = i < sh.boxes[c]
            grey = i < b.row_grey[c]
            box = f"{LETTERS[c]}" if filled else ("░" if grey else "_")
            boxes.append(f"{box}{v:>2}")
        row = " ".join(boxes)
        lines.append(
            f"[{STYLE[c]}]{LETTERS[c]} {COLOURS[c]:<7}[/] {row}  = {sc.breakdown[COLOURS[c]]}"
        )
    coins = " ".join(
        ("$" if i < sh.coins else "_") + f"{v:>2}" for i, v in enumerate(b.coin_values))
    lines.append(f"$ coins   {coins}  = {sc.breakdown['coins']}")
    if b.n_props:
        lines.append(
            f"% propellers collected {sh.props}/{b.n_props}, used {sh.props_used}"
        )
    bonus = []
    for key in ("bonus 2 each", "bonus full row", "end grey", "end coins"):
        if sc.breakdown[key]:
            bonus.append(f"{key} +{sc.breakdown[key]}")
    holders = []
    if state.two_each_holder >= 0:
        holders.append(f"2-each star: {state.seats[state.two_each_holder]}")
    if state.full_row_holder >= 0:
        holders.append(f"full-row star: {state.seats[state.full_row_holder]}")
    lines.append("* " + (", ".join(bonus) or "no bonus") + (
        "   (" + "; ".join(holders) + ")" if holders else ""))
    lines.append(f"[bold]TOTAL {sc.total}[/]")
    return lines


def render(state: ReefsState, seat: int | None, colourblind: bool = True) -> str:
    from meeple.games.reefs.moves import FACES
    from meeple.games.reefs.rules import P_DRAW, P_ROLL

    seats = range(state.players) if seat is None else [seat]
    out: list[str] = [f"[bold]Pick a Pen: Reefs[/] - {_esc(state.board.sheet.title)}"
                      f" - round {state.rounds}"]
    mid = []
    for c in range(5):
        f = state.middle[c]
        if f >= 0:
            mid.append(f"[{STYLE[c]}]{LETTERS[c]}[/] {COLOURS[c]} {FACES[f][0]}")
    out.append("Middle: " + (", ".join(mid) or "no pencils"))
    if state.over:
        if state.ender >= 0:
            why = [w for w, ok in (("grey boxes in all rows", state.end_grey),
                                   ("last coin box", state.end_coins)) if ok]
            out.append(f"[bold]Game over[/]: {state.seats[state.ender]} ended it "
                       f"({', '.join(why)})")
        else:
            out.append("[bold]Game over[/]: no sheet can take another step")
    elif state.phase == P_ROLL:
        out.append(f"Rolling the pencils for {state.seats[state.roller]}")
    else:
        who = state.seats[state.seat]
        if state.phase == P_DRAW:
            out.append(f"To move: {who}, drawing {_esc(state.pencil_text())}")
        else:
            out.append(f"To move: {who}, take a pencil")
    for s in seats:
        out.append("")
        out.append(f"[bold]{_esc(state.seats[s])}[/]")
        out.extend(render_sheet(state, s, colourblind))
        out.extend(render_pad(state, s))
    if seat is not None and state.players > 1:
        others = state.scores()
        out.append("Others: " + ", ".join(
            f"{_esc(state.seats[i])} {others[i].total}" for i in range(state.players) if i != seat))
    out.append("")
    out.append("[dim]> entry  $ coin  @ whirlpool  % propeller  * collected[/]")
    out.append("[dim]c2:3o treasure on c2 worth 3 for orange (n neutral); "
               "routes: O R B G P[/]")
    return "\n".join(out)
