"""What a feature adds to a table's WebSocket and to the fan-out between server processes,
registered from its ``wire(app, site)`` into the site's :class:`SocketRegistry` (``sockets``).

The table core answers its own frames (``hello``, ``ping``, ``move``, ``undo``, ``preview``,
``back``); a feature handles the others of the protocol (:mod:`meeple.server.table.protocol`
defines every frame, so the wire protocol is the same whoever answers it): it registers

- a :data:`FrameHandler` for its frame type (one per type: a second is refused), called for
  each valid frame of that type from a client that said hello (and whose session still acts);
- a :data:`HelloHook`, called after each hello once the client has its view, presence and
  clock, in the order the hooks were registered;
- a :data:`CloseHook`, called when the socket ends;
- a :data:`NoticeHandler` for each of its fan-out notice codes (a notice's version below
  :data:`SEATS_NOTICE`: 0 and above are versions of a table's log, -1 a change of its
  seats; one handler per code), called when another process of the same PostgreSQL
  database announced one (:mod:`meeple.server.table.fanout`).

The chat feature registers the ``chat`` frame, its hello and close hooks and its two notices.
A frame of the protocol nobody handles is answered with an ``error`` frame saying so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.websockets import WebSocket

from meeple.server.table.protocol import CLIENT_TYPES, ClientFrame, Hello
from meeple.server.table.runtime import Client, Runtime

#: The notice version the store announces a change of a table's seats with (the versions of
#: its log are 0 and above); a feature's notice codes are below it.
SEATS_NOTICE = -1

#: The frame types the table core answers itself: no feature may take one.
CORE_FRAMES = frozenset({"hello", "ping", "move", "undo", "preview", "back"})


class Socket(Protocol):
    """One client's WebSocket at one table, as a feature sees it."""

    #: the table's id, and its runtime (``rt.table``: the table as now known)
    table_id: str
    rt: Runtime
    #: the WebSocket itself (its cookies, its app)
    ws: WebSocket

    async def send(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame to the client (:class:`ConnectionError` once it is closed)."""


#: Answers one valid frame of its type from a client that said hello.
FrameHandler = Callable[[Socket, Client, ClientFrame], Awaitable[None]]
#: Called after a hello: the socket, the hello frame and the seat it is for (None: watching).
HelloHook = Callable[[Socket, Hello, "int | None"], Awaitable[None]]
#: Called when the socket ends.
CloseHook = Callable[[Socket], None]
#: A fan-out notice of another server process: the table's id and the notice's code.
NoticeHandler = Callable[[str, int], Coroutine[Any, Any, None]]


@dataclass
class SocketRegistry:
    """The features' frame handlers, hooks and notice handlers (the site's ``sockets``)."""

    frames: dict[str, FrameHandler] = field(default_factory=dict)
    hellos: list[HelloHook] = field(default_factory=list)
    closes: list[CloseHook] = field(default_factory=list)
    notices: dict[int, NoticeHandler] = field(default_factory=dict)

    def handle(self, frame_type: str, handler: FrameHandler) -> None:
        """Answer the client frames of ``frame_type`` with ``handler``. A type the table core
        answers, one not in the protocol, or one already handled is refused (ValueError):
        two answers to one frame would be a defect."""
        if frame_type in CORE_FRAMES:
            raise ValueError(f"the table core answers {frame_type!r} frames itself; a feature "
                             f"handles only the others of the protocol")
        if frame_type not in CLIENT_TYPES:
            raise ValueError(f"{frame_type!r} is not a client frame of the protocol (its "
                             f"frames: {', '.join(CLIENT_TYPES)})")
        if frame_type in self.frames:
            raise ValueError(f"{frame_type!r} frames already have a handler "
                             f"({self.frames[frame_type]!r}): one handler per frame type")
        self.frames[frame_type] = handler

    def after_hello(self, hook: HelloHook) -> None:
        """Call ``hook`` after each hello, once the client has its view, presence and clock."""
        self.hellos.append(hook)

    def on_close(self, hook: CloseHook) -> None:
        """Call ``hook`` when a socket ends."""
        self.closes.append(hook)

    def notice(self, code: int, handler: NoticeHandler) -> None:
        """Hand the fan-out notices of ``code`` to ``handler``; a code the table core reads
        (a version, a seat change) or that has a handler already is refused (ValueError)."""
        if code >= SEATS_NOTICE:
            raise ValueError(f"notice code {code} is the table core's (a version of a table's "
                             f"log, or {SEATS_NOTICE}: its seats changed): a feature's notice "
                             f"codes are below {SEATS_NOTICE}")
        if code in self.notices:
            raise ValueError(f"notice code {code} already has a handler: one per code")
        self.notices[code] = handler


__all__ = ["CORE_FRAMES", "SEATS_NOTICE", "CloseHook", "FrameHandler", "HelloHook", "NoticeHandler", "Socket",
           "SocketRegistry"]
