"""Pergola in words: the names of the pieces, the screen's styles and line breaking, the
decision of the seat to move, the end of the game, and :func:`announce` (what happened between
two states of one game, for the players; registered as ``PRESENTATION.announce``).

The terminal drawing (:mod:`.render`) and the view (:mod:`.view`) read their wording from here;
this module reads neither. Everything but :func:`announce` works on plain values (ids, names,
counts), so a drawing made from a per-seat view says what the announcements say.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from meeple.core.text import cap, possessive, subject
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.rules import Garden, PergolaState
from meeple.games.pergola.sheet import LANTERNS, REQUIREMENTS, SUPPLY_ITEMS
from meeple.games.pergola.solo import CHALLENGES, challenge_met, challenge_progress
from meeple.games.pergola.solo import FREE_GAME as FREE_GAME

# ------------------------------------------------------------------ names and styles

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
DRAGONFLY_LETTER = {"medium": "M", "large": "L"}
REQUIREMENT = 4  # printed: a dragonfly lily needs at least 4 of its plant

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
#: The first words of the moves, in the order a decision is named by them.
DECISION_ORDER = ("drip", "take", "jump", "honey", "bonus", "leaf", "pick", "magnolia",
                  "buttercup", "lavender", "butterfly", "ladybug", "bee", "move", "action")

WIDTH = 98  # every line fits a 100-column terminal

# ------------------------------------------------------------------ markup lines

_TAG = re.compile(r"(?<!\\)\[[^\[\]]*\]")


def esc(s: str) -> str:
    """Text shown as it is (a seat name with brackets is not read as markup)."""
    return s.replace("[", "\\[")


def unmarked(s: str) -> str:
    """A markup line as it reads on screen (tags dropped, escapes undone)."""
    return _TAG.sub("", s).replace("\\[", "[")


def visible(s: str) -> int:
    """The width of a markup line on screen."""
    return len(unmarked(s))


def pad(s: str, width: int) -> str:
    return s + " " * max(0, width - visible(s))


def side(left: Sequence[str], right: Sequence[str], width: int, gap: int = 3) -> list[str]:
    """Two blocks of lines side by side (the left one padded to ``width``)."""
    n = max(len(left), len(right))
    out = []
    for i in range(n):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        out.append((pad(a, width + gap) + b).rstrip() if b else a)
    return out


def wrap(head: str, items: Sequence[str], indent: int, width: int = WIDTH,
         sep: str = ", ") -> list[str]:
    """``head`` and then ``items`` joined by ``sep``, broken into lines of at most ``width``
    visible characters, the later lines indented by ``indent``."""
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        if visible(lines[-1]) + 1 + visible(piece) > width and visible(lines[-1]) > indent:
            lines.append(" " * indent + piece)
        else:
            join = "" if lines[-1].endswith(" ") or not lines[-1].strip() else " "
            lines[-1] += join + piece
    return lines


def wrap_text(text: str, hang: int = 4) -> list[str]:
    """A line of words broken to the screen width, later lines indented ``hang`` more."""
    lead = len(text) - len(text.lstrip(" "))
    words = text.split(" ")[lead:] if lead else text.split(" ")
    words = [w for w in words if w]
    if not words:
        return [text]
    return wrap(" " * lead + words[0], words[1:], lead + hang, sep=" ")


def badge(text: str, style: str | None) -> str:
    return f"[{style}]{text}[/]" if style else text


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


# ------------------------------------------------------------------ pieces in words


def component_text(comp: str, plain: bool = False) -> str:
    """A tool component in words, its colour as a badge (``blue`` hollyhock) unless ``plain``."""
    if comp.startswith("hollyhock-"):
        i = HOLLY_COLOURS.index(comp.split("-", 1)[1])
        return f"{badge(HOLLY_COLOURS[i], None if plain else HOLLY_STYLE[i])} hollyhock"
    if comp.startswith("magnolia-"):
        return "magnolia (1 bud)" if comp == "magnolia-single" else "magnolia (2 buds)"
    if comp.startswith("buttercup-"):
        return f"{comp.split('-', 1)[1]} buttercup"
    if comp.startswith(("lantern-", "dragonfly-")):
        kind, size = comp.split("-", 1)
        return f"{size} {kind}"
    return comp.replace("-", " ")


def tool_text(tool: str, components: Sequence[str], plain: bool = False) -> str:
    """A tool by its id and components: ``S03 magnolia (1 bud) + lavender leaf``."""
    return f"{tool} " + " + ".join(component_text(c, plain) for c in components)


def leaf_text(leaf: str, colour: str, insect: str, flutter: bool, long: bool = True,
              plain: bool = False) -> str:
    """A leaf by its id as a badge of its colour and, ``long``, its colour and insect."""
    shown = badge(leaf, None if plain else LEAF_STYLE.get(colour))
    if not long:
        return shown
    extra = " + a 1-insect flutter" if flutter else ""
    return f"{shown} {colour}, {insect}{extra}"


def lily_gives(insect: str | None, dragonfly: str | None) -> str:
    """What a lily gives: its insect, or a dragonfly for 4 of a plant."""
    if insect:
        return insect
    return f"dragonfly for {REQUIREMENT} {REQ_WORDS[dragonfly or '']}"


def decision_text(moves: Sequence[str]) -> str:
    """What the seat to move decides now, named from its legal moves (in notation)."""
    words = {m.split(" ", 1)[0] for m in moves}
    w = next((x for x in DECISION_ORDER if x in words), "")
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


# ------------------------------------------------------------------ the end, the challenge


@dataclass(frozen=True)
class ChallengeFacts:
    """What the solo challenge's words say (P10): the challenge, how far the garden is, the
    score and the printed neighbours' results at it and at the free game."""

    number: int
    title: str
    goal: str
    met: bool
    progress: str
    over: bool
    score: int
    player: str
    neighbours: tuple[int, int]
    free_neighbours: tuple[int, int]


