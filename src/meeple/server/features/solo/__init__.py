"""Solo: a player's solo achievement tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: solo.js (the solo page).
STATIC = "solo"


def wire(app: FastAPI, site: Site) -> None:
    """The solo routes on ``app``."""
    from meeple.server.features.solo import routes

    app.include_router(routes.router)
