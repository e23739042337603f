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
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import SQLITE_ONLY, TLS, Server, free_port
from tests.server.test_accounts import PASSWORD, Browser, guest_table, problem
from tests.server.test_passkeys import Authenticator
from tests.server.test_passkeys import Browser as PasskeyBrowser

#: The limited server's settings: low, so a test reaches each in a few requests. Its proxy is
#: 127.0.0.1 (X-Forwarded-For believed from it); 127.0.0.2 and up are clients of their own.
PER_CLIENT = 8
#: Chat messages a table may have (all authors) in the limited server's hour.
TABLE_RATE = 8
#: Passkey ceremonies an account (and a client) may begin in the limited server's hour.
CEREMONY_RATE = 4
#: Password changes an account (and a client) may ask in the limited server's hour.
PASSWORD_RATE = 3
LIMITS = {"MEEPLE_HTTP_PER_CLIENT": str(PER_CLIENT), "MEEPLE_BODY_TIMEOUT": "1",
          "MEEPLE_TRUSTED_PROXIES": "127.0.0.1",
          "MEEPLE_RATE_CHAT": "3/hour", "MEEPLE_RATE_CHAT_CLIENT": "5/hour",
          "MEEPLE_RATE_CHAT_TABLE": f"{TABLE_RATE}/hour",
          "MEEPLE_RATE_PASSWORD": f"{PASSWORD_RATE}/hour", "MEEPLE_HASH_PER_CLIENT": "2",
          "MEEPLE_RATE_CEREMONY": f"{CEREMONY_RATE}/hour"}


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
        with _connect(limited.port, "127.0.0.3") as sock, \
                contextlib.suppress(AssertionError, ConnectionResetError):
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


# ------------------------------------------------------------------------ finding 13
class Spectator:
    """A signed-in spectator's chat at a table, from ``address`` (the X-Forwarded-For the
    trusted proxy 127.0.0.1 gives)."""

    def __init__(self, srv: Server, table: str, token: str | None, address: str) -> None:
        self.ws = connect(f"{srv.ws_base}/ws/tables/{table}", open_timeout=60,
                          ping_interval=None, close_timeout=10, max_size=None,
                          additional_headers={"Cookie": f"meeple_session={token}",
                                              "X-Forwarded-For": address}).__enter__()
        self.ws.send(json.dumps({"type": "hello", "chat": True}))
        self.expect(lambda f: f["type"] == "chat" and f.get("history") is True)

    def expect(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
            if match(frame):
                return frame

    def say(self, text: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "chat", "text": text}))
        return self.expect(lambda f: f.get("posted") is True or
                           (f["type"] == "error" and f.get("chat") is True))

    def close(self) -> None:
        self.ws.close()


def _account(srv: Server, address: str) -> Browser:
    b = Browser(srv)
    b.http.headers["X-Forwarded-For"] = address
    b.sign_up()
    return b


def _posted(answer: dict[str, Any]) -> None:
    assert answer["type"] == "chat" and answer.get("posted") is True, answer


def _refused(answer: dict[str, Any], setting: str) -> None:
    assert answer["type"] == "error" and answer["chat"] is True, answer
    assert setting in answer["reason"] and "not posted" in answer["reason"], answer
    assert answer["retry"] is True, answer