def _against(score: int, przemek: int, golab: int) -> str:
    """The score against the two printed neighbours' results, in words."""
    above = [n for n, x in (("Przemek", przemek), ("Gołąb", golab)) if score > x]
    tied = [n for n, x in (("Przemek", przemek), ("Gołąb", golab)) if score == x]
    if len(above) == 2:
        return "better than both"
    if not above and not tied:
        return "below both"
    parts = []
    if above:
        parts.append(f"better than {above[0]}")
    if tied:
        parts.append(f"level with {' and '.join(tied)}")
    return ", ".join(parts)


def challenge_lines(f: ChallengeFacts) -> list[str]:
    """The solo challenge in words, plain text: during the game what it asks and how far
    along it is; at the end whether it is met, where the score is recorded and how it
    compares with the neighbours' printed results."""
    przemek, golab = f.neighbours
    head = f"Challenge {f.number} (solo): {f.title} ({f.goal})"
    if not f.over:
        so_far = "met so far" if f.met else "not met yet"
        return [head, f"  so far: {f.progress} ({so_far}); printed neighbours: Przemek "
                      f"{przemek}, Gołąb {golab}"]
    lines = [head]
    if f.number == FREE_GAME:
        lines.append(f"  free game: score {f.score}, recorded in the Free game space")
    else:
        lines.append(f"  challenge {f.number} {'met' if f.met else 'not met'}: {f.progress}")
        where = (f"at challenge {f.number}" if f.met
                 else f"in the Free game space (challenge {FREE_GAME})")
        lines.append(f"  score {f.score}, recorded {where}")
    whose = possessive(f.player)
    lines.append(f"  printed neighbours at challenge {f.number}: Przemek {przemek}, Gołąb "
                 f"{golab}; {whose} {f.score} is {_against(f.score, przemek, golab)}")
    if (f.number if f.met else FREE_GAME) != f.number:
        fp, fg = f.free_neighbours
        lines.append(f"  printed neighbours at the Free game: Przemek {fp}, Gołąb {fg}; "
                     f"{whose} {f.score} is {_against(f.score, fp, fg)}")
    return lines


def game_over_lines(turns: int, names: Sequence[str], totals: Sequence[int],
                    challenge: Sequence[str] | None) -> list[str]:
    """The end: solo (``challenge``: its lines), the challenge met or not against the
    neighbours' printed results (P10); otherwise the totals and who wins (ties win together,
    A4). ``names`` are markup (escaped)."""
    out = [f"[bold]Game over[/bold] after {turns} turns" + ("." if challenge else " each.")]
    if challenge:
        for i, x in enumerate(challenge):
            wrapped = wrap_text(esc(x))
            out += [f"[bold]{w}[/bold]" for w in wrapped] if i == 0 else wrapped
        return out
    best = max(totals)
    win = [names[s] for s, t in enumerate(totals) if t == best]
    others = ", ".join(f"{names[s]} {t}" for s, t in
                       sorted(enumerate(totals), key=lambda st: -st[1]) if t != best)
    if len(win) == 1:
        line = f"{cap(subject(win[0], 'wins'))} with {best} points"
    else:
        line = f"{' and '.join(win)} tie with {best} points and win together"
    return wrap_text(out[0][:-1] + f": {line}" + (f" ({others})." if others else "."))


# ------------------------------------------------------------------ announcements


def _challenge_facts(state: PergolaState) -> ChallengeFacts:
    """The solo challenge's facts, from the state."""
    number = state.challenge or FREE_GAME
    ch, free = CHALLENGES[number - 1], CHALLENGES[FREE_GAME - 1]
    return ChallengeFacts(
        number=number, title=ch.title, goal=ch.goal, met=challenge_met(state, number),
        progress=challenge_progress(state), over=state.is_over,
        score=state.scores()[0].total, player=state.seats[0],
        neighbours=(ch.przemek, ch.golab), free_neighbours=(free.przemek, free.golab))


def _game_over(state: PergolaState) -> list[str]:
    names = [esc(n) for n in state.seats]
    totals = [x.total for x in state.scores()]
    challenge = challenge_lines(_challenge_facts(state)) if state.solo else None
    return game_over_lines(state.c.turns, names, totals, challenge)


