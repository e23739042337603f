"""Pergola's turn ranker (games/pergola/ranker.py): the same turns, order and values as
greedy's full evaluation of ``whole_turns()``, and greedy's decisions unchanged."""

from __future__ import annotations

import pytest

import meeple
from meeple.bots.base import make_bot
from meeple.bots.evaluation import all_turns_ranked, ranked_turns, turn_ranker_for
from meeple.games.pergola.evaluation import pergola_evaluation
from meeple.games.pergola.ranker import TIE, TurnRanker, _fork, rank_turns, turn_values
from tests.games.turns_golden import decision_positions, digest, greedy_game

CASES = [({}, 2, 3, 3), ({}, 4, 4, 5), ({"challenge": 4}, 1, 5, 2), ({"challenge": 7}, 1, 6, 2)]


def _texts(scored):
    return [(v, tuple(map(str, m))) for v, m in scored]


@pytest.mark.parametrize(("options", "players", "seed", "every"), CASES)
def test_ranker_equals_full_evaluation(options, players, seed, every):
    """Over turn starts and positions in the middle of a turn: every whole turn, in the same
    order, with the value greedy's evaluation gives its end position."""
    positions = decision_positions("pergola", options, players, seed, every=every, limit=16)
    assert len(positions) >= 12
    for state in positions:
        seat = state.to_move
        listed = state.whole_turns()
        expected = [(pergola_evaluation(after, seat), tuple(map(str, moves)))
                    for moves, after in listed]
        got = _texts(turn_values(state, seat, pergola_evaluation))
        assert [m for _v, m in got] == [m for _v, m in expected]
        assert [v for v, _m in got] == pytest.approx([v for v, _m in expected], abs=1e-9)
        assert _texts(rank_turns(state, seat, None, pergola_evaluation)) == \
            _texts(all_turns_ranked(state, seat))


def test_limit_keeps_every_turn_tied_with_the_best():
    positions = decision_positions("pergola", {}, 2, 9, every=5, limit=16)
    saw_tie = False
    for state in positions:
        seat = state.to_move
        full = all_turns_ranked(state, seat)
        got = rank_turns(state, seat, 3, pergola_evaluation)
        tied = sum(1 for v, _m in full if v >= full[0][0] - TIE)
        assert len(got) == min(len(full), max(3, tied))
        assert _texts(got) == _texts(full[: len(got)])
        saw_tie |= tied > 3
    assert saw_tie, "no position with more than 3 tied best turns: the test shows nothing"


def test_registered_for_greedy_and_mcts():
    state = decision_positions("pergola", {}, 2, 1, limit=1)[0]
    assert turn_ranker_for("pergola") is not None
    assert _texts(ranked_turns(state, 0, 5)) == _texts(all_turns_ranked(state, 0)[:5])


def test_not_the_seat_to_move_and_game_over():
    state = meeple.new_game("pergola", players=2, seed=1)
    for _ in range(50):
        if state.to_move != meeple.CHANCE:
            break
        state.sample_chance()
    seat = state.to_move
    assert seat in (0, 1)
    assert turn_values(state, 1 - seat, pergola_evaluation) == []
    assert rank_turns(state, 1 - seat, 4, pergola_evaluation) == []
    with pytest.raises(ValueError, match="limit must be None"):
        rank_turns(state, seat, -1, pergola_evaluation)


#: Recorded on main before the ranker (6fed82b): tests/games/turns_golden.py.
GOLDEN = {
    ("pergola", (), 2, 5): (186, "fd481473e7098971"),
    ("pergola", (), 1, 6): (121, "2c8722bcc967617f"),
    ("pergola", (("challenge", 4),), 1, 8): (115, "8c3b00688265deac"),
    ("pergola", (), 3, 7): (279, "e1e99b9dcefd91b3"),
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_greedy_decisions_unchanged(case):
    game, options, players, seed = case
    moves = greedy_game(game, dict(options), players, seed)
    assert (len(moves), digest(moves)) == GOLDEN[case]


def test_mcts_defaults_unchanged():
    """Pergola's mcts defaults ask for a beam, which wins over the ranker: the same turns
    planned as before the ranker (recorded on main, 6fed82b)."""
    out = []
    for i, state in enumerate(decision_positions("pergola", {}, 2, 21, every=9, limit=4)):
        bot = make_bot("mcts:iterations=12", seed=i)
        out.append(str(bot.choose(state, state.legal_moves())))
        out.extend(str(m) for m in bot.plan.moves)
    assert (len(out), digest(out)) == (14, "6ab50bd9e9d81b1d")


def test_fork_knows_every_attribute():
    """``_fork`` shares what it does not copy: a new attribute of the state must be looked at
    there (is it changed during a turn?) before this list is updated."""
    state = meeple.new_game("pergola", players=2, seed=1)
    assert sorted(vars(state)) == sorted(
        ["_chance_count", "_history", "_legal", "_movers", "_own", "_restart", "board", "c",
         "challenge", "chance", "current_tool", "discards", "gardens", "holder", "pile_left",
         "players", "pool", "seats", "seed", "solo", "stacks", "supply", "tasks", "tops", "turn"])
    fork = _fork(state)
    for name in ("supply", "board", "tops", "pile_left", "stacks", "gardens", "discards",
                 "tasks", "chance"):
        assert getattr(fork, name) == getattr(state, name)
        assert getattr(fork, name) is not getattr(state, name)
    assert all(a is not b for a, b in zip(fork.stacks, state.stacks, strict=True))


def test_mcts_lists_turns_its_own_way_under_a_beam_or_a_clock():
    """The ranker walks every turn and watches no clock: mcts uses it only where it asks for
    neither a beam nor a deadline."""
    import time

    from meeple.bots import mcts
    from meeple.core.turns import OutOfTime, beam_turns

    state = decision_positions("pergola", {}, 2, 2, limit=1)[0]
    seat = state.to_move
    assert TurnRanker.exhaustive
    plain = mcts.candidate_turns(state, seat, 3, 5000, pergola_evaluation)
    assert _texts(plain) == _texts(rank_turns(state, seat, 3, pergola_evaluation))
    beamed = mcts.candidate_turns(state, seat, 3, 5000, pergola_evaluation, beam=2)
    found = beam_turns(state, lambda after: pergola_evaluation(after, seat), 2)
    assert _texts(beamed) == _texts(found[:3])
    with pytest.raises(OutOfTime):
        mcts.candidate_turns(state, seat, 3, 5000, pergola_evaluation,
                             deadline=time.perf_counter() - 1.0)
