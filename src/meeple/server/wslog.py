"""WebSocket handshakes the server refuses, logged in bounded form.

A handshake refused with an HTTP answer (the edge's 403 for another site's page, the
per-client socket cap's 429) ends, in uvicorn's WebSocket protocol, with an ERROR line
"ASGI callable returned without completing handshake." after the answer was sent: the app
answered the handshake but did not accept it, which is what a refusal is. One client could
write thousands of such lines a second. The refusal itself is logged by
:data:`meeple.server.edge.refused` (at most :data:`meeple.server.edge.LOG_BUDGET` lines a
minute, then one line counting the rest), so :class:`RefusedHandshakes` drops uvicorn's
line for a handshake this server refused on purpose (:func:`mark_refused`, in the refusing
request's own context) and lets it through for any other (a defect).
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

#: uvicorn's line after an app returned without accepting or closing a WebSocket handshake.
UNFINISHED = "ASGI callable returned without completing handshake."
#: The logger uvicorn writes it to.
UVICORN_LOGGER = "uvicorn.error"

_refused: ContextVar[bool] = ContextVar("meeple_ws_refused", default=False)


def mark_refused() -> None:
    """This WebSocket handshake is being refused with an HTTP answer, on purpose (called in
    the handshake's own context: uvicorn logs in it after the app returns)."""
    _refused.set(True)


class RefusedHandshakes(logging.Filter):
    """Drops uvicorn's :data:`UNFINISHED` line for a handshake marked refused."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.msg == UNFINISHED and _refused.get())


def install() -> None:
    """Put the filter on uvicorn's logger (once)."""
    logger = logging.getLogger(UVICORN_LOGGER)
    if not any(isinstance(f, RefusedHandshakes) for f in logger.filters):
        logger.addFilter(RefusedHandshakes())


__all__ = ["UNFINISHED", "RefusedHandshakes", "install", "mark_refused"]
