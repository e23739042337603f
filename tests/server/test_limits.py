"""Limits that hold (issue 58), tried from outside on real ``meeple serve`` processes as the
probes did: requests the HTTP parser cannot read answered with the security headers, request
bodies timed out, each client's HTTP connections capped (by the forwarded address behind a
trusted proxy), passkey ceremonies and password changes limited per account and per client,
chat limited per address and per table, and usernames compared by their confusable skeleton.
Every refusal is a clear 4xx naming the limit."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import pytest

from tests.server.conftest import SQLITE_ONLY, Server, free_port

#: The limited server's settings: low, so a test reaches each in a few requests. Its proxy is
#: 127.0.0.1 (X-Forwarded-For believed from it); 127.0.0.2 and up are clients of their own.
PER_CLIENT = 3
LIMITS = {"MEEPLE_HTTP_PER_CLIENT": str(PER_CLIENT), "MEEPLE_BODY_TIMEOUT": "1",
          "MEEPLE_TRUSTED_PROXIES": "127.0.0.1"}


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("limited")
    srv = Server(f"sqlite:///{folder / 'meeple.db'}", free_port(), folder / "server.log")
    srv.env = dict(LIMITS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# ------------------------------------------------------------------------ raw sockets
def _connect(port: int, source: str = "127.0.0.1", timeout: float = 30) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                    source_address=(source, 0))


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


def _raw(port: int, data: bytes, source: str = "127.0.0.1") -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    with _connect(port, source) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        return _read_all(sock)


def _answer(raw: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    """A raw response's status, headers (lower-case names) and JSON body."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, json.loads(body) if body else {}


def _with_security_headers(headers: dict[str, str]) -> None:
    assert "frame-ancestors 'none'" in headers["content-security-policy"], headers
    assert headers["x-content-type-options"] == "nosniff", headers
    assert headers["x-frame-options"] == "DENY", headers
    assert headers["referrer-policy"] == "no-referrer", headers
    assert headers["content-type"] == "application/json", headers


# ------------------------------------------------------------------------ finding 15
@SQLITE_ONLY
def test_requests_the_parser_cannot_read_get_the_security_headers(server: Server) -> None:
    cases = {
        b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n": (431, "at most"),
        b"GARBAGE\r\n\r\n": (400, "request line"),
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: x\r\n\r\n": (400, "header"),
        b"GET /\x01 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n": (400, "URL"),
    }
    for request, (status, word) in cases.items():
        got, headers, body = _answer(_raw(server.port, request))
        assert got == status, (request[:40], got, body)
        _with_security_headers(headers)
        assert headers["connection"] == "close"
        assert word in str(body["detail"]), body
    # the server still answers
    assert server.api("GET", "/api/games").status_code == 200


# ------------------------------------------------------------------------ finding 9
def test_a_body_that_trickles_gets_408_and_is_closed(limited: Server) -> None:
    with _connect(limited.port, "127.0.0.2") as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        for _ in range(2):  # a byte now and then, as the probe's 900 connections did
            time.sleep(0.4)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b" ")
        status, headers, body = _answer(_read_all(sock))  # (closed by the server)
    assert status == 408, body
    assert "MEEPLE_BODY_TIMEOUT" in str(body["detail"]), body
    _with_security_headers(headers)
    # a whole body at once is read as always
    r = limited.api("POST", "/api/tables", json={"game": "nope"})
    assert r.status_code == 422, r.text


def _request(sock: socket.socket, forwarded: str | None = None) -> int:
    """One keep-alive GET on an open connection: its status (the connection stays open)."""
    extra = f"X-Forwarded-For: {forwarded}\r\n".encode() if forwarded else b""
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + b"\r\n")
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1])


def test_a_client_over_its_connection_cap_gets_429_and_is_closed(limited: Server) -> None:
    held = [_connect(limited.port, "127.0.0.3") for _ in range(PER_CLIENT)]
    try:
        for sock in held:
            assert _request(sock) == 200
        status, headers, body = _answer(_raw(limited.port, b"GET /api/games HTTP/1.1\r\n"
                                             b"Host: 127.0.0.1\r\n\r\n", "127.0.0.3"))
        assert status == 429, body
        assert "MEEPLE_HTTP_PER_CLIENT" in str(body["detail"]), body
        assert headers["retry-after"].isdigit()
        _with_security_headers(headers)
        # another client is not held back
        with _connect(limited.port, "127.0.0.4") as other:
            assert _request(other) == 200
    finally:
        for sock in held:
            sock.close()
    # the connections closed, the client may connect again (once the server saw them go)
    for _ in range(200):
        with _connect(limited.port, "127.0.0.3") as sock:
            with contextlib.suppress(AssertionError, ConnectionResetError):
                if _request(sock) == 200:
                    break
        time.sleep(0.05)
    else:
        raise AssertionError("the client's closed connections were not given back")


def test_behind_a_trusted_proxy_the_cap_counts_the_forwarded_client(limited: Server) -> None:
    """Connections from the proxy (127.0.0.1) are each client's they carry: one client
    behind it reaches its cap, another behind it does not."""
    held = [_connect(limited.port) for _ in range(PER_CLIENT)]
    try:
        for sock in held:
            assert _request(sock, "203.0.113.5") == 200
        with _connect(limited.port) as sock:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"X-Forwarded-For: 203.0.113.5\r\n\r\n")
            status, _, body = _answer(_read_all(sock))
        assert status == 429, body
        # the proxy's own address is not capped as one client: another client behind it
        for _ in range(PER_CLIENT):
            held.append(_connect(limited.port))
            assert _request(held[-1], "203.0.113.9") == 200
    finally:
        for sock in held:
            sock.close()
