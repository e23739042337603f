"""API tokens and bot accounts (issue 60), tried from outside on real server processes, on
SQLite and PostgreSQL: a token made on the signed-in page (shown once), used for REST and a
WebSocket, refused when malformed, unknown, revoked, expired or out of scope (401/403 naming
why, never a 5xx), no CSRF with it and no cookie in its place, its rate, deletion and export;
a bot account made with a token, refused with games, its cookie session unable to play."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import TLS, Server, free_port
from tests.server.test_accounts import PASSWORD, Browser, problem
from tests.server.test_accounts import _answer as answer
from tests.server.test_accounts import ann as ann  # the fixture: a signed-up browser

ONE_PERSON = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def make_token(b: Browser, scopes: list[str], name: str = "my bot", **extra: Any
               ) -> tuple[str, dict[str, Any]]:
    r = b.request("POST", "/api/me/tokens", json={"name": name, "scopes": scopes, **extra})
    assert r.status_code == 201, r.text
    answer = r.json()
    return answer["secret"], answer["token"]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def with_token(srv: Server, secret: str, cookie: str | None = None) -> httpx.Client:
    """A program's client: the token in every request (and a cookie too, if given)."""
    headers = bearer(secret)
    if cookie is not None:
        headers["Cookie"] = f"meeple_session={cookie}"
    return httpx.Client(base_url=srv.base, timeout=60, verify=TLS, headers=headers)


def socket(srv: Server, table: str, headers: dict[str, str]) -> ClientConnection:
    return connect(f"{srv.ws_base}/ws/tables/{table}", additional_headers=headers,
                   open_timeout=30, ping_interval=None, close_timeout=5).__enter__()


def create(client: httpx.Client, seats: list[dict[str, Any]] = ONE_PERSON) -> httpx.Response:
    return client.post("/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                            "seats": seats, "join_as": "Robo"})


def test_a_token_is_shown_once_listed_without_its_secret_and_plays_over_rest_and_websocket(
        server: Server, ann: Browser) -> None:
    secret, token = make_token(ann, ["play", "read"], expires_days=30)
    assert secret.startswith("mpl_") and len(secret) == 47
    assert token["scopes"] == ["play", "read"] and token["expires"] and not token["expired"]
    listed = ann.http.get("/api/me/tokens").json()
    assert [t["id"] for t in listed["tokens"]] == [token["id"]]
    assert secret not in json.dumps(listed) and set(listed["scopes"]) >= {"play", "read"}
    with with_token(server, secret) as bot:
        me = bot.get("/api/me")
        assert me.status_code == 200 and me.json()["account"]["username"] == ann.username
        assert "set-cookie" not in me.headers
        # a change needs no CSRF token with a bearer token; the seat is the account's
        made = create(bot)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        mine = bot.get("/api/me/games").json()
        assert [g["table"] for g in mine] == [table]
        # the WebSocket: the token in the upgrade request's header; the hello needs no secret
        ws = socket(server, table, bearer(secret))
        assert answer(ws, {"type": "hello", "seat": 0}) == {"type": "welcome", "table": table,
                                                            "seat": 0}
        ws.close()
        # REST by token: the seat's view without its secret
        r = bot.get(f"/api/tables/{table}/view", params={"seat": 0})
        assert r.status_code == 200 and r.json()["view"]["viewer"] == 0
    used = ann.http.get("/api/me/tokens").json()["tokens"][0]
    assert used["last_used"] is not None
    # the export lists it (name, scopes), never a secret
    export = ann.http.get("/api/me/export").text
    assert '"my bot"' in export and secret not in export and token["id"] not in export


def test_bad_tokens_are_refused_401_naming_why_even_with_a_good_cookie(
        server: Server, ann: Browser, db_url: str) -> None:
    cookie = ann.token
    secret, token = make_token(ann, ["play"])
    cases = {
        "Bearer mpl_short": "malformed",
        "Bearer " + "mpl_" + "A" * 43: "not one of this server's",
        f"Basic {secret}": "scheme 'Basic' is not taken",
        "Bearer": "malformed",
    }
    for header, why in cases.items():
        with httpx.Client(base_url=server.base, verify=TLS, timeout=60,
                          headers={"Authorization": header,
                                   "Cookie": f"meeple_session={cookie}"}) as c:
            r = c.get("/api/me")
            detail = problem(r, 401, why)
            assert r.headers["www-authenticate"].startswith("Bearer"), detail
            problem(c.post("/api/tables", json={}), 401, why)
    # hostile values: bytes that are no text, a long one, several headers: 401, never a 5xx
    for raw in ([(b"Authorization", b"Bearer \xff\xfe\xe9mpl_")],
                [(b"Authorization", b"Bearer mpl_" + b"A" * 5000)],
                [(b"Authorization", f"Bearer {secret}".encode()),
                 (b"Authorization", f"Bearer {secret}".encode())]):
        r = httpx.get(server.base + "/api/me", headers=raw, verify=TLS, timeout=60)
        assert r.status_code == 401, (raw[0][1][:20], r.status_code, r.text)
        # expired: its expiry moved into the past, as time would
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE api_tokens SET expires = :t WHERE id = :i"),
                     {"t": datetime.now(UTC) - timedelta(minutes=1), "i": token["id"]})
    engine.dispose()
    with with_token(server, secret, cookie) as c:
        problem(c.get("/api/me"), 401, "expired")
    assert ann.http.get("/api/me/tokens").json()["tokens"][0]["expired"] is True
    # revoked: refused at once, cookie or not; a second revoke is a 404
    secret, token = make_token(ann, ["play"])
    with with_token(server, secret, cookie) as c:
        assert c.get("/api/me").status_code == 200
        r = ann.request("DELETE", f"/api/me/tokens/{token['id']}")
        assert r.status_code == 200 and r.json() == {"revoked": True}
        problem(c.get("/api/me"), 401, "revoked")
        problem(c.post("/api/tables", json={}), 401, "revoked")
    problem(ann.request("DELETE", f"/api/me/tokens/{token['id']}"), 404, "no live token")
    problem(ann.request("DELETE", "/api/me/tokens/not-hex!"), 422)
    # a revoked token's WebSocket handshake is refused
    table = ann.create(seats=ONE_PERSON)["table"]["id"]
    with pytest.raises(Exception) as refused:
        socket(server, table, bearer(secret))
    assert "401" in str(refused.value)


