"""The golden decisions of the bots: fixed seeds, bounded games, every game and the variants
and seat counts whose bot defaults differ. ``tests/bots/golden_decisions.json`` holds what the
bots decided on the code this file was first run on; ``test_golden_decisions`` replays the same
cases and compares every decision (the move's text). Only the decisions are pinned, not how a
search reached them (its root's visit counts): a change inside the search that plays the same
moves passes.

Regenerate (only when a decision changes on purpose, and say why in the commit):
``uv run python -m tests.bots.golden``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import meeple
from meeple.bots import make_bot
from meeple.core.state import CHANCE

DATA = Path(__file__).with_name("golden_decisions.json")

MCTS = "mcts:iterations=60"

#: (case id, game, options, bots by seat, seed, decisions to record, random decisions first)
CASES: list[tuple[str, str, dict[str, Any], tuple[str, ...], int, int, int]] = []


def _add(game: str, options: dict[str, Any], bots: tuple[str, ...], seed: int, decisions: int,
         skip: int = 0) -> None:
    variant = ",".join(f"{k}={v}" for k, v in options.items()) or "standard"
    kind = "+".join(sorted(set(b.split(":")[0] for b in bots)))
    mid = f"-from{skip}" if skip else ""
    CASES.append((f"{game}-{variant}-{len(bots)}p-{kind}-s{seed}{mid}", game, options, bots, seed,
                  decisions, skip))


for _level in (1, 2, 3):
    _add("gardens", {"level": _level}, (MCTS, "greedy"), 11, 60)
    _add("reefs", {"level": _level}, (MCTS, "greedy"), 12, 50)
_add("gardens", {"level": 1}, (MCTS, "greedy"), 11, 40, skip=120)
_add("gardens", {"level": 1}, (MCTS,), 13, 40)
_add("gardens", {"level": 2}, ("greedy", MCTS, "greedy"), 14, 50)
_add("reefs", {"level": 1}, (MCTS, "greedy"), 12, 40, skip=100)
_add("reefs", {"level": 2}, (MCTS, "greedy", "greedy"), 15, 16)
_add("reefs", {"level": 1}, (MCTS, "greedy", "greedy", "greedy"), 16, 30)
_add("reefs", {"level": 2}, (MCTS, "greedy", "greedy", "greedy"), 17, 8)
_add("reefs", {"level": 1}, (MCTS,), 18, 40)
for _sheet in ("2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"):
    _add("takenokolor", {"sheet": _sheet}, (MCTS, "greedy"), 21, 40)
_add("takenokolor", {"sheet": "4-pandas-river"}, (MCTS, "greedy"), 21, 40, skip=60)
_add("takenokolor", {"sheet": "4-pandas-dragon"}, (MCTS, "greedy"), 21, 40, skip=60)
_add("takenokolor", {"sheet": "4-pandas-dragon"}, (MCTS, "greedy", "greedy"), 22, 30)
_add("takenokolor", {"sheet": "4-pandas-dragon"}, (MCTS, "greedy", "greedy", "greedy"), 23, 30)
_add("takenokolor", {"sheet": "3-pandas"}, ("greedy", MCTS, "greedy"), 24, 30)
_add("takenokolor", {"sheet": "2-pandas"}, (MCTS,), 25, 30)
_add("pergola", {}, (MCTS, "greedy"), 31, 30)
_add("pergola", {}, (MCTS, "greedy"), 31, 24, skip=80)
_add("pergola", {}, ("greedy", MCTS, "greedy"), 32, 20)
_add("pergola", {}, (MCTS,), 33, 16)
_add("pergola", {"challenge": 3}, (MCTS,), 34, 16)
_add("pergola", {}, ("greedy", "greedy", "greedy", "greedy"), 35, 120)
for _game, _opts in (("gardens", {"level": 2}), ("reefs", {"level": 1}),
                     ("takenokolor", {"sheet": "3-pandas"}), ("pergola", {})):
    _add(_game, _opts, ("easy", "medium"), 51, 40)
for _game, _opts in (("gardens", {"level": 3}), ("reefs", {"level": 3}),
                     ("takenokolor", {"sheet": "4-pandas-river"}), ("pergola", {})):
    _add(_game, _opts, ("random", "random", "random"), 41, 80)


def play_case(game: str, options: dict[str, Any], bots: tuple[str, ...], seed: int,
              decisions: int, skip: int = 0) -> list[str]:
    """``decisions`` bot decisions of a seeded game, after ``skip`` decisions by a seeded
    random bot (to reach the middle of a game): each the move's text."""
    state = meeple.new_game(game, players=len(bots), seed=seed, **options)
    warmup = make_bot("random", seed=seed)
    while skip > 0 and state.to_move is not None:
        if state.to_move == CHANCE:
            state.sample_chance()
            continue
        state.play(warmup.choose(state.seen_by(state.to_move), state.legal_moves()))
        skip -= 1
    players = [make_bot(spec, seed=1000 * seed + s) for s, spec in enumerate(bots)]
    out: list[str] = []
    while len(out) < decisions:
        seat = state.to_move
        if seat is None:
            break
        if seat == CHANCE:
            state.sample_chance()
            continue
        move = players[seat].choose(state.seen_by(seat), state.legal_moves())
        out.append(str(move))
        state.play(move)
    return out


def generate() -> dict[str, list[str]]:
    return {cid: play_case(g, o, b, s, n, k) for cid, g, o, b, s, n, k in CASES}


if __name__ == "__main__":
    import time

    data = {}
    for cid, g, o, b, s, n, k in CASES:
        t0 = time.process_time()
        data[cid] = play_case(g, o, b, s, n, k)
        print(f"{cid}: {len(data[cid])} decisions, {time.process_time() - t0:.1f} s CPU")
    DATA.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
