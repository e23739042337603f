"""Play now (issue 53) from outside on real server processes, on SQLite and PostgreSQL: two
accounts asking for the same game meet at one rated table, which their sessions play; a
wish nobody shares waits (and is given up once its page stops asking); bots fill the table of
someone who said so; the refusals; and on PostgreSQL, two people asking at two server processes
of one database meet at one table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser, _answer, _socket, problem

#: quick settings: a wait is given up after 3 s without asking, bots come after 2 s
QUICK = {"MEEPLE_PLAY_NOW_GONE_AFTER": "3", "MEEPLE_PLAY_NOW_BOTS_AFTER": "2",
         "MEEPLE_PLAY_NOW_EVERY": "0.2"}
WISH = {"game": "gardens", "variant": {"level": 1}, "players": 2}


@pytest.fixture(scope="module")
def quick(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(QUICK)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _person(srv: Server) -> Browser:
    b = Browser(srv)
    b.sign_up()
    return b


def _seated(b: Browser, within: float = 30) -> dict[str, Any]:
    """Ask how the wait stands (as the page does) until seated."""
    deadline = time.monotonic() + within
    while True:
        r = b.http.get("/api/play-now")
        assert r.status_code == 200, r.text
        st: dict[str, Any] = r.json()
        if st["state"] == "seated":
            return st
        assert st["state"] == "waiting", st
        assert time.monotonic() < deadline, f"not seated in {within} s: {st}"
        time.sleep(0.3)


def test_two_people_meet_at_one_rated_table_their_sessions_play(quick: Server) -> None:
    ann, bea = _person(quick), _person(quick)
    try:
        first = ann.request("POST", "/api/play-now", json=WISH)
        assert first.status_code == 202, first.text
        st = first.json()
        assert st["state"] == "waiting" and st["window"] >= 100 and st["rating"] > 0
        assert bea.request("POST", "/api/play-now", json=WISH).status_code == 202
        a, b = _seated(ann), _seated(bea)
        assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
        table = quick.api("GET", f"/api/tables/{a['table']}").json()
        assert table["status"] == "running" and table["rated"] is True
        assert not table["public"]
        # in both accounts' games, and each session plays its seat with no secret
        assert a["table"] in {g["table"] for g in ann.http.get("/api/me/games").json()}
        ws = _socket(quick, a["table"], ann.token)
        assert _answer(ws, {"type": "hello", "seat": a["seat"]})["type"] == "welcome"
        ws.close()
        # asking again starts a new wait (the seat given stays the account's)
        assert ann.request("POST", "/api/play-now", json=WISH).json()["state"] == "waiting"
        assert ann.request("DELETE", "/api/play-now").json() == {"left": True}
        assert ann.http.get("/api/play-now").json()["state"] == "none"
    finally:
        ann.close()
        bea.close()


def test_a_wait_nobody_shares_waits_and_is_given_up_when_its_page_goes(quick: Server) -> None:
    ann = _person(quick)
    try:
        lonely = {"game": "takenokolor", "variant": {"sheet": "2-pandas"}, "players": 4}
        assert ann.request("POST", "/api/play-now", json=lonely).status_code == 202
        time.sleep(1)
        assert ann.http.get("/api/play-now").json()["state"] == "waiting"
        time.sleep(4.5)  # no asking for longer than MEEPLE_PLAY_NOW_GONE_AFTER
        assert ann.http.get("/api/play-now").json()["state"] == "gone"
    finally:
        ann.close()


def test_bots_of_a_close_rating_fill_the_table_when_asked(quick: Server) -> None:
    ann = _person(quick)
    try:
        wish = {"game": "reefs", "variant": {"level": 1}, "players": 2, "bots": True}
        assert ann.request("POST", "/api/play-now", json=wish).status_code == 202
        st = _seated(ann)
        table = quick.api("GET", f"/api/tables/{st['table']}").json()
        kinds = [s["kind"] for s in table["seats"]]
        assert kinds.count("human") == 1 and kinds.count("bot") == 1
        assert table["seats"][1]["bot"] in ("easy", "medium", "hard") and table["rated"]
    finally:
        ann.close()


def test_refusals_name_what_was_wrong(quick: Server) -> None:
    problem(quick.api("POST", "/api/play-now", json=WISH), 401, "sign in")
    problem(quick.api("GET", "/api/play-now"), 401)
    ann = _person(quick)
    try:
        problem(ann.request("POST", "/api/play-now", json={**WISH, "game": "chess"}), 404,
                "gardens")
        problem(ann.request("POST", "/api/play-now", json={**WISH, "players": 9}), 422)
        problem(ann.request("POST", "/api/play-now", json={**WISH, "variant": {"level": 99}}),
                422)
        r = ann.request("POST", "/api/play-now", json=WISH, csrf=False)
        assert r.status_code == 403 and "CSRF" in r.text
        assert ann.http.get("/api/play-now").json()["state"] == "none"
    finally:
        ann.close()


def test_two_processes_of_one_database_seat_their_people_together(
        db_url: str, quick: Server, tmp_path: Any) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("several server processes share one PostgreSQL")
    other = Server(db_url, free_port(), tmp_path / "other.log")
    other.env = dict(QUICK)
    other.start()
    ann, bea = _person(quick), _person(other)
    try:
        wish = {"game": "pergola", "variant": {}, "players": 2}
        assert ann.request("POST", "/api/play-now", json=wish).status_code == 202
        assert bea.request("POST", "/api/play-now", json=wish).status_code == 202
        a, b = _seated(ann), _seated(bea)
        assert a["table"] == b["table"]
    finally:
        ann.close()
        bea.close()
        other.stop()
