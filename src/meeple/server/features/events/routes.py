"""The account event stream's route: ``GET /api/stream/event``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from meeple.server.edge import STOP_HOOK
from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.features.events.settings import EventSettings
from meeple.server.site import site_of

router = APIRouter()


class EventResponse(StreamingResponse):
    """The stream's response: whatever way it ends (its generator done, the client gone, or
    never started because the client left first), its place among the account's open
    streams is given back once, and its generator closed."""

    def __init__(self, lines: AsyncGenerator[bytes, None], release: Callable[[], None],
                 **kw: Any) -> None:
        super().__init__(lines, **kw)
        self._lines, self._release = lines, release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
            await self._lines.aclose()

#: An NDJSON stream's media type.
NDJSON = "application/x-ndjson"


@router.get("/api/stream/event", response_class=StreamingResponse,
            responses={200: {"content": {NDJSON: {}},
                             "description": "one JSON event a line; a blank line to keep it "
                                            "open"}})
async def event_stream(request: Request, accounts: AccountsDep) -> StreamingResponse:
    """The signed-in account's events, one JSON object a line, as long as the stream stays
    open: ``challenge`` (each open challenge to or from it, on opening and when one appears),
    ``challengeGone``, ``gameStart`` (each seat it holds at a table not finished, on opening
    and when one appears), ``gameFinish``; a blank line after a few seconds of quiet. With a
    bearer token (any scope) or a signed-in session. 429 past ``MEEPLE_EVENTS_PER_ACCOUNT``
    open streams of the account in this server process."""
    signed = await accounts.require(request)
    streams = site_of(request).events
    if not streams.admit(signed.account_id):
        most = streams.settings.per_account
        raise HTTPException(429, f"this account has {most} event streams open here already, "
                                 f"the most ({EventSettings.variable('per_account')}); close "
                                 f"one first", headers={"Retry-After": "5"})
    stop = asyncio.Event()
    request.scope.setdefault("state", {})[STOP_HOOK] = stop.set
    return EventResponse(streams.stream(signed.account_id, signed.session_id, stop),
                         lambda: streams.release(signed.account_id), media_type=NDJSON,
                         headers={"X-Accel-Buffering": "no"})
