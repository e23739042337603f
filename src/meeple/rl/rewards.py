"""Rewards at the end of a game (docs/rl.md, "Rewards").

- ``"win"`` (default), 2 players: win 1, loss -1, a tie 0 for both. 3-4 players: by rank,
  first +1, last -1, the ranks between evenly spaced (3 players: 1, 0, -1; 4 players: 1, 1/3,
  -1/3, -1); seats that tie share the mean of the places they cover. Ranks come from the final
  totals; the seats :meth:`State.winners` names (the rulebook's tie-breaks, where a game has
  them) are first. Every reward sums to 0 over the seats.
- ``"win"``, 1 player: a solo challenge (Pergola's ``challenge`` variants) gives 1 when it is
  met and -1 when it fails; any other solo game gives its final score (there is no one to beat).
- ``"score"``: the score margin, the seat's total minus the best other total (1 player: its
  total).

Shaping (``shaping=True``) adds, after every decision, each seat's change in its running total
(the score pad as it would read now); off by default. The end reward comes on top.
"""

from __future__ import annotations

from typing import Any

from meeple.core.layers import SoloReports
from meeple.core.registry import game_part
from meeple.core.state import State

REWARDS = ("win", "score")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, not {reward!r}")
    return reward


def rank_rewards(totals: list[int], winners: list[int]) -> list[float]:
    """Rank-based rewards: +1 first, -1 last, evenly spaced, ties sharing their places' mean.
    ``winners`` come first whatever their totals (the game's tie-breaks)."""
    n = len(totals)
    if n == 1:
        raise ValueError("rank rewards need two or more seats")
    place_value = [1 - 2 * i / (n - 1) for i in range(n)]
    # sort key: winners first, then by total, highest first
    keys = [(0 if s in winners else 1, -totals[s]) for s in range(n)]
    order = sorted(range(n), key=lambda s: keys[s])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        share = sum(place_value[i:j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


def final_rewards(state: State[Any], reward: str) -> list[float]:
    """Each seat's end-of-game reward (the game is over)."""
    totals = [s.total for s in state.scores()]
    n = len(totals)
    if reward == "score":
        if n == 1:
            return [float(totals[0])]
        return [float(t - max(totals[:s] + totals[s + 1:])) for s, t in enumerate(totals)]
    if n == 1:
        if "challenge" in state.variant():
            solo = game_part(state.game_name, "SOLO", SoloReports, required=False)
            if solo is not None:
                return [1.0 if solo.report(state).get("met") else -1.0]
        return [float(totals[0])]
    return rank_rewards(totals, state.winners())
