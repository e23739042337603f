"""A table's chat (issue 54), tried from outside on real server processes, on SQLite and
PostgreSQL: players and signed-in spectators post, every connection that asked is told,
history pages; the limits (length, rate per author, anonymous spectators, tables of bots only);
hostile text; reports kept once per reporter, with CSRF for a signed-in browser; the moderators'
``meeple reports`` and its --hide; a deleted account's messages; two processes on one
PostgreSQL see each other's messages."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meeple.cli import app as cli_app
from meeple.server.features.chat.service import checked_message
from meeple.server.table.checks import BadInput
from tests.server.conftest import TLS, Server, free_port
from tests.server.test_accounts import PASSWORD, Browser, guest_table, problem

#: The second server's limits: low, so a test reaches them in a few messages.
LIMITS = {"MEEPLE_RATE_CHAT": "3/hour", "MEEPLE_RATE_REPORT": "4/hour"}
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
PERSON_AND_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def limited(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Server]:
    """A second server process on the same database, with the chat's limits on."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = dict(LIMITS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Chatter:
    """A WebSocket at a table that asked for the chat (hello ``chat: true``): a seat's (with
    its secret), a signed-in spectator's (its session cookie in the handshake) or an
    anonymous spectator's."""

    def __init__(self, srv: Server, table: str, seat: int | None = None,
                 secret: str | None = None, cookie: str | None = None, chat: bool = True
                 ) -> None:
        headers = {"Cookie": f"meeple_session={cookie}"} if cookie else {}
        self.ws: ClientConnection = connect(
            f"{srv.ws_base}/ws/tables/{table}", additional_headers=headers, open_timeout=60,
            max_size=None, ping_interval=None, close_timeout=10).__enter__()
        self.frames: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello", "chat": chat}
        if seat is not None:
            hello.update(seat=seat, secret=secret)
        self.send(hello)
        self.expect(lambda f: f["type"] == "view")
        self.history = self.expect(lambda f: f["type"] == "chat") if chat else None

    def send(self, frame: dict[str, Any] | str) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def expect(self, match: Callable[[dict[str, Any]], bool], timeout: float = 60
               ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(
                timeout=max(0.1, deadline - time.monotonic())))
            self.frames.append(frame)
            if match(frame):
                return frame

    def say(self, text: str) -> dict[str, Any]:
        """Post a message: the answer (``chat`` with ``posted``, or an ``error`` with
        ``chat``)."""
        self.send({"type": "chat", "text": text})
        return self.expect(lambda f: f.get("posted") is True or
                           (f["type"] == "error" and f.get("chat") is True))

    def heard(self, text: str) -> dict[str, Any]:
        """The message with this text, once it comes (told to this connection)."""
        frame = self.expect(lambda f: f["type"] == "chat" and
                            any(m["text"] == text for m in f["messages"]))
        found: dict[str, Any] = next(m for m in frame["messages"] if m["text"] == text)
        return found

    def close(self) -> None:
        self.ws.close()


def seated(srv: Server, seats: list[dict[str, Any]] = PERSON_AND_BOT, name: str = "Ann"
           ) -> tuple[str, str]:
    made = guest_table(srv, seats=seats, name=name)
    return made["table"]["id"], made["secret"]


def history(srv: Server, table: str, **params: Any) -> list[dict[str, Any]]:
    r = srv.api("GET", f"/api/tables/{table}/chat", params=params)
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["messages"]
    return found


def refused(answer: dict[str, Any], *words: str) -> str:
    assert answer["type"] == "error" and answer["chat"] is True, answer
    reason: str = answer["reason"]
    for word in words:
        assert word in reason, (word, reason)
    return reason


