"""Terminal drawing of Pergola as Rich markup (plain strings, no Rich import).

The screen shows what the table shows: the action board with its four tools, the tool holder,
the leaf piles, the water cascade (stones, their insects, the streams between them, the bottom
with its bonus spots), the pond (lilies, what each gives, which lilies each touches, the
dragonfly stacks, the frogs), then each player's boards as on paper, and what the seat to move
decides now. Colours are backgrounds with bold text (readable on dark and light terminals) and
never carry meaning alone: every coloured piece also shows its letter or its name.

The layout of the cascade, the pond and the rest is read from the data bundle
(``state.sheet_data()``), by the indices the state uses (the order of the data files).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.core.text import possessive, subject, verb
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.sheet import LANTERNS, REQUIREMENTS, SUPPLY_ITEMS
from meeple.games.pergola.solo import challenge_summary

if TYPE_CHECKING:
    from meeple.games.pergola.rules import Garden, PergolaState

# ------------------------------------------------------------------ words and styles

HOLLY_COLOURS = ("blue", "yellow", "red")
HOLLY_LETTER = "BYR"
HOLLY_STYLE = ("bold white on blue3", "bold black on yellow3", "bold white on red3")
LEAF_STYLE = {
    "green": "bold black on green3", "yellow": "bold black on yellow3",
    "orange": "bold black on dark_orange", "red": "bold white on red3",
    "brown": "bold white on orange4", "blue": "bold white on blue3",
    "purple": "bold white on magenta3",
}
ACTION_NAMES = {"flutter": "insect flutter", "bird": "bird flight", "drip": "water drip",
                "frog": "frog jump"}
PLURAL = {"butterfly": "butterflies", "ladybug": "ladybugs", "bee": "bees"}
REQ_WORDS = {"magnolia": "magnolias", "hollyhock": "hollyhocks", "buttercup": "buttercups",
             "lavender": "lavender leaves"}
LANTERN_DOES = {
    "drip": "a second water drip", "jump": "a second frog jump",
    "insect": "another insect of the same kind", "action": "another action than the tool's",
}
BONUS_DOES = {"sets": "1 per butterfly+ladybug+bee set", "dragonflies": "1 each",
              "honey": "2 per filled pot"}
POT_DOES = {"butterflies": "1 per butterfly", "leaves": "1 per 2 leaves",
            "ladybugs": "1 per ladybug", "lanterns": "1 per lantern"}
DRAGONFLY_POINTS = {3: ("M", "medium", 3), 5: ("L", "large", 5)}
REQUIREMENT = 4  # printed: a dragonfly lily needs at least 4 of its plant
MAX_POTS = 3  # P7

# Each decision, named by the first word of its moves (the notation of moves.py).
DECISIONS = {
    "pick": "pick a tool (pick N takes the tool above action space N)",
    "magnolia": "place the magnolia just taken (magnolia LEVEL: on a free bud of the level "
                "below)",
    "buttercup": "place the buttercup just taken on a pergola space (buttercup SPACE)",
    "lavender": "a new pair of lavender leaves: a lavender flower or a small dragonfly",
    "butterfly": "place the butterfly just taken (hL: on a hollyhock flower of level L; fly)",
    "ladybug": "place the ladybug just taken (mL: on a magnolia of level L; fly)",
    "bee": "place the bee just taken (cupN: on pergola space N; flowerN: lavender flower N; "
           "fly)",
    "action": "perform the tool's action, or use an action lantern for another action",
    "move": "insect flutter: move an insect (move KIND FROM>TO) or stop",
    "stop": "insect flutter: move an insect (move KIND FROM>TO) or stop",
    "leaf": "bird flight: take the top leaf of a pile (leaf PILE)",
    "take": "take an insect of your choice (take KIND)",
    "drip": "water drip: move one drop one stone down a stream (drip FROM>TO)",
    "bonus": "a drop reached the bottom: choose a cascade bonus spot (bonus SPOT)",
    "jump": "frog jump: jump to a lily (jump LILY)",
    "honey": "fill a honey pot now, or skip",
}
LANTERN_DECISIONS = {
    "insect": "use an insect lantern (take another insect of the same kind) or skip",
    "drip": "use a drip lantern (a second water drip) or skip",
    "jump": "use a jump lantern (a second frog jump) or skip",
    "action": "perform the tool's action, or use an action lantern for another action",
}

WIDTH = 98  # every line fits a 100-column terminal

_TAG = re.compile(r"(?<!\\)\[[^\[\]]*\]")


def _esc(s: str) -> str:
    """Text shown as it is (a seat name with brackets is not read as markup)."""
    return s.replace("[", "\\[")


def _plain(s: str) -> str:
    """A markup line as it reads on screen (tags dropped, escapes undone)."""
    return _TAG.sub("", s).replace("\\[", "[")


def _visible(s: str) -> int:
    """The width of a markup line on screen."""
    return len(_plain(s))


def _pad(s: str, width: int) -> str:
    return s + " " * max(0, width - _visible(s))


def _side(left: Sequence[str], right: Sequence[str], width: int, gap: int = 3) -> list[str]:
    """Two blocks of lines side by side (the left one padded to ``width``)."""
    n = max(len(left), len(right))
    out = []
    for i in range(n):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        out.append((_pad(a, width + gap) + b).rstrip() if b else a)
    return out


def _wrap(head: str, items: Sequence[str], indent: int, width: int = WIDTH,
          sep: str = ", ") -> list[str]:
    """``head`` and then ``items`` joined by ``sep``, broken into lines of at most ``width``
    visible characters, the later lines indented by ``indent``."""
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        if _visible(lines[-1]) + 1 + _visible(piece) > width and _visible(lines[-1]) > indent:
            lines.append(" " * indent + piece)
        else:
            join = "" if lines[-1].endswith(" ") or not lines[-1].strip() else " "
            lines[-1] += join + piece
    return lines


def _wrap_text(text: str, hang: int = 4) -> list[str]:
    """A line of words broken to the screen width, later lines indented ``hang`` more."""
    lead = len(text) - len(text.lstrip(" "))
    words = text.split(" ")[lead:] if lead else text.split(" ")
    words = [w for w in words if w]
    if not words:
        return [text]
    return _wrap(" " * lead + words[0], words[1:], lead + hang, sep=" ")


def _badge(text: str, style: str | None) -> str:
    return f"[{style}]{text}[/]" if style else text


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _name(state: PergolaState, seat: int) -> str:
    return _esc(state.seats[seat])


# ------------------------------------------------------------------ the data bundle, drawn


@dataclass(frozen=True)
class Layout:
    """What the screen needs from the data bundle, by the indices the state uses."""

    tool_ids: tuple[str, ...]
    tool_parts: tuple[tuple[str, ...], ...]
    types: dict[str, tuple[str, ...]]
    board: tuple[str, ...]
    lilies: tuple[dict[str, Any], ...]
    lily_index: dict[str, int]
    dragon_lilies: tuple[int, ...]
    stones: tuple[dict[str, Any], ...]
    stone_index: dict[str, int]
    starts: tuple[str, ...]
    leaves: tuple[dict[str, Any], ...]
    spaces: tuple[tuple[str, ...], ...]
    thresholds: tuple[int, ...]
    turns: int


_LAYOUTS: dict[int, tuple[object, Layout]] = {}


def layout(state: PergolaState) -> Layout:
    """The layout of ``state``'s data bundle (kept per bundle)."""
    shared = getattr(state, "c", None)
    kept = _LAYOUTS.get(id(shared))
    if kept is not None and kept[0] is shared:
        return kept[1]
    d = state.sheet_data()
    lilies = tuple(d["pond"]["lily"])
    stones = tuple(d["cascade"]["stone"])
    lay = Layout(
        tool_ids=tuple(t["id"] for t in d["tools"]["tool"]),
        tool_parts=tuple(tuple(t["components"]) for t in d["tools"]["tool"]),
        types={k: tuple(v) for k, v in d["tools"]["types"].items()},
        board=tuple(d["tools"]["board"]),
        lilies=lilies,
        lily_index={x["id"]: i for i, x in enumerate(lilies)},
        dragon_lilies=tuple(i for i, x in enumerate(lilies) if x.get("dragonfly")),
        stones=stones,
        stone_index={s["id"]: i for i, s in enumerate(stones)},
        starts=tuple(d["cascade"]["starts"]),
        leaves=tuple(d["leaves"]["leaf"]),
        spaces=tuple(tuple(s["accepts"]) for s in d["pergola"]["space"]),
        thresholds=tuple(d["pergola"]["honey_thresholds"]),
        turns=int(d["tools"]["turns"]),
    )
    if shared is not None:
        if len(_LAYOUTS) > 16:
            _LAYOUTS.clear()
        _LAYOUTS[id(shared)] = (shared, lay)
    return lay


