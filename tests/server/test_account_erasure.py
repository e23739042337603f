"""Deleting an account reaches every feature's rows of it, through the hooks each feature's
store module registers (meeple.store.account_data): checked against a real ``meeple serve`` on both
stores, by reading its database after the deletion."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from meeple.core.rng import Rng
from meeple.server.features import load_stores
from meeple.server.features.accounts.rows import PasskeyChallengeRow, PasskeyRow, SessionRow
from meeple.server.features.chat.rows import ChatMessageRow
from meeple.server.features.mail.rows import MailRow
from meeple.server.features.playnow.rows import QueueRow
from meeple.store import Store
from meeple.store.models import RatingHistoryRow, RatingRow
from tests.server.conftest import Server, free_port
from tests.server.test_accounts import PASSWORD
from tests.server.test_accounts import Browser as PasswordBrowser
from tests.server.test_chat import Chatter
from tests.server.test_passkeys import Authenticator
from tests.server.test_passkeys import Browser as PasskeyBrowser
from tests.server.test_ratings import play_out

load_stores()  # (the rows read below, on the one metadata)


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose mail goes to a port nobody listens on: a queued mail stays queued."""
    port = free_port()
    srv = Server(db_url, port, tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_SMTP_URL": f"smtp://127.0.0.1:{free_port()}",
               "MEEPLE_MAIL_FROM": "meeple <meeple@example.org>",
               "MEEPLE_PUBLIC_URL": f"http://127.0.0.1:{port}", "MEEPLE_MAIL_RETRY": "3600"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _kept(db_url: str, account_id: str) -> dict[str, int]:
    """How many rows of each kind name the account, read from the server's database."""
    store = Store(db_url)
    try:
        with store.session() as s:
            def count(row: type, column: object) -> int:
                return int(s.scalar(select(func.count()).select_from(row)
                                    .where(column == account_id)) or 0)
            return {
                "sessions": count(SessionRow, SessionRow.account_id),
                "passkeys": count(PasskeyRow, PasskeyRow.account_id),
                "challenges": count(PasskeyChallengeRow, PasskeyChallengeRow.account_id),
                "mail": count(MailRow, MailRow.account_id),
                "play now": count(QueueRow, QueueRow.account_id),
                "ratings": count(RatingRow, RatingRow.subject),
                "rating history": count(RatingHistoryRow, RatingHistoryRow.subject),
                "chat under its name": int(s.scalar(
                    select(func.count()).select_from(ChatMessageRow).where(
                        ChatMessageRow.account_id == account_id,
                        ChatMessageRow.name != "deleted player")) or 0),
            }
    finally:
        store.close()


def test_deleting_an_account_leaves_none_of_its_rows_in_any_feature(server: Server) -> None:
    ann = PasskeyBrowser(server)
    ann.sign_up()
    account_id = str(ann.http.get("/api/me").json()["account"]["id"])
    # a rated game against a bot, played to its end (ratings and their history), with a chat
    # message from the seat
    r = ann.post("/api/tables", {"game": "gardens", "variant": {"level": 1}, "rated": True,
                                 "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                                 "join_as": "Ann"})
    assert r.status_code == 201, r.text
    table, secret = r.json()["table"]["id"], r.json()["secret"]
    chatter = Chatter(server, table, 0, secret)
    assert chatter.say("good luck")["posted"] is True
    chatter.close()
    play_out(server, table, {0: secret}, Rng(59))
    # an address (its verification mail queued), a Play now wish, a second session, a passkey
    # and a passkey ceremony left unanswered
    r = ann.request("PUT", "/api/me/email", json={"email": f"ann{time.time_ns()}@example.org"})
    assert r.status_code == 200, r.text
    r = ann.post("/api/play-now", {"game": "reefs", "variant": {"level": 2}, "players": 2})
    assert r.status_code == 202 and r.json()["state"] == "waiting", r.text
    other = PasswordBrowser(server)
    assert other.sign_in(ann.username).status_code == 200
    ann.add_passkey(Authenticator(ann.origin))
    ann.options("/api/passkeys/register/options")
    before = _kept(server.db_url, account_id)
    assert before["sessions"] == 2 and before["chat under its name"] == 1, before
    assert all(before.values()), before  # (every kind is there to be deleted)

    r = ann.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert _kept(server.db_url, account_id) == dict.fromkeys(before, 0)
    # its message stays, under the deleted player's name
    said = server.api("GET", f"/api/tables/{table}/chat").json()["messages"]
    assert [(m["name"], m["text"]) for m in said] == [("deleted player", "good luck")]
    ann.close()
    other.close()
