"""The shared conformance suite: every registered game and variant is tested the same way.

For each game, variant and player count: random playouts to the end, replay equality, record
JSON round trip, determinism by seed, every legal move accepted, a sample of illegal moves
(unknown text, moves that were legal earlier, moves of the wrong kind) refused with a reason and
the state unchanged, and final scores equal to an independent recount written apart from the
engine's scoring code (``tests/conformance/recount_<game>.py``, or the game package's own
``recount`` module).

MEEPLE_PLAYOUTS sets the number of random playouts per (variant, player count).
"""

from __future__ import annotations

import importlib
import json
import os
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from tests.conformance.cases import every_case

PLAYOUTS = int(os.environ.get("MEEPLE_PLAYOUTS", "60"))


CASES = every_case()


def _recount(game: str) -> Any:
    """The game's independent recount: ``tests/conformance/recount_<game>.py``, else the
    ``recount`` module its own package ships (a game made by ``meeple new-game`` brings one, so
    the suite takes it with no file added here)."""
    try:
        return importlib.import_module(f"tests.conformance.recount_{game}").recount
    except ModuleNotFoundError as exc:
        if exc.name != f"tests.conformance.recount_{game}":
            raise
    return importlib.import_module(f"meeple.games.{game}.recount").recount


def random_playout(state: meeple.State[Any], rng: Rng, max_moves: int = 20000) -> meeple.State[Any]:
    n = 0
    while not state.is_over:
        if state.to_move == meeple.CHANCE:
            state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            assert moves, f"no legal move but the game is not over: {state!r}"
            state.play(rng.choice(moves), check=False)
        n += 1
        assert n < max_moves, "game did not end"
    return state


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_random_playouts_end_and_recount(game: str, variant: dict[str, Any], players: int) -> None:
    recount = _recount(game)
    for i in range(PLAYOUTS):
        s = meeple.new_game(game, players=players, seed=1000 + i, **variant)
        random_playout(s, Rng(i))
        scores = s.scores()
        assert len(scores) == players
        for sc in scores:
            assert sc.total == sum(sc.breakdown.values()), sc
        assert [sc.total for sc in scores] == recount(s), f"seed {1000 + i}"
        best = max(sc.total for sc in scores)
        assert s.winners() == [p for p, sc in enumerate(scores) if sc.total == best]


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_replay_and_json_round_trip(game: str, variant: dict[str, Any], players: int) -> None:
    for i in range(3):
        s = meeple.new_game(game, players=players, seed=77 + i, **variant)
        keys = [s.key()]
        rng = Rng(500 + i)
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
            else:
                s.play(rng.choice(s.legal_moves()))
            keys.append(s.key())
        rec = json.loads(json.dumps(s.record()))
        r = meeple.replay(rec)
        assert r.key() == s.key()
        assert [x.as_dict() for x in r.scores()] == rec["scores"]
        for upto in (0, len(keys) // 3, len(keys) - 1):
            assert meeple.replay(rec, upto=upto).key() == keys[upto]
        # every move text parses back to the same move
        for text in rec["moves"][:200]:
            assert str(r.parse_move(text)) == text


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_determinism_by_seed(game: str, variant: dict[str, Any], players: int) -> None:
    def run(seed: int) -> list[str]:
        s = meeple.new_game(game, players=players, seed=seed, **variant)
        rng = Rng(3)
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance()  # the game's own seeded stream
            else:
                s.play(rng.choice(s.legal_moves()))
        return [str(m) for m in s.history]

    assert run(11) == run(11)


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_legal_accepted_illegal_refused_unchanged(
    game: str, variant: dict[str, Any], players: int
) -> None:
    rng = Rng(99)
    s = meeple.new_game(game, players=players, seed=5, **variant)
    seen: set[str] = set()
    step = 0
    while not s.is_over:
        legal = s.legal_moves() if s.to_move != meeple.CHANCE else [m for m, _ in s.chance_outcomes()]
        assert legal
        legal_text = {str(m) for m in legal}
        assert len(legal_text) == len(legal), "two legal moves share a text"
        if step % 7 == 0:
            # every legal move is accepted (on a clone), by object and by text
            for m in legal[:40]:
                c = s.clone()
                c.play(m)
                c2 = s.clone()
                c2.play(str(m))
                assert c.key() == c2.key()
            # a sample of illegal moves is refused with a reason, state unchanged
            before = s.key()
            candidates = [t for t in seen if t not in legal_text][:25]
            candidates += ["", "zzz-not-a-move", "99999", "take", "roll"]
            for text in candidates:
                if text in legal_text:
                    continue
                with pytest.raises(meeple.IllegalMove) as exc:
                    s.play(text)
                assert exc.value.reason, f"no reason for refusing {text!r}"
                assert s.key() == before, f"refusing {text!r} changed the state"
        seen |= legal_text
        s.play(rng.choice(legal))
        step += 1
    with pytest.raises(meeple.IllegalMove):
        s.play("anything")


@pytest.mark.parametrize(("game", "variant", "players"), CASES[:: max(1, len(CASES) // 8)])
def test_clone_is_independent_and_undo_within_turn(
    game: str, variant: dict[str, Any], players: int
) -> None:
    rng = Rng(1)
    s = meeple.new_game(game, players=players, seed=21, **variant)
    undone = 0
    while not s.is_over and undone < 30:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
            assert not s.can_undo()
            continue
        before = s.key()
        c = s.clone()
        m = rng.choice(s.legal_moves())
        s.play(m)
        assert c.key() == before, "playing on the original changed its clone"
        if s.can_undo():
            s.undo()
            assert s.key() == before
            undone += 1
            s.play(m)
    assert undone > 0 or s.is_over


@pytest.mark.parametrize(("game", "variant", "players"), CASES[:: max(1, len(CASES) // 6)])
def test_whole_turns_are_complete_and_distinct(
    game: str, variant: dict[str, Any], players: int
) -> None:
    rng = Rng(8)
    s = meeple.new_game(game, players=players, seed=3, **variant)
    checked = 0
    while not s.is_over and checked < 6:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
            continue
        turns = s.whole_turns()
        assert turns, "a seat to move must have at least one whole turn"
        keys = [after.key() for _, after in turns]
        assert len(set(keys)) == len(keys)
        for moves, after in turns[:: max(1, len(turns) // 5)]:
            c = s.clone()
            for m in moves:
                c.play(m)
            assert c.key() == after.key()
        checked += 1
        moves, _ = turns[rng.randbelow(len(turns))]
        for m in moves:
            s.play(m)
