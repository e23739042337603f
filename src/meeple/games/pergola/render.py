"""Terminal drawing of Pergola as Rich markup (plain strings, no Rich import).

Colour letters are always shown (colour-blind friendly): hollyhocks B/Y/R, leaves by their
first letter, buttercups s (small) / L (large), insects bf (butterfly), lb (ladybug), be (bee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.pergola import scoring as sc
from meeple.games.pergola.sheet import LANTERNS

if TYPE_CHECKING:
    from meeple.games.pergola.rules import Garden, PergolaState

HOLLY_STYLE = ("bold white on blue3", "bold black on yellow3", "bold white on red3")
HOLLY_LETTER = "BYR"
SHORT = {
    "hollyhock-blue": "Hol-B", "hollyhock-yellow": "Hol-Y", "hollyhock-red": "Hol-R",
    "magnolia-single": "Mag-1", "magnolia-double": "Mag-2", "buttercup-small": "Cup-s",
    "buttercup-large": "Cup-L", "lavender-leaf": "Lav", "butterfly": "bf", "ladybug": "lb",
    "bee": "be", "lantern-drip": "Lt-drip", "lantern-jump": "Lt-jump",
    "lantern-insect": "Lt-insect", "lantern-action": "Lt-action",
}


def _esc(s: str) -> str:
    return s.replace("[", "\\[")


def tool_text(state: PergolaState, tool: int) -> str:
    c = state.c
    return f"{c.tool_ids[tool]}({'+'.join(SHORT[x] for x in c.tools[tool])})"


def garden_panel(state: PergolaState, seat: int, colourblind: bool = True) -> list[str]:
    c = state.c
    g: Garden = state.gardens[seat]
    out = [f"[bold]{_esc(state.seats[seat])}[/bold]  (tools {len(g.tools)}/{c.turns})"]
    # hollyhocks: columns by colour, butterflies by level
    top = max(g.holly)
    if top:
        out.append("  Hollyhocks (level: columns B Y R, butterflies on the level)")
        for lv in range(top - 1, -1, -1):
            cells = []
            for col in range(3):
                if g.holly[col] > lv:
                    cells.append(f"[{HOLLY_STYLE[col]}]{HOLLY_LETTER[col]}[/]")
                else:
                    cells.append(".")
            bf = f" bf x{g.bfly[lv]}" if g.bfly[lv] else ""
            out.append(f"    {lv + 1:>2}: {' '.join(cells)}{bf}")
    else:
        out.append("  Hollyhocks: none")
    levels = [lv for lv, n in enumerate(g.mag) if n]
    if levels:
        out.append("  Magnolia (level: pieces, free buds, ladybugs)")
        for lv in range(max(levels), -1, -1):
            out.append(f"    {lv + 1:>2}: {'M' * g.mag[lv]:<6} buds {g.mag_buds[lv]}"
                       f"  lb x{g.lady[lv]}")
    else:
        out.append("  Magnolia: none")
    cups = []
    for i, (s, b) in enumerate(zip(g.cups, g.cup_bees, strict=True)):
        if s:
            cups.append(f"{i + 1}:{'s' if s == 1 else 'L'}{'*' * b}{'.' * ((1 if s == 1 else 2) - b)}")
    out.append("  Pergola: " + (" ".join(cups) if cups else "no buttercups")
               + "   (* bee, . free bee spot)")
    flowers = " ".join(f"F{j + 1}:{'*' * b}{'.' * (3 - b)}" for j, b in enumerate(g.flowers))
    out.append(f"  Lavender: {g.lav_leaves} leaves, flowers {flowers or '-'}, "
               f"small dragonflies {g.df_small}")
    out.append(f"  Flying: bf {g.bfly_fly}, lb {g.lady_fly}, be {g.bees_fly};  dragonflies: "
               f"medium {g.df_medium}, large {g.df_large}")
    lant = ", ".join(f"{n}x{LANTERNS[i]}" for i, n in enumerate(g.lanterns) if n) or "-"
    out.append(f"  Lanterns: unused {lant}; used {g.lanterns_used}")
    leaves = " ".join(c.leaf_colour[i][0].upper() for i in g.leaves) or "-"
    out.append(f"  Birdhouse leaves: {leaves}")
    filled = len(g.pots)
    bees = g.bees_on_buttercups()
    out.append(f"  Honey pots filled: {', '.join(g.pots) or '-'} (bees on buttercups {bees}; "
               f"thresholds {list(c.thresholds)})")
    drops = ["bottom" if d < 0 else c.stone_ids[d] for d in g.drops]
    out.append(f"  Cascade drops: {', '.join(drops)}; bonuses: {', '.join(g.bonuses) or '-'}")
    frog = "in the garden" if g.frog < 0 else f"on lily {c.lily_ids[g.frog]}"
    out.append(f"  Frog {frog}")
    _ = filled
    return out


def render(state: PergolaState, seat: int | None, colourblind: bool = True) -> str:
    c = state.c
    lines: list[str] = ["[bold]Pergola[/bold]" + (
        f"  solo challenge {state.challenge}" if state.challenge else "")]
    # action board
    row = []
    for i in range(4):
        t = state.board[i]
        row.append(f"{i + 1} {c.board[i]}: "
                   + (tool_text(state, t) if t >= 0 else "-"))
    lines.append("Action board: " + " | ".join(row))
    left = sum(len(h) for h in state.holder)
    lines.append(f"Tool holder: {left} tools (order hidden)")
    tops = []
    for p in range(c.piles):
        t = state.tops[p]
        if t >= 0:
            tops.append(f"{p + 1}: {c.leaf_colour[t][0].upper()}-{c.leaf_insect[t]}"
                        f"{'+flutter' if c.leaf_flutter[t] else ''} ({state.pile_left[p]})")
        else:
            tops.append(f"{p + 1}: empty" if not state.pile_left[p] else f"{p + 1}: ?")
    lines.append("Leaf piles: " + "  ".join(tops))
    pond = []
    for i, lid in enumerate(c.lily_ids):
        what = c.lily_insect[i] or f"DF-{c.lily_req[i]}"
        if c.lily_req[i]:
            st = state.stacks[c.dragon_lilies.index(i)]
            what += "[" + "".join("L" if d == 5 else "M" for d in st) + "]"
        frogs = [str(s) for s, g in enumerate(state.gardens) if g.frog == i]
        pond.append(f"{lid}:{_esc(what)}" + (f"(frog {','.join(frogs)})" if frogs else ""))
    lines.append("Pond: " + " ".join(pond))
    sup = state.supply
    lines.append(f"Supply: bf {sup[8]}, lb {sup[9]}, be {sup[10]}, flowers {sup[15]}, "
                 f"small df {sup[16]}")
    for s in range(state.players):
        lines += garden_panel(state, s, colourblind)
    scores = state.scores()
    lines.append("[bold]Score pad[/bold]")
    lines.append(" " * 16 + "".join(f"{'seat ' + str(s):>8}" for s in range(state.players)))
    for r in sc.ROWS:
        lines.append(f"{r:<16}" + "".join(f"{x.breakdown[r]:>8}" for x in scores))
    lines.append(f"{'total':<16}" + "".join(f"{x.total:>8}" for x in scores))
    if state.solo:
        from meeple.games.pergola.solo import challenge_report

        rep = challenge_report(state)
        lines.append(f"Challenge {rep['challenge']}: {rep['title']} - "
                     f"{'met' if rep['met'] else 'not met'} so far; neighbours: Przemek "
                     f"{rep['przemek']}, Gołąb {rep['golab']}")
    if state.to_move is not None and state.to_move >= 0 and state.tasks:
        from meeple.games.pergola.rules import TASK_NAMES

        lines.append(f"Seat {state.seat} to {TASK_NAMES[state.tasks[0][0]]}"
                     + (f" (tool {tool_text(state, state.current_tool)})"
                        if state.current_tool >= 0 else ""))
    elif state.is_over:
        lines.append("Game over.")
    _ = seat
    return "\n".join(lines)
