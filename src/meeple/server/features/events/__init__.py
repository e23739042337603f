"""The account event stream (``GET /api/stream/event``): what a program playing for an
account (``meeple agent``) listens to, built by polling the store (README.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site

def wire(app: FastAPI, site: Site) -> None:
    """The event stream on ``app``: its service (its section of the site's settings; it reads
    the site's accounts to see a stream's token or session still live) and its route."""
    from meeple.server.features.events import routes
    from meeple.server.features.events.service import EventStreams

    site.events = EventStreams(site.store, site.settings.events, site.accounts)
    app.include_router(routes.router)
