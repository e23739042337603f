"""The server on the open internet, tried from outside as an attacker would (issue 51), on real
``meeple serve`` processes: request heads bounded in size and time, security headers on every
response, WebSocket origins and Hosts checked, no slash redirects, no API docs from a CDN,
duplicate JSON keys and look-alike names refused, forwarded addresses believed only from a
trusted proxy. Every refusal is a clear 4xx ``{"detail": ...}`` naming what is allowed."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from meeple.server import edge
from meeple.server.table.checks import BadInput, checked_name, loads_strict
from meeple.settings import Settings
from tests.aio import run
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server, free_port
from tests.server.test_play import create

#: The edge has nothing to do with the store.
pytestmark = SQLITE_ONLY

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
#: The configured server's settings (the default server is the module's ``server``).
PUBLIC_HOST = "meeple.test"
OTHER_ORIGIN = "https://play.example.org"
HEAD_TIMEOUT = 1.5


@pytest.fixture(scope="module")
def configured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with every edge setting given (by environment, as a service file would):
    a public host, another origin, 127.0.0.1 as a trusted proxy, /docs, a short head timeout."""
    folder = tmp_path_factory.mktemp("configured")
    srv = Server(f"sqlite:///{folder / 'meeple.db'}", free_port(), folder / "server.log")
    srv.env = {"MEEPLE_ALLOWED_HOSTS": f"{PUBLIC_HOST}, *.example.net",
               "MEEPLE_ALLOWED_ORIGINS": OTHER_ORIGIN, "MEEPLE_TRUSTED_PROXIES": "127.0.0.1",
               "MEEPLE_API_DOCS": "1", "MEEPLE_HEAD_TIMEOUT": str(HEAD_TIMEOUT)}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _detail(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail


def _raw(port: int, data: bytes, timeout: float = 30) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)  # (the server may answer and close before all is sent)
        return _read_all(sock)


def _read_all(sock: socket.socket) -> bytes:
    got = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


