"""``meeple.bots.hint``: a suggested turn from the seat's view only, valued by the evaluation."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.bots import hint, make_bot
from meeple.bots.evaluation import evaluate
from meeple.bots.greedy import GreedyBot
from meeple.bots.hint import HINT_LEVELS, Hint, level_spec, make_hint_bot
from meeple.core.errors import MeepleError
from meeple.core.state import CHANCE, State

GAMES = [("gardens", {}, 2), ("reefs", {"level": 2}, 2), ("takenokolor", {}, 3),
         ("pergola", {}, 2)]
#: a quick searching bot, so the tests cover a bot that plans by search, not only greedy
QUICK_MCTS = "mcts:iterations=12"


def position(game: str, variant: dict[str, Any], players: int, seed: int,
             turns: int) -> State[Any]:
    """A seat to move after ``turns`` whole turns of seeded random play (chance by the seed)."""
    state = meeple.new_game(game, players=players, seed=seed, **variant)
    bot = make_bot("random", seed=seed)
    done = 0
    for _ in range(5000):
        if state.to_move == CHANCE:
            state.sample_chance()
            continue
        if state.is_over or done >= turns:
            break
        before = state.turn
        state.play(bot.choose(state.seen_by(state.to_move), state.legal_moves()))
        done += state.turn != before
    while state.to_move == CHANCE:
        state.sample_chance()
    assert state.to_move is not None and state.to_move >= 0
    return state


def same_public_moves_other_seed(state: State[Any], seed: int) -> State[Any]:
    """The same moves (chance outcomes included) on a game with another seed: what every seat
    has seen is the same, what is still to be drawn is not."""
    other = meeple.new_game(state.game_name, players=state.players, seed=seed,
                            sheet=state.sheet_data(), **state.variant())
    for move in state.history:
        other.play(str(move))
    return other


def without_time(h: Hint) -> dict[str, Any]:
    data = h.as_dict()
    data.pop("seconds")
    return data


def test_pergola_hints_do_not_depend_on_the_draws_still_hidden() -> None:
    differ = 0
    for seed in (3, 4):
        a = position("pergola", {}, 2, seed, 4)
        b = same_public_moves_other_seed(a, seed + 100)
        seat = a.to_move
        assert seat is not None and b.to_move == seat
        assert a.seen_by(seat).key() == b.seen_by(seat).key()
        # what is still hidden differs: the draws after this turn come out otherwise
        ahead_a, ahead_b = a.clone(), b.clone()
        for s in (ahead_a, ahead_b):
            for _ in range(200):
                if s.to_move == CHANCE:
                    break
                s.play(s.legal_moves()[0])
            for _ in range(6):
                if s.to_move != CHANCE:
                    break
                s.sample_chance()
        differ += ahead_a.history != ahead_b.history
        # random's choice hangs on its seed alone: any leak of the game's seed would show
        for level in ("easy", "random", "mcts:iterations=40"):
            assert without_time(hint(a, seat, level, seed=7)) == \
                without_time(hint(b, seat, level, seed=7))
    assert differ, "the two seeds should draw differently somewhere"


def test_a_hint_reads_the_view_not_the_state_it_is_given() -> None:
    state = position("takenokolor", {}, 2, 11, 3)
    seat = state.to_move
    assert seat is not None
    key = state.key()
    history = list(state.history)
    from_state = hint(state, seat, QUICK_MCTS, seed=2)
    from_view = hint(state.seen_by(seat), seat, QUICK_MCTS, seed=2)
    assert without_time(from_state) == without_time(from_view)
    assert state.key() == key and state.history == history  # the position is left as it was


@pytest.mark.parametrize(("game", "variant", "players"), GAMES, ids=[g for g, _, _ in GAMES])
@pytest.mark.parametrize("level", ["medium", QUICK_MCTS])
def test_the_hint_is_a_legal_whole_turn_valued_by_the_evaluation(
        game: str, variant: dict[str, Any], players: int, level: str) -> None:
    state = position(game, variant, players, 5, 3)
    seat = state.to_move
    assert seat is not None
    h = hint(state, seat, level, seed=1, alternatives=3)
    assert h.game == game and h.seat == seat and h.bot == level
    assert h.move == h.best.moves[0]
    assert h.score == state.scores()[seat].total
    assert h.now == pytest.approx(evaluate(state.seen_by(seat), seat))
    turns = [h.best, *h.alternatives]
    keys = set()
    for turn in turns:
        node = state.clone()
        for text in turn.moves:
            assert node.to_move == seat
            node.play(text)  # checked: every step is legal
        assert node.turn != state.turn or node.to_move != seat  # the whole turn, no more
        keys.add(node.key())
        assert turn.value == pytest.approx(evaluate(node, seat))
        assert turn.gain == pytest.approx(turn.value - h.score)
        assert turn.rise == pytest.approx(turn.value - h.now)
        assert turn.scored == node.scores()[seat].total - h.score
        assert isinstance(turn.words(), str) and turn.words()
        assert len(turn.steps) == len(turn.moves) and all(turn.steps)
    assert len(keys) == len(turns)  # the alternatives are other turns
    values = [t.value for t in h.alternatives]
    assert values == sorted(values, reverse=True)
    if h.alternatives:
        assert h.margin == pytest.approx(h.best.value - values[0])
    else:
        assert h.margin == 0.0
    if level == "medium":  # medium is greedy: the best turn by the evaluation
        assert all(h.best.value >= v - 1e-9 for v in values)
        assert h.margin >= -1e-9
    json.loads(json.dumps(h.as_dict()))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 12))
def test_greedys_hint_is_greedys_turn_and_its_value_the_best(seed: int, turns: int) -> None:
    state = position("gardens", {}, 2, seed, turns)
    seat = state.to_move
    assert seat is not None
    h = hint(state, seat, "greedy", seed=seed, alternatives=5)
    bot = GreedyBot(seed=seed)
    view = state.seen_by(seat)
    view.seed = seed
    node = view.clone()
    played = []
    while node.to_move == seat and node.turn == state.turn:
        move = bot.choose(node.seen_by(seat), node.legal_moves())
        played.append(str(move))
        node.play(move)
    assert tuple(played) == h.best.moves
    assert all(h.best.value >= a.value - 1e-9 for a in h.alternatives)


def test_a_hint_in_the_middle_of_a_turn_gives_the_rest_of_it() -> None:
    state = position("gardens", {}, 2, 8, 2)
    seat = state.to_move
    first = state.legal_moves()[0]
    state.play(first)
    assert state.to_move == seat
    h = hint(state, seat, "easy")
    assert h.move in [str(m) for m in state.legal_moves()]
    node = state.clone()
    for text in h.best.moves:
        node.play(text)
    assert node.turn != state.turn or node.to_move != seat


def test_a_seat_that_is_not_to_move_gets_no_hint() -> None:
    state = position("gardens", {}, 2, 9, 1)
    seat = state.to_move
    assert seat is not None
    other = 1 - seat
    with pytest.raises(MeepleError, match=rf"seat {other}: it is not to move \(seat {seat} is"):
        hint(state, other, "easy")
    with pytest.raises(MeepleError, match="seat 5 does not exist"):
        hint(state, 5, "easy")
    rolling = meeple.new_game("gardens", players=2, seed=1)
    assert rolling.to_move == CHANCE
    with pytest.raises(MeepleError, match="roll or draw is pending"):
        hint(rolling, 0, "easy")


def test_levels_and_specs() -> None:
    assert level_spec("easy") == HINT_LEVELS["easy"]
    assert level_spec(" Medium ") == HINT_LEVELS["medium"]
    assert level_spec("mcts:iterations=5") == "mcts:iterations=5"
    for bad in ("grandmaster", "", "easy:iterations=3"):
        with pytest.raises(MeepleError, match="easy, medium, hard"):
            level_spec(bad)
    state = position("gardens", {}, 2, 2, 1)
    seat = state.to_move
    assert seat is not None
    with pytest.raises(MeepleError, match=r"unknown mcts option.*nonsense"):
        hint(state, seat, "mcts:nonsense=1")
    with pytest.raises(MeepleError, match="alternatives"):
        hint(state, seat, "easy", alternatives=-1)
    h = hint(state, seat, "medium", alternatives=0)
    assert h.spec == HINT_LEVELS["medium"] and h.alternatives == () and h.turns == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.seat = 1  # type: ignore[misc]


def test_the_hint_levels_are_the_bots_named_difficulties() -> None:
    from meeple.bots import DifficultyBot

    for level in ("easy", "medium", "hard"):
        bot, spec = make_hint_bot(level)
        assert spec == level and isinstance(bot, DifficultyBot)


@pytest.mark.parametrize(("game", "variant", "players"), GAMES, ids=[g for g, _, _ in GAMES])
def test_each_step_of_a_hint_is_named_as_the_seats_choice_names_it(
        game: str, variant: dict[str, Any], players: int) -> None:
    from meeple.core.present import presentation

    state = position(game, variant, players, 9, 2)
    seat = state.to_move
    assert seat is not None
    h = hint(state, seat, "easy", seed=1, alternatives=1)
    for turn in (h.best, *h.alternatives):
        node = state.seen_by(seat)
        for move, words in zip(turn.moves, turn.steps, strict=True):
            choices = presentation(game).view_board(node.seen_by(seat), seat)["choices"]
            label = next((c.get("label") for c in choices if c["move"] == move), None)
            assert words == (label or move), (move, words, label)
            node.play(move)
        assert h.as_dict()["best"]["steps"] == list(h.best.steps)
