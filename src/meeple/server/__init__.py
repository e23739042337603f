"""The online server: a REST lobby and WebSocket play on stored tables (``meeple serve``).

See ``docs/server.md`` for the API and the protocol. The engine decides every rule; the server
stores, relays and runs the bots.

``create_app`` is imported when first asked for: a bot worker process imports
``meeple.server.table.botpool``, and so this package, and needs none of the web stack (FastAPI,
SQLAlchemy, the store), which would double the time a worker takes to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.server.app import create_app


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from meeple.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