# ---------------------------------------------------------------- 1. the request head
def test_thirty_unterminated_8mib_headers_get_431_and_the_memory_stays_put(server: Server
                                                                           ) -> None:
    """Before: 30 sockets each sending an 8 MiB header that never ends took the server from
    317 to 581 MB. Now each is answered 431 once its head passes 32 KiB and closed."""
    assert server.proc is not None
    before = _rss_mb(server.proc.pid)
    head = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
    socks = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(30)]
    answers = []
    try:
        chunk = b"a" * (64 << 10)
        for sock in socks:
            sock.sendall(head)
        for _ in range(128):  # 8 MiB each, a chunk at a time to every socket
            if not socks:
                break
            for sock in list(socks):
                try:
                    sock.sendall(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    answers.append(_read_all(sock))
                    sock.close()
                    socks.remove(sock)
        peak = _rss_mb(server.proc.pid)
    finally:
        for sock in socks:
            answers.append(_read_all(sock))
            sock.close()
    assert len(answers) == 30
    assert all(a.startswith(b"HTTP/1.1 431 ") for a in answers), {a[:40] for a in answers}
    body = json.loads(answers[0].split(b"\r\n\r\n", 1)[1])
    assert "32768 bytes" in body["detail"]
    assert peak - before < 40, (before, peak)  # a head at most 32 KiB + one read, per socket
    assert server.api("GET", "/api/games").status_code == 200


def test_a_whole_head_over_the_limit_is_431_and_a_large_secret_still_passes(
        server: Server) -> None:
    # an 8 MiB header that ends: before, 200
    big = (b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (8 << 20)
           + b"\r\n\r\n")
    assert _raw(server.port, big).startswith(b"HTTP/1.1 431 ")
    # a 40 KiB head sent in one piece (it may all arrive in one read): 431 from the app's edge
    r = server.api("GET", "/api/games", headers={"X-Big": "a" * (40 << 10)})
    assert "at most 32768" in _detail(r, 431)
    r = server.api("GET", "/api/games", headers={f"X-H{i}": "1" for i in range(120)})
    assert "at most 100" in _detail(r, 431)
    # what the clients send stays well within: an 8,000-byte secret header, a long query
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    r = server.api("GET", f"/api/tables/{t}/view", params={"seat": 0},
                   headers={"X-Seat-Secret": "x" * 8000})
    assert r.status_code == 403, r.text
    assert server.api("GET", "/api/tables", params={"game": "g" * 8000}).status_code < 500


def _closed_after(port: int, first: bytes, trickle: bytes | None, limit: float
                  ) -> tuple[float, bytes]:
    """Open a connection, send ``first``, then a byte of ``trickle`` every 0.2 s (if any);
    the seconds until the server closed it, and what it sent."""
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as sock:
        start = time.monotonic()
        sock.sendall(first)
        sock.settimeout(0.2)
        got = b""
        for i in range(int(limit / 0.2)):
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    return time.monotonic() - start, got
                got += chunk
            except TimeoutError:
                pass
            except ConnectionResetError:
                return time.monotonic() - start, got
            if trickle is not None:
                try:
                    sock.sendall(trickle[i % len(trickle):i % len(trickle) + 1])
                except (BrokenPipeError, ConnectionResetError):
                    return time.monotonic() - start, got
    raise AssertionError(f"the connection was still open after {limit} s")


def test_a_slow_loris_is_dropped_after_the_head_timeout(configured: Server) -> None:
    """A head trickled a byte every 0.2 s (it never ends) is answered 408 and closed after
    the head timeout (1.5 s here; 10 s by default): before, it was kept for good."""
    took, got = _closed_after(configured.port, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                              b"X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaa", limit=30)
    assert HEAD_TIMEOUT - 0.1 <= took <= HEAD_TIMEOUT + 1.5, took
    assert got.startswith(b"HTTP/1.1 408 "), got[:60]
    assert "within 1.5 s" in json.loads(got.split(b"\r\n\r\n", 1)[1])["detail"]
    # a connection that sends nothing is closed as quickly, with nothing said
    took, got = _closed_after(configured.port, b"", None, limit=30)
    assert HEAD_TIMEOUT - 0.1 <= took <= HEAD_TIMEOUT + 1.5 and got == b"", (took, got)
    # after a first request, the second's head is timed from its own first byte
    with socket.create_connection(("127.0.0.1", configured.port), timeout=30) as sock:
        sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = b""
        while not first.endswith(b"]"):  # the whole answer (a JSON list)
            first += sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 "), first[:60]
        time.sleep(1.0)  # idle (within the 5 s keep-alive)
        start = time.monotonic()
        sock.sendall(b"GET /api/bots HTTP/1.1\r\n")
        got = _read_all(sock)
        assert got.startswith(b"HTTP/1.1 408 "), got[:60]
        assert HEAD_TIMEOUT - 0.1 <= time.monotonic() - start <= HEAD_TIMEOUT + 1.5
    # a request that takes longer than the head timeout to answer is not cut short
    made = create(configured, "gardens", {"level": 1}, TWO_PEOPLE, join_as="Ann")
    p = Player(configured.ws_base, made["table"]["id"], made["seat"], made["secret"])
    try:
        time.sleep(HEAD_TIMEOUT + 0.5)  # a WebSocket outlives the head timeout
        p.send({"type": "ping"})
        assert p.expect("pong")["type"] == "pong"
    finally:
        p.close()


# ---------------------------------------------------------------- 2. security headers
def _has_security_headers(r: httpx.Response) -> None:
    csp = r.headers.get("content-security-policy", "")
    for part in ("default-src 'self'", "script-src 'self';", "style-src 'self';",
                 "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"):
        assert part in csp, (r.request.url, part, csp)
    assert "unsafe" not in csp
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers.get("referrer-policy") == "no-referrer"
    assert r.headers.get("x-frame-options") == "DENY"
    assert r.headers.get("cross-origin-opener-policy") == "same-origin"


def test_every_kind_of_response_carries_the_security_headers(server: Server) -> None:
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    answers = {
        "REST": server.api("GET", "/api/games"),
        "page": server.api("GET", "/"),
        "table page": server.api("GET", f"/t/{t}"),
        "missing table page": server.api("GET", "/t/nosuchtable"),
        "static file": server.api("GET", "/static/js/common.js"),
        "static 404": server.api("GET", "/static/js/nothing.js"),
        "unknown path": server.api("GET", "/nothing/here"),
        "422": server.api("POST", "/api/tables", content=b"{", headers={
            "content-type": "application/json"}),
        "413": server.api("POST", "/api/tables", content=b"[" + b"1," * 400_000 + b"1]",
                          headers={"content-type": "application/json"}),
        "405": server.api("DELETE", "/api/games"),
        "bad Host": server.api("GET", "/", headers={"Host": "evil.example"}),
        "head too big": server.api("GET", "/", headers={"X-Big": "a" * (40 << 10)}),
    }
    expected = {"REST": 200, "page": 200, "table page": 200, "missing table page": 404,
                "static file": 200, "static 404": 404, "unknown path": 404, "422": 422,
                "413": 413, "405": 405, "bad Host": 400, "head too big": 431}
    for what, r in answers.items():
        assert r.status_code == expected[what], (what, r.status_code, r.text[:200])
        _has_security_headers(r)
    # the page's WebSocket goes to its own host, named for browsers that 'self' does not cover
    csp = answers["page"].headers["content-security-policy"]
    assert f"ws://127.0.0.1:{server.port}" in csp and f"wss://127.0.0.1:{server.port}" in csp
    # the 431 and 408 the protocol writes itself carry them too
    raw = _raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * (1 << 20))
    head = raw.split(b"\r\n\r\n", 1)[0].decode().lower()
    assert "x-content-type-options: nosniff" in head and "content-security-policy:" in head


