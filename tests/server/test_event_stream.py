"""The account event stream (``GET /api/stream/event``, issue 60), from outside on real server
processes on SQLite and PostgreSQL: a bot account's bearer token opens it; ``gameStart`` comes
when the account takes a seat, ``gameFinish`` when that game ends, a challenge row put in the
store shows as a ``challenge`` event and its end as ``challengeGone``; keep-alive lines come in
quiet times; a revoked token ends the stream; the fifth stream of an account is refused (429
naming the setting); a server stopping ends its streams rather than waiting on them."""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import connect

from tests.server.conftest import TLS, Server, free_port
from tests.server.test_accounts import PASSWORD, Browser, problem
from tests.server.test_api_tokens import bearer, make_token

#: A short poll and keep-alive, so each event comes within a second.
EVENTS = {"MEEPLE_EVENTS_POLL": "0.2", "MEEPLE_EVENTS_KEEPALIVE": "1"}


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(EVENTS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def bot_account(srv: Server, scopes: tuple[str, ...] = ("play", "challenge", "read")
                ) -> tuple[Browser, str]:
    """A new account made a bot account with a token, from outside: (its page, the token)."""
    b = Browser(srv)
    b.sign_up()
    secret, _ = make_token(b, list(scopes))
    r = srv.api("POST", "/api/me/bot", headers=bearer(secret))
    assert r.status_code == 200 and r.json()["account"]["bot_account"], r.text
    return b, secret


class Stream:
    """One open event stream, read in a thread: its lines (events as dicts, keep-alives as
    None) in a queue, and how it ended (``ended``)."""

    def __init__(self, srv: Server, secret: str) -> None:
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.ended = threading.Event()
        self.client = httpx.Client(base_url=srv.base, verify=TLS,
                                   timeout=httpx.Timeout(60, read=30))
        self.response = self.client.send(
            self.client.build_request("GET", "/api/stream/event", headers=bearer(secret)),
            stream=True)
        self.status = self.response.status_code
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            if self.status == 200:
                for text in self.response.iter_lines():
                    self.lines.put(json.loads(text) if text.strip() else None)
        except httpx.HTTPError:
            pass
        finally:
            self.ended.set()

    def next(self, kind: str, timeout: float = 30, **match: Any) -> dict[str, Any]:
        """The next event of type ``kind`` (whose fields include ``match``), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                event = self.lines.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {kind} event {match} in {timeout} s") from None
            if event is not None and event["type"] == kind and all(
                    _found(event, k, v) for k, v in match.items()):
                return event

    def close(self) -> None:
        self.response.close()
        self.client.close()


def _found(event: dict[str, Any], key: str, value: Any) -> bool:
    inner = event.get("game") or event.get("challenge") or event
    return inner.get(key, event.get(key)) == value


def seated(srv: Server, secret: str) -> str:
    """A running table the bot account holds seat 0 of (against a random bot)."""
    r = srv.api("POST", "/api/tables", headers=bearer(secret),
                json={"game": "gardens", "variant": {"level": 1}, "join_as": "robo",
                      "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    table: str = r.json()["table"]["id"]
    return table


def play_to_the_end(srv: Server, secret: str, table: str) -> None:
    """Seat 0 plays the first legal move each turn, over the WebSocket with the token."""
    with connect(f"{srv.ws_base}/ws/tables/{table}", additional_headers=bearer(secret),
                 open_timeout=30, ping_interval=None, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "seat": 0}))
        for _ in range(5000):
            frame = json.loads(ws.recv(timeout=120))
            if frame["type"] != "view":
                continue
            view = frame["view"]
            if view.get("over"):
                return
            if view.get("to_move") == 0 and view.get("legal_moves"):
                ws.send(json.dumps({"type": "move", "move": view["legal_moves"][0],
                                    "version": frame["version"]}))
    raise AssertionError("the game did not end")


def test_game_start_and_finish_and_keep_alives(server: Server) -> None:
    _, secret = bot_account(server)
    stream = Stream(server, secret)
    try:
        assert stream.status == 200
        assert stream.response.headers["content-type"].startswith("application/x-ndjson")
        # quiet: a blank line within the keep-alive interval
        got = stream.lines.get(timeout=10)
        assert got is None, got
        table = seated(server, secret)
        start = stream.next("gameStart", table=table)["game"]
        assert start["seat"] == 0 and start["game"] == "gardens" and \
            start["url"] == f"/t/{table}" and start["variant"]["level"] == 1
        play_to_the_end(server, secret, table)
        finish = stream.next("gameFinish", table=table)["game"]
        assert finish["status"] == "finished" and finish["result"] is not None
    finally:
        stream.close()
    # a stream opened later tells of the seats in play only (the finished game is not one)
    again = Stream(server, secret)
    try:
        other = seated(server, secret)
        assert again.next("gameStart")["game"]["table"] == other
    finally:
        again.close()


def challenge_row(srv: Server, challenger: str, challenged: str, state: str = "open"
                  ) -> str:
    """A challenge put in the store directly (its routes are another feature's)."""
    engine = sa.create_engine(srv.db_url)
    ident = secrets.token_hex(8)
    when = datetime.now(UTC)
    try:
        with engine.begin() as conn:
            ids = dict(conn.execute(sa.text(
                "SELECT username, id FROM accounts WHERE username IN (:a, :b)"),
                {"a": challenger, "b": challenged}).all())
            conn.execute(sa.text(
                "INSERT INTO challenges (id, challenger_id, challenged_id, game, variant, seats,"
                " challenger_seat, others, pace, clock, rated, state, created, expires) VALUES "
                "(:id, :a, :b, 'gardens', :variant, 2, NULL, :others, 'live', NULL, :rated, "
                ":state, :created, :expires)"),
                {"id": ident, "a": ids[challenger], "b": ids[challenged],
                 "variant": json.dumps({"level": 1}), "others": "[]", "rated": False,
                 "state": state, "created": when, "expires": when + timedelta(hours=1)})
    finally:
        engine.dispose()
    return ident


def set_challenge_state(srv: Server, ident: str, state: str) -> None:
    engine = sa.create_engine(srv.db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE challenges SET state = :s WHERE id = :id"),
                         {"s": state, "id": ident})
    finally:
        engine.dispose()


def test_a_challenge_in_the_store_is_an_event_both_ways_and_its_end_too(server: Server
                                                                        ) -> None:
    person = Browser(server)
    person.sign_up()
    bot_page, secret = bot_account(server)
    ident = challenge_row(server, person.username, bot_page.username)
    stream = Stream(server, secret)
    try:
        event = stream.next("challenge", id=ident)["challenge"]
        assert event["challenger"] == {"name": person.username, "display": person.username,
                                       "bot_account": False}
        assert event["challenged"] == {"name": bot_page.username, "display": bot_page.username,
                                       "bot_account": True}
        assert event["game"] == "gardens" and event["pace"] == "live" and \
            event["state"] == "open" and event["rated"] is False
        # one that appears while the stream is open (the bot's own, outgoing)
        later = challenge_row(server, bot_page.username, person.username)
        assert stream.next("challenge", id=later)["challenge"]["challenger"]["bot_account"]
        set_challenge_state(server, ident, "declined")
        assert stream.next("challengeGone", id=ident) == {"type": "challengeGone", "id": ident}
    finally:
        stream.close()


def test_a_revoked_token_ends_the_stream_and_a_fifth_stream_is_refused(server: Server
                                                                        ) -> None:
    page, secret = bot_account(server)
    streams = [Stream(server, secret) for _ in range(4)]
    try:
        assert [s.status for s in streams] == [200] * 4
        fifth = server.api("GET", "/api/stream/event", headers=bearer(secret))
        problem(fifth, 429, "MEEPLE_EVENTS_PER_ACCOUNT", "4")
        assert fifth.headers["retry-after"]
        streams.pop().close()
        # one closed frees its place (the server sees the close at its next line)
        deadline = time.monotonic() + 20
        while True:
            again = Stream(server, secret)
            if again.status == 200:
                streams.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "a closed stream's place was not freed"
            time.sleep(0.3)
        token_id = page.http.get("/api/me/tokens").json()["tokens"][0]["id"]
        assert page.request("DELETE", f"/api/me/tokens/{token_id}").status_code == 200
        for s in streams:
            assert s.ended.wait(20), "a revoked token's stream went on"
        problem(server.api("GET", "/api/stream/event", headers=bearer(secret)), 401, "revoked")
    finally:
        for s in streams:
            s.close()


def test_a_deleted_account_ends_its_stream(server: Server) -> None:
    page, secret = bot_account(server)
    stream = Stream(server, secret)
    try:
        assert stream.status == 200
        r = page.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        assert stream.ended.wait(20), "a deleted account's stream went on"
    finally:
        stream.close()


def test_the_stream_needs_a_token_or_session(server: Server) -> None:
    problem(server.api("GET", "/api/stream/event"), 401, "sign in")
    # a person's signed-in page may open its own
    person = Browser(server)
    person.sign_up()
    with person.http.stream("GET", "/api/stream/event") as r:
        assert r.status_code == 200
        assert next(r.iter_lines()) == ""  # nothing of its own yet: a keep-alive


def test_a_stopping_server_ends_its_streams(db_url: str, tmp_path_factory: pytest.TempPathFactory
                                            ) -> None:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {**EVENTS, "MEEPLE_EVENTS_KEEPALIVE": "60"}
    srv.start()
    try:
        _, secret = bot_account(srv)
        stream = Stream(srv, secret)
        assert stream.status == 200
        seated(srv, secret)
        stream.next("gameStart")
        assert srv.proc is not None
        srv.proc.terminate()
        # uvicorn waits for open responses before it stops: the stream must end by itself
        # (uvicorn ends by raising the signal again once it has stopped: -15)
        assert srv.proc.wait(timeout=20) in (0, -15)
        assert stream.ended.wait(5)
        stream.close()
    finally:
        srv.stop(kill=True)
