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
- ``honey ladybugs``: fill that honey pot (P7); ``skip``: do not.

Chance moves (A1): ``draw S05`` (the next tool from the holder is S05), ``reveal 2 G3`` (the
new top leaf of pile 2 is G3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.core.errors import IllegalMove


@dataclass(frozen=True, slots=True)
class PergolaMove:
    text: str

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


_CACHE: dict[str, PergolaMove] = {}


def mv(text: str) -> PergolaMove:
    m = _CACHE.get(text)
    if m is None:
        m = _CACHE[text] = PergolaMove(text)
    return m


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


def parse(text: str) -> PergolaMove:
    """The move written ``text``; raises :class:`IllegalMove` if no move is written so."""
    t = " ".join(str(text).split())
    if not _GRAMMAR.match(t):
        raise IllegalMove(f"{text!r} is not a Pergola move; moves are written: "
                          f"{'; '.join(FORMS)}", text)
    return mv(t)
