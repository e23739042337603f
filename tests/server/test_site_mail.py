"""The mails as sent and the export (issue 58), from outside on real server processes, on
SQLite and PostgreSQL, with a real SMTP server (aiosmtpd on 127.0.0.1):

- the raw ``List-Unsubscribe`` header is ``<https://...>`` on one line as written (RFC 2369,
  8058), never RFC 2047 encoded-words, which no mail program offers one-click unsubscribe
  by; ``List-Unsubscribe-Post`` beside it; the mails' words read by a person;
- the account export holds the e-mail address (and whether it is verified, and which mails
  it asks for) and the ratings with their whole history (GDPR's right of access)."""

from __future__ import annotations

import email
import email.policy
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser
from tests.server.test_ratings import play_out, rated_table
from tests.server.test_turn_based import Inbox, Smtp, create, link, play_turn, to_move


class RawInbox(Inbox):
    """An inbox that keeps each mail's bytes as they came, beside the parsed message."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.raw.append(bytes(envelope.content))
        return await super().handle_DATA(server, session, envelope)

    def raw_to(self, address: str, subject: str) -> list[bytes]:
        with self.lock:
            return [raw for raw in self.raw
                    if (m := email.message_from_bytes(raw, policy=email.policy.default))
                    ["To"] == address and subject in m["Subject"]]


@pytest.fixture(scope="module")
def smtp() -> Iterator[Smtp]:
    s = Smtp()
    s.inbox = RawInbox()
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
               "MEEPLE_MAIL_RETRY": "0.5", "MEEPLE_TURN_BASED_SCALE": "1200"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def verified(srv: Server, smtp: Smtp, address: str) -> Browser:
    """A new account with ``address`` verified through its mail's link."""
    b = Browser(srv)
    b.sign_up()
    r = b.request("PUT", "/api/me/email", json={"email": address})
    assert r.status_code == 200, r.text
    (check,) = smtp.inbox.wait(address, "Confirm your e-mail")
    query = link(check, "/mail/verify")
    r = srv.api("POST", "/api/mail/verify", json={**query, "x": int(query["x"])})
    assert r.status_code == 200, r.text
    return b


def stamp() -> int:
    return int(time.time() * 1000) % 10**8


def test_the_turn_mail_has_a_plain_list_unsubscribe_and_reads_well(server: Server,
                                                                   smtp: Smtp) -> None:
    n = stamp()
    ann_at, bob_at = f"ann{n}@example.org", f"bob{n}@example.org"
    ann, bob = verified(server, smtp, ann_at), verified(server, smtp, bob_at)
    try:
        made = create(server, ann, clock=7 * 86400)
        table = made["table"]["id"]
        r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        secrets = {0: made["secret"], 1: r.json()["secret"]}
        # Ann plays until it is Bob's turn; Bob is not connected, so his turn is mailed
        deadline = time.monotonic() + 120
        while (seat := to_move(server, table)) != 1:
            assert time.monotonic() < deadline, "Bob's turn did not come"
            if seat == 0:
                p = Player(server.ws_base, table, 0, secrets[0])
                try:
                    play_turn(p)
                finally:
                    p.close()
            else:
                time.sleep(0.05)
        smtp.inbox.wait(bob_at, "Your turn")
        assert isinstance(smtp.inbox, RawInbox)
        (raw,) = smtp.inbox.raw_to(bob_at, "Your turn")
        head = raw.split(b"\r\n\r\n", 1)[0].replace(b"\r\n", b"\n")
        found = re.search(rb"^List-Unsubscribe: (.*)$", head, re.MULTILINE)
        assert found, head
        value = found.group(1)
        # one line, as written: <http://host/api/mail/one-click?...>, no encoded-word
        assert b"=?" not in value, value
        assert re.fullmatch(rb"<https?://127\.0\.0\.1:\d+/api/mail/one-click\?[^\s<>]+>",
                            value), value
        assert re.search(rb"^List-Unsubscribe-Post: List-Unsubscribe=One-Click$", head,
                         re.MULTILINE), head
        # the words: "when it is your turn", not "when there is your turn"
        (turn,) = smtp.inbox.to(bob_at, "Your turn")
        assert isinstance(turn, EmailMessage)
        body = " ".join(turn.get_content().split())
        assert "there is your turn" not in body
        assert "write to you when it is your turn at a turn-based table." in body, body
        assert "open this link and press the button" in body, body
        (check,) = smtp.inbox.to(bob_at, "Confirm your e-mail")
        words = " ".join(check.get_content().split())
        assert "please confirm that it is yours" in words, words
        assert "The link works for 7 days." in words, words
    finally:
        ann.close()
        bob.close()


def test_the_export_holds_the_address_and_the_ratings(server: Server, smtp: Smtp) -> None:
    address = f"cid{stamp()}@example.org"
    cid = verified(server, smtp, address)
    try:
        t = rated_table(cid, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        table = t["table"]["id"]
        play_out(server, table, {0: t["secret"]}, Rng(58))
        shown = server.api("GET", f"/api/users/{cid.username}/ratings").json()["ratings"]
        assert [g["game"] for g in shown] == ["takenokolor"]
        r = cid.request("GET", "/api/me/export")
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["mail"] == {"email": address, "email_verified": True,
                               "notify": {"turn": True, "ended": True, "rematch": True,
                                          "challenge": True}}
        (rating,) = out["ratings"]
        assert rating["game"] == "takenokolor" and rating["games"] == 1
        assert rating["rating"] == shown[0]["rating"]
        assert rating["mu"] == pytest.approx(shown[0]["mu"], abs=1e-4)
        (game,) = rating["history"]
        assert game["table"] == table and game["players"] == 2
        assert game["rating_after"] == rating["rating"]
        assert game["rating_after"] - game["rating_before"] == shown[0]["history"][0]["change"]
        # an account without an address or a rated game: both said, empty
        other = Browser(server)
        other.sign_up()
        try:
            out = other.request("GET", "/api/me/export").json()
            assert out["mail"]["email"] is None and out["ratings"] == []
        finally:
            other.close()
    finally:
        cid.close()
