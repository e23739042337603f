"""The FastAPI app: the REST lobby under ``/api`` and one WebSocket per client.

``create_app(store)`` assembles it: a :class:`~meeple.server.site.Site` (on ``app.state.site``,
the one entry there), the table core's routers (:mod:`meeple.server.table.routes`) and each
feature's ``wire(app, site)`` (:data:`FEATURES`); ``meeple serve`` runs it with uvicorn. The
protocol is in :mod:`meeple.server.table.protocol` and ``src/meeple/server/table/README.md``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

import meeple
from meeple.server import errors, wslog
from meeple.server.deps import Caches
from meeple.server.edge import EdgeApp, EdgeConfig, install_api_docs
from meeple.server.features import (
    accounts,
    challenges,
    chat,
    events,
    load_stores,
    mail,
    playnow,
    profiles,
    ratings,
    rules,
    sheets,
    solo,
    tablelife,
    tournaments,
)
from meeple.server.features.playnow import routes as playnow_routes
from meeple.server.features.playnow.service import Matcher
from meeple.server.features.playnow.store import PlayQueue
from meeple.server.features.tournaments.service import Scheduler
from meeple.server.features.tournaments.store import Tournaments
from meeple.server.lanes import Lane
from meeple.server.quotas import Quotas
from meeple.server.site import Site, site_in
from meeple.server.table.botpool import kill_pool, make_pool
from meeple.server.table.checks import StrictJsonBodies
from meeple.server.table.fanout import PgListener
from meeple.server.table.nostore import NoStore
from meeple.server.table.routes import lobby, tables, ws
from meeple.server.table.service import Service
from meeple.settings import Settings
from meeple.store import Store

#: Each feature's ``wire(app, site)``, in the order they are wired: accounts first (mail and
#: chat use the site's accounts, the table core its identity); chat registers its frames and
#: notices in the site's ``sockets``.
FEATURES = (accounts.wire, mail.wire, chat.wire, sheets.wire, solo.wire, profiles.wire,
            ratings.wire, playnow.wire, rules.wire, tablelife.wire, challenges.wire,
            tournaments.wire, events.wire)

DESCRIPTION = ("Play Pick a Pen: Gardens, Pick a Pen: Reefs, Takenokolor and Pergola online: a "
               "lobby of tables and a WebSocket per client. See docs/server.md.")


def create_app(store: Store, *, bot_workers: int | None = None, bots: bool = True,
               bot_deadline: float | None = None, edge: EdgeConfig | None = None,
               settings: Settings | None = None) -> FastAPI:
    """The server app on ``store`` (already migrated). ``edge``: the Hosts and WebSocket
    origins it answers and whether ``/docs`` is served (:mod:`meeple.server.edge`; by default
    any Host, the server's own origin, no ``/docs``); the edge's checks and security headers
    come before everything else. No redirect adds or drops a trailing slash (Starlette's would
    write the request's Host into its ``location``). ``settings``: each service's section
    (:mod:`meeple.settings`); None reads them from the environment now (a bad value raises
    :class:`~meeple.settings.SettingsError`). ``bot_workers`` and ``bot_deadline``, when
    given, take the place of theirs."""
    settings = settings or Settings.from_env()
    app = EdgeApp(title="meeple", version=meeple.__version__, description=DESCRIPTION,
                  lifespan=_lifespan(store, settings, bot_workers, bots, bot_deadline),
                  docs_url=None, redoc_url=None, redirect_slashes=False)
    app.edge_config = edge or EdgeConfig()
    site = Site(store, Caches(), settings)
    app.state.site = site
    # (a one-click unsubscribe's body is a form's, RFC 8058)
    app.add_middleware(StrictJsonBodies, raw_suffixes=("/check", "/mail/one-click"))
    for router in (lobby.router, tables.router, ws.router):
        app.include_router(router)
    load_stores()  # every feature's rows and account-erased hook, before any request
    for wire in FEATURES:
        wire(app, site)
    # the API's answers carry personal data, the CSRF token and seat secrets: no cache keeps them
    app.add_middleware(NoStore)
    wslog.install()  # a refused WebSocket handshake: logged in bounded form, not as an ERROR
    errors.install(app)
    if app.edge_config.api_docs:
        install_api_docs(app)
    return app


#: The cyclic garbage collector's thresholds while serving (Python's default: 700, 10, 10).
GC_THRESHOLDS = (20_000, 50, 100)


def tune_gc() -> None:
    """Set the garbage collector for a server: what was made at start-up (the modules, the
    games' tables) is frozen out of its reach, and it runs after 20,000 new objects instead
    of 700. A move makes thousands of short-lived objects (views as JSON data, positions),
    nearly none of them in a cycle, so at the default the collector ran several times a
    move over every young object; measured at 100 tables of two clients (bench_server.py),
    0.58 -> 0.46 server CPU-ms a log entry. Memory held in cycles waits a little longer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _lifespan(store: Store, settings: Settings, bot_workers: int | None, bots: bool,
              bot_deadline: float | None
              ) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's life: its :class:`Service` (the site's ``service``) with its bot workers,
    and on PostgreSQL the listener for other server processes' moves."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        site = site_in(app)
        workers = bot_workers or settings.bots.workers
        pool = make_pool(workers) if bots else None
        service = Service(store, pool, bots=bots, new_pool=lambda: make_pool(workers),
                          bot_deadline=bot_deadline or settings.bots.deadline,
                          shares=settings.bot_shares, testing=settings.testing,
                          identity=site.identity)
        site.service = service
        # per-client limits, the hint lane (apart from the bots' pool), and the
        # waiting tables nobody joined closed
        site.quotas = quotas = Quotas(settings.quotas)
        site.lane = lane = Lane(settings.hints, processes=bots)
        lane.start()
        stale, abandoned = quotas.settings.stale_waiting, quotas.settings.abandoned
        sweeper = (asyncio.ensure_future(lobby.sweep_stale(store, service, stale, abandoned))
                   if stale or abandoned else None)
        fanout = None
        if store.dialect == "postgresql":
            fanout = PgListener(store.url, service, asyncio.get_running_loop(),
                                notices=site.sockets.notices)
            fanout.start()
        notifier = site.notifier
        service.watchers.append(notifier.after_change)
        notifier.mailer.start()
        await service.start()
        # Play now's queue, matched by one process of the database at a time
        site.play_queue = queue = PlayQueue(store)
        site.matcher = matcher = Matcher(
            queue, settings.play_now,
            lambda game: playnow_routes.bot_shown_ratings(store, game), service.seats_changed,
            shown=lambda entry: playnow_routes.shown_rating(store, entry.account_id, entry.game))
        matcher.start()
        # the tournaments: started, paired and finished by one process of the database at a time
        site.tournaments = scheduler = Scheduler(Tournaments(store), service.seats_changed)
        scheduler.start()
        tune_gc()
        try:
            yield
        finally:
            matcher.stop()
            scheduler.stop()
            if sweeper is not None:
                sweeper.cancel()
            lane.stop()
            notifier.mailer.stop()
            notifier.stop()
            await service.stop()
            if fanout is not None:
                fanout.stop()
            if service.bots.pool is not None:
                kill_pool(service.bots.pool)

    return lifespan


__all__ = ["create_app"]
