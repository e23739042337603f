"""A table's chat over REST: its history a page at a time, and reporting a message
for the moderators. Posting is the WebSocket's (:mod:`meeple.server.features.chat.service`)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictStr

from meeple.server.deps import StoreDep
from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.features.chat.service import (
    BOTS_ONLY,
    MAX_REASON,
    ChatHub,
    checked_reason,
    get_chat,
    has_people,
    line,
)
from meeple.server.features.chat.store import MAX_PAGE, RECENT
from meeple.server.quotas import ThrottledRoute, client_hash, client_of
from meeple.server.table.checks import MAX_PARAM
from meeple.store import Table

router = APIRouter(route_class=ThrottledRoute)

ChatDep = Annotated[ChatHub, Depends(get_chat)]


class Report(BaseModel):
    reason: StrictStr = Field(description=f"why: 1 to {MAX_REASON} characters of printable "
                                          "text")


async def _table(store: StoreDep, table_id: str) -> Table:
    """The table (404 if none), refused with 409 when it has no chat (bots only)."""
    table = await asyncio.to_thread(store.table, table_id)
    if not has_people(table):
        raise HTTPException(409, BOTS_ONLY)
    return table


@router.get("/api/tables/{table_id}/chat")
async def chat_history(table_id: str, store: StoreDep, hub: ChatDep,
                       after: int | None = Query(None, ge=0, le=MAX_PARAM,
                                                 description="the messages after this id, "
                                                             "oldest first"),
                       before: int | None = Query(None, ge=0, le=MAX_PARAM,
                                                  description="the last messages before this "
                                                              "id"),
                       limit: int = Query(RECENT, ge=1, le=MAX_PAGE)) -> dict[str, Any]:
    """A page of the table's chat, oldest first: ``limit`` messages after id ``after``, or
    the last ``limit`` before id ``before``, or the last ``limit`` of all; ``more`` says
    whether there are more beyond the page in its direction. Hidden messages are left out."""
    if after is not None and before is not None:
        raise HTTPException(422, "give after or before, not both: after pages forward from "
                                 "a message id, before pages back")
    await _table(store, table_id)
    messages, more = await asyncio.to_thread(hub.chat.page, table_id, after, before, limit)
    return {"table": table_id, "messages": [line(m).model_dump() for m in messages],
            "more": more}


@router.post("/api/tables/{table_id}/chat/{message_id}/report", status_code=201)
async def report(table_id: str, message_id: Annotated[int, Path(ge=1, le=MAX_PARAM)],
                 body: Report, request: Request, store: StoreDep, hub: ChatDep,
                 accounts: AccountsDep) -> Any:
    """Report a message of the table for the moderators, with a reason: 201 when kept; 200
    when this reporter (the signed-in account, else the client's address) reported it
    already, and nothing changes. Within ``MEEPLE_RATE_REPORT`` a client."""
    await _table(store, table_id)
    client = client_of(request)
    hub.report_allowed(client)
    reason = checked_reason(body.reason)
    signed = await accounts.signed(request)
    reporter = f"a:{signed.account.id}" if signed is not None else f"c:{client_hash(client)}"
    new = await asyncio.to_thread(hub.chat.report, table_id, message_id, reporter, reason)
    answer = {"table": table_id, "message": message_id, "new": new,
              "note": "thank you: the moderators will look at it" if new else
              "you reported this message already; nothing changed"}
    return JSONResponse(answer, status_code=201 if new else 200)
