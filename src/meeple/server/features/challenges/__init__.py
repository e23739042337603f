"""Challenges: one account asks another (a person or a bot account) to a game, variant, seats,
pace and rated or casual; the other accepts (the table is made with both seated) or declines.
The row is ``rows.py`` (migration 0016), the store's part ``store.py`` (``open_challenges`` and
``challenge_json`` are the named read other features use: the account event stream), the
routes ``routes.py``, the pages' part ``static/challenges/``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code: challenges.js (the
#: challenge dialog and the incoming/outgoing banner every page shows when signed in).
STATIC = "challenges"


def wire(app: FastAPI, site: Site) -> None:
    """Challenges' routes on ``app``."""
    from meeple.server.features.challenges import routes

    app.include_router(routes.router)
