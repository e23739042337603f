"""Rules pages: each game's rulebook as the server renders it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: rules.js, rules.css.
STATIC = "rules"


def wire(app: FastAPI, site: Site) -> None:
    """The rules routes on ``app``."""
    from meeple.server.features.rules import routes

    app.include_router(routes.router)
