"""meeple.rl over every game: PettingZoo's and Gymnasium's own checkers, masked random agents
to the end with the mask checked against the engine at every step, seeds, records that replay,
rewards, illegal actions and opponents (issue 38)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core.rng import Rng
from meeple.rl import IllegalAction, env, gym_id, raw_env, single_agent_env
from meeple.rl.rewards import final_rewards, rank_rewards
from tests.rl.cases import every_case, spread


def play_masked_random(e: Any, seed: int, check: bool = True) -> tuple[int, dict[str, float]]:
    """A masked random agent in every seat until the game ends; at every step the mask is the
    engine's legal moves mapped both ways. Returns the decisions and the total rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = e.unwrapped
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert obs["observation"].dtype == np.int16 and mask.dtype == np.int8
        if check:
            state = raw.game_state
            legal = sorted(str(m) for m in state.legal_moves())
            from_mask = sorted(raw.action_to_move(int(a)) for a in np.flatnonzero(mask))
            assert from_mask == legal
            assert sorted(raw.move_to_action(t) for t in legal) == list(np.flatnonzero(mask))
            assert raw.observation_space(agent).contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        e.step(action)
        steps += 1
    assert not e.agents, "every agent is done at the end"
    return steps, totals


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_masked_random_agents_play_every_variant_to_the_end(game: str, variant: dict[str, Any],
                                                            players: int) -> None:
    e = env(game, players, **variant)
    steps, totals = play_masked_random(e, seed=3)
    raw = e.unwrapped
    state = raw.game_state
    assert state.is_over and steps > 0
    assert steps == sum(1 for mover, _ in state.log() if mover >= 0)
    want = final_rewards(state, "win")
    assert [totals[a] for a in e.possible_agents] == pytest.approx(want)
    if players > 1:
        assert sum(want) == pytest.approx(0)
    # the record replays, move for move, as a normal meeple record
    again = meeple.replay(raw.record())
    assert again.key() == state.key()


@pytest.mark.parametrize(("game", "variant", "players"), spread())
def test_pettingzoo_api_and_seed_tests(game: str, variant: dict[str, Any], players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game, players, **variant), num_cycles=300)
        seed_test(lambda: env(game, players, **variant), num_cycles=300)


@pytest.mark.parametrize(("game", "variant", "players"), spread())
def test_gymnasium_check_env_on_the_single_agent_env(game: str, variant: dict[str, Any],
                                                      players: int) -> None:
    g = single_agent_env(game, seat=players - 1, opponents=["random"] * (players - 1), **variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(g, skip_render_check=True)
    obs, info = g.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        assert g.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert obs["action_mask"].any()
        obs, reward, done, trunc, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not trunc
    assert g.game_state.is_over
    assert reward == pytest.approx(final_rewards(g.game_state, "win")[players - 1])


def test_a_seed_is_the_same_game_and_the_same_game_as_new_game() -> None:
    records = []
    for _ in range(2):
        e = raw_env("reefs", 3, level=2)
        play_masked_random(e, seed=11, check=False)
        records.append(e.record())
    assert records[0] == records[1]
    # the chance of the env is the game's own seeded stream: the same rolls as new_game(seed=11)
    fresh = meeple.new_game("reefs", players=3, seed=11, level=2)
    first_roll = next(m for mover, m in meeple.replay(records[0]).log() if mover < 0)
    fresh.sample_chance()
    assert str(fresh.history[0]) == str(first_roll)
    # unseeded resets after a seeded one follow from it
    e1, e2 = raw_env("gardens", 2), raw_env("gardens", 2)
    for e in (e1, e2):
        e.reset(seed=4)
        e.reset()
    assert e1.game_state.seed == e2.game_state.seed != 4


def test_single_agent_env_with_bots_is_reproducible_by_seed() -> None:
    def run() -> dict[str, Any]:
        g = single_agent_env("takenokolor", seat=1, opponents=["easy", "greedy"], sheet="3-pandas")
        obs, _ = g.reset(seed=2)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            obs, _, done, _, _ = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return g.record()

    a, b = run(), run()
    assert a == b and a["players"] == 3 and a["sheet"]["name"] == "3-pandas"


def test_gymnasium_make_by_id() -> None:
    assert gym_id("takenokolor") == "meeple/Takenokolor-v0"
    g = gymnasium.make("meeple/Takenokolor-v0", sheet="3-pandas", opponents=["hard", "easy"])
    obs, info = g.reset(seed=1)
    assert g.unwrapped.game_state.players == 3
    assert g.unwrapped.game_state.sheet_data()["name"] == "3-pandas"
    assert obs["action_mask"].sum() == len(g.unwrapped.legal_actions()) > 0
    g.close()
    for info in meeple.games():
        assert gym_id(info.name) in gymnasium.registry


def test_an_env_record_replays_in_meeple_replay(tmp_path: Path) -> None:
    e = raw_env("pergola", 2)
    play_masked_random(e, seed=8, check=False)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(e.record()))
    total = len(e.record()["moves"])
    result = CliRunner().invoke(app, ["replay", str(path), "--at", str(total)])
    assert result.exit_code == 0, result.output
    assert f"{total}/{total}" in result.output or str(total) in result.output


