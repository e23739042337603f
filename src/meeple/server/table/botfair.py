"""Fair shares of the bot workers: a person's bots are never queued behind another client's
flood of bot-only tables.

The bot pool (:mod:`meeple.server.table.botpool`) ran every decision first come, first served, so
one client's twenty bot-only tables of ``mcts:seconds=10`` bots kept every worker busy and
every other table's bots waited minutes. Now:

- **tables with a person first**: a table with a human seat (a person plays there, or played
  and left it to stand-ins) has the bot pool (``MEEPLE_BOT_WORKERS`` processes) to itself;
  a bot-only table (a demo nobody waits for) thinks in a pool of its own,
  ``MEEPLE_BOT_BACKGROUND`` processes (default 1) at the lowest priority (``nice`` 19,
  :func:`~meeple.server.table.botpool.make_background_pool`), made at the first bot-only decision;
  so bot-only tables never take a worker from a person's table, nor much of the CPU while
  it thinks, and one that overruns its deadline renews only its own pool;
- **one bounded slice per client**: a decision is handed to its pool only when a worker is
  free for it (the pool never queues one client's work ahead of another's), and
  :class:`BotShares` chooses which waiting decision a freed worker takes: among those whose
  client is under its share, the client with the fewest running first, then the one that
  waited longest. A client's bot-only tables run one decision at a time, all of them
  together; a client's tables with a person at most ``MEEPLE_BOT_PER_CLIENT`` at once (by
  default every worker but one, at least one), so no client holds every worker of the pool;
- **long thinking is bounded**: a bot of a bot-only table thinks at most
  ``MEEPLE_BOT_ONLY_SECONDS`` (3 s, what the ``hard`` presets allow themselves) a decision:
  an ``mcts`` spec's ``seconds`` and ``cpu`` are capped at it (:func:`capped_spec`); a table
  with a person keeps its bots as asked (within the client limits, :mod:`meeple.bots.limits`).

A table's client is its creator (``Table.creator``: the digest of the creating address, as the
per-client limits count it, :mod:`meeple.server.quotas`), kept in the store, so every server
process on one database, and every process after a restart, shares a client's tables the
same way. A table made before creators were kept, or by the store directly, counts as the one
client ``unknown``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from meeple.bots.base import parse_options
from meeple.server.table.settings import ShareSettings
from meeple.store import BOT, Table

#: The client of a table whose creator was not kept.
UNKNOWN = "unknown"


def bots_only(table: Table) -> bool:
    """Whether every seat of ``table`` is a bot's (nobody plays there: its bots go last)."""
    return all(s.kind == BOT for s in table.seats)


def client_of_table(table: Table) -> str:
    """Whose share a table's bot decisions count in: its creator's."""
    return table.creator or UNKNOWN


def capped_spec(spec: str, seconds: float) -> str:
    """``spec`` with its thinking capped at ``seconds`` a decision: an ``mcts`` spec's
    ``seconds`` (its wall-clock cap, added if it has none) and ``cpu`` no larger than it. Other
    bots (``greedy``, ``random``, the named difficulties, whose presets cap themselves at 3 s)
    are returned as they are."""
    name, colon, rest = spec.partition(":")
    if name.strip() != "mcts" or seconds <= 0:
        return spec
    options = parse_options(rest) if colon else {}
    for key in ("seconds", "cpu"):
        value = options.get(key)
        if isinstance(value, (int, float)) and 0 < value <= seconds:
            continue
        if key == "seconds" or isinstance(value, (int, float)):
            options[key] = seconds
    return "mcts:" + ";".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                              for k, v in options.items())


@dataclass(eq=False)
class _Waiter:
    client: str
    background: bool
    order: int
    granted: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class BotShares:
    """Which waiting bot decision a free worker of one pool takes (the module's docstring);
    ``workers`` is the pool's size. A client's decisions of bot-only tables (``background``)
    run one at a time, its others at most ``per_client`` at once."""

    def __init__(self, workers: int, settings: ShareSettings | None = None) -> None:
        self.settings = settings or ShareSettings()
        self.workers = max(1, workers)
        self.per_client = min(self.workers,
                              self.settings.per_client or max(1, self.workers - 1))
        self.running = 0
        #: decisions running, by client
        self.by_client: Counter[str] = Counter()
        #: decisions waiting for a worker, oldest first
        self.waiting: list[_Waiter] = []
        self._order = itertools.count()

    @asynccontextmanager
    async def turn(self, client: str, background: bool) -> AsyncIterator[None]:
        """Wait for a worker that ``client``'s decision may take (of a bot-only table if
        ``background``), hold it while the body runs, then hand it on."""
        waiter = _Waiter(client, background, next(self._order))
        self.waiting.append(waiter)
        self._grant()
        try:
            await waiter.granted
        except asyncio.CancelledError:
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif waiter.granted.done() and not waiter.granted.cancelled():
                self._release(waiter)
            raise
        try:
            yield
        finally:
            self._release(waiter)

    def share(self, w: _Waiter) -> int:
        """How many decisions ``w``'s client may have running at once in this pool."""
        return 1 if w.background else self.per_client

    def _next(self) -> _Waiter | None:
        """The waiting decision a free worker takes: of a client under its share, a table
        with a person before a bot-only one (should one pool have both), then the client with
        the fewest running, then the one that waited longest."""
        eligible = [w for w in self.waiting if not w.granted.done()  # (cancelled)
                    and self.by_client[w.client] < self.share(w)]
        if not eligible:
            return None
        return min(eligible, key=lambda w: (w.background, self.by_client[w.client], w.order))

    def _grant(self) -> None:
        while self.running < self.workers:
            w = self._next()
            if w is None:
                return
            self.waiting.remove(w)
            self.running += 1
            self.by_client[w.client] += 1
            w.granted.set_result(None)

    def _release(self, w: _Waiter) -> None:
        self.running -= 1
        self.by_client[w.client] -= 1
        if self.by_client[w.client] <= 0:
            del self.by_client[w.client]
        self._grant()
