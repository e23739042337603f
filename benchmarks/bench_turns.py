"""Whole-turn speed: ``greedy``'s decision time, the ``whole_turns()`` listing and the game's
turn ranker, at positions sampled from seeded greedy games.

    uv run python benchmarks/bench_turns.py                        # every game/variant below
    uv run python benchmarks/bench_turns.py --only pergola --positions 12

For each game and variant one game is played by ``greedy`` at every seat (seed fixed); every
seat turn start of it is a position, and up to ``--positions`` of them, spread evenly over
the game, are timed. At each position, in CPU time (``time.process_time``: a loaded machine
stretches wall time, not this):

- ``greedy``: a fresh ``greedy`` bot's first decision of the turn (which plans the whole turn:
  listing, evaluation, choice); p50, p95 and max over the positions;
- ``list``: ``view.whole_turns()`` (every distinct whole turn with its end position), median
  and max over the positions, and the total listing time per whole turn listed (µs);
- ``rank``: the game's turn ranker for 16 turns (what greedy calls where the game has one),
  median, or ``-`` if the game registers none.

The greedy games are the same on every version of the code as long as greedy's decisions are
(tests/games/*/test_turns_fast.py pins a few of them), so before/after runs time the same
positions. Run both versions in one session, back to back (benchmarks/README.md).

``--ab`` compares, position by position and alternately (so a changing load hits both
alike; the fastest of three rounds kept), the code paths this version replaced with the ones
that replace them, both still here: in Pergola and Reefs ``greedy:exact=1`` (every whole
turn listed by ``whole_turns()`` and evaluated: what greedy did before the game had a turn
ranker) against ``greedy`` (the ranker); in Gardens the move-by-move listing ``whole_turns()`` was (each turn
played with ``play``) against ``whole_turns()``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

import meeple
from meeple.bots.evaluation import turn_ranker_for
from meeple.bots.greedy import GreedyBot
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State

#: (game, variant options, seats): what is timed by default.
CASES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("gardens", {"level": 1}, 2),
    ("gardens", {"level": 2}, 2),
    ("gardens", {"level": 3}, 2),
    ("gardens", {"level": 2}, 4),
    ("reefs", {"level": 1}, 2),
    ("reefs", {"level": 2}, 2),
    ("reefs", {"level": 3}, 2),
    ("reefs", {"level": 2}, 4),
    ("pergola", {}, 1),
    ("pergola", {}, 2),
    ("pergola", {}, 4),
)


def greedy_positions(game: str, options: dict[str, Any], players: int,
                     seed: int) -> list[State[Any]]:
    """The view of every seat turn start of one game played by ``greedy`` at every seat
    (bot ``s`` seeded ``seed + s``; chance drawn from ``Rng(seed)``)."""
    state = meeple.new_game(game, players=players, seed=seed, **options)
    bots = [GreedyBot(seed=seed + s) for s in range(players)]
    rng = Rng(seed)
    out: list[State[Any]] = []
    last: tuple[int, int] | None = None
    steps = 0
    while not state.is_over:
        steps += 1
        if steps > 100_000:
            raise RuntimeError(f"{game} {options}: the game did not end in 100,000 moves")
        seat = state.to_move
        if seat == CHANCE:
            state.sample_chance(rng)
            continue
        assert seat is not None
        view = state.seen_by(seat)
        if (state.turn, seat) != last:
            last = (state.turn, seat)
            out.append(view.clone())
        state.play(bots[seat].choose(view, view.legal_moves()), check=False)
    return out


def spread(items: list[Any], count: int) -> list[Any]:
    """Up to ``count`` of ``items``, evenly spread (first and last included)."""
    if len(items) <= count:
        return items
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def cpu(fn: Any) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def bench(game: str, options: dict[str, Any], players: int, seed: int,
          positions: int) -> dict[str, Any]:
    views = spread(greedy_positions(game, options, players, seed), positions)
    ranker = turn_ranker_for(game)
    greedy_t: list[float] = []
    list_t: list[float] = []
    rank_t: list[float] = []
    turns = 0
    for i, view in enumerate(views):
        legal = view.legal_moves()
        bot = GreedyBot(seed=i)
        greedy_t.append(cpu(lambda bot=bot, view=view, legal=legal: bot.choose(view, legal)))
        listed: list[Any] = []
        list_t.append(cpu(lambda view=view, listed=listed: listed.extend(view.whole_turns())))
        turns += len(listed)
        if ranker is not None:
            seat = view.to_move
            rank_t.append(cpu(lambda view=view, seat=seat: ranker(view, seat, 16)))
    return {
        "positions": len(views), "turns": turns,
        "p50": pct(greedy_t, 0.5), "p95": pct(greedy_t, 0.95), "max": max(greedy_t),
        "list": statistics.median(list_t), "list_max": max(list_t),
        "per_turn": sum(list_t) / max(1, turns),
        "rank": statistics.median(rank_t) if rank_t else None,
    }


def gardens_listing_as_was(state: Any) -> list[Any]:
    """Gardens' ``whole_turns()`` before 2026-12-01: each turn's moves played with ``play``."""
    from meeple.games.gardens import rules as gr
    from meeple.games.gardens.moves import TAKE_MOVES, WASTE_MOVE

    out = []
    for c, g in state.whole_turn_groups():
        moves = [TAKE_MOVES[c]] if state.phase == gr.TAKING else []
        if g == 0:
            moves.append(WASTE_MOVE)
        else:
            moves.extend(state.fmoves[i] for i in gr.connected_order(
                g, state.coloured[state.seat], state.sheet.neighbours))
        after = state.clone()
        for m in moves:
            after.play(m, check=False)
        out.append((tuple(moves), after))
    return out


def ab(game: str, options: dict[str, Any], players: int, seed: int,
       positions: int) -> tuple[list[float], list[float]]:
    """Per position, the fastest of three alternating rounds of the old and the new path."""
    views = spread(greedy_positions(game, options, players, seed), positions)
    old_t: list[float] = []
    new_t: list[float] = []
    for i, view in enumerate(views):
        legal = view.legal_moves()
        if game in ("pergola", "reefs"):
            def old(view: Any = view, legal: Any = legal, i: int = i) -> Any:
                return GreedyBot(seed=i, exact=1).choose(view, legal)

            def new(view: Any = view, legal: Any = legal, i: int = i) -> Any:
                return GreedyBot(seed=i).choose(view, legal)
        else:
            def old(view: Any = view, legal: Any = legal, i: int = i) -> Any:
                return gardens_listing_as_was(view)

            def new(view: Any = view, legal: Any = legal, i: int = i) -> Any:
                return view.whole_turns()
        a = b = float("inf")
        for _ in range(3):
            a = min(a, cpu(old))
            b = min(b, cpu(new))
        old_t.append(a)
        new_t.append(b)
    return old_t, new_t


def label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "standard"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated games to time (default: all)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--positions", type=int, default=20,
                    help="turn starts timed per game (spread over one greedy game)")
    ap.add_argument("--ab", action="store_true",
                    help="old against new code paths, alternately (see above)")
    args = ap.parse_args()
    only = {g for g in args.only.split(",") if g}
    if args.ab:
        print(f"{platform.machine()}, Python {platform.python_version()}, seed {args.seed}; "
              "CPU milliseconds, fastest of 3 alternating rounds")
        print("| game | variant | seats | timed | positions | old p50 | p95 | max | total "
              "| new p50 | p95 | max | total | speed-up (totals) |")
        print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for game, options, players in CASES:
            if only and game not in only:
                continue
            old_t, new_t = ab(game, options, players, args.seed, args.positions)
            what = "greedy decision" if game in ("pergola", "reefs") else "whole_turns()"
            cells = []
            for t in (old_t, new_t):
                cells += [pct(t, 0.5), pct(t, 0.95), max(t), sum(t)]
            print(f"| {game} | {label(options)} | {players} | {what} | {len(old_t)} | "
                  + " | ".join(f"{1000 * x:.1f}" for x in cells)
                  + f" | {sum(old_t) / sum(new_t):.2f} |", flush=True)
        return
    print(f"{platform.machine()}, Python {platform.python_version()}, seed {args.seed}; "
          "CPU milliseconds")
    print("| game | variant | seats | positions | whole turns | greedy p50 | p95 | max "
          "| whole_turns() median | max | µs a turn | ranker median |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game, options, players in CASES:
        if only and game not in only:
            continue
        r = bench(game, options, players, args.seed, args.positions)
        rank = "-" if r["rank"] is None else f"{1000 * r['rank']:.1f}"
        print(f"| {game} | {label(options)} | {players} | {r['positions']} | {r['turns']:,} "
              f"| {1000 * r['p50']:.1f} | {1000 * r['p95']:.1f} | {1000 * r['max']:.1f} "
              f"| {1000 * r['list']:.1f} | {1000 * r['list_max']:.1f} "
              f"| {1e6 * r['per_turn']:.0f} | {rank} |", flush=True)


if __name__ == "__main__":
    main()
