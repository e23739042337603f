"""The FastAPI app: the REST lobby under ``/api`` and one WebSocket per client.

``create_app(store)`` assembles it from the routers of :mod:`meeple.server.routes`;
``meeple serve`` runs it with uvicorn. The protocol is in :mod:`meeple.server.protocol` and
``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

import meeple
from meeple.server import errors, wslog
from meeple.server.botfair import ShareSettings
from meeple.server.botpool import deadline_from_env, kill_pool, make_pool
from meeple.server.chat import ChatHub, ChatSettings
from meeple.server.checks import StrictJsonBodies
from meeple.server.deps import Caches
from meeple.server.edge import EdgeApp, EdgeConfig, install_api_docs
from meeple.server.fanout import PgListener
from meeple.server.lanes import Lane, LaneSettings
from meeple.server.mail import Mailer, MailSettings
from meeple.server.nostore import NoStore
from meeple.server.notices import Notifier
from meeple.server.playnow import Matcher, PlayNowSettings
from meeple.server.quotas import Quotas, QuotaSettings
from meeple.server.routes import (
    accounts,
    chat,
    lobby,
    mail,
    passkeys,
    playnow,
    profiles,
    ratings,
    rules,
    sheets,
    solo,
    tables,
    ws,
)
from meeple.server.service import Service
from meeple.server.sessions import AccountService, AccountSettings, SessionGuard
from meeple.store import Store
from meeple.store.chat import Chat
from meeple.store.playnow import PlayQueue

DESCRIPTION = ("Play Pick a Pen: Gardens, Pick a Pen: Reefs, Takenokolor and Pergola online: a "
               "lobby of tables and a WebSocket per client. See docs/server.md.")


def create_app(store: Store, *, bot_workers: int | None = None, bots: bool = True,
               bot_deadline: float | None = None, edge: EdgeConfig | None = None) -> FastAPI:
    """The server app on ``store`` (already migrated). ``edge``: the Hosts and WebSocket
    origins it answers and whether ``/docs`` is served (:mod:`meeple.server.edge`; by default
    any Host, the server's own origin, no ``/docs``); the edge's checks and security headers
    come before everything else. No redirect adds or drops a trailing slash (Starlette's would
    write the request's Host into its ``location``)."""
    app = EdgeApp(title="meeple", version=meeple.__version__, description=DESCRIPTION,
                  lifespan=_lifespan(store, bot_workers, bots, bot_deadline),
                  docs_url=None, redoc_url=None, redirect_slashes=False)
    app.edge_config = edge or EdgeConfig()
    app.state.store = store
    app.state.caches = Caches()
    # (a one-click unsubscribe's body is a form's, RFC 8058)
    app.add_middleware(StrictJsonBodies, raw_suffixes=("/check", "/mail/one-click"))
    # accounts; a cookie-authenticated change needs its CSRF token
    settings = AccountSettings.from_env()
    app.state.accounts = AccountService(store, settings)
    # mail (sent only with MEEPLE_SMTP_URL), queued by the notifier, sent by the
    # mailer (started with the app)
    mail_settings = MailSettings.from_env()
    app.state.notifier = Notifier(store, mail_settings,
                                  Mailer(store, mail_settings, store.origin),
                                  settings.secret_key.encode() or None)
    app.add_middleware(SessionGuard)
    # the tables' chat
    app.state.chat = ChatHub(Chat(store), ChatSettings.from_env(), app.state.accounts)
    # the API's answers carry personal data, the CSRF token and seat secrets: no cache keeps them
    app.add_middleware(NoStore)
    wslog.install()  # a refused WebSocket handshake: logged in bounded form, not as an ERROR
    errors.install(app)
    for routes in (lobby, sheets, tables, solo, ws, accounts, passkeys, profiles, chat, ratings,
                   playnow, rules, mail):
        app.include_router(routes.router)
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


def _lifespan(store: Store, bot_workers: int | None, bots: bool, bot_deadline: float | None
              ) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's life: its :class:`Service` (on ``app.state.service``) with its bot workers,
    and on PostgreSQL the listener for other server processes' moves."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        shares = ShareSettings.from_env()  # (a bad setting stops the start before any worker)
        pool = make_pool(bot_workers) if bots else None
        service = Service(store, pool, bots=bots, new_pool=lambda: make_pool(bot_workers),
                          bot_deadline=bot_deadline or deadline_from_env(), shares=shares)
        app.state.service = service
        # per-client limits, the hint lane (apart from the bots' pool), and the
        # waiting tables nobody joined closed
        app.state.quotas = quotas = Quotas(QuotaSettings.from_env())
        app.state.lane = lane = Lane(LaneSettings.from_env(), processes=bots)
        lane.start()
        stale, abandoned = quotas.settings.stale_waiting, quotas.settings.abandoned
        sweeper = (asyncio.ensure_future(lobby.sweep_stale(store, service, stale, abandoned))
                   if stale or abandoned else None)
        fanout = None
        if store.dialect == "postgresql":
            fanout = PgListener(store.url, service, asyncio.get_running_loop(),
                                chat=app.state.chat)
            fanout.start()
        notifier: Notifier = app.state.notifier
        service.watchers.append(notifier.after_change)
        notifier.mailer.start()
        await service.start()
        # Play now's queue, matched by one process of the database at a time
        app.state.play_queue = queue = PlayQueue(store)
        app.state.matcher = matcher = Matcher(
            queue, PlayNowSettings.from_env(),
            lambda game: playnow.bot_shown_ratings(store, game), service.seats_changed,
            shown=lambda entry: playnow.shown_rating(store, entry.account_id, entry.game))
        matcher.start()
        tune_gc()
        try:
            yield
        finally:
            matcher.stop()
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
