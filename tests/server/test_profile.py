"""Players' profiles (issue 52), tried from outside on real server processes, on SQLite and
PostgreSQL: ``GET /api/users/{username}`` (games played per game and variant, wins, the recent
games with each player's place and score, paging and its bounds, 404s, a deleted player, a
private table, bots), the solo achievement table by account, and the one-time claim of the
solo games kept under a seat name (once only, CSRF, signed in)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from meeple.core.state import places_by_total
from meeple.server.features.accounts.store import PlayedSeat
from meeple.server.features.profiles.routes import stats
from meeple.store import Store
from tests.server.conftest import Server
from tests.server.test_accounts import Browser, guest_table, new_name, problem

#: A seat a person takes and leaves at once: its stand-in bot plays it to the end.
STAND_IN = {"kind": "human", "bot": "random"}
RANDOM_BOT = {"kind": "bot", "bot": "random"}


def wait_finished(srv: Server, table: str, limit: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        t: dict[str, Any] = srv.api("GET", f"/api/tables/{table}").json()
        if t["status"] == "finished":
            return t
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.2)


def leave(srv: Server, table: str, seat: int, secret: str, b: Browser | None = None) -> None:
    body = {"seat": seat, "secret": secret}
    r = (b.request("POST", f"/api/tables/{table}/leave", json=body) if b is not None
         else srv.api("POST", f"/api/tables/{table}/leave", json=body))
    assert r.status_code == 200, r.text


def played(b: Browser, game: str, variant: dict[str, Any], seats: list[dict[str, Any]],
           name: str = "Ann", **extra: Any) -> dict[str, Any]:
    """A table ``b`` creates and sits at (its first seat, a person's), then leaves: the
    stand-ins and bots play it to the end. The finished table."""
    r = b.request("POST", "/api/tables", json={"game": game, "variant": variant,
                                               "seats": seats, "join_as": name, **extra})
    assert r.status_code == 201, r.text
    made = r.json()
    table = made["table"]["id"]
    if made["table"]["status"] == "running":
        leave(b.srv, table, made["seat"], made["secret"], b)
    return {**wait_finished(b.srv, table), "secret": made["secret"], "seat": made["seat"]}


def aware(when: str) -> datetime:
    """An ISO time as an aware datetime (SQLite gives back naive UTC times)."""
    t = datetime.fromisoformat(when)
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def places_of(result: list[dict[str, Any]]) -> list[int]:
    totals = [r["total"] for r in result]
    return [1 + sorted(totals, reverse=True).index(t) for t in totals]


@pytest.fixture
def ann(server: Server) -> Iterator[Browser]:
    b = Browser(server)
    b.sign_up(display_name="Ann Profile")
    yield b
    b.close()


# ------------------------------------------------------------------------ counting
def test_places_and_wins_count_a_shared_first_place_as_a_win() -> None:
    def score(*totals: int) -> list[dict[str, Any]]:
        return [{"total": t, "breakdown": {}} for t in totals]

    assert places_by_total([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert places_by_total([7]) == [1]
    seats = [PlayedSeat("t1", "gardens", {"level": 1}, 2, score(30, 30), 0),  # shared: a win
             PlayedSeat("t2", "gardens", {"level": 1}, 2, score(10, 30), 0),
             PlayedSeat("t3", "gardens", {"level": 2}, 3, score(50, 1, 2), 0),
             # two seats of one table: counted once, at the better place
             PlayedSeat("t4", "gardens", {"level": 1}, 2, score(1, 2), 0),
             PlayedSeat("t4", "gardens", {"level": 1}, 2, score(1, 2), 1),
             PlayedSeat("t5", "pergola", {"challenge": 3}, 1, score(80), 0),
             # issue 58: a seat that conceded is no win, however it scored
             PlayedSeat("t6", "gardens", {"level": 3}, 2, score(40, 10), 0, (1, None))]
    rows, games, wins = stats(seats)
    assert (games, wins) == (6, 3)
    by = {(r.game, r.variant.get("level", r.variant.get("challenge"))): r for r in rows}
    g1 = by["gardens", 1]
    assert (g1.played, g1.wins, g1.win_rate, g1.best, g1.solo) == (3, 2, 0.667, 30, False)
    assert (by["gardens", 2].played, by["gardens", 2].wins) == (1, 1)
    assert (by["gardens", 3].played, by["gardens", 3].wins, by["gardens", 3].best) == (1, 0, 40)
    solo = by["pergola", 3]
    assert (solo.solo, solo.played, solo.wins, solo.win_rate, solo.best) == (
        True, 1, None, None, 80)
    assert rows[0] is g1  # the most played first


# ------------------------------------------------------------------------ the profile
def test_a_profile_counts_games_wins_and_lists_recent_games(server: Server, ann: Browser,
                                                            ) -> None:
    two = [STAND_IN, RANDOM_BOT]
    games = [played(ann, "gardens", {"level": 1}, two) for _ in range(2)]
    games.append(played(ann, "gardens", {"level": 2}, two))
    games.append(played(ann, "gardens", {"level": 1}, [STAND_IN]))  # a solo game
    # not counted: a table of Ann's abandoned (closed without a result, as a waiting table
    # nobody joined is), one still waiting, and a guest's
    abandoned = ann.create(seats=[{"kind": "human"}, {"kind": "human"}])["table"]["id"]
    store = Store(server.db_url)
    store.finish(abandoned, None)
    store.close()
    ann.create(seats=[{"kind": "human"}, {"kind": "human"}])
    guest_table(server)

    # anyone sees it, without a cookie, under any case of the username
    r = server.api("GET", f"/api/users/{ann.username.upper()}")
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["username"] == ann.username and p["display_name"] == "Ann Profile"
    assert p["member_since"] and p["played"] == 4
    wins = {}
    for g in games:
        place = places_of(g["result"])[0]
        wins[g["id"]] = place == 1
    multi = [g for g in games if g["players"] == 2]
    assert p["wins"] == sum(wins[g["id"]] for g in multi)
    rows = {(s["game"], s["variant"]["level"], s["solo"]): s for s in p["stats"]}
    assert set(rows) == {("gardens", 1, False), ("gardens", 2, False), ("gardens", 1, True)}
    l1 = rows["gardens", 1, False]
    assert l1["played"] == 2 and l1["title"] == "Pick a Pen: Gardens"
    assert l1["wins"] == sum(wins[g["id"]] for g in games[:2])
    assert l1["win_rate"] == round(l1["wins"] / 2, 3)
    assert l1["best"] == max(g["result"][0]["total"] for g in games[:2])
    assert rows["gardens", 1, True]["wins"] is None
    assert rows["gardens", 1, True]["best"] == games[3]["result"][0]["total"]
    # the recent games, newest first: each player's place and score, the bots as bots
    assert p["recent_total"] == 4 and (p["limit"], p["offset"]) == (10, 0)
    assert [g["table"] for g in p["recent"]] == [g["id"] for g in reversed(games)]
    for got, g in zip(p["recent"], reversed(games), strict=True):
        assert got["game"] == "gardens" and got["variant"] == g["variant"]
        assert got["seat"] == 0 and got["score"] == g["result"][0]["total"]
        assert got["place"] == places_of(g["result"])[0]
        assert got["won"] == (None if g["players"] == 1 else got["place"] == 1)
        assert aware(got["finished"]) == aware(g["updated"])
        assert datetime.fromisoformat(got["finished"]).tzinfo is not None
        me = got["players"][0]
        assert (me["name"], me["username"], me["bot"], me["this"]) == (
            "Ann Profile", ann.username, False, True)
        for seat, player in enumerate(got["players"]):
            assert player["score"] == g["result"][seat]["total"]
            assert player["place"] == places_of(g["result"])[seat]
        if g["players"] == 2:
            bot = got["players"][1]
            assert bot["bot"] is True and bot["username"] is None and bot["this"] is False
            assert bot["name"] == g["seats"][1]["name"]
    # paging, and its bounds
    r = server.api("GET", f"/api/users/{ann.username}?limit=1&offset=1")
    page = r.json()
    assert [g["table"] for g in page["recent"]] == [games[2]["id"]]
    assert page["recent_total"] == 4 and page["played"] == 4 and page["limit"] == 1
    assert server.api("GET", f"/api/users/{ann.username}?offset=4").json()["recent"] == []
    assert len(server.api("GET", f"/api/users/{ann.username}?limit=50").json()["recent"]) == 4
    for query, word in (("limit=0", "limit"), ("limit=51", "limit"), ("offset=-1", "offset"),
                        ("limit=x", "limit"), (f"offset={2**31}", "offset")):
        problem(server.api("GET", f"/api/users/{ann.username}?{query}"), 422, word)


def test_unknown_and_deleted_players_are_404_and_a_deleted_player_is_named_so(
        server: Server, ann: Browser) -> None:
    problem(server.api("GET", "/api/users/nobody_here_at_all"), 404, "nobody_here_at_all",
            "no player")
    problem(server.api("GET", "/api/users/nobody_here_at_all/solo"), 404, "no player")
    problem(server.api("GET", "/api/users/" + "x" * 121), 422, "username")
    problem(server.api("GET", "/api/users/ann%E2%80%8Bx"), 422, "invisible")
    # Bob sits at Ann's table (both leave: the stand-ins play it out)
    bob = Browser(server)
    bob.sign_up(display_name="Bob Profile")
    made = ann.create(seats=[STAND_IN, STAND_IN], join_as="Ann")
    table = made["table"]["id"]
    r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    joined = r.json()
    leave(server, table, 0, made["secret"], ann)
    leave(server, table, joined["seat"], joined["secret"], bob)
    done = wait_finished(server, table)
    got = server.api("GET", f"/api/users/{ann.username}").json()["recent"][0]
    assert got["table"] == table
    assert [(p["name"], p["username"], p["this"]) for p in got["players"]] == [
        ("Ann Profile", ann.username, True), ("Bob Profile", bob.username, False)]
    bob_seen = server.api("GET", f"/api/users/{bob.username}").json()
    assert bob_seen["played"] == 1 and bob_seen["recent"][0]["seat"] == 1
    assert bob_seen["recent"][0]["place"] == places_of(done["result"])[1]
    # Bob deletes his account: his profile is gone, his seat is "deleted player"
    r = bob.request("DELETE", "/api/me", json={"password": "correct horse battery"})
    assert r.status_code == 200, r.text
    problem(server.api("GET", f"/api/users/{bob.username}"), 404, "deleted")
    got = server.api("GET", f"/api/users/{ann.username}").json()["recent"][0]
    assert [(p["name"], p["username"]) for p in got["players"]] == [
        ("Ann Profile", ann.username), ("deleted player", None)]
    assert got["players"][1]["score"] == done["result"][1]["total"]
    bob.close()


def test_a_private_table_counts_without_its_id_or_the_other_peoples_names(
        server: Server, ann: Browser) -> None:
    made = ann.create(seats=[STAND_IN, {"kind": "human"}, RANDOM_BOT], join_as="Ann",
                      public=False)
    table = made["table"]["id"]
    r = server.api("POST", f"/api/tables/{table}/join", json={"name": "Secret Guest"})
    assert r.status_code == 200, r.text
    guest = r.json()
    leave(server, table, 0, made["secret"], ann)
    leave(server, table, 1, guest["secret"])
    done = wait_finished(server, table)
    p = server.api("GET", f"/api/users/{ann.username}").json()
    assert p["played"] == 1 and p["stats"][0]["played"] == 1
    [got] = p["recent"]
    assert got["table"] is None and table not in str(p) and "Secret Guest" not in str(p)
    assert [(q["name"], q["bot"]) for q in got["players"]] == [
        ("Ann Profile", False), ("unlisted player", False), (done["seats"][2]["name"], True)]
    assert got["score"] == done["result"][0]["total"]


# ------------------------------------------------------------------------ solo by account
def solo_game(srv: Server, name: str, challenge: int, b: Browser | None = None,
              **extra: Any) -> dict[str, Any]:
    """A finished Pergola solo game under seat name ``name`` (by ``b`` signed in, else a
    guest); its secret kept, as the guest's browser keeps it."""
    body = {"game": "pergola", "variant": {"challenge": challenge}, "seats": [STAND_IN],
            "join_as": name, **extra}
    r = (b.request("POST", "/api/tables", json=body) if b is not None
         else srv.api("POST", "/api/tables", json=body))
    assert r.status_code == 201, r.text
    made = r.json()
    leave(srv, made["table"]["id"], 0, made["secret"], b)
    return {**wait_finished(srv, made["table"]["id"]), "secret": made["secret"]}


def test_the_solo_table_by_account_and_the_one_time_claim_of_a_name(server: Server,
                                                                     ann: Browser) -> None:
    guest_name = new_name("Zed ")
    # as a guest: two listed solo games, a private one, and a bot seat under the name
    g1 = solo_game(server, guest_name, 2)
    g2 = solo_game(server, guest_name, 10)
    hidden = solo_game(server, guest_name, 3, public=False)
    bot_made = server.api("POST", "/api/tables", json={
        "game": "pergola", "variant": {"challenge": 4},
        "seats": [{**RANDOM_BOT, "name": guest_name}]}).json()
    wait_finished(server, bot_made["id"])
    # signed in: one solo game of Ann's own
    mine = solo_game(server, "Ann", 5, ann)
    by_name = server.api("GET", f"/api/solo/{guest_name}").json()
    assert len(by_name["games"]) == 4 and by_name["claimed"] is False
    assert by_name["claimed_by"] is None
    t = server.api("GET", f"/api/users/{ann.username}/solo").json()
    assert (t["player"], t["username"], t["game"]) == ("Ann Profile", ann.username, "pergola")
    assert [g["table"] for g in t["games"]] == [mine["id"]]
    assert [s["number"] for s in t["spaces"]] == list(range(1, 11))
    assert set(t) >= {"spaces", "total", "missing", "member", "thousand", "games"}
    problem(server.api("GET", f"/api/users/{ann.username}/solo?game=gardens"), 404, "pergola")

    claim = {"name": guest_name}
    # signed in only, and with the session's CSRF token
    problem(server.api("POST", "/api/me/solo/claim", json=claim), 401)
    problem(ann.request("POST", "/api/me/solo/claim", json=claim, csrf=False), 403,
            "X-CSRF-Token")
    assert server.api("GET", f"/api/solo/{guest_name}").json()["claimed"] is False
    # names that are nobody's, and bad input
    for body, code, word in (({"name": "player"}, 422, "nobody's"),
                             ({"name": "deleted player"}, 422, "nobody's"),
                             ({"name": "Seat 0"}, 422, "nobody's"),
                             ({"name": "x" * 241}, 422, "name"),
                             ({"name": guest_name, "game": "gardens"}, 404, "pergola"),
                             ({"name": guest_name, "extra": 1}, 422, "extra"),
                             ({}, 422, "name")):
        problem(ann.request("POST", "/api/me/solo/claim", json=body), code, word)
    # the claim: the listed games of a person's seat under the name, held by no account
    r = ann.request("POST", "/api/me/solo/claim", json=claim)
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["name"], out["game"], out["claimed"]) == (guest_name, "pergola", 2)
    assert sorted(out["tables"]) == sorted([g1["id"], g2["id"]])
    t = server.api("GET", f"/api/users/{ann.username}/solo").json()
    assert sorted(g["table"] for g in t["games"]) == sorted([mine["id"], g1["id"], g2["id"]])
    by_name = server.api("GET", f"/api/solo/{guest_name}").json()
    assert by_name["claimed"] is True and len(by_name["games"]) == 4  # still the name's
    assert by_name["claimed_by"] == {"username": ann.username, "display_name": "Ann Profile"}
    p = server.api("GET", f"/api/users/{ann.username}").json()
    assert p["played"] == 3 and {g["table"] for g in p["recent"]} == {
        mine["id"], g1["id"], g2["id"]}
    # once only: again, another name of the same account, the same name by another
    problem(ann.request("POST", "/api/me/solo/claim", json=claim), 409, "already", "once")
    problem(ann.request("POST", "/api/me/solo/claim", json={"name": "Someone Else"}), 409,
            "already")
    bob = Browser(server)
    bob.sign_up()
    problem(bob.request("POST", "/api/me/solo/claim", json=claim), 409, "another account")
    # a name with nothing free to claim is 404 and records nothing: Bob may claim another
    problem(bob.request("POST", "/api/me/solo/claim", json={"name": new_name("Nobody ")}),
            404, "nothing was claimed")
    # the private game is claimed by its secret (as the browser that played it does)
    r = ann.request("POST", "/api/me/claim", json={"seats": [
        {"table": hidden["id"], "seat": 0, "secret": hidden["secret"]}]})
    assert r.json()["claimed"] == [{"table": hidden["id"], "seat": 0}]
    t = server.api("GET", f"/api/users/{ann.username}/solo").json()
    assert len(t["games"]) == 4 and None in [g["table"] for g in t["games"]]  # id withheld
    # another account cannot take a claimed table, with its secret either
    r = bob.request("POST", "/api/me/claim", json={"seats": [
        {"table": g1["id"], "seat": 0, "secret": g1["secret"]}]})
    assert r.json()["claimed"] == [] and "another account" in r.json()["refused"][0]["reason"]
    bob.close()
