"""The browser front end: static pages and ES modules served by the meeple server.

Plain ES modules, no build step and no Node: the files under ``static/`` are served as they are
(``docs/web.md`` says why). ``create_web_app(store)`` is the server app with the pages mounted:
``/`` the lobby, ``/t/{table}`` a table (play, watch or replay), ``/solo/{player}`` a player's
Pergola solo achievement table, ``/static/...`` the assets.
Nothing is loaded from outside: every script, style and font is here.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from meeple.server.app import create_app
from meeple.store import Store

STATIC = Path(str(resources.files("meeple.web") / "static"))


def create_web_app(store: Store, **kw: Any) -> FastAPI:
    """The server app (:func:`meeple.server.app.create_app`) with the web pages mounted."""
    app = create_app(store, **kw)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-cache"})

    @app.get("/solo/{player:path}", include_in_schema=False)
    def solo_page(player: str) -> FileResponse:
        return FileResponse(STATIC / "solo.html", headers={"Cache-Control": "no-cache"})

    return app


__all__ = ["STATIC", "create_web_app"]
