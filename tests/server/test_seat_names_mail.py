"""The mails name an account's seat by the account's display name
(src/meeple/server/features/accounts/README.md, *Seat names*), never by a name its client sent:
tried from outside on a real server process with a real SMTP server, on SQLite and PostgreSQL
(the mail machinery is tried in tests/server/test_turn_based.py, whose SMTP server and helpers this uses)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser, new_name
from tests.server.test_turn_based import SCALE, Smtp, create, link, play_turn, to_move


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


def test_the_turn_mail_names_the_other_account_by_its_display_name(
        server: Server, smtp: Smtp) -> None:
    stamp = int(time.time() * 1000) % 10**8
    ann = Browser(server)
    ann.sign_up(new_name("ml"), display_name="Ann Lee")
    bob = Browser(server)
    bob.sign_up(new_name("ml"))
    bob_at = f"bob{stamp}@example.org"
    assert bob.request("PUT", "/api/me/email", json={"email": bob_at}).status_code == 200
    (check,) = smtp.inbox.wait(bob_at, "Confirm your e-mail")
    query = link(check, "/mail/verify")
    r = server.api("POST", "/api/mail/verify", json={**query, "x": int(query["x"])})
    assert r.status_code == 200, r.text
    # Ann's client sends another name when it makes the table: her account's is the seat's
    made = create(server, ann, clock=7 * 86400, join_as="Mallory")
    table = made["table"]["id"]
    r = bob.request("POST", f"/api/tables/{table}/join", json={"name": "Zed"})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 300
    while (seat := to_move(server, table)) != 1:
        assert time.monotonic() < deadline, "Bob's turn did not come"
        if seat != 0:
            time.sleep(0.05)
            continue
        p = Player(server.ws_base, table, 0, made["secret"])
        try:
            play_turn(p)
        finally:
            p.close()
    (turn,) = smtp.inbox.wait(bob_at, "Your turn")
    assert "with Ann Lee" in turn["Subject"], turn["Subject"]
    assert "Ann Lee" in turn.get_content() and "Mallory" not in turn.get_content()
