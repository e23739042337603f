"""The turn in progress (meeple.core.turn.Turn) on every game, variant and player count:
stepping and undoing give back the positions before, sync equals a fresh replay, forced steps
are marked, a refused step changes nothing, and a click costs one engine step."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.errors import IllegalMove
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.turn import StepRefused, Turn, ends_turn, forced_move, take_back
from meeple.core.turns import turn_ended
from tests.conformance.cases import every_case
from tests.steps import EngineSteps

CASES = every_case()


def seat_positions(game: str, variant: dict[str, Any], players: int, seed: int,
                   count: int = 4) -> list[State[Any]]:
    """Up to ``count`` positions of one random game where a seat starts a turn, spread over
    the game (the first, then every few turns)."""
    s = meeple.new_game(game, players=players, seed=seed, **variant)
    rng = Rng(seed)
    out: list[State[Any]] = []
    last: tuple[int, int | None] | None = None
    while not s.is_over and len(out) < count:
        if s.to_move == CHANCE:
            s.sample_chance(rng)
            continue
        at = (s.turn, s.to_move)
        if at != last and s.turn % 3 == 0:
            out.append(s.clone())
        last = at
        s.play(rng.choice(s.legal_moves()), check=False)
    return out


def random_turn(start: State[Any], rng: Rng) -> Turn[Any]:
    """A whole turn from ``start`` with a random choice at each decision."""
    turn: Turn[Any] = Turn(start)
    while not turn.complete:
        turn.step(rng.choice(turn.position.legal_moves()))
    return turn


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_steps_then_undo_give_back_every_position(game: str, variant: dict[str, Any],
                                                  players: int) -> None:
    for seed in (1, 2):
        for start in seat_positions(game, variant, players, seed):
            start_key, start_history = start.key(), start.history
            rng = Rng(seed)
            turn: Turn[Any] = Turn(start)
            keys = []  # the position before each chosen step, with how many steps it had
            while not turn.complete:
                keys.append((len(turn), turn.position.key(), turn.position.history))
                turn.step(rng.choice(turn.position.legal_moves()))
            # the position is what plain play gives
            replay = start.clone()
            for s in turn.steps:
                replay.play(s.move)
            assert replay.key() == turn.position.key()
            assert replay.history == turn.position.history
            assert turn_ended(start.turn, start.to_move, turn.position)
            while keys:
                n, key, history = keys.pop()
                back = turn.undo()
                assert not back[0].forced and all(s.forced for s in back[1:])
                assert len(turn) == n
                assert turn.position.key() == key
                assert turn.position.history == history
            assert not turn.can_undo() and len(turn) == 0
            with pytest.raises(IllegalMove):
                turn.undo()
            assert turn.position is start
            assert start.key() == start_key and start.history == start_history


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_sync_with_shared_prefixes_equals_a_fresh_replay(game: str, variant: dict[str, Any],
                                                         players: int) -> None:
    rng = Rng(7)
    for start in seat_positions(game, variant, players, 3, count=3):
        whole = random_turn(start, rng).texts
        kept: Turn[Any] = Turn(start)
        # clicks forward, undos back, and jumps to other prefixes, in a seeded order
        lengths = [*range(len(whole) + 1), *range(len(whole), -1, -1)]
        lengths += [rng.randbelow(len(whole) + 1) for _ in range(6)]
        for k in lengths:
            kept.sync(whole[:k])
            fresh: Turn[Any] = Turn(start)
            fresh.sync(whole[:k])
            assert kept.texts == fresh.texts
            assert [s.forced for s in kept.steps] == [s.forced for s in fresh.steps]
            assert kept.position.key() == fresh.position.key()
            assert kept.complete == fresh.complete
            # the fresh replay by hand: step the chosen texts, forced ones follow by themselves
            by_hand: Turn[Any] = Turn(start)
            for i, text in enumerate(whole[:k]):
                if i < len(by_hand):
                    assert by_hand.texts[i] == text and by_hand.steps[i].forced
                    continue
                by_hand.step(text)
            assert by_hand.texts == kept.texts
            assert by_hand.position.key() == kept.position.key()
        assert start.key() == Turn(start).position.key()


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_forced_steps_are_the_decisions_with_one_legal_move(game: str, variant: dict[str, Any],
                                                            players: int) -> None:
    rng = Rng(11)
    forced_seen = 0
    for seed in (4, 5, 6):
        for start in seat_positions(game, variant, players, seed, count=6):
            turn = random_turn(start, rng)
            steps = turn.steps
            assert not steps[0].forced  # the first step is the player's
            for i, s in enumerate(steps[1:], start=1):
                legal = turn.before(i).legal_moves()
                assert s.forced == (len(legal) == 1), (i, s)
                assert forced_move(turn.before(i)) == (legal[0] if s.forced else None)
                forced_seen += s.forced
            for i, s in enumerate(steps):
                assert ends_turn(turn.before(i), s.move) == (i == len(steps) - 1)
    if game == "reefs":
        assert forced_seen > 0  # Reefs has turns whose last steps are forced


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_a_refused_step_changes_nothing(game: str, variant: dict[str, Any],
                                        players: int) -> None:
    rng = Rng(13)
    for start in seat_positions(game, variant, players, 8, count=2):
        turn: Turn[Any] = Turn(start)
        turn.step(rng.choice(start.legal_moves()))
        texts, position = turn.texts, turn.position
        legal_now = {str(m) for m in position.legal_moves()}
        stale = [str(m) for m in start.legal_moves() if str(m) not in legal_now]
        for bad in ["zz9 nonsense", *stale[:3]]:
            if turn.complete:
                break
            with pytest.raises(IllegalMove) as err:
                turn.step(bad)
            assert err.value.reason
            assert turn.texts == texts and turn.position is position
        with pytest.raises(StepRefused) as refused:
            turn.sync([*texts, *([] if turn.complete else ["zz9 nonsense"]), "zz9"])
        assert refused.value.index == len(texts)
        assert refused.value.ended == turn.complete
        assert turn.texts == texts and turn.position is position


def test_a_turn_starts_only_where_a_seat_is_to_move() -> None:
    s = meeple.new_game("gardens", players=2, seed=1)
    assert s.to_move == CHANCE
    with pytest.raises(ValueError, match="chance"):
        Turn(s)


def test_step_after_the_turn_is_over_is_refused() -> None:
    start = seat_positions("gardens", {}, 2, 1, count=1)[0]
    turn = random_turn(start, Rng(1))
    position = turn.position
    with pytest.raises(IllegalMove, match="over"):
        turn.step(str(turn.steps[-1].move))
    assert turn.position is position


def test_a_note_is_kept_for_every_step() -> None:
    start = seat_positions("reefs", {}, 1, 1, count=1)[0]
    pairs: list[tuple[int, int]] = []

    def note(before: State[Any], after: State[Any]) -> int:
        pairs.append((len(before.history), len(after.history)))
        return len(after.history)

    turn: Turn[Any] = Turn(start, note=note)
    rng = Rng(2)
    while not turn.complete:
        turn.step(rng.choice(turn.position.legal_moves()))
    n = len(start.history)
    assert [s.note for s in turn.steps] == [n + i + 1 for i in range(len(turn))]
    assert pairs == [(n + i, n + i + 1) for i in range(len(turn))]


def test_play_forced_at_the_start_plays_the_first_decision_without_a_choice() -> None:
    # Reefs, one seat: find a position whose only legal move does not end the turn
    s = meeple.new_game("reefs", players=1, seed=1)
    rng = Rng(3)
    found = None
    for _ in range(2000):
        if s.is_over:
            break
        if s.to_move == CHANCE:
            s.sample_chance(rng)
            continue
        legal = s.legal_moves()
        if len(legal) == 1 and s.to_move is not None:
            found = s.clone()
            break
        s.play(rng.choice(legal), check=False)
    assert found is not None
    turn: Turn[Any] = Turn(found)
    played = turn.play_forced()
    assert played and all(p.forced for p in played)
    assert not turn.can_undo()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        turn.undo()
    turn.sync([])  # a fresh turn has no step
    assert len(turn) == 0 and turn.position is found


@pytest.mark.parametrize("game", ["gardens", "pergola", "takenokolor", "reefs"])
def test_a_click_costs_one_engine_step_and_an_undo_none(game: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    start = max(seat_positions(game, {}, 2, 5, count=6),
                key=lambda s: len(random_turn(s, Rng(9))))
    whole = random_turn(start, Rng(9))
    texts, steps = whole.texts, whole.steps
    assert len(texts) >= 2
    count = EngineSteps(monkeypatch, type(start))
    turn: Turn[Any] = Turn(start)
    # the browser's way: each click re-sends the whole turn so far plus one step
    k = 0
    while k < len(texts):
        turn.sync(texts[:k + 1])
        added = len(turn) - k
        assert count.take() == added  # the new step and the forced steps after it, no replay
        k = len(turn)
    # undo in the browser: the turn minus its last chosen step (its forced steps come back)
    chosen = [i for i, s in enumerate(steps) if not s.forced]
    for i in reversed(chosen[1:]):
        turn.sync(texts[:i])
        assert count.take() == 0  # popped, not replayed
        assert len(turn) == i
        assert turn.texts == [s.text for s in steps[:len(turn)]]
    turn.undo()
    assert count.take() == 0 and len(turn) == 0


@pytest.mark.parametrize("game", ["gardens", "pergola", "takenokolor", "reefs"])
def test_take_back_pops_a_kept_position_and_replays_only_without_one(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one whole-move takeback (docs/layers.md, *Undo*): with the position before the
    decision kept it is that position, no engine step; without, the game is replayed to the
    same position; either way the decision taken back is named and ``state`` is unchanged."""
    start = max(seat_positions(game, {}, 2, 5, count=6),
                key=lambda s: len(random_turn(s, Rng(9))))
    turn = random_turn(start, Rng(9))
    mid = next(i for i in range(len(turn), 0, -1) if turn.before(i).can_undo())
    decided, before = turn.before(mid), turn.before(mid - 1)
    key, history = decided.key(), decided.history
    count = EngineSteps(monkeypatch, type(start))
    kept, back = take_back(decided, [turn.before(0), before])
    assert kept is before and back == turn.steps[mid - 1].move
    assert count.take() == 0  # a pop, not a replay
    replayed, again = take_back(decided)
    assert again == back and replayed.key() == before.key() and replayed is not before
    assert count.take() > 0  # replayed from the start
    assert decided.key() == key and decided.history == history  # unchanged


def test_take_back_refuses_what_the_rule_does_not_allow() -> None:
    """Nothing to take back at a turn's start (kept positions or not): refused, naming why."""
    s = meeple.new_game("gardens", players=2, seed=3)
    while s.to_move == CHANCE:
        s.sample_chance()
    assert not s.can_undo()
    for kept in ([], [s.clone()]):
        with pytest.raises(IllegalMove, match="nothing to undo"):
            take_back(s, kept)
