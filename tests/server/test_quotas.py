"""Per-client limits (issue 51), tried from outside on a real server as an attacker would: tables
created, seats joined, open tables held, WebSocket connections and frames; stale waiting tables
leaving the lobby, the lobby's pages; idempotency keys bound to their client.

Each test is one client, or several, at addresses of its own: the whole of 127.0.0.0/8 is this
machine, so a client bound to 127.0.0.N reaches the server on 127.0.0.1 from its own address
and the server counts it apart (:func:`client`, :func:`socket`)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meeple.sections import rate
from meeple.server.edge_settings import LaneSettings, QuotaSettings
from meeple.server.quotas import client_hash, client_of
from meeple.settings import Settings
from tests.server.conftest import SQLITE_ONLY, TLS, Server, free_port

#: The limits of this module's server: low, so a test reaches each in a few requests.
LIMITS = {
    "MEEPLE_RATE_CREATE": "6/minute", "MEEPLE_OPEN_TABLES": "4", "MEEPLE_RATE_JOIN": "5/minute",
    "MEEPLE_WS_PER_CLIENT": "4", "MEEPLE_RATE_FRAMES": "10/second",
    "MEEPLE_RATE_CLIENT_FRAMES": "30/second", "MEEPLE_RATE_FRAMES_REFUSED": "40/10 seconds",
    "MEEPLE_STALE_WAITING": "6",
}
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
FOUR_PEOPLE = [{"kind": "human"}] * 4


@pytest.fixture(scope="module")
def limited(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(LIMITS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def client(srv: Server, address: str) -> httpx.Client:
    """An HTTP client of ``srv`` whose requests come from ``address`` (127.0.0.N)."""
    return httpx.Client(base_url=srv.base, timeout=60, verify=TLS,
                        transport=httpx.HTTPTransport(local_address=address))


def socket(srv: Server, table: str, address: str) -> ClientConnection:
    """A WebSocket to ``table`` from ``address`` (no keepalive pings of its own)."""
    return connect(f"{srv.ws_base}/ws/tables/{table}", source_address=(address, 0),
                   open_timeout=30, ping_interval=None, close_timeout=5).__enter__()


def create(http: httpx.Client, seats: list[dict[str, Any]] = TWO_PEOPLE, *,
           game: str = "gardens", headers: dict[str, str] | None = None, **extra: Any
           ) -> httpx.Response:
    variant = {"level": 1} if game == "gardens" else {}
    return http.post("/api/tables", json={"game": game, "variant": variant, "seats": seats,
                                          **extra}, headers=headers)


def refused(r: httpx.Response, status: int, limit: str) -> dict[str, Any]:
    """``r`` is a refusal by ``limit``: its status, a Retry-After, a JSON body naming it."""
    assert r.status_code == status, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["limit"] == limit and limit in body["detail"], body
    assert int(r.headers["Retry-After"]) >= 1 and body["retry_after"] >= 1
    return body


# ---------------------------------------------------------------- creating and joining
@SQLITE_ONLY
def test_creating_tables_is_rate_limited_per_client(limited: Server) -> None:
    """Issue 51 #4: one client made 2,645 tables in 60 s. Now the seventh in a minute is a
    429 naming MEEPLE_RATE_CREATE; another address is not held back by it. (Tables of random
    bots, each played out before the next, so the cap of open tables is not what refuses.)"""
    with client(limited, "127.0.0.2") as flood, client(limited, "127.0.0.3") as other:
        for _ in range(6):
            made = create(flood, [{"kind": "bot", "bot": "random"}] * 2)
            assert made.status_code == 201, made.text
            deadline = time.monotonic() + 30
            while flood.get(f"/api/tables/{made.json()['id']}").json()["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.1)
        body = refused(create(flood), 429, "MEEPLE_RATE_CREATE")
        assert body["retry_after"] <= 60
        assert create(other, [{"kind": "bot", "bot": "random"}] * 2).status_code == 201


def test_open_tables_are_capped_per_client(limited: Server) -> None:
    """A client holds at most MEEPLE_OPEN_TABLES waiting or running tables (the store counts
    them, on either store): the fifth is a 429 that creates nothing, while another address
    creates; an idempotent retry of one made is answered, not refused; once its waiting
    tables expire (MEEPLE_STALE_WAITING, 6 s here) the client creates again."""
    with client(limited, "127.0.0.4") as flood, client(limited, "127.0.0.5") as other:
        key = {"Idempotency-Key": "open-tables-cap-0001"}
        first = create(flood, headers=key)
        assert first.status_code == 201, first.text
        mine = [first.json()["id"]] + [create(flood).json()["id"] for _ in range(3)]
        before = other.get("/api/tables", params={"status": "waiting"}).json()
        refused(create(flood), 429, "MEEPLE_OPEN_TABLES")
        after = other.get("/api/tables", params={"status": "waiting"}).json()
        assert {t["id"] for t in after} <= {t["id"] for t in before}  # nothing was made
        again = create(flood, headers=key)  # the retry of a request made: its answer
        assert again.status_code == 201 and again.json()["id"] == first.json()["id"]
        assert create(other).status_code == 201
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            if all(other.get(f"/api/tables/{t}").json()["status"] == "finished" for t in mine):
                break
            time.sleep(0.5)
        r = create(flood)
        assert r.status_code == 201, r.text


@SQLITE_ONLY
def test_joining_is_rate_limited_per_client(limited: Server) -> None:
    with client(limited, "127.0.0.6") as host, client(limited, "127.0.0.7") as joiner:
        tables = [create(host, FOUR_PEOPLE).json()["id"] for _ in range(2)]
        seats = [(t, s) for t in tables for s in range(4)]
        for t, s in seats[:5]:
            r = joiner.post(f"/api/tables/{t}/join", json={"name": "J", "seat": s})
            assert r.status_code == 200, r.text
        t, s = seats[5]
        refused(joiner.post(f"/api/tables/{t}/join", json={"name": "J", "seat": s}), 429,
                "MEEPLE_RATE_JOIN")
        # the refused join took nothing: the seat is open for someone else
        assert s in host.get(f"/api/tables/{t}").json()["open_seats"]
        assert host.post(f"/api/tables/{t}/join", json={"name": "H", "seat": s}
                         ).status_code == 200


# ---------------------------------------------------------------- the lobby
def test_a_flood_never_hides_a_real_waiting_table(limited: Server) -> None:
    """Issue 51 #4: the lobby showed the newest 200 tables, so a flood hid the real ones. A
    flood is now held to a few tables (rate and cap), and the lobby pages through all of them
    (limit, offset, X-Total-Count) and filters by game and status."""
    with client(limited, "127.0.0.8") as flood, client(limited, "127.0.0.9") as person:
        codes = [create(flood).status_code for _ in range(30)]
        assert codes.count(201) <= 4 and set(codes) <= {201, 429}, codes
        real = create(person, game="reefs", join_as="Ann")
        assert real.status_code == 201, real.text
        real_id = real.json()["table"]["id"]
        waiting = person.get("/api/tables", params={"status": "waiting", "limit": 30})
        assert real_id in [t["id"] for t in waiting.json()]
        # every waiting table, page by page, each once: the pages add up to the total
        total = int(waiting.headers["X-Total-Count"])
        seen: list[str] = []
        for offset in range(0, total + 2, 2):
            page = person.get("/api/tables", params={"status": "waiting", "limit": 2,
                                                     "offset": offset})
            assert page.status_code == 200 and len(page.json()) <= 2
            seen += [t["id"] for t in page.json()]
        assert len(seen) == len(set(seen)) and real_id in seen
        assert abs(len(seen) - total) <= 2  # (tables of the other tests come and go)
        reefs = person.get("/api/tables", params={"status": "waiting", "game": "reefs"}).json()
        assert real_id in [t["id"] for t in reefs]
        assert all(t["game"] == "reefs" and t["status"] == "waiting" for t in reefs)
        for bad in ({"limit": 0}, {"limit": 201}, {"offset": -1}):
            r = person.get("/api/tables", params=bad)
            assert r.status_code == 422 and isinstance(r.json()["detail"], str)


def test_waiting_tables_nobody_joins_expire_out_of_the_lobby(limited: Server) -> None:
    """A waiting table nobody took or left a seat at for MEEPLE_STALE_WAITING seconds (6 s
    here, an hour by default) is closed: finished without a result, no longer listed as
    waiting, nobody can join it. One with a client connected to it waits on."""
    with client(limited, "127.0.0.10") as person:
        stale = create(person, join_as="Ann").json()["table"]["id"]
        watched = create(person).json()["id"]
        watcher = socket(limited, watched, "127.0.0.10")
        try:
            watcher.send(json.dumps({"type": "hello"}))
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                if person.get(f"/api/tables/{stale}").json()["status"] == "finished":
                    break
                time.sleep(0.5)
            gone = person.get(f"/api/tables/{stale}").json()
            assert gone["status"] == "finished" and gone["result"] is None
            waiting = [t["id"] for t in person.get("/api/tables",
                                                   params={"status": "waiting"}).json()]
            assert stale not in waiting
            r = person.post(f"/api/tables/{stale}/join", json={"name": "Bob"})
            assert r.status_code == 409 and "finished" in r.json()["detail"]
            assert person.get(f"/api/tables/{watched}").json()["status"] == "waiting"
        finally:
            watcher.close()


# ---------------------------------------------------------------- WebSockets
@SQLITE_ONLY
def test_websocket_connections_are_capped_per_client(limited: Server) -> None:
    """Issue 51 #6: one client opened 3,000 WebSockets in 23 s (190 MB). Now the fifth of one
    address is refused before it is accepted: HTTP 429 with Retry-After and the JSON of every
    refusal; other addresses connect; a closed one frees its place."""
    with client(limited, "127.0.0.11") as person:
        table = create(person).json()["id"]
    held = [socket(limited, table, "127.0.0.11") for _ in range(4)]
    try:
        with pytest.raises(InvalidStatus) as refusal:
            socket(limited, table, "127.0.0.11")
        response = refusal.value.response
        assert response.status_code == 429
        assert int(response.headers["Retry-After"]) >= 1
        body = json.loads(response.body or b"{}")
        assert body["limit"] == "MEEPLE_WS_PER_CLIENT" and "at most 4" in body["detail"]
        other = socket(limited, table, "127.0.0.12")
        other.close()
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # (the server counts the close once it has seen it)
            try:
                held.append(socket(limited, table, "127.0.0.11"))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        held[-1].send(json.dumps({"type": "ping"}))
        assert json.loads(held[-1].recv(timeout=10))["type"] == "pong"
    finally:
        for ws in held:
            ws.close()


def _answers(ws: ClientConnection, count: int) -> list[dict[str, Any]]:
    return [json.loads(ws.recv(timeout=20)) for _ in range(count)]


@SQLITE_ONLY
def test_frames_over_the_rate_are_answered_with_retry_and_the_connection_stays(
        limited: Server) -> None:
    """Frames: 10 a second a connection here (20 by default). A burst of 30 gets 10 answers
    and 20 ``error`` frames with ``retry`` naming the limit; a move over it is ``refused``
    with its id and ``retry``; a second later the same connection is served again."""
    with client(limited, "127.0.0.13") as person:
        made = create(person, join_as="Ann").json()
    ws = socket(limited, made["table"]["id"], "127.0.0.13")
    try:
        ws.send(json.dumps({"type": "hello", "seat": made["seat"], "secret": made["secret"]}))
        assert [f["type"] for f in _answers(ws, 2)] == ["welcome", "view"]
        time.sleep(1.1)  # a new window
        for _ in range(30):
            ws.send(json.dumps({"type": "ping"}))
        ws.send(json.dumps({"type": "move", "move": "take O", "version": 0, "id": "m1"}))
        got = _answers(ws, 31)
        kinds = [f["type"] for f in got]
        assert 8 <= kinds.count("pong") <= 10, kinds
        errors = [f for f in got if f["type"] == "error"]
        assert errors and all(f["retry"] is True and "MEEPLE_RATE_FRAMES" in f["reason"]
                              for f in errors)
        move = got[-1]
        assert move["type"] == "refused" and move["id"] == "m1" and move["retry"] is True
        time.sleep(1.1)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"
    finally:
        ws.close()


@SQLITE_ONLY
def test_a_clients_frames_are_limited_across_its_connections(limited: Server) -> None:
    """30 frames a second for all of a client's connections here: four connections of one
    address sending 10 each within a second get some refused by MEEPLE_RATE_CLIENT_FRAMES,
    which holds no other address back."""
    with client(limited, "127.0.0.14") as person:
        table = create(person).json()["id"]
    socks = [socket(limited, table, "127.0.0.14") for _ in range(4)]
    try:
        time.sleep(1.1)
        for ws in socks:
            for _ in range(10):
                ws.send(json.dumps({"type": "ping"}))
        got = [f for ws in socks for f in _answers(ws, 10)]
        over = [f for f in got if f["type"] == "error"]
        assert over and all("MEEPLE_RATE_CLIENT_FRAMES" in f["reason"] for f in over)
        assert sum(f["type"] == "pong" for f in got) <= 31
        other = socket(limited, table, "127.0.0.15")
        other.send(json.dumps({"type": "ping"}))
        assert json.loads(other.recv(timeout=10))["type"] == "pong"
        other.close()
    finally:
        for ws in socks:
            ws.close()


@SQLITE_ONLY
def test_a_client_far_over_its_frame_rate_is_closed_with_1008(limited: Server) -> None:
    """A connection that keeps sending after being told to wait (here more than 40 refused
    frames in 10 s) is closed with a close frame, code 1008 and a reason; the server goes
    on serving its other clients."""
    with client(limited, "127.0.0.16") as person:
        table = create(person).json()["id"]
    ws = socket(limited, table, "127.0.0.16")
    stop = threading.Event()

    def flood() -> None:
        try:
            for _ in range(400):
                if stop.is_set():
                    return
                ws.send(json.dumps({"type": "ping"}))
        except ConnectionClosed:
            return

    sender = threading.Thread(target=flood)
    sender.start()
    try:
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(500):
                ws.recv(timeout=20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "too many frames" in closed.value.rcvd.reason
    finally:
        stop.set()
        sender.join(timeout=30)
        ws.close()
    with client(limited, "127.0.0.17") as other:
        assert other.get(f"/api/tables/{table}").status_code == 200


# ---------------------------------------------------------------- idempotency keys
def test_an_idempotency_key_replayed_from_another_address_never_gets_the_secret(
        limited: Server, tmp_path: Path) -> None:
    """Issue 51 #10: a guessable Idempotency-Key (16 zeros and a 1) replayed by someone else
    returned the victim's seat secret. A key is now its client's own: the same request with
    the same key from another address is another request (its own table, its own seat and
    secret); from the victim's address it is still the victim's retry. On either store."""
    key = {"Idempotency-Key": "0" * 16 + "1"}
    with client(limited, "127.0.0.18") as victim, client(limited, "127.0.0.19") as thief:
        made = create(victim, [{"kind": "human"}] * 3, join_as="Ann", headers=key)
        assert made.status_code == 201, made.text
        table, secret = made.json()["table"]["id"], made.json()["secret"]
        stolen = create(thief, [{"kind": "human"}] * 3, join_as="Ann", headers=key)
        assert stolen.status_code == 201, stolen.text
        assert stolen.json()["table"]["id"] != table and stolen.json()["secret"] != secret
        retry = create(victim, [{"kind": "human"}] * 3, join_as="Ann", headers=key)
        assert retry.json()["table"]["id"] == table and retry.json()["secret"] == secret
        # a join: the same, seat by seat
        jkey = {"Idempotency-Key": "0" * 16 + "2"}
        joined = victim.post(f"/api/tables/{table}/join", json={"name": "Bob"}, headers=jkey)
        assert joined.status_code == 200, joined.text
        replayed = thief.post(f"/api/tables/{table}/join", json={"name": "Bob"}, headers=jkey)
        assert replayed.status_code == 200, replayed.text  # a seat of its own, still open
        assert replayed.json()["seat"] != joined.json()["seat"]
        assert replayed.json()["secret"] != joined.json()["secret"]
        again = thief.post(f"/api/tables/{table}/join", json={"name": "Bob"}, headers=jkey)
        assert again.json()["secret"] == replayed.json()["secret"]  # its own retry
        full = victim.post(f"/api/tables/{table}/join", json={"name": "Bob"}, headers=jkey)
        assert full.json()["secret"] == joined.json()["secret"]
        # with every seat taken, a third address replaying gets a refusal, no secret
        with client(limited, "127.0.0.20") as third:
            late = third.post(f"/api/tables/{table}/join", json={"name": "Bob"}, headers=jkey)
            assert late.status_code == 409 and "secret" not in late.json()


# ---------------------------------------------------------------- the settings, in this process
def test_the_limits_settings_are_read_and_checked() -> None:
    """Every limit is a setting: a rate as ``limits`` writes one (or off), a cap as a number;
    a bad value stops the server at start with a message naming the variable."""
    default = Settings.from_env({}).quotas
    assert default == QuotaSettings() and default.open_tables == 20 and default.sockets == 64
    assert [str(r) for r in rate(default.frames_refused)] == ["100 per 10 second"]
    got = Settings.from_env({"MEEPLE_RATE_CREATE": "5/second;100/hour",
                             "MEEPLE_RATE_JOIN": "off", "MEEPLE_OPEN_TABLES": "0"}).quotas
    assert len(rate(got.create)) == 2 and rate(got.join) == [] and got.open_tables == 0
    for var, value in (("MEEPLE_RATE_CREATE", "lots"), ("MEEPLE_OPEN_TABLES", "-1"),
                       ("MEEPLE_WS_PER_CLIENT", "many"), ("MEEPLE_STALE_WAITING", "inf")):
        with pytest.raises(ValueError, match=var):
            Settings.from_env({var: value})
    assert Settings.from_env({}).hints == LaneSettings(workers=1, queue=8, per_client=2,
                                                       cpu_per_minute=30)
    for var, value in (("MEEPLE_HINT_WORKERS", "x"), ("MEEPLE_HINT_QUEUE", "0"),
                       ("MEEPLE_HINT_CPU", "-3")):
        with pytest.raises(ValueError, match=var):
            Settings.from_env({var: value})


def test_a_client_is_its_address_and_an_ipv6_one_its_64() -> None:
    def of(host: str | None) -> str:
        scope = {"type": "http", "client": None if host is None else (host, 1234)}
        return client_of(Request(scope))

    assert of("192.0.2.7") == "192.0.2.7"
    assert of("2001:db8:1:2:aaaa::1") == of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert of("2001:db8:1:3::1") != of("2001:db8:1:2::1")
    assert of("::ffff:192.0.2.7") == "192.0.2.7"
    assert of(None) == "unknown" and of("testclient") == "testclient"
    assert client_hash("192.0.2.7") != client_hash("192.0.2.8")
    assert "192.0.2.7" not in client_hash("192.0.2.7") and len(client_hash("x")) == 64
