"""What the routers share, reached through FastAPI dependencies on the app's
:class:`~meeple.server.site.Site`.

:func:`meeple.server.app.create_app` puts the store and the caches in the site when it
builds the app, and the service when the app starts (its lifespan). A route asks for them with
the ``Annotated`` types below (``svc: ServiceDep``), for REST and WebSocket routes alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends
from starlette.requests import HTTPConnection

from meeple.server.site import site_of
from meeple.server.table.service import Service
from meeple.store import Store

#: How many finished tables' analyses and solo reports are kept in memory.
CACHED = 512

V = TypeVar("V")


def keep(cache: dict[str, V], key: str, value: V) -> V:
    """Put ``value`` in ``cache`` under ``key``; the oldest entry goes beyond :data:`CACHED`
    (memory stays bounded). Returns ``value``."""
    cache[key] = value
    if len(cache) > CACHED:
        cache.pop(next(iter(cache)))
    return value


@dataclass
class Caches:
    """What finished tables give, kept because a finished table never changes."""

    #: a finished table's analysis, by table id
    analyses: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: a finished solo table's report (None: an abandoned table), by table id
    reports: dict[str, dict[str, Any] | None] = field(default_factory=dict)


def get_service(conn: HTTPConnection) -> Service:
    """The app's :class:`Service` (set by its lifespan)."""
    return site_of(conn).service


def get_store(conn: HTTPConnection) -> Store:
    """The app's store."""
    return site_of(conn).store


def get_caches(conn: HTTPConnection) -> Caches:
    """The app's caches of finished tables."""
    return site_of(conn).caches


ServiceDep = Annotated[Service, Depends(get_service)]
StoreDep = Annotated[Store, Depends(get_store)]
CachesDep = Annotated[Caches, Depends(get_caches)]