def test_a_token_does_only_what_its_scopes_allow_and_never_makes_tokens(
        server: Server, ann: Browser) -> None:
    play, _ = make_token(ann, ["play"])
    read, _ = make_token(ann, ["read"], name="reader")
    with with_token(server, read) as c:
        problem(create(c), 403, "no 'play' scope", "it has: read")
        assert c.get("/api/me/games").status_code == 200
        problem(c.post("/api/me/bot"), 403, "no 'play' scope")
    with with_token(server, play) as c:
        problem(c.get("/api/me/games"), 403, "no 'read' scope")
        table = create(c).json()["table"]["id"]
        # no token makes, lists or revokes tokens, nor changes the account
        problem(c.post("/api/me/tokens", json={"name": "x", "scopes": ["play"]}), 403,
                "signed-in /account page")
        problem(c.get("/api/me/tokens"), 403, "never with a token")
        problem(c.patch("/api/me", json={"display_name": "Hacked"}), 403, "cannot PATCH")
        problem(c.request("DELETE", "/api/me", json={"password": PASSWORD}), 403)
    # a read token holds no seat: its hello is refused as a stranger's
    ws = socket(server, table, bearer(read))
    got = answer(ws, {"type": "hello", "seat": 0})
    assert got["type"] == "error" and "needs its secret" in got["reason"], got
    ws.close()


def test_making_a_token_checks_its_input(server: Server, ann: Browser) -> None:
    for body, status, words in [
        ({"name": "x", "scopes": ["admin"]}, 422, ("'admin' is not a scope", "play")),
        ({"name": "x", "scopes": []}, 422, ("at least one scope",)),
        ({"name": "x", "scopes": ["play", "play"]}, 422, ("named twice",)),
        ({"name": "", "scopes": ["play"]}, 422, ()),
        ({"name": "x", "scopes": ["play"], "expires_days": 0}, 422, ()),
        ({"name": "x", "scopes": ["play"], "expires_days": 99999}, 422, ()),
        ({"name": "x", "scopes": "play"}, 422, ()),
        ({"name": "x", "scopes": ["play"], "secret": "mine"}, 422, ()),
    ]:
        r = ann.request("POST", "/api/me/tokens", json=body)
        assert r.status_code == status, (body, r.text)
        text = r.text
        assert all(w in text for w in words), (words, text)
    # a page's change needs its CSRF token as every other; signed out: 401
    problem(ann.request("POST", "/api/me/tokens", csrf=False,
                        json={"name": "x", "scopes": ["play"]}), 403, "X-CSRF-Token")
    problem(server.api("POST", "/api/me/tokens", json={"name": "x", "scopes": ["play"]}),
            401, "not signed in")
    # a retry after a lost answer makes a second token (listed, revocable): no stuck state
    make_token(ann, ["play"], name="twice")
    make_token(ann, ["play"], name="twice")
    assert [t["name"] for t in ann.http.get("/api/me/tokens").json()["tokens"]] == \
        ["twice", "twice"]


