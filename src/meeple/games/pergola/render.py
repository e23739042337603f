"""Terminal drawing of Pergola as Rich markup (plain strings, no Rich import), from a per-seat
view and the table's layout only.

The screen shows the table as it lies: the action board with the tools above its four spaces,
the tool holder (how many of each type, never which), the leaf piles' top leaves, the supply,
the water cascade (its stones row by row with their insects and streams, the bottom and its
bonus spots, every seat's drops), the pond (each lily, what it gives, its dragonfly stack and
frogs, the lilies it touches), then each player's boards as on paper, the totals so far and
what the seat to move decides now; at the end, who won (solo: the challenge's verdict).

:func:`draw` reads what never changes from the layout (``view_layout``: the tools'
components, the stones, lilies and pergola spaces) and what changes from the view's ``board``
(``view_board``), its seats, scores and turn count, parsed into the game's own models
(:class:`~meeple.games.pergola.boards.PergolaLayout`, :class:`~.boards.PergolaBoard`); the names
and the line breaking are :mod:`.words`'. So a client holding a view and the layout (``meeple
join``) draws the screen ``meeple play`` draws. Colours are backgrounds with bold text
(readable on dark and light terminals) and never carry meaning alone: every coloured piece
also shows its letter or its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.text import cap, possessive, verb
from meeple.core.viewmodel import View
from meeple.games.pergola.boards import (
    GardenBoard,
    LeafFace,
    PergolaBoard,
    PergolaLayout,
    Stone,
    Tool,
)
from meeple.games.pergola.words import (
    ACTION_NAMES,
    BONUS_DOES,
    DRAGONFLY_LETTER,
    FREE_GAME,
    HOLLY_LETTER,
    HOLLY_STYLE,
    PLURAL,
    REQ_WORDS,
    REQUIREMENT,
    WIDTH,
    ChallengeFacts,
    badge,
    challenge_lines,
    component_text,
    esc,
    game_over_lines,
    leaf_text,
    lily_gives,
    pad,
    plural,
    side,
    tool_text,
    visible,
    wrap,
    wrap_text,
)


@dataclass(frozen=True)
class Table:
    """One view on its layout, with the lookups the drawing needs."""

    lay: PergolaLayout
    board: PergolaBoard
    view: View
    tools: dict[str, Tool]
    stones: dict[str, int]
    lilies: dict[str, int]

    def name(self, seat: int) -> str:
        """A seat's name as markup."""
        return esc(self.view.seats[seat].name)

    def tool(self, element: str) -> str:
        """A tool (``tool:S03``) by its id and components."""
        t = self.tools[element]
        return tool_text(t.tool, t.components)

    def stone(self, element: str) -> Stone:
        return self.lay.cascade.stones[self.stones[element]]


def table(layout: Mapping[str, Any], view: View) -> Table:
    """The view and the layout parsed into the game's models."""
    lay = PergolaLayout.model_validate(layout)
    return Table(lay=lay, board=PergolaBoard.model_validate(view.board), view=view,
                 tools={t.id: t for t in lay.tools},
                 stones={s.id: i for i, s in enumerate(lay.cascade.stones)},
                 lilies={x.id: i for i, x in enumerate(lay.pond.lilies)})


def _bare(element: str) -> str:
    """The word of an element id: ``stone:c`` is ``c`` (``bottom`` stays)."""
    return element.split(":", 1)[-1]


def _leaf(face: LeafFace, long: bool = True) -> str:
    return leaf_text(face.leaf, face.colour, face.insect, face.flutter, long=long)


# ------------------------------------------------------------------ the table


def board_lines(t: Table) -> list[str]:
    """The action board, the tool holder and (solo) the neighbour's discards."""
    out = ["[bold]Action board[/bold]  (new tools enter at space 1; after a pick the others "
           "slide toward space 4)"]
    for i, space in enumerate(t.lay.action_board):
        tool = t.board.action_board[i].tool
        what = t.tool(tool) if tool else "(empty)"
        out.append(f"  space {i + 1}  {ACTION_NAMES.get(space.action, space.action):<15} {what}")
    parts = [plural(h.left, h.type) for h in t.board.holder if h.left]
    left = sum(h.left for h in t.board.holder)
    out.append(f"  Tool holder: {plural(left, 'tool')} left"
               + (f": {', '.join(parts)} (in this order, hidden)" if parts else ""))
    if t.lay.solo is not None:
        gone = [_bare(x) for x in t.board.discards] or ["none yet"]
        out += wrap("  Discarded by the solo neighbour:", gone, 4, sep=" ")
    return out


