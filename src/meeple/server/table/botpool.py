"""Bot decisions in worker processes, never in the server's event loop.

A worker rebuilds the table's position from its effective moves, takes the seat's view (with
the table's seed replaced, so a bot could not foresee chance even if it tried) and asks the bot.
Each decision has a deadline; past it the server plays a quick stand-in move instead and says
so in the log (:mod:`meeple.server.table.service`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import meeple
from meeple.bots import make_bot
from meeple.server.table.positions import TableGame, game_args
from meeple.server.table.settings import BOT_DEADLINE

#: Seconds a bot decision may take before the server plays a stand-in move (unless
#: ``MEEPLE_BOT_DEADLINE`` says otherwise).
DEFAULT_DEADLINE = BOT_DEADLINE


@dataclass(frozen=True)
class Decision(TableGame):
    """What a worker needs: the game, the moves so far, the seat and the bot."""

    seat: int
    spec: str
    bot_seed: int
    #: the table's id, so a worker can keep its position for the next decision
    table: str = ""


#: Positions a worker keeps between decisions, by table: the moves played and the position
#: after them. A table's next decision then plays only the moves made since (a game's bot
#: decisions would otherwise replay the whole game each time: quadratic in its length).
_POSITIONS: OrderedDict[str, tuple[tuple[str, ...], Any]] = OrderedDict()
_KEEP = 256


class Game(Protocol):
    """What names a position: a :class:`Decision`, or a hint's job."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def variant(self) -> dict[str, Any]: ...
    @property
    def sheet(self) -> dict[str, Any] | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def moves(self) -> tuple[str, ...]: ...
    @property
    def table(self) -> str: ...


#: The bots a worker keeps between decisions, by table, seat and spec: a bot that planned a
#: whole turn (greedy, mcts) plays the rest of it from its plan (checked against the position)
#: instead of searching again at every decision of the turn.
_BOTS: OrderedDict[tuple[str, int, str], Any] = OrderedDict()


def position(d: Game) -> Any:
    """The position after ``d.moves``: the kept one moved on, or a new one replayed. The caller
    must not change it (take a view or a clone)."""
    kept = _POSITIONS.pop(d.table, None) if d.table else None
    if kept is not None and kept[0] == d.moves[:len(kept[0])]:
        done, state = kept
    else:
        done, state = (), meeple.new_game(d.game, players=d.players, seed=d.seed,
                                          **game_args(d.variant, d.sheet))
    for text in d.moves[len(done):]:
        state.play(text)
    if d.table:
        _POSITIONS[d.table] = (d.moves, state)
        while len(_POSITIONS) > _KEEP:
            _POSITIONS.popitem(last=False)
    return state


def decide(d: Decision) -> str:
    """The bot's move (its text) for ``d.seat``; runs in a worker process."""
    state = position(d)
    if state.to_move != d.seat:
        raise ValueError(f"seat {d.seat} is not to move")
    view = state.seen_by(d.seat)
    view.seed = d.bot_seed
    key = (d.table, d.seat, d.spec)
    bot = _BOTS.pop(key, None) if d.table else None
    if bot is None:
        bot = make_bot(d.spec, seed=d.bot_seed)
    if d.table:
        _BOTS[key] = bot
        while len(_BOTS) > _KEEP:
            _BOTS.popitem(last=False)
    return str(bot.choose(view, view.legal_moves()))


def _warm(parent: int) -> None:
    """A worker's start: die with the server (a ``kill -9`` of the server must not leave its
    workers behind), then load the games and bots once."""
    try:  # Linux: the kernel kills this worker when its parent dies
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    import threading

    def watch() -> None:  # elsewhere, or if the server died before the line above ran
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="meeple-parent-watch", daemon=True).start()
    meeple.games()


def ready() -> bool:
    """A no-op a new pool runs once per worker, so that its workers have started (spawned,
    games loaded) before the first decision's deadline starts to count."""
    return True


def make_pool(workers: int | None = None) -> Executor:
    """A process pool for bot decisions: ``workers`` processes (``MEEPLE_BOT_WORKERS``; none
    or 0: the core count)."""
    n = workers or (os.cpu_count() or 2)
    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_warm,
                               initargs=(os.getpid(),))


#: How much lower the workers of bot-only tables run than the server and the other bot
#: workers (``nice``, the lowest priority): when the machine is busy, the bots of a table
#: with a person get the CPU first (:mod:`meeple.server.table.botfair`).
BACKGROUND_NICE = 19


def _start_background_worker(parent: int) -> None:
    """A worker for bot-only tables: at the lowest priority from its start (loading the
    games included), then as a bot worker starts."""
    with contextlib.suppress(OSError):
        os.nice(BACKGROUND_NICE)
    _warm(parent)


def make_background_pool(workers: int) -> Executor:
    """The process pool of the bot-only tables' decisions (``MEEPLE_BOT_BACKGROUND``
    processes, at :data:`BACKGROUND_NICE`)."""
    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx,
                               initializer=_start_background_worker, initargs=(os.getpid(),))


def kill_pool(pool: Executor) -> None:
    """Stop a pool at once, its workers too (one may be stuck in an overlong decision)."""
    procs = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.kill()

