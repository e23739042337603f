"""Takenokolor notation for players: bare item ids and markers, as in the other games, each step
parsing alone (``take B`` then ``b7.1``), canonical texts unchanged, refusals that change
nothing and say why."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.games.takenokolor.moves import COLOUR, FREE, TAKE
from tests.games.takenokolor.helpers import new, paint, roll, texts

SHEETS = ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"]


def _rolled() -> meeple.State:  # type: ignore[type-arg]
    s = new("2-pandas", 2)
    s.seats = ["you", "Ann"]
    roll(s, "circle square triangle square")  # B circle: b7.1 and c1 match
    return s


def test_bare_item_id_colours_it_after_a_take() -> None:
    s = _rolled()
    s.play("take B")
    m = s.parse_move("b7.1")
    assert m.kind == COLOUR and str(m) == "colour b7.1"
    s.play("b7.1")
    assert s.history[-1].text == "colour b7.1"  # the record keeps the canonical text


def test_each_step_of_a_line_parses_alone() -> None:
    s = _rolled()
    for step in ("take blue", "B7.1"):
        s.play(step)
    assert [m.text for m in s.history[-2:]] == ["take B", "colour b7.1"]


def test_bare_item_id_before_taking_is_refused_with_the_marker_to_take_and_changes_nothing() -> None:
    s = _rolled()
    key, hist = s.key(), len(s.history)
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("b7.1")
    assert "take a marker" in exc.value.reason and "take B" in exc.value.reason
    assert s.key() == key and len(s.history) == hist


def test_bare_item_id_that_does_not_match_the_marker_is_refused_with_reason() -> None:
    s = _rolled()
    s.play("take B")
    key = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("b8.1")  # B triangle, the marker shows a circle
    assert "colour AND symbol must match" in exc.value.reason
    assert s.key() == key


def test_bare_item_id_means_free_while_a_free_colouring_is_pending() -> None:
    s = new("2-pandas", 1)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    s.play("G")  # a bare marker takes it
    s.play("c4")  # completes the cloud: two free sections of one bamboo
    assert s.phase == FREE
    m = s.parse_move("b1.1")
    assert m.kind == FREE and str(m) == "free b1.1"
    s.play("b1.1")
    assert s.history[-1].text == "free b1.1"


def test_bare_marker_letters_and_names_take_and_unknown_markers_are_refused() -> None:
    s = _rolled()
    for word in ("P", "p", "pink", "Pink", "take pink", "take p"):
        m = s.parse_move(word)
        assert m.kind == TAKE and str(m) == "take P"
    with pytest.raises(meeple.IllegalMove) as exc:
        s.parse_move("take red")
    assert "no 'red' marker" in exc.value.reason and "P (pink)" in exc.value.reason
    with pytest.raises(meeple.IllegalMove) as exc:
        s.parse_move("zz9")
    assert "neither a marker" in exc.value.reason and "'b1.1'" in exc.value.reason


def test_a_line_of_several_steps_is_not_read_as_one_move() -> None:
    s = _rolled()
    key = s.key()
    with pytest.raises(meeple.IllegalMove):
        s.play("take B b7.1")
    assert s.key() == key


def test_an_id_that_is_also_a_marker_letter_follows_the_pending_decision() -> None:
    from tests.games.takenokolor.helpers import it, mini

    sheet = mini([{"id": "x", "kind": "bamboo", "order": "sequence",
                   "items": [it("p", "P", "circle", 0, 1), it("g", "G", "circle", 0, 0)]}])
    s = new(sheet, 1)
    roll(s, "circle circle circle circle")
    assert str(s.parse_move("p")) == "take P"  # a marker is to be taken
    s.play("p")
    assert str(s.parse_move("p")) == "colour p"  # now an item is to be coloured
    s.play("p")
    assert s.history[-1].text == "colour p"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), sheet=st.sampled_from(SHEETS), players=st.integers(1, 4))
def test_every_legal_move_also_parses_from_its_bare_form(seed: int, sheet: str,
                                                          players: int) -> None:
    rng = random.Random(seed)
    s = new(sheet, players)
    for _ in range(120):
        if s.is_over:
            break
        moves = s.legal_moves()
        for m in moves:
            if m.kind in (COLOUR, FREE, TAKE):
                assert s.parse_move(m.text) == m  # canonical text unchanged
                assert s.parse_move(m.text.split()[1]) == m  # bare: 'b7.1', 'P'
        s.play(rng.choice(moves))
    assert all(t == str(s.parse_move(t)) for t in texts(s))
