"""One server process of a database at a time: a PostgreSQL advisory lock taken without
waiting, for the loops every process runs (Play now's matcher, the tournaments' scheduler)
of which only one may act at once. SQLite has one server process: it always holds it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from meeple.store.store import Store


class AdvisoryLock:
    """``with AdvisoryLock(store, key) as mine:``: whether this process holds lock ``key``
    (PostgreSQL's ``pg_try_advisory_lock``, released at the end; SQLite: always True)."""

    def __init__(self, store: Store, key: int) -> None:
        self.store, self.key = store, key
        self._conn: Any = None

    def __enter__(self) -> bool:
        if self.store.dialect != "postgresql":
            return True
        self._conn = self.store.engine.connect()
        got = bool(self._conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key}))
        if not got:
            self._conn.close()
            self._conn = None
        return got

    def __exit__(self, *exc: object) -> None:
        if self._conn is not None:
            try:
                self._conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": self.key})
                self._conn.commit()
            finally:
                self._conn.close()


__all__ = ["AdvisoryLock"]
