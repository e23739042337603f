"""Shared by tests/games/*/test_turns_fast.py: greedy games as digests (to pin greedy's
decisions across changes to the whole-turn code) and seeded positions to compare listings on.

The digests in those tests were recorded on the code before the faster listings and the
Pergola turn ranker (main at 6fed82b), with ``python tests/games/turns_golden.py``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import meeple
from meeple.bots.greedy import GreedyBot
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State

#: (game, variant options, seats, seed) of the pinned greedy games.
GOLDEN_GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("gardens", {"level": 1}, 2, 5),
    ("gardens", {"level": 2}, 3, 6),
    ("gardens", {"level": 3}, 2, 7),
    ("gardens", {"level": 1}, 1, 8),
    ("reefs", {"level": 1}, 2, 5),
    ("reefs", {"level": 2}, 2, 6),
    ("reefs", {"level": 2}, 3, 9),
    ("reefs", {"level": 3}, 2, 7),
    ("pergola", {}, 2, 5),
    ("pergola", {}, 1, 6),
    ("pergola", {"challenge": 4}, 1, 8),
    ("pergola", {}, 3, 7),
)


def greedy_game(game: str, options: dict[str, Any], players: int, seed: int) -> list[str]:
    """The moves (texts, chance included) of a game ``greedy`` plays at every seat; bot ``s``
    seeded ``seed + s``, chance drawn from ``Rng(seed)``."""
    state = meeple.new_game(game, players=players, seed=seed, **options)
    bots = [GreedyBot(seed=seed + s) for s in range(players)]
    rng = Rng(seed)
    for _ in range(20_000):
        if state.is_over:
            break
        seat = state.to_move
        if seat == CHANCE:
            state.sample_chance(rng)
            continue
        assert seat is not None
        view = state.seen_by(seat)
        state.play(bots[seat].choose(view, view.legal_moves()), check=False)
    assert state.is_over, "the greedy game did not end in 20,000 moves"
    return [str(m) for m in state.history]


def digest(moves: list[str]) -> str:
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]


def decision_positions(game: str, options: dict[str, Any], players: int, seed: int,
                       every: int = 1, limit: int = 400) -> list[State[Any]]:
    """Positions of one seeded game of random single decisions: every ``every``-th seat
    decision (turn starts and positions in the middle of a turn alike), at most ``limit``."""
    rng = Rng(seed)
    state = meeple.new_game(game, players=players, seed=seed, **options)
    out: list[State[Any]] = []
    n = 0
    for _ in range(20_000):
        if state.is_over or len(out) >= limit:
            break
        if state.to_move == CHANCE:
            state.sample_chance(rng)
            continue
        if n % every == 0:
            out.append(state.clone())
        n += 1
        state.play(rng.choice(state.legal_moves()), check=False)
    return out


def same_turns(a: list[tuple[tuple[Any, ...], State[Any]]],
               b: list[tuple[tuple[Any, ...], State[Any]]]) -> bool:
    """Equal whole-turn lists: the same moves in the same order, reaching equal positions
    (keys, move logs and scores)."""
    if len(a) != len(b):
        return False
    for (ma, sa), (mb, sb) in zip(a, b, strict=True):
        if tuple(map(str, ma)) != tuple(map(str, mb)) or sa.key() != sb.key():
            return False
        if sa.history != sb.history or sa.to_move != sb.to_move or sa.turn != sb.turn:
            return False
        if [s.total for s in sa.scores()] != [s.total for s in sb.scores()]:
            return False
    return True


if __name__ == "__main__":  # print the digests to pin
    for g, o, p, s in GOLDEN_GAMES:
        moves = greedy_game(g, o, p, s)
        print(f"    ({g!r}, {o!r}, {p}, {s}): ({len(moves)}, {digest(moves)!r}),", flush=True)
