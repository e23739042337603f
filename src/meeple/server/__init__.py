"""The online server: a REST lobby and WebSocket play on stored tables (``meeple serve``).

See ``docs/server.md`` for the API and the protocol. The engine decides every rule; the server
stores, relays and runs the bots.
"""

from meeple.server.app import create_app

__all__ = ["create_app"]
