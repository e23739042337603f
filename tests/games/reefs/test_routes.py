"""Scenario tests for drawing routes: R3-R6, R12, R13 and the rulebook's "Drawing Routes".

The test lattice is 5 x 5 (a1..e5); entry points in1 -> a3, in2 -> c1, in3 -> e3, in4 -> c5.
"""

from __future__ import annotations

import pytest

import meeple
from meeple.games.reefs.rules import ANY, P_TAKE, ReefsState
from tests.games.reefs.helpers import forfeit_rest, lattice_sheet, legal, new, roll, turn


def idx(s: ReefsState, sid: str) -> int:
    return s.board.index[sid]


# ---------------------------------------------------------------- R3 starting and continuing
def test_r3_new_route_starts_at_any_free_entry_point() -> None:
    s = new()
    roll(s, O="2any")
    s.play("take O")
    assert legal(s) == ["forfeit", "in1", "in2", "in3", "in4"]
    s.play("in1")
    assert legal(s) == ["a3"]  # the entry point's only connection; no forfeit any more
    s.play("a3")
    assert legal(s) == ["a2", "a4", "b3"]  # never back onto the entry point (R3)
    s.play("b3")
    sh = s.sheets[0]
    assert sh.entry[0] == idx(s, "in1") and sh.end[0] == idx(s, "b3")
    # R3: the entry point is used up: another colour cannot start there
    s.play("take R")
    assert legal(s) == ["forfeit", "in2", "in3", "in4"]


def test_r3_route_is_continued_only_from_its_end_no_branches() -> None:
    s = new()
    roll(s, O="2any")
    turn(s, "O", "in1", "a3", "b3")
    forfeit_rest(s)
    roll(s, O="1any")
    s.play("take O")
    # only from the end b3; a2/a4 (next to a3, the middle of the route) are not offered
    assert legal(s) == ["b2", "b4", "c3", "forfeit"]


def test_r3_a_route_never_crosses_another_entry_point() -> None:
    s = new()
    roll(s, O="4+straight")
    turn(s, "O", "in1", "a3", "b3", "c3", "d3")
    assert legal(s) == ["e3", "stop"]
    s.play("e3")  # in3 lies straight ahead: the line cannot go on, so the pencil ends
    assert s.phase == P_TAKE and s.sheets[0].end[0] == idx(s, "e3")
    forfeit_rest(s)
    roll(s, O="1any")
    s.play("take O")
    assert "in3" not in legal(s)
    assert legal(s) == ["e2", "e4", "forfeit"]


# ---------------------------------------------------------------- R4 connections once
def test_r4_routes_cross_on_spaces_but_never_share_a_connection() -> None:
    s = new()
    roll(s, O="2any", R="3any")
    turn(s, "O", "in1", "a3", "b3")
    turn(s, "R", "in2", "c1", "c2", "c3")
    forfeit_rest(s)
    roll(s, R="2any")
    s.play("take R")
    s.play("b3")  # red crosses orange on space b3 (allowed)
    assert legal(s) == ["b2", "b4"]  # a3-b3 carries orange's line (R4)


def test_r4_route_may_cross_itself_on_a_space_but_never_reuse_a_connection() -> None:
    s = new()
    roll(s, O="2any")
    turn(s, "O", "in1", "a3", "b3")
    forfeit_rest(s)
    roll(s, O="3any")
    s.play("take O")
    s.play("b2")
    s.play("a2")
    assert "a3" in legal(s)
    s.play("a3")  # back on its own space a3 through a new connection
    assert s.sheets[0].end[0] == idx(s, "a3")
    forfeit_rest(s)
    roll(s, O="1any")
    s.play("take O")
    # a3-b3 and a2-a3 are used, in1 is an entry point: only a4 is left
    assert legal(s) == ["a4", "forfeit"]


# ---------------------------------------------------------------- R5 any / straight / 4+
def _blocked_setup() -> ReefsState:
    """Orange ends at a3; red uses c3-d3. From a3 every straight line is 2 steps long."""
    s = new()
    roll(s, O="1any", R="3any")
    turn(s, "O", "in1", "a3")
    turn(s, "R", "in4", "c5", "c4", "c3")
    forfeit_rest(s)
    roll(s, R="1any", O="3straight")
    turn(s, "R", "d3")
    return s


def test_r5_straight_route_blocked_after_2_steps_cannot_take_3_straight() -> None:
    s = _blocked_setup()
    s.play("take O")
    # up a2-a1 and down a4-a5 end at the edge, right b3-c3 then c3-d3 is red's
    assert legal(s) == ["forfeit"]
    s.play("forfeit")


def test_r5_straight_steps_keep_one_direction_first_step_any_direction() -> None:
    s = _blocked_setup()
    turn(s, "O", "forfeit")
    forfeit_rest(s)
    roll(s, O="2straight")
    s.play("take O")
    assert legal(s) == ["a2", "a4", "b3", "forfeit"]  # the first step may leave in any direction
    s.play("b3")
    assert legal(s) == ["c3"]  # then straight on only


