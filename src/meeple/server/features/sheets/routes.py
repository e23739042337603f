"""Sheets of one's own (Gardens, Reefs, Takenokolor): the shipped sheets to start from, and the
check of an uploaded sheet file (:mod:`meeple.server.table.uploads`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from starlette.requests import Request

from meeple.core.registry import game_sheets
from meeple.server.table import uploads

router = APIRouter()


@router.get("/api/sheets/{game}")
def sheets_of(game: str) -> dict[str, Any]:
    """The shipped sheets of a game that takes a player's own sheet, and the size limit."""
    name = uploads.upload_game(game)
    return {"game": name, "shipped": game_sheets(name),
            "max_bytes": uploads.MAX_SHEET_BYTES}


@router.get("/api/sheets/{game}/{name}", response_class=PlainTextResponse, responses={
    200: {"description": "the sheet's TOML file, as a download",
          "content": {"application/toml": {"schema": {"type": "string"}}}}})
def shipped_sheet(game: str, name: str) -> PlainTextResponse:
    """A shipped sheet's TOML file, as a starting point for one's own."""
    text = uploads.shipped_text(game, name)
    file = f"{game}-{name.removesuffix('.toml')}.toml"
    return PlainTextResponse(text, media_type="application/toml; charset=utf-8",
                             headers={"content-disposition": f'attachment; filename="{file}"'})


@router.post("/api/sheets/{game}/check", openapi_extra={"requestBody": {
    "required": True, "content": {"application/toml": {"schema": {"type": "string"}}}}})
async def check_sheet(game: str, request: Request) -> dict[str, Any]:
    """Check a sheet file (the request body is the file itself): the sheet as data, the
    variant it plays, and its layout and a fresh view for a preview; or 422 with every
    problem (line, field, message)."""
    name = uploads.upload_game(game)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > uploads.MAX_SHEET_BYTES:
            break
    text = uploads.decode_upload(name, bytes(raw))
    return await asyncio.to_thread(uploads.check, name, text)
