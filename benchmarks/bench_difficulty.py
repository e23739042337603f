"""Think time of the named difficulties (``easy``, ``medium``, ``hard``) per game, variant and
number of seats: every seat plays the difficulty, whole games, seeded.

    uv run python benchmarks/bench_difficulty.py                       # the default settings
    uv run python benchmarks/bench_difficulty.py --difficulty hard --games 2
    uv run python benchmarks/bench_difficulty.py --only pergola        # one game's settings

Think time is the CPU time of the deciding thread (``time.thread_time``), which a loaded
machine does not inflate; wall time is shown beside it. Per setting it prints the decisions
that thought (1 ms of CPU or more: a bot replaying its planned turn takes microseconds), their
median, p95 and longest CPU time, the longest wall time, the bot time of a whole game (all
seats, CPU; the mean and the longest of the games played) and how many searches a safety
wall-clock cap stopped. Targets (issue 30): p95 at most 1 s, never more than 2 s; a whole
3-bot game of ``hard`` at most 60 s. Bounded: ``--games`` games per setting (default 1) and
``--max-moves`` per game. ``--no-wall-cap`` measures the presets without their wall-clock safety
cap, which on a loaded machine would stop searches early and hide the CPU they take.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import meeple
from meeple.bots import DIFFICULTIES, difficulty_spec, make_bot
from meeple.bots.mcts import sheet_name
from meeple.core.state import CHANCE

#: (game, variant, seats) measured by default: every game, its variants whose presets differ,
#: and the seat counts a live table uses most.
SETTINGS: list[tuple[str, dict[str, Any], int]] = [
    ("gardens", {"level": 1}, 2), ("gardens", {"level": 2}, 3), ("gardens", {"level": 3}, 4),
    ("gardens", {"level": 1}, 1),
    ("reefs", {"level": 1}, 2), ("reefs", {"level": 2}, 2), ("reefs", {"level": 2}, 3),
    ("reefs", {"level": 1}, 4), ("reefs", {"level": 3}, 3),
    ("takenokolor", {"sheet": "2-pandas"}, 2), ("takenokolor", {"sheet": "3-pandas"}, 3),
    ("takenokolor", {"sheet": "4-pandas-river"}, 3), ("takenokolor", {"sheet": "4-pandas-dragon"}, 4),
    ("pergola", {}, 2), ("pergola", {}, 3), ("pergola", {"challenge": 7}, 1),
]


def play(game: str, variant: dict[str, Any], seats: int, spec: str, seed: int,
         max_moves: int, wall_cap: bool = True) -> tuple[list[float], list[float], float, int]:
    """One game: the CPU and wall seconds of every thinking decision, the game's total bot CPU
    time, and the number of searches a wall-clock cap stopped."""
    state = meeple.new_game(game, players=seats, seed=seed, **variant)
    if not wall_cap and spec in DIFFICULTIES:  # the preset's own bot, its wall-clock cap off
        spec = difficulty_spec(spec, game, seats, sheet_name(state))
        if spec.startswith("mcts:"):
            spec += ";seconds=0"
    bots = [make_bot(spec, seed=seed * 10 + s) for s in range(seats)]
    cpu: list[float] = []
    wall: list[float] = []
    total = 0.0
    capped = 0
    for _ in range(max_moves):
        seat = state.to_move
        if seat is None:
            break
        if seat == CHANCE:
            state.sample_chance()
            continue
        view = state.seen_by(seat)
        legal = state.legal_moves()
        c0, w0 = time.thread_time(), time.perf_counter()
        before_info = _info(bots[seat])
        move = bots[seat].choose(view, legal)
        dc, dw = time.thread_time() - c0, time.perf_counter() - w0
        total += dc
        if dc >= 1e-3:
            cpu.append(dc)
            wall.append(dw)
            info = _info(bots[seat])
            if info is not None and info is not before_info and info.get("capped"):
                capped += 1
        state.play(move)
    return cpu, wall, total, capped


def _info(bot: Any) -> dict[str, Any] | None:
    """The info of the bot's last search (a difficulty's inner bot), if it keeps any."""
    inner = getattr(bot, "last", bot)
    return getattr(inner, "last_info", None)


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--difficulty", action="append", choices=DIFFICULTIES,
                    help="difficulties to measure (repeatable; default all three)")
    ap.add_argument("--games", type=int, default=1, help="games per setting (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="only the settings of this game")
    ap.add_argument("--max-moves", type=int, default=5000, help="moves per game at most")
    ap.add_argument("--no-wall-cap", action="store_true",
                    help="measure the presets with their wall-clock safety cap off (on a loaded "
                    "machine the cap stops searches early, and the CPU they would take is hidden)")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print()
    print("| difficulty | game | variant | seats | decisions | median s | p95 s | max s | "
          "max wall s | game bot s (mean / max) | capped |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for difficulty in args.difficulty or DIFFICULTIES:
        for game, variant, seats in SETTINGS:
            if args.only and game != args.only:
                continue
            cpu: list[float] = []
            wall: list[float] = []
            totals: list[float] = []
            capped = 0
            for g in range(args.games):
                c, w, t, k = play(game, variant, seats, difficulty, args.seed + g, args.max_moves,
                                  wall_cap=not args.no_wall_cap)
                cpu += c
                wall += w
                totals.append(t)
                capped += k
            name = sheet_name(meeple.new_game(game, players=seats, seed=0, **variant))
            shown = ", ".join(f"{k}={v}" for k, v in variant.items()) or "standard"
            if name and name not in shown:
                shown += f" ({name})"
            print(f"| {difficulty} | {game} | {shown} | {seats} | {len(cpu)} | "
                  f"{quantile(cpu, 0.5):.3f} | {quantile(cpu, 0.95):.3f} | {max(cpu, default=0):.3f} | "
                  f"{max(wall, default=0):.3f} | {sum(totals) / len(totals):.1f} / {max(totals):.1f} | "
                  f"{capped} |", flush=True)


if __name__ == "__main__":
    main()
