"""The Reefs evaluation (meeple.games.reefs.evaluation): registered, equal to the score at the end,
credit for targets in reach that fades with distance and with the time left, greedy with it
beats random. Behaviour only: no timing, no strength measurement (see docs/eval-reefs.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import meeple
import meeple.games.reefs.evaluation as er
from meeple.bots.evaluation import evaluation_for, score_total
from meeple.core.state import CHANCE
from meeple.sim.runner import play_game
from tests.games.reefs.helpers import lattice_sheet, new, roll, turn

EVAL = er.reefs_evaluation


def _after(s: Any, pencil: str, *moves: str) -> Any:
    c = s.clone()
    turn(c, pencil, *moves)
    return c


def test_registered_for_reefs() -> None:
    assert evaluation_for("reefs") is EVAL


@pytest.mark.parametrize("level", [1, 2, 3])
def test_equals_the_score_at_the_end_of_a_game(level: int) -> None:
    s = meeple.new_game("reefs", players=2, seed=5, level=level)
    bots = [meeple.bots.make_bot("greedy", seed=1), meeple.bots.make_bot("greedy", seed=2)]
    while s.to_move is not None:
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        seat = s.to_move
        s.play(bots[seat].choose(s.seen_by(seat), s.legal_moves()))
    for seat in range(2):
        assert EVAL(s, seat) == score_total(s, seat)
        assert EVAL(s.seen_by(seat), seat) == score_total(s, seat)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_credit_for_what_is_still_to_come_is_deterministic_and_from_the_view(level: int) -> None:
    s = meeple.new_game("reefs", players=3, seed=2, level=level)
    for seat in range(3):
        value = EVAL(s, seat)
        assert value > score_total(s, seat) == 0  # nothing scored yet, much in reach
        assert EVAL(s.seen_by(seat), seat) == value == EVAL(s, seat)


def test_own_score_matches_the_score_pad_during_a_game() -> None:
    s = meeple.new_game("reefs", players=2, seed=3, level=2)
    bots = [meeple.bots.make_bot("greedy", seed=1), meeple.bots.make_bot("random", seed=2)]
    for _ in range(150):
        if s.to_move is None:
            break
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        seat = s.to_move
        s.play(bots[seat].choose(s.seen_by(seat), s.legal_moves()))
        for k in range(2):
            assert er.own_score(s, k) == score_total(s, k)


def test_a_route_ending_near_its_treasure_beats_one_ending_far_from_it() -> None:
    s = new(lattice_sheet(treasures=(("e3", "orange", 3),)))
    roll(s, O="2any")
    near = _after(s, "O", "in1", "a3", "b3")  # e3 three steps away
    far = _after(s, "O", "in2", "c1", "b1")  # five steps away
    assert score_total(near, 0) == score_total(far, 0) == 0
    assert EVAL(near, 0) > EVAL(far, 0)
    # the same two routes in red, whose treasure is elsewhere, are worth the same
    s2 = new(lattice_sheet(treasures=(("e3", "orange", 3), ("a1", "red", 3))))
    roll(s2, R="2any")
    r1 = _after(s2, "R", "in1", "a3", "b3")
    r2 = _after(s2, "R", "in1", "a3", "a2")  # one step from a1
    assert EVAL(r2, 0) > EVAL(r1, 0)


def test_recovering_a_treasure_beats_going_near_it() -> None:
    s = new(lattice_sheet(treasures=(("c3", "blue", 2),)))
    roll(s, B="3any")
    got = _after(s, "B", "in1", "a3", "b3", "c3")
    near = _after(s, "B", "in1", "a3", "a2", "b2")
    assert score_total(got, 0) > score_total(near, 0)
    assert EVAL(got, 0) > EVAL(near, 0)


def test_a_boxed_in_route_end_gets_no_credit_for_its_treasure() -> None:
    # blue draws in1-a3-a2-a1; red then takes a1's last free connection (b1-a1) or goes down
    def play(treasure: bool, close: bool) -> float:
        s = new(lattice_sheet(treasures=(("c5", "blue", 3),) if treasure else ()))
        roll(s, B="3any", R="3any")
        turn(s, "B", "in1", "a3", "a2", "a1")
        turn(s, "R", "in2", "c1", *(("b1", "a1") if close else ("c2", "c3")))
        return EVAL(s, 0)

    assert play(treasure=True, close=False) > play(treasure=False, close=False)
    assert play(treasure=True, close=True) == play(treasure=False, close=True)


def test_credit_fades_as_another_seat_nears_the_end() -> None:
    s = new(lattice_sheet(treasures=(("e3", "orange", 3),), coins=("b2", "d4")), players=2)
    roll(s, O="2any")
    turn(s, "O", "in1", "a3", "b3")
    early = EVAL(s, 0)
    late = s.clone()
    late.sheet_for_update(1).coins = late.board.coin_len - 1  # the other seat is one coin from the end
    assert score_total(late, 0) == score_total(s, 0)
    assert score_total(s, 0) < EVAL(late, 0) < early


def test_an_unused_propeller_is_worth_something() -> None:
    s = new(lattice_sheet(propellers=("a3",)))
    roll(s, O="1any")
    with_prop = _after(s, "O", "in1", "a3")
    without = _after(s, "O", "in2", "c1")
    assert with_prop.sheets[0].props == 1
    assert EVAL(with_prop, 0) > EVAL(without, 0)


def test_weights_are_options() -> None:
    s = meeple.new_game("reefs", players=2, seed=1, level=1)
    flat = er.make_reefs_evaluation(treasure_w=0, coin_w=0, bonus_w=0, prop_w=0)
    assert flat(s, 0) == 0.0
    assert er.make_reefs_evaluation(gamma=0.9)(s, 0) > er.make_reefs_evaluation(gamma=0.3)(s, 0)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_greedy_with_it_beats_random(level: int) -> None:
    wins = 0
    for seed in range(3):
        for bots, me in ((["greedy", "random"], 0), (["random", "greedy"], 1)):
            rec = play_game("reefs", {"level": level}, bots, seed)
            wins += rec["winners"] == [me]
    assert wins == 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_memo_gives_exactly_the_values_computed_afresh(players: int) -> None:
    """The memo (``memo=True``, the registered evaluation) returns exactly what a fresh
    computation gives, on every seat after every move of random games at every level: its key
    holds everything the value depends on. Each seat is asked twice, so hits are checked too."""
    memo = er.make_reefs_evaluation()
    fresh = er.make_reefs_evaluation(memo=False)
    rng = random.Random(players)
    checked = 0
    for level in (1, 2, 3):
        state = meeple.new_game("reefs", players=players, seed=10 * level + players, level=level)
        while state.to_move is not None:
            if state.to_move == CHANCE:
                state.sample_chance()
                continue
            state.play(rng.choice(state.legal_moves()))
            for seat in range(players):
                assert memo(state, seat) == fresh(state, seat) == memo(state, seat)
                checked += 1
    assert checked > 300
