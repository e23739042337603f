"""What a click costs the server: ``Service.preview`` over one long turn, built click by click
as the browser does (each preview re-sends the turn so far plus one step), with the
connection's turn in progress (``Draft``: the steps it shares with the last preview are kept)
and without it (the turn replayed from the committed position at every click, as every
preview was before the turn object); then the browser's undo (the turn minus its last step),
and ``Service.undo`` of committed decisions against ``State.undo`` (a replay of the game).

    uv run python benchmarks/bench_preview.py                 # Pergola and Gardens
    uv run python benchmarks/bench_preview.py --only pergola --rounds 5

For each game a table of two people (seeded ``--seed``) is played by ``greedy`` at both seats (seeded) until a
seat is to start a turn of at least ``--steps`` decisions (greedy's own turn there), some
turns into the game. Times are the fastest of ``--rounds`` rounds (CPU time,
``time.process_time``), in ms; ``steps`` counts the engine steps (``_apply`` calls) the
previews made. The view each preview answers with is made in both cases and counted in
the times (``view`` gives its cost alone).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from meeple.bots.greedy import GreedyBot
from meeple.core.state import CHANCE, State
from meeple.core.view import seat_view
from meeple.server.table.service import Draft, Service
from meeple.store import HUMAN, SeatSpec, Store

CASES: tuple[tuple[str, dict[str, Any]], ...] = (("pergola", {}), ("gardens", {"level": 3}))


class Counter:
    def __init__(self, cls: type[Any]) -> None:
        self.calls = 0
        self.cls = cls
        self.original = cls._apply
        counter = self

        def counted(state: Any, move: Any) -> None:
            counter.calls += 1
            counter.original(state, move)

        cls._apply = counted

    def take(self) -> int:
        n, self.calls = self.calls, 0
        return n

    def restore(self) -> None:
        self.cls._apply = self.original


def greedy_turn(state: State[Any], seed: int) -> list[str]:
    bot = GreedyBot(seed=seed)
    s = state.clone()
    seat, turn, out = s.to_move, s.turn, []
    while s.to_move == seat and s.turn == turn:
        assert seat is not None
        move = bot.choose(s.seen_by(seat), s.legal_moves())
        s.play(move)
        out.append(str(move))
    return out


async def long_turn(svc: Service, tid: str, least: int, seed: int) -> tuple[int, list[str]]:
    """Play whole greedy turns on the table until a seat starts one of ``least`` steps."""
    rt = await svc.authority.runtime(tid)
    for k in range(400):
        seat = rt.state.to_move
        if seat is None or seat == CHANCE:
            break
        texts = greedy_turn(rt.state, seed + k)
        if len(texts) >= least and k >= 4:
            return seat, texts
        await svc.play(tid, seat, texts, rt.version, f"t{k}")
    raise RuntimeError(f"no turn of {least} steps in this game; ask for fewer (--steps)")


def timed(fn: Any, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best * 1000


def run_case(game: str, options: dict[str, Any], least: int, rounds: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'b.db'}")
        store.migrate()
        tid = store.create_table(game, options, 2, [SeatSpec(HUMAN), SeatSpec(HUMAN)],
                                 seed=seed, join_as="Ann").table_id
        store.join(tid, None, "Bob")
        svc = Service(store, None, bots=False)
        loop = asyncio.new_event_loop()
        loop.run_until_complete(svc.start_table(tid))
        seat, texts = loop.run_until_complete(long_turn(svc, tid, least, seed))
        rt = loop.run_until_complete(svc.authority.runtime(tid))
        count = Counter(type(rt.state))

        def clicks(draft: Draft | None) -> list[str]:
            buffer: list[str] = []
            while len(buffer) < len(texts):
                _view, buffer, _done = loop.run_until_complete(
                    svc.preview(tid, seat, [*buffer, texts[len(buffer)]], draft=draft))
            return buffer

        def undos(draft: Draft | None, full: list[str]) -> None:
            for n in range(len(full) - 1, 0, -1):
                loop.run_until_complete(svc.preview(tid, seat, full[:n], draft=draft))

        full = clicks(None)
        n_clicks = sum(1 for _ in _click_lengths(svc, loop, tid, seat, texts))
        count.take()
        clicks(None)
        replay_steps = count.take()
        clicks(Draft())
        kept_steps = count.take()
        view_ms = timed(lambda: seat_view(rt.state, seat, rt.lines), rounds)
        replay_ms = timed(lambda: clicks(None), rounds)
        kept_ms = timed(lambda: clicks(Draft()), rounds)

        def kept_undos() -> None:
            d = Draft()
            loop.run_until_complete(svc.preview(tid, seat, full, draft=d))
            t = time.process_time()
            undos(d, full)
            kept_undos.ms = (time.process_time() - t) * 1000  # type: ignore[attr-defined]

        undo_replay_ms = timed(lambda: undos(None, full), rounds)
        kept_undo = []
        for _ in range(rounds):
            kept_undos()
            kept_undo.append(kept_undos.ms)  # type: ignore[attr-defined]
        undo_kept_ms = min(kept_undo)
        count.take()

        # committed decisions: Service.undo (the kept positions) against State.undo (replay)
        async def commit_then_undo() -> tuple[float, float]:
            for k, text in enumerate(full[:3]):
                await svc.play(tid, seat, text, rt.version, f"s{k}")
            t = time.process_time()
            replayed = rt.state.clone()
            replayed.undo()
            state_undo = time.process_time() - t
            t = time.process_time()
            await svc.undo(tid, seat, rt.version, "u")
            service_undo = time.process_time() - t
            return state_undo * 1000, service_undo * 1000

        state_undo_ms, service_undo_ms = loop.run_until_complete(commit_then_undo())
        count.restore()
        loop.close()
        store.close()
    moves = len(rt.state.history)
    print(f"\n{game} {options}: a turn of {len(full)} steps ({n_clicks} clicks) after "
          f"{moves} moves; a view alone {view_ms:.2f} ms")
    print(f"  {'':34}{'replayed':>12}{'kept turn':>12}")
    print(f"  {'engine steps, whole turn by clicks':34}{replay_steps:>12}{kept_steps:>12}")
    print(f"  {'ms, whole turn by clicks':34}{replay_ms:>12.2f}{kept_ms:>12.2f}")
    print(f"  {'ms per click':34}{replay_ms / n_clicks:>12.2f}{kept_ms / n_clicks:>12.2f}")
    print(f"  {'ms per click minus the view':34}{replay_ms / n_clicks - view_ms:>12.2f}"
          f"{kept_ms / n_clicks - view_ms:>12.2f}")
    print(f"  {'ms, browser undo to one step':34}{undo_replay_ms:>12.2f}{undo_kept_ms:>12.2f}")
    print(f"  committed decision undone: State.undo (replay) {state_undo_ms:.2f} ms, "
          f"Service.undo {service_undo_ms:.2f} ms (with the store's commit)")


def _click_lengths(svc: Service, loop: asyncio.AbstractEventLoop, tid: str, seat: int,
                   texts: list[str]) -> list[int]:
    """The length of the buffer before each click (forced steps come with a click)."""
    out, buffer = [], []
    d = Draft()
    while len(buffer) < len(texts):
        out.append(len(buffer))
        _v, buffer, _c = loop.run_until_complete(
            svc.preview(tid, seat, [*buffer, texts[len(buffer)]], draft=d))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="one game")
    ap.add_argument("--steps", type=int, default=8, help="the least steps of the turn timed")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    for game, options in CASES:
        if args.only and game != args.only:
            continue
        least = args.steps if game == "pergola" else min(args.steps, 5)
        run_case(game, options, least, args.rounds, args.seed)


if __name__ == "__main__":
    main()
