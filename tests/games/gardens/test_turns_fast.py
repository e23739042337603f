"""Gardens' whole_turns(): the same turns, in the same order, reaching the same positions as
the move-by-move listing it replaces, and greedy's decisions unchanged."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from meeple.core.bits import neighbourhood
from meeple.core.turns import expand_turns
from meeple.games.gardens import rules as gr
from meeple.games.gardens.moves import TAKE_MOVES, WASTE_MOVE
from tests.games.turns_golden import decision_positions, digest, greedy_game, same_turns


def connected_order_as_was(group, coloured, neighbours):
    """``connected_order`` as it was (main at 6fed82b)."""
    start_zone = neighbourhood(coloured, neighbours) & group if coloured else group
    first = start_zone & -start_zone
    order = [first.bit_length() - 1]
    done = first
    while done != group:
        nxt = neighbourhood(done, neighbours) & group & ~done
        low = nxt & -nxt
        order.append(low.bit_length() - 1)
        done |= low
    return order


def played_one_by_one(state):
    """The listing as it was (main at 6fed82b): each turn's moves played with ``play``."""
    out = []
    for c, g in state.whole_turn_groups():
        moves = [TAKE_MOVES[c]] if state.phase == gr.TAKING else []
        if g == 0:
            moves.append(WASTE_MOVE)
        else:
            moves.extend(state.fmoves[i] for i in connected_order_as_was(
                g, state.coloured[state.seat], state.sheet.neighbours))
        after = state.clone()
        for m in moves:
            after.play(m, check=False)
        out.append((tuple(moves), after))
    return out


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_connected_order_unchanged(data):
    """The field order of every group a listing offers, against the old code."""
    state = data.draw(st.sampled_from(_POSITIONS))
    groups = [g for _c, g in state.whole_turn_groups() if g]
    assume(groups)
    g = data.draw(st.sampled_from(groups))
    args = (g, state.coloured[state.seat], state.sheet.neighbours)
    assert gr.connected_order(*args) == connected_order_as_was(*args)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_same_turns_in_the_same_order(level, players):
    positions = decision_positions("gardens", {"level": level}, players, 10 * level + players,
                                   every=3, limit=12)
    assert len(positions) >= 10
    fast = 0
    for state in positions:
        listed = state.whole_turns()
        if state.phase == gr.TAKING or (state.phase == gr.COLOURING and not state.group):
            fast += 1
            assert same_turns(listed, played_one_by_one(state))
        else:
            assert same_turns(listed, expand_turns(state))
    assert fast >= 5


_POSITIONS = [s for lv in (1, 2, 3) for s in decision_positions("gardens", {"level": lv}, 2, lv,
                                                                  every=2, limit=15)]


def test_the_same_set_as_the_generic_tree_walk():
    for state in decision_positions("gardens", {"level": 2}, 2, 4, every=4, limit=6):
        listed = {(tuple(map(str, m)), a.key()) for m, a in state.whole_turns()}
        walked = {a.key() for _m, a in expand_turns(state)}
        assert {k for _m, k in listed} == walked


#: Recorded on main before the faster listing (6fed82b): tests/games/turns_golden.py.
GOLDEN = {
    ("gardens", (("level", 1),), 2, 5): (232, "ea73886768034e3c"),
    ("gardens", (("level", 2),), 3, 6): (354, "a9dd0f08f00665f5"),
    ("gardens", (("level", 3),), 2, 7): (211, "d8422489d04d4b9d"),
    ("gardens", (("level", 1),), 1, 8): (123, "8704609dff33dfe6"),
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_greedy_decisions_unchanged(case):
    game, options, players, seed = case
    moves = greedy_game(game, dict(options), players, seed)
    assert (len(moves), digest(moves)) == GOLDEN[case]
