"""The four games as reinforcement-learning environments (docs/rl.md).

- ``env("gardens", players=3, level=2)``: a PettingZoo AEC env, every seat an agent;
- ``single_agent_env("pergola", seat=0, opponents=["medium"])``: a Gymnasium env, the other
  seats played by meeple bots (any spec or difficulty) or by policies of your own;
- ``maskable_env("gardens", opponents=["random"])``: that env with one flat float32
  observation scaled to [0, 1] and ``action_masks()``, as sb3-contrib's MaskablePPO takes it;
- importing this package registers ``meeple/Gardens-v0``, ``meeple/Reefs-v0``,
  ``meeple/Takenokolor-v0`` and ``meeple/Pergola-v0`` with Gymnasium, so
  ``gymnasium.make("meeple/Takenokolor-v0", sheet="3-pandas", opponents=["hard", "easy"])``
  works (or ``gymnasium.make("meeple.rl:meeple/Takenokolor-v0", ...)`` without the import).

A game takes part through its ``LEARNING`` record (:class:`meeple.core.layers.Learning`),
found through the registry: this package knows no game by name.
"""

from __future__ import annotations

import gymnasium

from meeple.core.registry import games
from meeple.rl.aec import MeepleEnv, env, raw_env
from meeple.rl.gym import MeepleGymEnv, single_agent_env
from meeple.rl.rewards import final_rewards, rank_rewards
from meeple.rl.spaces import Encoding, IllegalAction, encoding
from meeple.rl.wrappers import MaskableFlat, maskable_env


def gym_id(game: str) -> str:
    """The Gymnasium id of a game: ``meeple/Takenokolor-v0``."""
    return f"meeple/{game.capitalize()}-v0"


def register_envs() -> list[str]:
    """Register every game of the registry with Gymnasium (done on import); returns the ids."""
    ids = []
    for info in games():
        env_id = gym_id(info.name)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="meeple.rl.gym:MeepleGymEnv",
                               kwargs={"game": info.name}, disable_env_checker=False)
        ids.append(env_id)
    return ids


register_envs()

__all__ = ["Encoding", "IllegalAction", "MaskableFlat", "MeepleEnv", "MeepleGymEnv", "encoding",
           "env", "final_rewards", "gym_id", "maskable_env", "rank_rewards", "raw_env",
           "register_envs", "single_agent_env"]
