"""The worker's kept positions (botpool): a table's next decision plays only the moves made
since, and gives the same move as a position replayed from scratch."""

from __future__ import annotations

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.server.table import botpool
from meeple.server.table.botpool import Decision, decide


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
            botpool._BOTS.clear()  # the kept bot is tested below: here the kept position
            assert decide(kept) == decide(fresh), (game, k)
            assert botpool._POSITIONS[f"t-{game}"][0] == tuple(moves[:k])
        # an undo (a shorter log than the kept one) replays from the start, not from the kept
        for k in (40, 20):
            d = _decision(game, moves[:k], f"t-{game}")
            if d is not None:
                botpool._BOTS.clear()
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


def test_a_kept_bot_plays_its_turn_as_one_bot_object_would() -> None:
    """A worker keeps a table seat's bot: its decisions are those of one bot object playing
    the seat (as in ``meeple play``), so a searching bot plays its planned turn instead of
    searching again at every decision of it."""
    from meeple.bots import make_bot

    spec = "mcts:iterations=30"
    botpool._POSITIONS.clear()
    botpool._BOTS.clear()
    state = meeple.new_game("gardens", players=2, seed=9)
    rng = Rng(9)
    reference = None
    made = 0
    for _ in range(400):
        if state.is_over or made >= 12:
            break
        if state.to_move == CHANCE:
            state.sample_chance()
            continue
        if state.to_move == 1:
            state.play(rng.choice(state.legal_moves()))
            continue
        moves = tuple(str(m) for m in state.history)
        d = Decision("gardens", 2, {}, None, 9, moves, 0, spec, 1000 + made, "kept")
        if reference is None:
            reference = make_bot(spec, seed=d.bot_seed)
        view = state.seen_by(0)
        view.seed = d.bot_seed
        expected = str(reference.choose(view, view.legal_moves()))
        assert decide(d) == expected, made
        state.play(expected)
        made += 1
    assert made >= 6 and len(botpool._BOTS) == 1
