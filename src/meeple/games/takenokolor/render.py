"""The terminal drawing of Takenokolor, read from a per-seat view and the table's layout only.

:func:`draw` is the whole screen about one seat's garden, top to bottom: the sheet's title and
the round, the score pad (without its details), the ladybugs circled, the first-player boxes,
what each area does and how far each is coloured, then that seat's garden as a grid of cells
(placed by the layout's col/row, each area named above or below its cells), a key, the rolled
markers and one line saying who is doing what. :func:`draw_score` is the score pad alone, every
row with what it counts for each seat. Both read nothing but their arguments: the layout
(:class:`~.boards.TakenokolorLayout`) and the view whose ``board`` is a
:class:`~.boards.TakenokolorBoard`, so a client of a server draws the same screen. The shared
words (game over, the end of the game) are in :mod:`.words`.

Every cell shows its colour letter and symbol, so the screen reads without colour. Colours are
fixed xterm-256 colours (not the 16 theme colours, which differ between terminals) chosen to keep
a contrast of at least 3:1 against both a black and a white background; a coloured section is a
chip (black or white text on its colour), readable on either background.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from meeple.core.text import cap, possessive, subject
from meeple.core.viewmodel import View
from meeple.games.takenokolor.boards import (
    AreaInfo,
    GrantInfo,
    ItemInfo,
    RaceInfo,
    SeatBoard,
    TakenokolorBoard,
    TakenokolorLayout,
)
from meeple.games.takenokolor.words import end_words, game_over_line

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
#: The mark before an item's id, by its state on the sheet ("later": not open yet).
MARK = {"coloured": "#", "open": ".", "locked": "x", "passed": "-"}

#: Names placed on a line of the grid: (column, text).
Labels = list[tuple[int, str]]


@dataclass(frozen=True)
class Garden:
    """One seat's marks on its sheet (from the board), as sets to look items up in."""

    ink: dict[str, str]
    open: frozenset[str]
    passed: frozenset[str]
    locked: frozenset[str]
    complete: frozenset[str]
    kept: dict[str, str]

    @classmethod
    def of(cls, sb: SeatBoard) -> Garden:
        return cls(ink={c.item: c.ink for c in sb.coloured}, open=frozenset(sb.open),
                   passed=frozenset(sb.passed), locked=frozenset(sb.locked),
                   complete=frozenset(sb.complete), kept={r.race: r.kept for r in sb.races})

    def status(self, iid: str) -> str:
        """One of: coloured, open, locked, passed, later (not open yet)."""
        if iid in self.ink:
            return "coloured"
        if iid in self.open:
            return "open"
        if iid in self.locked:
            return "locked"
        return "passed" if iid in self.passed else "later"


def marker_text(letter: str, symbol: str | None = None) -> str:
    """A marker as a chip with its letter, and its rolled symbol (``?`` before the roll)."""
    face = " ?" if symbol is None else f" {OPEN[symbol]} {symbol}"
    return f"[{CHIP[letter]}] {letter} [/]{face}"


def _marker_names(layout: TakenokolorLayout) -> dict[str, str]:
    return {m.id: m.name for m in layout.markers}


def _grant_words(g: GrantInfo) -> str:
    """A free colouring as the terminal names it: the sheet's label, else count and target."""
    return g.label or f"{g.count} {g.target}"


# ---------------------------------------------------------------------- the garden grid
def _cell(item: ItemInfo, area: AreaInfo, garden: Garden, legal: set[str]) -> tuple[str, int]:
    """One item's cell as markup, and its width in characters."""
    status = garden.status(item.id)
    done = status == "coloured"
    letter: str = "*" if item.colour == "any" else item.colour
    if done and area.adjacent_different:  # a dragon section shows the marker used
        letter = garden.ink[item.id]
    glyph = FULL[item.symbol] if done else OPEN[item.symbol]
    mark = ">" if item.id in legal else MARK.get(status, " ")
    tail = f"{letter}{glyph}{item.points if item.points else ''}{'+' if item.grants else ''}"
    width = len(mark) + len(item.id) + 1 + len(tail)
    if done:
        return f"{mark}{item.id} [{CHIP.get(letter, 'bold reverse')}]{tail}[/]", width
    if item.id in legal:
        return f"[bold underline {INK[letter]}]{mark}{item.id} {tail}[/]", width
    if status == "open":
        return f"[{INK[letter]}]{mark}{item.id} {tail}[/]", width
    return f"[{GREY}]{mark}{item.id} {tail}[/]", width


