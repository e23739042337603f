"""Pergola in words: what happened between two states of one game, for the players
(:func:`announce`, registered as ``PRESENTATION.announce``).

The names of the pieces (a tool, a leaf, the game's end) are the terminal's own, in plain text:
this module reads them from :mod:`.render` (render never reads this module).
"""

from __future__ import annotations

from meeple.core.text import possessive, subject
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.render import (
    ACTION_NAMES,
    BONUS_DOES,
    LANTERN_DOES,
    PLURAL,
    POT_DOES,
    REQ_WORDS,
    _cap,
    _plain,
    _plural,
    game_over_lines,
    layout,
    leaf_text,
    tool_text,
)
from meeple.games.pergola.rules import Garden, PergolaState
from meeple.games.pergola.sheet import LANTERNS, REQUIREMENTS, SUPPLY_ITEMS


def announce(before: PergolaState, after: PergolaState) -> list[str]:
    """What happened between two states of one game, in plain words for the players: the solo
    neighbour's discard (P10), a honey pot filled (P7), a cascade bonus spot taken (P8), a
    dragonfly won or a frog jump to a dragonfly lily that gives none, a lantern used (P5), a new
    top leaf revealed (P4), an insect running out in the supply (P1), and the end of the game
    (solo: the challenge met or not against the neighbours' printed results, P10)."""
    lay = layout(after)
    out: list[str] = []
    for t in after.discards[len(before.discards):]:
        where = ""
        if t in before.board:
            space = before.board.index(t)
            where = (f" from space {space + 1} "
                     f"({ACTION_NAMES.get(lay.board[space], lay.board[space])})")
        tid, parts = tool_text(after, t, plain=True).split(" ", 1)
        out.append(f"The solo neighbour discards {tid} ({parts}){where}.")
    for s in range(after.players):
        a, b = after.gardens[s], before.gardens[s]
        if a is b:
            continue
        out += _garden_news(after, s, b, a)
    for p, leaf in enumerate(after.tops):
        if leaf >= 0 and leaf != before.tops[p]:
            out.append(f"New top leaf on pile {p + 1}: "
                       f"{leaf_text(after, leaf, plain=True)}.")
    for i, item in enumerate(SUPPLY_ITEMS):
        if item in PLURAL and before.supply[i] > 0 and after.supply[i] == 0:
            out.append(f"The supply has no {PLURAL[item]} left: from now on nobody gets one.")
    if after.is_over and not before.is_over:
        out += [_plain(x) for x in game_over_lines(after)]
    return out


def _garden_news(state: PergolaState, seat: int, b: Garden, a: Garden) -> list[str]:
    lay = layout(state)
    name = state.seats[seat]
    out = []
    lanterns = sum(a.lanterns) + a.lanterns_used
    for p in a.pots[len(b.pots):]:
        v = sc.pot_value(p, a.butterflies(), len(a.leaves), a.ladybugs(), lanterns)
        out.append(f"{_cap(subject(name, 'fills'))} the {p} honey pot ({POT_DOES[p]}): "
                   f"{v} points now.")
    for bonus in a.bonuses[len(b.bonuses):]:
        v = sc.bonus_value(bonus, a.butterflies(), a.ladybugs(), a.bees(), a.dragonflies(),
                           len(a.pots))
        out.append(f"{_cap(subject(name, 'takes'))} the cascade bonus spot {bonus} "
                   f"({BONUS_DOES[bonus]}): {v} points now.")
    lily = lay.lilies[a.frog]["id"] if a.frog >= 0 else "?"
    for n, size, pts in ((a.df_large - b.df_large, "large", 5),
                         (a.df_medium - b.df_medium, "medium", 3)):
        for _ in range(n):
            out.append(f"{_cap(subject(name, 'wins'))} a {size} dragonfly ({pts} points) on "
                       f"lily {lily}.")
    for _ in range(a.df_small - b.df_small):
        out.append(f"{_cap(subject(name, 'gets'))} a small dragonfly (1 point) between a new "
                   f"pair of lavender leaves.")
    won = (a.df_large - b.df_large) + (a.df_medium - b.df_medium)
    if a.frog != b.frog and a.frog in lay.dragon_lilies and not won:
        req = lay.lilies[a.frog]["dragonfly"]
        if b.df_reqs >> REQUIREMENTS.index(req) & 1:
            why = f"{subject(name, 'has', 'have')} already won the {REQ_WORDS[req]} dragonfly"
        else:
            why = "its stack is empty"
        out.append(f"{_cap(possessive(name))} frog lands on lily {lily} but gets no dragonfly: "
                   f"{why}.")
    used = a.lanterns_used - b.lanterns_used
    if used > 0:
        kinds = [LANTERNS[k] for k in range(len(LANTERNS))
                 for _ in range(max(0, b.lanterns[k] - a.lanterns[k]))][:used]
        for k in kinds:
            article = "an" if k[0] in "aeiou" else "a"
            out.append(f"{_cap(subject(name, 'uses'))} {article} {k} lantern ({LANTERN_DOES[k]}).")
        if used > len(kinds):
            out.append(f"{_cap(subject(name, 'uses'))} {_plural(used - len(kinds), 'lantern')} "
                       f"gained this turn.")
    return out
