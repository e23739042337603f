"""Who is at the table (``presence`` frames, issue 39 #8): a connection that asks for them in
its hello is told, after its first view, which seats have a connection open and how many
watch, and again whenever that changes (a seat connects, its last connection goes). A
connection that does not ask is sent none, so the frames it waits for are as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meeple.server.table.protocol import SERVER_FRAMES, PresenceFrame
from tests.server.inprocess import Session, Table, session, table_app


@pytest.fixture
def table(tmp_path: Path) -> Any:
    with table_app(tmp_path) as t:
        yield t


def hello(s: Session, seat: int | None, secret: str | None, presence: bool = True) -> None:
    frame: dict[str, Any] = {"type": "hello", "presence": presence}
    if seat is not None:
        frame.update(seat=seat, secret=secret)
    assert s.ask(frame, "welcome", "error")["type"] == "welcome"
    assert s.recv()["type"] == "view"


def _presence(seats: list[bool], spectators: int) -> dict[str, object]:
    """A presence frame of a table where nobody conceded and no rematch is made (issue 54)."""
    return {"type": "presence", "seats": seats, "spectators": spectators,
            "conceded": [False] * len(seats), "rematch": None}


def test_presence_after_the_view_then_at_every_change(table: Table) -> None:
    with session(table) as ann:
        hello(ann, 0, table.secrets[0])
        first = ann.recv()
        assert first == _presence([True, False], 0)
        assert isinstance(SERVER_FRAMES.validate_python(first), PresenceFrame)
        with session(table) as bob:
            hello(bob, 1, table.secrets[1])
            assert bob.recv() == _presence([True, True], 0)
            assert ann.recv() == _presence([True, True], 0)
            with session(table) as eve:
                hello(eve, None, None)
                assert eve.recv()["spectators"] == 1
                assert ann.recv() == _presence([True, True], 1)
            assert ann.recv()["spectators"] == 0  # the spectator went
            bob.recv()
        # Bob's last connection went: Ann is told his seat is empty
        assert ann.recv() == _presence([True, False], 0)
        with session(table) as bob:  # and that he is back
            hello(bob, 1, table.secrets[1])
            assert ann.recv()["seats"] == [True, True]


def test_a_second_connection_of_a_seat_changes_nothing_until_the_last_goes(
        table: Table) -> None:
    with session(table) as ann:
        hello(ann, 0, table.secrets[0])
        ann.recv()
        with session(table) as bob:
            hello(bob, 1, table.secrets[1])
            bob.recv()
            assert ann.recv()["seats"] == [True, True]
            with session(table) as bob2:  # Bob's second tab: nobody is told anything new
                hello(bob2, 1, table.secrets[1])
                assert bob2.recv()["seats"] == [True, True]
            # Bob's second tab went, his first is still there: still nothing new; the next
            # frame Ann gets is the answer to her ping
            assert ann.ask({"type": "ping"}, "pong", "presence")["type"] == "pong"
        assert ann.recv()["seats"] == [True, False]


def test_a_connection_that_does_not_ask_gets_no_presence_frame(table: Table) -> None:
    with session(table) as ann:
        hello(ann, 0, table.secrets[0], presence=False)
        with session(table) as bob:
            hello(bob, 1, table.secrets[1])
            assert bob.recv()["type"] == "presence"
        assert ann.ask({"type": "ping"}, "pong", "presence")["type"] == "pong"
        assert not [f for f in ann.got if f["type"] == "presence"]


def test_presence_is_in_the_published_schema() -> None:
    from meeple.server.table.protocol import protocol_schema

    schema = protocol_schema()
    assert "PresenceFrame" in schema["$defs"]
    assert "presence" in schema["$defs"]["Hello"]["properties"]
