"""RL env steps per second with a masked random agent: every meeple game's PettingZoo AEC env
beside PettingZoo's own ``connect_four_v3`` and ``chess_v6``, in one run (issue 38).

    uv run python benchmarks/bench_rl.py [--seconds 3] [--rounds 2] [--game gardens] [--clock cpu]

Each row runs the same loop PettingZoo users write: ``for agent in env.agent_iter(): obs, ... =
env.last(); env.step(random legal action from obs["action_mask"])``, resetting with the next
seed when a game ends. A step is one live agent's decision (the dead steps at the end of a
game are not counted; meeple's chance events are played inside ``step`` and not counted
either). The yardsticks run in between the meeple rows, round by round, so a busy machine
moves them together; the ratio is a game's steps/s over connect four's median in the run.
Seconds are this process's CPU seconds by default (``--clock wall`` for wall time), so other
work on a shared machine moves the figures less. Target: every game at least connect four's
speed (ratio >= 1.0).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

warnings.filterwarnings("ignore")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


#: the clock of a run: ``wall`` (time.perf_counter) or ``cpu`` (this process's CPU time,
#: time.process_time: on a shared machine it leaves out the time spent waiting for a core)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def run(make: Callable[[], Any], seconds: float, clock: str = "wall") -> tuple[float, float]:
    """Masked random play for ``seconds`` of ``clock``: (steps/s, games/s)."""
    now = CLOCKS[clock]
    e = make()
    rng = np.random.default_rng(0)
    steps = games = 0
    seed = 0
    start = now()
    deadline = start + seconds
    while True:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        games += 1
        if now() >= deadline:
            break
    took = now() - start
    return steps / took, games / took


def meeple_rows(only: str | None) -> list[tuple[str, str, int, Callable[[], Any]]]:
    import meeple
    from meeple.rl import env

    rows = []
    for info in meeple.games():
        if only and info.name != only:
            continue
        picks = [(dict(info.variants[0]), 2), (dict(info.variants[0]), 4),
                 (dict(info.variants[-1]), info.player_range(info.variants[-1])[0])]
        for variant, players in picks:
            label = info.describe_variant(variant)
            rows.append((info.name, label, players,
                         lambda g=info.name, p=players, v=variant: env(g, p, **v)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds a row a round")
    ap.add_argument("--rounds", type=int, default=2, help="rounds (each row's best is kept)")
    ap.add_argument("--game", default=None, help="one meeple game only")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                    help="cpu: steps per CPU second of this process (default; steady on a "
                         "shared machine); wall: per second of wall time")
    ap.add_argument("--yardstick-only", action="store_true",
                    help="connect_four_v3 alone, one line: how fast this machine runs Python "
                         "now (scripts/test prints it beside the suite's time)")
    args = ap.parse_args()

    from pettingzoo.classic import chess_v6, connect_four_v3

    if args.yardstick_only:
        got = [run(connect_four_v3.env, args.seconds, args.clock)[0] for _ in range(args.rounds)]
        print(f"machine yardstick: connect_four_v3 {max(got):,.0f} steps per "
              f"{'CPU second' if args.clock == 'cpu' else 'second'} (best of {args.rounds} "
              f"rounds of {args.seconds:g} s; load {os.getloadavg()[0]:.1f})")
        return

    yardsticks = [("connect_four_v3", connect_four_v3.env), ("chess_v6", chess_v6.env)]
    rows = meeple_rows(args.game)
    best: dict[str, tuple[float, float]] = {}
    c4: list[float] = []
    chess: list[float] = []
    for _ in range(args.rounds):
        for i, (game, label, players, make) in enumerate(rows):
            if i % 3 == 0:
                c4.append(run(yardsticks[0][1], args.seconds, args.clock)[0])
            if i % 6 == 0:
                chess.append(run(yardsticks[1][1], args.seconds, args.clock)[0])
            got = run(make, args.seconds, args.clock)
            key = f"{game}|{label}|{players}"
            if key not in best or got[0] > best[key][0]:
                best[key] = got
    c4_med = statistics.median(c4)
    chess_med = statistics.median(chess)
    unit = "steps per CPU second" if args.clock == "cpu" else "steps/s"
    print(f"connect_four_v3: {c4_med:,.0f} {unit} (median of {len(c4)}: "
          f"{min(c4):,.0f}-{max(c4):,.0f}); chess_v6: {chess_med:,.0f} {unit} "
          f"(median of {len(chess)}); load {os.getloadavg()[0]:.1f}")
    print()
    print("| game | variant | players | steps/s | games/s | / connect_four_v3 | / chess_v6 |")
    print("|---|---|---|---:|---:|---:|---:|")
    for game, label, players, _ in rows:
        sps, gps = best[f"{game}|{label}|{players}"]
        print(f"| {game} | {label} | {players} | {sps:,.0f} | {gps:,.1f} | "
              f"{sps / c4_med:.2f} | {sps / chess_med:.2f} |")


if __name__ == "__main__":
    main()
