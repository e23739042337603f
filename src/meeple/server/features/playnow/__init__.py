"""Play now: a queue of signed-in players matched into rated tables by close ratings; its
store part keeps the queue. The queue and its matcher run while the app runs (the app's
lifespan sets them in the site)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: playnow.js (the lobby's play-now panel).
STATIC = "playnow"


def wire(app: FastAPI, site: Site) -> None:
    """Play now's routes on ``app``."""
    from meeple.server.features.playnow import routes

    app.include_router(routes.router)