# ------------------------------------------------------------------------ posting
def test_a_player_and_a_signed_in_spectator_chat_and_everyone_who_asked_hears(
        server: Server) -> None:
    table, secret = seated(server, seats=[{"kind": "human"}, {"kind": "human"}])
    bob = server.api("POST", f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    ann = Chatter(server, table, 0, secret)
    assert ann.history == {"type": "chat", "messages": [], "history": True, "post": True,
                           "you": f"s0-{table}"}
    b = Chatter(server, table, bob["seat"], bob["secret"])
    guest = Chatter(server, table)
    assert guest.history is not None and guest.history["post"] is False
    assert "sign in to chat as a spectator" in guest.history["reason"]
    quiet = Chatter(server, table, chat=False)  # did not ask: is told nothing of the chat
    cy = Browser(server)
    cy.sign_up(display_name="Cy the Watcher")
    watcher = Chatter(server, table, cookie=cy.token)
    assert watcher.history is not None and watcher.history["post"] is True

    posted = ann.say("  good luck,\nhave fun  ")
    assert posted["type"] == "chat" and posted["posted"] is True
    [mine] = posted["messages"]
    assert mine["text"] == "good luck, have fun" and mine["name"] == "Ann"
    assert mine["seat"] == 0 and mine["spectator"] is False and mine["author"] == f"s0-{table}"
    for other in (b, guest, watcher):
        assert other.heard("good luck, have fun") == mine
    said = watcher.say("nice opening, Bob")
    [theirs] = said["messages"]
    assert theirs["name"] == "Cy the Watcher" and theirs["seat"] is None
    assert theirs["spectator"] is True
    assert theirs["author"] == watcher.history["you"] and theirs["author"].startswith("a")
    assert cy.username not in json.dumps(theirs)  # nothing names the account but its author key
    assert b.heard("nice opening, Bob")["id"] > mine["id"]
    # an anonymous spectator reads only
    refused(guest.say("let me talk"), "sign in to chat as a spectator")
    # the connection that did not ask got no chat frame
    quiet.send({"type": "ping"})
    quiet.expect(lambda f: f["type"] == "pong")
    assert not [f for f in quiet.frames if f["type"] == "chat"]
    # a new connection gets the history after its view, the refused message not among it
    late = Chatter(server, table)
    assert late.history is not None
    assert [m["text"] for m in late.history["messages"]] == ["good luck, have fun",
                                                            "nice opening, Bob"]
    for c in (ann, b, guest, quiet, watcher, late):
        c.close()
    cy.close()


def test_history_pages_and_is_bounded(server: Server) -> None:
    table, secret = seated(server)
    ann = Chatter(server, table, 0, secret)
    for i in range(60):
        assert ann.say(f"message {i}")["type"] == "chat"
    # the hello's history: the last 50
    late = Chatter(server, table)
    assert late.history is not None
    assert [m["text"] for m in late.history["messages"]] == [f"message {i}"
                                                            for i in range(10, 60)]
    # REST: the last page, then back with before, forward with after
    r = server.api("GET", f"/api/tables/{table}/chat", params={"limit": 20})
    page = r.json()
    assert [m["text"] for m in page["messages"]] == [f"message {i}" for i in range(40, 60)]
    assert page["more"] is True
    first = page["messages"][0]["id"]
    back = server.api("GET", f"/api/tables/{table}/chat",
                      params={"before": first, "limit": 100}).json()
    assert [m["text"] for m in back["messages"]] == [f"message {i}" for i in range(40)]
    assert back["more"] is False
    ids = [m["id"] for m in back["messages"]]
    forward = server.api("GET", f"/api/tables/{table}/chat",
                         params={"after": ids[9], "limit": 5}).json()
    assert [m["text"] for m in forward["messages"]] == [f"message {i}" for i in range(10, 15)]
    assert forward["more"] is True
    assert history(server, table, after=10**9) == []
    # bounds, each named
    for params, word in (({"limit": 0}, "limit"), ({"limit": 101}, "limit"),
                         ({"after": -1}, "after"), ({"before": 2**31}, "before"),
                         ({"after": "x"}, "after"), ({"after": 1, "before": 5}, "not both")):
        r = server.api("GET", f"/api/tables/{table}/chat", params=params)
        assert r.status_code == 422 and word in r.text, (params, r.text)
    problem(server.api("GET", "/api/tables/nosuchtable/chat"), 404)
    problem(server.api("GET", "/api/tables/bad!id/chat"), 404)
    ann.close()
    late.close()


# ------------------------------------------------------------------------ limits
def test_length_and_hostile_text_are_refused_with_the_rule_and_nothing_is_kept(
        server: Server) -> None:
    table, secret = seated(server)
    ann = Chatter(server, table, 0, secret)
    for text, words in (("", ("empty", "1 to 500")), ("   \n\t ", ("empty",)),
                        ("x" * 501, ("501 characters", "1 to 500")),
                        ("x" * 3000, ("3000 characters",)),
                        ("null\x00byte", ("control character", "U+0000")),
                        ("bell\x07", ("control character",)),
                        ("esc\x1b[31mred", ("control character", "U+001B")),
                        ("evil\u202etxt.exe", ("invisible or formatting", "U+202E")),
                        ("zero\u200bwidth", ("U+200B",)),
                        ("private\ue000use", ("private-use",)),
                        ("Z" + "\u0301" * 6, ("combining marks",))):
        refused(ann.say(text), *words)
    # a field of the wrong type, or none: the frame's own error, marked chat
    for frame in ({"type": "chat", "text": 5}, {"type": "chat"},
                  {"type": "chat", "text": ["a"]}):
        ann.send(frame)
        got = ann.expect(lambda f: f["type"] == "error")
        assert got["chat"] is True and "text" in got["reason"], got
    # a frame over 16 KiB is not read; a lone surrogate is not valid Unicode
    ann.send(json.dumps({"type": "chat", "text": "y" * 20_000}))
    assert "too large" in ann.expect(lambda f: f["type"] == "error")["reason"]
    ann.send('{"type": "chat", "text": "a\\ud800b"}')
    assert "surrogate" in ann.expect(lambda f: f["type"] == "error")["reason"]
    assert history(server, table) == []
    # what is allowed: markup stays text (never stripped or escaped: the page shows text),
    # full-width letters are made plain (NFKC), 500 characters, emoji with their joiners
    for text, kept in (("<script>alert('x')</script> & <b>hi</b>",
                        "<script>alert('x')</script> & <b>hi</b>"),
                       ("ＧＧ　ｗｐ", "GG wp"), ("é" * 500, "é" * 500),
                       ("family \U0001F468\u200d\U0001F469\u200d\U0001F467 \u0645\u06cc\u200c",
                        "family \U0001F468\u200d\U0001F469\u200d\U0001F467 \u0645\u06cc\u200c")):
        [m] = ann.say(text)["messages"]
        assert m["text"] == kept
    assert history(server, table)[0]["text"] == "<script>alert('x')</script> & <b>hi</b>"
    # the connection is still usable
    ann.send({"type": "ping"})
    ann.expect(lambda f: f["type"] == "pong")
    ann.close()


def test_a_table_of_bots_only_has_no_chat(server: Server) -> None:
    made = server.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                                   "seats": BOTS}).json()
    table = made["id"]
    watch = Chatter(server, table)
    assert watch.history is not None and watch.history["post"] is False
    assert "bots only" in watch.history["reason"] and watch.history["messages"] == []
    cy = Browser(server)
    cy.sign_up()
    signed = Chatter(server, table, cookie=cy.token)
    refused(signed.say("anyone here?"), "bots only")
    problem(server.api("GET", f"/api/tables/{table}/chat"), 409, "bots only")
    r = cy.request("POST", f"/api/tables/{table}/chat/1/report", json={"reason": "spam"})
    problem(r, 409, "bots only")
    watch.close()
    signed.close()
    cy.close()


