"""How long a bot takes for a whole turn (all its decisions until another seat or chance is
to move), per game: what a person waits at a table, and what the lobby's bot labels promise.

    uv run python benchmarks/bench_turn_time.py                    # hard, every game, 2 seats
    uv run python benchmarks/bench_turn_time.py --bot mcts:seconds=1 --turns 20
    uv run python benchmarks/bench_turn_time.py --only gardens --seats 3

The measured bot plays seat 0 against ``medium`` in the others, on each game's default
variant, seeded; it is asked for every decision of its turn as the server asks it (one
``choose`` a decision, forced ones included). A bot that planned its whole turn plays the rest
from its plan; ``--fresh`` asks a new bot at every decision instead, as a server's bot worker
does when a turn's decisions go to several worker processes (each keeps its own bots), the
slowest case. Per game it prints the turns measured and their
median, p90 and longest time, as CPU time of the deciding thread (``time.thread_time``, which a
loaded machine does not inflate) and as wall time. Bounded: ``--turns`` turns of the measured
seat per game (default 40), over as many games as that takes.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import meeple
from meeple.bots import make_bot
from meeple.core.state import CHANCE


def turn_times(game: str, seats: int, spec: str, turns: int, seed: int, fresh: bool = False
               ) -> tuple[list[float], list[float]]:
    """The CPU and wall seconds of each of ``turns`` whole turns of ``spec`` in seat 0 (a new
    bot at each decision if ``fresh``)."""
    cpu: list[float] = []
    wall: list[float] = []
    info = meeple.game_info(game)
    while len(cpu) < turns:
        state = meeple.new_game(game, players=seats, seed=seed, **dict(info.variants[0]))
        bots = [make_bot(spec if s == 0 else "medium", seed=seed * 10 + s) for s in range(seats)]
        seed += 1
        c = w = 0.0
        mine = False
        while state.to_move is not None and len(cpu) < turns:
            seat = state.to_move
            if mine and seat not in (0, CHANCE):  # seat 0's turn is over (chance within it
                cpu.append(c)                     # does not end it)
                wall.append(w)
                c = w = 0.0
                mine = False
            if seat == 0:
                mine = True
            if seat == CHANCE:
                state.sample_chance()
                continue
            view = state.seen_by(seat)
            c0, w0 = time.thread_time(), time.perf_counter()
            bot = make_bot(spec, seed=seed * 10 + len(state.history)) if fresh and seat == 0 \
                else bots[seat]
            move = bot.choose(view, state.legal_moves())
            if seat == 0:
                c += time.thread_time() - c0
                w += time.perf_counter() - w0
            state.play(move)
    return cpu, wall


def quantile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))] if ys else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard", help="the bot measured (default hard)")
    ap.add_argument("--seats", type=int, default=2, help="seats at the table (default 2)")
    ap.add_argument("--turns", type=int, default=40, help="turns measured per game (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="only this game")
    ap.add_argument("--fresh", action="store_true",
                    help="a new bot at every decision (a server whose workers share a turn)")
    args = ap.parse_args()
    if not 1 <= args.turns <= 10_000:
        ap.error("--turns must be 1 to 10000")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{args.bot} in seat 0 of {args.seats}, medium in the others"
          f"{'; a new bot at every decision' if args.fresh else ''}")
    print()
    print("| game | variant | turns | CPU median s | CPU p90 s | CPU max s | wall median s | "
          "wall p90 s | wall max s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for info in meeple.games():
        if args.only and info.name != args.only:
            continue
        cpu, wall = turn_times(info.name, args.seats, args.bot, args.turns, args.seed, args.fresh)
        variant: dict[str, Any] = dict(info.variants[0])
        shown = ", ".join(f"{k} {v}" for k, v in variant.items()) or "standard"
        print(f"| {info.name} | {shown} | {len(cpu)} | {quantile(cpu, 0.5):.2f} | "
              f"{quantile(cpu, 0.9):.2f} | {max(cpu):.2f} | {quantile(wall, 0.5):.2f} | "
              f"{quantile(wall, 0.9):.2f} | {max(wall):.2f} |", flush=True)


if __name__ == "__main__":
    main()
