"""``meeple schema --protocol`` publishes the JSON Schema of the WebSocket frames: every frame
a real game sends both ways validates against it, and wrong frames do not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from typer.testing import CliRunner

from meeple.cli import app
from tests.server.inprocess import Session, Table, session, table_app


def _printed() -> dict[str, Any]:
    out = CliRunner().invoke(app, ["schema", "--protocol"])
    assert out.exit_code == 0, out.output
    schema: dict[str, Any] = json.loads(out.output)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _validators(schema: dict[str, Any]) -> dict[str, jsonschema.Draft202012Validator]:
    """The whole protocol, and each direction on its own."""
    return {"any": jsonschema.Draft202012Validator(schema), **{
        side: jsonschema.Draft202012Validator({"$defs": schema["$defs"],
                                               "$ref": f"#/$defs/{side.title()}Frame"})
        for side in ("client", "server")}}


def _play(table: Table, s: Session, decisions: int) -> None:
    """Play ``decisions`` decisions (as whichever seat is to move), with previews, a stale
    move, an undo, a ping, a bad frame and a spectator's move on the way."""
    s.hello(None)
    s.ask({"type": "move", "move": "take O", "version": s.version, "id": "w1"}, "refused")
    s.ask({"type": "ping"}, "pong")
    s.ask({"type": "move", "move": 5, "version": "one"}, "error")
    for i in range(decisions):
        seat = s.view["to_move"]
        if s.view["viewer"] != seat:
            s.hello(seat, table.secrets[seat])
        legal = s.view["legal_moves"]
        s.ask({"type": "preview", "moves": []}, "preview", "refused")
        s.ask({"type": "preview", "moves": [legal[0]]}, "preview", "refused")
        s.ask({"type": "move", "moves": [legal[0]], "version": s.version - 1, "id": f"s{i}"},
              "ack", "refused")
        s.ask({"type": "move", "move": legal[0], "version": s.version, "id": f"m{i}"},
              "ack", "refused")  # the new view came before the ack
        if i == 1:
            s.ask({"type": "undo", "version": s.version, "id": f"u{i}"}, "ack", "refused")


def test_real_frames_both_ways_validate_against_the_printed_schema(tmp_path: Path) -> None:
    check = _validators(_printed())
    with table_app(tmp_path) as table, session(table) as s:
        _play(table, s, 6)
    assert {f["type"] for f in s.got} == {"welcome", "view", "ack", "preview", "refused",
                                          "error", "pong"}
    assert {f["type"] for f in s.sent} == {"hello", "move", "undo", "preview", "ping"}
    for frame in s.sent:
        if frame.get("version") != "one":
            check["any"].validate(frame)
            check["client"].validate(frame)
    for frame in s.got:
        check["any"].validate(frame)
        check["server"].validate(frame)
        assert not check["client"].is_valid(frame) or frame["type"] == "preview", frame


#: Frames the schema must refuse: (side, frame).
WRONG: list[tuple[str, dict[str, Any]]] = [
    ("client", {"type": "move", "move": "take O", "version": "one"}),
    ("client", {"type": "move", "move": 5, "version": 1}),
    ("client", {"type": "move", "version": 1}),
    ("client", {"type": "move", "moves": None, "version": 1}),
    ("client", {"type": "move", "moves": ["x"] * 65, "version": 1}),
    ("client", {"type": "move", "move": "take O", "version": 1, "id": "i" * 65}),
    ("client", {"type": "hello", "seat": -1}),
    ("client", {"type": "hello", "text": "yes"}),
    ("client", {"type": "fly"}),
    ("client", {"move": "take O", "version": 1}),
    ("server", {"type": "ack", "version": 1}),
    ("server", {"type": "view", "version": 1}),
    ("server", {"type": "pong", "extra": 1}),
    ("server", {"type": "refused", "id": "a"}),
    ("server", {"type": "error"}),
]


def test_wrong_frames_are_rejected_by_the_schema() -> None:
    check = _validators(_printed())
    for side, frame in WRONG:
        assert not check[side].is_valid(frame), (side, frame)
        assert not check["any"].is_valid(frame), frame


def test_meeple_schema_wants_a_game_or_protocol() -> None:
    assert CliRunner().invoke(app, ["schema"]).exit_code == 2
    assert CliRunner().invoke(app, ["schema", "gardens", "--protocol"]).exit_code == 2