def component_text(comp: str, plain: bool = False) -> str:
    """A tool component in words, its colour as a badge (``blue`` hollyhock) unless ``plain``."""
    if comp.startswith("hollyhock-"):
        i = HOLLY_COLOURS.index(comp.split("-", 1)[1])
        return f"{_badge(HOLLY_COLOURS[i], None if plain else HOLLY_STYLE[i])} hollyhock"
    if comp.startswith("magnolia-"):
        return "magnolia (1 bud)" if comp == "magnolia-single" else "magnolia (2 buds)"
    if comp.startswith("buttercup-"):
        return f"{comp.split('-', 1)[1]} buttercup"
    if comp.startswith(("lantern-", "dragonfly-")):
        kind, size = comp.split("-", 1)
        return f"{size} {kind}"
    return comp.replace("-", " ")


def tool_text(state: PergolaState, tool: int, plain: bool = False) -> str:
    """A tool by its id and components: ``S03 magnolia (1 bud) + lavender leaf``."""
    lay = layout(state)
    return f"{lay.tool_ids[tool]} " + " + ".join(component_text(c, plain)
                                                  for c in lay.tool_parts[tool])


def leaf_text(state: PergolaState, leaf: int, long: bool = True, plain: bool = False) -> str:
    x = layout(state).leaves[leaf]
    badge = _badge(x["id"], None if plain else LEAF_STYLE.get(x["colour"]))
    if not long:
        return badge
    flutter = " + a 1-insect flutter" if x.get("flutter") else ""
    return f"{badge} {x['colour']}, {x['insect']}{flutter}"


