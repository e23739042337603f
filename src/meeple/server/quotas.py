"""Per-client limits: how often a client may create tables, join, ask hints and analyses and send
WebSocket frames, how many open tables and sockets it may hold (no anonymous client can
starve the others).

The client is the address a request came from (``request.client.host``: the edge makes it the
real address behind trusted proxies), an IPv6 address counted by its /64 (what one machine or
home is given, so stepping through its addresses does not make a new client). Rates are kept
with the ``limits`` library: fixed windows in this process's memory (several server processes
each count their own; a restart starts afresh). The open tables a client created are counted in
the store, so that cap holds across processes and restarts.

Every limit is a setting (an environment variable, :class:`QuotaSettings`; ``docs/server.md``
lists them): a rate as ``limits`` writes one (``30/minute``, ``20/second``, several joined by
``;``), ``off`` or empty for none; a cap as a number, 0 for none. A request over a limit is
refused with 429, a ``Retry-After`` header and a JSON body whose ``detail`` names the limit
(``limit`` the setting, ``retry_after`` the seconds): :class:`Throttled`.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from meeple.sections import rate
from meeple.server.edge_settings import QuotaSettings
from meeple.server.site import site_of

#: What each rate limits, for the refusal's sentence.
WHAT = {
    "create": "tables created", "join": "seats joined", "hint": "hints asked",
    "analysis": "analyses asked", "frames": "frames on this connection",
    "client_frames": "WebSocket frames from your address",
}


def client_of(conn: HTTPConnection) -> str:
    """The client a request or WebSocket comes from: its address, an IPv6 one by its /64."""
    return client_key(conn.client.host if conn.client is not None else "")


def client_key(host: str) -> str:
    """The client an address is counted as: itself, an IPv6 one by its /64 (the HTTP
    protocol's connection cap counts by it too)."""
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return str(addr)


def client_hash(client: str) -> str:
    """What the store keeps of a client (a table's creator, an idempotency key's owner): a
    digest of its address, not the address."""
    return hashlib.sha256(f"meeple-client\0{client}".encode()).hexdigest()


class Throttled(Exception):
    """A request refused by a limit: 429 (the client's own limit) or 503 (a shared lane is
    full), with a ``Retry-After`` and the setting that refused it."""

    def __init__(self, status: int, detail: str, limit: str, retry_after: float) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.limit = limit
        self.retry_after = max(1, math.ceil(retry_after))

    def response(self) -> JSONResponse:
        return JSONResponse({"detail": self.detail, "limit": self.limit,
                             "retry_after": self.retry_after},
                            status_code=self.status,
                            headers={"Retry-After": str(self.retry_after)})


class ThrottledRoute(APIRoute):
    """A route that answers :class:`Throttled` with its response (the lobby's and a table's
    routers use it)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except Throttled as exc:
                return exc.response()

        return answer


@dataclass
class Quotas:
    """The per-client limits of one server process: rates (``limits``, fixed windows in
    memory) and the WebSocket connections each client holds."""

    settings: QuotaSettings = field(default_factory=QuotaSettings)

    def __post_init__(self) -> None:
        self._limiter = FixedWindowRateLimiter(MemoryStorage())
        self._items = {name: rate(getattr(self.settings, name))
                       for name in (*WHAT, "frames_refused")}
        #: open WebSocket connections by client
        self.sockets: dict[str, int] = {}

    # ------------------------------------------------------------------ rates
    def _over(self, name: str, *key: str) -> float | None:
        """Count one under rate ``name`` for ``key``: None within it, else the seconds until
        its window starts again."""
        wait = None
        for item in self._items[name]:
            if not self._limiter.hit(item, name, *key):
                reset = self._limiter.get_window_stats(item, name, *key).reset_time
                wait = max(wait or 0.0, reset - time.time())
        return wait

    def hit(self, name: str, client: str) -> None:
        """Count a request of ``client`` under rate ``name``; raises :class:`Throttled`
        (429) beyond it."""
        wait = self._over(name, client)
        if wait is not None:
            var, value = QuotaSettings.variable(name), getattr(self.settings, name)
            raise Throttled(429, f"too many {WHAT[name]} from your address (at most {value}, "
                                 f"{var}); try again in {max(1, math.ceil(wait))} s",
                            var, wait)

    def frame(self, connection: str, client: str) -> tuple[float, str] | None:
        """Count a WebSocket frame of ``connection`` (from ``client``): None within both
        rates, else the seconds to wait and which rate it broke."""
        for name, key in (("frames", connection), ("client_frames", client)):
            wait = self._over(name, key)
            if wait is not None:
                return wait, name
        return None

    def far_over(self, connection: str) -> bool:
        """Count a refused frame of ``connection``: whether it is now far over its rate (it
        kept sending after being told to wait), to be closed."""
        return self._over("frames_refused", connection) is not None

    def frame_refusal(self, wait: float, name: str) -> str:
        var, value = QuotaSettings.variable(name), getattr(self.settings, name)
        return (f"too many {WHAT[name]} (at most {value}, {var}): this frame was not read; "
                f"send it again in {max(0.1, round(wait, 1)):g} s")

    # ------------------------------------------------------------------ caps
    def open_socket(self, client: str) -> bool:
        """Count a new WebSocket of ``client``; False (nothing counted) at its cap."""
        held = self.sockets.get(client, 0)
        if self.settings.sockets and held >= self.settings.sockets:
            return False
        self.sockets[client] = held + 1
        return True

    def close_socket(self, client: str) -> None:
        left = self.sockets.get(client, 1) - 1
        if left > 0:
            self.sockets[client] = left
        else:
            self.sockets.pop(client, None)

    def too_many_sockets(self) -> Throttled:
        var = QuotaSettings.variable("sockets")
        return Throttled(429, f"too many WebSocket connections from your address (at most "
                              f"{self.settings.sockets}, {var}); close one first", var, 5)

    def too_many_open(self, held: int) -> Throttled:
        var = QuotaSettings.variable("open_tables")
        return Throttled(429, f"your address has {held} open tables (waiting or running; at "
                              f"most {self.settings.open_tables}, {var}): finish or leave one "
                              "first, or wait until a waiting one expires", var, 60)


def get_quotas(conn: HTTPConnection) -> Quotas:
    """The app's :class:`Quotas` (set by its lifespan)."""
    return site_of(conn).quotas


QuotasDep = Annotated[Quotas, Depends(get_quotas)]
