"""Positions for the search benchmarks and tools: decisions of greedy self-play games."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.bots.greedy import GreedyBot
from meeple.core.state import CHANCE, State


def greedy_selfplay_positions(game: str, players: int, seeds: int, every: int, per_seed: int,
                              min_choices: int = 1, **variant: Any) -> list[State[Any]]:
    """Every ``every``-th decision of greedy self-play games on seeds ``0..seeds-1`` with at
    least ``min_choices`` legal moves, until ``per_seed`` times the seeds played so far are
    kept (a game that ends early leaves its share to the next seed)."""
    out: list[State[Any]] = []
    for seed in range(seeds):
        state = meeple.new_game(game, players=players, seed=seed, **variant)
        bots = [GreedyBot(seed=i) for i in range(players)]
        decisions = 0
        while not state.is_over and len(out) < per_seed * (seed + 1):
            if state.to_move == CHANCE:
                state.sample_chance()
                continue
            seat = state.to_move
            assert seat is not None
            if decisions % every == 0 and len(state.legal_moves()) >= min_choices:
                out.append(state.clone())
            state.play(bots[seat].choose(state.view(seat), state.legal_moves()))
            decisions += 1
    return out
