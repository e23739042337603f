"""An account's seats from any device (issue 52), tried from outside on real server processes,
on SQLite and PostgreSQL: the seats an account holds at a table (what a page on a second device
asks), leaving a seat by session, and a WebSocket that acts by a session closed (4401) when that
session is signed out, here or everywhere; a seat acted for by its secret is not affected by a
sign-out here (sign-out everywhere revokes it: tests/server/test_seat_identity.py)."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.conftest import Server
from tests.server.test_accounts import Browser, _answer, _socket, guest_table, problem


def _closed_with(ws: ClientConnection, code: int) -> str:
    """Read frames until the server closes the socket; its close code must be ``code``: the
    reason it gave."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None, "closed without a close frame"
    assert closed.value.rcvd.code == code, closed.value.rcvd
    return closed.value.rcvd.reason


def test_a_second_device_finds_the_accounts_seat_and_plays_it(server: Server) -> None:
    laptop, phone = Browser(server), Browser(server)
    try:
        laptop.sign_up()
        made = laptop.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table = made["table"]["id"]
        # the phone keeps no secret; signed in to the same account it learns the seat
        assert phone.sign_in(laptop.username).status_code == 200
        r = phone.http.get(f"/api/me/tables/{table}/seats")
        assert r.status_code == 200 and r.json() == {"table": table, "seats": [made["seat"]]}
        # a table where the account holds no seat: none; a guest: 401; no such table: 404
        other = guest_table(server)
        assert phone.http.get(f"/api/me/tables/{other['table']['id']}/seats").json() == {
            "table": other["table"]["id"], "seats": []}
        problem(server.api("GET", f"/api/me/tables/{table}/seats"), 401, "sign in")
        problem(phone.http.get("/api/me/tables/nosuchtable/seats"), 404)
        problem(phone.http.get(f"/api/me/tables/{'x' * 300}/seats"), 404)
        # the phone's socket says hello with the seat alone: the session is the proof
        ws = _socket(server, table, phone.token)
        assert _answer(ws, {"type": "hello", "seat": made["seat"]})["type"] == "welcome"
        ws.close()
    finally:
        laptop.close()
        phone.close()


def test_leaving_a_seat_by_session(server: Server) -> None:
    ann = Browser(server)
    try:
        ann.sign_up()
        made = ann.create()  # two people: it waits for the second
        table, seat = made["table"]["id"], made["seat"]
        # a guest with no secret: refused, with what it needs; nothing changes
        problem(server.api("POST", f"/api/tables/{table}/leave", json={"seat": seat}), 403,
                "secret", "signed-in")
        assert seat not in server.api("GET", f"/api/tables/{table}").json()["open_seats"]
        # the account's browser needs no secret: the seat is the account's
        r = ann.request("POST", f"/api/tables/{table}/leave", json={"seat": seat})
        assert r.status_code == 200, r.text
        assert seat in r.json()["open_seats"]
        assert ann.http.get(f"/api/me/tables/{table}/seats").json()["seats"] == []
        # without its CSRF token the cookie's change is refused
        again = ann.create()
        r = ann.request("POST", f"/api/tables/{again['table']['id']}/leave",
                        json={"seat": again["seat"]}, csrf=False)
        assert r.status_code == 403 and "CSRF" in r.text
    finally:
        ann.close()


@pytest.mark.parametrize("everywhere", [False, True])
def test_signing_out_closes_the_sessions_sockets(server: Server, everywhere: bool) -> None:
    laptop, phone = Browser(server), Browser(server)
    try:
        laptop.sign_up()
        made = laptop.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table, seat = made["table"]["id"], made["seat"]
        assert phone.sign_in(laptop.username).status_code == 200
        by_session = _socket(server, table, phone.token)
        assert _answer(by_session, {"type": "hello", "seat": seat})["type"] == "welcome"
        # a program that kept the seat's secret: a sign-out here does not touch it, a
        # sign-out everywhere revokes the secret (tests/server/test_seat_identity.py)
        by_secret = _socket(server, table, laptop.token)
        assert _answer(by_secret, {"type": "hello", "seat": seat,
                                   "secret": made["secret"]})["type"] == "welcome"
        watcher = _socket(server, table, phone.token)
        assert _answer(watcher, {"type": "hello"})["type"] == "welcome"
        if everywhere:
            r = laptop.request("POST", "/api/session/revoke-all")
        else:
            r = phone.request("DELETE", "/api/session")
        assert r.status_code == 200, r.text
        reason = _closed_with(by_session, 4401)
        assert "signed out" in reason
        # the others stay open and answer
        for ws in ((watcher,) if everywhere else (by_secret, watcher)):
            ws.send(json.dumps({"type": "ping"}))
            for _ in range(50):
                if json.loads(ws.recv(timeout=30))["type"] == "pong":
                    break
            else:
                pytest.fail("no pong")
            ws.close()
        # and the seat can no longer be taken by that cookie
        ws = _socket(server, table, phone.token)
        got = _answer(ws, {"type": "hello", "seat": seat})
        assert got["type"] == "error" and "needs its secret" in got["reason"], got
        ws.close()
    finally:
        laptop.close()
        phone.close()


def test_the_export_is_written_page_by_page_and_whole(server: Server) -> None:
    """An account with more tables than an export reads at once (50): every seat is in it,
    and the JSON is whole."""
    ann = Browser(server)
    try:
        ann.sign_up()
        made = {ann.create()["table"]["id"] for _ in range(120)}
        r = ann.http.get("/api/me/export")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        data = r.json()
        assert {s["table"] for s in data["seats"]} == made and len(data["seats"]) == 120
        assert data["games"] == [] and data["account"]["username"] == ann.username
        problem(server.api("GET", "/api/me/export"), 401)
    finally:
        ann.close()
