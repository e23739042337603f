"""What ``meeple serve`` was asked, as plain values (:class:`ServeSpec`), and the app each of
its processes makes from it (:class:`WorkerApp`). With ``--workers`` N > 1 uvicorn's supervisor
(:mod:`meeple.server.workers`) sends both to each process it starts, by pickling them, so they
hold nothing that cannot be pickled, and importing this module loads only the web app (not the
command line's other commands)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI

from meeple.server.edge import EdgeConfig, uvicorn_settings
from meeple.settings import Settings
from meeple.store import Store
from meeple.web import create_web_app

#: uvicorn's settings for every ``meeple serve`` process: frames up to 1 MiB, no compression
#: (a frame is small and the CPU is better spent on moves), warnings and errors logged.
UVICORN: dict[str, Any] = {"ws_max_size": 1 << 20, "ws_per_message_deflate": False,
                           "log_level": "warning"}


def bot_workers_each(workers: int) -> int:
    """The bot workers of each of ``workers`` server processes when neither --bot-workers
    nor MEEPLE_BOT_WORKERS says: the cores divided among them, at least one each."""
    return max(1, (os.cpu_count() or 1) // workers)


@dataclass(frozen=True)
class ServeSpec:
    """What ``meeple serve`` was asked, as plain values: the supervisor of ``--workers``
    sends it to each process, which makes its settings, edge and app from it there."""

    host: str
    port: int
    options: dict[str, Any]
    bot_workers: int | None
    workers: int = 1

    def plan(self) -> tuple[Settings, EdgeConfig, list[str], dict[str, Any]]:
        """The settings, the edge, the trusted proxies and uvicorn's edge settings;
        :class:`~meeple.settings.SettingsError` or :class:`ValueError` for a bad one."""
        settings = serve_settings(self.host, self.port, self.options, self.bot_workers)
        if self.workers > 1 and not settings.bots.workers:
            settings = settings.model_copy(update={"bots": settings.bots.model_copy(
                update={"workers": bot_workers_each(self.workers)})})
        edge_set = settings.server
        edge = EdgeConfig.for_serve(
            self.host, edge_set.allowed_hosts, edge_set.allowed_origins,
            api_docs=edge_set.api_docs, head_timeout=edge_set.head_timeout,
            body_timeout=edge_set.body_timeout, per_client=edge_set.http_per_client)
        proxies = list(edge_set.trusted_proxies)
        return settings, edge, proxies, uvicorn_settings(edge, proxies)

    def http_protocol(self) -> type[Any]:
        """The edge's HTTP protocol class, made in the process that serves with it."""
        return self.plan()[3]["http"]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class WorkerApp:
    """One ``--workers`` process's app on the database at ``url`` (migrated already by the
    supervisor before it started any process)."""

    spec: ServeSpec
    url: str

    def __call__(self) -> FastAPI:
        settings, edge, _, _ = self.spec.plan()
        store = Store(self.url, table_seeds=settings.server.table_seeds)
        return create_web_app(store, edge=edge, settings=settings)


def serve_settings(host: str, port: int, edge_options: dict[str, Any],
                   bot_workers: int | None) -> Settings:
    """``meeple serve``'s settings: the environment's, with the options given on the command
    line in place of their variables (an option left out is None, or an empty list), and
    the links in mails on the address it listens on unless ``MEEPLE_PUBLIC_URL`` says
    otherwise. :class:`~meeple.settings.SettingsError` names a bad variable."""
    settings = Settings.from_env()
    given: dict[str, Any] = {}
    for name, value in edge_options.items():
        if isinstance(value, list):  # a repeatable option: its values, if any
            value = tuple(v for v in value if v.strip()) or None
        if value is not None:
            given[name] = value
    changes: dict[str, Any] = {"server": settings.server.model_copy(update=given)}
    if bot_workers:
        changes["bots"] = settings.bots.model_copy(update={"workers": bot_workers})
    if "public_url" not in settings.mail.model_fields_set:
        bracketed = f"[{host}]" if ":" in host else host
        changes["mail"] = settings.mail.model_copy(
            update={"public_url": f"http://{bracketed}:{port}"})
    return settings.model_copy(update=changes)
