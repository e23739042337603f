"""Ratings: the leaderboards and a player's ratings (the ratings themselves are computed in
the store's finishing transaction, :mod:`meeple.store.ratings`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: leaderboard.js, ratingchart.js, leaderboard.css.
STATIC = "ratings"


def wire(app: FastAPI, site: Site) -> None:
    """The ratings routes on ``app``."""
    from meeple.server.features.ratings import routes

    app.include_router(routes.router)
