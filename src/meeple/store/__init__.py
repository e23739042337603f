"""Stored games: tables, seats and append-only move logs (SQLAlchemy 2, Alembic migrations).

An SQLite file (WAL) by default, in the user's data folder; PostgreSQL by URL
(``postgresql+psycopg://user@host/db``), given as ``--db`` or ``MEEPLE_DATABASE_URL``.
"""

from meeple.store.models import BOT, CHANCE, FINISHED, HUMAN, MOVE, RUNNING, UNDO, WAITING
from meeple.store.store import (
    Append,
    DuplicateMove,
    Entry,
    Idempotency,
    KeyReused,
    NotFound,
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

__all__ = [
    "BOT",
    "CHANCE",
    "FINISHED",
    "HUMAN",
    "MOVE",
    "RUNNING",
    "UNDO",
    "WAITING",
    "Append",
    "DuplicateMove",
    "Entry",
    "Idempotency",
    "KeyReused",
    "NotFound",
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
