"""Every WebSocket frame is a pydantic model (meeple.server.table.protocol): a frame that does not
validate is refused with an error frame naming the field and what it allows, the connection
stays open and nothing changes; valid frames are answered exactly as the protocol says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.server.table.protocol import CLIENT_FRAMES, Hello, Move, Ping, Preview, Undo
from tests.server.inprocess import Session, Table, session, table_app


@pytest.fixture
def table(tmp_path: Path) -> Any:
    with table_app(tmp_path) as t:
        yield t


def test_the_documented_frames_parse_to_their_models() -> None:
    move = CLIENT_FRAMES.validate_python({"type": "move", "move": "take O", "version": 12,
                                          "id": "c-17"})
    assert isinstance(move, Move) and move.steps == ["take O"] and move.id == "c-17"
    turn = CLIENT_FRAMES.validate_python({"type": "move", "moves": ["take O", "B4"],
                                          "version": 12, "move": "ignored"})
    assert isinstance(turn, Move) and turn.steps == ["take O", "B4"] and turn.id is None
    assert CLIENT_FRAMES.validate_python({"type": "preview", "moves": []}).steps == []
    assert isinstance(CLIENT_FRAMES.validate_python({"type": "undo", "version": 3}), Undo)
    hello = CLIENT_FRAMES.validate_python({"type": "hello", "seat": 0, "secret": "s",
                                           "text": True})
    assert isinstance(hello, Hello) and (hello.seat, hello.secret, hello.text) == (0, "s", True)
    # fields a frame type does not know are ignored, as before the models
    assert isinstance(CLIENT_FRAMES.validate_python({"type": "ping", "pad": "x" * 100}), Ping)
    assert isinstance(CLIENT_FRAMES.validate_python({"type": "preview", "move": "B4"}), Preview)


#: (frame, what the error frame's reason must say)
INVALID: list[tuple[dict[str, Any], list[str]]] = [
    ({"type": "move", "move": "take O", "version": "one"},
     ["move frame", "version", "valid integer"]),
    ({"type": "move", "move": "take O", "version": True}, ["version", "valid integer"]),
    ({"type": "move", "move": 5, "version": 0}, ["move:", "valid string"]),
    ({"type": "move", "version": 0}, ['"moves"', '"move"']),
    ({"type": "move", "moves": None, "move": "take O", "version": 0}, ["moves", "not null"]),
    ({"type": "move", "moves": [], "version": 0}, ["moves", "at least one"]),
    ({"type": "move", "moves": ["take O"] * 65, "version": 0}, ["moves", "at most 64"]),
    ({"type": "move", "move": "   ", "version": 0}, ["move:", "blank"]),
    ({"type": "move", "move": "m" * 201, "version": 0}, ["move:", "at most 200"]),
    ({"type": "move", "move": "take O", "version": 0, "id": "i" * 65},
     ["id:", "at most 64"]),
    ({"type": "undo", "version": 0, "id": "a\tb"}, ["undo frame", "id:", "printable"]),
    ({"type": "undo"}, ["undo frame", "version", "required"]),
    ({"type": "preview", "moves": [1]}, ["preview frame", "moves.0", "valid string"]),
    ({"type": "hello", "seat": -1, "secret": "x"}, ["hello frame", "seat", "greater than"]),
    ({"type": "hello", "seat": 1.0, "secret": "x"}, ["seat", "valid integer"]),
    ({"type": "hello", "text": "yes"}, ["text", "valid boolean"]),
    ({"type": "hello", "seat": 0, "secret": 7}, ["secret", "valid string"]),
    ({"type": "fly"}, ["unknown frame type 'fly'; types: hello, move, undo, preview, back, "
                       "ping"]),
]


@pytest.mark.parametrize("role", ["seat", "spectator"])
def test_an_invalid_frame_gets_the_validation_error_and_changes_nothing(
        table: Table, role: str) -> None:
    before = table.record()
    with session(table) as s:
        s.hello(0 if role == "seat" else None, table.secrets[0])
        version = s.version
        for frame, words in INVALID:
            got = s.ask(frame, "error", "refused", "ack", "preview", "welcome")
            assert got["type"] == "error", (frame, got)
            assert set(got) == {"type", "reason"}
            for word in words:
                assert word in got["reason"], (frame, got["reason"])
        assert s.ask({"type": "ping"}, "pong") == {"type": "pong"}  # still open
        assert s.version == version
    assert table.record() == before


def test_frames_before_hello(table: Table) -> None:
    with session(table) as s:
        assert s.ask({"type": "ping", "x": [1]}, "pong") == {"type": "pong"}
        got = s.ask({"type": "move", "move": "take O", "version": 0}, "error")
        assert got["reason"].startswith("say hello first")
        got = s.ask({"type": "hello", "seat": 5, "secret": "x"}, "error")
        assert got["reason"] == "seat must be a number 0..1"
        got = s.ask({"type": "hello", "seat": 1, "secret": "forged"}, "error")
        assert got["reason"] == "that is not the secret of seat 1"
        for raw, reason in (("[1]", 'a frame is a JSON object with a "type"'),
                            ('{"type": 1}', 'a frame is a JSON object with a "type"'),
                            ("{nope", "the frame is not JSON")):
            assert s.ask(raw, "error")["reason"].startswith(reason)
        big = json.dumps({"type": "ping", "pad": "x" * 17000})
        assert s.ask(big, "error")["reason"].startswith("frame too large")


def _mover(table: Table, s: Session) -> int:
    """Hello as the seat to move; returns it."""
    s.hello(None)
    seat = s.view["to_move"]
    assert seat in table.secrets, s.view
    s.hello(seat, table.secrets[seat])
    return int(seat)


def test_valid_frames_are_answered_as_the_protocol_says(table: Table) -> None:
    with session(table) as s:
        _mover(table, s)
        legal = s.view["legal_moves"]
        preview = s.ask({"type": "preview", "moves": [legal[0]]}, "preview", "refused")
        assert preview["type"] == "preview" and preview["moves"][0] == legal[0]
        assert set(preview) == {"type", "moves", "complete", "forced", "view"}
        stale = s.ask({"type": "move", "move": legal[0], "version": s.version - 1},
                      "ack", "refused")
        # a move without an id is answered with "id": null, as always
        assert stale["type"] == "refused" and stale["id"] is None
        assert set(stale) == {"type", "id", "reason", "version"}
        version = s.version
        ack = s.ask({"type": "move", "move": legal[0], "version": version, "extra": 1},
                    "ack", "refused")
        assert ack == {"type": "ack", "id": None, "version": ack["version"]}
        assert ack["version"] > version
        bad = s.ask({"type": "preview", "moves": ["no such move"]}, "preview", "refused")
        assert bad["type"] == "refused" and bad["preview"] is True and "id" not in bad
        s.hello(None)
        assert s.ask({"type": "preview", "moves": []}, "refused") == {
            "type": "refused", "reason": "spectators cannot move"}
        assert s.ask({"type": "undo", "version": 3, "id": "u1"}, "refused") == {
            "type": "refused", "id": "u1", "reason": "spectators cannot move", "version": 3}
        assert s.ask({"type": "back"}, "error") == {
            "type": "error", "reason": "a spectator has no seat to take back"}
