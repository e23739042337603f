"""The tournaments' scheduler: a loop in every server process that, once a second, looks at
the tournaments whose time has come (:meth:`.store.Tournaments.step`): starts them, pairs each
round when the last one's tables have all finished, seats an Arena's free players while its
window is open, and finishes them. Everything it knows is in the store, so a restarted
process carries on where the last one stopped. On PostgreSQL one process of the database
steps at a time (an advisory lock; the others skip that second), and the round's unique
(tournament, number) row is the guard behind it: a round is paired once, whoever tries."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from meeple.server.features.tournaments.store import Tournaments
from meeple.store.locks import AdvisoryLock
from meeple.store.models import now

log = logging.getLogger("meeple.server")

#: The PostgreSQL advisory lock a server process holds while it steps the tournaments.
STEP_LOCK = 53_000_015

#: Seconds between two looks at the tournaments.
EVERY = 1.0


class Scheduler:
    """The loop that runs the tournaments (one per server process). ``started(table_id)``:
    tell the server a table was made (its game starts and its players' pages find it)."""

    def __init__(self, tournaments: Tournaments, started: Callable[[str], Any],
                 every: float = EVERY) -> None:
        self.tournaments, self.started, self.every = tournaments, started, every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.once()
            except Exception:  # the store unavailable, say: next time
                log.warning("tournaments: a step failed; trying again", exc_info=True)

    async def once(self) -> list[str]:
        """One look at every tournament due (off the event loop: pairing 64 players takes
        most of a second); the tables made are started here."""
        made = await asyncio.to_thread(self._step_all)
        for table_id in made:
            try:
                await self.started(table_id)
            except Exception:
                log.exception("tournaments: table %s could not be started", table_id)
        return made

    def _step_all(self) -> list[str]:
        with AdvisoryLock(self.tournaments.store, STEP_LOCK) as mine:
            if not mine:  # another process is stepping
                return []
            made: list[str] = []
            when = now()
            for tournament_id in self.tournaments.due(when):
                try:
                    made += self.tournaments.step(tournament_id, when)
                except Exception:  # one broken tournament must not stop the others
                    log.exception("tournaments: %s could not be stepped", tournament_id)
            return made
