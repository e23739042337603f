"""The RL users' side of meeple.rl (issue 54): the MaskableFlat wrapper under Gymnasium's and
stable-baselines3's env checkers over every game, variant and seat count, its scaling under
seeded random play, vector envs' terminal masks, records that name the opponents, and a short
MaskablePPO run where sb3-contrib is installed."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meeple
from meeple.bots import make_bot
from meeple.rl import env, gym_id, single_agent_env
from meeple.rl.wrappers import MaskableFlat, maskable_env
from tests.rl.cases import every_case

#: the one warning a checker gives for any wrapped env (it is meant to be wrapped)
WRAPPED = ".*is different from the unwrapped version"


def learner_env(game: str, variant: dict[str, Any], players: int) -> MaskableFlat:
    """The learner in the last seat, ``random`` in the others (solo: no opponent)."""
    return maskable_env(game, seat=players - 1, opponents=["random"] * (players - 1), **variant)


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_gymnasium_check_env_passes_on_the_wrapper(game: str, variant: dict[str, Any],
                                                   players: int) -> None:
    g = learner_env(game, variant, players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any other warning of the checker fails the test
        warnings.filterwarnings("ignore", message=WRAPPED)
        check_env(g, skip_render_check=True)
    space = g.observation_space
    assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.float32
    assert (space.low == 0).all() and (space.high == 1).all()
    assert space.shape == (g.unwrapped.encoding.size,)


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_stable_baselines3_check_env_passes_on_the_wrapper(game: str, variant: dict[str, Any],
                                                           players: int) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    g = learner_env(game, variant, players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=WRAPPED)
        sb3_checker.check_env(g, warn=True)


@pytest.mark.parametrize(("game", "variant", "players"), every_case())
def test_scaled_observations_stay_in_bounds_and_read_back(game: str, variant: dict[str, Any],
                                                          players: int) -> None:
    """A seeded masked random game to the end: every observation is float32 in [0, 1], is the
    game's vector scaled by its documented bounds, and the mask matches the env's."""
    g = learner_env(game, variant, players)
    enc = g.unwrapped.encoding
    low, high = enc.low.astype(np.float64), enc.high.astype(np.float64)
    span = np.where(high > low, high - low, 1)
    bits = np.zeros(enc.size, bool)
    for part in enc.parts:
        if part.block.bits:
            bits[part.start:part.stop] = True
    obs, info = g.reset(seed=7)
    rng = np.random.default_rng(7)
    done = False
    steps = 0
    while True:
        assert obs.dtype == np.float32 and obs.shape == (enc.size,)
        assert g.observation_space.contains(obs)
        assert ((obs >= 0) & (obs <= 1)).all()
        raw = g.unwrapped.match.observe(g.unwrapped.seat)["observation"]
        assert np.array_equal(np.rint(obs * span + low).astype(np.int16), raw)
        assert set(np.unique(obs[bits])) <= {0.0, 1.0}
        mask = g.action_masks()
        assert mask.dtype == bool and np.array_equal(mask, info["action_mask"].astype(bool))
        if done:
            assert not mask.any(), "the mask is all False once the game is over"
            break
        assert sorted(np.flatnonzero(mask)) == g.legal_actions()
        obs, _reward, done, trunc, info = g.step(int(rng.choice(np.flatnonzero(mask))))
        assert not trunc
        steps += 1
    assert steps > 0 and g.unwrapped.game_state.is_over


def test_the_wrapper_refuses_an_env_that_is_not_meeples() -> None:
    with pytest.raises(meeple.MeepleError, match="MaskableFlat wraps a meeple Gymnasium env"):
        MaskableFlat(gymnasium.make("CartPole-v1"))
    # made by id, the wrapper sees through Gymnasium's own wrappers
    wrapped = MaskableFlat(gymnasium.make(gym_id("reefs"), opponents=["easy"], level=2))
    obs, _ = wrapped.reset(seed=3)
    assert obs.dtype == np.float32 and wrapped.action_masks().any()


# ---------------------------------------------------------------------- vector envs
def _masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row; 0 for a row whose mask is all zeros (an env whose game
    has just ended: the next step resets it and ignores the action)."""
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


