"""Random-playout speed of every registered game and variant, beside python-chess in one run.

Counts seat decisions per second (chance events are played but not counted, so the figure is
conservative) and whole games per second, for each game, variant and player count given; the
yardstick is python-chess random playouts (moves per second) measured in the same process.
Also times Gardens whole-turn enumeration on mid-game positions (median).

    uv run python benchmarks/bench_playouts.py            # all games, 2-4 players, ~2 s each
    uv run python benchmarks/bench_playouts.py --game gardens --seconds 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Any

import chess

import meeple
from meeple.core.rng import Rng


def chess_moves_per_second(seconds: float) -> float:
    rnd = random.Random(1)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rnd.choice(list(board.legal_moves)))
            moves += 1
    return moves / (time.perf_counter() - start)


def playouts(game: str, variant: dict[str, Any], players: int, seconds: float) -> tuple[float, float]:
    decisions = games = 0
    rng = Rng(7)
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds or games == 0:
        s = meeple.new_game(game, players=players, seed=seed, **variant)
        seed += 1
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
            else:
                s.play(rng.choice(s.legal_moves()), check=False)
                decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def gardens_whole_turn_ms(samples: int = 60, with_states: bool = False) -> tuple[float, float]:
    """Median and 90th percentile (ms) of whole_turn_groups() (or whole_turns() with the
    resulting states when ``with_states``) at a seat's take decision, on positions 8-20 turns
    into 3-player level-1 games."""
    times = []
    rng = Rng(3)
    seed = 0
    while len(times) < samples:
        s = meeple.new_game("gardens", players=3, level=1, seed=seed)
        seed += 1
        target = 8 + seed % 13
        while not s.is_over and s.turn < target:
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
            else:
                s.play(rng.choice(s.legal_moves()), check=False)
        while not s.is_over and s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        if s.is_over:
            continue
        t0 = time.perf_counter()
        if with_states:
            s.whole_turns()
        else:
            s.whole_turn_groups()  # type: ignore[attr-defined]
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.python_implementation()} "
          f"{platform.python_version()}, chess {chess.__version__}")
    chess_mps = chess_moves_per_second(args.seconds * 2)
    print(f"python-chess random playouts: {chess_mps:,.0f} moves/s\n")
    print("Each row measures python-chess right before the game, for the same time, so a busy")
    print("machine slows both sides of the ratio alike.\n")
    print("| game | variant | players | decisions/s | games/s | python-chess moves/s | ratio |")
    print("|---|---|---|---:|---:|---:|---:|")
    all_chess = [chess_mps]
    wanted = [int(p) for p in args.players.split(",")]
    for info in meeple.games():
        if args.game and info.name not in args.game:
            continue
        for variant in info.variants:
            for players in info.player_range(variant):
                if players not in wanted:
                    continue
                here = chess_moves_per_second(args.seconds)
                all_chess.append(here)
                dps, gps = playouts(info.name, dict(variant), players, args.seconds)
                print(f"| {info.name} | {info.describe_variant(variant)} | {players} | "
                      f"{dps:,.0f} | {gps:,.1f} | {here:,.0f} | {dps / here:.2f} |", flush=True)
    if not args.game or "gardens" in args.game:
        med, p90 = gardens_whole_turn_ms()
        print(f"\nGardens whole-turn enumeration at a mid-game take decision: median {med:.2f} ms, "
              f"90th percentile {p90:.2f} ms (target: median < 5 ms)")
        med, p90 = gardens_whole_turn_ms(with_states=True)
        print(f"Same positions, whole_turns() building every resulting state: median {med:.2f} ms, "
              f"90th percentile {p90:.2f} ms")
    print(f"\npython-chess yardstick in this run: median {statistics.median(all_chess):,.0f} moves/s")


if __name__ == "__main__":
    main()
