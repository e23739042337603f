"""Stored games: tables, seats and append-only move logs (SQLAlchemy 2, Alembic migrations).

An SQLite file (WAL) by default, in the user's data folder; PostgreSQL by URL
(``postgresql+psycopg://user@host/db``), given as ``--db`` or ``MEEPLE_DATABASE_URL``.

The names below are loaded when first used (PEP 562): :mod:`meeple.store.settings` and the
store's small modules are imported without SQLAlchemy, so the terminal commands that read the
settings start quickly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.store.models import BOT, CHANCE, FINISHED, HUMAN, MOVE, RUNNING, UNDO, WAITING
    from meeple.store.store import (
        AccountNeeded,
        Append,
        DuplicateMove,
        Entry,
        Idempotency,
        KeyReused,
        NotFound,
        NotRated,
        Seat,
        SeatError,
        SeatSpec,
        StaleVersion,
        Store,
        StoreError,
        StoreUnavailable,
        Table,
        Taken,
        TooManyOpen,
        default_url,
        display_url,
        effective_moves,
        request_key,
        sqlite_url,
    )

#: Which module defines each name this package offers.
_HOME = {name: "meeple.store.models" for name in (
    "BOT", "CHANCE", "FINISHED", "HUMAN", "MOVE", "RUNNING", "UNDO", "WAITING")}
_HOME.update({name: "meeple.store.store" for name in (
    "AccountNeeded",
    "Append",
    "DuplicateMove",
    "Entry",
    "Idempotency",
    "KeyReused",
    "NotFound",
    "NotRated",
    "Seat",
    "SeatError",
    "SeatSpec",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Table",
    "Taken",
    "TooManyOpen",
    "default_url",
    "display_url",
    "effective_moves",
    "request_key",
    "sqlite_url",
)})


def __getattr__(name: str) -> Any:
    """A name of the package, imported from its module when first asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'meeple.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value

__all__ = [
    "BOT",
    "CHANCE",
    "FINISHED",
    "HUMAN",
    "MOVE",
    "RUNNING",
    "UNDO",
    "WAITING",
    "AccountNeeded",
    "Append",
    "DuplicateMove",
    "Entry",
    "Idempotency",
    "KeyReused",
    "NotFound",
    "NotRated",
    "Seat",
    "SeatError",
    "SeatSpec",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Table",
    "Taken",
    "TooManyOpen",
    "default_url",
    "display_url",
    "effective_moves",
    "request_key",
    "sqlite_url",
]
