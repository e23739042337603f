"""The server's edge: what it does before anything else reads a request from the open
internet.

- :class:`HeadLimits` and :func:`http_protocol`: uvicorn's HTTP protocol (httptools) with a
  bound on the request head (request line and headers, :data:`MAX_HEAD` bytes: a longer one
  is answered 431 and the connection closed, whether it is complete or still coming) and a
  time limit on it (:data:`HEAD_TIMEOUT`: a head that has not ended that long after its
  first byte, or a connection that sent nothing that long after it opened, is closed, with
  a 408 when part of a head had come). httptools itself buffers a head without bound and
  uvicorn times out only the idle time between requests (``timeout_keep_alive``).
- :class:`Edge`, a pure ASGI layer outside every other (:class:`EdgeApp`), so that even a 500
  carries its headers: a complete head over :data:`MAX_HEAD` bytes or :data:`MAX_HEADERS`
  headers is 431; a ``Host`` the server does not answer to is 400 (:class:`EdgeConfig`
  ``allowed_hosts``; the Host is what a redirect or a link would be made of, and DNS
  rebinding reaches a server on 127.0.0.1 under another name); a WebSocket handshake whose
  ``Origin`` is neither the server's own nor an allowed one is 403 (a page of another site
  could watch any table whose id it knows: a browser sends WebSockets to any site, with the
  visitor's address); every response gets :func:`security_headers` (a Content-Security-Policy
  without inline script, ``nosniff``, no referrer, no framing, its own browsing context).
- :func:`proxy_settings`: uvicorn trusts ``X-Forwarded-For`` and ``-Proto`` from the
  configured proxies only (uvicorn alone trusts 127.0.0.1).
- :func:`install_api_docs`: ``/docs`` (``meeple serve --api-docs``) with Swagger UI's files
  from the ``fastapi_offline`` package, served by the server itself: nothing loaded from
  outside, and no inline script.

Every refusal is ``{"detail": "..."}`` saying what was wrong and what is allowed, logged on
the ``meeple.edge`` logger with the client's address (at most :data:`LOG_BUDGET` lines a
minute).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from meeple.sections import origin_of
from meeple.server import wslog
from meeple.server.quotas import client_key

log = logging.getLogger("meeple.edge")

#: The most bytes of a request head (request line and headers) read; a longer head is 431.
#: The largest the server's clients send is a few KiB (a seat secret, an 8,000-byte query).
MAX_HEAD = 32 * 1024
#: The most header lines in one request.
MAX_HEADERS = 100
#: Seconds a request head may take from its first byte to its end (and a new connection to
#: send its first byte): a client that trickles its head (slow loris) is closed after this.
HEAD_TIMEOUT = 10.0
#: Seconds a request body may take from the end of its head to its last byte: a client that
#: trickles its body gets 408 and is closed. The largest body the server reads is a sheet
#: upload of a few hundred KiB, seconds on a slow phone line.
BODY_TIMEOUT = 30.0
#: HTTP connections one client may hold open at once (a browser opens at most 6 to a site;
#: this leaves room for a household or an office behind one address). A WebSocket is not
#: one of them once it is open (``MEEPLE_WS_PER_CLIENT`` counts those).
HTTP_PER_CLIENT = 64
#: Seconds a client over its connection cap is told to wait.
CAP_RETRY = 5
#: Seconds an idle keep-alive connection is kept between requests (uvicorn's own timer).
KEEP_ALIVE = 5
#: The Hosts answered by default: the loopback names (and the address ``--host`` gives).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Where a long-lived response (the account event stream) puts a callable in its request's
#: ``scope["state"]``: the edge calls it when the server begins to stop, so the response ends
#: instead of holding the server's graceful shutdown open for ever.
STOP_HOOK = "meeple_on_server_stop"
#: Refusals logged a minute at most (a flood of bad requests cannot fill the disk).
LOG_BUDGET = 60

#: The Content-Security-Policy of every response: scripts, styles, fonts and images from the
#: server itself only (and ``data:`` images: the page's empty icon), never inline script or
#: style, no plugin, no <base>, forms posted to the server only, never in a frame. The
#: WebSocket (``connect-src``) goes to the page's own host (see :func:`security_headers`).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'; connect-src 'self'")
#: The other security headers of every response.
STATIC_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
_HEADER_NAMES = frozenset([b"content-security-policy", *(n for n, _ in STATIC_HEADERS)])
#: A Host value that may be written into a header as it is (a name or address and a port).
_PLAIN_HOST = re.compile(rb"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def security_headers(host: bytes) -> list[tuple[bytes, bytes]]:
    """The security headers of a response to a request that came with ``Host: host``: the
    page's WebSocket goes to ``ws://host`` or ``wss://host`` (named as well as ``'self'``,
    which not every browser takes to cover them)."""
    csp = CSP.encode()
    if _PLAIN_HOST.fullmatch(host):
        csp += b" ws://" + host + b" wss://" + host
    return [(b"content-security-policy", csp), *STATIC_HEADERS]


def host_name(host: str) -> str:
    """The name part of a ``Host`` header or an allowed host, lower case: ``[::1]:8000`` ->
    ``[::1]``, ``Example.COM:80`` -> ``example.com``; an IPv6 address without brackets (as
    ``--host ::1`` gives it) gets them."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[:end + 1] if end > 0 else host
    if host.count(":") > 1:  # a bare IPv6 address
        return f"[{host}]"
    name, _, port = host.partition(":")
    return name if port.isdigit() or not port else host


