"""The flat observation vector against a plain reference built from the layout alone, at every
decision of a seeded game for every seat, over every game, variant and seat count: both ways
:class:`meeple.rl.Encoding` builds it (one int64 array where every bit-set row fits 63 bits,
one big int otherwise) and the match's cached masks (issue 54's speed work changes nothing)."""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np
import pytest

from meeple.rl import raw_env
from tests.rl.cases import every_case


def reference(layout: Any, ints: list[int]) -> np.ndarray:
    """Every bits block's rows unpacked (bit j of row i is element (i, j)), then every other
    block's values, each group in layout order."""
    bits: list[int] = []
    values: list[int] = []
    at = 0
    for block in layout:
        part = ints[at:at + block.words]
        at += block.words
        if block.bits:
            width = block.shape[1]
            for row in part:
                bits += [(row >> j) & 1 for j in range(width)]
        else:
            values += part
    return np.array(bits + values, np.int16)


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_the_vector_is_the_layout_unpacked_and_the_mask_the_legal_moves(
        game: str, variant: dict[str, Any], players: int) -> None:
    e = raw_env(game, players, **variant)
    enc = e.encoding
    rng = np.random.default_rng(players)
    e.reset(seed=21)
    steps = 0
    while e.agents and not e.match.over:
        state = e.game_state
        for seat in range(players):
            ints = list(enc.record.observe(state.seen_by(seat), seat))
            want = reference(enc.layout, ints)
            got = e.observe(e.possible_agents[seat])
            assert np.array_equal(got["observation"], want)
            assert got["observation"].dtype == np.int16
        mask = e.observe(e.agent_selection)["action_mask"]
        want_mask = np.zeros(len(enc.actions), np.int8)
        want_mask[[enc.index[str(m)] for m in state.legal_moves()]] = 1
        assert np.array_equal(mask, want_mask)
        mask[:] = 0  # the caller's copy: the env's next mask is not changed by it
        assert np.array_equal(e.observe(e.agent_selection)["action_mask"], want_mask)
        e.step(int(rng.choice(e.legal_actions())))
        steps += 1
    assert steps > 0


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_int64_arrays_read_in_place_give_the_vector_of_plain_ints(
        game: str, variant: dict[str, Any], players: int) -> None:
    """A game may hand its ints over as an ``array("q")`` (Pergola does): read in place, it gives
    the vector the same ints as a list give."""
    e = raw_env(game, players, **variant)
    enc = e.encoding
    rng = np.random.default_rng(players)
    e.reset(seed=5)
    for _ in range(12):
        if not e.agents or e.match.over:
            break
        for seat in range(players):
            ints = list(enc.record.observe(e.game_state.seen_by(seat), seat))
            want = reference(enc.layout, ints)
            if all(-(1 << 63) <= v < 1 << 63 for v in ints):
                assert np.array_equal(enc.encode(array("q", ints)), want)
            assert np.array_equal(enc.encode(ints), want)
        e.step(int(rng.choice(e.legal_actions())))


def test_a_public_game_observes_the_state_itself_and_refuses_a_seat_it_lacks() -> None:
    e = raw_env("pergola", 2)
    e.reset(seed=3)
    enc = e.encoding
    assert enc.record.public
    state = e.game_state
    for seat in range(2):
        assert np.array_equal(enc.observe(state, seat),
                              enc.encode(enc.record.observe(state.seen_by(seat), seat)))
    for seat in (2, -1):
        with pytest.raises(ValueError, match=r"seats are 0\.\.1"):
            enc.observe(state, seat)
