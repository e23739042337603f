"""Chat: a table's messages over its WebSocket, their history and reports; its store part
keeps the messages."""

from __future__ import annotations

from fastapi import FastAPI

from meeple.server.site import Site

#: The folder under ``meeple/web/static/`` with this feature's page code:
#: chat.js (the table page's chat panel), chat.css.
STATIC = "chat"


def wire(app: FastAPI, site: Site) -> None:
    """The tables' chat on ``app``: its hub (its section of the site's settings) and its routes.
    Needs the site's accounts."""
    from meeple.server.features.chat import routes
    from meeple.server.features.chat.service import ChatHub
    from meeple.server.features.chat.store import Chat

    site.chat = ChatHub(Chat(site.store), site.settings.chat, site.accounts)
    app.include_router(routes.router)