def test_messages_are_limited_per_author(limited: Server) -> None:
    table, secret = seated(limited, seats=[{"kind": "human"}, {"kind": "human"}])
    bob = limited.api("POST", f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    ann = Chatter(limited, table, 0, secret)
    b = Chatter(limited, table, bob["seat"], bob["secret"])
    for i in range(3):
        assert ann.say(f"hello {i}")["type"] == "chat"
    over = ann.say("one too many")
    reason = refused(over, "MEEPLE_RATE_CHAT", "3/hour", "not posted")
    assert over["retry"] is True, reason
    assert b.say("Bob is not Ann")["type"] == "chat"  # another author is not held back
    assert "one too many" not in [m["text"] for m in history(limited, table)]
    # a refused message (bad text) is not counted: Bob still has two
    refused(b.say("\x00"), "control")
    assert b.say("second")["type"] == "chat" and b.say("third")["type"] == "chat"
    refused(b.say("fourth"), "MEEPLE_RATE_CHAT")
    # an account is one author at every table, as a spectator too
    cy = Browser(limited)
    cy.sign_up()
    for n in range(3):
        there, _ = seated(limited)
        c = Chatter(limited, there, cookie=cy.token)
        assert c.say(f"from table {n}")["type"] == "chat"
        c.close()
    elsewhere, _ = seated(limited)
    c = Chatter(limited, elsewhere, cookie=cy.token)
    refused(c.say("and one more"), "MEEPLE_RATE_CHAT")
    for x in (ann, b, c):
        x.close()
    cy.close()


# ------------------------------------------------------------------------ reports
def test_a_report_is_kept_once_per_reporter_and_needs_csrf_when_signed_in(
        server: Server) -> None:
    table, secret = seated(server)
    ann = Chatter(server, table, 0, secret)
    [m] = ann.say("you all play badly")["messages"]
    path = f"/api/tables/{table}/chat/{m['id']}/report"
    # a guest: its address is the reporter
    r = server.api("POST", path, json={"reason": "rude"})
    assert r.status_code == 201 and r.json()["new"] is True, r.text
    assert "thank you" in r.json()["note"]
    r = server.api("POST", path, json={"reason": "rude, again"})
    assert r.status_code == 200 and r.json()["new"] is False, r.text
    assert "already" in r.json()["note"]
    # a signed-in browser: the account reports, with the session's CSRF token only
    cy = Browser(server)
    cy.sign_up()
    for headers, word in (({}, "no X-CSRF-Token"), ({"X-CSRF-Token": "0" * 64}, "not this")):
        r = cy.request("POST", path, csrf=False, headers=headers, json={"reason": "mean"})
        problem(r, 403, word)
    r = cy.request("POST", path, json={"reason": "mean"})
    assert r.status_code == 201, r.text
    # the same account from another address is the same reporter
    other = httpx.Client(base_url=server.base, verify=TLS, timeout=60,
                         transport=httpx.HTTPTransport(local_address="127.0.0.61"),
                         headers={"Cookie": f"meeple_session={cy.token}",
                                  "X-CSRF-Token": cy.csrf})
    assert other.post(path, json={"reason": "mean!"}).status_code == 200
    # bad requests: named, nothing kept
    fresh = httpx.Client(base_url=server.base, verify=TLS, timeout=60,
                         transport=httpx.HTTPTransport(local_address="127.0.0.63"))
    for body, word in (({}, "reason"), ({"reason": ""}, "reason"),
                       ({"reason": "x" * 301}, "300"), ({"reason": " \n "}, "empty"),
                       ({"reason": "a\x00b"}, "control"), ({"reason": 5}, "reason"),
                       ([], "")):
        problem(fresh.post(path, json=body), 422, word)
    # (nothing was kept: this address reports for the first time now)
    assert fresh.post(path, json={"reason": "abusive"}).status_code == 201
    fresh.close()
    for bad in (f"/api/tables/{table}/chat/999999/report", f"/api/tables/{table}/chat/0/report",
                f"/api/tables/{table}/chat/x/report", f"/api/tables/nosuch/chat/{m['id']}/report"):
        r = server.api("POST", bad, json={"reason": "rude"})
        assert r.status_code in (404, 422), (bad, r.text)
    # a message of another table is not this table's
    there, _ = seated(server)
    problem(server.api("POST", f"/api/tables/{there}/chat/{m['id']}/report",
                       json={"reason": "rude"}), 404, "no chat message")
    ann.close()
    cy.close()
    other.close()


def test_reports_are_limited_per_client(limited: Server) -> None:
    table, secret = seated(limited)
    ann = Chatter(limited, table, 0, secret)
    ids = [ann.say(f"spam {i}")["messages"][0]["id"] for i in range(3)]
    ann.close()
    client = httpx.Client(base_url=limited.base, verify=TLS, timeout=60,
                          transport=httpx.HTTPTransport(local_address="127.0.0.62"))
    codes = [client.post(f"/api/tables/{table}/chat/{i}/report",
                         json={"reason": "spam"}).status_code for i in ids]
    codes.append(client.post(f"/api/tables/{table}/chat/{ids[0]}/report",
                             json={"reason": "spam"}).status_code)
    assert codes == [201, 201, 201, 200]
    r = client.post(f"/api/tables/{table}/chat/{ids[1]}/report", json={"reason": "spam"})
    problem(r, 429, "MEEPLE_RATE_REPORT", "your address")
    assert int(r.headers["Retry-After"]) >= 1
    client.close()


# ------------------------------------------------------------------------ moderators
def test_meeple_reports_lists_reports_and_hide_removes_a_message_for_everyone(
        server: Server, limited: Server, db_url: str) -> None:
    table, secret = seated(server)
    ann = Chatter(server, table, 0, secret)
    [bad] = ann.say("a very rude [bold]message[/bold]")["messages"]
    [good] = ann.say("a kind one")["messages"]
    watcher = Chatter(server, table)
    elsewhere = Chatter(limited, table)  # another process of the same database
    for address, reason in (("127.0.0.71", "insulting"), ("127.0.0.72", "rude words")):
        client = httpx.Client(base_url=server.base, verify=TLS, timeout=60,
                              transport=httpx.HTTPTransport(local_address=address))
        r = client.post(f"/api/tables/{table}/chat/{bad['id']}/report", json={"reason": reason})
        assert r.status_code == 201, r.text
        client.close()
    runner = CliRunner()
    out = runner.invoke(cli_app, ["reports", "--database-url", db_url, "--json",
                                  "--limit", "500"])
    assert out.exit_code == 0, out.output
    listed = {r["id"]: r for r in json.loads(out.output)}
    row = listed[bad["id"]]
    assert row["table"] == table and row["name"] == "Ann" and row["reporters"] == 2
    assert sorted(row["reasons"]) == ["insulting", "rude words"] and row["hidden"] is False
    assert good["id"] not in listed
    shown = runner.invoke(cli_app, ["reports", "--database-url", db_url, "--limit", "500"])
    assert shown.exit_code == 0 and "a very rude [bold]message[/bold]" in shown.output
    # hide it: gone from history for everyone, named to the pages open (PostgreSQL tells
    # every server process; on SQLite a page finds out when it loads again)
    done = runner.invoke(cli_app, ["reports", "--database-url", db_url, "--hide",
                                   str(bad["id"])])
    assert done.exit_code == 0 and "hidden from everyone" in done.output, done.output
    assert [m["id"] for m in history(server, table)] == [good["id"]]
    late = Chatter(limited, table)
    assert late.history is not None
    assert [m["id"] for m in late.history["messages"]] == [good["id"]]
    if db_url.startswith("postgresql"):
        for c in (watcher, elsewhere):
            frame = c.expect(lambda f: f["type"] == "chat" and "hidden" in f)
            assert bad["id"] in frame["hidden"]
    # reporting it now: it is gone
    problem(server.api("POST", f"/api/tables/{table}/chat/{bad['id']}/report",
                       json={"reason": "x"}), 404)
    hidden_too = json.loads(runner.invoke(cli_app, ["reports", "--database-url", db_url,
                                                    "--json", "--hidden"]).output)
    assert any(r["id"] == bad["id"] and r["hidden"] for r in hidden_too)
    # --unhide, and a message that does not exist
    again = runner.invoke(cli_app, ["reports", "--database-url", db_url, "--unhide",
                                    str(bad["id"])])
    assert again.exit_code == 0 and "shown again" in again.output
    assert [m["id"] for m in history(server, table)] == [bad["id"], good["id"]]
    missing = runner.invoke(cli_app, ["reports", "--database-url", db_url, "--hide",
                                      "999999999"])
    assert missing.exit_code == 2 and "no chat message" in missing.output
    for c in (ann, watcher, elsewhere, late):
        c.close()


# ------------------------------------------------------------------------ accounts
def test_a_deleted_accounts_messages_keep_their_text_as_deleted_player(server: Server) -> None:
    dee = Browser(server)
    dee.sign_up(display_name="Dee")
    made = dee.create(seats=[{"kind": "human"}, {"kind": "human"}], join_as="Dee at seat")
    table = made["table"]["id"]
    at_seat = Chatter(server, table, made["seat"], made["secret"])
    [seat_msg] = at_seat.say("from my seat")["messages"]
    # the seat bears the account's name, not the one sent (src/meeple/server/features/accounts/README.md)
    assert seat_msg["name"] == "Dee" and seat_msg["author"].startswith("a")
    there, _ = seated(server)
    watching = Chatter(server, there, cookie=dee.token)
    [watch_msg] = watching.say("from the rail")["messages"]
    assert watch_msg["name"] == "Dee" and watch_msg["author"] == seat_msg["author"]
    export = dee.http.get("/api/me/export").json()
    assert [(c["table"], c["text"]) for c in export["chat"]] == [(table, "from my seat"),
                                                                (there, "from the rail")]
    at_seat.close()
    watching.close()
    r = dee.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    for t, text in ((table, "from my seat"), (there, "from the rail")):
        [m] = [m for m in history(server, t) if m["text"] == text]
        assert m["name"] == "deleted player"
    dee.close()


def test_a_signed_out_spectator_reads_only(server: Server) -> None:
    table, _ = seated(server)
    cy = Browser(server)
    cy.sign_up()
    token = cy.token
    watcher = Chatter(server, table, cookie=token)
    assert watcher.say("still here")["type"] == "chat"
    assert cy.request("DELETE", "/api/session").status_code == 200
    refused(watcher.say("after signing out"), "sign in to chat as a spectator")
    watcher.close()
    cy.close()


def test_a_seat_left_before_the_game_posts_no_more_as_that_seat(server: Server) -> None:
    table, secret = seated(server, seats=[{"kind": "human"}, {"kind": "human"}])
    ann = Chatter(server, table, 0, secret)
    assert ann.say("I may have to go")["messages"][0]["name"] == "Ann"
    r = server.api("POST", f"/api/tables/{table}/leave", json={"seat": 0, "secret": secret})
    assert r.status_code == 200, r.text
    # the seat opened again: its socket is closed (4403, src/meeple/server/features/accounts/README.md
    # "One identity per seat"), and a message sent before the close frame arrived is not posted
    with contextlib.suppress(ConnectionClosed):
        ann.send({"type": "chat", "text": "still here?"})
    with pytest.raises(ConnectionClosed) as closed:
        ann.expect(lambda f: f.get("posted") is True)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    assert [m["text"] for m in history(server, table)] == ["I may have to go"]
    ann.close()


# ------------------------------------------------------------------------ processes
def test_two_processes_on_one_postgresql_see_each_others_messages(
        server: Server, limited: Server, db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("live chat between processes needs PostgreSQL (SQLite serves one "
                    "process at a time for live play)")
    table, secret = seated(server, seats=[{"kind": "human"}, {"kind": "human"}])
    bob = server.api("POST", f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    ann = Chatter(server, table, 0, secret)
    b = Chatter(limited, table, bob["seat"], bob["secret"])
    watch_here, watch_there = Chatter(server, table), Chatter(limited, table)
    sent = ann.say("hello from process one")["messages"][0]
    assert b.heard("hello from process one") == sent
    assert watch_there.heard("hello from process one") == sent
    back = b.say("and from process two")["messages"][0]
    assert ann.heard("and from process two") == back
    assert watch_here.heard("and from process two") == back
    # each message once, in order, on both sides
    for c in (ann, b, watch_here, watch_there):
        c.send({"type": "ping"})
        c.expect(lambda f: f["type"] == "pong")
        told = [m["id"] for f in c.frames if f["type"] == "chat" for m in f["messages"]]
        assert told == [sent["id"], back["id"]], told
    for c in (ann, b, watch_here, watch_there):
        c.close()


# ------------------------------------------------------------------------ the rule itself
def test_the_message_rule() -> None:
    assert checked_message("  a\r\n\r\nb\tc  ") == "a b c"
    assert checked_message("ａｂｃ") == "abc"
    assert checked_message("\u00a0x\u3000y\u2028z") == "x y z"
    for bad in ("", " ", "\x7f", "a\u2066b", "\ufeff", "\u2800", "x" * 501, "x" * 2001):
        with pytest.raises(BadInput):
            checked_message(bad)


def test_meeple_reports_refuses_bad_options_clearly(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "meeple.db"
    db.write_bytes(b"")
    url = f"sqlite:///{db}"
    for args, words in (
        (["--db", str(tmp_path / "none.db")], "not a file"),
        (["--db", str(db), "--database-url", url], "not both"),
        (["--database-url", url, "--hide", "1", "--unhide", "2"], "not both"),
        (["--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
         "cannot open the database"),
        (["--database-url", url, "--hide", "0"], "--hide"),
        (["--database-url", url, "--limit", "501"], "--limit"),
    ):
        res = runner.invoke(cli_app, ["reports", *args])
        assert res.exit_code == 2, (args, res.output)
        for word in words.split("|"):
            assert word in " ".join(res.output.split()), (args, res.output)
    # an empty database has no reports yet
    res = runner.invoke(cli_app, ["reports", "--db", str(db)])
    assert res.exit_code == 0 and "no reported messages" in res.output, res.output