def stone_text(state: PergolaState, stone: int) -> str:
    s = layout(state).stones[stone]
    return f"{s['id']} ({s['insect']})" if s.get("insect") else f"{s['id']} (start)"


def lily_gives(state: PergolaState, lily: int) -> str:
    x = layout(state).lilies[lily]
    if x.get("insect"):
        return str(x["insect"])
    return f"dragonfly for {REQUIREMENT} {REQ_WORDS[x['dragonfly']]}"


# ------------------------------------------------------------------ the table


def board_lines(state: PergolaState) -> list[str]:
    lay = layout(state)
    out = ["[bold]Action board[/bold]  (new tools enter at space 1; after a pick the others "
           "slide toward space 4)"]
    for i, action in enumerate(lay.board):
        t = state.board[i]
        what = tool_text(state, t) if t >= 0 else "(empty)"
        out.append(f"  space {i + 1}  {ACTION_NAMES.get(action, action):<15} {what}")
    types = lay.types.get(str(state.players), ())
    parts = [_plural(len(h), ty) for h, ty in zip(state.holder, types, strict=False) if h]
    left = sum(len(h) for h in state.holder)
    out.append(f"  Tool holder: {_plural(left, 'tool')} left"
               + (f": {', '.join(parts)} (in this order, hidden)" if parts else ""))
    if state.solo:
        gone = [lay.tool_ids[t] for t in state.discards] or ["none yet"]
        out += _wrap("  Discarded by the solo neighbour:", gone, 4, sep=" ")
    return out


def leaf_lines(state: PergolaState) -> list[str]:
    out = ["[bold]Leaf piles[/bold]  (bird flight takes a top leaf onto the birdhouse, with its "
           "insect)"]
    for p, t in enumerate(state.tops):
        left = state.pile_left[p]
        if t >= 0:
            what = leaf_text(state, t)
        elif left:
            what = "(new top leaf at clean-up)"
        else:
            what = "(empty)"
        out.append(f"  pile {p + 1}: {_pad(what, 43)} {_plural(left, 'leaf', 'leaves')} in the "
                   f"pile")
    return out


