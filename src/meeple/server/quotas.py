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
import os
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from meeple.server.site import site_of

#: The settings, by field of :class:`QuotaSettings`: (environment variable, default).
ENV: dict[str, tuple[str, str]] = {
    "create": ("MEEPLE_RATE_CREATE", "30/minute"),
    "join": ("MEEPLE_RATE_JOIN", "60/minute"),
    "hint": ("MEEPLE_RATE_HINT", "120/minute"),
    "analysis": ("MEEPLE_RATE_ANALYSIS", "10/minute"),
    "frames": ("MEEPLE_RATE_FRAMES", "20/second"),
    "client_frames": ("MEEPLE_RATE_CLIENT_FRAMES", "200/second"),
    "frames_refused": ("MEEPLE_RATE_FRAMES_REFUSED", "100/10 seconds"),
    "open_tables": ("MEEPLE_OPEN_TABLES", "20"),
    "sockets": ("MEEPLE_WS_PER_CLIENT", "64"),
    "stale_waiting": ("MEEPLE_STALE_WAITING", "3600"),
    "abandoned": ("MEEPLE_ABANDONED", "7200"),
}

#: What each rate limits, for the refusal's sentence.
WHAT = {
    "create": "tables created", "join": "seats joined", "hint": "hints asked",
    "analysis": "analyses asked", "frames": "frames on this connection",
    "client_frames": "WebSocket frames from your address",
}


@dataclass(frozen=True)
class QuotaSettings:
    """The per-client limits (see :data:`ENV` for each setting's variable and default)."""

    create: str = ENV["create"][1]
    join: str = ENV["join"][1]
    hint: str = ENV["hint"][1]
    analysis: str = ENV["analysis"][1]
    frames: str = ENV["frames"][1]
    client_frames: str = ENV["client_frames"][1]
    #: the frames over their rate a connection may send in this window before it is closed
    #: (1008): a client far over its rate, not one that slipped
    frames_refused: str = ENV["frames_refused"][1]
    #: open (waiting or running) tables a client may have created; 0: no cap
    open_tables: int = int(ENV["open_tables"][1])
    #: WebSocket connections a client may hold at once; 0: no cap
    sockets: int = int(ENV["sockets"][1])
    #: seconds a waiting table may go without a seat taken or left before it is closed; 0: never
    stale_waiting: float = float(ENV["stale_waiting"][1])
    #: seconds a running table with no turn clock may go with no move and nobody connected
    #: before it ends as abandoned; 0: never
    abandoned: float = float(ENV["abandoned"][1])

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> QuotaSettings:
        """The settings from the environment (defaults where unset). A value that is not a
        rate or a number stops the server at start, naming the variable."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name, (var, default) in ENV.items():
            raw = env.get(var, default).strip()
            kind = type(getattr(cls(), name))
            try:
                values[name] = kind(raw) if kind is not str else raw
                if kind is str:
                    rate(raw)
                elif values[name] < 0 or not math.isfinite(values[name]):
                    raise ValueError(raw)
            except ValueError:
                allowed = ("a rate such as 30/minute (or off)" if kind is str
                           else "a number, 0 or more (0: no limit)")
                raise ValueError(f"{var}={raw!r} is not {allowed}") from None
        return cls(**values)


def rate(text: str) -> list[RateLimitItem]:
    """The rate items of a setting (none for ``off`` or empty)."""
    if text.lower() in ("", "off", "none", "0"):
        return []
    return list(parse_many(text))


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
            var, value = ENV[name][0], getattr(self.settings, name)
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
        var, value = ENV[name][0], getattr(self.settings, name)
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
        var = ENV["sockets"][0]
        return Throttled(429, f"too many WebSocket connections from your address (at most "
                              f"{self.settings.sockets}, {var}); close one first", var, 5)

    def too_many_open(self, held: int) -> Throttled:
        var = ENV["open_tables"][0]
        return Throttled(429, f"your address has {held} open tables (waiting or running; at "
                              f"most {self.settings.open_tables}, {var}): finish or leave one "
                              "first, or wait until a waiting one expires", var, 60)


def get_quotas(conn: HTTPConnection) -> Quotas:
    """The app's :class:`Quotas` (set by its lifespan)."""
    return site_of(conn).quotas


QuotasDep = Annotated[Quotas, Depends(get_quotas)]