# ---------------------------------------------------------------------- illegal actions
def test_illegal_action_ends_the_game_with_a_penalty_and_a_reason() -> None:
    e = env("gardens", 3, level=1)
    e.reset(seed=1)
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.game_state.key()
    e.step(bad)
    assert e.unwrapped.game_state.key() == before, "a refused action changes nothing"
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1 and all(r == 0 for a, r in e.rewards.items() if a != agent)
    reason = e.infos[agent]["illegal"]
    assert f"action {bad} ({e.unwrapped.action_to_move(bad)})" in reason and "legal actions:" in reason
    for _a in e.agent_iter():
        _, _reward, term, _, _ = e.last()
        assert term
        e.step(None)
    assert not e.agents


@pytest.mark.parametrize("bad", [10_000, -1, "take O", 2.5, None])
def test_illegal_raise_names_the_action_and_changes_nothing(bad: Any) -> None:
    e = raw_env("reefs", 2, illegal="raise")
    e.reset(seed=2)
    before = (e.game_state.key(), e.legal_actions())
    with pytest.raises(IllegalAction) as err:
        e.step(bad)
    assert "action" in str(err.value)
    assert (e.game_state.key(), e.legal_actions()) == before
    assert not any(e.terminations.values())
    e.step(e.legal_actions()[0])  # still playable


def test_single_agent_illegal_action_penalty() -> None:
    g = single_agent_env("pergola", opponents=["random"])
    obs, _ = g.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, trunc, info = g.step(bad)
    assert (reward, done, trunc) == (-1.0, True, False)
    assert "is not legal now" in info["illegal"]
    assert not obs["action_mask"].any()


def test_bad_options_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="reward must be one of"):
        env("gardens", reward="points")
    with pytest.raises(ValueError, match="illegal must be"):
        env("gardens", illegal="ignore")
    with pytest.raises(meeple.MeepleError, match="unknown bot"):
        single_agent_env("gardens", opponents=["grandmaster"])
    with pytest.raises(meeple.MeepleError, match="seat 3 does not exist"):
        single_agent_env("gardens", seat=3, opponents=["random"])
    with pytest.raises(meeple.MeepleError):
        env("gardens", 9)
    with pytest.raises(meeple.MeepleError):
        env("gardens", 2, level=7)


# ---------------------------------------------------------------------- rewards
def test_rank_rewards() -> None:
    assert rank_rewards([10, 5], [0]) == [1, -1]
    assert rank_rewards([5, 5], [0, 1]) == [0, 0]
    assert rank_rewards([3, 9, 6], [1]) == pytest.approx([-1, 1, 0])
    assert rank_rewards([9, 9, 1, 4], [0, 1]) == pytest.approx([2 / 3, 2 / 3, -1, -1 / 3])
    # a tie-break winner ranks first even on equal totals
    assert rank_rewards([7, 7, 2], [1]) == pytest.approx([0, 1, -1])


