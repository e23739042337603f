"""experiments/positions.py: the greedy self-play positions the search experiments time."""

from __future__ import annotations

from experiments.positions import greedy_selfplay_positions, time_searches
from meeple.core.state import CHANCE


def test_positions_are_decisions_with_a_choice_and_repeat_exactly() -> None:
    found = greedy_selfplay_positions("reefs", 3, seeds=2, every=4, per_seed=3, min_choices=2,
                                      level=2)
    assert len(found) == 6  # three per seed: the games are long enough
    for state in found:
        assert not state.is_over and state.to_move not in (None, CHANCE)
        assert len(state.legal_moves()) >= 2
    again = greedy_selfplay_positions("reefs", 3, seeds=2, every=4, per_seed=3, min_choices=2,
                                      level=2)
    assert [s.key() for s in again] == [s.key() for s in found]
    assert len({s.key() for s in found}) == len(found)  # every fourth decision: all distinct


def test_time_searches_runs_a_seeded_search_at_each_position() -> None:
    """The benchmarks' timer: one seeded search per position, with the options given, whose
    iterations add up and whose moves are legal there and repeat exactly."""
    found = greedy_selfplay_positions("gardens", 2, seeds=1, every=3, per_seed=2, min_choices=2)
    seconds, done, moves = time_searches(found, 5, top=3)
    assert seconds > 0 and done == 5 * len(found) == 10
    assert all(m in p.legal_moves() for m, p in zip(moves, found, strict=True))
    assert time_searches(found, 5, top=3)[2] == moves
