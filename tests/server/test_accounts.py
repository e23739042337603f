"""Accounts (issue 52), tried from outside on real server processes, on SQLite and PostgreSQL:
sign-up and sign-in, no user enumeration, the sign-in limits, the cookie's flags, CSRF, sign-out
(here and everywhere), session fixation, my games, the WebSocket hello and REST by session,
claiming a guest's seats, export and deletion. Playing by link without an account is tried by
the rest of tests/server, unchanged."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meeple.server.features.accounts.sessions import checked_password, checked_username
from meeple.server.table.checks import BadInput
from meeple.settings import Settings
from tests.server.conftest import TLS, Server, free_port

PASSWORD = "correct horse battery"
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
#: The limits of this module's second server: low, so a test reaches each in a few requests;
#: its proxy is 127.0.0.1 (X-Forwarded-Proto and -For believed from it).
LIMITS = {"MEEPLE_RATE_SIGNIN": "8/minute", "MEEPLE_RATE_SIGNIN_USER": "3/minute",
          "MEEPLE_RATE_SIGNUP": "off", "MEEPLE_TRUSTED_PROXIES": "127.0.0.1"}

_names = iter(range(1_000_000))


def new_name(prefix: str = "user") -> str:
    return f"{prefix}{next(_names)}_{int(time.time() * 1000) % 100000}"


@pytest.fixture(scope="module")
def limited(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Server]:
    """A second server on the same database, with the sign-in limits on and 127.0.0.1 as its
    trusted proxy."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(LIMITS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Browser:
    """A client that keeps its cookies, as a browser does, and its session's CSRF token."""

    def __init__(self, srv: Server, address: str = "127.0.0.1") -> None:
        self.srv = srv
        self.http = httpx.Client(base_url=srv.base, timeout=60, verify=TLS,
                                 transport=httpx.HTTPTransport(local_address=address))
        self.csrf = ""
        self.username = ""

    def close(self) -> None:
        self.http.close()

    @property
    def token(self) -> str | None:
        return self.http.cookies.get("meeple_session")

    def request(self, method: str, path: str, csrf: bool = True, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", None) or {})
        if csrf and self.csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return self.http.request(method, path, headers=headers, **kw)

    def sign_up(self, username: str | None = None, password: str = PASSWORD,
                **extra: Any) -> httpx.Response:
        self.username = username or new_name()
        r = self.http.post("/api/accounts", json={"username": self.username,
                                                  "password": password, **extra})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        return r

    def sign_in(self, username: str | None = None, password: str = PASSWORD) -> httpx.Response:
        r = self.http.post("/api/session", json={"username": username or self.username,
                                                 "password": password})
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r

    def create(self, seats: list[dict[str, Any]] = TWO_PEOPLE, join_as: str | None = "Ann",
               **extra: Any) -> dict[str, Any]:
        r = self.request("POST", "/api/tables", json={
            "game": "gardens", "variant": {"level": 1}, "seats": seats, "join_as": join_as,
            **extra})
        assert r.status_code == 201, r.text
        answer: dict[str, Any] = r.json()
        return answer


@pytest.fixture
def ann(server: Server) -> Iterator[Browser]:
    b = Browser(server)
    b.sign_up()
    yield b
    b.close()


def guest_table(srv: Server, seats: list[dict[str, Any]] = TWO_PEOPLE, name: str = "Guest"
                ) -> dict[str, Any]:
    """A table made by a guest (no cookie) who takes its first seat."""
    r = srv.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                             "seats": seats, "join_as": name})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def with_cookie(srv: Server, token: str | None) -> httpx.Client:
    """A client that sends ``token`` as its session cookie (a stolen, planted or old one)."""
    return httpx.Client(base_url=srv.base, timeout=60, verify=TLS,
                        headers={"Cookie": f"meeple_session={token or ''}"})


def set_token(r: httpx.Response) -> str:
    """The session token a response sets."""
    found = [v for v in r.headers.get_list("set-cookie") if v.startswith("meeple_session=")]
    assert len(found) == 1, r.headers.get_list("set-cookie")
    return found[0].split(";")[0].partition("=")[2]


