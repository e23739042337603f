"""A small WebSocket client for the tests: hello, moves with versions, frames by type."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import ClientConnection, connect

from meeple.core.delta import apply_patch


class Player:
    def __init__(self, ws_base: str, table: str, seat: int | None = None,
                 secret: str | None = None, updates: bool = False, clock: bool = False
                 ) -> None:
        # no keepalive pings: on a loaded machine a slow pong must not close the connection
        self._connection = connect(f"{ws_base}/ws/tables/{table}", open_timeout=60,
                                   max_size=None, ping_interval=None, close_timeout=30)
        self.ws: ClientConnection = self._connection.__enter__()
        self.seat = seat
        self.view: dict[str, Any] = {}
        self.version = -1
        self.frames: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello"}
        if updates:  # new versions as update frames (deltas), applied to self.view
            hello["updates"] = True
        if clock:  # clock frames (a table with a turn clock)
            hello["clock"] = True
        if seat is not None:
            hello.update(seat=seat, secret=secret)
        self.send(hello)
        self.expect("welcome")
        self.expect("view")

    def send(self, frame: dict[str, Any] | str) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self, timeout: float = 180) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        if frame["type"] == "view" and frame["version"] >= self.version:
            self.version, self.view = frame["version"], frame["view"]
        elif frame["type"] == "update":
            assert frame["base"] == self.version, (frame["base"], self.version)
            self.version, self.view = frame["version"], apply_patch(self.view, frame["patch"])
        return frame

    def expect(self, kind: str, timeout: float = 180) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.1, deadline - time.monotonic()))
            if frame["type"] == kind:
                return frame
            if frame["type"] in ("error", "refused") and kind not in ("error", "refused"):
                raise AssertionError(f"expected {kind}, got {frame}")

    def wait_turn(self, timeout: float = 300) -> bool:
        """Wait until this seat is to move (True) or the game is over (False)."""
        deadline = time.monotonic() + timeout
        while True:
            if self.view.get("over"):
                return False
            if self.view.get("to_move") == self.seat and self.view.get("legal_moves"):
                return True
            self.recv(max(0.1, deadline - time.monotonic()))

    def move(self, text: str, move_id: str | None = None) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "move", "move": text, "version": self.version}
        if move_id is not None:
            frame["id"] = move_id
        self.send(frame)
        while True:
            got = self.recv()
            if got["type"] in ("ack", "refused", "error"):
                return got

    def close(self) -> None:
        self._connection.__exit__(None, None, None)
