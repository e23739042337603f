"""Pergola moves and their canonical text (one small decision each).

Seat moves:

- ``pick 3``: take the tool above action space 3 (spaces 1-4, 1 = insect flutter, P9);
- ``magnolia 4``: place the magnolia just taken on level 4 (on a free bud of level 3);
- ``buttercup 2``: place the buttercup just taken on pergola space 2;
- ``lavender flower`` / ``lavender dragonfly``: what goes between a new pair of lavender leaves;
- ``butterfly h3``, ``ladybug m2``, ``bee cup4``, ``bee flower1``, ``bee fly``: place an insect
  just taken (on hollyhock level 3, magnolia level 2, pergola space 4, lavender flower 1, or
  flying about; P6);
- ``action frog`` (the tool's own action) or ``lantern action bird`` (use an action lantern);
- ``move bee fly>cup2``: one insect of an insect flutter; ``stop`` ends the flutter;
- ``leaf 2``: bird flight, take the top leaf of pile 2; ``take bee``: take an insect (bird flight
  with no leaves left, the bottom of the cascade, or water drip with both drops at the bottom);
- ``drip c>f``: move the drop on stone c to stone f (``drip i>bottom``);
  ``bonus sets`` / ``bonus dragonflies`` / ``bonus honey``: the cascade bonus spot (P8);
- ``jump 7``: frog jump to lily 7;
- ``lantern drip``, ``lantern jump``, ``lantern insect``: use that lantern now; ``skip``: do not;
- ``honey ladybugs``: fill that honey pot (P7); ``skip``: do not;
- short forms, for the decision pending only: the move without its first word (``3`` for
  ``pick 3``, ``7`` for ``jump 7``, ``2`` for ``leaf 2``, ``h3``, ``frog``, ``bee``, ``c>f``,
  ``fly>cup2``, ``sets``, ``ladybugs``) and ``lantern`` for the one lantern offered.

Chance moves (A1): ``draw S05`` (the next tool from the holder is S05), ``reveal 2 G3`` (the
new top leaf of pile 2 is G3).

Every move the engine lists carries its meaning as fields (the action space, the level, the
insect and its spots, the stones, the lily, ...), so playing it never reads the text again.
A move read from text alone (:func:`parse`) has ``form == ""`` until the state matches it to
the legal move of the same text. Two moves are equal when their texts are.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from meeple.core.errors import IllegalMove
from meeple.games.pergola.scoring import BONUSES, POTS

#: The four actions, in the order of the action indices (the board order is in the data).
ACTIONS = ("flutter", "bird", "drip", "frog")
FLUTTER_ACTION, BIRD_ACTION, DRIP_ACTION, FROG_ACTION = range(4)

#: The three insects a flutter may move (never a dragonfly, P6).
INSECTS = ("butterfly", "ladybug", "bee")
BUTTERFLY, LADYBUG, BEE = range(3)

#: The four lantern kinds (rulebook, Lanterns): drip again, jump again, take another insect of
#: the same type, perform another action. ``Garden.lanterns`` counts the unused ones, by kind.
LANTERNS = ("drip", "jump", "insect", "action")
DRIP_LANTERN, JUMP_LANTERN, INSECT_LANTERN, ACTION_LANTERN = range(4)

#: What goes between a new pair of lavender leaves (rulebook, Lavender).
LAVENDER_CHOICES = ("flower", "dragonfly")

#: Where an insect sits: ("fly", 0) flying about, ("h", level) on a hollyhock flower,
#: ("m", level) on a magnolia, ("cup", space) on a buttercup, ("flower", i) on a lavender flower.
Spot = tuple[str, int]
FLY: Spot = ("fly", 0)
NOWHERE: Spot = ("", -1)
BOTTOM = -1  # the bottom of the cascade, where a stream ends

# The notation's forms (``PergolaMove.form``); "" for a move known by its text only.
PICK, MAGNOLIA, BUTTERCUP, LAVENDER, PLACE, ACTION, LANTERN, MOVE, STOP_FORM = (
    "pick", "magnolia", "buttercup", "lavender", "place", "action", "lantern", "move", "stop")
LEAF, TAKE, DRIP, BONUS, JUMP, HONEY, SKIP_FORM, DRAW, REVEAL = (
    "leaf", "take", "drip", "bonus", "jump", "honey", "skip", "draw", "reveal")


@dataclass(frozen=True, slots=True, eq=False)
class PergolaMove:
    """One decision. ``text`` is canonical; the other fields hold what it means (-1 / ""
    where a field does not apply). Indices (stone, lily, tool, leaf) are those of the data
    bundle whose state listed the move: play it in states of the same data."""

    text: str
    form: str = ""
    space: int = -1  # pick: action space 0-3 (0 = insect flutter); buttercup: pergola space
    level: int = -1  # magnolia: level index (0 = level 1)
    insect: int = -1  # INSECTS index of the insect placed, moved or taken
    spot: Spot = NOWHERE  # where the insect goes (placing; a flutter's destination)
    source: Spot = NOWHERE  # a flutter: where the insect comes from
    action: int = -1  # ACTIONS index (the tool's own action, or the action a lantern gives)
    lantern: int = -1  # LANTERNS index of the lantern used
    pile: int = -1  # leaf pile (bird flight; a reveal)
    stone: int = -1  # water drip: the stone the drop leaves
    to: int = -1  # water drip: the stone it reaches, or BOTTOM
    lily: int = -1  # frog jump: the lily
    name: str = ""  # lavender choice, cascade bonus spot or honey pot
    tool: int = -1  # draw: the tool
    leaf: int = -1  # reveal: the leaf

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, PergolaMove) and other.text == self.text)

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PergolaMove({self.text!r})"

    @property
    def kind(self) -> str:
        return self.text.split(" ", 1)[0]

    @property
    def arg(self) -> str:
        parts = self.text.split(" ", 1)
        return parts[1] if len(parts) > 1 else ""

    @property
    def short(self) -> tuple[str, ...]:
        """The short forms that stand for this move while its decision is pending (see the
        module docstring); none for chance moves, ``stop``, ``skip`` and lantern actions."""
        f = self.form
        if f in (STOP_FORM, SKIP_FORM, DRAW, REVEAL, "") or (f == LANTERN and self.action >= 0):
            return ()
        if f == LANTERN:
            return ("lantern",)
        if f == MOVE:
            rest = self.text[5:]
            return (rest, rest.split(" ", 1)[1])
        return (self.text.rsplit(" ", 1)[1],)


_CACHE: dict[str, PergolaMove] = {}


def mv(text: str) -> PergolaMove:
    """The move written ``text``, known by its text only (``form == ""``)."""
    m = _CACHE.get(text)
    if m is None:
        m = _CACHE[text] = PergolaMove(text)
    return m


# ---------------------------------------------------------------- moves by their meaning
def spot_code(spot: Spot) -> str:
    """``fly``, ``h3``, ``m2``, ``cup4``, ``flower1``."""
    return "fly" if spot[0] == "fly" else f"{spot[0]}{spot[1] + 1}"


def parse_spot(code: str) -> Spot:
    if code == "fly":
        return FLY
    for pre in ("cup", "flower", "h", "m"):
        if code.startswith(pre) and code[len(pre):].isdigit():
            return (pre, int(code[len(pre):]) - 1)
    raise ValueError(code)


STOP = PergolaMove("stop", STOP_FORM)
SKIP = PergolaMove("skip", SKIP_FORM)


def pick_move(space: int) -> PergolaMove:
    return PergolaMove(f"pick {space + 1}", PICK, space=space)


def magnolia_move(level: int) -> PergolaMove:
    return PergolaMove(f"magnolia {level + 1}", MAGNOLIA, level=level)


def buttercup_move(space: int) -> PergolaMove:
    return PergolaMove(f"buttercup {space + 1}", BUTTERCUP, space=space)


LAVENDER_MOVES = {c: PergolaMove(f"lavender {c}", LAVENDER, name=c) for c in LAVENDER_CHOICES}
OWN_ACTION_MOVES = tuple(PergolaMove(f"action {a}", ACTION, action=i)
                         for i, a in enumerate(ACTIONS))
LANTERN_ACTION_MOVES = tuple(PergolaMove(f"lantern action {a}", LANTERN, action=i,
                                         lantern=ACTION_LANTERN) for i, a in enumerate(ACTIONS))
LANTERN_MOVES = tuple(PergolaMove(f"lantern {x}", LANTERN, lantern=i)
                      for i, x in enumerate(LANTERNS))
TAKE_MOVES = tuple(PergolaMove(f"take {x}", TAKE, insect=i) for i, x in enumerate(INSECTS))
BONUS_MOVES = tuple(PergolaMove(f"bonus {b}", BONUS, name=b) for b in BONUSES)
HONEY_MOVES = tuple(PergolaMove(f"honey {p}", HONEY, name=p) for p in POTS)

_PLACE: dict[tuple[int, Spot], PergolaMove] = {}
_FLUTTER: dict[tuple[int, Spot, Spot], PergolaMove] = {}


def place_move(insect: int, spot: Spot) -> PergolaMove:
    """Place an insect just taken on ``spot`` (``bee cup4``)."""
    key = (insect, spot)
    m = _PLACE.get(key)
    if m is None:
        m = _PLACE[key] = PergolaMove(f"{INSECTS[insect]} {spot_code(spot)}", PLACE,
                                      insect=insect, spot=spot)
    return m


def flutter_move(insect: int, source: Spot, spot: Spot) -> PergolaMove:
    """One insect of an insect flutter (``move bee fly>cup2``)."""
    key = (insect, source, spot)
    m = _FLUTTER.get(key)
    if m is None:
        m = _FLUTTER[key] = PergolaMove(
            f"move {INSECTS[insect]} {spot_code(source)}>{spot_code(spot)}", MOVE,
            insect=insect, source=source, spot=spot)
    return m


def leaf_move(pile: int) -> PergolaMove:
    return PergolaMove(f"leaf {pile + 1}", LEAF, pile=pile)


def drip_move(stone: int, to: int, stone_id: str, to_id: str) -> PergolaMove:
    """Move the drop on ``stone`` down the stream to ``to`` (a stone or BOTTOM)."""
    return PergolaMove(f"drip {stone_id}>{to_id}", DRIP, stone=stone, to=to)


def jump_move(lily: int, lily_id: str) -> PergolaMove:
    return PergolaMove(f"jump {lily_id}", JUMP, lily=lily)


def draw_move(tool: int, tool_id: str) -> PergolaMove:
    return PergolaMove(f"draw {tool_id}", DRAW, tool=tool)


def reveal_move(pile: int, leaf: int, leaf_id: str) -> PergolaMove:
    return PergolaMove(f"reveal {pile + 1} {leaf_id}", REVEAL, pile=pile, leaf=leaf)


# ---------------------------------------------------------------- reading text
FORMS = (
    "pick N", "magnolia LEVEL", "buttercup SPACE", "lavender flower|dragonfly",
    "butterfly fly|hL", "ladybug fly|mL", "bee fly|cupN|flowerN", "action ACTION",
    "lantern action ACTION", "lantern drip|jump|insect", "move KIND FROM>TO", "stop",
    "leaf PILE", "take butterfly|ladybug|bee", "drip FROM>TO", "bonus sets|dragonflies|honey",
    "jump LILY", "honey butterflies|leaves|ladybugs|lanterns", "skip", "draw TOOL",
    "reveal PILE LEAF",
)

_SPOT = r"(?:fly|h\d+|m\d+|cup\d+|flower\d+)"
_GRAMMAR = re.compile(
    r"^(?:pick \d+|magnolia \d+|buttercup \d+|lavender (?:flower|dragonfly)"
    r"|butterfly (?:fly|h\d+)|ladybug (?:fly|m\d+)|bee (?:fly|cup\d+|flower\d+)"
    r"|action (?:flutter|bird|drip|frog)|lantern action (?:flutter|bird|drip|frog)"
    r"|lantern (?:drip|jump|insect)|move (?:butterfly|ladybug|bee) " + _SPOT + ">" + _SPOT +
    r"|stop|skip|leaf \d+|take (?:butterfly|ladybug|bee)|drip \S+>\S+"
    r"|bonus (?:sets|dragonflies|honey)|jump \S+|honey (?:butterflies|leaves|ladybugs|lanterns)"
    r"|draw \S+|reveal \d+ \S+)$"
)


def is_move_text(text: str) -> bool:
    """Whether ``text`` (spaces already collapsed) is written as some Pergola move."""
    return _GRAMMAR.match(text) is not None


def parse(text: str) -> PergolaMove:
    """The move written ``text``; raises :class:`IllegalMove` if no move is written so."""
    t = " ".join(str(text).split())
    if not _GRAMMAR.match(t):
        raise IllegalMove(f"{text!r} is not a Pergola move; moves are written: "
                          f"{'; '.join(FORMS)}", text)
    return mv(t)


# ------------------------------------------------------------------ notation help
#: The help's line width: the terminal screen's (``words.WIDTH``, a 100-column terminal).
HELP_WIDTH = 98


def _doc_forms(doc: str | None) -> list[str]:
    """The move forms listed in the docstring of moves.py (its "- ..." bullets)."""
    out: list[str] = []
    for line in (doc or "").splitlines():
        stripped = line.strip()
        if stripped.startswith("- "):
            out.append(stripped[2:])
        elif out and stripped and line.startswith("  ") and not out[-1].endswith("\n"):
            out[-1] += " " + stripped
        elif out and not stripped:
            out[-1] += "\n"
    return [" ".join(x.replace("``", "").split()) for x in out]


def _notation_help() -> str:
    """The move forms as plain text (no markup: the terminal shows it as written)."""
    forms = [f.rstrip(";.") for f in _doc_forms(__doc__) or list(FORMS)]
    body = "\n".join(line for f in forms for line in textwrap.wrap(
        f, HELP_WIDTH, initial_indent="  ", subsequent_indent="      ",
        break_long_words=False, break_on_hyphens=False))
    return ("  One small decision per move; a decision with only one choice plays itself.\n"
            + body + "\n  Case and extra spaces are forgiven; 'moves' lists the legal "
            "choices now.")


#: Shown by ``help`` at the terminal prompt (``PRESENTATION.notation_help``); plain text.
NOTATION_HELP = _notation_help()
