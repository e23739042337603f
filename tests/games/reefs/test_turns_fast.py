"""Reefs: greedy's decisions pinned across the work on whole-turn listings (issue 30; Reefs'
listing itself is the generic ``expand_turns``, unchanged so far)."""

from __future__ import annotations

import pytest

from tests.games.turns_golden import digest, greedy_game

#: Recorded on main (6fed82b): tests/games/turns_golden.py.
GOLDEN = {
    ("reefs", (("level", 1),), 2, 5): (108, "75683163c5e0d48b"),
    ("reefs", (("level", 2),), 2, 6): (109, "19908ee40b43a736"),
    ("reefs", (("level", 2),), 3, 9): (168, "e9a52a8cbd5b40c7"),
    ("reefs", (("level", 3),), 2, 7): (153, "aba2d7d6038828f4"),
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_greedy_decisions_unchanged(case):
    game, options, players, seed = case
    moves = greedy_game(game, dict(options), players, seed)
    assert (len(moves), digest(moves)) == GOLDEN[case]
