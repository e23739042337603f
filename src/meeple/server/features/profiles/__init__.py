"""Profiles: a player's public page (games, stats, solo achievements)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: profile.js, profile.css (the solo page uses profile.css too).
STATIC = "profiles"


def wire(app: FastAPI, site: Site) -> None:
    """The profiles routes on ``app``."""
    from meeple.server.features.profiles import routes

    app.include_router(routes.router)
