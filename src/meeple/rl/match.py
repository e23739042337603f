"""One game played through action numbers: what the AEC and the Gymnasium env share.

A :class:`Match` holds the meeple state, plays chance from the game's own seeded stream (so a
seed is the same game in ``meeple replay``), keeps the legal decisions of the seat to move by
action number, and works out rewards (:mod:`meeple.rl.rewards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.registry import game_info, new_game
from meeple.core.state import CHANCE, State
from meeple.rl.rewards import check_reward, final_rewards
from meeple.rl.spaces import Encoding, IllegalAction, encoding

ILLEGAL = ("penalty", "raise")
#: legal sets whose masks a match keeps (cleared when full)
MASKS_KEPT = 2048


class Match:
    """A game of ``game`` (variant options, seat count, sheet) played by action numbers."""

    def __init__(self, game: str, players: int | None = None, *,
                 sheet: str | Path | Mapping[str, Any] | None = None, reward: str = "win",
                 shaping: bool = False, illegal: str = "penalty", **variant: Any) -> None:
        info = game_info(game)
        self.game = game
        self.players = info.default_players if players is None else players
        self.sheet = sheet
        self.variant = variant
        self.reward = check_reward(reward)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'penalty' (the game ends for that agent with a "
                             f"penalty, PettingZoo's convention) or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.shaping = bool(shaping)
        self.state: State[Any] = self._new(0)  # refuses a bad variant or seat count now
        #: who plays each seat, as the record names them (the envs set these)
        self.names: list[str] = [f"player_{i}" for i in range(self.players)]
        self.encoding: Encoding = encoding(self.state)
        self._legal: dict[int, Any] = {}
        #: the mask of the decision now (made on first use), and the masks of the legal sets
        #: met so far, by their action numbers (the same sets come back all game long)
        self._mask: np.ndarray | None = None
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._to_move: int | None = self.state.to_move
        self._totals: list[int] = []
        self.refused: str | None = None

    def _new(self, seed: int) -> State[Any]:
        return new_game(self.game, players=self.players, seed=seed, sheet=self.sheet,
                        **self.variant)

    # ------------------------------------------------------------------ playing
    def reset(self, seed: int) -> None:
        self.state = self._new(seed)
        self.state.seats = list(self.names)
        self.refused = None
        self._settle()
        self._totals = self._running_totals() if self.shaping else []

    def _settle(self) -> None:
        """Play chance until a seat is to move or the game ends; list that seat's decisions."""
        state = self.state
        to_move = state.to_move
        while to_move == CHANCE:
            state.sample_chance()
            to_move = state.to_move
        self._to_move = to_move
        self._mask = None
        if to_move is None:
            self._legal = {}
        else:
            index = self.encoding.index
            self._legal = {index[str(m)]: m for m in state.legal_moves()}

    def _running_totals(self) -> list[int]:
        return [s.total for s in self.state.scores()]

    @property
    def to_move(self) -> int | None:
        """The seat to decide, or None once the game is over (chance never shows here)."""
        return self._to_move

    @property
    def over(self) -> bool:
        return self._to_move is None or self.refused is not None

    def mask(self) -> np.ndarray:
        """1 for each legal action of the seat to move (a new array each call)."""
        if not self._legal or self.refused is not None:
            return np.zeros(len(self.encoding.actions), np.int8)
        mask = self._mask
        if mask is None:
            key = tuple(self._legal)
            mask = self._masks.get(key)
            if mask is None:
                if len(self._masks) >= MASKS_KEPT:
                    self._masks.clear()
                mask = np.zeros(len(self.encoding.actions), np.int8)
                mask[list(key)] = 1
                self._masks[key] = mask
            self._mask = mask
        return mask.copy()

    def legal_actions(self) -> list[int]:
        return [] if self.refused is not None else sorted(self._legal)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        mask = self.mask() if seat == self._to_move else np.zeros(
            len(self.encoding.actions), np.int8)
        return {"observation": self.encoding.observe(self.state, seat), "action_mask": mask}

    def why_illegal(self, action: Any) -> str:
        """The reason ``action`` is refused now, naming it and what is allowed."""
        try:
            text = self.encoding.action_to_move(action)
        except IllegalAction as exc:
            return str(exc)
        try:
            reason = self.state.illegal_reason(self.state.parse_move(text))
        except IllegalMove as exc:
            reason = str(exc)
        legal = ", ".join(f"{a} ({self.encoding.actions[a]})" for a in sorted(self._legal)[:12])
        more = f", ... ({len(self._legal)} in all)" if len(self._legal) > 12 else ""
        return (f"action {action} ({text}) is not legal now: {reason or 'not offered'}; "
                f"legal actions: {legal}{more}")

    def play(self, action: Any) -> list[float]:
        """Play action number ``action`` for the seat to move; chance follows. Returns each
        seat's reward for this step (shaping and, at the end, the end rewards). An illegal
        action raises :class:`IllegalAction` (state unchanged) when ``illegal="raise"``; with
        ``"penalty"`` it ends the game: the mover gets -1, the others 0, :attr:`refused` says
        why."""
        seat = self._to_move
        if seat is None or self.refused is not None:
            raise MeepleError("the game is over: reset the env to play again")
        move = None
        if isinstance(action, int | np.integer) and not isinstance(action, bool):
            move = self._legal.get(int(action))
        if move is None:
            reason = self.why_illegal(action)
            if self.illegal == "raise":
                raise IllegalAction(reason)
            self.refused = reason
            self._legal = {}
            rewards = [0.0] * self.players
            rewards[seat] = -1.0
            return rewards
        self.state.play(move, check=False)
        self._settle()
        rewards = [0.0] * self.players
        if self.shaping:
            now = self._running_totals()
            rewards = [float(b - a) for a, b in zip(self._totals, now, strict=True)]
            self._totals = now
        if self._to_move is None:
            end = final_rewards(self.state, self.reward)
            rewards = [r + e for r, e in zip(rewards, end, strict=True)]
        return rewards

    def end_info(self) -> dict[str, Any]:
        """What the infos carry once the game has ended: final totals and winners."""
        return {"scores": [s.total for s in self.state.scores()],
                "winners": self.state.winners()}

    def record(self) -> dict[str, Any]:
        """The game so far as a normal meeple record (``meeple replay`` reads it)."""
        rec = self.state.record()
        if self.refused is not None:
            rec["ended_by"] = self.refused
        return rec


class MatchEnv:
    """What both envs offer beyond their APIs, through their :class:`Match` (``match``) and its
    :class:`Encoding` (``encoding``)."""

    match: Match
    encoding: Encoding

    @property
    def game_state(self) -> State[Any]:
        """The meeple state (the whole truth, hidden parts too: agents observe views). Read it;
        play through the env only."""
        return self.match.state

    def action_to_move(self, action: int) -> str:
        """The canonical move text of an action number (``meeple replay`` reads it)."""
        return self.encoding.action_to_move(action)

    def move_to_action(self, move: object) -> int:
        """The action number of a move or its canonical text (``take O`` -> 0)."""
        return self.encoding.move_to_action(move)

    def unflatten(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The flat ``observation`` as named arrays (docs/rl.md lists them per game)."""
        return self.encoding.unflatten(observation)

    def record(self) -> dict[str, Any]:
        """This game as a meeple record: save it as JSON and ``meeple replay`` it."""
        return self.match.record()
