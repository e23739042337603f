"""How a seat is named, tried from outside on real server processes, on SQLite and PostgreSQL:
a seat an account takes (creating, joining, a rematch, a claim) bears the account's display
name whatever name the client sent, in the table's answers, the public list, My games, the
view and its log in words, the record and the profile; a new display name renames the seats
the account holds; a guest's seat keeps the name typed, and a rematch keeps every person's
name (src/meeple/server/features/accounts/README.md, *Seat names*). The mails are tried in
tests/server/test_turn_based.py."""

from __future__ import annotations

import time
from typing import Any

from tests.server.conftest import Server
from tests.server.test_accounts import Browser, new_name

#: A short game: Takenokolor (about 22 decisions a seat).
GAME = "takenokolor"
TWO = [{"kind": "human"}, {"kind": "human"}]


def account(server: Server, display: str | None = None) -> Browser:
    b = Browser(server)
    b.sign_up(new_name("nm"), **({"display_name": display} if display else {}))
    return b


def made(who: Browser | Server, seats: list[dict[str, Any]], join_as: str | None,
         **extra: Any) -> dict[str, Any]:
    ask = who.request if isinstance(who, Browser) else who.api
    r = ask("POST", "/api/tables", json={"game": GAME, "variant": {}, "seats": seats,
                                         "join_as": join_as, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def names(server: Server, table: str) -> list[str]:
    r = server.api("GET", f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    return [s["name"] for s in r.json()["seats"]]


def finished(server: Server, table: str, *concessions: tuple[Any, dict[str, Any]]) -> None:
    """Every person concedes (each ``(ask, body)``: a client's request method and the body
    that proves the seat): their stand-ins play the game to its end."""
    for ask, body in concessions:
        r = ask("POST", f"/api/tables/{table}/concede", json=body)
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 300
    while server.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the stand-ins did not finish the game"
        time.sleep(0.1)


def test_an_account_seat_bears_the_account_name_everywhere(server: Server) -> None:
    ann = account(server, "Ann Lee")
    bob = account(server)  # no display name: the username is shown
    # the client sends other names (one of them another's): the account's wins
    t = made(ann, TWO, "Mallory", public=True)
    table = t["table"]["id"]
    assert t["table"]["seats"][0]["name"] == "Ann Lee"
    r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Ann Lee"})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][1]["name"] == bob.username
    assert names(server, table) == ["Ann Lee", bob.username]
    # the public list
    listed = server.api("GET", "/api/tables", params={"game": GAME, "status": "running"})
    mine = [x for x in listed.json() if x["id"] == table]
    assert [s["name"] for s in mine[0]["seats"]] == ["Ann Lee", bob.username]
    # My games, with whose turn it is
    games = ann.request("GET", "/api/me/games").json()
    (g,) = [x for x in games if x["table"] == table]
    assert g["seats"] == ["Ann Lee", bob.username]
    # the view's seats (and, once played, its log in words), the record
    view = server.api("GET", f"/api/tables/{table}/view").json()["view"]
    assert [s["name"] for s in view["seats"]] == ["Ann Lee", bob.username]
    finished(server, table, (ann.request, {"seat": 0}), (bob.request, {"seat": 1}))
    view = server.api("GET", f"/api/tables/{table}/view").json()["view"]
    assert [s["name"] for s in view["seats"]] == ["Ann Lee", bob.username]
    assert "Mallory" not in str(view)
    record = server.api("GET", f"/api/tables/{table}/record").json()
    assert record["seats"] == ["Ann Lee", bob.username]
    # a replay's position
    early = server.api("GET", f"/api/tables/{table}/view", params={"at": 3}).json()["view"]
    assert [s["name"] for s in early["seats"]] == ["Ann Lee", bob.username]
    # the profile's recent games
    prof = server.api("GET", f"/api/users/{ann.username}").json()
    (game,) = [x for x in prof["recent"] if x["table"] == table]
    assert [p["name"] for p in game["players"]] == ["Ann Lee", bob.username]


def test_a_guest_keeps_the_name_typed_and_a_signed_in_creator_needs_none(
        server: Server) -> None:
    t = made(server, TWO, "Gus")
    table = t["table"]["id"]
    ann = account(server)
    r = ann.request("POST", f"/api/tables/{table}/join", json={})  # no name sent
    assert r.status_code == 200, r.text
    assert names(server, table) == ["Gus", ann.username]
    # a bad name is still refused (422), signed in or not, and nothing changes
    other = made(ann, TWO, "x")
    r = server.api("POST", f"/api/tables/{other['table']['id']}/join",
                   json={"name": "a\u202eb"})
    assert r.status_code == 422, r.text
    assert names(server, other["table"]["id"]) == [ann.username, "Seat 2"]


def test_a_rematch_keeps_every_name(server: Server) -> None:
    ann = account(server, "Ann Lee")
    t = made(server, TWO, "Gus")
    table, gus_secret = t["table"]["id"], t["secret"]
    r = ann.request("POST", f"/api/tables/{table}/join", json={"name": "Ann"})
    assert r.status_code == 200, r.text
    finished(server, table, (server.api, {"seat": 0, "secret": gus_secret}),
             (ann.request, {"seat": 1}))
    # the account asks first, sending another name: its seat is the account's name
    r = ann.request("POST", f"/api/tables/{table}/rematch", json={"seat": 1, "name": "Mallory"})
    assert r.status_code == 201, r.text
    again = r.json()["table"]["id"]
    # the guest asks with no name: the name typed at the finished table
    r = server.api("POST", f"/api/tables/{table}/rematch",
                   json={"seat": 0, "secret": gus_secret})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["id"] == again
    assert names(server, again) == ["Gus", "Ann Lee"]


def test_a_new_display_name_renames_the_seats_held(server: Server) -> None:
    ann = account(server, "Ann Lee")
    running = made(ann, TWO, "Ann")["table"]["id"]
    r = server.api("POST", f"/api/tables/{running}/join", json={"name": "Gus"})
    assert r.status_code == 200, r.text
    done = made(ann, TWO, "Ann")["table"]["id"]
    r = server.api("POST", f"/api/tables/{done}/join", json={"name": "Gus"})
    finished(server, done, (ann.request, {"seat": 0}),
             (server.api, {"seat": 1, "secret": r.json()["secret"]}))
    r = ann.request("PATCH", "/api/me", json={"display_name": "Ann Smith"})
    assert r.status_code == 200, r.text
    assert names(server, running) == ["Ann Smith", "Gus"]
    assert names(server, done) == ["Ann Smith", "Gus"]
    assert server.api("GET", f"/api/tables/{done}/record").json()["seats"] == [
        "Ann Smith", "Gus"]
    view = server.api("GET", f"/api/tables/{running}/view").json()["view"]
    assert [s["name"] for s in view["seats"]] == ["Ann Smith", "Gus"]


def test_a_claimed_seat_takes_the_account_name(server: Server) -> None:
    t = made(server, TWO, "Gus")
    table = t["table"]["id"]
    ann = account(server, "Ann Lee")
    r = ann.request("POST", "/api/me/claim",
                    json={"seats": [{"table": table, "seat": 0, "secret": t["secret"]}]})
    assert r.status_code == 200 and r.json()["claimed"], r.text
    assert names(server, table) == ["Ann Lee", "Seat 2"]
