"""Group commit: the moves of many tables stored in one transaction.

Every accepted move waits for its commit before it is acknowledged. Committed one by one, each
move pays a transaction of its own (and, on SQLite, waits its turn for the one writer); under
load most of a move's round trip was that queue. The :class:`Committer` is one writer thread:
it takes every append waiting when it is free, stores them together with
:meth:`meeple.store.Store.append_group` (one transaction, each table's guarded update as
before), and answers each waiting move with its own result. A lone move is committed at once,
as before; under load a commit carries the moves that arrived while the last one was written.
Nothing is acknowledged before its transaction committed, so nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Sequence
from typing import Any

from meeple.store import Append, Entry, Store

#: The most appends in one transaction (a bound on how long one commit takes).
MAX_GROUP = 64


class Committer:
    """One writer thread for a store; :meth:`append` is awaited by the event loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[tuple[Append, asyncio.Future[int],
                                             asyncio.AbstractEventLoop] | None] = (
            queue.SimpleQueue())
        self._thread = threading.Thread(target=self._run, name="meeple-commit", daemon=True)
        self._thread.start()
        #: appends asked for, groups committed and appends in them (the benchmark's figures)
        self.submitted = 0
        self.groups = 0
        self.appends = 0

    async def append(self, table_id: str, expected: int, entries: Sequence[Entry], *,
                     finished_result: list[Any] | None = None,
                     places: Sequence[int] | None = None) -> int:
        """:meth:`Store.append`, committed with whatever else is waiting."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self.submitted += 1
        self._queue.put((Append(table_id, expected, entries, finished_result, places), future,
                         loop))
        return await future

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            with contextlib.suppress(queue.Empty):
                while len(group) < MAX_GROUP:
                    item = self._queue.get_nowait()
                    if item is None:
                        self._queue.put(None)  # stop after this group
                        break
                    group.append(item)
            try:
                answers: list[int | BaseException] = list(
                    self.store.append_group([a for a, _, _ in group]))
            except Exception as exc:  # every move of the group fails alike
                answers = [exc] * len(group)
            self.groups += 1
            self.appends += len(group)
            for (_, future, loop), answer in zip(group, answers, strict=True):
                loop.call_soon_threadsafe(_settle, future, answer)


def _settle(future: asyncio.Future[int], answer: int | BaseException) -> None:
    if future.done():  # the waiting move was cancelled (the server stopping)
        return
    if isinstance(answer, BaseException):
        future.set_exception(answer)
    else:
        future.set_result(answer)
