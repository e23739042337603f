"""Hints for a seat at a table (``GET /api/tables/{id}/hint``), computed in the bot workers.

A hint runs like a bot decision (:mod:`meeple.server.botpool`): a worker process rebuilds the
position from the table's moves, takes the asking seat's view and asks
:func:`meeple.bots.hint.hint`, which reads that view only and replaces its seed, so a hint
cannot foresee a draw. It has a deadline (``MEEPLE_HINT_DEADLINE`` seconds, default
:data:`DEFAULT_HINT_DEADLINE`, never less than the bots' own): a worker past it is stopped (the
pool is made anew) and the request is answered with an error instead. The deadline counts from
the request, so it also covers a worker still starting (a cold pool) or busy with a bot.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.bots.hint import hint
from meeple.core.errors import MeepleError
from meeple.server.botpool import position
from meeple.server.positions import TableGame
from meeple.sim.analyse import analyse

if TYPE_CHECKING:
    from meeple.server.service import Service

#: How many other turns a hint lists beside the suggested one.
HINT_ALTERNATIVES = 3
#: Seconds a hint may take, from the request, unless ``MEEPLE_HINT_DEADLINE`` says otherwise.
DEFAULT_HINT_DEADLINE = 30.0


def hint_deadline(bot_deadline: float) -> float:
    """``MEEPLE_HINT_DEADLINE`` if set, else the larger of the default and the bots' deadline."""
    value = os.environ.get("MEEPLE_HINT_DEADLINE")
    return float(value) if value else max(DEFAULT_HINT_DEADLINE, bot_deadline)


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
    """No hint could be given in time (or the worker failed)."""


def hint_job(job: HintJob) -> dict[str, Any]:
    """The hint as JSON-able data; runs in a worker process, on the position the worker keeps
    for the table (:func:`meeple.server.botpool.position`), as a bot decision does."""
    view = position(job).seen_by(job.seat)
    if job.seats:
        view.seats = list(job.seats)
    return hint(view, job.seat, job.level, seed=job.hint_seed,
                alternatives=HINT_ALTERNATIVES).as_dict()


def analysis_job(record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a finished game (:func:`meeple.sim.analyse.analyse`, judged by its
    default judge) as JSON-able data; runs in a worker process."""
    return analyse(record).as_dict()


async def run_hint(svc: Service, job: HintJob) -> dict[str, Any]:
    """``job`` in the service's bot pool within its bot deadline (in a thread if the server
    runs without bot workers), never in the event loop. Raises :class:`HintFailed`."""
    return await in_pool(svc, hint_job, job, hint_deadline(svc.bot_deadline),
                         "the hint took longer than {deadline:g} s; try an easier level "
                         "(easy, or greedy)")


#: Seconds the analysis of a whole game may take (a Pergola game needs a few CPU seconds).
ANALYSIS_DEADLINE = 120.0


async def run_analysis(svc: Service, record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a finished game, in the bot pool like a hint. Raises
    :class:`HintFailed`."""
    return await in_pool(svc, analysis_job, record, ANALYSIS_DEADLINE,
                         "the analysis took longer than {deadline:g} s")


async def in_pool(svc: Service, fn: Any, arg: Any, deadline: float, too_long: str
                  ) -> dict[str, Any]:
    """``fn(arg)`` in the service's bot pool (a thread without one) within ``deadline``
    seconds from now; an overrunning worker is stopped. Raises :class:`HintFailed`."""
    loop = asyncio.get_running_loop()
    for _attempt in range(3):
        pool = svc.pool
        try:
            if pool is None:
                out: dict[str, Any] = await asyncio.wait_for(asyncio.to_thread(fn, arg),
                                                             deadline)
                return out
            out = await asyncio.wait_for(loop.run_in_executor(pool, fn, arg), deadline)
            return out
        except TimeoutError:
            if pool is not None:
                svc.bots.renew_pool(pool)  # the overrunning worker is stopped
            raise HintFailed(too_long.format(deadline=deadline)) from None
        except BrokenProcessPool:
            if pool is not None:
                svc.bots.pool_broken(pool)  # a worker died: the pool is made anew
            continue  # (or a bot's overrun renewed it meanwhile): ask again
        except MeepleError:
            raise
        except Exception as exc:  # a failing worker must not take the endpoint down with it
            raise HintFailed(f"it failed ({type(exc).__name__}: {exc})") from None
    raise HintFailed("the bot workers are restarting; ask for the hint again")