def supply_lines(state: PergolaState) -> list[str]:
    have = dict(zip(SUPPLY_ITEMS, state.supply, strict=True))
    main = (f"  Supply: butterflies {have['butterfly']}, ladybugs {have['ladybug']}, bees "
            f"{have['bee']}, lavender flowers {have['lavender-flower']}, small dragonflies "
            f"{have['dragonfly-small']}")
    out = [main]
    gone = [component_text(k) for k, n in have.items()
            if not n and k not in PLURAL and k not in ("dragonfly-medium", "dragonfly-large")]
    if gone:
        out += _wrap("  None left in the supply (nobody gets one):", gone, 4)
    return out


def cascade_lines(state: PergolaState, viewer: int | None) -> list[str]:
    """The cascade: its stones row by row with their insects and streams, the bottom and its
    bonus spots, each seat's two drops and the bonus spots taken (P8)."""
    lay = layout(state)
    mark: set[int] = set()
    if viewer is not None:
        mark = {d for d in state.gardens[viewer].drops if d >= 0}
    out = ["[bold]Cascade[/bold]  (each player has one: a water drip moves a drop down a "
           "stream and takes its insect)"]
    rows: dict[float, list[int]] = {}
    for i, s in enumerate(lay.stones):
        rows.setdefault(s.get("y", 0), []).append(i)
    for r, y in enumerate(sorted(rows)):
        cells = []
        for i in sorted(rows[y], key=lambda j: lay.stones[j].get("x", 0)):
            s = lay.stones[i]
            sid = f"[reverse]{s['id']}*[/reverse]" if i in mark else s["id"]
            what = s.get("insect") or "start"
            cells.append(_pad(f"{sid} {what} -> {' '.join(s['to'])}", 24))
        label = "top" if r == 0 else f"row {r + 1}"
        for k in range(0, len(cells), 4):
            out.append(f"  {label if k == 0 else '':<7}" + "".join(cells[k:k + 4]).rstrip())
    out.append(f"  {'bottom':<7}an insect of your choice and a bonus spot (each spot once per "
               f"player):")
    out.append(" " * 9 + ", ".join(f"{b} ({BONUS_DOES[b]})" for b in sc.BONUSES))
    for seat, g in enumerate(state.gardens):
        drops = " and ".join("the bottom" if d < 0 else lay.stones[d]["id"] for d in g.drops)
        bonus = ", ".join(g.bonuses) or "none yet"
        star = " (*)" if seat == viewer else ""
        out.append(f"  {_cap(possessive(_name(state, seat)))} drops{star} on {drops}; bonus spots "
                   f"taken: {bonus}")
    return out


def pond_lines(state: PergolaState) -> list[str]:
    """The pond: each lily with its id, what it gives (an insect, or a dragonfly for 4 of a
    plant), the lilies it touches, the dragonfly stack top first, and the frogs on it."""
    lay = layout(state)
    out = ["[bold]Pond[/bold]  (the first frog jump lands on any lily, later ones on a lily "
           "touching the frog's)",
           "  a dragonfly lily gives each player one dragonfly: the top of its stack (L large 5, "
           "M medium 3)"]
    for i, x in enumerate(lay.lilies):
        gives = lily_gives(state, i)
        stack = ""
        if i in lay.dragon_lilies:
            st = state.stacks[lay.dragon_lilies.index(i)]
            stack = "stack " + (" ".join(DRAGONFLY_POINTS[d][0] for d in reversed(st))
                                if st else "empty")
        touches = "touches " + " ".join(x.get("adjacent", []))
        frogs = [_name(state, s) for s, g in enumerate(state.gardens) if g.frog == i]
        line = f"  {x['id']:>3}  {gives:<33}{stack:<12}{touches:<24}"
        if frogs:
            out += _wrap(line + "frog:", frogs, 70)
        else:
            out.append(line.rstrip())
    return out


# ------------------------------------------------------------------ one player's boards


