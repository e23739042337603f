"""What the per-seat views of one version of a table cost the server: the views of seat 0, seat 1
and a spectator of a two-seat table, each made into JSON data and JSON text, the old way
(``seat_view`` per viewer, then ``model_dump`` of the view without its board, and
``model_dump_json`` for the frame's text, as the server made them before issue 50) against the
new (``view_data`` for the three viewers at once, the public parts made once, then one
``json.dumps`` of each), in the same run; and the new way with ``pydantic_core.to_json`` in
place of ``json.dumps`` (the same bytes, made in Rust).

    uv run python benchmarks/bench_views.py                   # every game, 2 seats
    uv run python benchmarks/bench_views.py --only reefs --rounds 9

The positions are those of seeded random playouts (``--games`` of them per game): one in
``--every`` after the first ``--skip`` moves, and the end; each view has the game's log in
words (something said after every move) of which it keeps the last 50 lines.
Times are CPU ms (``time.process_time``) per position for the three views, the fastest of
``--rounds`` rounds, old and new timed alternately; the ratios are old over new. On a commit
before ``view_data`` the script times the old way alone.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from pydantic_core import to_json

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.view import LogLine, log_lines, seat_view

try:
    from meeple.core.view import view_data
except ImportError:  # a commit before issue 50: the old way alone
    view_data = None

#: The game and variant timed for each game (every one at two seats).
CASES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("gardens", {"level": 3}), ("reefs", {"level": 3}),
    ("takenokolor", {"sheet": "4-pandas-dragon"}), ("pergola", {}))

VIEWERS: tuple[int | None, ...] = (0, 1, None)

Position = tuple[State[Any], list[LogLine]]


def positions(game: str, options: dict[str, Any], games: int, every: int,
              skip: int) -> list[Position]:
    """Positions of seeded random playouts at two seats, each with its log in words."""
    out: list[Position] = []
    for seed in range(games):
        state = meeple.new_game(game, players=2, seed=seed, **options)
        rng = Rng(seed)
        n = 0
        while not state.is_over:
            if state.to_move == CHANCE:
                state.sample_chance(rng)
            else:
                state.play(rng.choice(state.legal_moves()), check=False)
            n += 1
            if n >= skip and n % every == 0:
                out.append((state.clone(), []))
        out.append((state, []))
    for state, lines in out:
        lines.extend(log_lines(state, [[f"move {i} said this"] for i in range(len(state.history))]))
    return out


def old_way(state: State[Any], lines: list[LogLine]) -> list[str]:
    """The three views as the server made them before: per viewer a validated view, its data
    (the board is JSON data already) and its JSON text."""
    out = []
    for viewer in VIEWERS:
        view = seat_view(state, viewer, lines)
        data = view.model_dump(mode="json", by_alias=True, exclude={"board"})
        data["board"] = view.board
        out.append(view.model_dump_json(by_alias=True))
    return out


def new_way(state: State[Any], lines: list[LogLine]) -> list[str]:
    """The three views made at once as JSON data, then each made into JSON text."""
    assert view_data is not None
    views = view_data(state, VIEWERS, lines)
    return [json.dumps(views[v], ensure_ascii=False, separators=(",", ":")) for v in VIEWERS]


def new_way_to_json(state: State[Any], lines: list[LogLine]) -> list[str]:
    """The new way, each view made into JSON text by ``pydantic_core.to_json``."""
    assert view_data is not None
    views = view_data(state, VIEWERS, lines)
    return [to_json(views[v]).decode() for v in VIEWERS]


def timed(fn: Callable[[State[Any], list[LogLine]], list[str]], cases: list[Position]) -> float:
    """CPU ms to make the views of every position."""
    t = time.process_time()
    for state, lines in cases:
        fn(state, lines)
    return (time.process_time() - t) * 1000


def run(game: str, options: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """One row of the table: the game, its positions, then ms per position and the ratio to
    the old way, the old way, the new, the new with ``to_json``."""
    cases = positions(game, options, args.games, args.every, args.skip)
    if view_data is not None:  # the same text every way, or the comparison means nothing
        for state, lines in cases:
            assert old_way(state, lines) == new_way(state, lines) == new_way_to_json(state,
                                                                                   lines), game
    old = new = fast = float("inf")
    for _ in range(args.rounds):
        old = min(old, timed(old_way, cases))
        if view_data is not None:
            new = min(new, timed(new_way, cases))
            fast = min(fast, timed(new_way_to_json, cases))
    n = len(cases)
    variant = ",".join(f"{k}={v}" for k, v in options.items()) or "standard"
    if view_data is None:
        return [f"{game} {variant}", str(n), f"{old / n:.3f}", "", "", "", ""]
    return [f"{game} {variant}", str(n), f"{old / n:.3f}", f"{new / n:.3f}", f"{old / new:.2f}",
            f"{fast / n:.3f}", f"{old / fast:.2f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="one game")
    ap.add_argument("--games", type=int, default=3, help="random playouts per game")
    ap.add_argument("--every", type=int, default=5, help="time one position in this many")
    ap.add_argument("--skip", type=int, default=0, help="moves before the first position")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print("| game, 2 seats | positions | old ms | new ms | old / new | new, to_json ms "
          "| old / new, to_json |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game, options in CASES:
        if args.only and game != args.only:
            continue
        print("| " + " | ".join(run(game, options, args)) + " |", flush=True)


if __name__ == "__main__":
    main()