def test_a_bot_account_is_made_with_a_token_plays_only_with_it_and_not_with_games(
        server: Server, ann: Browser) -> None:
    # an account with games cannot become a bot account
    ann.create(seats=ONE_PERSON)
    play, _ = make_token(ann, ["play"])
    with with_token(server, play) as c:
        problem(c.post("/api/me/bot"), 409, "holds 1 seat", "no games yet")
    assert ann.http.get("/api/me").json()["account"]["bot_account"] is False
    # a new account: upgraded with its token, once
    robo = Browser(server)
    robo.sign_up()
    secret, _ = make_token(robo, ["play"])
    with with_token(server, secret) as c:
        r = c.post("/api/me/bot")
        assert r.status_code == 200, r.text
        assert r.json()["account"]["bot_account"] is True and r.json()["changed"] is True
        assert c.post("/api/me/bot").json()["changed"] is False
        made = create(c)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        ws = socket(server, table, bearer(secret))
        assert answer(ws, {"type": "hello", "seat": 0})["type"] == "welcome"
        ws.close()
    assert robo.http.get("/api/me").json()["account"]["bot_account"] is True
    # its own page's cookie session may look but not play
    problem(robo.request("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1}, "seats": ONE_PERSON, "join_as": "x"}),
        403, "bot account", "only through the API")
    r = robo.http.get(f"/api/tables/{table}/view", params={"seat": 0})
    assert r.status_code == 403, r.text
    ws = socket(server, table, {"Cookie": f"meeple_session={robo.token}",
                                "Origin": server.base})
    got = answer(ws, {"type": "hello", "seat": 0})
    assert got["type"] == "error", got
    ws.close()
    robo.close()


def test_deleting_the_account_ends_its_tokens(server: Server) -> None:
    b = Browser(server)
    b.sign_up()
    secret, _ = make_token(b, ["play"])
    with with_token(server, secret) as c:
        assert c.get("/api/me").status_code == 200
        r = b.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        problem(c.get("/api/me"), 401, "not one of this server's")
    b.close()


@pytest.fixture(scope="module")
def limited(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Server]:
    """A second server on the same database whose tokens may make 3 requests a minute."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_RATE_TOKEN": "3/minute"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_each_token_has_its_own_rate(server: Server, limited: Server, ann: Browser) -> None:
    first, _ = make_token(ann, ["play"])
    second, _ = make_token(ann, ["play"])
    with with_token(limited, first) as a, with_token(limited, second) as b:
        assert [a.get("/api/me").status_code for _ in range(3)] == [200, 200, 200]
        r = a.get("/api/me")
        problem(r, 429, "too many requests with this token", "MEEPLE_RATE_TOKEN")
        assert int(r.headers["retry-after"]) >= 1
        assert b.get("/api/me").status_code == 200


def bot_account(srv: Server) -> tuple[Browser, str]:
    """A new bot account (made so with its token) and its play token."""
    robo = Browser(srv)
    robo.sign_up()
    secret, _ = make_token(robo, ["play"])
    with with_token(srv, secret) as c:
        assert c.post("/api/me/bot").status_code == 200
    return robo, secret


def test_a_bot_account_is_marked_on_its_seat_its_profile_and_the_leaderboard(
        server: Server, ann: Browser) -> None:
    robo, secret = bot_account(server)
    with with_token(server, secret) as c:
        r = c.post("/api/tables", json={"game": "takenokolor", "variant": {}, "rated": True,
                                        "seats": [{"kind": "human"},
                                                  {"kind": "bot", "bot": "medium"}],
                                        "join_as": "Robo"})
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        assert [s["bot_account"] for s in r.json()["table"]["seats"]] == [True, False]
        # it gives up at once: the stand-in and the medium bot play the rated game out
        r = c.post(f"/api/tables/{table}/concede", json={"seat": 0})
        assert r.status_code == 200, r.text
    person = ann.create(seats=ONE_PERSON)
    seats = server.api("GET", f"/api/tables/{person['table']['id']}").json()["seats"]
    assert [s["bot_account"] for s in seats] == [False, False]
    for _ in range(600):
        got = server.api("GET", f"/api/tables/{table}").json()
        if got["status"] == "finished":
            break
        time.sleep(0.2)
    assert got["status"] == "finished" and got["seats"][0]["bot_account"] is True
    profile = server.api("GET", f"/api/users/{robo.username}").json()
    assert profile["bot_account"] is True
    assert server.api("GET", f"/api/users/{ann.username}").json()["bot_account"] is False
    board = server.api("GET", "/api/leaderboard/takenokolor", params={"limit": 100}).json()
    mine = [p for p in board["players"] if p["username"] == robo.username]
    assert len(mine) == 1 and mine[0]["bot_account"] is True
    hidden = server.api("GET", "/api/leaderboard/takenokolor",
                        params={"limit": 100, "bot_accounts": "hide"})
    assert hidden.status_code == 200
    assert all(not p["bot_account"] for p in hidden.json()["players"])
    assert hidden.json()["total"] == board["total"] - 1
    assert int(hidden.headers["X-Total-Count"]) == board["total"] - 1
    problem(server.api("GET", "/api/leaderboard/takenokolor", params={"bot_accounts": "maybe"}),
            422)
    robo.close()


def test_a_socket_playing_by_a_token_closes_when_the_token_is_revoked(
        server: Server, ann: Browser) -> None:
    secret, token = make_token(ann, ["play"])
    with with_token(server, secret) as c:
        table = create(c, [{"kind": "human"}, {"kind": "human"}]).json()["table"]["id"]
    ws = socket(server, table, bearer(secret))
    assert answer(ws, {"type": "hello", "seat": 0})["type"] == "welcome"
    assert ann.request("DELETE", f"/api/me/tokens/{token['id']}").status_code == 200
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(20):  # (views sent before the close may come first)
            ws.recv(timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
