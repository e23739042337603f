"""Tournaments: Swiss, Arena and round robin. Its pure core, :mod:`.pairing` (pairings,
schedules and standings from dataclasses, no I/O); its store part (:mod:`.store`: made,
entered, started, paired, finished); its scheduler (:mod:`.service`, run by the app's
lifespan in every server process); its routes and its page."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code: tournaments.js
#: (the lobby's list and form), tournament.js (a tournament's page), tournaments.css.
STATIC = "tournaments"


def wire(app: FastAPI, site: Site) -> None:
    """The tournaments' routes on ``app``."""
    from meeple.server.features.tournaments import routes

    app.include_router(routes.router)
