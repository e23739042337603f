"""The Gymnasium env as the usual RL libraries take it: one flat float32 vector, scaled.

``maskable_env("gardens", opponents=["random"])`` (or :class:`MaskableFlat` around any
:class:`~meeple.rl.gym.MeepleGymEnv`, however it was made) gives an env whose observation is
the game's flat vector scaled by each value's documented bounds (the layout's ``low`` and
``high``) to float32 in [0, 1], in a ``Box(0, 1, (n,), float32)``, and whose
:meth:`~MaskableFlat.action_masks` is what sb3-contrib's ``MaskablePPO`` asks for. It passes
Gymnasium's and stable-baselines3's env checkers for every game and variant (docs/rl.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from meeple.bots.encoding import unit_bounds
from meeple.core.errors import MeepleError
from meeple.rl.gym import MeepleGymEnv, single_agent_env
from meeple.rl.opponents import Opponent


class MaskableFlat(gymnasium.ObservationWrapper[np.ndarray, Any, dict[str, np.ndarray]]):
    """A meeple Gymnasium env with a flat float32 observation in [0, 1] and ``action_masks()``.

    A value ``v`` of a block with bounds ``low..high`` becomes ``(v - low) / (high - low)``:
    bits stay 0 and 1, a count of 0..9 reads k/9, a score of -20..80 reads its place in that
    range. A block whose bounds are equal (a constant) reads 0. The mask is not
    in the observation: ``action_masks()`` and ``info["action_mask"]`` give it."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, MeepleGymEnv):
            raise MeepleError(f"MaskableFlat wraps a meeple Gymnasium env (single_agent_env or "
                              f"gymnasium.make('meeple/...')), not {type(base).__name__}")
        self._base = base
        encoding = base.encoding
        self._low, self._span = unit_bounds(encoding)
        self.observation_space = spaces.Box(0.0, 1.0, (encoding.size,), np.float32)

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The game's int16 vector as float32 in [0, 1] (division is exact at both ends)."""
        out: np.ndarray = (observation["observation"].astype(np.float32) - self._low) / self._span
        return out

    def action_masks(self) -> np.ndarray:
        """The learning seat's legal actions as bools (all False once the game is over)."""
        return self._base.action_masks()

    def legal_actions(self) -> list[int]:
        """The action numbers the learning seat may play now."""
        return self._base.legal_actions()


def maskable_env(game: str, seat: int = 0, opponents: Sequence[Opponent] | Opponent | None = None,
                 **options: Any) -> MaskableFlat:
    """:func:`~meeple.rl.single_agent_env` wrapped in :class:`MaskableFlat`: what
    ``MaskablePPO("MlpPolicy", maskable_env("gardens"))`` needs."""
    return MaskableFlat(single_agent_env(game, seat, opponents, **options))
