"""Turn-based tables and mail (issue 54), tried from outside on real server processes, on
SQLite and PostgreSQL, with a real SMTP server (aiosmtpd on 127.0.0.1):

- a turn-based table's move time and time bank: a move past its allowance draws from the bank,
  both spent hands the seat to its stand-in, and both survive a restart (kill -9);
- My games: the account's turns first, the least time left first, with the time left;
- the mail outbox: an address verified by its signed link before anything else is sent to
  it, one "your turn" mail per turn and none to an address not verified, the game's end and
  the rematch invitation, the unsubscribe links (the page's button and RFC 8058's one-click
  POST; a bad signature refused, nothing changed), and a mail sent after the SMTP server
  was down (retried with backoff).

The test servers run turn-based time 1200 times faster (``MEEPLE_TURN_BASED_SCALE``): a
1-hour move lasts 3 s."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from aiosmtpd.controller import Controller

from meeple.server.features.mail.store import Mailbox
from meeple.store import Store
from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser

SCALE = 1200
HOUR = 3600
TWO = [{"kind": "human"}, {"kind": "human"}]


class Inbox:
    """What the SMTP server received, as parsed messages."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        with self.lock:
            self.mails.append(msg)
        return "250 OK"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.mails if m["To"] == address and subject in m["Subject"]]

    def wait(self, address: str, subject: str = "", count: int = 1, within: float = 60
             ) -> list[EmailMessage]:
        deadline = time.monotonic() + within
        while len(got := self.to(address, subject)) < count:
            assert time.monotonic() < deadline, (
                f"{count} mails to {address} ({subject!r}) did not come: {len(got)}")
            time.sleep(0.05)
        return got


class Smtp:
    """An aiosmtpd server on 127.0.0.1 (stopped and started again on the same port)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.inbox = Inbox()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture(scope="module")
def smtp() -> Iterator[Smtp]:
    s = Smtp()
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def server(db_url: str, smtp: Smtp, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    port = free_port()
    srv = Server(db_url, port, tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
               "MEEPLE_MAIL_FROM": "meeple <meeple@example.org>",
               "MEEPLE_PUBLIC_URL": f"http://127.0.0.1:{port}",
               "MEEPLE_MAIL_RETRY": "0.5", "MEEPLE_TURN_BASED_SCALE": str(SCALE)}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def create(srv: Server, who: Browser | None = None, **extra: Any) -> dict[str, Any]:
    body = {"game": "gardens", "variant": {"level": 1}, "seats": TWO, "join_as": "Ann",
            "pace": "turn-based", **extra}
    r = (who.request if who is not None else srv.api)("POST", "/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def to_move(srv: Server, table: str) -> int | None:
    view = srv.api("GET", f"/api/tables/{table}/view").json()["view"]
    return None if view["over"] else view["to_move"]


def clock_frame(p: Player, test: Any = lambda f: True) -> dict[str, Any]:
    """The newest clock frame received that passes ``test``, or the next one to come."""
    for frame in reversed(p.frames):
        if frame["type"] == "clock":
            if test(frame):
                return frame
            break
    for _ in range(500):
        frame = p.recv(60)
        if frame["type"] == "clock" and test(frame):
            return frame
    raise AssertionError("no clock frame")


def play_turn(p: Player) -> int:
    """Play this seat's whole turn (its first legal move each time): how many decisions."""
    made = 0
    while p.view.get("to_move") == p.seat and not p.view.get("over"):
        got = p.move(p.view["legal_moves"][0], f"d{p.version}")
        assert got["type"] == "ack", got
        made += 1
    return made


