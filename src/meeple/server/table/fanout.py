"""Fan-out between server processes on one PostgreSQL: LISTEN/NOTIFY.

Every committed log append (and every seat change) is announced on the channel
``meeple_tables`` inside its own transaction, so PostgreSQL delivers it exactly when it commits.
Each server process listens on a connection of its own, in a thread; on a notice for a table it
holds, it catches up from the stored log and sends its own clients their new views (a seat
change is announced as version :data:`~meeple.server.table.sockets.SEATS_NOTICE`). A notice
whose version is below that is a feature's code (the chat's: a new message, one hidden): it goes
to the handler the feature registered for it (:meth:`SocketRegistry.notice
<meeple.server.table.sockets.SocketRegistry.notice>`), which reads what changed from the store;
a code nobody registered is skipped. We chose
LISTEN/NOTIFY over Redis because the database is already there: no second service to run, and
a notice can never announce a move that was not committed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from meeple.server.table.sockets import SEATS_NOTICE
from meeple.store.store import NOTIFY_CHANNEL, parse_notice

if TYPE_CHECKING:
    from meeple.server.table.service import Service
    from meeple.server.table.sockets import NoticeHandler

log = logging.getLogger("meeple.server")


def psycopg_dsn(url: str) -> str:
    """A libpq connection string from an SQLAlchemy URL."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    parts = {"host": u.host, "port": u.port, "dbname": u.database, "user": u.username,
             "password": u.password, **u.query}
    return " ".join(f"{k}={v}" for k, v in parts.items() if v not in (None, ""))


class PgListener:
    """A thread that LISTENs and hands each notice to the service's event loop."""

    def __init__(self, url: str, service: Service, loop: asyncio.AbstractEventLoop,
                 notices: Mapping[int, NoticeHandler] | None = None) -> None:
        self.dsn = psycopg_dsn(url)
        self.service = service
        #: the features' handlers of their notice codes, by code
        self.notices: Mapping[int, NoticeHandler] = notices or {}
        self.loop = loop
        #: the mark of this process's own notices (its store's), which it skips
        self.origin = service.store.origin
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="meeple-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            self.handle(n.payload)
            except Exception as exc:  # the database went away: try again shortly
                log.warning("LISTEN connection lost (%s); reconnecting", exc)
                self._stop.wait(1.0)

    def handle(self, payload: str) -> bool:
        """One notice, in the listener thread: handed to the event loop (True), or skipped
        here (False) when it is no notice, a commit of this process, a feature's code nobody
        registered, or a change to a table this process does not hold. The last is most of
        them where many processes share the tables (each receives every move's notice), and
        skipping it here costs two dictionary lookups instead of a hand-over to the event loop
        (docs/deploy.md, "Many machines"). A table this process starts to load after the
        notice reads the move from the store, so the notice is not missed."""
        notice = parse_notice(payload)
        if notice is None or notice[2] == self.origin:
            return False  # not ours to read, or a commit of this process
        if notice[1] < SEATS_NOTICE:  # a feature's code
            handler = self.notices.get(notice[1])
            if handler is None:
                return False
            asyncio.run_coroutine_threadsafe(handler(notice[0], notice[1]), self.loop)
            return True
        if not self.service.authority.holds(notice[0]):
            return False
        asyncio.run_coroutine_threadsafe(
            self.service.remote_change(notice[0], notice[1]), self.loop)
        return True
