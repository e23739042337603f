"""Reefs in words: what happened between two states, for players (:func:`announce`,
``PRESENTATION.announce``, read by ``core.present.announcements``).

Computed by comparing the two states' sheets, bonus holders and the moves logged in between, so
the rules pay nothing for it: a treasure recovered (R7), a coin taken (R8), a propeller collected
or used (R13), a whirlpool reached (R12), a pencil forfeited (R6), a bonus star taken (R10) and
the end of the game with its reason (R11, R15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.bits import bit_list
from meeple.core.state import CHANCE
from meeple.core.text import possessive, subject
from meeple.games.reefs.moves import FORFEIT, TAKE
from meeple.games.reefs.sheet import COLOURS, NEUTRAL, Board

if TYPE_CHECKING:
    from meeple.games.reefs.rules import ReefsState, SeatSheet


def announce(before: ReefsState, after: ReefsState) -> list[str]:
    """Sentences telling players what changed from ``before`` to ``after`` (a later state of
    the same game), in the order a player would want to read them."""
    if after.board is not before.board or after.players != before.players:
        return []
    b = after.board
    out = _moves_between(before, after)
    for seat in range(after.players):
        old, new = before.sheets[seat], after.sheets[seat]
        if old is new:
            continue  # shared by copy-on-write: unchanged
        name = after.seats[seat]
        out += _treasures_recovered(after, old, new, name)
        out += _coins_taken(b, old, new, name)
        out += [f"{subject(name, 'collects')} the propeller on {b.ids[s]} "
                f"({new.props - new.props_used} ready to use) (R13)"
                for s in bit_list(new.props_taken & ~old.props_taken)]
        out += _whirlpools_reached(before, after, seat)
    out += _bonus_stars(before, after)
    if after.over and not before.over:
        out.append(_game_over(after))
    return out


def _moves_between(before: ReefsState, after: ReefsState) -> list[str]:
    """The moves logged in between: propellers used (R13) and pencils forfeited (R6)."""
    out: list[str] = []
    pc = before.pc
    for mover, move in after.log_since(before.moves_played()):
        if mover == CHANCE:
            continue
        name = after.seats[mover]
        if move.kind == TAKE:
            pc = move.a
            if move.b == 1:
                out.append(f"{subject(name, 'uses')} a propeller: 3 any steps with "
                           f"{COLOURS[move.a]} instead of the pencil's face (R13)")
        elif move.kind == FORFEIT and pc >= 0:
            out.append(f"{subject(name, 'forfeits')} the {COLOURS[pc]} pencil: "
                       "nothing is drawn (R6)")
    return out


def _treasures_recovered(after: ReefsState, old: SeatSheet, new: SeatSheet, name: str) -> list[str]:
    """Each treasure recovered between sheets ``old`` and ``new`` (R7), with the boxes it
    filled in its colour's row."""
    b = after.board
    out: list[str] = []
    filled = old.boxes[:]  # boxes per colour, treasure by treasure (several may be
    for t in range(b.n_treasures):  # recovered between the two states)
        c = new.treasure[t]
        if old.treasure[t] >= 0 or c < 0:
            continue
        value = b.treasure_value[t]
        neutral = b.treasure_colour[t] == NEUTRAL
        kind = "neutral" if neutral else COLOURS[c]
        where = b.ids[_space_of(after, t)] + (f" with {COLOURS[c]}" if neutral else "")
        gained = min(b.row_len[c], filled[c] + value) - filled[c]
        filled[c] += gained
        row = b.row_values[c][filled[c] - 1] if filled[c] else 0
        boxes = "box" if gained == 1 else "boxes"
        lost = f" ({value - gained} lost: the row is full)" if gained < value else ""
        out.append(f"{subject(name, 'recovers')} the {kind} treasure ({value}) on {where}: "
                   f"{possessive(name)} {COLOURS[c]} row +{gained} {boxes}{lost}, "
                   f"scores {row} (R7)")
    return out


