"""The move path carries a move as data (docs/layers.md, *The server's move path*), on a real
server process: a connection that said ``merged_ack`` gets its move's ack inside the first
frame of the change, once, and no ``ack`` frame of its own, also when its move first takes
the seat back from the stand-in bot (the change is told twice then: the ack is in the first
frame only); a connection that did not say it gets an ``ack`` frame."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import connect

from meeple.core.delta import apply_patch
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create

#: The frames are the service's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY

CLOCK = 5  # the shortest clock a table may have


class Socket:
    """A seat's raw connection: the frames as sent, the view kept up to date."""

    def __init__(self, server: Server, table: str, seat: int, secret: str,
                 **hello: bool) -> None:
        self._cm = connect(f"{server.ws_base}/ws/tables/{table}", open_timeout=60,
                           max_size=None, ping_interval=None, close_timeout=30)
        self.ws = self._cm.__enter__()
        self.view: dict[str, Any] = {}
        self.version = -1
        self.ws.send(json.dumps({"type": "hello", "seat": seat, "secret": secret,
                                 "updates": True, **hello}))
        assert self.recv()["type"] == "welcome"

    def recv(self, timeout: float = 120) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "view":
            self.version, self.view = frame["version"], frame["view"]
        elif frame["type"] == "update":
            assert frame["base"] == self.version
            self.version, self.view = frame["version"], apply_patch(self.view, frame["patch"])
        return frame

    def until_pong(self) -> list[dict[str, Any]]:
        """Every frame up to the answer to a ping sent now (the frames of a request the
        connection answered before the ping all come before its pong)."""
        self.ws.send(json.dumps({"type": "ping"}))
        frames = []
        while (frame := self.recv())["type"] != "pong":
            frames.append(frame)
        return frames

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def _move(sock: Socket, move_id: str) -> list[dict[str, Any]]:
    """Play the first legal move of the seat's turn; the frames up to the pong after it."""
    sock.ws.send(json.dumps({"type": "move", "move": sock.view["legal_moves"][0],
                             "version": sock.version, "id": move_id}))
    return sock.until_pong()


def _acks(frames: list[dict[str, Any]], move_id: str) -> tuple[int, int]:
    """(frames of type ack, view or update frames that carry the ack) for ``move_id``."""
    own = sum(1 for f in frames if f["type"] == "ack" and f["id"] == move_id)
    merged = sum(1 for f in frames if f["type"] in ("view", "update")
                 and f.get("ack") == {"id": move_id})
    return own, merged


def _wait_turn(sock: Socket, seat: int) -> None:
    deadline = time.monotonic() + 120
    while sock.view.get("to_move") != seat or not sock.view.get("legal_moves"):
        assert time.monotonic() < deadline, "the seat's turn did not come"
        sock.recv()


def test_a_merged_ack_comes_once_inside_the_frame_of_the_move(server: Server) -> None:
    joined = create(server, "gardens", {"level": 1},
                    [{"kind": "human"}, {"kind": "bot", "bot": "random"}], join_as="Ann")
    ann = Socket(server, joined["table"]["id"], 0, joined["secret"], merged_ack=True)
    try:
        _wait_turn(ann, 0)
        frames = _move(ann, "m1")
        assert _acks(frames, "m1") == (0, 1), frames
        first = next(f for f in frames if f["type"] in ("view", "update"))
        assert first.get("ack") == {"id": "m1"}
    finally:
        ann.close()


def test_without_merged_ack_the_move_gets_an_ack_frame(server: Server) -> None:
    joined = create(server, "gardens", {"level": 1},
                    [{"kind": "human"}, {"kind": "bot", "bot": "random"}], join_as="Ann")
    ann = Socket(server, joined["table"]["id"], 0, joined["secret"])
    try:
        _wait_turn(ann, 0)
        frames = _move(ann, "m1")
        assert _acks(frames, "m1") == (1, 0), frames
        assert not any("ack" in f for f in frames if f["type"] in ("view", "update"))
    finally:
        ann.close()


def test_a_move_that_takes_the_seat_back_from_the_stand_in_is_acked_in_its_first_frame(
        server: Server) -> None:
    # Takenokolor: a turn of two decisions, so after the stand-in played one (Ann's clock
    # ran out while her page was open) the second is still hers to play
    joined = create(server, "takenokolor", {"sheet": "2-pandas"},
                    [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    join_as="Ann", clock=CLOCK)
    table = joined["table"]["id"]
    ann = Socket(server, table, 0, joined["secret"], merged_ack=True, clock=True)
    try:
        deadline = time.monotonic() + 240
        while True:  # Ann does nothing until the stand-in has played a decision of hers
            assert time.monotonic() < deadline, "the stand-in played nothing"
            frame = ann.recv()
            if (frame["type"] == "clock" and frame.get("ran_out") and frame["stood_in"][0]
                    and ann.version == frame["version"] and ann.view.get("to_move") == 0
                    and ann.view.get("legal_moves")):
                break
        assert server.api("GET", f"/api/tables/{table}").json()["seats"][0]["absent"]
        frames = _move(ann, "back-and-move")
        if any(f["type"] == "refused" for f in frames):
            return  # the clock ran out again first (a loaded machine): nothing to check
        assert _acks(frames, "back-and-move") == (0, 1), frames
        first = next(f for f in frames if f["type"] in ("view", "update"))
        assert first.get("ack") == {"id": "back-and-move"}
        assert not server.api("GET", f"/api/tables/{table}").json()["seats"][0]["absent"]
    finally:
        ann.close()
