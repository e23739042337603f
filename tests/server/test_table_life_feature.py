"""Table life (leaving a seat, conceding, the rematch) is one feature package,
:mod:`meeple.server.features.tablelife`, wired by its own ``wire(app, site)``: its three
routes are its package's and no longer the lobby's, and an app is served them only through
that wire. Their behaviour is tests/server/test_table_life.py's, on a real server."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import APIRouter
from fastapi.routing import APIRoute

from meeple.server import create_app
from meeple.server.app import FEATURES
from meeple.server.features import tablelife
from meeple.server.table.routes import lobby
from meeple.store import Store, sqlite_url

#: table life's routes: (method, path)
ROUTES = {("POST", "/api/tables/{table_id}/leave"), ("POST", "/api/tables/{table_id}/rematch"),
          ("POST", "/api/tables/{table_id}/concede")}


def routes_of(router: APIRouter) -> set[tuple[str, str]]:
    """The (method, path) of each API route of ``router``."""
    return {(method, r.path) for r in router.routes if isinstance(r, APIRoute)
            for method in r.methods}


def served(store: Store) -> set[tuple[str, str]]:
    """The (method, path) of each operation an app on ``store`` serves (its API document)."""
    paths = create_app(store, bots=False).openapi()["paths"]
    return {(method.upper(), path) for path, ops in paths.items() for method in ops}


@pytest.fixture
def store() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as tmp:
        s = Store(sqlite_url(Path(tmp) / "tablelife.db"))
        s.migrate()
        try:
            yield s
        finally:
            s.close()


def test_leave_concede_and_rematch_are_the_table_life_features_routes(store: Store) -> None:
    from meeple.server.features.tablelife import routes

    assert tablelife.wire in FEATURES
    assert routes_of(routes.router) == ROUTES
    assert not ROUTES & routes_of(lobby.router)
    assert served(store) >= ROUTES


def test_an_app_is_served_table_life_only_through_its_wire(store: Store,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from meeple.server import app as app_module

    monkeypatch.setattr(app_module, "FEATURES",
                        tuple(w for w in FEATURES if w is not tablelife.wire))
    assert not ROUTES & served(store)
