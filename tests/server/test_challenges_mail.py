"""A turn-based challenge is mailed to the challenged account (issue 60), from outside on
real server processes with a real SMTP server (aiosmtpd on 127.0.0.1), on SQLite and
PostgreSQL: only with a confirmed address and the ``challenge`` mail on; a live challenge is
not mailed (its account is at its screen)."""

from __future__ import annotations

from tests.server.conftest import Server
from tests.server.test_accounts import Browser
from tests.server.test_site_mail import server as server  # the server that mails
from tests.server.test_site_mail import smtp as smtp  # the SMTP server it mails
from tests.server.test_site_mail import stamp, verified
from tests.server.test_turn_based import Smtp

TURN_BASED = {"game": "gardens", "variant": {"level": 1}, "seats": 2, "pace": "turn-based"}


def test_a_turn_based_challenge_is_mailed_when_its_account_asks_for_it(
        server: Server, smtp: Smtp) -> None:
    n = stamp()
    bob_at = f"bob{n}@example.org"
    bob = verified(server, smtp, bob_at)
    ann = Browser(server)
    ann.sign_up()
    try:
        r = ann.request("POST", "/api/challenges", json={**TURN_BASED, "to": bob.username})
        assert r.status_code == 201, r.text
        (mail,) = smtp.inbox.wait(bob_at, "challenges you")
        body = " ".join(mail.get_content().split())
        assert f"{ann.username} challenges you to a turn-based game: Pick a Pen: Gardens" in body
        assert "open meeple signed in: http://127.0.0.1:" in body, body
        assert "someone challenges you to a turn-based game" in body, body
        # a live challenge is not mailed; nor is one once the account turned that mail off
        r = ann.request("POST", "/api/challenges", json={**TURN_BASED, "pace": "live",
                                                         "to": bob.username})
        assert r.status_code == 201, r.text
        off = bob.request("PATCH", "/api/me/notify", json={"challenge": False})
        assert off.status_code == 200 and off.json()["notify"]["challenge"] is False
        r = ann.request("POST", "/api/challenges", json={**TURN_BASED, "to": bob.username})
        assert r.status_code == 201, r.text
        # a marker mail after them: once it came, the two before it were not queued
        marker = ann.request("PUT", "/api/me/email", json={"email": f"ann{n}@example.org"})
        assert marker.status_code == 200
        smtp.inbox.wait(f"ann{n}@example.org", "Confirm your e-mail")
        assert len(smtp.inbox.to(bob_at, "challenges you")) == 1
    finally:
        ann.close()
        bob.close()
