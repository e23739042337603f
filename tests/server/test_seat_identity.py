"""One identity per seat (issue 58), tried from outside on real server processes, on SQLite
and PostgreSQL (and across two processes of one PostgreSQL): a WebSocket acting for a seat
ends (4403) when the seat is left and taken by someone else, when its secret is claimed into
an account, and when sign-out everywhere revokes the secrets of the account's seats; a claim
is idempotent; a rematch's seats belong to the finished table's people (a stranger: 403)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser, _answer, _socket, guest_table, problem

THREE_PEOPLE = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module")
def second(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server process on the same PostgreSQL (fan-out by LISTEN/NOTIFY)."""
    if not server.db_url.startswith("postgresql"):
        pytest.skip("two server processes share tables on PostgreSQL only")
    other = Server(server.db_url, free_port(), tmp_path_factory.mktemp("log2") / "server.log")
    other.start()
    try:
        yield other
    finally:
        other.stop()


def _closed_with(ws: ClientConnection, code: int) -> str:
    """Read frames until the server closes the socket with a close frame of ``code``: its
    reason."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(500):
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None, "closed without a close frame"
    assert closed.value.rcvd.code == code, closed.value.rcvd
    return closed.value.rcvd.reason


def _hello(srv: Server, table: str, seat: int | None, secret: str | None = None,
           cookie: str | None = None) -> tuple[ClientConnection, dict[str, Any]]:
    ws = _socket(srv, table, cookie)
    frame: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        frame["seat"] = seat
    if secret is not None:
        frame["secret"] = secret
    return ws, _answer(ws, frame)


def _join(srv: Server, table: str, seat: int, name: str) -> str:
    r = srv.api("POST", f"/api/tables/{table}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    secret: str = r.json()["secret"]
    return secret


def _seat_changes_hands(play_on: Server, change_on: Server) -> None:
    """The probe's repro: a 3-seat table; a socket says hello on seat 1 with its secret; the
    seat is left and another person takes it; the old socket must be closed (4403) before
    the game starts, and its secret opens nothing."""
    made = guest_table(change_on, seats=THREE_PEOPLE, name="Ann")
    table = made["table"]["id"]
    bob = _join(change_on, table, 1, "Bob")
    old, got = _hello(play_on, table, 1, bob)
    assert got["type"] == "welcome", got
    watcher, got = _hello(play_on, table, None)
    assert got["type"] == "welcome", got
    r = change_on.api("POST", f"/api/tables/{table}/leave", json={"seat": 1, "secret": bob})
    assert r.status_code == 200 and 1 in r.json()["open_seats"], r.text
    # left before the game: the seat opened again, so the socket is no longer its
    reason = _closed_with(old, 4403)
    assert "no longer yours" in reason and "left" in reason
    cat = _join(change_on, table, 1, "Cat")
    _join(change_on, table, 2, "Dan")  # every seat taken: the game starts
    # Bob's secret opens nothing; Cat's seat is Cat's alone
    again, got = _hello(play_on, table, 1, bob)
    assert got["type"] == "error" and "not the secret" in got["reason"], got
    again.close()
    new, got = _hello(play_on, table, 1, cat)
    assert got["type"] == "welcome", got
    new.close()
    # a spectator is not touched by seats changing hands
    watcher.send(json.dumps({"type": "ping"}))
    for _ in range(200):
        if json.loads(watcher.recv(timeout=30))["type"] == "pong":
            break
    else:
        pytest.fail("the spectator got no pong")
    watcher.close()


def test_a_socket_ends_when_its_seat_is_left_and_taken_by_someone_else(server: Server) -> None:
    _seat_changes_hands(server, server)


def test_a_socket_in_another_process_ends_when_its_seat_changes_hands(
        server: Server, second: Server) -> None:
    _seat_changes_hands(second, server)


def test_a_claimed_seat_is_the_accounts_and_its_old_secret_opens_nothing(
        server: Server) -> None:
    made = guest_table(server, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table, seat, secret = made["table"]["id"], made["seat"], made["secret"]
    by_secret, got = _hello(server, table, seat, secret)
    assert got["type"] == "welcome", got
    ann = Browser(server)
    try:
        ann.sign_up()
        claim = {"seats": [{"table": table, "seat": seat, "secret": secret}]}
        r = ann.request("POST", "/api/me/claim", json=claim)
        assert r.status_code == 200, r.text
        assert r.json() == {"claimed": [{"table": table, "seat": seat}], "refused": []}
        # the socket that showed the secret is closed; the secret opens nothing any more
        assert "secret was revoked" in _closed_with(by_secret, 4403)
        ws, got = _hello(server, table, seat, secret)
        assert got["type"] == "error" and "not the secret" in got["reason"], got
        ws.close()
        problem(server.api("POST", f"/api/tables/{table}/concede",
                           json={"seat": seat, "secret": secret}), 403)
        # a retry of the claim (the answer was lost) claims the same seat again
        r = ann.request("POST", "/api/me/claim", json=claim)
        assert r.json() == {"claimed": [{"table": table, "seat": seat}], "refused": []}, r.text
        # another account with the old secret: refused, per seat, with why
        bob = Browser(server)
        try:
            bob.sign_up()
            r = bob.request("POST", "/api/me/claim", json=claim)
            assert r.status_code == 200 and r.json()["claimed"] == []
            assert "another account" in r.json()["refused"][0]["reason"]
        finally:
            bob.close()
        # the account's session plays the seat, with no secret
        ws, got = _hello(server, table, seat, cookie=ann.token)
        assert got == {"type": "welcome", "table": table, "seat": seat}
        ws.close()
    finally:
        ann.close()


def test_signing_out_everywhere_revokes_the_secrets_of_the_accounts_seats(
        server: Server) -> None:
    laptop, phone = Browser(server), Browser(server)
    try:
        laptop.sign_up()
        made = laptop.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table, seat, secret = made["table"]["id"], made["seat"], made["secret"]
        # a program kept the secret of the answer; a browser acts by its session
        by_secret, got = _hello(server, table, seat, secret)
        assert got["type"] == "welcome", got
        assert phone.sign_in(laptop.username).status_code == 200
        by_session, got = _hello(server, table, seat, cookie=phone.token)
        assert got["type"] == "welcome", got
        r = laptop.request("POST", "/api/session/revoke-all")
        assert r.status_code == 200, r.text
        assert "signed out" in _closed_with(by_session, 4401)
        assert "secret was revoked" in _closed_with(by_secret, 4403)
        ws, got = _hello(server, table, seat, secret)
        assert got["type"] == "error" and "not the secret" in got["reason"], got
        ws.close()
        # signed in again, the account plays its seat
        assert laptop.sign_in().status_code == 200
        ws, got = _hello(server, table, seat, cookie=laptop.token)
        assert got["type"] == "welcome", got
        ws.close()
    finally:
        laptop.close()
        phone.close()


def test_signing_out_closes_the_sessions_socket_in_another_process_at_once(
        server: Server, second: Server) -> None:
    laptop = Browser(server)
    try:
        laptop.sign_up()
        made = laptop.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table, seat = made["table"]["id"], made["seat"]
        ws, got = _hello(second, table, seat, cookie=laptop.token)
        assert got["type"] == "welcome", got
        r = laptop.request("DELETE", "/api/session")
        assert r.status_code == 200, r.text
        # told through the database, not at the socket's next frame
        assert "signed out" in _closed_with(ws, 4401)
    finally:
        laptop.close()


def _finished(srv: Server) -> tuple[str, list[str]]:
    """A finished two-person table (both conceded; their stand-ins play it out)."""
    made = guest_table(srv, seats=[{"kind": "human", "bot": "random"},
                                   {"kind": "human", "bot": "random"}], name="Ann")
    table, secrets = made["table"]["id"], [made["secret"], _join(srv, made["table"]["id"], 1,
                                                                  "Bob")]
    for seat, secret in enumerate(secrets):
        r = srv.api("POST", f"/api/tables/{table}/concede", json={"seat": seat, "secret": secret})
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 180
    while srv.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the table did not finish"
        time.sleep(0.2)
    return table, secrets


def test_a_rematchs_seats_belong_to_the_finished_tables_people(server: Server) -> None:
    table, (ann, bob) = _finished(server)
    r = server.api("POST", f"/api/tables/{table}/rematch",
                   json={"seat": 0, "secret": ann, "name": "Ann"})
    assert r.status_code == 201, r.text
    rematch = r.json()["table"]["id"]
    # anyone reads the finished table, and so the rematch's id
    assert server.api("GET", f"/api/tables/{table}").json()["rematch"] == rematch
    # a stranger cannot take Bob's seat there, whichever seat it names
    for body in ({"seat": 1, "name": "Eve"}, {"name": "Eve"}):
        problem(server.api("POST", f"/api/tables/{rematch}/join", json=body), 403,
                "rematch", f"/api/tables/{table}/rematch")
    assert 1 in server.api("GET", f"/api/tables/{rematch}").json()["open_seats"]
    # nor by the rematch route without Bob's proof
    problem(server.api("POST", f"/api/tables/{table}/rematch", json={"seat": 1, "name": "Eve"}),
            403)
    # Bob takes his own seat
    r = server.api("POST", f"/api/tables/{table}/rematch",
                   json={"seat": 1, "secret": bob, "name": "Bob"})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["id"] == rematch and r.json()["seat"] == 1
    # an ordinary private table is joined by its link as before
    r = server.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1}, "seats": [{"kind": "human"}] * 2,
        "join_as": "Ann", "public": False})
    assert r.status_code == 201, r.text
    r = server.api("POST", f"/api/tables/{r.json()['table']['id']}/join",
                   json={"seat": 1, "name": "Bob"})
    assert r.status_code == 200, r.text