def _hollyhocks(g: Garden) -> list[str]:
    top = max(g.holly)
    out = ["Hollyhocks  (B Y R by level)"]
    if not top:
        return [*out, "  none yet"]
    for lv in range(top - 1, -1, -1):
        cells = [_badge(HOLLY_LETTER[c], HOLLY_STYLE[c]) if g.holly[c] > lv else "." for c in
                 range(3)]
        flowers = sum(1 for h in g.holly if h > lv)
        bf = f"butterflies {g.bfly[lv]}/{flowers}" if g.bfly[lv] else ""
        out.append(f"  {lv + 1:>2}  {' '.join(cells)}  {bf}".rstrip())
    return out


def _magnolia(g: Garden) -> list[str]:
    levels = [lv for lv, n in enumerate(g.mag) if n]
    out = ["Magnolia tree  (pieces, free buds, ladybugs)"]
    if not levels:
        return [*out, "  none yet"]
    for lv in range(max(levels), -1, -1):
        n = g.mag[lv]
        lady = f"ladybugs {g.lady[lv]}/{n}" if n else ""
        out.append(f"  {lv + 1:>2}  {'M' * n:<5} buds {g.mag_buds[lv]}  {lady}".rstrip())
    return out


def _bees(n: int, cap: int) -> str:
    return "*" * n + "." * (cap - n)


def garden_lines(state: PergolaState, seat: int) -> list[str]:
    """One player's boards as on paper: garden, pergola, birdhouse, cascade drops, frog."""
    lay = layout(state)
    g: Garden = state.gardens[seat]
    name = _name(state, seat)
    total = state.scores()[seat].total
    moving = state.to_move == seat
    head = f"[bold reverse] {name} [/]" if moving else f"[bold]{name}[/bold]"
    out = [f"{head}  seat {seat}{', to move' if moving else ''}  ·  {len(g.tools)} of {lay.turns} "
           f"tools taken  ·  {_plural(total, 'point')}{'' if state.is_over else ' so far'}"]
    out += ["  " + x for x in _side(_hollyhocks(g), _magnolia(g), 42)]
    cups = []
    for i, (size, b) in enumerate(zip(g.cups, g.cup_bees, strict=True)):
        if size == 1:
            cups.append(f"{i + 1}:s({_bees(b, 1)})")
        elif size == 2:
            cups.append(f"{i + 1}:L({_bees(b, 2)})")
        else:
            only = "" if len(lay.spaces[i]) != 1 else f"({lay.spaces[i][0]} only)"
            cups.append(f"{i + 1}:_{only}")
    out += _wrap("  Pergola   ", [*cups, " (s/L small/large, * bee, . free spot, _ empty)"],
                 12, sep=" ")
    pairs = g.lav_leaves // 2
    items = [f"flower {j + 1}({_bees(b, 3)})" for j, b in enumerate(g.flowers)]
    dfs = min(g.df_small, max(0, pairs - len(items)))
    if dfs:
        items.append(f"{_plural(dfs, 'small dragonfly', 'small dragonflies')}")
    empty = max(0, pairs - len(g.flowers) - dfs)
    if empty:
        items.append(f"{_plural(empty, 'pair')} with nothing (supply empty)")
    single = "; 1 leaf waits for its pair" if g.lav_leaves % 2 else ""
    lav = f"{_plural(g.lav_leaves, 'leaf', 'leaves')}"
    out.append(f"  Lavender  {lav}" + (f": {', '.join(items)}" if items else "") + single)
    out.append(f"  Flying    butterflies {g.bfly_fly}, ladybugs {g.lady_fly}, bees {g.bees_fly}"
               f"    Dragonflies: small {g.df_small}, medium {g.df_medium}, large {g.df_large}")
    unused = ", ".join(f"{LANTERNS[k]} {n}" for k, n in enumerate(g.lanterns) if n) or "none"
    out.append(f"  Lanterns  unused: {unused}; used {g.lanterns_used}")
    bees_on = g.bees_on_buttercups()
    filled = len(g.pots)
    limit = min(MAX_POTS, len(lay.thresholds))
    nxt = (f"next pot at {lay.thresholds[filled]}" if filled < limit else "no more pots")
    lanterns = sum(g.lanterns) + g.lanterns_used
    values = ", ".join(
        f"{p} {sc.pot_value(p, g.butterflies(), len(g.leaves), g.ladybugs(), lanterns)}"
        for p in sc.POTS)
    done = ", ".join(g.pots) or "none"
    out.append(f"  Honey     bees on buttercups {bees_on}, {nxt}; filled ({limit} at most): {done}")
    out.append(f"            points each pot gives now: {values}")
    colours = len({lay.leaves[i]["colour"] for i in g.leaves})
    birds = [leaf_text(state, i, long=False) for i in g.leaves] or ["none"]
    if g.leaves:
        birds.append(f" ({_plural(colours, 'colour')})")
    out += _wrap("  Birdhouse", birds, 12, sep=" ")
    out += _drops_text(state, g)
    out += [("  Pond      " if i == 0 else " " * 12) + x
            for i, x in enumerate(_frog_text(state, g))]
    out += _wrap("  Tools     ", [lay.tool_ids[t] for t in g.tools] or ["none yet"], 12, sep=" ")
    return out


