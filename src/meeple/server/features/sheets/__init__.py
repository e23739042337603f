"""Sheets: the sheets a game offers, and uploading one's own."""

from __future__ import annotations

from fastapi import FastAPI

from meeple.server.site import Site


def wire(app: FastAPI, site: Site) -> None:
    """The sheets routes on ``app``."""
    from meeple.server.features.sheets import routes

    app.include_router(routes.router)