def test_make_vec_next_step_autoreset_the_terminal_mask_is_all_zeros() -> None:
    envs = gymnasium.make_vec(gym_id("gardens"), num_envs=2, vectorization_mode="sync",
                              opponents=["random"], level=1)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(2_000):
        obs, _reward, term, trunc, info = envs.step(_masked(obs["action_mask"], rng))
        assert not trunc.any()
        for i in np.flatnonzero(term):
            ended += 1
            assert not obs["action_mask"][i].any() and not info["action_mask"][i].any()
            assert info["_scores"][i] and len(info["scores"][i]) == 2
        if ended >= 2:
            break
        # rows that ended last step: reset now, the action was ignored (0 may be illegal: no
        # penalty), and a live mask is back
        for i in np.flatnonzero(~term):
            assert obs["action_mask"][i].any()
    assert ended >= 2
    envs.close()


def test_make_vec_same_step_autoreset_keeps_the_final_mask_in_info() -> None:
    envs = gymnasium.make_vec(gym_id("reefs"), num_envs=2, vectorization_mode="sync",
                              opponents=["random"], level=1, wrappers=[MaskableFlat],
                              vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP})
    obs, info = envs.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape[0] == 2
    rng = np.random.default_rng(1)
    for _ in range(5_000):
        masks = np.stack(envs.call("action_masks"))
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert masks.any(axis=1).all(), "same-step autoreset: every row is a live game"
        obs, _reward, term, _trunc, info = envs.step(_masked(masks, rng))
        if term.any():
            i = int(np.flatnonzero(term)[0])
            assert info["_final_obs"][i] and info["final_obs"][i].dtype == np.float32
            assert not info["final_info"]["action_mask"][i].any()
            assert len(info["final_info"]["scores"][i]) == 2
            break
    else:  # pragma: no cover - a Reefs game ends well within the bound
        pytest.fail("no game ended")
    envs.close()


# ---------------------------------------------------------------------- records
def test_records_name_the_opponents_and_the_agent() -> None:
    def copy_of_me(observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])

    g = single_agent_env("reefs", seat=1, level=1,
                         opponents=["mcts:iterations=20", copy_of_me, make_bot("greedy", seed=4)])
    obs, _ = g.reset(seed=5)
    done = False
    while not done:
        obs, _, done, _, _ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    rec = g.record()
    assert rec["seats"] == ["mcts:iterations=20", "agent", "copy_of_me", "greedy"]
    assert meeple.replay(rec).seats == rec["seats"]

    # a repeated name is told apart by its seat; the learner's name is an option
    g = maskable_env("gardens", seat=2, opponents=["random", "Random", lambda o: 0], name="ppo-3")
    g.reset(seed=0)
    assert g.unwrapped.record()["seats"] == ["random (0)", "Random (1)", "ppo-3", "policy"]
    with pytest.raises(meeple.MeepleError, match="the learning seat's name"):
        single_agent_env("gardens", name="")
    with pytest.raises(meeple.MeepleError, match="the learning seat's name"):
        single_agent_env("gardens", name="x" * 61)

    # the AEC env: every seat is an agent, named as PettingZoo names it
    e = env("takenokolor", 3, sheet="3-pandas")
    e.reset(seed=2)
    assert e.unwrapped.record()["seats"] == ["player_0", "player_1", "player_2"]


# ---------------------------------------------------------------------- MaskablePPO
def test_maskable_ppo_trains_a_few_hundred_steps_on_the_wrapper() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import torch

    torch.set_num_threads(1)
    g = maskable_env("gardens", opponents=["random"], level=1)
    model = sb3_contrib.MaskablePPO("MlpPolicy", g, n_steps=128, batch_size=64, n_epochs=1,
                                    seed=0, device="cpu", verbose=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    obs, _ = g.reset(seed=11)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=g.action_masks(), deterministic=True)
        assert g.action_masks()[int(action)], "a masked policy plays a legal action"
        obs, _reward, done, _, info = g.step(int(action))
    assert "illegal" not in info and g.unwrapped.game_state.is_over


def test_pettingzoo_refuses_to_make_a_parallel_env_of_a_turn_based_game() -> None:
    """docs/rl.md: no parallel env; PettingZoo's conversion refuses the AEC env, as it does
    its own classic games."""
    from pettingzoo.utils.conversions import aec_to_parallel

    e = env("gardens", 2)
    assert e.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(e)
