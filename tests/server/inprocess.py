"""The server app in this process (FastAPI's TestClient, no bot workers) with a table of two
people, and a WebSocket session that records every frame sent and received: for the tests of
the frames' models and of their published schema (fast: no server process to start)."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from meeple.server import create_app
from meeple.store import Store, sqlite_url
from tests.server.conftest import TEST_LIMITS

with warnings.catch_warnings():  # starlette would rather have httpx2: httpx is what we have
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession


@dataclass
class Table:
    """A running Gardens table of two people whose secrets we hold (no bot seat)."""

    client: TestClient
    id: str
    secrets: dict[int, str]

    def record(self) -> dict[str, Any]:
        rec: dict[str, Any] = self.client.get(f"/api/tables/{self.id}/record").json()
        return rec


@contextmanager
def table_app(tmp_path: Path) -> Iterator[Table]:
    store = Store(sqlite_url(tmp_path / "tables.db"))
    store.migrate()
    # the limits off, as on the test servers (TEST_LIMITS): the app reads them at start-up,
    # and a test here sends frames faster than a person (a ping over the frame rate would be
    # answered by an error frame, not the pong it waits for)
    with mock.patch.dict(os.environ, TEST_LIMITS), \
            TestClient(create_app(store, bots=False)) as client:
        made = client.post("/api/tables", json={
            "game": "gardens", "variant": {"level": 1}, "join_as": "Ann",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        joined = client.post(f"/api/tables/{table}/join", json={"name": "Bob"}).json()
        yield Table(client, table, {0: made.json()["secret"], joined["seat"]: joined["secret"]})


@dataclass
class Session:
    """One WebSocket to the table; ``sent`` and ``got`` keep every frame, as JSON values."""

    ws: WebSocketTestSession
    sent: list[Any] = field(default_factory=list)
    got: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    version: int = -1

    def send(self, frame: Any) -> None:
        self.sent.append(frame)
        self.ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        self.got.append(frame)
        if frame["type"] == "view":
            self.version, self.view = frame["version"], frame["view"]
        return frame

    def until(self, *kinds: str) -> dict[str, Any]:
        """Frames up to the next one of these types (which is returned)."""
        while True:
            frame = self.recv()
            if frame["type"] in kinds:
                return frame

    def ask(self, frame: Any, *kinds: str) -> dict[str, Any]:
        """Send ``frame`` and return the answer of one of these types."""
        self.send(frame)
        return self.until(*kinds)

    def hello(self, seat: int | None, secret: str | None = None) -> None:
        frame: dict[str, Any] = {"type": "hello"}
        if seat is not None:
            frame.update(seat=seat, secret=secret)
        assert self.ask(frame, "welcome", "error")["type"] == "welcome"
        self.until("view")


@contextmanager
def session(table: Table) -> Iterator[Session]:
    with table.client.websocket_connect(f"/ws/tables/{table.id}") as ws:
        yield Session(ws)