def leaf_lines(t: Table) -> list[str]:
    """Each leaf pile: its top leaf and how many leaves it holds."""
    out = ["[bold]Leaf piles[/bold]  (bird flight takes a top leaf onto the birdhouse, with its "
           "insect)"]
    for p, pile in enumerate(t.board.piles):
        if pile.top is not None:
            what = _leaf(pile.top)
        elif pile.size:
            what = "(new top leaf at clean-up)"
        else:
            what = "(empty)"
        out.append(f"  pile {p + 1}: {pad(what, 43)} {plural(pile.size, 'leaf', 'leaves')} in "
                   f"the pile")
    return out


def supply_lines(t: Table) -> list[str]:
    """What the supply holds, and the components it has run out of."""
    have = t.board.supply
    main = (f"  Supply: butterflies {have['butterfly']}, ladybugs {have['ladybug']}, bees "
            f"{have['bee']}, lavender flowers {have['lavender-flower']}, small dragonflies "
            f"{have['dragonfly-small']}")
    out = [main]
    gone = [component_text(k) for k, n in have.items()
            if not n and k not in PLURAL and k not in ("dragonfly-medium", "dragonfly-large")]
    if gone:
        out += wrap("  None left in the supply (nobody gets one):", gone, 4)
    return out


def _stone_rows(t: Table, mark: set[str]) -> list[str]:
    """The cascade's stones row by row (top first), left to right, four to a line; the
    stones in ``mark`` (the viewer's drops) starred."""
    stones = t.lay.cascade.stones
    rows: dict[float, list[int]] = {}
    for i, s in enumerate(stones):
        rows.setdefault(s.y, []).append(i)
    out = []
    for r, y in enumerate(sorted(rows)):
        cells = []
        for i in sorted(rows[y], key=lambda j: stones[j].x):
            s = stones[i]
            sid = f"[reverse]{s.stone}*[/reverse]" if s.id in mark else s.stone
            to = " ".join(_bare(x) for x in s.to)
            cells.append(pad(f"{sid} {s.insect or 'start'} -> {to}", 24))
        label = "top" if r == 0 else f"row {r + 1}"
        for k in range(0, len(cells), 4):
            out.append(f"  {label if k == 0 else '':<7}" + "".join(cells[k:k + 4]).rstrip())
    return out


def cascade_lines(t: Table, viewer: int | None) -> list[str]:
    """The cascade: its stones with their insects and streams, the bottom and its bonus
    spots, each seat's two drops and the bonus spots taken (P8)."""
    gardens = t.board.gardens
    mark = set(gardens[viewer].drops) if viewer is not None else set()
    out = ["[bold]Cascade[/bold]  (each player has one: a water drip moves a drop down a "
           "stream and takes its insect)", *_stone_rows(t, mark)]
    out.append(f"  {'bottom':<7}an insect of your choice and a bonus spot (each spot once per "
               f"player):")
    bonuses = [_bare(b.id) for b in t.lay.cascade.bonus_spots]
    out.append(" " * 9 + ", ".join(f"{b} ({BONUS_DOES[b]})" for b in bonuses))
    for seat, g in enumerate(gardens):
        drops = " and ".join("the bottom" if d == "bottom" else _bare(d) for d in g.drops)
        bonus = ", ".join(_bare(b) for b in g.bonus_spots) or "none yet"
        star = " (*)" if seat == viewer else ""
        out.append(f"  {cap(possessive(t.name(seat)))} drops{star} on {drops}; bonus spots "
                   f"taken: {bonus}")
    return out


def pond_lines(t: Table) -> list[str]:
    """The pond: each lily with its id, what it gives (an insect, or a dragonfly for 4 of a
    plant), its dragonfly stack top first, the lilies it touches, and the frogs on it."""
    out = ["[bold]Pond[/bold]  (the first frog jump lands on any lily, later ones on a lily "
           "touching the frog's)",
           "  a dragonfly lily gives each player one dragonfly: the top of its stack (L large 5, "
           "M medium 3)"]
    for x in t.lay.pond.lilies:
        gives = lily_gives(x.insect, x.dragonfly)
        stack = ""
        if x.stack is not None:
            st = t.board.stacks[x.stack].dragonflies
            stack = "stack " + (" ".join(DRAGONFLY_LETTER[d] for d in reversed(st))
                                if st else "empty")
        touches = "touches " + " ".join(_bare(a) for a in x.adjacent)
        frogs = [t.name(g.seat) for g in t.board.gardens if g.frog == x.id]
        line = f"  {x.lily:>3}  {gives:<33}{stack:<12}{touches:<24}"
        if frogs:
            out += wrap(line + "frog:", frogs, 70)
        else:
            out.append(line.rstrip())
    return out