def test_the_pages_have_no_inline_script_style_or_handler(server: Server) -> None:
    """What the CSP would refuse in the served HTML: an inline <script>, a style attribute,
    an on* handler attribute, a javascript: URL, or anything loaded from another site."""
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    for path in ("/", f"/t/{t}", "/t/nosuchtable", "/solo/", "/solo/Ann"):
        html = server.api("GET", path).text
        for script in re.findall(r"<script\b[^>]*>", html, flags=re.I):
            assert "src=" in script, (path, script)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, flags=re.I), path
        assert not re.search(r"\sstyle\s*=", html, flags=re.I), path
        assert not re.search(r"\son[a-z]+\s*=", html, flags=re.I), path
        assert "javascript:" not in html.lower(), path
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", html, flags=re.I), path


# (the pages under the policy in Chromium: tests/web/test_policy.py)


# ---------------------------------------------------------------- 3. WebSocket origins
def _handshake(srv: Server, table: str, origin: str | None) -> int | None:
    """The HTTP status a WebSocket handshake with ``origin`` is refused with, or None when it
    is let in (the connection is then used: hello, welcome)."""
    try:
        with connect(f"{srv.ws_base}/ws/tables/{table}", origin=origin,
                     open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
            return None
    except InvalidStatus as exc:
        body = json.loads(exc.response.body or b"{}")
        assert "Origin" in body["detail"] and "allowed" in body["detail"], body
        return int(exc.response.status_code)


def test_a_websocket_from_another_site_is_refused(server: Server) -> None:
    """Before: any site's page could watch any table whose id it knew."""
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    assert _handshake(server, t, "http://evil.example") == 403
    assert _handshake(server, t, "null") == 403  # a sandboxed frame, a file
    assert _handshake(server, t, f"http://127.0.0.1:{server.port + 1}") == 403
    # the server's own pages, at any name it answers to; clients with no Origin
    assert _handshake(server, t, f"http://127.0.0.1:{server.port}") is None
    assert _handshake(server, t, None) is None
    with connect(f"{server.ws_base}/ws/tables/{t}", origin=f"http://localhost:{server.port}",
                 additional_headers={"Host": f"localhost:{server.port}"}, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
    assert "refused 403 WebSocket /ws/tables/" in server.log.read_text()


def test_an_allowed_origin_may_open_a_websocket(configured: Server) -> None:
    t = create(configured, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    assert _handshake(configured, t, OTHER_ORIGIN) is None
    assert _handshake(configured, t, OTHER_ORIGIN + ":8443") == 403
    assert _handshake(configured, t, "https://evil.example") == 403


def test_meeple_join_still_plays_online(server: Server) -> None:
    """The terminal client (``meeple join``) sends no Origin: it watches a bots' table."""
    import asyncio

    from meeple.cli.online import play_online

    t = create(server, "gardens", {"level": 1}, [{"kind": "bot", "bot": "random"}] * 2)["id"]
    assert run(asyncio.wait_for(play_online(server.base, t, None, None), 300)) == 0


# ---------------------------------------------------------------- 4. Hosts, no redirects
def test_another_host_is_400_and_never_reflected(server: Server) -> None:
    r = server.api("GET", "/api/tables/", headers={"Host": "evil.example"})
    detail = _detail(r, 400)
    assert "'evil.example'" in detail and "127.0.0.1, [::1], localhost" in detail
    assert "--allowed-host" in detail and "location" not in r.headers
    for host in ("127.0.0.1", f"127.0.0.1:{server.port}", f"localhost:{server.port}",
                 f"[::1]:{server.port}", "LOCALHOST"):
        assert server.api("GET", "/api/games", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "127.0.0.1.evil.example", "localhost.", "", "127.0.0.2"):
        _detail(server.api("GET", "/api/games", headers={"Host": host}), 400)
    # a WebSocket handshake under another Host (DNS rebinding) is refused too
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_base}/ws/tables/{t}", additional_headers={"Host": "evil.example"},
                open_timeout=30)
    assert refused.value.response.status_code == 400


def test_no_trailing_slash_redirect_and_the_pages_routes_resolve(server: Server) -> None:
    """Before: ``GET /api/tables/`` redirected to ``http://<the request's Host>/api/tables``."""
    r = server.api("GET", "/api/tables/", follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers
    t = create(server, "gardens", {"level": 1}, TWO_PEOPLE)["id"]
    for path in ("/", f"/t/{t}", "/solo/", "/solo/Ann", "/api/games", "/api/bots",
                 "/api/tables", f"/api/tables/{t}", f"/api/tables/{t}/layout",
                 "/static/js/lobby.js", "/static/css/meeple.css", "/openapi.json"):
        assert server.api("GET", path, follow_redirects=False).status_code == 200, path
    r = server.api("GET", "/solo", follow_redirects=False)  # the page's own redirect: relative
    assert r.status_code in (307, 302) and r.headers["location"] == "/solo/"


def test_configured_hosts_are_answered(configured: Server) -> None:
    for host in (PUBLIC_HOST, f"{PUBLIC_HOST}:443", "eu.example.net", "127.0.0.1"):
        assert configured.api("GET", "/api/games", headers={"Host": host}).status_code == 200
    for host in ("example.net", "evil.example", f"{PUBLIC_HOST}.evil.example"):
        detail = _detail(configured.api("GET", "/api/games", headers={"Host": host}), 400)
        assert PUBLIC_HOST in detail and "*.example.net" in detail


# ---------------------------------------------------------------- 5. API docs
def test_api_docs_are_off_by_default_and_served_from_the_server_itself(
        server: Server, configured: Server) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect", "/docs/files/swagger-ui.css"):
        assert server.api("GET", path).status_code == 404, path
    assert server.api("GET", "/openapi.json").status_code == 200
    page = configured.api("GET", "/docs")
    assert page.status_code == 200
    _has_security_headers(page)
    assets = re.findall(r"(?:src|href)=\"([^\"]+)\"", page.text)
    assert assets and all(a.startswith("/") or a.startswith("data:") for a in assets), assets
    assert not re.search(r"<script>\s*\S", page.text)  # the start is a file of its own
    for asset in assets:
        if asset.startswith("/"):
            r = configured.api("GET", asset)
            assert r.status_code == 200 and len(r.content) > 0, asset
    start = configured.api("GET", "/docs/start.js").text
    assert "validatorUrl: null" in start and "/openapi.json" in start
    assert configured.api("GET", "/redoc").status_code == 404


# ---------------------------------------------------------------- 6. duplicate JSON keys
def test_duplicate_keys_are_refused_in_bodies_and_frames(server: Server) -> None:
    before = server.api("GET", "/api/tables").json()
    body = (b'{"game": "gardens", "seats": [{"kind": "human"}, {"kind": "human"}], '
            b'"variant": {"level": 1}, "game": "reefs"}')
    detail = _detail(server.api("POST", "/api/tables", content=body,
                                headers={"content-type": "application/json"}), 422)
    assert "repeats the key 'game'" in detail and "once" in detail
    nested = b'{"game": "gardens", "seats": [{"kind": "human", "kind": "bot"}]}'
    assert "'kind'" in _detail(server.api("POST", "/api/tables", content=nested,
                                          headers={"content-type": "application/json"}), 422)
    long_key = b'{"' + b"k" * 5000 + b'": 1, "' + b"k" * 5000 + b'": 2}'
    detail = _detail(server.api("POST", "/api/tables", content=long_key,
                                headers={"content-type": "application/json"}), 422)
    assert len(detail) < 300
    assert server.api("GET", "/api/tables").json() == before
    made = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "bot",
                                                    "bot": "random"}], join_as="Ann")
    p = Player(server.ws_base, made["table"]["id"], made["seat"], made["secret"])
    try:
        p.send('{"type": "ping", "type": "move", "move": "x", "version": 0}')
        frame = p.expect("error")
        assert "repeats the key 'type'" in frame["reason"], frame
        p.send({"type": "ping"})
        assert p.expect("pong")["type"] == "pong"
    finally:
        p.close()