def test_score_rewards_and_shaping_add_up_to_the_final_scores() -> None:
    e = raw_env("gardens", 2, level=2, reward="score", shaping=True)
    _, totals = play_masked_random(e, seed=6, check=False)
    scores = [s.total for s in e.game_state.scores()]
    margin = [scores[0] - scores[1], scores[1] - scores[0]]
    # shaping pays each score change as it happens: the sum is the final total (from 0)
    assert [totals["player_0"], totals["player_1"]] == pytest.approx(
        [scores[0] + margin[0], scores[1] + margin[1]])


def test_pergola_challenge_rewards_met_or_failed_and_score() -> None:
    for reward in ("win", "score"):
        g = single_agent_env("pergola", opponents=[], challenge=3, reward=reward)
        obs, _ = g.reset(seed=4)
        rng = np.random.default_rng(4)
        done = False
        while not done:
            obs, r, done, _, _ = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = g.game_state
        if reward == "win":
            from meeple.games.pergola.solo import challenge_met

            assert r == (1.0 if challenge_met(state, 3) else -1.0)
        else:
            assert r == state.scores()[0].total


# ---------------------------------------------------------------------- opponents
def test_opponents_bot_difficulties_and_a_policy_for_self_play() -> None:
    seen: list[int] = []

    def policy(observation: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        seen.append(len(legal))
        return int(legal[0])

    g = single_agent_env("reefs", seat=0, opponents=[policy, "medium"], level=1)
    obs, _ = g.reset(seed=9)
    assert g.game_state.players == 3
    done = False
    while not done:
        obs, _, done, _, _ = g.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert seen, "the policy played its seat"
    movers = {mover for mover, _ in g.game_state.log() if mover >= 0}
    assert movers == {0, 1, 2}

    def cheat(observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])

    g = single_agent_env("gardens", seat=1, opponents=[cheat])
    with pytest.raises(IllegalAction, match="opponent policy at seat 0"):
        g.reset(seed=1)


# ---------------------------------------------------------------------- observations
@pytest.mark.parametrize("players", [1, 2, 4])
def test_observations_never_show_hidden_information(players: int) -> None:
    """Two states that differ only in what a seat cannot see (Pergola's tool holder, the
    leaves under each pile's top) give that seat the same observation."""
    e = raw_env("pergola", players)
    e.reset(seed=players)
    enc = e.encoding
    rng = np.random.default_rng(0)
    checked = 0
    while not e.game_state.is_over:
        state = e.game_state
        if len(state.history) % 9 == 0:
            for seat in range(players):
                mine = enc.observe(state, seat)
                for k in range(2):
                    other = state.sample_hidden(seat, Rng(k + 17 * seat + len(state.history)))
                    assert np.array_equal(enc.observe(other, seat), mine)
                    checked += 1
        e.step(int(rng.choice(e.legal_actions())))
    assert checked > 10


def test_unflatten_names_every_block() -> None:
    e = raw_env("takenokolor", 2, sheet="2-pandas")
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)["observation"]
    parts = e.unflatten(obs)
    assert sum(a.size for a in parts.values()) == obs.size
    layout = e.encoding.describe()
    assert [p["name"] for p in layout] == list(parts)
    for p in layout:
        assert parts[p["name"]].shape == tuple(p["shape"])
        assert (parts[p["name"]] >= p["low"]).all() and (parts[p["name"]] <= p["high"]).all()


def test_render_ansi_draws_the_table() -> None:
    e = raw_env("gardens", 2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "[" not in text[:0] and len(text) > 100
    g = single_agent_env("reefs", opponents=["random"], render_mode="ansi")
    g.reset(seed=0)
    assert len(g.render() or "") > 100
