"""The Gymnasium env: one seat learns, the other seats are opponents played inside ``step``.

``single_agent_env("pergola", seat=0, opponents=["medium"])`` or, once ``meeple.rl`` is
imported, ``gymnasium.make("meeple/Pergola-v0", opponents=["medium"])``. The seat count is one
more than the opponents (``opponents=[]``: solo). The records name every seat: the learner
``agent`` (or ``name=...``), each opponent by its bot spec. Observation, actions, rewards and the
illegal-action rule are the AEC env's (:mod:`meeple.rl.aec`); ``info["action_mask"]`` and
:meth:`MeepleGymEnv.action_masks` (what sb3-contrib's MaskablePPO asks for) give the mask too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from meeple.core.errors import MeepleError
from meeple.core.registry import game_info
from meeple.rl.match import Match, MatchEnv
from meeple.rl.opponents import Opponent, Seat, opponents_from, seat_names
from meeple.rl.render import render_text
from meeple.rl.spaces import IllegalAction

#: the longest name of the learning seat
NAME_MAX = 60


class MeepleGymEnv(MatchEnv, gymnasium.Env[Any, Any]):
    """A meeple game for one learning seat against opponents (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium's)

    def __init__(self, game: str, seat: int = 0, opponents: Sequence[Opponent] | Opponent | None = None,
                 *, players: int | None = None,
                 sheet: str | Path | Mapping[str, Any] | None = None, reward: str = "win",
                 shaping: bool = False, illegal: str = "penalty",
                 render_mode: str | None = None, name: str = "agent", **variant: Any) -> None:
        if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_MAX:
            raise MeepleError(f"name is the learning seat's name in the records: 1 to "
                              f"{NAME_MAX} characters, not {name!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        if opponents is None:
            n = game_info(game).default_players if players is None else players
            seats = opponents_from(["random"] * (n - 1))
        else:
            seats = opponents_from(opponents)
            if players is not None and players != len(seats) + 1:
                raise MeepleError(f"players={players} does not fit {len(seats)} opponents: the "
                                  "seats are the learner and one per opponent")
        self.opponent_seats: list[Seat] = seats
        players = len(seats) + 1
        if not 0 <= seat < players:
            raise MeepleError(f"seat {seat} does not exist: with {len(seats)} opponents the "
                              f"seats are 0..{players - 1}")
        self.seat = seat
        self.match = Match(game, players, sheet=sheet, reward=reward, shaping=shaping,
                           illegal=illegal, **variant)
        self.encoding = self.match.encoding
        self.observation_space = self.encoding.observation_space()
        self.action_space = self.encoding.action_space()
        self.render_mode = render_mode
        #: the opponent of each other seat, in seat order
        self._by_seat: dict[int, Seat] = {}
        others = [s for s in range(players) if s != seat]
        for s, opp in zip(others, seats, strict=True):
            self._by_seat[s] = opp
        self.match.names = seat_names([name.strip() if s == seat else self._by_seat[s].describe()
                                       for s in range(players)])

    # ------------------------------------------------------------------ the loop
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game; ``seed`` is the meeple game's seed (opponent bots are seeded from it)."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        self.match.reset(game_seed)
        for s, opp in self._by_seat.items():
            opp.new_game(game_seed * 8 + s + 1)
        reward = self._opponents_move()
        if reward:
            self._pending = reward
        else:
            self._pending = 0.0
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.match.over:
            raise MeepleError("the game is over: call reset() to start another")
        if self.match.to_move != self.seat:  # pragma: no cover - the env never hands over so
            raise MeepleError("it is not the learning seat's turn")
        reward = self._pending + self.match.play(action)[self.seat]
        self._pending = 0.0
        info_extra: dict[str, Any] = {}
        if self.match.refused is not None:
            info_extra["illegal"] = self.match.refused
        else:
            reward += self._opponents_move()
        terminated = self.match.over
        info = self._info()
        info.update(info_extra)
        if terminated and self.match.refused is None:
            info.update(self.match.end_info())
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, False, info

    def _opponents_move(self) -> float:
        """Play every opponent decision until the learner is to move or the game ends; the
        learner's rewards meanwhile (shaping, the end)."""
        got = 0.0
        match = self.match
        while not match.over and match.to_move != self.seat:
            mover = match.to_move
            assert mover is not None
            opp = self._by_seat[mover]
            if opp.policy is not None:
                action = opp.policy(match.observe(mover))
                if int(action) not in match.legal_actions():
                    raise IllegalAction(f"opponent policy at seat {mover} played an illegal "
                                        f"action: {match.why_illegal(action)}")
            else:
                assert opp.bot is not None
                state = match.state
                move = opp.bot.choose(state.seen_by(mover), state.legal_moves())
                action = self.encoding.move_to_action(move)
            got += match.play(action)[self.seat]
        return got

    def _obs(self) -> dict[str, np.ndarray]:
        return self.match.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.match.mask() if self.match.to_move == self.seat
                else np.zeros(len(self.encoding.actions), np.int8)}

    # ------------------------------------------------------------------ meeple extras
    def action_masks(self) -> np.ndarray:
        """The legal-action mask as a bool array (sb3-contrib's MaskablePPO calls this)."""
        mask: np.ndarray = self._info()["action_mask"].astype(bool)
        return mask

    def legal_actions(self) -> list[int]:
        """The action numbers the learning seat may play now."""
        return self.match.legal_actions() if self.match.to_move == self.seat else []

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.match.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def single_agent_env(game: str, seat: int = 0, opponents: Sequence[Opponent] | Opponent | None = None,
                     **options: Any) -> MeepleGymEnv:
    """A Gymnasium env of ``game`` for ``seat`` against ``opponents`` (default: ``random`` in
    every other seat of the game's usual seat count)."""
    return MeepleGymEnv(game, seat, opponents, **options)