def _drops_text(state: PergolaState, g: Garden) -> list[str]:
    lay = layout(state)
    parts = []
    if all(d < 0 for d in g.drops):
        parts.append("both at the bottom (a water drip gives an insect)")
    for k, d in enumerate(g.drops):
        if d < 0:
            if not all(x < 0 for x in g.drops):
                parts.append("one at the bottom")
            continue
        other = g.drops[1 - k]
        ways = []
        for t in lay.stones[d]["to"]:
            if t == "bottom":
                ways.append("bottom")
            else:
                j = lay.stone_index[t]
                s = lay.stones[j]
                ways.append(f"{t} {s.get('insect') or ''}".rstrip()
                            + (" (blocked)" if j == other else ""))
        parts.append(f"{lay.stones[d]['id']} -> {', '.join(ways)}")
    bonus = ", ".join(g.bonuses) or "none yet"
    return _wrap("  Cascade   drops", [*parts, f"bonus spots: {bonus}"], 12, sep=" |")


def _requirement_count(g: Garden, req: str) -> int:
    if req == "magnolia":
        return sum(g.mag)
    if req == "hollyhock":
        return sum(g.holly)
    if req == "buttercup":
        return sum(1 for x in g.cups if x)
    return g.lav_leaves


def _frog_text(state: PergolaState, g: Garden) -> list[str]:
    lay = layout(state)
    if g.frog < 0:
        where = "frog in the garden (its first jump may land on any lily)"
    else:
        x = lay.lilies[g.frog]
        where = (f"frog on lily {x['id']} ({lily_gives(state, g.frog)}), touching "
                 + " ".join(x.get("adjacent", [])))
    dls = []
    for i in lay.dragon_lilies:
        req = lay.lilies[i]["dragonfly"]
        won = g.df_reqs >> REQUIREMENTS.index(req) & 1
        n = _requirement_count(g, req)
        word = REQ_WORDS[req].split(" ")[0]
        dls.append(f"{lay.lilies[i]['id']} {word} {min(n, REQUIREMENT)}/{REQUIREMENT}"
                   + (" won" if won else ""))
    return [where, *_wrap("dragonfly lilies:", dls, 18, width=WIDTH - 12)]


# ------------------------------------------------------------------ score pad, decision


def render_score(state: PergolaState, seat: int | None = None, colourblind: bool = True) -> str:
    """The score pad as printed: one row per scoring category, one column per seat, total."""
    names = [_name(state, s) for s in range(state.players)]
    width = max(8, *(_visible(n) + 2 for n in names))
    scores = state.scores()
    lines = ["[bold]Score pad[/bold]" + ("" if state.is_over else "  (points so far)"),
             " " * 16 + "".join(" " * (width - _visible(n)) + n for n in names)]
    for r in sc.ROWS:
        lines.append(f"{r:<16}" + "".join(f"{x.breakdown[r]:>{width}}" for x in scores))
    lines.append(f"[bold]{'total':<16}" + "".join(f"{x.total:>{width}}" for x in scores)
                 + "[/bold]")
    _ = seat, colourblind
    return "\n".join(lines)


