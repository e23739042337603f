"""What runs in the hint lane's worker processes: hints for a seat at a table (``GET
/api/tables/{id}/hint``) and analyses of finished games (``GET .../analysis``).

A hint runs like a bot decision (:mod:`meeple.server.table.botpool`): a worker process rebuilds the
position from the table's moves, takes the asking seat's view and asks
:func:`meeple.bots.hint.hint`, which reads that view only and replaces its seed, so a hint
cannot foresee a draw. Hints and analyses run in a pool of their own, apart from the table
bots' (:mod:`meeple.server.lanes`): its workers run at a lower priority, and each job
reports the CPU time it took (:func:`timed`), which its client's budget is charged. A hint has a
deadline (``MEEPLE_HINT_DEADLINE`` seconds, by default never less than the bots' own), an
analysis its own (``MEEPLE_ANALYSIS_DEADLINE``; both in :class:`meeple.server.edge_settings.LaneSettings`);
each counts from the request, and a worker past it is stopped.

This module is imported by the workers: nothing of the web stack here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from meeple.bots.hint import hint
from meeple.core.errors import MeepleError
from meeple.server.table.botpool import _warm, position
from meeple.server.table.positions import TableGame
from meeple.sim.analyse import analyse

#: How many other turns a hint lists beside the suggested one.
HINT_ALTERNATIVES = 3


@dataclass(frozen=True)
class HintJob(TableGame):
    """What a worker needs for a hint: the table's game and moves, the seat and the level."""

    seat: int
    level: str
    hint_seed: int
    seats: tuple[str, ...] = ()
    #: the table's id, so the worker's kept position serves the hint too
    table: str = ""


class HintFailed(MeepleError):
    """No hint (or analysis) could be given in time, or its worker failed: 503, to be asked
    again after ``retry_after`` seconds."""

    def __init__(self, reason: str, retry_after: float = 5.0) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


def hint_job(job: HintJob) -> dict[str, Any]:
    """The hint as JSON-able data; runs in a worker process, on the position the worker keeps
    for the table (:func:`meeple.server.table.botpool.position`), as a bot decision does."""
    view = position(job).seen_by(job.seat)
    if job.seats:
        view.seats = list(job.seats)
    return hint(view, job.seat, job.level, seed=job.hint_seed,
                alternatives=HINT_ALTERNATIVES).as_dict()


def analysis_job(record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a finished game (:func:`meeple.sim.analyse.analyse`, judged by its
    default judge) as JSON-able data; runs in a worker process."""
    return analyse(record).as_dict()



#: How much lower the lane's workers run than the server and its bots (``nice``): when the
#: machine is busy, a table's bots and moves get the CPU first.
LANE_NICE = 10


def timed(fn: Callable[[Any], dict[str, Any]], arg: Any) -> tuple[dict[str, Any], float]:
    """``fn(arg)`` and the CPU seconds it took in this worker; runs in a lane worker."""
    start = time.process_time()
    out = fn(arg)
    return out, time.process_time() - start


def _start_lane_worker(parent: int) -> None:
    """A lane worker's start: as a bot worker's (die with the server, load the games), at a
    lower priority."""
    _warm(parent)
    with contextlib.suppress(OSError):
        os.nice(LANE_NICE)


def make_lane_pool(workers: int) -> Executor:
    """The hint lane's process pool (``spawn``, ``workers`` processes at lower priority)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_lane_worker, initargs=(os.getpid(),))