def _area_names(layout: TakenokolorLayout, garden: Garden) -> tuple[dict[int, Labels],
                                                                       dict[int, Labels]]:
    """The areas' names by grid row: above an area's top row, below a bamboo (its ground);
    lanterns side by side share one name (``lanterns l1, l2``)."""
    items = {it.id: it for it in layout.items}
    above: dict[int, Labels] = {}
    below: dict[int, Labels] = {}
    runs: dict[int, list[tuple[int, str, list[str], bool]]] = {}  # row: (col, kind, names, bug)
    for area in layout.areas:
        cells = [items[iid] for iid in area.items]
        rows = [it.row for it in cells]
        col = min(it.col for it in cells)
        done = " ✓" if area.id in garden.complete else ""
        bug = bool(area.ladybugs)
        if area.kind == "bamboo":
            below.setdefault(max(rows), []).append(
                (col, area.label + (f" {LADYBUG}" if bug else "") + done))
            continue
        run = runs.setdefault(min(rows), [])
        short = area.label.startswith(area.kind + " ")
        if short and run and run[-1][1] == area.kind:
            c0, kind, names, was_bug = run[-1]
            run[-1] = (c0, kind, [*names, area.label[len(kind) + 1:] + done], was_bug or bug)
        else:
            run.append((col, area.kind if short else "", [area.label + done], bug))
    for r, run in runs.items():
        for col, kind, names, bug in run:
            text = (f"{kind}s " + ", ".join(n.removeprefix(kind + " ") for n in names)
                    if len(names) > 1 else names[0])
            above.setdefault(r, []).append((col, text + (f" {LADYBUG}" if bug else "")))
    return above, below


def _foot_names(layout: TakenokolorLayout, garden: Garden) -> dict[int, Labels]:
    """The races reached by one of their items (dragon feet), below their items, with their
    numbers and, in brackets, the one this seat keeps (lanterns are named above)."""
    items = {it.id: it for it in layout.items}
    kinds = {a.id: a.kind for a in layout.areas}
    below: dict[int, Labels] = {}
    for race in layout.races:
        if race.when != "any":
            continue
        cells = [items[iid] for iid in race.items]
        kept = garden.kept.get(race.id)
        brackets = {"first": f" ({race.first})", "later": f" ({race.later})"}.get(kept or "", "")
        name = "foot" if kinds[cells[0].area] == "dragon" else race.id
        below.setdefault(max(it.row for it in cells), []).append(
            (min(it.col for it in cells), f"{name} {race.first}/{race.later}{brackets}"))
    return below


def _label_line(labels: Labels, xs: list[int]) -> str:
    """Names at their columns' x positions, each cut short before the next one."""
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


def _grid(layout: TakenokolorLayout, garden: Garden, legal: set[str]) -> list[str]:
    """The garden as lines: each grid row of cells, with the areas' names around them."""
    areas = {a.id: a for a in layout.areas}
    cells = {(it.row, it.col): _cell(it, areas[it.area], garden, legal) for it in layout.items}
    ncols = max(c for _, c in cells) + 1
    widths = [0] * ncols
    for (_, c), (_, w) in cells.items():
        widths[c] = max(widths[c], w + 1)
    xs = [sum(widths[:c]) for c in range(ncols + 1)]
    above, below = _area_names(layout, garden)
    for r, labels in _foot_names(layout, garden).items():
        below.setdefault(r, []).extend(labels)
    lines: list[str] = []
    for r in sorted({r for r, _ in cells}):
        if r in above:
            lines.append(_label_line(above[r], xs))
        out = ""
        for c in range(ncols):
            text, w = cells.get((r, c), ("", 0))
            out += text + " " * (widths[c] - w)
        lines.append(out.rstrip())
        if r in below:
            lines.append(_label_line(below[r], xs))
    return lines


# ---------------------------------------------------------------------- what each area does
def _area_key(area: AreaInfo) -> str:
    """What an area does: the sheet's title, else its kind and what completing it gives."""
    labels = [_grant_words(g) for g in area.on_complete]
    return area.title or (area.kind + (f"; when complete: free {', '.join(labels)}"
                                       if labels else ""))


