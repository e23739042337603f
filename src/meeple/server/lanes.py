"""The hint lane: hints and analyses in worker processes of their own.

A table's bots never wait for a hint or an analysis: those run in the lane's own process pool
(``MEEPLE_HINT_WORKERS`` processes, default 1, at a lower priority than the server and the bot
workers; :func:`meeple.server.table.hints.make_lane_pool`), never in the bots' pool
(:class:`~meeple.server.table.scheduler.BotScheduler`). What the lane takes is bounded:

- at most ``MEEPLE_HINT_QUEUE`` jobs in it at once, running or waiting for a worker (beyond:
  503, the lane is full);
- at most ``MEEPLE_HINT_PER_CLIENT`` of them from one client (beyond: 429);
- at most ``MEEPLE_HINT_CPU`` worker CPU seconds per client in any 60 s, as the workers measure
  them (beyond: 429 until enough of it is a minute old);
- each job within its deadline from the request (a hint's ``MEEPLE_HINT_DEADLINE``, an
  analysis's ``MEEPLE_ANALYSIS_DEADLINE``): one that waited that long for a worker is given up
  (503), one that ran past it is stopped with its worker, the pool made anew (503).

A job is handed to a worker only when one is free, so its run time is its own. Every refusal
carries a ``Retry-After``, and a pool renewed under a job (another job's overrun, a worker that
died) never gives a 500: the job is asked again in the new pool, or refused with 503.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Annotated, Any, NoReturn

from fastapi import Depends
from starlette.requests import HTTPConnection

from meeple.core.errors import MeepleError
from meeple.server.edge_settings import LaneSettings
from meeple.server.quotas import Throttled
from meeple.server.site import site_of
from meeple.server.table.botpool import kill_pool, ready
from meeple.server.table.hints import HintFailed, make_lane_pool, timed

log = logging.getLogger("meeple.server")

#: The window of the CPU budget, in seconds.
CPU_WINDOW = 60.0


class _Again(Exception):
    """The pool was renewed under a job (it did not run to its end): ask it again."""


@dataclass
class Lane:
    """Hints and analyses, bounded per client and in all (module docstring)."""

    settings: LaneSettings = field(default_factory=LaneSettings)
    #: worker processes (False: threads, for a server without bot workers)
    processes: bool = True
    #: makes the pool (tests give their own)
    new_pool: Callable[[int], Executor] = make_lane_pool

    def __post_init__(self) -> None:
        self.pool: Executor | None = None
        self._ready: asyncio.Future[Any] | None = None
        self._ready_pool: Executor | None = None
        self._slots = asyncio.Semaphore(max(1, self.settings.workers))
        #: jobs admitted (running or waiting for a worker), in all and by client
        self.admitted = 0
        self.by_client: Counter[str] = Counter()
        #: CPU seconds each client's jobs took, with when they ended (the last minute's)
        self._spent: dict[str, deque[tuple[float, float]]] = {}
        #: the typical run time of a job lately, for Retry-After
        self._typical = 2.0
        self._charges = 0
        #: jobs several clients asked for at once (an analysis by table), run once
        self._shared: dict[str, asyncio.Future[Any]] = {}
        #: how often the pool was made anew (a job's overrun, a worker that died)
        self.renewals = 0
        self.closed = False

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Make the pool; its workers start with the first job (a server nobody asks a hint
        of runs none)."""
        if self.processes and self.settings.workers > 0:
            self.pool = self.new_pool(self.settings.workers)

    def stop(self) -> None:
        self.closed = True
        if self.pool is not None:
            kill_pool(self.pool)
            self.pool = None

    def _warm(self, pool: Executor) -> asyncio.Future[Any]:
        """Start ``pool``'s workers once (spawning them and loading the games takes a second
        or more); a job waits for it, within its deadline."""
        if self._ready is None or self._ready_pool is not pool:
            loop = asyncio.get_running_loop()
            self._ready = asyncio.gather(*(loop.run_in_executor(pool, ready)
                                           for _ in range(self.settings.workers)))
            self._ready.add_done_callback(_quiet)
            self._ready_pool = pool
        return self._ready

    def _renew(self, pool: Executor, why: str) -> None:
        """Stop ``pool`` (with whatever runs in it) and make a new one, unless that was done."""
        if self.pool is not pool or self.closed:
            return
        log.warning("the hint lane's pool is made anew: %s", why)
        self.renewals += 1
        self.pool = self.new_pool(self.settings.workers)
        kill_pool(pool)

    # ------------------------------------------------------------------ admission
    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def spent(self, client: str) -> float:
        """CPU seconds ``client``'s jobs took in the last minute."""
        ledger = self._spent.get(client)
        if not ledger:
            return 0.0
        cutoff = self._now() - CPU_WINDOW
        while ledger and ledger[0][0] <= cutoff:
            ledger.popleft()
        if not ledger:
            del self._spent[client]
            return 0.0
        return sum(seconds for _, seconds in ledger)

    def _charge(self, client: str, seconds: float) -> None:
        self._spent.setdefault(client, deque()).append((self._now(), seconds))
        self._typical = 0.8 * self._typical + 0.2 * max(0.1, seconds)
        self._charges += 1
        if self._charges % 256 == 0:  # clients gone for a minute are forgotten
            for gone in list(self._spent):
                self.spent(gone)

    def admit(self, client: str) -> None:
        """Raise :class:`Throttled` unless a job of ``client`` may enter the lane now."""
        s, name = self.settings, "hints and analyses"
        if self.closed:
            raise Throttled(503, "the server is stopping; try again in a moment",
                            "shutdown", 5)
        if self.by_client[client] >= s.per_client:
            var = LaneSettings.variable("per_client")
            raise Throttled(429, f"your address has {self.by_client[client]} {name} under "
                                 f"way (at most {s.per_client}, {var}): wait for them",
                            var, self._typical)
        if s.cpu_per_minute and (used := self.spent(client)) >= s.cpu_per_minute:
            var = LaneSettings.variable("cpu_per_minute")
            raise Throttled(429, f"your {name} took {used:.0f} CPU seconds in the last minute "
                                 f"(at most {s.cpu_per_minute:g}, {var}); try again in "
                                 f"{math.ceil(self._budget_back(client))} s", var,
                            self._budget_back(client))
        if self.admitted >= s.queue:
            var = LaneSettings.variable("queue")
            wait = self._typical * self.admitted / max(1, s.workers)
            raise Throttled(503, f"the hint lane is full ({self.admitted} hints and analyses "
                                 f"under way, at most {s.queue}, {var}); try again in "
                                 f"{math.ceil(wait)} s", var, wait)

    def _budget_back(self, client: str) -> float:
        """Seconds until ``client``'s CPU in the last minute falls below its budget."""
        ledger = self._spent.get(client) or deque()
        total = sum(seconds for _, seconds in ledger)
        for ended, seconds in ledger:
            total -= seconds
            if total < self.settings.cpu_per_minute:
                return max(1.0, ended + CPU_WINDOW - self._now())
        return 1.0

    # ------------------------------------------------------------------ jobs
    async def run(self, client: str, fn: Callable[[Any], dict[str, Any]], arg: Any,
                  deadline: float, too_long: str, share: str | None = None
                  ) -> dict[str, Any]:
        """``fn(arg)`` in a lane worker for ``client`` within ``deadline`` seconds from now.
        ``share``: a key under which a job
        asked again while under way (by anyone) waits for the same answer instead of running
        twice. Raises :class:`Throttled` (not admitted) or :class:`HintFailed` (503: too
        long, or failed)."""
        if share is not None and (under_way := self._shared.get(share)) is not None:
            out: dict[str, Any] = await asyncio.shield(under_way)
            return out
        self.admit(client)
        self.admitted += 1
        self.by_client[client] += 1
        job = asyncio.ensure_future(self._admitted(client, fn, arg, self._now() + deadline,
                                                   too_long))
        job.add_done_callback(lambda _: self._left(client))
        if share is not None:
            self._shared[share] = job
            job.add_done_callback(lambda _: self._shared.pop(share, None))
        job.add_done_callback(_quiet)
        out = await asyncio.shield(job)
        return out

    def _left(self, client: str) -> None:
        self.admitted -= 1
        self.by_client[client] -= 1
        if self.by_client[client] <= 0:
            del self.by_client[client]

    async def _admitted(self, client: str, fn: Callable[[Any], dict[str, Any]], arg: Any,
                        until: float, too_long: str) -> dict[str, Any]:
        for _attempt in range(3):
            left = until - self._now()
            if left <= 0:
                raise HintFailed(too_long, self._typical)
            try:  # a free worker, in turn
                await asyncio.wait_for(self._slots.acquire(), left)
            except TimeoutError:
                raise HintFailed(f"{too_long} (it waited for a free worker all that time: the "
                                 "lane is busy)", self._typical) from None
            try:
                return await self._once(client, fn, arg, until, too_long)
            except _Again:
                continue
            finally:
                self._slots.release()
        raise HintFailed("the hint workers are restarting; ask again in a moment", 3)

    async def _once(self, client: str, fn: Callable[[Any], dict[str, Any]], arg: Any,
                    until: float, too_long: str) -> dict[str, Any]:
        """One try in the pool as it is now (a thread without one)."""
        pool = self.pool
        if pool is None:
            try:
                out, cpu = await asyncio.wait_for(asyncio.to_thread(timed, fn, arg),
                                                  until - self._now())
            except TimeoutError:  # (a thread cannot be stopped: it ends by itself)
                raise HintFailed(too_long, self._typical) from None
            self._charge(client, cpu)
            return out
        try:
            await asyncio.wait_for(asyncio.shield(self._warm(pool)), until - self._now())
        except TimeoutError:
            raise HintFailed(f"{too_long} (the workers were still starting)", 3) from None
        except (BrokenProcessPool, RuntimeError, asyncio.CancelledError) as exc:
            self._lost(pool, exc)
        try:
            future = pool.submit(timed, fn, arg)
        except (BrokenProcessPool, RuntimeError) as exc:  # broken, or shut down meanwhile
            self._lost(pool, exc)
        started = self._now()
        try:
            out, cpu = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                              until - self._now())
        except TimeoutError:
            self._charge(client, self._now() - started)
            self._renew(pool, "a job ran past its deadline")  # the worker is stopped
            raise HintFailed(too_long, self._typical) from None
        except (BrokenProcessPool, asyncio.CancelledError) as exc:
            self._lost(pool, exc)
        except MeepleError:
            raise
        except Exception as exc:  # a failing worker must not take the endpoint down with it
            raise HintFailed(f"it failed ({type(exc).__name__}: {exc})") from None
        self._charge(client, cpu)
        return out

    def _lost(self, pool: Executor, exc: BaseException) -> NoReturn:
        """The job's pool went under it: our own cancellation goes on (the request is gone);
        a pool that broke (a worker died) or was renewed (another job's overrun, which
        cancels what waits in it) is made anew, and the job asked again (:class:`_Again`)."""
        task = asyncio.current_task()
        if isinstance(exc, asyncio.CancelledError) and task is not None and task.cancelling():
            raise exc
        if isinstance(exc, BrokenProcessPool):
            self._renew(pool, "a worker died")
        raise _Again from None


def _quiet(future: asyncio.Future[Any]) -> None:
    """Retrieve a background future's exception (no 'never retrieved' warning)."""
    if not future.cancelled():
        future.exception()


def get_lane(conn: HTTPConnection) -> Lane:
    """The app's :class:`Lane` (set by its lifespan)."""
    return site_of(conn).lane


LaneDep = Annotated[Lane, Depends(get_lane)]
