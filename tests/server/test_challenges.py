"""Challenges (issue 60), tried from outside on real server processes, on SQLite and
PostgreSQL: one account challenges another to a game; the other accepts (one table, both
accounts seated, the same answer to a retry and to two accepts at once in two server
processes), declines with a reason, or the challenger cancels; every refusal is a 4xx naming
what is allowed and changes nothing; a bot account answers through its token and plays the
table made; a deleted account's challenges go and the export lists them."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from tests.server.conftest import Server, free_port
from tests.server.test_accounts import PASSWORD, Browser, problem
from tests.server.test_accounts import ann as ann  # the fixture: a signed-up browser
from tests.server.test_api_tokens import bearer, make_token, socket, with_token

GARDENS = {"game": "gardens", "variant": {"level": 1}, "seats": 2, "pace": "live"}


@pytest.fixture
def bob(server: Server) -> Iterator[Browser]:
    b = Browser(server)
    b.sign_up()
    yield b
    b.close()


def challenge(b: Browser, to: str, **extra: Any) -> httpx.Response:
    return b.request("POST", "/api/challenges", json={**GARDENS, "to": to, **extra})


def made(b: Browser, to: str, **extra: Any) -> dict[str, Any]:
    r = challenge(b, to, **extra)
    assert r.status_code == 201, r.text
    got: dict[str, Any] = r.json()["challenge"]
    return got


def test_a_challenge_is_listed_both_ways_and_its_accept_seats_both_accounts_once(
        server: Server, ann: Browser, bob: Browser) -> None:
    c = made(ann, bob.username, rated=True, challenger_seat=1)
    assert c["state"] == "open" and c["table"] is None and c["rated"] is True
    # each account by its username and the name it shows (its username when it chose none)
    assert c["challenger"] == {"name": ann.username, "display": ann.username,
                               "bot_account": False}
    assert c["challenged"] == {"name": bob.username, "display": bob.username,
                               "bot_account": False}
    expires = datetime.fromisoformat(c["expires"]) - datetime.fromisoformat(c["created"])
    assert expires == timedelta(minutes=15)
    assert [x["id"] for x in bob.http.get("/api/challenges").json()["incoming"]] == [c["id"]]
    assert bob.http.get("/api/challenges").json()["outgoing"] == []
    assert [x["id"] for x in ann.http.get("/api/challenges").json()["outgoing"]] == [c["id"]]
    r = bob.request("POST", f"/api/challenges/{c['id']}/accept")
    assert r.status_code == 200, r.text
    got = r.json()
    table = got["table"]
    assert got["seat"] == 0 and got["url"] == f"/t/{table}"
    assert got["challenge"]["state"] == "accepted" and got["challenge"]["table"] == table
    # a retried accept (a lost reply) answers the same table and seat
    again = bob.request("POST", f"/api/challenges/{c['id']}/accept")
    assert again.status_code == 200 and again.json() == got
    # both accounts hold their seats: the challenger the one it chose
    assert bob.http.get(f"/api/me/tables/{table}/seats").json()["seats"] == [0]
    assert ann.http.get(f"/api/me/tables/{table}/seats").json()["seats"] == [1]
    t = server.api("GET", f"/api/tables/{table}").json()
    assert t["rated"] is True and t["game"] == "gardens" and t["status"] == "running"
    # the challenger's page sees it accepted (no longer open) with the table's link
    seen = ann.http.get(f"/api/challenges/{c['id']}").json()["challenge"]
    assert seen["state"] == "accepted" and seen["url"] == f"/t/{table}"
    assert ann.http.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    # an accepted challenge cannot be declined or canceled
    problem(bob.request("POST", f"/api/challenges/{c['id']}/decline"), 409, "accepted")
    problem(ann.request("POST", f"/api/challenges/{c['id']}/cancel"), 409, "accepted")


def test_a_turn_based_challenge_with_a_bot_seat_makes_that_table(
        server: Server, ann: Browser, bob: Browser) -> None:
    c = made(ann, bob.username, game="takenokolor", variant={}, seats=3, others=["medium"],
             pace="turn-based", rated=True)
    assert c["clock"] == 86400
    expires = datetime.fromisoformat(c["expires"]) - datetime.fromisoformat(c["created"])
    assert expires == timedelta(days=7)
    got = bob.request("POST", f"/api/challenges/{c['id']}/accept").json()
    t = server.api("GET", f"/api/tables/{got['table']}").json()
    assert t["pace"] == "turn-based" and t["clock"] == 86400 and t["players"] == 3
    # the challenger's seat is drawn when the challenge names none, so the bot's seat varies
    assert sorted((s["kind"], s.get("bot")) for s in t["seats"]) == [
        ("bot", "medium"), ("human", None), ("human", None)]


def test_decline_shows_the_reason_and_cancel_takes_it_back(
        server: Server, ann: Browser, bob: Browser) -> None:
    c = made(ann, bob.username)
    problem(bob.request("POST", f"/api/challenges/{c['id']}/decline",
                        json={"reason": "because"}), 422, "reason", "tooFast")
    r = bob.request("POST", f"/api/challenges/{c['id']}/decline", json={"reason": "later"})
    assert r.status_code == 200, r.text
    seen = ann.http.get(f"/api/challenges/{c['id']}").json()["challenge"]
    assert seen["state"] == "declined" and seen["reason"] == "later"
    problem(bob.request("POST", f"/api/challenges/{c['id']}/accept"), 409, "declined", "later")
    d = made(ann, bob.username)
    problem(bob.request("POST", f"/api/challenges/{d['id']}/cancel"), 403, "challenger")
    assert ann.request("POST", f"/api/challenges/{d['id']}/cancel").json()[
        "challenge"]["state"] == "canceled"
    problem(bob.request("POST", f"/api/challenges/{d['id']}/accept"), 409, "canceled")
    assert bob.http.get("/api/challenges").json()["incoming"] == []


def test_every_bad_challenge_is_refused_naming_what_is_allowed(
        server: Server, ann: Browser, bob: Browser, db_url: str) -> None:
    cases: list[tuple[dict[str, Any], int, tuple[str, ...]]] = [
        ({"to": "nobody_at_all_here"}, 404, ("no account",)),
        ({"to": ann.username.upper()}, 422, ("yourself",)),
        ({"to": "ann\u0000"}, 422, ("printable",)),
        ({"to": "x" * 121}, 422, ()),
        ({"game": "chess"}, 404, ("no game", "gardens")),
        ({"game": "../../etc/passwd"}, 404, ("no game",)),
        ({"variant": {"level": 99}}, 422, ()),
        ({"variant": {"sheet": "/etc/passwd"}}, 422, ()),
        ({"seats": 9}, 422, ()),
        ({"game": "takenokolor", "variant": {}, "seats": 5}, 422, ("seats",)),
        ({"seats": 3}, 422, ("others",)),
        ({"seats": 3, "others": ["telepath"]}, 422, ("others[0]",)),
        ({"challenger_seat": 2}, 422, ("challenger_seat",)),
        ({"pace": "blitz"}, 422, ()),
        ({"clock": 3}, 422, ("clock", "5 to 86400")),
        ({"pace": "turn-based", "clock": 60}, 422, ("clock", "3600")),
        ({"seats": 3, "others": ["random"], "rated": True}, 422, ("easy", "rated")),
        ({"rated": "yes"}, 422, ()),
        ({"evil": 1}, 422, ()),
    ]
    for extra, status, words in cases:
        to = extra.pop("to", bob.username)
        problem(challenge(ann, to, **extra), status, *words)
    assert bob.http.get("/api/challenges").json()["incoming"] == []
    # no session, or a cookie without its CSRF token
    problem(server.api("POST", "/api/challenges", json={**GARDENS, "to": bob.username}), 401)
    problem(ann.request("POST", "/api/challenges", csrf=False,
                        json={**GARDENS, "to": bob.username}), 403, "X-CSRF-Token")
    # a deleted account cannot be challenged
    gone = Browser(server)
    gone.sign_up()
    assert gone.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    problem(challenge(ann, gone.username), 404, "no account")
    gone.close()
    # ids: unknown, hostile
    problem(bob.request("POST", "/api/challenges/0123456789abcdef/accept"), 404)
    problem(bob.request("POST", "/api/challenges/%00x/accept"), 422)
    problem(bob.http.get("/api/challenges/" + "a" * 40), 422)
    # accepting what is not addressed to you: the challenger 403, a third account 404
    c = made(ann, bob.username)
    problem(ann.request("POST", f"/api/challenges/{c['id']}/accept"), 403, "only the account")
    carl = Browser(server)
    carl.sign_up()
    problem(carl.request("POST", f"/api/challenges/{c['id']}/accept"), 404)
    problem(carl.http.get(f"/api/challenges/{c['id']}"), 404)
    carl.close()
    # expired: its expiry moved into the past, as time would
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE challenges SET expires = :t WHERE id = :i"),
                     {"t": datetime.now(UTC) - timedelta(minutes=1), "i": c["id"]})
    engine.dispose()
    problem(bob.request("POST", f"/api/challenges/{c['id']}/accept"), 409, "expired")
    assert bob.http.get(f"/api/challenges/{c['id']}").json()["challenge"]["state"] == "expired"
    assert bob.http.get("/api/me/games").json() == []
    # at most 10 open challenges an account
    for _ in range(10):
        made(ann, bob.username)
    problem(challenge(ann, bob.username), 429, "10")
    assert len(bob.http.get("/api/challenges").json()["incoming"]) == 10


@pytest.fixture
def second(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    """A second server process on the same database."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def accept_at_once(servers: tuple[Server, ...], b: Browser, challenge_id: str
                   ) -> list[httpx.Response]:
    """The same accept sent by ``b`` to each of ``servers`` at the same moment."""
    answers: list[httpx.Response] = []
    go = threading.Barrier(len(servers))

    def accept(srv: Server) -> None:
        with httpx.Client(base_url=srv.base, timeout=60,
                          cookies={"meeple_session": b.token or ""}) as h:
            go.wait()
            answers.append(h.post(f"/api/challenges/{challenge_id}/accept",
                                  headers={"X-CSRF-Token": b.csrf}))

    threads = [threading.Thread(target=accept, args=(s,)) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_two_accepts_at_once_in_two_processes_make_one_table(
        server: Server, second: Server, ann: Browser, bob: Browser) -> None:
    for _ in range(3):
        c = made(ann, bob.username)
        answers = accept_at_once((server, second), bob, c["id"])
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert answers[0].json() == answers[1].json()
    assert len(bob.http.get("/api/me/games").json()) == 3
    assert len(ann.http.get("/api/me/games").json()) == 3


def bot_account(srv: Server) -> tuple[Browser, str]:
    """A new bot account and its token (play and challenge)."""
    robo = Browser(srv)
    robo.sign_up()
    secret, _ = make_token(robo, ["play", "challenge"])
    with with_token(srv, secret) as c:
        assert c.post("/api/me/bot").status_code == 200
    return robo, secret


def test_a_bot_account_answers_by_token_and_plays_the_table_made(
        server: Server, ann: Browser) -> None:
    robo, secret = bot_account(server)
    c = made(ann, robo.username, challenger_seat=1)
    assert c["challenged"]["bot_account"] is True
    # its cookie session cannot answer: a bot account acts through its token only
    problem(robo.request("POST", f"/api/challenges/{c['id']}/accept"), 403, "bot account",
            "token")
    # a token without the challenge scope cannot
    play_only, _ = make_token(robo, ["play"], name="play only")
    with with_token(server, play_only) as p:
        problem(p.post(f"/api/challenges/{c['id']}/accept"), 403, "'challenge' scope")
    with with_token(server, secret) as bot:
        listed = bot.get("/api/challenges").json()["incoming"]
        assert [x["id"] for x in listed] == [c["id"]]
        r = bot.post(f"/api/challenges/{c['id']}/accept")  # no CSRF token with a bearer
        assert r.status_code == 200, r.text
        table, seat = r.json()["table"], r.json()["seat"]
        assert seat == 0
        # a bot account challenges by token too
        back = bot.post("/api/challenges", json={**GARDENS, "to": ann.username})
        assert back.status_code == 201 and back.json()["challenge"]["challenger"][
            "bot_account"] is True
    ws = socket(server, table, bearer(secret))
    ws.send(json.dumps({"type": "hello", "seat": seat}))
    view: dict[str, Any] = {}
    version = -1
    while not (view.get("to_move") == seat and view.get("legal_moves")):
        frame = json.loads(ws.recv(timeout=120))
        assert frame["type"] not in ("error", "refused"), frame
        if frame["type"] == "view":
            view, version = frame["view"], frame["version"]
    ws.send(json.dumps({"type": "move", "move": view["legal_moves"][0], "version": version}))
    while True:
        frame = json.loads(ws.recv(timeout=120))
        if frame["type"] in ("ack", "refused", "error"):
            break
    assert frame["type"] == "ack", frame
    ws.close()
    robo.close()


def test_deleting_an_account_removes_its_challenges_and_the_export_lists_them(
        server: Server, ann: Browser, bob: Browser, db_url: str) -> None:
    out = made(ann, bob.username)
    into = made(bob, ann.username, pace="turn-based")
    export = ann.http.get("/api/me/export").json()
    listed = {x["id"]: x for x in export["challenges"]}
    assert set(listed) == {out["id"], into["id"]}
    assert listed[out["id"]]["made"] is True and listed[out["id"]]["with"] == bob.username
    assert listed[into["id"]]["made"] is False and listed[into["id"]]["pace"] == "turn-based"
    assert ann.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    assert bob.http.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        left = conn.execute(sa.text("SELECT count(*) FROM challenges WHERE id IN (:a, :b)"),
                            {"a": out["id"], "b": into["id"]}).scalar()
    engine.dispose()
    assert left == 0