def _areas_legend(layout: TakenokolorLayout, garden: Garden) -> list[str]:
    """Areas grouped by what they do, each with how much of it is coloured, and what each
    ``+`` item of them gives."""
    items = {it.id: it for it in layout.items}
    by_title: dict[str, list[AreaInfo]] = {}
    for area in layout.areas:
        by_title.setdefault(_area_key(area), []).append(area)
    lines = []
    for title, areas in by_title.items():
        names = []
        for area in areas:
            done = sum(iid in garden.ink for iid in area.items)
            full = "✓" if area.id in garden.complete else f" {done}/{len(area.items)}"
            names.append(f"{area.label}{full}")
        lines.append(f"  {escape(', '.join(names))}: {escape(title)}")
        grants: dict[str, list[str]] = {}  # what each + item gives
        for iid in (iid for area in areas for iid in area.items):
            for g in items[iid].grants:
                grants.setdefault(_grant_words(g), []).append(iid)
        if grants:
            lines.append("    + free colouring: " + "; ".join(
                f"{' '.join(ids)} → {escape(label)}" for label, ids in grants.items()))
    return lines


def _ladybugs(layout: TakenokolorLayout, board: TakenokolorBoard, p: int) -> list[str]:
    """Seat ``p``'s circled ladybugs and those still to circle, then every seat's count."""
    need = layout.ladybugs_to_end
    circled = set(board.seats[p].ladybugs)
    mine = [lb.label for lb in layout.ladybugs if lb.id in circled]
    rest = [lb.label for lb in layout.ladybugs if lb.id not in circled
            and not (len(lb.areas) == 1 and not lb.items)]
    if len(rest) < len(layout.ladybugs) - len(mine):  # the others: one area each, in the grid
        rest.append(f"the other areas marked {LADYBUG}")
    counts = ", ".join(f"{escape(sb.name)} {len(sb.ladybugs)}" for sb in board.seats)
    return [f"[bold]Ladybugs circled: {len(mine)}/{need}[/] {LADYBUG} in "
            f"{escape(possessive(board.seats[p].name))} garden"
            + (f" ({escape(', '.join(mine))})" if mine else "")
            + (f"; not yet: {escape(', '.join(rest))}" if rest else ""),
            f"  every garden: {counts}; the round in which someone circles {need} is the "
            "last (T4)"]


def race_state(race: RaceInfo, board: TakenokolorBoard) -> str:
    """Who holds the first number of a race and who kept the later one."""
    def reached(kept: str) -> list[str]:
        return [sb.name for sb in board.seats
                if any(r.race == race.id and r.kept == kept for r in sb.races)]
    first, later = reached("first"), reached("later")
    if not first:
        return f"open: the first to get there keeps {race.first}"
    text = f"first {', '.join(first)} ({race.first})"
    return text + (f", later ({race.later}): {', '.join(later)}" if later
                   else f"; anyone later keeps {race.later}")


def _races(layout: TakenokolorLayout, board: TakenokolorBoard) -> list[str]:
    """The first-player boxes and who reached each."""
    if not layout.races:
        return []
    lines = ["[bold]First-player boxes[/] (first to get there keeps the first number, A3):"]
    for race in layout.races:
        items = (" and " if race.when == "all" else " or ").join(race.items)
        lines.append(f"  {escape(race.label)} ({items}): {escape(race_state(race, board))}")
    return lines


# ---------------------------------------------------------------------- markers and status
def _markers(board: TakenokolorBoard) -> str:
    """The four markers: rolled faces, taken ones greyed, the one in hand marked."""
    marks = []
    for m in board.markers:
        text = marker_text(m.id, m.symbol)
        if m.taken and not m.in_hand:
            text = f"[{GREY}] {m.id}  taken[/]"
        elif m.in_hand:
            text += " (in hand)"
        marks.append(text)
    return "Markers: " + "  ".join(marks)


def _game_over(layout: TakenokolorLayout, view: View, board: TakenokolorBoard) -> str:
    """The game-over line: when and why the game ended, and who won."""
    need = layout.ladybugs_to_end
    done = [sb.name for sb in board.seats if len(sb.ladybugs) >= need]
    return game_over_line(board.rounds_played, end_words(done, need),
                          [view.seats[w].name for w in view.winners],
                          [s.total for s in view.scores])


