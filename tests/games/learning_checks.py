"""Checks every game's ``LEARNING`` record (:class:`meeple.core.layers.Learning`) must pass, over
random playouts: each game's ``test_learning.py`` calls them for its variants and seat counts.

- the action list is fixed, has no duplicates and holds every seat decision the engine offers
  (each legal move's text is in it, and reads back as that move);
- the observation has the layout's size at every step, its values lie in the blocks' bounds,
  and the layout never changes during a game;
- the observation reads nothing hidden: a state and a determinisation of what a seat cannot
  see (``sample_hidden``) observe the same for that seat.
"""

from __future__ import annotations

from typing import Any

import meeple
from meeple.core.layers import Block, Learning
from meeple.core.registry import game_part
from meeple.core.rng import Rng
from meeple.core.state import CHANCE


def learning(game: str) -> Learning[Any]:
    return game_part(game, "LEARNING", Learning)


def split_blocks(layout: tuple[Block, ...], values: Any) -> dict[str, list[int]]:
    """The ints of an observation by block name (a bits block: its rows)."""
    values = list(values)
    out: dict[str, list[int]] = {}
    at = 0
    for b in layout:
        out[b.name] = values[at: at + b.words]
        at += b.words
    assert at == len(values)
    return out


def check_values(layout: tuple[Block, ...], values: Any) -> None:
    values = list(values)
    assert len(values) == sum(b.words for b in layout), (len(values), sum(b.words for b in layout))
    at = 0
    for block in layout:
        part = values[at: at + block.words]
        at += block.words
        if block.bits:
            width = block.shape[1]
            for row in part:
                assert isinstance(row, int) and 0 <= row < 1 << width, (block.name, row, width)
        else:
            for v in part:
                assert isinstance(v, int), (block.name, v)
                assert block.low <= v <= block.high, (block.name, v, block.low, block.high)
            assert -(1 << 15) <= block.low <= block.high < 1 << 15, block.name


def check_playouts(game: str, variant: dict[str, Any], players: int, seeds: range,
                   *, hidden_every: int = 7) -> int:
    """Random playouts with every check above at every decision; returns the decisions seen."""
    rec = learning(game)
    seen = 0
    for seed in seeds:
        state = meeple.new_game(game, players=players, seed=seed, **variant)
        actions = rec.actions(state)
        assert len(actions) == len(set(actions)), "duplicate action texts"
        index = {t: i for i, t in enumerate(actions)}
        layout = rec.layout(state)
        assert all(b.size > 0 for b in layout)
        rng = Rng(seed + 1000)
        step = 0
        while state.to_move is not None:
            if state.to_move == CHANCE:
                state.sample_chance()
                continue
            assert rec.actions(state) == actions, "the action list changed during the game"
            assert rec.layout(state) == layout, "the layout changed during the game"
            legal = state.legal_moves()
            assert legal
            for m in legal:
                text = str(m)
                assert text in index, f"legal move {text!r} is not in the action list"
                assert str(state.parse_move(text)) == text
            for s in range(players):
                check_values(layout, rec.observe(state.seen_by(s), s))
                if rec.public:  # the state itself is observed: it must read as the view
                    assert list(rec.observe(state, s)) == list(rec.observe(state.seen_by(s), s))
            if step % hidden_every == 0:
                for s in range(players):
                    mine = list(rec.observe(state.seen_by(s), s))
                    for k in range(2):
                        other = state.sample_hidden(s, Rng(seed * 31 + step * 7 + k))
                        assert list(rec.observe(other, s)) == mine, "the observation reads hidden parts"
                        assert list(rec.observe(other.seen_by(s), s)) == mine
            state.play(rng.choice(legal), check=False)
            seen += 1
            step += 1
        for s in range(players):
            check_values(layout, rec.observe(state.seen_by(s), s))
    return seen