def decision_text(state: PergolaState) -> str:
    """What the seat to move decides now, named from its legal moves."""
    moves = [str(m) for m in state.legal_moves()]
    words = {m.split(" ", 1)[0] for m in moves}
    for w in ("drip", "take", "jump", "honey", "bonus", "leaf", "pick", "magnolia",
              "buttercup", "lavender", "butterfly", "ladybug", "bee", "move", "action"):
        if w in words:
            break
    else:
        w = ""
    if w == "" and "lantern" in words:
        kinds = {m.split(" ")[1] for m in moves if m.startswith("lantern ")}
        return next((LANTERN_DECISIONS[k] for k in ("insect", "drip", "jump", "action")
                     if k in kinds), "use a lantern or skip")
    if w == "" and "stop" in words:
        w = "stop"
    text = DECISIONS.get(w, "choose")
    if w == "take" and "drip" not in words:
        text = "take an insect of your choice (take KIND)"
    return text


def status_lines(state: PergolaState) -> list[str]:
    if state.is_over:
        return game_over_lines(state)
    who = state.to_move
    if who is None or who < 0:
        return ["(the table is being set: tools drawn, leaves revealed)"]
    out = []
    if state.current_tool >= 0:
        out.append(f"Tool in play: {tool_text(state, state.current_tool)}")
    name = _name(state, who)
    out += _wrap(f"[bold]{_cap(name)}[/bold] {verb(name, 'decides')} now:",
                 decision_text(state).split(), 4, sep=" ")
    return out


def game_over_lines(state: PergolaState) -> list[str]:
    """The end: solo, the challenge met or not against the neighbours' printed results (P10);
    otherwise the totals and who wins (ties win together, A4)."""
    turns = layout(state).turns
    out = [f"[bold]Game over[/bold] after {turns} turns" + ("." if state.solo else " each.")]
    if state.solo:
        lines = challenge_summary(state)
        for i, x in enumerate(lines):
            wrapped = _wrap_text(_esc(x))
            out += [f"[bold]{w}[/bold]" for w in wrapped] if i == 0 else wrapped
        return out
    totals = [x.total for x in state.scores()]
    best = max(totals)
    win = [_name(state, s) for s, t in enumerate(totals) if t == best]
    others = ", ".join(f"{_name(state, s)} {t}" for s, t in
                       sorted(enumerate(totals), key=lambda st: -st[1]) if t != best)
    if len(win) == 1:
        line = f"{_cap(subject(win[0], 'wins'))} with {best} points"
    else:
        line = f"{' and '.join(win)} tie with {best} points and win together"
    return _wrap_text(out[0][:-1] + f": {line}" + (f" ({others})." if others else "."))


def render(state: PergolaState, seat: int | None, colourblind: bool = True) -> str:
    """The whole screen for ``seat`` (``None``: the seat to move)."""
    viewer = seat
    if viewer is None or not 0 <= viewer < state.players:
        who = state.to_move
        viewer = who if who is not None and who >= 0 else None
    rounds = layout(state).turns
    done = min(state.turn // state.players + (0 if state.is_over else 1), rounds)
    names = " vs ".join(_name(state, s) for s in range(state.players))
    mode = "solo" if state.solo else names
    lines = [f"[bold]Pergola[/bold]  {mode}  ·  turn {done} of {rounds}"
             + ("" if state.solo or state.is_over else " each")]
    if state.solo and not state.is_over:
        for x in challenge_summary(state):
            lines += _wrap_text(_esc(x))
    lines.append("")
    lines += board_lines(state)
    lines += leaf_lines(state)
    lines += supply_lines(state)
    lines.append("")
    lines += cascade_lines(state, viewer)
    lines.append("")
    lines += pond_lines(state)
    for s in range(state.players):
        lines.append("")
        lines += garden_lines(state, s)
    lines.append("")
    totals = [f"{_name(state, s)} {x.total}" for s, x in enumerate(state.scores())]
    if state.is_over:
        lines += _wrap("[bold]Score pad[/bold]  final totals:", totals, 4)
    else:
        lines += _wrap("[bold]Score pad[/bold]  points so far:",
                       [*totals[:-1], totals[-1] + " (type score for every row)"], 4)
    lines.append("")
    lines += status_lines(state)
    return "\n".join(lines)


__all__ = ["Layout", "board_lines", "cascade_lines", "decision_text", "game_over_lines",
           "garden_lines", "layout", "pond_lines", "render", "render_score", "tool_text"]
