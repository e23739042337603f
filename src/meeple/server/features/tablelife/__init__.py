"""Table life: what ends a person's part in a game other than its last move (leaving a seat,
conceding) and the rematch of a finished table. Its routes use the table core's store calls
and answers; the rematch's mail invitation goes through the site's notifier. Abandoned tables
are the table core's sweeper (:func:`meeple.server.table.routes.lobby.sweep_stale`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: tablelife.js (the table page's leave, concede and rematch controls).
STATIC = "tablelife"


def wire(app: FastAPI, site: Site) -> None:
    """Table life's routes on ``app``; the rematch needs the site's notifier (the mail
    feature's), read when a rematch is made."""
    from meeple.server.features.tablelife import routes

    app.include_router(routes.router)