# ------------------------------------------------------------------ one player's boards


def _hollyhocks(g: GardenBoard) -> list[str]:
    """The three hollyhock columns level by level, top first, with their butterflies."""
    heights = [c.height for c in g.hollyhock_columns]
    out = ["Hollyhocks  (B Y R by level)"]
    if not max(heights):
        return [*out, "  none yet"]
    for level in reversed(g.hollyhock_levels):
        lv = level.level - 1
        cells = [badge(HOLLY_LETTER[c], HOLLY_STYLE[c]) if heights[c] > lv else "."
                 for c in range(3)]
        flowers = sum(1 for h in heights if h > lv)
        bf = f"butterflies {level.butterflies}/{flowers}" if level.butterflies else ""
        out.append(f"  {lv + 1:>2}  {' '.join(cells)}  {bf}".rstrip())
    return out


def _magnolia(g: GardenBoard) -> list[str]:
    """The magnolia tree level by level, top first: pieces, free buds, ladybugs."""
    out = ["Magnolia tree  (pieces, free buds, ladybugs)"]
    if not g.magnolia_levels:
        return [*out, "  none yet"]
    for m in reversed(g.magnolia_levels):
        n = m.magnolias
        lady = f"ladybugs {m.ladybugs}/{n}" if n else ""
        out.append(f"  {m.level:>2}  {'M' * n:<5} buds {m.free_buds}  {lady}".rstrip())
    return out


def _bees(n: int, spots: int) -> str:
    return "*" * n + "." * (spots - n)


def _pergola(t: Table, g: GardenBoard) -> list[str]:
    """The pergola's buttercup spaces with their bees."""
    cups = []
    for i, cup in enumerate(g.pergola):
        if cup.buttercup == "small":
            cups.append(f"{i + 1}:s({_bees(cup.bees, 1)})")
        elif cup.buttercup == "large":
            cups.append(f"{i + 1}:L({_bees(cup.bees, 2)})")
        else:
            accepts = t.lay.garden.pergola[i].accepts
            only = "" if len(accepts) != 1 else f"({accepts[0]} only)"
            cups.append(f"{i + 1}:_{only}")
    return wrap("  Pergola   ", [*cups, " (s/L small/large, * bee, . free spot, _ empty)"],
                12, sep=" ")


def _lavender(g: GardenBoard) -> str:
    """The lavender leaves and what each pair holds."""
    lav = g.lavender
    pairs = lav.leaves // 2
    items = [f"flower {j + 1}({_bees(f.bees, 3)})" for j, f in enumerate(lav.flowers)]
    dfs = min(g.dragonflies.small, max(0, pairs - len(items)))
    if dfs:
        items.append(f"{plural(dfs, 'small dragonfly', 'small dragonflies')}")
    empty = max(0, pairs - len(lav.flowers) - dfs)
    if empty:
        items.append(f"{plural(empty, 'pair')} with nothing (supply empty)")
    single = "; 1 leaf waits for its pair" if lav.leaves % 2 else ""
    leaves = f"{plural(lav.leaves, 'leaf', 'leaves')}"
    return f"  Lavender  {leaves}" + (f": {', '.join(items)}" if items else "") + single


def _honey(t: Table, g: GardenBoard) -> list[str]:
    """The honey pots: bees on buttercups, the next pot's threshold, the pots filled and what
    each pot would give now."""
    honey = g.honey
    thresholds = t.lay.garden.honey_thresholds
    filled = len(honey.pots)
    limit = min(t.lay.garden.max_pots, len(thresholds))
    nxt = f"next pot at {thresholds[filled]}" if filled < limit else "no more pots"
    values = ", ".join(f"{p} {v}" for p, v in honey.values.items())
    done = ", ".join(_bare(p) for p in honey.pots) or "none"
    return [f"  Honey     bees on buttercups {honey.bees_on_buttercups}, {nxt}; filled "
            f"({limit} at most): {done}",
            f"            points each pot gives now: {values}"]


