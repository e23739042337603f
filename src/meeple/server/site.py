"""The site: one typed object holding what the routes reach (the store, the table core's
services and each feature's service), in place of untyped services on ``app.state``.

:func:`meeple.server.app.create_app` makes it and puts it on ``app.state.site`` (the one entry
there); each feature's ``wire(app, site)`` builds its service into it, and the app's lifespan
sets the services that live while the app runs. A route reaches it through :data:`SiteDep`, or
through the typed dependency of the one service it needs (``ServiceDep``, ``AccountsDep`` ...).

The features' types are named for the type checker only: at run time this module imports
nothing of a feature, so a feature may import it without depending on another feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, FastAPI
from starlette.requests import HTTPConnection

from meeple.server.table.sockets import SocketRegistry

if TYPE_CHECKING:
    from meeple.server.deps import Caches
    from meeple.server.features.accounts.sessions import AccountService
    from meeple.server.features.chat.service import ChatHub
    from meeple.server.features.events.service import EventStreams
    from meeple.server.features.mail.notices import Notifier
    from meeple.server.features.playnow.service import Matcher
    from meeple.server.features.playnow.store import PlayQueue
    from meeple.server.features.tournaments.service import Scheduler
    from meeple.server.identity import Identity
    from meeple.server.lanes import Lane
    from meeple.server.quotas import Quotas
    from meeple.server.table.service import Service
    from meeple.settings import Settings
    from meeple.store import Store


@dataclass(eq=False)
class Site:
    """What one app serves with. A field not yet set (a lifespan's service before the app
    started) raises AttributeError when read, as ``app.state`` did."""

    #: the store (already migrated)
    store: Store
    #: what finished tables give, kept in memory
    caches: Caches
    #: the settings in force (:mod:`meeple.settings`), read once at start-up
    settings: Settings
    #: who is signed in and who may act for a seat (:mod:`meeple.server.identity`), as the
    #: table core asks it: the accounts feature's service, set by its wire (None: no accounts)
    identity: Identity | None = field(default=None, init=False)
    #: what the features add to a table's WebSocket and to the fan-out: their frame handlers,
    #: hooks and notice codes (:mod:`meeple.server.table.sockets`), registered by their wire
    sockets: SocketRegistry = field(default_factory=SocketRegistry, init=False)
    # each feature's service, built by its wire() as the app is made
    #: accounts, sessions and their limits (accounts)
    accounts: AccountService = field(init=False)
    #: the mail queued on a table's changes, and its mailer (mail)
    notifier: Notifier = field(init=False)
    #: the tables' chat (chat)
    chat: ChatHub = field(init=False)
    #: the account event streams open in this process (events)
    events: EventStreams = field(init=False)
    # set by the app's lifespan while it runs
    #: the table core: tables in memory, moves, bots
    service: Service = field(init=False)
    #: per-client limits
    quotas: Quotas = field(init=False)
    #: the hint lane, apart from the bots' pool
    lane: Lane = field(init=False)
    #: Play now's queue and its matcher (playnow)
    play_queue: PlayQueue = field(init=False)
    matcher: Matcher = field(init=False)
    #: the tournaments' scheduler (tournaments)
    tournaments: Scheduler = field(init=False)


def site_in(app: FastAPI) -> Site:
    """The :class:`Site` of ``app``."""
    site: Site = app.state.site
    return site


def site_of(conn: HTTPConnection) -> Site:
    """The :class:`Site` of the app a request or WebSocket came to."""
    return site_in(conn.app)


SiteDep = Annotated[Site, Depends(site_of)]