def _status_line(layout: TakenokolorLayout, view: View, board: TakenokolorBoard) -> str:
    """Who is doing what now (the last line, above the prompt)."""
    names = _marker_names(layout)
    if board.phase == "roll":
        holder = board.seats[board.holder].name
        return (f"{escape(cap(subject(holder, 'rolls')))} the markers "
                f"(the {names[board.next_marker or 'B']} marker next)")
    if board.phase == "over" or board.to_move is None:
        return _game_over(layout, view, board)
    who = escape(board.seats[board.to_move].name)
    if board.phase == "take":
        return f"To move: {who}: take a marker that can colour a matching item (colour AND symbol)"
    if board.phase == "colour":
        m = next(m for m in board.markers if m.in_hand)
        symbol = m.symbol or "circle"
        return (f"To move: {who}: colour one item that is {m.id} {OPEN[symbol]} "
                f"({names[m.id]} {symbol}) with the {names[m.id]} marker")
    free = board.free
    assert free is not None
    more = f" ({free.remaining} to make)" if free.remaining > 1 and free.spread != "group" else ""
    return (f"To move: {who}: a free colouring{more}: {escape(free.label or free.target)}; "
            "any colour and symbol, order rules kept (T3)")


# ---------------------------------------------------------------------- the screen
def _title(layout: TakenokolorLayout) -> str:
    title = layout.sheet.title or layout.sheet.name
    if title.lower().startswith("garden sheet - "):
        title = title[len("garden sheet - "):]
    return title


def draw(layout: Mapping[str, Any], view: View, seat: int | None, colourblind: bool) -> str:
    """The whole screen about ``seat``'s garden (None: the seat to move's, else the first) as
    Rich markup (``Presentation.draw``); every cell has its letter, so ``colourblind`` changes
    nothing."""
    lay = TakenokolorLayout.model_validate(layout)
    board = TakenokolorBoard.model_validate(view.board)
    p = seat if seat is not None else (board.to_move if board.to_move is not None else 0)
    over = board.phase == "over"
    garden = Garden.of(board.seats[p])
    legal = set(board.colourable) if board.to_move == p else set()
    lines = [f"[bold]Takenokolor[/] · {escape(_title(lay))}",
             f"Round {board.round} · the panda is with {escape(board.seats[board.holder].name)}"
             + (" · the game is over" if over else "")]
    # top to bottom: the pad and the races, how each area is coloured, then the garden and the
    # markers right above the prompt, where a player looks when choosing
    lines += ["", score_pad(lay, view, board, details=False)]
    lines += _ladybugs(lay, board, p) + _races(lay, board)
    lines += ["\n[bold]Areas[/] (coloured so far / items)", *_areas_legend(lay, garden)]
    lines.append(f"\n[bold]{escape(cap(possessive(board.seats[p].name)))} garden[/]")
    lines += _grid(lay, garden, legal)
    lines.append(f"[{GREY}]{KEY}[/]")
    if any(r.when == "any" for r in lay.races):
        lines.append(f"[{GREY}]{FOOT_KEY}[/]")
    lines.append("")
    if not over:
        lines.append(_markers(board))
    lines.append(_status_line(lay, view, board))
    return "\n".join(lines)


# ---------------------------------------------------------------------- the score pad
def score_pad(layout: TakenokolorLayout, view: View, board: TakenokolorBoard,
              details: bool = True) -> str:
    """Every seat's pad: each row as printed, with what it counts (``details``) and the total;
    once over, the game-over line."""
    names = [s.name for s in view.seats]
    w = max(8, *(len(name) + 2 for name in names))
    lw = 26
    lines = [f"[bold]{'Score pad':<{lw}}[/]" + "".join(f"[bold]{escape(n):>{w}}[/]" for n in names)]
    for row in layout.scoring:
        lines.append(f"{escape(row.row[:lw]):<{lw}}"
                     + "".join(f"{sc.rows[row.row]:>{w}}" for sc in view.scores))
        if details:
            lines.append(f"[{GREY}]  {escape(row.text)}[/]")
            lines.append(f"[{GREY}]{'':<{lw}}"
                         + "".join(f"{escape(sb.pad[row.row]):>{w}}" for sb in board.seats) + "[/]")
    lines.append(f"[bold]{'Total':<{lw}}[/]"
                 + "".join(f"[bold]{sc.total:>{w}}[/]" for sc in view.scores))
    if board.phase == "over":
        lines.append(_game_over(layout, view, board))
    return "\n".join(lines)


def draw_score(layout: Mapping[str, Any], view: View, seat: int | None, colourblind: bool) -> str:
    """The score pad alone (``score`` at the prompt, ``Presentation.draw_score``): every seat,
    every row with what it counts."""
    return score_pad(TakenokolorLayout.model_validate(layout),
                     view, TakenokolorBoard.model_validate(view.board), details=True)