def test_loads_strict_refuses_repeated_keys_at_any_depth() -> None:
    assert loads_strict('{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}') == {
        "a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}
    for text in ('{"a": 1, "a": 1}', '[{"x": {"y": 1, "y": 2}}]', '{"\\u0061": 1, "a": 2}'):
        with pytest.raises(BadInput, match="repeats the key"):
            loads_strict(text)


# ---------------------------------------------------------------- 7. names
NAMES_KEPT = [("Ann", "Ann"), ("  Ann   Lee ", "Ann Lee"), ("Ａｎｎ", "Ann"),
              ("Zoë", "Zoë"), ("Иван", "Иван"), ("Ann Иван", "Ann Иван"), ("Άννα", "Άννα"),
              ("李小龍", "李小龍"),
              ("O'Neil-3", "O'Neil-3"), ("a\u00a0b", "a b"), ("ส้ม", "ส้ม")]
NAMES_REFUSED = [
    (" ", "blank"), ("\u3000", "blank"), ("\u3164", "invisible"), ("\u2800", "invisible"),
    ("A\u200bnn", "invisible"), ("Ann\u202e", "invisible"), ("\u2066Ann", "invisible"),
    ("Ann\u00ad", "invisible"), ("\u0410nn", "mixes"), ("Ann \u0418\u0432\u0430\u043d\u0061", "mixes"),
    ("P\u0430yPal", "mixes"), ("\u03bfk", "mixes"), ("a\nb", "control"), ("a\u0000b", "control"),
    ("x\ue000", "private-use"), ("a" + "\u0301" * 6, "combining"), ("x" * 61, "1 to 60"),
    ("\u2028", "control")]


@pytest.mark.parametrize(("name", "kept"), NAMES_KEPT)
def test_names_are_kept_normalised(name: str, kept: str) -> None:
    assert checked_name(name) == kept


@pytest.mark.parametrize(("name", "why"), NAMES_REFUSED)
def test_names_that_deceive_are_refused(name: str, why: str) -> None:
    with pytest.raises(BadInput) as refused:
        checked_name(name)
    assert why in str(refused.value) and ("a name is" in str(refused.value)
                                          or "1 to 60" in str(refused.value))


def test_names_are_normalised_and_checked_on_the_server(server: Server) -> None:
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}] * 3)["id"]
    r = server.api("POST", f"/api/tables/{t}/join", json={"name": "Ａｎｎ"})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][r.json()["seat"]]["name"] == "Ann"
    for name, _ in NAMES_REFUSED:
        detail = _detail(server.api("POST", f"/api/tables/{t}/join", json={"name": name}), 422)
        assert "name" in detail, detail
    for body in ({"game": "gardens", "variant": {"level": 1}, "seats": TWO_PEOPLE,
                  "join_as": "\u0410nn"},
                 {"game": "gardens", "variant": {"level": 1},
                  "seats": [{"kind": "human", "name": " "}, {"kind": "human"}]}):
        detail = _detail(server.api("POST", "/api/tables", json=body), 422)
        assert "Latin, Greek and Cyrillic" in detail or "blank" in detail, detail
    assert server.api("GET", f"/api/tables/{t}").json()["open_seats"] == [1, 2]
    # the solo table of a name looks the name up as names are kept
    assert server.api("GET", "/api/solo/%EF%BC%A1nn").json()["player"] == "Ann"
    _detail(server.api("GET", "/api/solo/%E2%80%AEAnn"), 422)


