"""The bot scheduler: who plays a table's bot seats, when, and within what time.

A bot seat (or the stand-in of a person whose turn clock ran out) is played by a task per
table that asks its bot for a decision and plays it through the host (the
:class:`~meeple.server.table.service.Service`, which commits it like any move and tells the
clients). A bot that thinks decides in a worker process of the bot pool, within a deadline;
one that overruns is stopped (the pool is made anew) and a random legal move is played
instead. The ``random`` bot decides on the server itself, and after a person's move its whole
turn is played at once (:meth:`BotScheduler.play_inline`). Every second :meth:`tick` looks for
persons whose turn clock ran out.

It writes only a runtime's ``bot_task``, ``bots`` and ``ran_out``; every move goes through the
host, so a scheduler is tested with a host of the test's own.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from meeple.bots import make_bot
from meeple.core.errors import MeepleError
from meeple.core.state import CHANCE, State
from meeple.server.table.authority import Refused
from meeple.server.table.botfair import BotShares, bots_only, capped_spec, client_of_table
from meeple.server.table.botpool import (
    DEFAULT_DEADLINE,
    Decision,
    decide,
    kill_pool,
    make_background_pool,
    ready,
)
from meeple.server.table.runtime import Runtime
from meeple.server.table.settings import ShareSettings
from meeple.store import RUNNING, StoreUnavailable

log = logging.getLogger("meeple.server")

#: Bots whose decision costs less than handing it to a worker process (the random bot picks
#: one legal move): they decide on the server itself. Every other bot thinks in the pool, with
#: a deadline.
INLINE_BOTS = frozenset({"random"})


class Host(Protocol):
    """What the scheduler needs of the server to change a table: play a move (committed and
    told like any), mark a seat away."""

    async def play(self, table_id: str, seat: int, text: str | Sequence[str], version: int,
                   client_id: str | None, *, by_bot: bool = False, quiet: bool = False
                   ) -> object: ...

    async def set_absent(self, table_id: str, seat: int, absent: bool) -> None: ...


#: Catches a runtime up with the store (the authority's ``refresh``): whether it changed.
Refresh = Callable[[Runtime], Awaitable[bool]]
#: Tells a table's clients its turn clock (the broadcaster's ``tell_clock``).
TellClock = Callable[[Runtime], Awaitable[None]]


def bot_seed(rt: Runtime) -> int:
    """The seed of a bot's decision at the table's version now."""
    return (rt.table.seed * 1_000_003 + rt.version) % (1 << 62)


class BotScheduler:
    """Plays the bots of every table of one host: a table with a person in one pool of worker
    processes, bot-only tables in a smaller one at a lower priority, each decision handed to
    its pool once a worker is free for it (:mod:`meeple.server.table.botfair`)."""

    def __init__(self, host: Host, pool: Executor | None, *, refresh: Refresh,
                 tell_clock: TellClock, deadline: float = DEFAULT_DEADLINE,
                 enabled: bool = True,
                 new_pool: Callable[[], Executor] | None = None,
                 shares: ShareSettings | None = None,
                 new_background_pool: Callable[[int], Executor] = make_background_pool
                 ) -> None:
        self.host = host
        #: the owners' own calls: catch a table up with the store, tell its turn clock
        self.refresh, self.tell_clock = refresh, tell_clock
        self.pool = pool
        self.new_pool = new_pool
        settings = shares or ShareSettings()
        #: which waiting decision a free worker of ``pool`` takes (fair between clients)
        self.shares = BotShares(int(getattr(pool, "_max_workers", 1) or 1), settings)
        #: the bot-only tables' pool (made at their first decision) and its shares
        self.background_pool: Executor | None = None
        self.new_background_pool = new_background_pool
        self.background_shares = BotShares(settings.background, settings)
        self.deadline = deadline
        self.enabled = enabled
        self.closed = False
        #: each pool's workers have started (see :meth:`warm`); decisions wait for it
        self._pools_ready: dict[Executor, asyncio.Future[Any]] = {}

    def stop(self, runtimes: Sequence[Runtime]) -> None:
        self.closed = True
        if self.background_pool is not None:
            kill_pool(self.background_pool)
            self.background_pool = None
        for rt in runtimes:
            if rt.bot_task is not None:
                rt.bot_task.cancel()

    # ------------------------------------------------------------------ turns
    def schedule(self, rt: Runtime) -> None:
        """Start the table's bot task if a bot (or a stand-in at its own pace) is to move."""
        if not self.enabled or self.closed or rt.table.status != RUNNING or rt.busy():
            return
        to_move = rt.state.to_move
        if to_move is None or to_move == CHANCE or rt.bot_for(to_move) is None:
            return
        rt.bot_task = asyncio.ensure_future(self._bot_turns(rt))

    async def _bot_turns(self, rt: Runtime) -> None:
        """Let bots play while a bot (or a stand-in) is to move."""
        for _ in range(10_000):
            seat = rt.state.to_move
            if seat is None or seat == CHANCE or rt.table.status != RUNNING:
                return
            spec = rt.bot_for(seat)
            if spec is None:
                return
            version = rt.version
            text = await self._bot_decision(rt, seat, spec)
            await self._bot_move(rt, seat, text, version)
            if rt.bot_task is not asyncio.current_task():
                return

    async def play_inline(self, rt: Runtime) -> None:
        """After a person's move: the moves of the bots that decide on the server itself
        (:data:`INLINE_BOTS`) and are to move next, played now, so the clients get one view
        of the position after them all instead of one per move (at most a few turns)."""
        for _ in range(64):
            seat = rt.state.to_move
            if (seat is None or seat == CHANCE or rt.table.status != RUNNING or self.closed
                    or not self.enabled or rt.bot_for(seat) not in INLINE_BOTS):
                return
            if rt.busy():
                return  # the table's bot task plays them
            version, spec = rt.version, str(rt.bot_for(seat))
            # the bot's decisions up to the end of its turn (or a roll), stored in one commit
            # as a person's confirmed turn is
            trial, texts = rt.state.clone(), list[str]()
            while trial.to_move == seat and len(texts) < 64:
                texts.append(self._decide_here(rt, seat, spec, trial))
                trial.play(texts[-1])
            try:
                await self.host.play(rt.table.id, seat, texts, version, None, by_bot=True,
                                     quiet=True)
            except (Refused, StoreUnavailable):
                return  # the bot task plays it later (schedule, after the broadcast)

    async def _bot_decision(self, rt: Runtime, seat: int, spec: str) -> str:
        """What the bot ``spec`` plays for ``seat`` at the table's position now (a random
        legal move if it missed its deadline or failed)."""
        if spec in INLINE_BOTS:
            text: str | None = self._decide_here(rt, seat, spec)
        else:
            text = await self.decide(self._decision(rt, seat, spec, self.shares.settings),
                                     client_of_table(rt.table), bots_only(rt.table))
        if text is None:  # missed its deadline or failed: a random legal move instead
            text = str(make_bot("random", seed=bot_seed(rt)).choose(
                rt.state.seen_by(seat), rt.state.legal_moves()))
        return text

    async def _bot_move(self, rt: Runtime, seat: int, text: str, version: int) -> None:
        """Play a bot's move made at ``version``; if someone else moved meanwhile, look again.
        While the store is unavailable (its database down, its disk full) the move is tried
        again, every 0.2 s at first and every 2 s at most, until it is stored or refused: an
        outage pauses a table's bots, it never leaves the table stuck."""
        for tries in itertools.count():
            try:
                try:
                    await self.host.play(rt.table.id, seat, text, version, None, by_bot=True)
                except Refused:
                    await self.refresh(rt)  # someone else moved meanwhile: look again
                return
            except StoreUnavailable as exc:
                if self.closed:
                    return
                if tries == 0:
                    log.warning("table %s: the bot's move waits for the store: %s",
                                rt.table.id, exc)
                await asyncio.sleep(min(0.2 * 2 ** min(tries, 4), 2.0))

    @staticmethod
    def _decision(rt: Runtime, seat: int, spec: str, shares: ShareSettings) -> Decision:
        """What a bot of ``spec`` decides for ``seat`` at the table's position now (at a
        bot-only table, thinking at most ``shares.bot_only_seconds``)."""
        t = rt.table
        if bots_only(t):
            spec = capped_spec(spec, shares.bot_only_seconds)
        return Decision(t.game, t.players, t.variant, t.sheet, t.seed,
                        tuple(str(m) for m in rt.state.history), seat, spec, bot_seed(rt), t.id)

    @staticmethod
    def _decide_here(rt: Runtime, seat: int, spec: str, state: State[Any] | None = None
                     ) -> str:
        """The move of a bot that decides in microseconds (:data:`INLINE_BOTS`), made on the
        server itself, as a worker would make it (one bot per seat, kept while the table is),
        at the table's position or at ``state`` (a position later in the same turn)."""
        bot = rt.bots.get((seat, spec))
        if bot is None:
            bot = rt.bots[(seat, spec)] = make_bot(spec, seed=bot_seed(rt))
        view = (rt.state if state is None else state).seen_by(seat)
        view.seed = bot_seed(rt)
        return str(bot.choose(view, view.legal_moves()))

    # ------------------------------------------------------------------ the turn clock
    def tick(self, runtimes: Sequence[Runtime]) -> None:
        """Once a second: every person to move whose turn clock ran out gets a stand-in."""
        for rt in runtimes:
            left = rt.clock_left()
            seat = rt.state.to_move
            if left is None or left > 0 or seat is None or seat == CHANCE or rt.busy():
                continue
            rt.bot_task = asyncio.ensure_future(self._time_ran_out(rt, seat))

    @staticmethod
    def seat_back(rt: Runtime, seat: int) -> None:
        """The person of ``seat`` took it back: what its stand-in played is no longer shown."""
        rt.ran_out.pop(seat, None)

    async def _time_ran_out(self, rt: Runtime, seat: int) -> None:
        """The turn clock of the person at ``seat`` ran out: the seat goes to its stand-in
        bot (Board Game Arena's zombie mode). While a connection of the seat is open (their
        page is there) the stand-in plays one decision now and one more each time the clock
        runs out again, and the person takes the seat back at their next click (a preview,
        a move or ``back``); with no connection open it plays on at a bot's pace, so nobody
        waits for a person who has gone."""
        log.info("table %s: seat %s ran out of time; a stand-in bot plays for it",
                 rt.table.id, seat)
        try:
            await self._stand_in_for(rt, seat)
        finally:  # this task held the table's bots back: now the bots to move may play
            if rt.bot_task is asyncio.current_task():
                rt.bot_task = None
            self.schedule(rt)

    async def _stand_in_for(self, rt: Runtime, seat: int) -> None:
        try:
            if not rt.table.seats[seat].absent:
                await self.host.set_absent(rt.table.id, seat, True)
        except MeepleError as exc:  # the store unavailable: the next tick tries again
            log.warning("table %s: no stand-in for seat %s yet: %s", rt.table.id, seat, exc)
            return
        if rt.state.to_move != seat or rt.table.status != RUNNING:
            return
        if rt.bot_for(seat) is not None:  # nobody there: it plays on at a bot's pace
            await self._bot_turns(rt)
            return
        version = rt.version
        text = await self._bot_decision(rt, seat, rt.stand_in(seat))
        if rt.state.to_move != seat or rt.version != version:
            return  # the person (or another process) moved meanwhile
        before = list(rt.ran_out.get(seat, ([], 0))[0])
        await self._bot_move(rt, seat, text, version)
        if rt.version != version and rt.table.seats[seat].absent:
            rt.ran_out[seat] = ([*before, text][-16:], rt.version)
            await self.tell_clock(rt)

    # ------------------------------------------------------------------ the pool
    async def decide(self, d: Decision, client: str = "", background: bool = False
                     ) -> str | None:
        """The bot's move, or None if it missed its deadline or failed (then the caller plays a
        stand-in move). A worker that overruns is stopped: the pool is made anew, and decisions
        that were under way in it are asked again.

        A bot-only table's decision (``background``) goes to the background pool, any other
        to the pool; either is handed to its pool only once a worker is free for it within
        ``client``'s share (the table's creator; :class:`~meeple.server.table.botfair.BotShares`), so
        no pool queues one client's flood ahead of another's table.

        The deadline counts think time, not time spent waiting: not a new pool's start-up (see
        :meth:`warm`), nor a decision's wait in the queue behind others while many bots think
        at once. A decision is an overrun once it has been running (handed to a worker) for a
        whole deadline, so a bot is stopped after one to two deadlines of thinking."""
        shares = self.background_shares if background else self.shares
        for _attempt in range(3):
            pool = self.pool_for(background)
            if pool is None:
                return decide(d)
            try:
                await self.warm(pool)
                async with shares.turn(client, background):
                    if self.pool_for(background) is not pool:
                        continue  # the pool was made anew while this waited: ask the new one
                    return await self._run_with_deadline(pool, d)
            except TimeoutError:
                log.warning("table bot %s missed its %.1f s deadline; a stand-in move is played",
                            d.spec, self.deadline)
                self.renew_pool(pool)
                return None
            except BrokenProcessPool:
                self.pool_broken(pool)
                continue  # the pool was made anew (here, or by another decision): ask again
            except Exception as exc:
                log.error("bot %s failed (%s); a stand-in move is played", d.spec, exc)
                return None
        return None

    def pool_for(self, background: bool) -> Executor | None:
        """The pool a decision goes to: the bot-only tables' (made now if it is not yet) for
        ``background``, else the pool (None: decisions are made here, as in tests)."""
        if not background or self.pool is None or self.closed:
            return self.pool
        if self.background_pool is None:
            self.background_pool = self.new_background_pool(self.background_shares.workers)
        return self.background_pool

    async def _run_with_deadline(self, pool: Executor, d: Decision) -> str:
        future = pool.submit(decide, d)
        waiting = asyncio.wrap_future(future)
        started_before = False
        for _period in range(1000):  # queued at most ~1000 deadlines, then given up on
            try:
                return await asyncio.wait_for(asyncio.shield(waiting), self.deadline)
            except TimeoutError:
                if started_before:  # running for at least a whole deadline: an overrun
                    future.cancel()
                    raise
                started_before = future.running()
        future.cancel()
        raise TimeoutError

    async def warm(self, pool: Executor) -> None:
        """Start ``pool``'s workers once (spawning them and loading the games can take
        seconds on a busy machine), before any decision's deadline counts."""
        ready_all = self._pools_ready.get(pool)
        if ready_all is None:
            loop = asyncio.get_running_loop()
            workers = int(getattr(pool, "_max_workers", 1) or 1)
            ready_all = self._pools_ready[pool] = asyncio.gather(
                *(loop.run_in_executor(pool, ready) for _ in range(workers)))
        await asyncio.shield(ready_all)

    def pool_broken(self, pool: Executor) -> None:
        """A worker of ``pool`` died (killed, out of memory): the pool is broken for good, every
        decision sent to it fails at once. It is made anew (unless that was done already) and
        the decisions under way in it are asked again."""
        if pool in (self.pool, self.background_pool):
            log.warning("a bot worker died; the bot pool is made anew")
        self.renew_pool(pool)

    def renew_pool(self, pool: Executor) -> None:
        """Make ``pool`` anew (the pool or the bot-only tables' one) and stop the old one,
        unless that was done already."""
        if pool is self.background_pool:
            self.background_pool = self.new_background_pool(self.background_shares.workers)
        elif self.pool is pool and self.new_pool is not None:
            self.pool = self.new_pool()
        else:
            return
        self._pools_ready.pop(pool, None)
        kill_pool(pool)
