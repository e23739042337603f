"""The worker's kept positions (botpool): a table's next decision plays only the moves made
since, and gives the same move as a position replayed from scratch."""

from __future__ import annotations

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.server import botpool
from meeple.server.botpool import Decision, decide


def _moves(game: str, seed: int, count: int) -> list[str]:
    state = meeple.new_game(game, players=2, seed=seed)
    rng = Rng(seed)
    out: list[str] = []
    while len(out) < count and not state.is_over:
        if state.to_move == CHANCE:
            state.sample_chance()
        else:
            state.play(rng.choice(state.legal_moves()))
        out.append(str(state.history[-1]))
    return out


def _decision(game: str, moves: list[str], table: str) -> Decision | None:
    state = meeple.new_game(game, players=2, seed=5)
    for m in moves:
        state.play(m)
    if state.to_move in (None, CHANCE):
        return None
    return Decision(game, 2, {}, None, 5, tuple(moves), state.to_move, "greedy", 11, table)


def test_kept_positions_give_the_moves_a_fresh_replay_gives() -> None:
    for game in ("reefs", "gardens", "pergola", "takenokolor"):
        moves = _moves(game, 5, 60)
        botpool._POSITIONS.clear()
        for k in range(0, len(moves), 7):
            kept = _decision(game, moves[:k], f"t-{game}")
            fresh = _decision(game, moves[:k], "")
            if kept is None or fresh is None:
                continue
            assert decide(kept) == decide(fresh), (game, k)
            assert botpool._POSITIONS[f"t-{game}"][0] == tuple(moves[:k])
        # an undo (a shorter log than the kept one) replays from the start, not from the kept
        for k in (40, 20):
            d = _decision(game, moves[:k], f"t-{game}")
            if d is not None:
                assert decide(d) == decide(_decision(game, moves[:k], ""))  # type: ignore[arg-type]
                assert botpool._POSITIONS[f"t-{game}"][0] == tuple(moves[:k])


def test_the_kept_positions_are_bounded() -> None:
    botpool._POSITIONS.clear()
    moves = _moves("reefs", 5, 10)
    k = next(k for k in range(len(moves)) if _decision("reefs", moves[:k], "") is not None)
    for i in range(botpool._KEEP + 20):
        d = _decision("reefs", moves[:k], f"t{i}")
        assert d is not None
        decide(d)
    assert len(botpool._POSITIONS) == botpool._KEEP
    assert "t0" not in botpool._POSITIONS and f"t{botpool._KEEP + 19}" in botpool._POSITIONS