def test_chat_is_limited_per_address_as_well_as_per_author(limited: Server) -> None:
    """Fresh accounts from one address share its rate: the probe's 20 accounts could each
    post their own 60 an hour into a stranger's table."""
    table = guest_table(limited, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    address = "198.51.100.7"
    people = [_account(limited, address) for _ in range(3)]
    chats = [Spectator(limited, table["table"]["id"], p.token, address) for p in people]
    try:
        for n, chat in enumerate([chats[0], chats[0], chats[1], chats[1], chats[2]]):
            _posted(chat.say(f"message {n}"))  # each author within its own 3/hour
        _refused(chats[2].say("one more from this address"), "MEEPLE_RATE_CHAT_CLIENT")
        # someone at another address is not held back
        other = _account(limited, "198.51.100.8")
        elsewhere = Spectator(limited, table["table"]["id"], other.token, "198.51.100.8")
        _posted(elsewhere.say("hello from elsewhere"))
        elsewhere.close()
        other.close()
    finally:
        for chat in chats:
            chat.close()
        for p in people:
            p.close()
    texts = [m["text"] for m in limited.api(
        "GET", f"/api/tables/{table['table']['id']}/chat").json()["messages"]]
    assert "one more from this address" not in texts and "message 4" in texts


def test_chat_is_limited_per_table(limited: Server) -> None:
    """Authors at many addresses together post at most the table's rate into it."""
    table = guest_table(limited, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    tid = table["table"]["id"]
    people, chats = [], []
    try:
        for n in range(5):
            address = f"198.51.101.{n + 1}"
            people.append(_account(limited, address))
            chats.append(Spectator(limited, tid, people[-1].token, address))
        for n in range(TABLE_RATE):
            _posted(chats[n // 2].say(f"message {n}"))  # two each: within author and address
        _refused(chats[4].say("one too many here"), "MEEPLE_RATE_CHAT_TABLE")
        # the same author at another table is not held back
        there = guest_table(limited, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        other = Spectator(limited, there["table"]["id"], people[4].token, "198.51.101.5")
        _posted(other.say("one too many here"))
        other.close()
    finally:
        for chat in chats:
            chat.close()
        for p in people:
            p.close()


# ------------------------------------------------------------------------ finding 4
def _change(b: Browser, old: str, new: str) -> httpx.Response:
    r = b.request("POST", "/api/me/password", json={"old_password": old, "new_password": new})
    if r.status_code == 200:
        b.csrf = r.json()["csrf"]
    return r


def test_password_changes_are_counted_per_account_and_per_client(limited: Server) -> None:
    ann = _account(limited, "192.0.2.10")
    password = PASSWORD
    for n in range(PASSWORD_RATE):
        new = f"{PASSWORD} {n}"
        assert _change(ann, password, new).status_code == 200
        password = new
    r = _change(ann, password, "yet another password")
    problem(r, 429, "MEEPLE_RATE_PASSWORD", "for this account")
    assert r.headers["retry-after"].isdigit()
    # nothing was changed: the last password still signs in
    assert ann.sign_in(password=password).status_code == 200
    ann.close()
    # two accounts at one address share the address's count
    bob, cy = _account(limited, "192.0.2.11"), _account(limited, "192.0.2.11")
    assert _change(bob, PASSWORD, "bob's new password").status_code == 200
    assert _change(bob, "bob's new password", "bob's newer password").status_code == 200
    assert _change(cy, PASSWORD, "cy's new password").status_code == 200
    problem(_change(cy, "cy's new password", "cy's newer one"), 429, "MEEPLE_RATE_PASSWORD",
            "from your address")
    bob.close()
    cy.close()


def test_a_client_has_at_most_its_share_of_password_hashing(limited: Server) -> None:
    """Many password checks at once from one address: those beyond its share are refused
    at once (429), not queued before everyone else's sign-in; another address signs in."""
    ann = _account(limited, "192.0.2.20")
    other = _account(limited, "192.0.2.21")

    def sign_in(_: int) -> httpx.Response:
        with httpx.Client(base_url=limited.base, timeout=120, verify=TLS,
                          headers={"X-Forwarded-For": "192.0.2.20"}) as http:
            return http.post("/api/session", json={"username": ann.username,
                                                   "password": PASSWORD})

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(sign_in, range(12)))
        assert other.sign_in().status_code == 200
    codes = sorted(r.status_code for r in answers)
    assert set(codes) == {200, 429}, codes
    refusal = next(r for r in answers if r.status_code == 429)
    problem(refusal, 429, "MEEPLE_HASH_PER_CLIENT")
    assert refusal.headers["retry-after"].isdigit()
    ann.close()
    other.close()


# ------------------------------------------------------------------------ finding 3
def test_an_account_holds_at_most_five_passkey_ceremonies(server: Server) -> None:
    """Asking again and again for options to add a passkey replaces the account's oldest
    ceremony, so one account cannot fill the site's pool: the first options' challenge is
    gone, the newest still works."""
    ann = PasskeyBrowser(server)
    ann.sign_up()
    auth = Authenticator(ann.origin)
    first = ann.options("/api/passkeys/register/options")
    asked = [ann.options("/api/passkeys/register/options") for _ in range(40)]
    r = ann.post("/api/passkeys/register", {"credential": auth.create(first)})
    problem(r, 400, "unknown")
    r = ann.post("/api/passkeys/register", {"credential": auth.create(asked[-1])})
    assert r.status_code == 201, r.text
    assert len(ann.mine()["passkeys"]) == 1
    ann.close()


def test_passkey_ceremonies_are_limited_per_account_and_per_client(limited: Server) -> None:
    ann = PasskeyBrowser(limited, address="127.0.0.5")
    ann.sign_up()
    for _ in range(CEREMONY_RATE):
        ann.options("/api/passkeys/register/options")
    r = ann.post("/api/passkeys/register/options")
    problem(r, 429, "MEEPLE_RATE_CEREMONY", "for this account")
    assert r.headers["retry-after"].isdigit()
    # another account at another address is not held back
    bob = PasskeyBrowser(limited, address="127.0.0.6")
    bob.sign_up()
    bob.options("/api/passkeys/register/options")
    # a fresh account at ann's address shares the address's count
    cy = PasskeyBrowser(limited, address="127.0.0.5")
    cy.sign_up()
    problem(cy.post("/api/passkeys/register/options"), 429, "MEEPLE_RATE_CEREMONY",
            "from your address")
    for b in (ann, bob, cy):
        b.close()


# ------------------------------------------------------------------------ finding 14
def _sign_up(srv: Server, username: str) -> httpx.Response:
    with httpx.Client(base_url=srv.base, timeout=60, verify=TLS) as http:
        return http.post("/api/accounts", json={"username": username, "password": PASSWORD})


#: (a username, its look-alike of one other script, or with a look-alike letter; a name that
#: mixes scripts is refused already)
LOOK_ALIKES = [("opeoaa", "ореоаа"),  # all Latin, all Cyrillic
               ("info", "ınfo"),  # a dotless i
               ("cocoa", "СОСОА"),  # all Cyrillic, in capitals
               ("modern", "rnodern")]  # r and n for m


def test_look_alike_usernames_are_refused_beside_their_twins(server: Server) -> None:
    for first, twin in LOOK_ALIKES:
        assert _sign_up(server, first).status_code == 201
        detail = problem(_sign_up(server, twin), 409, "looks the same as", repr(first))
        assert "choose another" in detail
        # a passkey sign-up is refused before its ceremony too
        b = PasskeyBrowser(server)
        problem(b.post("/api/passkeys/signup/options", {"username": twin}), 409,
                "looks the same")
        b.close()
    # names that only resemble each other stay free
    assert _sign_up(server, "opeoab").status_code == 201
    assert _sign_up(server, "Zoë_plays").status_code == 201
    assert _sign_up(server, "Zoe_plays").status_code == 201
    # a deleted account's name (and its look-alikes) are free again
    b = Browser(server)
    b.sign_up("caxap")
    assert b.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    b.close()
    assert _sign_up(server, "сахар").status_code == 201  # all Cyrillic


def test_the_migration_gives_every_account_its_skeleton_and_keeps_old_twins(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Accounts made before skeletons were kept, two of them look-alikes: after the
    migration both keep their names and sign in, and a third look-alike is refused."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher
    from sqlalchemy import create_engine, text

    folder = tmp_path_factory.mktemp("old")
    url = f"sqlite:///{folder / 'meeple.db'}"
    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("meeple.store") / "migrations"))
    hashed = PasswordHash((Argon2Hasher(),)).hash(PASSWORD)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0011")
        for n, name in enumerate(["opeoaa", "ореоаа", "someone"]):
            conn.execute(text(
                "INSERT INTO accounts (id, username, username_key, display_name, "
                "password_hash, created, settings, deleted, email_verified) VALUES (:id, :name, "
                ":name, :name, :hash, :created, '{}', 0, 0)"),
                {"id": f"old{n}", "name": name, "hash": hashed,
                 "created": f"2026-01-0{n + 1} 00:00:00"})
    engine.dispose()
    srv = Server(url, free_port(), folder / "server.log")
    srv.start()
    try:
        for name in ("opeoaa", "ореоаа", "someone"):
            r = srv.api("POST", "/api/session", json={"username": name, "password": PASSWORD})
            assert r.status_code == 200, (name, r.text)
        problem(_sign_up(srv, "ОРЕОАА"), 409, "taken")
        problem(_sign_up(srv, "sorneone"), 409, "looks the same", "'someone'")
    finally:
        srv.stop()
    with create_engine(url).connect() as conn:
        kept = dict(conn.execute(text("SELECT id, username_skeleton FROM accounts")).all())
    assert kept == {"old0": "opeoaa", "old1": "opeoaa#old1", "old2": "sorneone"}, kept
