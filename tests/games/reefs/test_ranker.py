"""Reefs' turn ranker (games/reefs/ranker.py): the same turns, order, end positions and values
as greedy's full evaluation of ``whole_turns()`` on every level and seat count, greedy's
decisions unchanged, and ``mcts`` keeping to its whole-turn cap with it."""

from __future__ import annotations

import time

import pytest

import meeple
from meeple.bots import mcts
from meeple.bots.evaluation import (
    TURN_RANKERS,
    all_turns_ranked,
    ranked_turns,
    register_turn_ranker,
    turn_ranker_for,
)
from meeple.bots.greedy import GreedyBot
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.core.turns import OutOfTime
from meeple.games.reefs.evaluation import reefs_evaluation
from meeple.games.reefs.ranker import TIE, TurnRanker, _fork, rank_turns, turn_values
from meeple.games.reefs.rules import P_DRAW
from tests.games.reefs.test_turns_fast import GOLDEN as PINNED
from tests.games.turns_golden import decision_positions, digest, greedy_game

#: (level, seats, seed, every): random games sampled at every ``every``-th seat decision
#: (turn starts and decisions in the middle of a turn), over the whole game.
CASES = [(level, seats, 30 + 3 * level + seats, every)
         for level in (1, 2, 3) for seats, every in ((1, 3), (2, 5), (4, 9))]


@pytest.fixture
def ranker():
    """Reefs' ranker as the game's turn ranker (the game registers it; registered here if a
    run took it out)."""
    registered = turn_ranker_for("reefs")
    if registered is not None:
        yield registered
        return
    register_turn_ranker("reefs", TurnRanker(reefs_evaluation))
    try:
        yield turn_ranker_for("reefs")
    finally:
        del TURN_RANKERS["reefs"]


def _texts(scored):
    return [(v, tuple(map(str, m))) for v, m in scored]


def _end(after):
    return (after.key(), [s.total for s in after.scores()], after.to_move, after.turn,
            after.is_over)


@pytest.mark.parametrize(("level", "seats", "seed", "every"), CASES)
def test_ranker_equals_full_evaluation(level, seats, seed, every):
    """At turn starts and in the middle of turns: every whole turn in the listing's order,
    reaching an equal end position (key, scores, who moves next, turn counter), with the very
    value greedy's evaluation gives the listing's end position; ranked as greedy ranks."""
    positions = decision_positions("reefs", {"level": level}, seats, seed, every=every,
                                   limit=40)
    assert len(positions) >= 8
    mid_turn = 0
    for state in positions:
        seat = state.to_move
        mid_turn += state.phase == P_DRAW
        listed = state.whole_turns()
        expected = [(reefs_evaluation(after, seat), tuple(map(str, moves)), _end(after))
                    for moves, after in listed]
        ends = []

        def evaluate(after, s, ends=ends):
            ends.append(_end(after))
            return reefs_evaluation(after, s)

        got = turn_values(state, seat, evaluate)
        assert got is not None
        assert [m for _v, m in _texts(got)] == [m for _v, m, _e in expected]
        assert ends == [e for _v, _m, e in expected]
        assert [v for v, _m in got] == [v for v, _m, _e in expected]
        assert _texts(rank_turns(state, seat, None, reefs_evaluation)) == \
            _texts(all_turns_ranked(state, seat))
    assert mid_turn, "no position in the middle of a turn: the test shows less than it says"


def test_turn_ends_at_chance_and_game_end_compared():
    """The walk's turn ends where the listing's do, a roll of the pencils due next or the game
    over included (sought over random level 2 games, compared end position by end position)."""
    saw = {"chance": False, "over": False}
    for seed in range(40):
        if all(saw.values()):
            break
        state = meeple.new_game("reefs", players=2, seed=seed, level=2)
        rng = Rng(seed)
        while not state.is_over:
            if state.to_move == CHANCE:
                state.sample_chance(rng)
                continue
            seat = state.to_move
            listed = state.whole_turns()
            kinds = {"chance": any(a.to_move == CHANCE for _m, a in listed),
                     "over": any(a.is_over for _m, a in listed)}
            if any(kinds[k] and not saw[k] for k in kinds):
                ends = []
                got = turn_values(state, seat,
                                  lambda after, s, ends=ends: ends.append(_end(after)) or 0.0)
                assert got is not None
                assert [tuple(map(str, m)) for _v, m in got] == \
                    [tuple(map(str, m)) for m, _a in listed]
                assert ends == [_end(a) for _m, a in listed]
                for k in kinds:
                    saw[k] |= kinds[k]
            state.play(rng.choice(state.legal_moves()), check=False)
    assert all(saw.values()), f"turn ends not met in 40 games: {saw}"


def test_limit_keeps_every_turn_tied_with_the_best():
    saw_tie = False
    for seats in (1, 2):
        for state in decision_positions("reefs", {"level": 2}, seats, 42, every=3, limit=40):
            seat = state.to_move
            full = all_turns_ranked(state, seat)
            got = rank_turns(state, seat, 2, reefs_evaluation)
            tied = sum(1 for v, _m in full if v >= full[0][0] - TIE)
            assert len(got) == min(len(full), max(2, tied))
            assert _texts(got) == _texts(full[: len(got)])
            saw_tie |= tied > 2
    assert saw_tie, "no position with more than 2 tied best turns: the test shows nothing"