def _insects_and_lanterns(g: GardenBoard) -> list[str]:
    """The insects flying about, the dragonflies and the lanterns."""
    fly, df = g.flying, g.dragonflies
    unused = ", ".join(f"{k} {n}" for k, n in g.lanterns.unused.items() if n) or "none"
    return [f"  Flying    butterflies {fly.butterfly}, ladybugs {fly.ladybug}, bees {fly.bee}"
            f"    Dragonflies: small {df.small}, medium {df.medium}, large {df.large}",
            f"  Lanterns  unused: {unused}; used {g.lanterns.used}"]


def _birdhouse(g: GardenBoard) -> list[str]:
    colours = len({leaf.colour for leaf in g.birdhouse})
    birds = [_leaf(leaf, long=False) for leaf in g.birdhouse] or ["none"]
    if g.birdhouse:
        birds.append(f" ({plural(colours, 'colour')})")
    return wrap("  Birdhouse", birds, 12, sep=" ")


def garden_lines(t: Table, seat: int) -> list[str]:
    """One player's boards as on paper: garden, pergola, birdhouse, cascade drops, frog."""
    g = t.board.gardens[seat]
    name = t.name(seat)
    total = t.view.scores[seat].total
    moving = t.view.to_move == seat
    head = f"[bold reverse] {name} [/]" if moving else f"[bold]{name}[/bold]"
    out = [f"{head}  seat {seat}{', to move' if moving else ''}  ·  {len(g.tools)} of "
           f"{t.lay.turns} tools taken  ·  {plural(total, 'point')}"
           f"{'' if t.view.over else ' so far'}"]
    out += ["  " + x for x in side(_hollyhocks(g), _magnolia(g), 42)]
    out += _pergola(t, g)
    out.append(_lavender(g))
    out += _insects_and_lanterns(g)
    out += _honey(t, g)
    out += _birdhouse(g)
    out += _drops_text(t, g)
    out += [("  Pond      " if i == 0 else " " * 12) + x
            for i, x in enumerate(_frog_text(t, g))]
    out += wrap("  Tools     ", [_bare(x) for x in g.tools] or ["none yet"], 12, sep=" ")
    return out


def _drop_ways(t: Table, drop: str, other: str) -> str:
    """Where a drop on a stone may flow: each stream's stone and its insect, or the bottom."""
    ways = []
    for to in t.stone(drop).to:
        if to == "bottom":
            ways.append("bottom")
        else:
            s = t.stone(to)
            ways.append(f"{s.stone} {s.insect or ''}".rstrip()
                        + (" (blocked)" if to == other else ""))
    return f"{_bare(drop)} -> {', '.join(ways)}"


def _drops_text(t: Table, g: GardenBoard) -> list[str]:
    """The two drops on this player's cascade, where each may go, the bonus spots taken."""
    parts = []
    at_bottom = all(d == "bottom" for d in g.drops)
    if at_bottom:
        parts.append("both at the bottom (a water drip gives an insect)")
    for k, d in enumerate(g.drops):
        if d == "bottom":
            if not at_bottom:
                parts.append("one at the bottom")
            continue
        parts.append(_drop_ways(t, d, g.drops[1 - k]))
    bonus = ", ".join(_bare(b) for b in g.bonus_spots) or "none yet"
    return wrap("  Cascade   drops", [*parts, f"bonus spots: {bonus}"], 12, sep=" |")


def _requirement_count(g: GardenBoard, req: str) -> int:
    """How many of a dragonfly lily's plant the garden holds."""
    if req == "magnolia":
        return sum(m.magnolias for m in g.magnolia_levels)
    if req == "hollyhock":
        return sum(c.height for c in g.hollyhock_columns)
    if req == "buttercup":
        return sum(1 for x in g.pergola if x.buttercup)
    return g.lavender.leaves


def _frog_text(t: Table, g: GardenBoard) -> list[str]:
    """Where the frog sits, and each dragonfly lily's requirement against the garden."""
    if g.frog is None:
        where = "frog in the garden (its first jump may land on any lily)"
    else:
        x = t.lay.pond.lilies[t.lilies[g.frog]]
        where = (f"frog on lily {x.lily} ({lily_gives(x.insect, x.dragonfly)}), touching "
                 + " ".join(_bare(a) for a in x.adjacent))
    dls = []
    for x in t.lay.pond.lilies:
        if x.dragonfly is None:
            continue
        won = x.dragonfly in g.dragonflies.requirements_taken
        n = _requirement_count(g, x.dragonfly)
        word = REQ_WORDS[x.dragonfly].split(" ")[0]
        dls.append(f"{x.lily} {word} {min(n, REQUIREMENT)}/{REQUIREMENT}"
                   + (" won" if won else ""))
    return [where, *wrap("dragonfly lilies:", dls, 18, width=WIDTH - 12)]