def _coins_taken(b: Board, old: SeatSheet, new: SeatSheet, name: str) -> list[str]:
    """Each coin reached between sheets ``old`` and ``new`` (R8): taken, or touched with a
    full coin row."""
    out: list[str] = []
    for s in bit_list(new.coins_taken & ~old.coins_taken):
        if new.coins > old.coins:
            out.append(f"{subject(name, 'takes')} the coin on {b.ids[s]}: "
                       f"{possessive(name)} coin row {new.coins} of {b.coin_len}, scores "
                       f"{b.coin_values[new.coins - 1]} (R8)")
        else:
            out.append(f"{subject(name, 'touches')} the coin on {b.ids[s]}, but "
                       f"{possessive(name)} coin row is full (R8)")
    return out


def _whirlpools_reached(before: ReefsState, after: ReefsState, seat: int) -> list[str]:
    """Each whirlpool a route of ``seat`` reached (R12), and whether the route goes on."""
    b = after.board
    old, new = before.sheets[seat], after.sheets[seat]
    name = after.seats[seat]
    out: list[str] = []
    for s in bit_list(new.whirls & ~old.whirls):
        c = _line_into(after, seat, before, s)
        drawing = not after.over and after.seat == seat and after.pc == c
        then = ("cannot draw 3 more steps and ends there" if new.end[c] == s and not drawing
                else "goes on with exactly 3 any steps from there")
        out.append(f"{possessive(name)} {COLOURS[c]} route reaches the whirlpool "
                   f"{b.ids[s]}: the rest of the pencil is lost and the route {then} (R12)")
    return out


def _bonus_stars(before: ReefsState, after: ReefsState) -> list[str]:
    """The bonus stars taken in between (R10): 2 boxes in every row, a whole row filled."""
    bonus = after.board.bonus
    out: list[str] = []
    if before.two_each_holder < 0 <= after.two_each_holder:
        who = after.seats[after.two_each_holder]
        out.append(f"{subject(who, 'takes')} the star for 2 boxes in every row first: "
                   f"+{bonus.two_each} (R10)")
    if before.full_row_holder < 0 <= after.full_row_holder:
        who = after.seats[after.full_row_holder]
        out.append(f"{subject(who, 'takes')} the star for filling a whole row first: "
                   f"+{bonus.full_row} (R10)")
    return out


def _line_into(after: ReefsState, seat: int, before: ReefsState, s: int) -> int:
    """The colour of a line drawn since ``before`` that touches space ``s``."""
    b = after.board
    old, new = before.sheets[seat].owner, after.sheets[seat].owner
    for ci, (a, z) in enumerate(b.conns):
        if s in (a, z) and new[ci] and not old[ci]:
            return new[ci] - 1
    return max(after.pc, 0)


def _space_of(state: ReefsState, t: int) -> int:
    return state.board.treasure_at.index(t)


def end_reason(state: ReefsState, cite: bool = True) -> str:
    """Why the game ended, in words; ``cite``: followed by the rule, R11 or R15 (the terminal's
    words), without it for the web view."""
    if state.ender >= 0:
        why = [w for w, ok in (("the grey boxes of all five rows", state.end_grey),
                               ("the last coin box", state.end_coins)) if ok]
        return (f"{subject(state.seats[state.ender], 'has')} reached {' and '.join(why)}"
                + (" (R11)" if cite else ""))
    return "no sheet can draw another step" + (" (R15)" if cite else "")


def _game_over(state: ReefsState) -> str:
    bonus = state.board.bonus
    if state.ender < 0:
        return ("The game is over: no sheet can draw another step (R15); "
                "nobody gets an end bonus")
    name = state.seats[state.ender]
    why = []
    if state.end_grey:
        why.append(f"the grey boxes of all five rows (+{bonus.end_grey})")
    if state.end_coins:
        why.append(f"the last coin box (+{bonus.end_coins})")
    return (f"The game is over: {subject(name, 'has')} reached {' and '.join(why)}, "
            "which ends the game (R10, R11)")