def test_r5_any_steps_may_turn_after_each_step() -> None:
    s = new()
    roll(s, O="3any")
    turn(s, "O", "in1", "a3")
    assert legal(s) == ["a2", "a4", "b3"]
    s.play("a2")
    assert legal(s) == ["a1", "b2"]


def test_r5_four_plus_straight_player_chooses_where_to_stop_at_least_4() -> None:
    s = new()
    roll(s, O="4+straight")
    turn(s, "O", "in1", "a3", "b3")
    assert "stop" not in legal(s)
    s.play("c3")
    assert legal(s) == ["d3"]  # 3 steps drawn: no stop yet
    s.play("d3")
    assert legal(s) == ["e3", "stop"]
    s.play("stop")
    assert s.sheets[0].end[0] == idx(s, "d3") and s.phase == P_TAKE


def test_r5_four_plus_straight_needs_a_line_of_four() -> None:
    s = new()
    roll(s, O="4+straight")
    s.play("take O")
    # every entry point starts a straight line of 5 steps across the lattice
    assert legal(s) == ["forfeit", "in1", "in2", "in3", "in4"]
    # a 3 x 3 lattice has no line of four: only forfeit
    small = lattice_sheet(3, ((0, 2, 1, 2), (2, 0, 2, 1)))
    t = new(small)
    roll(t, O="4+straight")
    t.play("take O")
    assert legal(t) == ["forfeit"]


def test_full_number_of_steps_no_early_stop() -> None:
    s = new()
    roll(s, O="3any")
    turn(s, "O", "in1", "a3")
    assert "stop" not in legal(s) and "forfeit" not in legal(s)


# ---------------------------------------------------------------- R6 forfeit
def test_r6_forfeit_draws_nothing_and_costs_nothing() -> None:
    s = new()
    roll(s, O="3any")
    before = s.sheets[0].key()
    turn(s, "O", "forfeit")  # allowed although the pencil could be drawn ("do not want to")
    assert s.sheets[0].key() == before
    assert s.middle[0] == -1  # the pencil is set aside
    assert s.scores()[0].total == 0
    assert s.turn == 1


def test_r6_forfeit_is_refused_once_something_is_drawn() -> None:
    s = new()
    roll(s, O="3any")
    turn(s, "O", "in1")
    before = s.key()
    with pytest.raises(meeple.IllegalMove, match="forfeit"):
        s.play("forfeit")
    assert s.key() == before


# ---------------------------------------------------------------- completability
def _no_dead_end(state: ReefsState, depth: int = 0) -> None:
    seat, turn_no = state.to_move, state.turn
    moves = state.legal_moves()
    assert moves, "a decision with no legal move inside a turn"
    for m in moves:
        c = state.clone()
        c.play(m, check=False)
        if c.turn == turn_no and c.to_move == seat and depth < 12:
            _no_dead_end(c, depth + 1)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_partial_route_offered_can_be_completed(level: int) -> None:
    rng = meeple.Rng(level)
    for seed in range(4):
        s = meeple.new_game("reefs", players=2, seed=seed, level=level)
        assert isinstance(s, ReefsState)
        n = 0
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
                continue
            if s.phase == P_TAKE and n % 3 == 0:
                _no_dead_end(s)
            n += 1
            s.play(rng.choice(s.legal_moves()), check=False)


# ---------------------------------------------------------------- R12 whirlpools
def test_r12_whirlpool_on_step_1_of_a_4plus_pencil_stops_and_gives_3_any_steps() -> None:
    s = new(lattice_sheet(whirlpools=("a3",)), level=2)
    roll(s, O="4+straight")
    turn(s, "O", "in1", "a3")
    sh = s.sheets[0]
    assert sh.whirls == 1 << idx(s, "a3")
    assert s.pmode == ANY and s.prem == 3
    assert legal(s) == ["a2", "a4", "b3"]  # any direction; no stop, no forfeit
    s.play("a2")
    s.play("b2")  # turning is allowed: these are any steps
    assert legal(s) == ["b1", "b3", "c2"]
    s.play("c2")
    assert s.phase == P_TAKE and sh.end[0] == idx(s, "c2")


def test_r12_whirlpool_ends_route_when_3_any_steps_cannot_be_drawn() -> None:
    s = new(lattice_sheet(whirlpools=("a1",)), level=2)
    roll(s, R="3any", O="3any")
    turn(s, "R", "in2", "c1", "b1", "b2")  # uses c1-b1 and b1-b2
    turn(s, "O", "in1", "a3", "a2", "a1")  # a1 is a whirlpool on the last step
    # from a1 only a1-b1 is free and b1 is a dead end: the route ends at the whirlpool
    assert s.phase == P_TAKE
    assert s.sheets[0].end[0] == idx(s, "a1")
    assert s.sheets[0].whirls == 1 << idx(s, "a1")