# ------------------------------------------------------------------ score pad, status, end


def score_pad_lines(t: Table) -> list[str]:
    """The score pad as printed: one row per scoring category, one column per seat, total."""
    names = [t.name(s) for s in range(t.view.players)]
    width = max(8, *(visible(n) + 2 for n in names))
    scores = t.view.scores
    lines = ["[bold]Score pad[/bold]" + ("" if t.view.over else "  (points so far)"),
             " " * 16 + "".join(" " * (width - visible(n)) + n for n in names)]
    for row in t.lay.score_pad:
        r = row.key
        lines.append(f"{r:<16}" + "".join(f"{x.rows[r]:>{width}}" for x in scores))
    lines.append(f"[bold]{'total':<16}" + "".join(f"{x.total:>{width}}" for x in scores)
                 + "[/bold]")
    return lines


def challenge_text(t: Table) -> list[str]:
    """The solo challenge's lines, from the board's challenge progress and the layout."""
    ch = t.board.challenge
    assert ch is not None and t.lay.solo is not None
    free = next(c for c in t.lay.solo.challenges if c.number == FREE_GAME)
    return challenge_lines(ChallengeFacts(
        number=ch.number, title=ch.title, goal=ch.goal, met=ch.met, progress=ch.progress,
        over=t.view.over, score=t.view.scores[0].total, player=t.view.seats[0].name,
        neighbours=(ch.przemek, ch.golab), free_neighbours=(free.przemek, free.golab)))


def status_lines(t: Table) -> list[str]:
    """The end of the game, or the tool in play and what the seat to move decides now."""
    view = t.view
    if view.over:
        challenge = challenge_text(t) if t.lay.solo is not None else None
        return game_over_lines(t.lay.turns, [t.name(s) for s in range(view.players)],
                               [x.total for x in view.scores], challenge)
    who = view.to_move
    if who is None:
        return ["(the table is being set: tools drawn, leaves revealed)"]
    out = []
    if t.board.current_tool is not None:
        out.append(f"Tool in play: {t.tool(t.board.current_tool)}")
    name = t.name(who)
    out += wrap(f"[bold]{cap(name)}[/bold] {verb(name, 'decides')} now:",
                (t.board.decision or "choose").split(), 4, sep=" ")
    return out


def _heading(t: Table) -> list[str]:
    """The title line, and in solo during the game the challenge and its progress."""
    view, solo = t.view, t.lay.solo is not None
    rounds = t.lay.turns
    done = min(view.turn // view.players + (0 if view.over else 1), rounds)
    mode = "solo" if solo else " vs ".join(t.name(s) for s in range(view.players))
    lines = [f"[bold]Pergola[/bold]  {mode}  ·  turn {done} of {rounds}"
             + ("" if solo or view.over else " each")]
    if solo and not view.over:
        for x in challenge_text(t):
            lines += wrap_text(esc(x))
    return lines


def _totals(t: Table) -> list[str]:
    totals = [f"{t.name(s)} {x.total}" for s, x in enumerate(t.view.scores)]
    if t.view.over:
        return wrap("[bold]Score pad[/bold]  final totals:", totals, 4)
    return wrap("[bold]Score pad[/bold]  points so far:",
                [*totals[:-1], totals[-1] + " (type score for every row)"], 4)


def draw(layout: Mapping[str, Any], view: View, seat: int | None,
         colourblind: bool = True) -> str:
    """The whole screen of ``view`` on ``layout``, about ``seat`` (``None``: the seat to
    move's drops are marked on the cascade)."""
    t = table(layout, view)
    viewer = seat if seat is not None and 0 <= seat < view.players else view.to_move
    lines = [*_heading(t), ""]
    lines += board_lines(t) + leaf_lines(t) + supply_lines(t)
    lines += ["", *cascade_lines(t, viewer), "", *pond_lines(t)]
    for s in range(view.players):
        lines += ["", *garden_lines(t, s)]
    lines += ["", *_totals(t), "", *status_lines(t)]
    return "\n".join(lines)


def draw_score(layout: Mapping[str, Any], view: View, seat: int | None,
               colourblind: bool = True) -> str:
    """The score pad alone, as printed (every seat's column, whatever ``seat``)."""
    return "\n".join(score_pad_lines(table(layout, view)))


__all__ = ["Table", "board_lines", "cascade_lines", "draw", "draw_score", "garden_lines",
           "leaf_lines", "pond_lines", "score_pad_lines", "status_lines", "supply_lines",
           "table"]