def cookie_flags(r: httpx.Response) -> dict[str, str]:
    """The attributes of the response's ``meeple_session`` Set-Cookie, lower-cased names."""
    found = [v for v in r.headers.get_list("set-cookie") if v.startswith("meeple_session=")]
    assert len(found) == 1, r.headers.get_list("set-cookie")
    flags = {}
    for part in found[0].split(";")[1:]:
        key, _, value = part.strip().partition("=")
        flags[key.lower()] = value
    return flags


def problem(r: httpx.Response, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    detail: str = r.json()["detail"]
    assert isinstance(detail, str)
    for word in words:
        assert word in detail, (word, detail)
    return detail


# ------------------------------------------------------------------------ sign up, sign in
def test_sign_up_sign_in_and_the_cookie(server: Server) -> None:
    b = Browser(server)
    name = new_name("Zoë")
    r = b.sign_up(name, display_name="Zoë the Great")
    account = r.json()["account"]
    assert account["username"] == name and account["display_name"] == "Zoë the Great"
    assert account["settings"] == {"colour_blind": False, "auto_confirm": False,
                                   "hint_level": "medium"}
    flags = cookie_flags(r)
    assert "httponly" in flags and flags["samesite"].lower() == "lax" and flags["path"] == "/"
    assert int(flags["max-age"]) == 30 * 86400 and "secure" not in flags  # plain http here
    me = b.http.get("/api/me")
    assert me.status_code == 200 and me.json()["account"]["id"] == account["id"]
    assert me.json()["csrf"] == b.csrf
    # sign in again under the username in other case: a new session, a new cookie
    first = b.token
    r = b.sign_in(name.upper())
    assert r.status_code == 200 and r.json()["account"]["id"] == account["id"]
    assert b.token != first
    assert "httponly" in cookie_flags(r)
    # a fresh client without the cookie is nobody
    assert server.api("GET", "/api/me").status_code == 401
    b.close()


def test_usernames_are_unique_whatever_their_case_and_bad_input_is_named(server: Server
                                                                         ) -> None:
    b = Browser(server)
    b.sign_up()
    for taken in (b.username.upper(), b.username.lower(),
                  "".join(chr(ord(c) + 0xFEE0) if c.isalnum() and c.isascii() else c
                          for c in b.username)):  # full-width: the same after NFKC
        r = server.api("POST", "/api/accounts", json={"username": taken, "password": PASSWORD})
        problem(r, 409, "taken")
    for body, words in (
        ({"username": "ab", "password": PASSWORD}, ("username", "3 to 30")),
        ({"username": "a" * 31, "password": PASSWORD}, ("username",)),
        ({"username": "Ann Lee", "password": PASSWORD}, ("space", "username")),
        ({"username": "ann@home", "password": PASSWORD}, ("username", "U+0040")),
        ({"username": "_ann", "password": PASSWORD}, ("begins",)),
        ({"username": "Pаypal", "password": PASSWORD}, ("Cyrillic",)),
        ({"username": "ann\u200bx", "password": PASSWORD}, ("invisible",)),
        ({"username": new_name(), "password": "short"}, ("password", "10 to 200")),
        ({"username": new_name(), "password": "x" * 201}, ("password", "10 to 200")),
        ({"username": "SameAsName1", "password": "sameasname1"}, ("password is the username",)),
        ({"username": new_name(), "password": "line\nbreak!!"}, ("control",)),
        ({"username": new_name(), "password": PASSWORD, "admin": True}, ("admin",)),
        ({"username": new_name(), "password": PASSWORD, "display_name": " "}, ("blank",)),
        ({"username": 5, "password": PASSWORD}, ("username",)),
        ({"username": "a\x00b", "password": PASSWORD}, ("username",)),
    ):
        r = server.api("POST", "/api/accounts", json=body)
        problem(r, 422, *words)
    # the settings are known page preferences only, each of its type
    for settings, word in (({"colour_blind": "yes"}, "colour_blind"),
                           ({"theme": "dark"}, "theme"),
                           ({"hint_level": "godlike"}, "hint_level")):
        r = b.request("PATCH", "/api/me", json={"settings": settings})
        problem(r, 422, word)
    r = b.request("PATCH", "/api/me", json={"display_name": "Ａｎｎ  Lee",
                                             "settings": {"hint_level": "hard"}})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["display_name"] == "Ann Lee"
    assert r.json()["account"]["settings"]["hint_level"] == "hard"
    r = b.request("PATCH", "/api/me", json={"settings": {"colour_blind": True}})
    assert r.json()["account"]["settings"] == {"colour_blind": True, "auto_confirm": False,
                                               "hint_level": "hard"}
    b.close()


def test_a_wrong_password_and_an_unknown_user_answer_alike(server: Server) -> None:
    b = Browser(server)
    b.sign_up()
    answers = []
    times: dict[str, list[float]] = {"wrong": [], "unknown": []}
    for _ in range(3):
        for kind, name in (("wrong", b.username), ("unknown", new_name("nobody"))):
            t0 = time.perf_counter()
            r = server.api("POST", "/api/session", json={"username": name,
                                                         "password": "not the password"})
            times[kind].append(time.perf_counter() - t0)
            answers.append((r.status_code, r.content, "set-cookie" in r.headers))
    assert {a for a in answers} == {(401, b'{"detail":"wrong username or password"}', False)}
    # an unknown user's password is checked against a dummy hash: as slow as a real check
    # (argon2id, ~0.15 s), not the few ms of a database look-up
    wrong, unknown = min(times["wrong"]), min(times["unknown"])
    assert unknown > 0.5 * wrong and statistics.median(times["unknown"]) > 0.03, times
    b.close()


def test_sign_in_is_rate_limited_per_username_and_per_client(limited: Server) -> None:
    victim = Browser(limited, "127.0.0.20")
    victim.sign_up()
    # failures for one username (3 a minute): the fourth try is 429, from any address, and
    # the right password too is refused until the window ends
    for i in range(3):
        r = Browser(limited, f"127.0.0.{21 + i}").sign_in(victim.username, "wrong password!")
        assert r.status_code == 401
    for address, password in (("127.0.0.24", "wrong password!"), ("127.0.0.25", PASSWORD)):
        r = Browser(limited, address).sign_in(victim.username, password)
        body = problem(r, 429, "MEEPLE_RATE_SIGNIN_USER", "this username")
        assert int(r.headers["Retry-After"]) >= 1 and r.json()["retry_after"] >= 1, body
    # an unknown username is counted and answered the same way (no enumeration by 429)
    ghost = new_name("ghost")
    for i in range(3):
        assert Browser(limited, f"127.0.0.{30 + i}").sign_in(ghost, "x").status_code == 401
    problem(Browser(limited, "127.0.0.33").sign_in(ghost, "x"), 429, "this username")
    # one client trying many usernames: 8 a minute, then 429 naming the client's limit
    c = Browser(limited, "127.0.0.40")
    codes = [c.sign_in(new_name("spray"), "whatever pw").status_code for _ in range(8)]
    assert codes == [401] * 8
    r = c.sign_in(new_name("spray"), "whatever pw")
    problem(r, 429, "MEEPLE_RATE_SIGNIN", "your address")
    # another client is not held back
    assert Browser(limited, "127.0.0.41").sign_in(new_name(), "x").status_code == 401


def test_the_cookie_is_secure_over_https_from_a_trusted_proxy_only(server: Server,
                                                                    limited: Server) -> None:
    https = {"X-Forwarded-Proto": "https"}
    r = httpx.post(f"{limited.base}/api/accounts", headers=https, verify=TLS,
                   json={"username": new_name(), "password": PASSWORD})
    assert r.status_code == 201 and "secure" in cookie_flags(r)
    # the default server trusts no proxy: the same header does not make it https
    r = httpx.post(f"{server.base}/api/accounts", headers=https, verify=TLS,
                   json={"username": new_name(), "password": PASSWORD})
    assert r.status_code == 201 and "secure" not in cookie_flags(r)


def test_processes_of_one_database_agree_on_the_csrf_key(server: Server, limited: Server,
                                                        ann: Browser) -> None:
    """No MEEPLE_SECRET_KEY: the key is made once and kept in the database."""
    other = with_cookie(limited, ann.token)
    r = other.get("/api/me")
    assert r.status_code == 200 and r.json()["csrf"] == ann.csrf
    r = other.patch("/api/me", json={"display_name": "Ann B"},
                    headers={"X-CSRF-Token": ann.csrf})
    assert r.status_code == 200, r.text
    other.close()


# ------------------------------------------------------------------------ CSRF
def test_a_cookie_authenticated_change_needs_its_csrf_token(server: Server, ann: Browser
                                                            ) -> None:
    before = server.api("GET", "/api/tables").headers["X-Total-Count"]
    body = {"game": "gardens", "variant": {"level": 1}, "seats": TWO_PEOPLE, "join_as": "Ann"}
    for headers, word in (({}, "no X-CSRF-Token"), ({"X-CSRF-Token": "0" * 64}, "not this"),
                          ({"X-CSRF-Token": ""}, "no X-CSRF-Token")):
        for method, path, payload in (("POST", "/api/tables", body),
                                      ("PATCH", "/api/me", {"display_name": "Mallory"}),
                                      ("POST", "/api/session/revoke-all", None),
                                      ("DELETE", "/api/session", None),
                                      ("DELETE", "/api/me", {"password": PASSWORD}),
                                      ("POST", "/api/me/claim", {"seats": []})):
            r = ann.request(method, path, csrf=False, headers=headers, json=payload)
            problem(r, 403, word, "X-CSRF-Token")
    # nothing was done: no table, the name kept, the session alive, the account there
    assert server.api("GET", "/api/tables").headers["X-Total-Count"] == before
    me = ann.http.get("/api/me")
    assert me.status_code == 200 and me.json()["account"]["display_name"] == ann.username
    # with the token: done
    made = ann.create(seats=[{"kind": "human"}] * 3)
    assert ann.request("PATCH", "/api/me", json={"display_name": "Ann"}).status_code == 200
    # another session's token is not this one's
    other = Browser(server)
    other.sign_in(ann.username)
    r = ann.request("PATCH", "/api/me", csrf=False, json={"display_name": "X"},
                    headers={"X-CSRF-Token": other.csrf})
    problem(r, 403, "not this session's")
    # link play carries no cookie: no token needed (a guest joins and leaves by secret)
    joined = server.api("POST", f"/api/tables/{made['table']['id']}/join",
                        json={"name": "Bob"})
    assert joined.status_code == 200
    r = server.api("POST", f"/api/tables/{made['table']['id']}/leave",
                   json={"seat": joined.json()["seat"], "secret": joined.json()["secret"]})
    assert r.status_code == 200, r.text
    # sign-in needs no token, but another site's form cannot sign a browser in (to the
    # attacker's account): the body must be JSON sent as such
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        r = httpx.post(f"{server.base}/api/session", verify=TLS, headers={"content-type": kind},
                       content=json.dumps({"username": ann.username, "password": PASSWORD}))
        assert r.status_code == 422 and "set-cookie" not in r.headers, (kind, r.text)
    # a stale cookie (no live session) carries no authority and needs no token
    stale = with_cookie(server, "A" * 43)
    r = stale.post(f"/api/tables/{made['table']['id']}/join", json={"name": "Cy"})
    assert r.status_code == 200, r.text
    stale.close()
    other.close()


# ------------------------------------------------------------------------ sign out
def test_sign_out_and_sign_out_everywhere(server: Server, ann: Browser) -> None:
    phone = Browser(server)
    assert phone.sign_in(ann.username).status_code == 200
    laptop_token = ann.token
    # sign out: this session only; the cookie cleared, and the old token is dead
    r = phone.request("DELETE", "/api/session")
    assert r.status_code == 200 and cookie_flags(r).get("max-age") == "0"
    assert phone.http.get("/api/me").status_code == 401
    assert ann.http.get("/api/me").status_code == 200
    # everywhere: a second client's session stops working too
    phone.sign_in(ann.username)
    assert phone.http.get("/api/me").status_code == 200
    r = ann.request("POST", "/api/session/revoke-all")
    assert r.status_code == 200 and r.json()["revoked"] >= 2
    assert phone.http.get("/api/me").status_code == 401
    replay = with_cookie(server, laptop_token)
    r = replay.get("/api/me")
    assert r.status_code == 401 and cookie_flags(r).get("max-age") == "0"
    r = replay.post("/api/session/revoke-all")
    problem(r, 401, "not signed in")
    replay.close()
    phone.close()


def test_a_planted_session_cookie_is_never_adopted(server: Server, ann: Browser) -> None:
    """Session fixation: a cookie set before sign-in (by another site's trick, or an old
    session of this browser) is replaced by a new session, and the old one is revoked."""
    planted = "P" * 43
    victim = with_cookie(server, planted)
    r = victim.post("/api/session", json={"username": ann.username, "password": PASSWORD})
    assert r.status_code == 200
    fresh = set_token(r)
    assert fresh and fresh != planted
    attacker = with_cookie(server, planted)
    assert attacker.get("/api/me").status_code == 401
    assert with_cookie(server, fresh).get("/api/me").status_code == 200
    # signing in again on a browser with a live session revokes that one
    before = ann.token
    ann.sign_in()
    old = with_cookie(server, before)
    assert old.get("/api/me").status_code == 401
    assert ann.http.get("/api/me").status_code == 200
    for c in (victim, attacker, old):
        c.close()


def test_a_password_change_revokes_every_session(server: Server, ann: Browser) -> None:
    phone = Browser(server)
    phone.sign_in(ann.username)
    r = ann.request("POST", "/api/me/password", json={"old_password": "not it at all",
                                                      "new_password": "a new long secret"})
    problem(r, 403, "not this account's")
    r = ann.request("POST", "/api/me/password", json={"old_password": PASSWORD,
                                                      "new_password": ann.username})
    problem(r, 422, "password is the username")
    r = ann.request("POST", "/api/me/password", json={"old_password": PASSWORD,
                                                      "new_password": "a new long secret"})
    assert r.status_code == 200, r.text
    ann.csrf = r.json()["csrf"]
    assert ann.http.get("/api/me").status_code == 200  # this browser: a new session
    assert phone.http.get("/api/me").status_code == 401
    assert phone.sign_in(ann.username, PASSWORD).status_code == 401
    assert phone.sign_in(ann.username, "a new long secret").status_code == 200
    phone.close()


# ------------------------------------------------------------------------ seats and games
def _to_move(srv: Server, table: str) -> int | None:
    view = srv.api("GET", f"/api/tables/{table}/view").json()["view"]
    to_move: int | None = view["to_move"]
    return to_move


def test_my_games_after_creating_and_joining_tables(server: Server, ann: Browser) -> None:
    assert ann.http.get("/api/me/games").json() == []
    mine = ann.create()  # seat 0, waiting
    theirs = guest_table(server)  # a guest's table: Ann joins seat 1
    r = ann.request("POST", f"/api/tables/{theirs['table']['id']}/join", json={"name": "Ann"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    running = theirs["table"]["id"]
    # another person joins Ann's table: it runs
    server.api("POST", f"/api/tables/{mine['table']['id']}/join", json={"name": "Bob"})
    solo = ann.create(seats=[{"kind": "human"}])  # runs at once, Ann alone
    r = ann.http.get("/api/me/games")
    assert r.status_code == 200 and r.headers["X-Total-Count"] == "3"
    games = r.json()
    assert [g["table"] for g in games] == [solo["table"]["id"], mine["table"]["id"], running]
    by_id = {g["table"]: g for g in games}
    assert by_id[running]["my_seat"] == 1 and by_id[running]["my_seats"] == [1]
    # the account's seat bears its name, not the one sent (src/meeple/server/features/accounts/README.md)
    assert by_id[running]["seats"] == ["Guest", ann.username] and by_id[running]["title"]
    for g in games:
        assert g["status"] == "running" and g["game"] == "gardens" and g["players"] in (1, 2)
        seat = _to_move(server, g["table"])
        if seat is None or seat < 0:
            assert g["turn"] is None and g["my_turn"] is False
        else:
            assert g["turn"]["seat"] == seat and g["my_turn"] == (seat in g["my_seats"])
            assert g["turn"]["name"] == g["seats"][seat]
    assert by_id[solo["table"]["id"]]["my_turn"] is True
    # pages
    r = ann.http.get("/api/me/games", params={"limit": 2, "offset": 1})
    assert [g["table"] for g in r.json()] == [mine["table"]["id"], running]
    assert r.headers["X-Total-Count"] == "3"
    # my turns first
    turn = ann.http.get("/api/me/games", params={"sort": "turn"}).json()
    flags = [g["my_turn"] for g in turn]
    assert flags == sorted(flags, reverse=True) and sorted(g["table"] for g in turn) == \
        sorted(by_id)
    r = ann.http.get("/api/me/games", params={"sort": "turn", "limit": 1, "offset": 1})
    assert [g["table"] for g in r.json()] == [turn[1]["table"]]
    for params in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"sort": "name"},
                   {"limit": "x"}):
        problem(ann.http.get("/api/me/games", params=params), 422)
    problem(server.api("GET", "/api/me/games"), 401, "sign in")
    # a seat left before the game starts is no longer the account's
    waiting = ann.create()
    r = ann.request("POST", f"/api/tables/{waiting['table']['id']}/leave",
                    json={"seat": waiting["seat"], "secret": waiting["secret"]})
    assert r.status_code == 200
    assert waiting["table"]["id"] not in {g["table"] for g in
                                          ann.http.get("/api/me/games").json()}


def _socket(srv: Server, table: str, cookie: str | None, origin: str | None = None
            ) -> ClientConnection:
    headers = {}
    if cookie is not None:
        headers["Cookie"] = f"meeple_session={cookie}"
    if origin is not None:
        headers["Origin"] = origin
    return connect(f"{srv.ws_base}/ws/tables/{table}", additional_headers=headers,
                   open_timeout=30, ping_interval=None, close_timeout=5).__enter__()


def _answer(ws: ClientConnection, frame: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps(frame))
    got: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return got


def test_the_session_acts_for_the_accounts_seats_over_websocket_and_rest(
        server: Server, ann: Browser) -> None:
    mine = ann.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = mine["table"]["id"]
    other = guest_table(server, seats=[{"kind": "human"}, {"kind": "human"}])
    # the browser sends its cookie with the handshake; the hello needs no secret
    ws = _socket(server, table, ann.token, origin=server.base)
    assert _answer(ws, {"type": "hello", "seat": 0}) == {"type": "welcome", "table": table,
                                                         "seat": 0}
    ws.close()
    # a seat the account does not hold: refused (the bot's seat, another table's seat)
    ws = _socket(server, table, ann.token)
    got = _answer(ws, {"type": "hello", "seat": 1})
    assert got["type"] == "error" and "needs its secret" in got["reason"], got
    ws.close()
    ws = _socket(server, other["table"]["id"], ann.token)
    got = _answer(ws, {"type": "hello", "seat": 0})
    assert got["type"] == "error", got
    ws.close()
    # without the cookie: refused as before; a revoked or unknown cookie: the same
    for cookie in (None, "Q" * 43):
        ws = _socket(server, table, cookie)
        got = _answer(ws, {"type": "hello", "seat": 0})
        assert got["type"] == "error" and "needs its secret" in got["reason"], got
        ws.close()
    # a page of another site cannot use the visitor's cookie: its handshake is refused
    with pytest.raises(InvalidStatus) as refused:
        _socket(server, table, ann.token, origin="http://evil.example")
    assert refused.value.response.status_code == 403
    # REST: the seat's view and hint by session instead of X-Seat-Secret
    r = ann.http.get(f"/api/tables/{table}/view", params={"seat": 0})
    assert r.status_code == 200 and r.json()["view"]["viewer"] == 0
    problem(ann.http.get(f"/api/tables/{table}/view", params={"seat": 1}), 403, "secret")
    problem(server.api("GET", f"/api/tables/{table}/view", params={"seat": 0}), 403)
    r = ann.http.get(f"/api/tables/{table}/hint", params={"seat": 0, "level": "random"})
    assert r.status_code in (200, 409), r.text  # 409: a draw is pending, not a refusal
    problem(ann.http.get(f"/api/tables/{other['table']['id']}/hint",
                         params={"seat": 0}), 403, "secret")


def test_claiming_a_guests_seats(server: Server, ann: Browser) -> None:
    a = guest_table(server)
    b = guest_table(server)
    c = guest_table(server)
    r = ann.request("POST", "/api/me/claim", json={"seats": [
        {"table": a["table"]["id"], "seat": 0, "secret": a["secret"]},
        {"table": b["table"]["id"], "seat": 0, "secret": "not-the-secret"},
        {"table": c["table"]["id"], "seat": 1, "secret": c["secret"]},  # the wrong seat
        {"table": "nosuchtable", "seat": 0, "secret": a["secret"]},
        {"table": "bad id!", "seat": 0, "secret": "x"},
    ]})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["claimed"] == [{"table": a["table"]["id"], "seat": 0}]
    assert [(x["table"], x["seat"]) for x in answer["refused"]] == [
        (b["table"]["id"], 0), (c["table"]["id"], 1), ("nosuchtable", 0), ("bad id!", 0)]
    assert all("secret" in x["reason"] for x in answer["refused"])
    held = {g["table"] for g in ann.http.get("/api/me/games").json()}
    assert a["table"]["id"] in held and not {b["table"]["id"], c["table"]["id"]} & held
    # claiming again is fine; another account cannot take it, even with the secret
    again = ann.request("POST", "/api/me/claim", json={"seats": [
        {"table": a["table"]["id"], "seat": 0, "secret": a["secret"]}]}).json()
    assert again["claimed"] == [{"table": a["table"]["id"], "seat": 0}]
    bob = Browser(server)
    bob.sign_up()
    got = bob.request("POST", "/api/me/claim", json={"seats": [
        {"table": a["table"]["id"], "seat": 0, "secret": a["secret"]}]}).json()
    assert got["claimed"] == [] and "another account" in got["refused"][0]["reason"]
    # the claimed seat is the account's: its session acts for it
    r = ann.http.get(f"/api/tables/{a['table']['id']}/view", params={"seat": 0})
    assert r.status_code == 200
    # bounds
    problem(ann.request("POST", "/api/me/claim", json={"seats": [
        {"table": "t", "seat": 0, "secret": "s"}] * 101}), 422, "seats")
    problem(ann.request("POST", "/api/me/claim", json={"seats": [
        {"table": "t", "seat": -1, "secret": "s"}]}), 422, "seat")
    problem(server.api("POST", "/api/me/claim", json={"seats": []}), 401)
    bob.close()


# ------------------------------------------------------------------------ export and delete
def _finished_game(srv: Server, b: Browser) -> str:
    """A Gardens table of one seat that ``b`` takes and leaves: its stand-in (random) plays
    it to the end."""
    made = b.create(seats=[{"kind": "human", "bot": "random"}], join_as="Ann")
    table = made["table"]["id"]
    r = b.request("POST", f"/api/tables/{table}/leave",
                  json={"seat": 0, "secret": made["secret"]})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while srv.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the stand-in did not finish the game"
        time.sleep(0.2)
    return table


def test_export_and_delete(server: Server) -> None:
    b = Browser(server)
    b.sign_up()
    b.request("PATCH", "/api/me", json={"settings": {"colour_blind": True}})
    done = _finished_game(server, b)
    waiting = b.create()
    export = b.http.get("/api/me/export")
    assert export.status_code == 200
    data = export.json()
    assert data["account"]["username"] == b.username
    assert data["account"]["settings"]["colour_blind"] is True
    assert {(s["table"], s["seat"]) for s in data["seats"]} == {(done, 0),
                                                                (waiting["table"]["id"], 0)}
    assert len(data["sessions"]) == 1 and data["sessions"][0]["this"] is True
    [record] = data["games"]
    assert record["table"] == done and record["seats"] == [b.username] and record["moves"]
    assert record["seed"] != 0 and "scores" in record
    moves = record["moves"]
    # delete: the password first
    problem(b.request("DELETE", "/api/me", json={"password": "not the password"}), 403)
    problem(b.request("DELETE", "/api/me", json={}), 422, "password")
    r = b.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert cookie_flags(r).get("max-age") == "0"
    # the finished game keeps its moves under "deleted player"; the waiting seat is open
    table = server.api("GET", f"/api/tables/{done}").json()
    assert [s["name"] for s in table["seats"]] == ["deleted player"]
    record = server.api("GET", f"/api/tables/{done}/record").json()
    assert record["seats"] == ["deleted player"] and record["moves"] == moves
    seats = server.api("GET", f"/api/tables/{waiting['table']['id']}").json()["seats"]
    assert seats[0]["taken"] is False
    # the account cannot sign in; its old session is gone; its username is free again
    assert b.http.get("/api/me").status_code == 401
    c = Browser(server)
    problem(c.sign_in(b.username), 401, "wrong username or password")
    c.sign_up(b.username)
    assert c.http.get("/api/me/games").json() == []
    b.close()
    c.close()


# ------------------------------------------------------------------------ hostile input
def test_bad_input_is_a_clear_4xx_never_a_5xx(server: Server, ann: Browser) -> None:
    cases: list[tuple[str, str, Any]] = [
        ("POST", "/api/accounts", None), ("POST", "/api/accounts", []),
        ("POST", "/api/accounts", {"username": ["x"], "password": PASSWORD}),
        ("POST", "/api/accounts", {"username": "x" * 5000, "password": PASSWORD}),
        ("POST", "/api/accounts", {"username": "ok_name", "password": None}),
        ("POST", "/api/session", {"username": "a\x00b", "password": "x"}),
        ("POST", "/api/session", {"username": "", "password": "x"}),
        ("POST", "/api/session", {"username": "ann", "password": ""}),
        ("POST", "/api/session", {"username": "ann", "password": "x" * 5000}),
        ("POST", "/api/session", {"username": "ann"}),
        ("PATCH", "/api/me", {"settings": []}), ("PATCH", "/api/me", {"display_name": 3}),
        ("PATCH", "/api/me", {"display_name": "a\u202eb"}),
        ("POST", "/api/me/password", {"old_password": PASSWORD, "new_password": "short"}),
        ("POST", "/api/me/password", {"old_password": PASSWORD}),
        ("POST", "/api/me/claim", {"seats": [{"table": "t" * 33, "seat": 0, "secret": "x"}]}),
        ("POST", "/api/me/claim", {"seats": [{"table": "t", "seat": 2**40, "secret": "x"}]}),
        ("POST", "/api/me/claim", {"seats": "all"}),
        ("DELETE", "/api/me", {"password": 1}),
    ]
    for method, path, body in cases:
        r = ann.request(method, path, json=body)
        assert 400 <= r.status_code < 500, (method, path, body, r.status_code, r.text)
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    r = ann.request("POST", "/api/session", content=b"username=ann&password=x",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert 400 <= r.status_code < 500
    # a cookie that cannot be a token is no session, whatever it holds
    for junk in ("", "x" * 4000, "A" * 42 + "!", "a,b", "%00"):
        c = with_cookie(server, junk)
        assert c.get("/api/me").status_code == 401
        assert c.post("/api/me/claim", json={"seats": []}).status_code == 401
        c.close()
    assert ann.http.get("/api/me").status_code == 200


# ------------------------------------------------------------------------ in-process
def test_username_and_password_rules() -> None:
    assert checked_username("  Ａｎｎ_1 ") == ("Ann_1", "ann_1")
    assert checked_username("Zoë.b-2")[1] == "zoë.b-2"
    assert checked_username("Иван")[1] == "иван"
    assert checked_username("STRASSE")[1] == checked_username("straße")[1]
    for bad in ("an", "ann lee", "ann!", ".ann", "Аnn", "a" * 31, "ann\u200d"):
        with pytest.raises(BadInput, match="username"):
            checked_username(bad)
    assert checked_password("ｆｕｌｌｗｉｄｔｈ pw") == "fullwidth pw"
    with pytest.raises(BadInput, match="username"):
        checked_password("Ann_Lee_99", "ann_lee_99")


def test_account_settings_are_read_and_checked() -> None:
    s = Settings.from_env({}).accounts
    assert s.session_days == 30 and s.secret_key == "" and s.signin == "20/minute;200/hour"
    s = Settings.from_env({"MEEPLE_SESSION_DAYS": "0.5", "MEEPLE_SECRET_KEY": "k" * 32,
                           "MEEPLE_RATE_SIGNIN": "off"}).accounts
    assert s.lifetime.total_seconds() == 43200 and s.secret_key == "k" * 32
    for var, value, word in (("MEEPLE_SECRET_KEY", "short", "at least 32"),
                             ("MEEPLE_SESSION_DAYS", "0", "days"),
                             ("MEEPLE_SESSION_DAYS", "nan", "days"),
                             ("MEEPLE_SESSIONS_PER_ACCOUNT", "0", "whole number"),
                             ("MEEPLE_RATE_SIGNIN_USER", "often", "rate")):
        with pytest.raises(ValueError, match=word) as refused:
            Settings.from_env({var: value})
        assert var in str(refused.value)
        assert "short" not in str(refused.value)  # a secret is never printed


def test_serve_refuses_bad_account_settings_with_a_clear_message() -> None:
    from typer.testing import CliRunner

    from meeple.cli import app

    for var, value, words in (("MEEPLE_SECRET_KEY", "too short", "at least 32 characters"),
                              ("MEEPLE_SESSION_DAYS", "-1", "a number of days"),
                              ("MEEPLE_RATE_SIGNIN", "lots", "a rate")):
        result = CliRunner().invoke(app, ["serve", "--port", "1"], env={var: value})
        assert result.exit_code == 2, result.output
        assert words in result.output and var in result.output
        assert "too short" not in result.output