def test_r12_whirlpool_reached_during_the_3_any_steps_triggers_again() -> None:
    s = new(lattice_sheet(whirlpools=("a3", "a1")), level=2)
    roll(s, O="1any")
    turn(s, "O", "in1", "a3", "a2")
    assert s.prem == 2
    s.play("a1")
    assert s.prem == 3 and s.pmode == ANY  # a fresh 3 any steps from the second whirlpool
    s.play("b1")
    s.play("b2")
    s.play("b3")
    assert s.phase == P_TAKE


def test_r12_coloured_whirlpool_crossed_again_does_nothing() -> None:
    s = new(lattice_sheet(whirlpools=("b3",)), level=2)
    roll(s, O="2any", R="3any")
    turn(s, "O", "in1", "a3", "b3", "b2", "c2", "c3")  # b3 whirlpool, then 3 any
    turn(s, "R", "in4", "c5", "c4", "b4")
    forfeit_rest(s)
    roll(s, R="3any")
    turn(s, "R", "b3")
    assert s.prem == 2 and s.pmode == ANY  # no stop, the pencil goes on
    assert legal(s) == ["c3"]  # b3-a3 and b3-b2 carry orange, b3-b4 red
    s.play("c3")
    assert s.prem == 1


# ---------------------------------------------------------------- R13 propellers
def test_r13_propeller_collected_once_and_used_for_3_any_steps() -> None:
    s = new(lattice_sheet(propellers=("a3",)), level=3)
    roll(s, O="1any")
    s.play("take O")
    assert "take R propeller" not in [str(m) for m in s.legal_moves()]
    s.play("in1")
    s.play("a3")
    sh = s.sheets[0]
    assert sh.props == 1 and sh.props_used == 0
    forfeit_rest(s)
    roll(s, O="1any", R="4+straight")
    assert "take R propeller" in legal(s)
    s.play("take R propeller")  # ignore the face: exactly 3 any steps
    assert s.pmode == ANY and s.prem == 3 and sh.props_used == 1
    s.play("in2")
    s.play("c1")
    s.play("b1")
    s.play("a1")
    assert s.phase == P_TAKE
    assert not any("propeller" in m for m in legal(s))  # used up


def test_r13_propeller_offered_only_when_3_any_steps_can_be_drawn() -> None:
    # 2 x 2 lattice, one entry point: after orange takes the propeller, 3 connections are left
    s = new(lattice_sheet(2, ((0, 1, 1, 1),), propellers=("a1",)), level=3)
    roll(s, O="1any")
    turn(s, "O", "in1", "a1")
    assert s.sheets[0].props == 1
    # no free entry point is left for the other colours: only orange may use the propeller
    assert legal(s) == ["take B", "take G", "take P", "take R"]
    forfeit_rest(s)
    roll(s)
    assert legal(s) == ["take B", "take G", "take O", "take O propeller", "take P", "take R"]
    s.play("take O propeller")
    assert "forfeit" not in legal(s)  # the propeller is spent: the 3 any steps are drawn
    assert legal(s) == ["a2", "b1"]


def test_r13_crossing_a_collected_propeller_again_does_nothing() -> None:
    s = new(lattice_sheet(propellers=("b3",)), level=3)
    roll(s, O="2any", R="3any")
    turn(s, "O", "in1", "a3", "b3")
    turn(s, "R", "in4", "c5", "c4", "c3")
    assert s.sheets[0].props == 1
    forfeit_rest(s)
    roll(s, R="1any")
    turn(s, "R", "b3")
    assert s.sheets[0].props == 1


def test_r3_route_never_returns_to_its_own_entry_point() -> None:
    # in1 is joined to a3 and, by a diagonal, to a2
    data = lattice_sheet()
    data["connections"].append(["in1", "a2"])
    s = new(data)
    roll(s, O="3any")
    s.play("take O")
    s.play("in1")
    assert legal(s) == ["a2", "a3"]
    s.play("a3")
    s.play("a2")
    assert "in1" not in legal(s)  # a2-in1 is free, but the entry point is never re-entered
    assert legal(s) == ["a1", "b2"]


def test_whole_turns_and_undo_inside_a_turn() -> None:
    s = new()
    roll(s, O="2any")
    turns = s.whole_turns()
    texts = {" ".join(str(m) for m in moves) for moves, _ in turns}
    assert "take O forfeit" in texts and "take O in1 a3 b3" in texts
    assert "take R in1 a3" in texts  # the other pencils show 1 any
    s.play("take O")
    s.play("in1")
    s.play("a3")
    assert s.can_undo()
    s.undo()
    s.undo()
    assert legal(s)[0] == "forfeit" and s.sheets[0].entries_used == 0