# ---------------------------------------------------------------- 8. behind a proxy
def _refusal_logged_from(srv: Server, marker: str) -> str:
    """Send a request the edge refuses (its Host) claiming to come from 1.2.3.4, and read the
    address the server logged it from."""
    r = srv.api("GET", f"/api/{marker}", headers={"Host": "unlisted.example",
                                                  "X-Forwarded-For": "1.2.3.4",
                                                  "X-Forwarded-Proto": "https"})
    assert r.status_code == 400
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for line in srv.log.read_text().splitlines():
            if f"/api/{marker} from " in line:
                return line.split(" from ", 1)[1].split(":", 1)[0]
        time.sleep(0.05)
    raise AssertionError(f"no log line for {marker}")


def test_forwarded_for_is_believed_only_from_a_trusted_proxy(server: Server,
                                                             configured: Server) -> None:
    """Before: uvicorn believed X-Forwarded-For from 127.0.0.1 without being told to."""
    assert _refusal_logged_from(server, "untrusted-proxy") == "127.0.0.1"
    assert _refusal_logged_from(configured, "trusted-proxy") == "1.2.3.4"


def test_proxy_settings() -> None:
    assert edge.proxy_settings([]) == {"proxy_headers": False, "forwarded_allow_ips": []}
    assert edge.proxy_settings(["10.0.0.0/8", "::1"]) == {
        "proxy_headers": True, "forwarded_allow_ips": ["10.0.0.0/8", "::1"]}
    with pytest.raises(ValueError, match="not an IP address"):
        edge.proxy_settings(["proxy.example"])


