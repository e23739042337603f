"""Chat: a table's messages over its WebSocket, their history and reports; its store part
keeps the messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: chat.js (the table page's chat panel), chat.css.
STATIC = "chat"


def wire(app: FastAPI, site: Site) -> None:
    """The tables' chat on ``app``: its hub (its section of the site's settings), registered
    on the tables' WebSocket (the ``chat`` frame, a hello's history, a socket's end) and for
    its two fan-out notices (a message posted, one hidden, in another server process), and
    its routes. Needs the site's accounts."""
    from meeple.server.features.chat import routes
    from meeple.server.features.chat.service import ChatHub
    from meeple.server.features.chat.store import CHAT_NOTICE, HIDDEN_NOTICE, Chat

    site.chat = hub = ChatHub(Chat(site.store), site.settings.chat, site.accounts)
    site.sockets.handle("chat", hub.on_frame)
    site.sockets.after_hello(hub.on_hello)
    site.sockets.on_close(hub.on_close)
    for code in (CHAT_NOTICE, HIDDEN_NOTICE):
        site.sockets.notice(code, hub.remote)
    app.include_router(routes.router)