# ---------------------------------------------------------------------------- the clocks
def test_a_turn_based_table_is_asked_for_within_its_bounds(server: Server) -> None:
    t = create(server)["table"]
    assert (t["pace"], t["clock"], t["bank"]) == ("turn-based", 86400, 3 * 86400)
    for extra, words in [({"clock": 60}, "3600 to 604800"),
                         ({"clock": 8 * 86400}, "604800"),
                         ({"bank": 31 * 86400}, "bank"),
                         ({"pace": "live", "clock": 3 * 86400}, "turn-based"),
                         ({"pace": "live", "clock": 60, "bank": 0}, "bank"),
                         ({"pace": "slow"}, "pace")]:
        r = server.api("POST", "/api/tables", json={
            "game": "gardens", "variant": {"level": 1}, "seats": TWO, "pace": "turn-based",
            **extra})
        assert r.status_code == 422, (extra, r.text)
        assert words in r.text, (extra, r.text)
    live = server.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1}, "seats": TWO, "clock": 30}).json()
    assert (live["pace"], live["clock"], live["bank"]) == ("live", 30, None)


def test_the_move_time_then_the_bank_then_the_stand_in_and_a_restart(server: Server) -> None:
    bank = 4 * HOUR  # 12 s at the test's scale; a move has 3 s
    joined = create(server, clock=HOUR, bank=bank)
    table, ann_secret = joined["table"]["id"], joined["secret"]
    bob = server.api("POST", f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    deadline = time.monotonic() + 60
    while to_move(server, table) != 0:  # the opening roll, then Ann (seat 0) is to move
        assert time.monotonic() < deadline
        time.sleep(0.1)
    ann = Player(server.ws_base, table, 0, ann_secret, clock=True)
    first = clock_frame(ann)
    assert first["pace"] == "turn-based" and first["limit"] == HOUR
    assert first["bank"] == bank and first["seat"] == 0
    assert first["banks"][1] == bank / SCALE
    assert first["move_left"] <= HOUR / SCALE
    # Ann thinks past her move's 3 s (under 3 s + her 12 s bank), then plays her turn
    time.sleep(HOUR / SCALE + 2)
    assert play_turn(ann) > 0
    after = clock_frame(ann, lambda f: f["seat"] != 0)
    drawn = bank / SCALE - after["banks"][0]
    assert 1 < drawn < bank / SCALE, after  # drawn from, not spent
    assert after["banks"][1] == bank / SCALE, after  # Bob's is whole
    ann.close()
    # kill -9 and start again: Ann's bank is what it was, read from the log's times
    server.restart(kill=True)
    ann = Player(server.ws_base, table, 0, ann_secret, clock=True)
    again = clock_frame(ann)
    assert abs(again["banks"][0] - after["banks"][0]) < 0.5, (again, after)
    # Bob never comes: his move's time and bank are spent, and his stand-in plays for him
    deadline = time.monotonic() + 120
    while not server.api("GET", f"/api/tables/{table}").json()["seats"][1]["absent"]:
        assert time.monotonic() < deadline, "Bob's stand-in did not take over"
        time.sleep(0.2)
    stood = clock_frame(ann, lambda f: f["stood_in"][1])
    assert stood["banks"][1] == 0
    log = server.api("GET", f"/api/tables/{table}/log").json()
    deadline = time.monotonic() + 120
    while not any(e["kind"] == "move" and e["seat"] == 1 for e in log):
        assert time.monotonic() < deadline, "the stand-in did not play Bob's turn"
        time.sleep(0.2)
        log = server.api("GET", f"/api/tables/{table}/log").json()
    # Bob takes his seat back with a move of his own (the browser sends back at his click)
    ann.close()
    assert bob["seat"] == 1


def test_my_games_puts_the_least_time_left_first(server: Server) -> None:
    ann = Browser(server)
    ann.sign_up()
    bot = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    week = create(server, ann, seats=bot, clock=7 * 86400, bank=0)["table"]["id"]
    six = create(server, ann, seats=bot, clock=6 * 86400, bank=0)["table"]["id"]
    live = ann.create(seats=bot)["table"]["id"]  # no clock
    deadline = time.monotonic() + 60
    while True:
        games = ann.request("GET", "/api/me/games?sort=turn").json()
        mine = [g["table"] for g in games if g["my_turn"]]
        if len(mine) == 3:
            break
        assert time.monotonic() < deadline, games
        time.sleep(0.2)
    assert mine == [six, week, live], mine
    by = {g["table"]: g for g in games}
    assert by[six]["pace"] == "turn-based" and by[six]["clock"] == 6 * 86400
    assert 0 < by[six]["left"] <= 6 * 86400 / SCALE < by[week]["left"]
    assert by[live]["pace"] == "live" and by[live]["left"] is None
    ann.close()


# ---------------------------------------------------------------------------- mail
def link(msg: EmailMessage, path: str) -> dict[str, str]:
    """The query of the link to ``path`` in a mail's text."""
    body = msg.get_content()
    found = re.search(rf"https?://[^\s]+{re.escape(path)}\?([^\s]+)", body)
    assert found, body
    return {k: v[0] for k, v in parse_qs(found.group(1)).items()}


def mail_state(db_url: str) -> list[dict[str, Any]]:
    store = Store(db_url)
    try:
        return Mailbox(store).mails()
    finally:
        store.close()


def signed_up(srv: Server, address: str | None) -> Browser:
    b = Browser(srv)
    b.sign_up()
    if address is not None:
        r = b.request("PUT", "/api/me/email", json={"email": address})
        assert r.status_code == 200, r.text
        assert r.json()["email"] == address and not r.json()["email_verified"]
    return b


def test_mail_verification_turns_game_over_rematch_unsubscribe(
        server: Server, smtp: Smtp, db_url: str) -> None:
    stamp = int(time.time() * 1000) % 10**8
    ann_at, bob_at = f"ann{stamp}@example.org", f"bob{stamp}@example.org"
    ann, bob = signed_up(server, ann_at), signed_up(server, bob_at)
    # the verification mails: a signed link, nothing secret
    (check,) = smtp.inbox.wait(bob_at, "Confirm your e-mail")
    query = link(check, "/mail/verify")
    assert server.api("GET", "/mail/verify", params=query).status_code == 200  # the page
    bad = dict(query, s=query["s"][:-1] + ("0" if query["s"][-1] != "0" else "1"))
    r = server.api("POST", "/api/mail/verify", json={**bad, "x": int(bad["x"])})
    assert r.status_code == 403 and "not one this server signed" in r.json()["detail"], r.text
    assert not bob.request("GET", "/api/me/mail").json()["email_verified"]
    r = server.api("POST", "/api/mail/verify", json={**query, "x": int(query["x"])})
    assert r.status_code == 200 and r.json() == {"verified": True, "email": bob_at}, r.text
    assert bob.request("GET", "/api/me/mail").json()["email_verified"]
    smtp.inbox.wait(ann_at, "Confirm your e-mail")  # Ann never confirms hers
    # a turn-based table of the two; each plays only while it is their turn (not connected
    # when the turn passes to them, so the turn is mailed)
    made = create(server, ann, clock=7 * 86400)
    table = made["table"]["id"]
    secrets = {0: made["secret"]}
    r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    secrets[1] = r.json()["secret"]
    bob_turns = 0
    deadline = time.monotonic() + 600
    while (seat := to_move(server, table)) is not None or \
            server.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        if seat not in (0, 1):
            time.sleep(0.05)
            continue
        if seat == 1:
            bob_turns += 1
            if bob_turns == 1:  # Bob's first turn is mailed once, before he connects
                (turn,) = smtp.inbox.wait(bob_at, "Your turn")
                body = turn.get_content()
                assert f"/t/{table}" in body and ann.username in turn["Subject"]
                assert secrets[0] not in body and secrets[1] not in body
                assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
                assert "/api/mail/one-click?" in turn["List-Unsubscribe"]
        p = Player(server.ws_base, table, seat, secrets[seat])
        try:
            play_turn(p)
        finally:
            p.close()
    # the end: Bob is told; then every turn of his was mailed once, and Ann got nothing but
    # her verification (her address was never confirmed)
    (over,) = smtp.inbox.wait(bob_at, "Game over")
    # (the accounts' seats bear their names, src/meeple/server/features/accounts/README.md)
    assert ann.username in over.get_content() and bob.username in over.get_content()
    turns = smtp.inbox.to(bob_at, "Your turn")
    assert len(turns) == bob_turns > 1, (len(turns), bob_turns)
    assert [m["Subject"] for m in smtp.inbox.to(ann_at)] == [
        "Confirm your e-mail address for meeple"]
    keys = [m["key"] for m in mail_state(db_url) if f":{table}:" in m["key"]]
    assert len(keys) == len(set(keys)) == bob_turns + 1  # the turns and the end, once each
    # Ann asks for a rematch: Bob is invited, with a link to the finished table
    r = ann.request("POST", f"/api/tables/{table}/rematch", json={"seat": 0})
    assert r.status_code == 201, r.text
    (invite,) = smtp.inbox.wait(bob_at, "rematch")
    assert f"/t/{table}" in invite.get_content()
    # unsubscribing: the page's button (a bad signature refused, nothing changed) ...
    query = link(turns[0], "/mail/unsubscribe")
    assert query["k"] == "turn"
    assert server.api("GET", "/mail/unsubscribe", params=query).status_code == 200
    r = server.api("POST", "/api/mail/unsubscribe", json=dict(query, s="0" * 64))
    assert r.status_code == 403, r.text
    r = server.api("POST", "/api/mail/unsubscribe", json=dict(query, a="f" * 16))
    assert r.status_code == 403, r.text
    r = server.api("POST", "/api/mail/unsubscribe", json=dict(query, k="all"))
    assert r.status_code == 400 and "turn, ended, rematch" in r.json()["detail"], r.text
    assert bob.request("GET", "/api/me/mail").json()["notify"] == {
        "turn": True, "ended": True, "rematch": True, "challenge": True}
    r = server.api("POST", "/api/mail/unsubscribe", json=query)
    assert r.status_code == 200 and r.json()["notify"]["turn"] is False, r.text
    # ... and RFC 8058's one-click POST from the mail's header
    one = urlsplit(over["List-Unsubscribe"].strip("<>"))
    assert one.path == "/api/mail/one-click"
    r = server.api("POST", f"{one.path}?{one.query}", content=b"List-Unsubscribe=One-Click",
                   headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200, r.text
    r = server.api("POST", f"{one.path}?{one.query}", content=b"something else",
                   headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400, r.text
    assert bob.request("GET", "/api/me/mail").json()["notify"] == {
        "turn": False, "ended": False, "rematch": True, "challenge": True}
    ann.close()
    bob.close()


def test_a_mail_is_sent_after_the_smtp_server_was_down(server: Server, smtp: Smtp,
                                                       db_url: str) -> None:
    cat = signed_up(server, None)
    address = f"cat{int(time.time() * 1000) % 10**8}@example.org"
    smtp.stop()
    try:
        r = cat.request("PUT", "/api/me/email", json={"email": address})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 60
        while not any(m["to"] == address and m["tries"] >= 1 and m["state"] == "queued"
                      and m["error"] for m in mail_state(db_url)):
            assert time.monotonic() < deadline, mail_state(db_url)
            time.sleep(0.1)
    finally:
        smtp.start()
    (mail,) = smtp.inbox.wait(address, "Confirm your e-mail", within=120)
    assert "/mail/verify?" in mail.get_content()
    (row,) = [m for m in mail_state(db_url) if m["to"] == address]
    assert row["state"] == "sent" and row["tries"] >= 2, row
    cat.close()


def test_addresses_and_preferences_refuse_bad_input(server: Server) -> None:
    b = signed_up(server, None)
    for bad in ["", "no-at-sign", "a@b", "a b@example.org", "x" * 250 + "@example.org",
                "ann@exa mple.org", "ann@example.org\r\nBcc: x@example.org"]:
        r = b.request("PUT", "/api/me/email", json={"email": bad})
        assert r.status_code == 422, (bad, r.text)
    assert b.request("GET", "/api/me/mail").json()["email"] is None
    r = b.request("PATCH", "/api/me/notify", json={"turn": "yes"})
    assert r.status_code == 422, r.text
    r = b.request("PATCH", "/api/me/notify", json={"turn": False})
    assert r.status_code == 200 and r.json()["notify"]["turn"] is False
    # signed out: 401; a change without the CSRF token: 403
    assert server.api("GET", "/api/me/mail").status_code == 401
    r = b.request("PATCH", "/api/me/notify", json={"turn": True}, csrf=False)
    assert r.status_code == 403, r.text
    b.close()