@dataclass(frozen=True)
class HeadLimits:
    """The bounds the HTTP protocol holds (:func:`http_protocol`): on a request head, on a
    request body's time and on the connections of one client."""

    max_bytes: int = MAX_HEAD
    timeout: float = HEAD_TIMEOUT
    #: seconds a request body may take from the end of its head to its last byte
    body_timeout: float = BODY_TIMEOUT
    #: HTTP connections one client may hold open at once (0: no cap)
    per_client: int = HTTP_PER_CLIENT


@dataclass(frozen=True)
class EdgeConfig:
    """What the edge lets in. The default (an app made in-process, e.g. for tests) answers
    any Host; ``meeple serve`` makes its own with :meth:`for_serve`."""

    #: The host names answered (as :func:`host_name` writes them; ``*.example.org`` for its
    #: subdomains); None: any.
    allowed_hosts: frozenset[str] | None = None
    #: Origins a WebSocket handshake may come from besides the server's own (the ``Host`` it
    #: was reached at, over http or https), as :func:`origin_of` writes them.
    allowed_origins: frozenset[str] = frozenset()
    #: ``/docs``: Swagger UI on the server's own files.
    api_docs: bool = False
    #: The request head's bounds (the HTTP protocol's; :func:`http_protocol`).
    head: HeadLimits = field(default_factory=HeadLimits)

    @classmethod
    def for_serve(cls, listen_host: str, hosts: Iterable[str] = (),
                  origins: Iterable[str] = (), api_docs: bool = False,
                  head_timeout: float = HEAD_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
                  per_client: int = HTTP_PER_CLIENT) -> EdgeConfig:
        """The edge of ``meeple serve --host listen_host``: the loopback names, the address
        it listens on (unless it is every address, 0.0.0.0 or ::) and ``hosts`` (``*`` for
        any); WebSocket origins: the server's own and ``origins``. :class:`ValueError` for a
        host or an origin that cannot be one."""
        names = set(LOOPBACK_HOSTS)
        if listen_host not in ("0.0.0.0", "::", ""):
            names.add(host_name(listen_host))
        any_host = False
        for host in hosts:
            if host.strip() == "*":
                any_host = True
                continue
            name = host_name(host)
            if not name or "/" in name or " " in name or \
                    not re.fullmatch(r"(\*\.)?[a-z0-9.\-]+|\[[0-9a-f:.]+\]", name):
                raise ValueError(f"{host[:100]!r} is not a host name; give a name or address "
                                 f"as browsers send it in Host, e.g. meeple.example.org, "
                                 f"*.example.org, 192.0.2.7 or [2001:db8::7]; * for any")
            names.add(name)
        return cls(allowed_hosts=None if any_host else frozenset(names),
                   allowed_origins=frozenset(origin_of(o) for o in origins),
                   api_docs=api_docs, head=HeadLimits(timeout=head_timeout,
                                                      body_timeout=body_timeout,
                                                      per_client=per_client))

    def host_allowed(self, name: str) -> bool:
        if self.allowed_hosts is None or name in self.allowed_hosts:
            return True
        return any(allowed.startswith("*.") and name.endswith(allowed[1:])
                   for allowed in self.allowed_hosts)

    def origin_allowed(self, origin: str, host: str) -> bool:
        """Whether a WebSocket handshake with ``Origin: origin`` that came with ``Host: host``
        is let in: the page was served by this server (at that host, over http or https), or
        the origin is an allowed one."""
        origin = origin.lower()
        host = host.lower()
        return origin in (f"http://{host}", f"https://{host}") or \
            origin in self.allowed_origins or _default_port_origin(origin, host)

    def describe_hosts(self) -> str:
        return "any" if self.allowed_hosts is None else ", ".join(sorted(self.allowed_hosts))


