"""The PettingZoo AEC env: every seat an agent (``player_0`` ...), turn by turn (docs/rl.md).

Conventions are PettingZoo's classic games': a ``Dict`` observation with ``observation`` (int16,
the game's documented layout) and ``action_mask`` (int8, all 0 for an agent not to move); one
``Discrete`` action space per variant; rewards at the end; an illegal action ends the game
with -1 for the agent that made it and 0 for the others, its reason in that agent's ``info``
(``illegal="raise"`` raises :class:`~meeple.rl.spaces.IllegalAction` instead). Chance is
played inside the env. ``env()`` wraps :class:`MeepleEnv` in PettingZoo's order-enforcing
wrapper, as the classic ``env()`` functions do; ``raw_env()`` does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from meeple.rl.match import Match, MatchEnv
from meeple.rl.render import render_text


class MeepleEnv(MatchEnv, AECEnv):  # type: ignore[misc]
    """A meeple game as a PettingZoo AEC env."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "meeple_v0",  # noqa: RUF012
                                "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, *,
                 sheet: str | Path | Mapping[str, Any] | None = None, reward: str = "win",
                 shaping: bool = False, illegal: str = "penalty",
                 render_mode: str | None = None, **variant: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        self.match = Match(game, players, sheet=sheet, reward=reward, shaping=shaping,
                           illegal=illegal, **variant)
        self.metadata = {**self.metadata, "name": f"meeple_{game}_v0"}
        self.render_mode = render_mode
        self.encoding = self.match.encoding
        self.possible_agents = [f"player_{i}" for i in range(self.match.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.encoding.observation_space()
                                   for a in self.possible_agents}
        self.action_spaces = {a: self.encoding.action_space() for a in self.possible_agents}
        self._seeder = np.random.default_rng()
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the meeple game's seed (the same game each time, and
        ``meeple.new_game(..., seed=seed)`` plays the same chance); without one the env draws
        the next seed from its own generator (seeded by the last seed given)."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeder.integers(0, 2**31 - 1))
        self.match.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.match.to_move
        if seat is not None and self.match.refused is None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.match.observe(self.agent_name_mapping[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = self.match.play(action)
        self.rewards = {a: rewards[i] for i, a in enumerate(self.possible_agents)}
        if self.match.refused is not None:
            self.infos[agent] = {**self.infos[agent], "illegal": self.match.refused}
        if self.match.over:
            self.terminations = dict.fromkeys(self.agents, True)
            if self.match.refused is None:
                end = self.match.end_info()
                for a in self.agents:
                    self.infos[a] = {**self.infos[a], **end}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ meeple extras
    def legal_actions(self) -> list[int]:
        """The action numbers the agent to move may play now."""
        return self.match.legal_actions()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.match.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str, players: int | None = None, **options: Any) -> MeepleEnv:
    """The env without wrappers (see :class:`MeepleEnv` for the options)."""
    return MeepleEnv(game, players, **options)


def env(game: str, players: int | None = None, **options: Any) -> Any:
    """The AEC env of ``game`` wrapped as PettingZoo's classic ``env()`` functions wrap theirs
    (order enforcing: ``step`` before ``reset`` is refused clearly)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players, **options))