def test_not_the_seat_to_move_chance_and_game_over():
    state = meeple.new_game("reefs", players=2, seed=3, level=2)
    assert state.to_move == CHANCE
    assert turn_values(state, 0, reefs_evaluation) == []
    assert rank_turns(state, CHANCE, None, reefs_evaluation) == []
    rng = Rng(3)
    while state.to_move == CHANCE:
        state.sample_chance(rng)
    seat = state.to_move
    assert seat in (0, 1)
    assert rank_turns(state, seat, None, reefs_evaluation)
    assert turn_values(state, 1 - seat, reefs_evaluation) == []
    assert rank_turns(state, 1 - seat, 4, reefs_evaluation) == []
    with pytest.raises(ValueError, match="limit must be None"):
        rank_turns(state, seat, -1, reefs_evaluation)
    while not state.is_over:
        if state.to_move == CHANCE:
            state.sample_chance(rng)
        else:
            state.play(rng.choice(state.legal_moves()), check=False)
    for s in (0, 1):
        assert turn_values(state, s, reefs_evaluation) == []
        assert TurnRanker(reefs_evaluation)(state, s, 3) == []


def test_greedy_decides_as_without_it(ranker):
    """Greedy with the ranker (the default where the game has one) and with ``exact=1``
    (every turn listed by ``whole_turns()`` and evaluated) choose the same turn at every
    sampled position of every level and seat count."""
    assert isinstance(ranker, TurnRanker)
    compared = 0
    for level, seats, seed, every in CASES:
        for i, state in enumerate(decision_positions("reefs", {"level": level}, seats, seed,
                                                     every=2 * every, limit=12)):
            legal = state.legal_moves()
            fast, full = GreedyBot(seed=i), GreedyBot(seed=i, exact=1)
            assert fast.choose(state, legal) == full.choose(state, legal)
            assert fast.plan.moves == full.plan.moves
            compared += 1
    assert compared >= 60
    state = decision_positions("reefs", {"level": 2}, 2, 1, limit=1)[0]
    got = ranked_turns(state, state.to_move, 5)  # what greedy asks the ranker (5 and ties)
    assert len(got) >= 5
    assert _texts(got) == _texts(all_turns_ranked(state, state.to_move)[: len(got)])


@pytest.mark.parametrize("case", list(PINNED))
def test_pinned_greedy_games_with_the_ranker(ranker, case):
    """The greedy games tests/games/reefs/test_turns_fast.py pins (recorded before the
    ranker), played with the ranker in use: move for move the same."""
    game, options, players, seed = case
    moves = greedy_game(game, dict(options), players, seed)
    assert (len(moves), digest(moves)) == PINNED[case]


def test_mcts_candidates_as_without_the_ranker(ranker):
    """``mcts`` ranks whole turns with the ranker only where there are at most ``max_turns``
    of them, and searches one decision at a time where there are more, as the listing does;
    with a clock it lists turns its own way (the ranker watches none)."""
    assert turn_ranker_for("reefs") is ranker
    checked = {"whole": 0, "single": 0}
    for level in (2, 3):
        for state in decision_positions("reefs", {"level": level}, 2, 50 + level, every=3,
                                        limit=14):
            seat = state.to_move
            n = len(state.whole_turns())
            for max_turns in (0, 8, 300):
                for diverse in (False, True):
                    args = (state, seat, 3, max_turns, reefs_evaluation)
                    got = mcts.candidate_turns(*args, diverse=diverse)
                    want = mcts.candidate_turns(*args, use_ranker=False, diverse=diverse)
                    assert _texts(got) == _texts(want)
                checked["whole" if 0 < n <= max_turns else "single"] += 1
    assert min(checked.values()) > 5, checked
    with pytest.raises(OutOfTime):
        mcts.candidate_turns(state, seat, 3, 5000, reefs_evaluation,
                             deadline=time.perf_counter() - 1.0)


def test_fork_knows_every_attribute():
    """``_fork`` shares what it does not copy: a new attribute of the state must be looked at
    there (is it changed during a turn?) before this list is updated."""
    state = meeple.new_game("reefs", players=2, seed=1, level=3)
    assert sorted(vars(state)) == sorted(
        ["_chance_count", "_history", "_movers", "_own", "_restart", "board", "end_coins", "end_grey",
         "ender", "full_row_holder", "level", "middle", "moves", "over", "pc", "pdir",
         "pdrawn", "phase", "players", "pmode", "prem", "rolled", "roller", "rounds", "seat",
         "seats", "sheets", "seed", "turn", "two_each_holder"])
    rng = Rng(1)
    while state.to_move == CHANCE:
        state.sample_chance(rng)
    fork = _fork(state)
    assert fork.key() == state.key()
    assert fork.sheets == state.sheets and fork.sheets is not state.sheets
    assert fork.middle == state.middle and fork.middle is not state.middle
    before = state.key()
    fork._apply(state.legal_moves()[0])
    assert state.key() == before  # the fork's move left the position it came from alone
