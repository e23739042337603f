"""A connection's frames go out through its own queue (meeple.server.table.routes.ws.Connection):
in order, never waiting on the sender, and a client whose socket stops reading is closed with
1013 once it is MAX_OUTBOX frames behind, instead of holding frames without bound."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from meeple.server.table.routes.ws import MAX_OUTBOX, Connection
from tests.aio import run


class FakeSocket:
    def __init__(self, stuck: bool) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.stuck = stuck
        self.never = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await self.never.wait()  # a client that stopped reading: the write never ends
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def connection(ws: FakeSocket) -> Connection:
    rt: Any = SimpleNamespace(table=SimpleNamespace(id="t1"))
    return Connection(None, rt, ws)  # type: ignore[arg-type]


def test_frames_go_out_in_order_without_waiting() -> None:
    async def main() -> list[str]:
        ws = FakeSocket(stuck=False)
        conn = connection(ws)
        for i in range(50):
            await conn.send(f'{{"n":{i}}}')
        await conn.send({"type": "pong"})
        for _ in range(100):
            await asyncio.sleep(0)
        await conn.finish()
        return ws.sent

    sent = run(main())
    assert sent == [f'{{"n":{i}}}' for i in range(50)] + ['{"type": "pong"}']


def test_a_client_too_far_behind_is_closed_with_1013() -> None:
    async def main() -> FakeSocket:
        ws = FakeSocket(stuck=True)
        conn = connection(ws)
        for i in range(MAX_OUTBOX):
            await conn.send(f"{i}")  # queued: the writer is stuck on the first
        with pytest.raises(ConnectionError, match="too far behind"):
            await conn.send("one too many")
        with pytest.raises(ConnectionError, match="closed"):
            await conn.send("after")  # the connection takes nothing more
        for _ in range(20):
            await asyncio.sleep(0)
        await conn.finish()
        return ws

    ws = run(main())
    assert ws.closed is not None and ws.closed[0] == 1013
    assert ws.sent == []
