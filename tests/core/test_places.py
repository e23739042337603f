"""Places with forfeits (issue 58), the engine's one definition
(:func:`meeple.core.state.places_with_forfeits`): seats that played on by total, ties shared
(A4); every seat that forfeited below them, the first to forfeit last."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.core.state import places_by_total, places_with_forfeits


def test_the_repro_the_first_to_give_up_is_last_whatever_it_scored() -> None:
    # seat 1 conceded first (order 1), seat 0 left after (order 2); seat 1 scored 31 to 16
    assert places_with_forfeits([16, 31], [2, 1]) == [1, 2]
    # one forfeit at a table of three: below both, whose tie is shared
    assert places_with_forfeits([3, 7, 3], [None, 1, None]) == [1, 3, 1]
    # no forfeit: the places by total
    assert places_with_forfeits([3, 7, 3], [None] * 3) == places_by_total([3, 7, 3])
    # forfeits the store could not tell apart share a place
    assert places_with_forfeits([9, 1, 5], [1, 1, None]) == [2, 2, 1]


def test_lengths_must_agree() -> None:
    with pytest.raises(ValueError, match="2 totals but 3 forfeits"):
        places_with_forfeits([1, 2], [None, None, None])


@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 4), min_size=n, max_size=n),
    st.lists(st.one_of(st.none(), st.integers(1, 3)), min_size=n, max_size=n))))
def test_places_are_a_ranking_with_forfeits_below(case: tuple[list[int], list[int | None]]
                                                  ) -> None:
    totals, forfeits = case
    places = places_with_forfeits(totals, forfeits)
    for p in places:
        assert p == 1 + sum(1 for q in places if q < p)
    for i, j in itertools.permutations(range(len(totals)), 2):
        fi, fj = forfeits[i], forfeits[j]
        if fi is None and fj is None:
            assert (places[i] < places[j]) == (totals[i] > totals[j])
            assert (places[i] == places[j]) == (totals[i] == totals[j])
        elif fi is None:
            assert places[i] < places[j]
        elif fj is not None:
            assert (places[i] < places[j]) == (fi > fj)