# ---------------------------------------------------------------- settings
def test_edge_settings_are_read_and_checked() -> None:
    config = edge.EdgeConfig.for_serve("0.0.0.0", ["Meeple.Example.org:443", "[2001:db8::7]"],
                                       ["https://meeple.example.org:443/", "http://a.b:8000"])
    assert config.allowed_hosts == {"127.0.0.1", "localhost", "[::1]", "meeple.example.org",
                                    "[2001:db8::7]"}
    assert config.allowed_origins == {"https://meeple.example.org", "http://a.b:8000"}
    assert edge.EdgeConfig.for_serve("::1").allowed_hosts == {"127.0.0.1", "localhost",
                                                              "[::1]"}
    assert edge.EdgeConfig.for_serve("192.0.2.7").host_allowed("192.0.2.7")
    assert edge.EdgeConfig.for_serve("127.0.0.1", ["*"]).allowed_hosts is None
    for bad in ("http://x", "a b", "x/y"):
        with pytest.raises(ValueError, match="not a host name"):
            edge.EdgeConfig.for_serve("127.0.0.1", [bad])
    for bad in ("meeple.example.org", "ftp://x.org", "https://x.org/path", "https://x.org:99999"):
        with pytest.raises(ValueError):
            edge.EdgeConfig.for_serve("127.0.0.1", [], [bad])
    listed = Settings.from_env({"MEEPLE_ALLOWED_HOSTS": "a, b,,c"}).server
    assert listed.allowed_hosts == ("a", "b", "c") and listed.allowed_origins == ()


def test_serve_refuses_bad_edge_settings_with_a_clear_message() -> None:
    from typer.testing import CliRunner

    from meeple.cli import app

    for args, words in ((["--allowed-origin", "ftp://x.org"], "not an origin"),
                        (["--allowed-host", "a/b"], "not a host name"),
                        (["--trusted-proxy", "proxy.example"], "not an IP address")):
        result = CliRunner().invoke(app, ["serve", *args])
        assert result.exit_code == 2, result.output
        assert words in result.output