def _tool(state: PergolaState, t: int) -> str:
    return tool_text(state.c.tool_ids[t], state.c.tools[t], plain=True)


def _leaf(state: PergolaState, i: int) -> str:
    c = state.c
    return leaf_text(c.leaf_ids[i], c.leaf_colour[i], c.leaf_insect[i], c.leaf_flutter[i],
                     plain=True)


def announce(before: PergolaState, after: PergolaState) -> list[str]:
    """What happened between two states of one game, in plain words for the players: the solo
    neighbour's discard (P10), a honey pot filled (P7), a cascade bonus spot taken (P8), a
    dragonfly won or a frog jump to a dragonfly lily that gives none, a lantern used (P5), a new
    top leaf revealed (P4), an insect running out in the supply (P1), and the end of the game
    (solo: the challenge met or not against the neighbours' printed results, P10)."""
    board = after.c.board
    out: list[str] = []
    for t in after.discards[len(before.discards):]:
        where = ""
        if t in before.board:
            space = before.board.index(t)
            where = f" from space {space + 1} ({ACTION_NAMES.get(board[space], board[space])})"
        tid, parts = _tool(after, t).split(" ", 1)
        out.append(f"The solo neighbour discards {tid} ({parts}){where}.")
    for s in range(after.players):
        a, b = after.gardens[s], before.gardens[s]
        if a is b:
            continue
        out += _garden_news(after, s, b, a)
    for p, leaf in enumerate(after.tops):
        if leaf >= 0 and leaf != before.tops[p]:
            out.append(f"New top leaf on pile {p + 1}: {_leaf(after, leaf)}.")
    for i, item in enumerate(SUPPLY_ITEMS):
        if item in PLURAL and before.supply[i] > 0 and after.supply[i] == 0:
            out.append(f"The supply has no {PLURAL[item]} left: from now on nobody gets one.")
    if after.is_over and not before.is_over:
        out += [unmarked(x) for x in _game_over(after)]
    return out


def _garden_news(state: PergolaState, seat: int, b: Garden, a: Garden) -> list[str]:
    name = state.seats[seat]
    out = []
    lanterns = sum(a.lanterns) + a.lanterns_used
    for p in a.pots[len(b.pots):]:
        v = sc.pot_value(p, a.butterflies(), len(a.leaves), a.ladybugs(), lanterns)
        out.append(f"{cap(subject(name, 'fills'))} the {p} honey pot ({POT_DOES[p]}): "
                   f"{v} points now.")
    for bonus in a.bonuses[len(b.bonuses):]:
        v = sc.bonus_value(bonus, a.butterflies(), a.ladybugs(), a.bees(), a.dragonflies(),
                           len(a.pots))
        out.append(f"{cap(subject(name, 'takes'))} the cascade bonus spot {bonus} "
                   f"({BONUS_DOES[bonus]}): {v} points now.")
    out += _dragonfly_news(state, name, b, a)
    out += _lantern_news(name, b, a)
    return out


def _dragonfly_news(state: PergolaState, name: str, b: Garden, a: Garden) -> list[str]:
    c = state.c
    lily = c.lily_ids[a.frog] if a.frog >= 0 else "?"
    out = []
    for n, size, pts in ((a.df_large - b.df_large, "large", 5),
                         (a.df_medium - b.df_medium, "medium", 3)):
        for _ in range(n):
            out.append(f"{cap(subject(name, 'wins'))} a {size} dragonfly ({pts} points) on "
                       f"lily {lily}.")
    for _ in range(a.df_small - b.df_small):
        out.append(f"{cap(subject(name, 'gets'))} a small dragonfly (1 point) between a new "
                   f"pair of lavender leaves.")
    won = (a.df_large - b.df_large) + (a.df_medium - b.df_medium)
    if a.frog != b.frog and a.frog in c.dragon_lilies and not won:
        req = c.lily_req[a.frog]
        assert req is not None
        if b.df_reqs >> REQUIREMENTS.index(req) & 1:
            why = f"{subject(name, 'has', 'have')} already won the {REQ_WORDS[req]} dragonfly"
        else:
            why = "its stack is empty"
        out.append(f"{cap(possessive(name))} frog lands on lily {lily} but gets no dragonfly: "
                   f"{why}.")
    return out


def _lantern_news(name: str, b: Garden, a: Garden) -> list[str]:
    used = a.lanterns_used - b.lanterns_used
    if used <= 0:
        return []
    out = []
    kinds = [LANTERNS[k] for k in range(len(LANTERNS))
             for _ in range(max(0, b.lanterns[k] - a.lanterns[k]))][:used]
    for k in kinds:
        article = "an" if k[0] in "aeiou" else "a"
        out.append(f"{cap(subject(name, 'uses'))} {article} {k} lantern ({LANTERN_DOES[k]}).")
    if used > len(kinds):
        out.append(f"{cap(subject(name, 'uses'))} {plural(used - len(kinds), 'lantern')} "
                   f"gained this turn.")
    return out