def _default_port_origin(origin: str, host: str) -> bool:
    """``http://h`` for ``Host: h:80`` and ``https://h`` for ``h:443`` (a client that names
    the default port in Host; browsers leave it out of Origin)."""
    for scheme, port in (("http", ":80"), ("https", ":443")):
        if host.endswith(port) and origin == f"{scheme}://{host[:-len(port)]}":
            return True
    return False


# ------------------------------------------------------------------------------ refusals
class _RefusalLog:
    """The refusals' log lines, at most :data:`LOG_BUDGET` a minute (then one line saying how
    many more were not logged)."""

    def __init__(self) -> None:
        self.minute = 0
        self.count = 0
        self.dropped = 0

    def __call__(self, status: int, what: str, client: Any, detail: str) -> None:
        minute = int(time.monotonic() // 60)
        if minute != self.minute:
            if self.dropped:
                log.warning("%d more refusals in the last minute were not logged", self.dropped)
            self.minute, self.count, self.dropped = minute, 0, 0
        self.count += 1
        if self.count > LOG_BUDGET:
            self.dropped += 1
            return
        address = client[0] if isinstance(client, (tuple, list)) and client else "?"
        log.warning("refused %d %s from %s: %s", status, what, address, detail)


refused = _RefusalLog()


def _body(detail: str) -> bytes:
    return json.dumps({"detail": detail}).encode()


def raw_response(status: int, reason: str, detail: str,
                 extra: Iterable[tuple[bytes, bytes]] = ()) -> bytes:
    """A whole HTTP/1.1 response that closes its connection, written by the protocol itself
    (before any app runs): ``{"detail": ...}`` with the security headers."""
    payload = _body(detail)
    head = [f"HTTP/1.1 {status} {reason}".encode(), b"content-type: application/json",
            b"content-length: " + str(len(payload)).encode(), b"connection: close"]
    head += [name + b": " + value for name, value in extra]
    head += [name + b": " + value for name, value in security_headers(b"")]
    return b"\r\n".join(head) + b"\r\n\r\n" + payload


def _shown(value: bytes, limit: int = 60) -> str:
    text = value[:limit].decode("latin-1")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return repr(text + ("..." if len(value) > limit else ""))


class Edge:
    """The ASGI layer outside every other (see the module's doc)."""

    def __init__(self, app: ASGIApp, config: EdgeConfig) -> None:
        self.app = app
        self.config = config
        self._headers: dict[bytes, list[tuple[bytes, bytes]]] = {}

    def _security_headers(self, host: bytes) -> list[tuple[bytes, bytes]]:
        found = self._headers.get(host)
        if found is None:
            found = security_headers(host)
            if len(self._headers) < 256:  # (any Host reaches here when any is allowed)
                self._headers[host] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = scope["headers"]
        host = b""
        origin: bytes | None = None
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        for name, value in headers:
            size += len(name) + len(value) + 4
            if name == b"host":
                host = value
            elif name == b"origin":
                origin = value
        problem = self._problem(kind, headers, size, host, origin)
        if problem is not None:
            status, detail = problem
            what = f"{scope.get('method', 'WebSocket')} {str(scope.get('path', ''))[:80]}"
            refused(status, what, scope.get("client"), detail)
            await self._refuse(scope, receive, send, status, detail)
            return
        extra = self._security_headers(host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                own = list(message.get("headers") or ())
                names = {name.lower() for name, _ in own}
                own += [h for h in extra if h[0] not in names] if names & _HEADER_NAMES \
                    else extra
                message["headers"] = own
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _problem(self, kind: str, headers: list[tuple[bytes, bytes]], size: int, host: bytes,
                 origin: bytes | None) -> tuple[int, str] | None:
        config = self.config
        if len(headers) > MAX_HEADERS:
            return 431, (f"the request has {len(headers)} header lines; at most {MAX_HEADERS} "
                         f"are read")
        if size > config.head.max_bytes:
            return 431, (f"the request's head (its line and headers) is {size} bytes; at "
                         f"most {config.head.max_bytes} are read")
        name = host_name(host.decode("latin-1"))
        if not host:
            return 400, "the request has no Host header; HTTP/1.1 requires one"
        if not config.host_allowed(name):
            return 400, (f"this server does not answer to the Host {_shown(host)}; it answers "
                         f"to {config.describe_hosts()} (meeple serve --allowed-host NAME or "
                         f"MEEPLE_ALLOWED_HOSTS adds a name)")
        if kind == "websocket" and origin is not None and \
                not config.origin_allowed(origin.decode("latin-1"), host.decode("latin-1")):
            others = ", ".join(sorted(config.allowed_origins)) or "none"
            return 403, (f"a WebSocket from a page of {_shown(origin)} is refused: only pages "
                         f"this server served (Origin http or https with the Host it was "
                         f"reached at) and the allowed origins (now {others}) may open one "
                         f"(meeple serve --allowed-origin URL or MEEPLE_ALLOWED_ORIGINS adds "
                         f"one); clients that send no Origin, such as meeple join, are let in")
        return None

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int,
                      detail: str) -> None:
        await refuse_request(scope, receive, send, status, detail)


async def refuse_request(scope: Scope, receive: Receive, send: Send, status: int, detail: str,
                         extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer an HTTP request, or refuse a WebSocket's handshake, with ``status`` and
    ``{"detail": detail}`` (and the ``extra`` headers), before any route runs."""
    if scope["type"] == "websocket":
        wslog.mark_refused()  # logged by refused(), within its budget
    payload = _body(detail)
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(payload)).encode()), (b"connection", b"close"),
               *extra, *security_headers(b"")]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
        return
    if (await receive())["type"] != "websocket.connect":
        return  # the client left during its handshake
    if "websocket.http.response" in (scope.get("extensions") or {}):
        await send({"type": "websocket.http.response.start", "status": status,
                    "headers": headers})
        await send({"type": "websocket.http.response.body", "body": payload})
    else:  # a close before the accept: the server answers the handshake 403
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})


class EdgeApp(FastAPI):
    """FastAPI with :class:`Edge` outside every other layer (outside Starlette's error
    middleware, so that a 500 too carries the security headers). ``edge_config`` is set
    before the first request."""

    edge_config: EdgeConfig = EdgeConfig()

    def build_middleware_stack(self) -> ASGIApp:
        return Edge(super().build_middleware_stack(), self.edge_config)


# ------------------------------------------------------------------------------ HTTP
class EdgeHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the request head bounded in size and time, the body
    in time, the connections of one client capped, and the requests its parser cannot read
    answered as every other refusal (see the module's doc). :func:`http_protocol` makes it
    with its limits."""

    limits = HeadLimits()
    #: the open HTTP connections by client (:func:`~meeple.server.quotas.client_key`): one
    #: dict per server, made by :func:`http_protocol` (one event loop: no lock)
    held: ClassVar[dict[str, int]] = {}
    #: the proxies whose ``X-Forwarded-For`` is believed (None: none), as uvicorn's
    #: ``forwarded_allow_ips``
    proxies: ClassVar[_TrustedHosts | None] = None

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        #: no request head is complete yet, or a new one has begun since the last one
        self._in_head = True
        #: bytes read of the current head (bounded by the limit plus one read)
        self._head_bytes = 0
        #: bytes of the read being parsed now (a parser error's head may be over the limit)
        self._reading = 0
        #: a byte of the current head has come (a closed head gets a 408, not just a close)
        self._head_begun = False
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._done = False  # refused or handed to the WebSocket protocol
        #: the client this connection is counted for (None: not counted, e.g. a proxy's
        #: connection before its first request)
        self._counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else ""
        if not self._from_proxy(peer) and not self._count(client_key(peer)):
            return
        self._start_head_timer()

    def shutdown(self) -> None:
        """uvicorn's graceful stop of this connection; a response still being sent that left a
        :data:`STOP_HOOK` in its request's state is told first, to end itself."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            hook = cycle.scope.get("state", {}).get(STOP_HOOK)
            if callable(hook):
                hook()
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._stop_body_timer()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._done:
            return
        was_in_head = self._in_head
        self._reading = len(data)
        super().data_received(data)
        if self._done or self.transport.get_protocol() is not self:
            self._stop_head_timer()
            return
        if was_in_head and self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.max_bytes:
                self._refuse_long_head()
                return
        busy = not self._in_head and self.cycle is not None and not self.cycle.response_complete
        if not busy and self._head_timer is None:
            self._start_head_timer()  # a head has begun (or stray bytes came between requests)

    def _refuse_long_head(self) -> None:
        detail = (f"the request's head (its line and headers) is over {self.limits.max_bytes} "
                  f"bytes; at most {self.limits.max_bytes} are read")
        refused(431, "a request head", self.client, detail)
        self._close_with(raw_response(431, "Request Header Fields Too Large", detail))

    def send_400_response(self, msg: str) -> None:
        """A request the parser cannot read (a malformed request line, a header name with a
        space, a URL with a control character...): 400 as every refusal is written, with the
        security headers (uvicorn's own is plain text without them); 431 if its head is
        over the limit already."""
        if self._done:  # refused already (the parser read on past the refusal)
            return
        if self._in_head and self._head_bytes + self._reading > self.limits.max_bytes:
            self._refuse_long_head()
            return
        detail = ("the request could not be read as HTTP/1.1 (a malformed request line, "
                  "header or URL): send a request line 'METHOD /path HTTP/1.1', then header "
                  "lines 'Name: value' (a name is letters, digits and '-'), then an empty line")
        refused(400, "an unreadable request", self.client, detail)
        self._close_with(raw_response(400, "Bad Request", detail))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_begun = True
        self._head_bytes = 0
        if self._head_timer is None:
            self._start_head_timer()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_begun = False
        self._stop_head_timer()
        size = len(self.url) + sum(len(n) + len(v) + 4 for n, v in self.headers)
        if size > self.limits.max_bytes:  # (a URL of 64 KiB is more than uvicorn can parse)
            self._refuse_long_head()
            return
        if self._counted is None and not self._count_forwarded():
            return
        super().on_headers_complete()
        if self._done or (self.parser.should_upgrade() and self._should_upgrade()):
            return
        if self._has_body():
            self._start_body_timer()

    def on_body(self, body: bytes) -> None:
        if not self._done:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._stop_body_timer()
        if not self._done:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._done = True
        self._stop_head_timer()
        self._uncount()  # a WebSocket counts under MEEPLE_WS_PER_CLIENT from now on
        super().handle_websocket_upgrade()

    # ------------------------------------------------------------ the client's connections
    def _from_proxy(self, peer: str) -> bool:
        return self.proxies is not None and peer in self.proxies

    def _count(self, client: str) -> bool:
        """Count this connection for ``client``; at its cap, answer 429 and close (False)."""
        cap = self.limits.per_client
        held = self.held.get(client, 0)
        if cap and held >= cap:
            detail = (f"too many HTTP connections from your address (at most {cap} at once, "
                      f"MEEPLE_HTTP_PER_CLIENT): close one or wait {CAP_RETRY} s")
            refused(429, "a connection", self.client, detail)
            self._close_with(raw_response(429, "Too Many Requests", detail,
                                          [(b"retry-after", str(CAP_RETRY).encode())]))
            return False
        self.held[client] = held + 1
        self._counted = client
        return True

    def _uncount(self) -> None:
        client, self._counted = self._counted, None
        if client is None:
            return
        left = self.held.get(client, 1) - 1
        if left > 0:
            self.held[client] = left
        else:
            self.held.pop(client, None)

    def _count_forwarded(self) -> bool:
        """A trusted proxy's connection is counted for the client its first request's
        ``X-Forwarded-For`` names, as uvicorn and :func:`~meeple.server.quotas.client_of`
        take it (the proxy's own address would make every client behind it one)."""
        forwarded = b", ".join(v for n, v in self.headers if n == b"x-forwarded-for")
        host = ""
        if forwarded and self.proxies is not None:
            host = self.proxies.get_trusted_client_address(forwarded.decode("latin-1"))[0]
        return self._count(client_key(host or (self.client[0] if self.client else "")))

    # ------------------------------------------------------------ the body's time
    def _has_body(self) -> bool:
        for name, value in self.headers:
            if name == b"content-length":
                return value.strip() not in (b"", b"0")
            if name == b"transfer-encoding":
                return True
        return False

    def _start_body_timer(self) -> None:
        self._stop_body_timer()
        if self.limits.body_timeout:
            self._body_timer = self.loop.call_later(self.limits.body_timeout,
                                                    self._body_timed_out)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_timed_out(self) -> None:
        """The body did not come in time: 408 if nothing was answered yet, and the
        connection closed (the request's handler sees a client that left)."""
        self._body_timer = None
        if self._done or self.transport is None or self.transport.is_closing():
            return
        detail = (f"the request's body did not end within {self.limits.body_timeout:g} s of "
                  f"its head (MEEPLE_BODY_TIMEOUT); send a whole body at once")
        refused(408, "a request body", self.client, detail)
        if self.cycle is not None and self.cycle.response_started:
            self._done = True
            self.transport.close()
        else:
            self._close_with(raw_response(408, "Request Timeout", detail))

    # ------------------------------------------------------------ the head's time
    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.limits.timeout, self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._done or self.transport is None or self.transport.is_closing() or \
                self.transport.get_protocol() is not self:
            return
        if not self._in_head and self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered (its head had come in time)
        if self._head_begun:
            detail = (f"the request's head did not end within {self.limits.timeout:g} s of its "
                      f"first byte; send a whole head at once")
            refused(408, "a request head", self.client, detail)
            self._close_with(raw_response(408, "Request Timeout", detail))
        else:  # nothing was asked: close quietly (a browser's spare connection)
            self._done = True
            self.transport.close()

    def _close_with(self, response: bytes) -> None:
        self._done = True
        self._stop_head_timer()
        self._stop_body_timer()
        self.transport.write(response)
        self.transport.close()


def http_protocol(limits: HeadLimits, trusted: Iterable[str] = ()) -> type[EdgeHttpProtocol]:
    """The HTTP protocol class for uvicorn (``http=``) holding ``limits``, its own count of
    each client's connections, and the trusted proxies (as :func:`proxy_settings` gives
    them to uvicorn)."""

    class Protocol(EdgeHttpProtocol):
        pass

    Protocol.limits = limits
    Protocol.held = {}
    proxies = proxy_settings(trusted)["forwarded_allow_ips"]
    Protocol.proxies = _TrustedHosts(proxies) if proxies else None
    return Protocol


def proxy_settings(trusted: Iterable[str]) -> dict[str, Any]:
    """uvicorn's settings for the proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto``
    are believed: none by default (the client is the address that connected), else those
    addresses or networks (``*`` any: only behind a proxy that every request passes).
    :class:`ValueError` for one that is not an address or network."""
    proxies = []
    for item in trusted:
        item = item.strip()
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item[:100]!r} is not an IP address or network; give the "
                                 f"proxy's address as it connects, e.g. 127.0.0.1, 10.0.0.0/8 "
                                 f"or ::1") from None
        proxies.append(item)
    if not proxies:
        return {"proxy_headers": False, "forwarded_allow_ips": []}
    return {"proxy_headers": True, "forwarded_allow_ips": proxies}


def uvicorn_settings(config: EdgeConfig, trusted_proxies: Iterable[str] = ()) -> dict[str, Any]:
    """The settings ``meeple serve`` gives ``uvicorn.run`` for its edge."""
    trusted = list(trusted_proxies)
    return {"http": http_protocol(config.head, trusted), "timeout_keep_alive": KEEP_ALIVE,
            "server_header": False, **proxy_settings(trusted)}


# ------------------------------------------------------------------------------ API docs
#: Where the Swagger UI files are served (from the ``fastapi_offline`` package).
DOCS_FILES = "/docs/files"
#: Swagger UI started from a file (no inline script); no validator badge (it would ask an
#: outside service about the schema).
_DOCS_SCRIPT = """window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json", dom_id: "#swagger-ui", validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout", deepLinking: true,
  });
});
"""
_DOCS_PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>meeple API</title>
<link rel="stylesheet" href="{DOCS_FILES}/swagger-ui.css">
<link rel="icon" href="data:,">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{DOCS_FILES}/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""


def install_api_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI on ``/openapi.json``, every file from the server itself."""
    folder = resources.files("fastapi_offline") / "static"
    app.mount(DOCS_FILES, StaticFiles(directory=str(folder)), name="api-docs-files")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(_DOCS_PAGE)

    @app.get("/docs/start.js", include_in_schema=False)
    def docs_start() -> Response:
        return Response(_DOCS_SCRIPT, media_type="text/javascript")


__all__ = ["CSP", "HEAD_TIMEOUT", "KEEP_ALIVE", "LOOPBACK_HOSTS", "MAX_HEAD", "MAX_HEADERS",
           "STOP_HOOK", "Edge",
           "EdgeApp", "EdgeConfig", "EdgeHttpProtocol", "HeadLimits", "host_name", "http_protocol",
           "install_api_docs", "origin_of", "proxy_settings", "refuse_request", "security_headers",
           "uvicorn_settings"]
