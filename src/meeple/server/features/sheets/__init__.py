"""Sheets: the sheets a game offers, and uploading one's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: upload.css (the lobby's and the rules pages' own-sheet part).
STATIC = "sheets"


def wire(app: FastAPI, site: Site) -> None:
    """The sheets routes on ``app``."""
    from meeple.server.features.sheets import routes

    app.include_router(routes.router)
