"""The Pergola evaluation: score plus discounted credit for progress (games/pergola/evaluation.py)."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.bots import make_bot
from meeple.bots.evaluation import evaluation_for
from meeple.core.state import CHANCE
from meeple.games.pergola.evaluation import pergola_evaluation, turns_left
from meeple.games.pergola.rules import LARGE, SMALL, PergolaState


def _new(players: int = 2, seed: int = 1, **options: Any) -> PergolaState:
    st = meeple.new_game("pergola", players=players, seed=seed, **options)
    while st.to_move == CHANCE:
        st.sample_chance()
    assert isinstance(st, PergolaState)
    return st


def _play(st: Any, specs: list[str], seed: int) -> Any:
    bots = [make_bot(spec, seed=seed * 10 + s) for s, spec in enumerate(specs)]
    while st.to_move is not None:
        if st.to_move == CHANCE:
            st.sample_chance()
            continue
        seat = st.to_move
        st.play(bots[seat].choose(st.seen_by(seat), st.legal_moves()), check=False)
    return st


def _score(st: PergolaState, seat: int) -> int:
    return st.scores()[seat].total


def test_registered_for_pergola() -> None:
    assert evaluation_for("pergola") is pergola_evaluation


def test_equals_score_at_game_end() -> None:
    for seed in (3, 4):
        st = _play(_new(2, seed), ["random", "random"], seed)
        assert st.is_over
        for seat in (0, 1):
            assert turns_left(st, seat) == 0
            assert pergola_evaluation(st, seat) == _score(st, seat)


def test_turns_left_counts_the_seats_own_turns() -> None:
    st = _new(2)
    assert turns_left(st, 0) == turns_left(st, 1) == st.c.turns
    st.turn = 1  # seat 0 has played once
    assert turns_left(st, 0) == st.c.turns - 1
    assert turns_left(st, 1) == st.c.turns


def test_deterministic_and_does_not_change_the_state() -> None:
    st = _play(_new(2, 5), ["random", "random"], 5)
    st.turn = 10
    key = st.key()
    assert pergola_evaluation(st, 0) == pergola_evaluation(st, 0)
    assert st.key() == key


def test_progress_counts_before_the_end() -> None:
    st = _new(2)
    # an empty garden with the whole game ahead is worth its score plus some credit
    assert pergola_evaluation(st, 0) > _score(st, 0)


def test_partly_filled_lavender_flower_beats_an_empty_one() -> None:
    st = _new(2)
    g = st.garden_for_update(0)
    g.lav_leaves = 2
    g.flowers = [0]
    g.bees_fly = 0
    empty = pergola_evaluation(st, 0)
    g.flowers = [2]
    two = pergola_evaluation(st, 0)
    assert _score(st, 0) == 4  # the leaves only: a partly filled flower scores nothing yet
    assert two > empty
    g.flowers = [3]
    assert pergola_evaluation(st, 0) > two


def test_half_full_large_buttercup_beats_two_single_bees_on_separate_large_ones() -> None:
    st = _new(2)
    g = st.garden_for_update(0)
    g.cups[0], g.cups[1] = LARGE, LARGE
    g.cup_bees[0], g.cup_bees[1] = 1, 1
    spread = pergola_evaluation(st, 0)
    g.cup_bees[0], g.cup_bees[1] = 2, 0
    assert pergola_evaluation(st, 0) > spread


def test_taller_hollyhock_column_is_worth_more_at_the_same_score() -> None:
    st = _new(2)
    g = st.garden_for_update(0)
    g.holly = [1, 1, 1]  # one full row: 6 points
    low = pergola_evaluation(st, 0)
    g.holly = [4, 1, 1]  # the same row plus single flowers up to level 4: 6 + 3 points
    high = pergola_evaluation(st, 0)
    assert high - _score(st, 0) > low - 6


def test_unused_lantern_has_value_while_turns_are_left() -> None:
    st = _new(2)
    g = st.garden_for_update(0)
    before = pergola_evaluation(st, 0)
    g.lanterns[2] = 1
    assert pergola_evaluation(st, 0) > before


def test_unpaired_buttercup_earns_credit() -> None:
    st = _new(2)
    g = st.garden_for_update(0)
    base = pergola_evaluation(st, 0)
    g.cups[0] = SMALL
    assert pergola_evaluation(st, 0) > base


def test_solo_challenge_met_earns_the_bonus_and_progress_counts() -> None:
    st = _new(1, 2, challenge=7)
    g = st.garden_for_update(0)
    start = pergola_evaluation(st, 0)
    g.holly = [4, 0, 0]
    g.bfly[3] = 1  # one butterfly on level 4: progress
    one = pergola_evaluation(st, 0) - _score(st, 0)
    g.holly = [5, 0, 0]
    g.bfly[4] = 1  # two butterflies on level 4+: met
    two = pergola_evaluation(st, 0) - _score(st, 0)
    assert start < one + _score(st, 0)
    assert two > one
    # at the end of the game a met challenge still counts, progress alone does not
    st.turn = st.c.turns
    assert pergola_evaluation(st, 0) > _score(st, 0)
    g.bfly[4] = 0
    assert pergola_evaluation(st, 0) == _score(st, 0)


def test_greedy_with_it_beats_random() -> None:
    wins = 0
    for seed in range(4):
        specs = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        st = _play(_new(2, 100 + seed), specs, seed)
        greedy_seat = specs.index("greedy")
        if greedy_seat in st.winners():
            wins += 1
        assert _score(st, greedy_seat) > _score(st, 1 - greedy_seat)
    assert wins == 4


def test_points_ahead_level_seats_with_different_turns_left() -> None:
    """AHEAD (fitted by tools/fit_pergola_value.py): the points a seat still gains beyond its
    credit, by turns left. The same for every turn a seat can play now, so the ranking of
    whole turns (greedy's choice) is exactly the one without it; right after seat 0's first
    turn, seat 0 has one turn fewer left than seat 1, and the evaluations differ by about
    what that turn brought, not by a whole turn's worth."""
    import meeple.games.pergola.evaluation as ep
    from meeple.core.turns import expand_turns

    st = _new(players=2, seed=3)
    turns = expand_turns(st)
    with_ahead = [ep.pergola_evaluation(after, 0) for _m, after in turns]
    saved = ep.AHEAD
    try:
        ep.AHEAD = (0.0,) * len(saved)
        without = [ep.pergola_evaluation(after, 0) for _m, after in turns]
    finally:
        ep.AHEAD = saved
    order = sorted(range(len(turns)), key=lambda i: -with_ahead[i])
    assert order == sorted(range(len(turns)), key=lambda i: -without[i])
    assert all(abs(a - b - saved[13]) < 1e-9 for a, b in zip(with_ahead, without, strict=True))
    # after seat 0's best first turn: 14 turns left against 15, and the margin is a few points
    after = turns[order[0]][1]
    assert turns_left(after, 0) == 14 and turns_left(after, 1) == 15
    margin = ep.pergola_evaluation(after, 0) - ep.pergola_evaluation(after, 1)
    assert abs(margin) < abs(margin + saved[14] - saved[13])
    assert list(saved) == sorted(saved) and 5 < saved[0] < 10
