"""Play now: who is seated with whom, and the loop that does it.

A person asks to play a game, variant and number of seats; they wait in the store's queue
(:mod:`meeple.server.features.playnow.store`) while their page asks how it stands. Every second, one server
process of the database (PostgreSQL: whoever holds an advisory lock) looks at everyone
waiting: the one who has waited longest is seated with the others of the same wish whose
ratings are closest to theirs, within a window that widens the longer they wait
(:func:`window`); after ``anyone_after`` seconds anyone of that wish will do. Someone who said
bots may fill their table and has waited ``bots_after`` seconds is seated with whoever is
within the window and bots of the rating closest to theirs for the other seats. The table is
rated: everyone at it is an account.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from meeple.server.features.playnow.settings import PlayNowSettings
from meeple.server.features.playnow.store import Entry, Group, PlayQueue
from meeple.store.models import now

log = logging.getLogger("meeple.server")

def bucket_of(game: str, variant: Mapping[str, Any], players: int) -> str:
    """The key of a wish: people of the same key may sit at one table."""
    return f"{game}|{players}|{json.dumps(dict(variant), sort_keys=True, separators=(',', ':'))}"


def nearest_bot(rating: float, bots: Mapping[str, float]) -> str | None:
    """The difficulty whose rating is closest to ``rating`` (the weaker of two as close), or
    None without bots. Play now gives it the ratings players see (:func:`match`)."""
    if not bots:
        return None
    return min(bots, key=lambda b: (abs(bots[b] - rating), bots[b], b))


def match(waiting: Sequence[Entry], now: datetime, settings: PlayNowSettings,
          bot_ratings: Callable[[str], Mapping[str, float]],
          shown: Callable[[Entry], float] | None = None) -> list[Group]:
    """The groups to seat now, from everyone ``waiting`` (oldest first). For each wish, the
    longest waiting is seated with the others closest in rating within their window; if too
    few are, and they said bots may fill, once they waited ``bots_after`` seconds, with the
    people in the window and bots for the other seats: the difficulty whose displayed rating
    for the game (``bot_ratings(game)``: difficulty to rating) is closest to the displayed
    rating of the one who waited longest (``shown(entry)``; by default the rating it is
    matched by), so a newcomer at 1500 meets the bot whose number is nearest the one they
    see. Someone not seated waits on."""
    groups: list[Group] = []
    by_bucket: dict[str, list[Entry]] = {}
    for e in sorted(waiting, key=lambda e: (e.since, e.account_id)):
        by_bucket.setdefault(e.bucket, []).append(e)
    for pool in by_bucket.values():
        while pool:
            first = pool.pop(0)
            waited = (now - first.since).total_seconds()
            wide = settings.window_after(waited)
            near = sorted((e for e in pool if abs(e.rating - first.rating) <= wide),
                          key=lambda e: (abs(e.rating - first.rating), e.since))
            need = first.players - 1
            if len(near) >= need:
                chosen = near[:need]
                groups.append(Group((first, *chosen)))
            elif first.bots and waited >= settings.bots_after:
                chosen = near
                level = nearest_bot(first.rating if shown is None else shown(first),
                                    bot_ratings(first.game))
                if level is None:
                    continue
                groups.append(Group((first, *chosen), (level,) * (need - len(chosen))))
            else:
                continue
            for e in chosen:
                pool.remove(e)
    return groups


class Matcher:
    """The loop that seats Play now's queue (one per server process; one process of a
    database matches at a time). ``started(table_id)``: tell the server a table was made
    (its game starts: the opening is drawn and its people's pages find it)."""

    def __init__(self, queue: PlayQueue, settings: PlayNowSettings,
                 bot_ratings: Callable[[str], Mapping[str, float]],
                 started: Callable[[str], Any], rated: bool = True,
                 shown: Callable[[Entry], float] | None = None) -> None:
        self.queue, self.settings = queue, settings
        self.bot_ratings, self.started, self.rated = bot_ratings, started, rated
        self.shown = shown
        self._task: asyncio.Task[None] | None = None
        self._kicks: set[asyncio.Task[list[str]]] = set()
        self._lock: asyncio.Lock | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def kick(self) -> None:
        """Look at the queue now (someone just joined it)."""
        task = asyncio.ensure_future(self.once())
        self._kicks.add(task)
        task.add_done_callback(self._kicks.discard)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.every)
            try:
                await self.once()
            except Exception:  # the store unavailable, say: next time
                log.warning("Play now: matching failed; trying again", exc_info=True)

    async def once(self) -> list[str]:
        """One look at the queue (one at a time in this process): the tables made."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            made = await asyncio.to_thread(self._seat_all)
        for table_id in made:
            try:
                await self.started(table_id)
            except Exception:
                log.exception("Play now: table %s could not be started", table_id)
        return made

    def _seat_all(self) -> list[str]:
        with self.queue.try_lock() as mine:
            if not mine:  # another process is matching
                return []
            waiting = self.queue.waiting(self.settings.gone_after)
            made = []
            for group in match(waiting, now(), self.settings, self.bot_ratings, self.shown):
                table_id = self.queue.seat(group, rated=self.rated)
                if table_id is not None:
                    made.append(table_id)
            return made
