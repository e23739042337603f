"""Positions for the search experiments: decisions of greedy self-play games, and the time an
``mcts`` search (:class:`~experiments.research_mcts.ResearchMcts`, so the research options may
be given) takes at them. Moved from ``meeple.sim.positions`` (issue 36): only experiments use it."""

from __future__ import annotations

import time
from typing import Any

import meeple
from experiments.research_mcts import ResearchMcts
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
            state.play(bots[seat].choose(state.seen_by(seat), state.legal_moves()))
            decisions += 1
    return out


def time_searches(found: list[State[Any]], iterations: int,
                  **options: Any) -> tuple[float, int, list[Any]]:
    """Seconds, iterations and moves of a seeded ``mcts`` search with ``options`` and an
    ``iterations`` budget (no time cap) at each of ``found``, from the seat to move's view."""
    total, done, moves = 0.0, 0, []
    for p in found:
        seat = p.to_move
        assert seat is not None and seat >= 0
        bot = ResearchMcts(seed=1, iterations=iterations, **options)
        start = time.perf_counter()
        moves.append(bot.choose(p.seen_by(seat), p.legal_moves()))
        total += time.perf_counter() - start
        done += bot.last_iterations
    return total, done, moves
