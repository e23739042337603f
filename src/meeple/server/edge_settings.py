"""The edge's settings sections (``server``, ``quotas`` and ``hints`` in
:mod:`meeple.settings`): what ``meeple serve`` answers and from whom
(:mod:`meeple.server.edge`), the per-client limits (:mod:`meeple.server.quotas`) and the hint
lane (:mod:`meeple.server.lanes`).

Kept apart from the modules that read them, so the settings model is put together without the
web stack those import."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from meeple.sections import (
    A_COUNT,
    A_LIST,
    A_POSITIVE,
    A_RATE,
    SOME_POSITIVE,
    SOME_SECONDS,
    Count,
    Listed,
    Positive,
    PositiveSeconds,
    Rate,
    Seconds,
    Section,
    at_least,
    setting,
)

#: Seconds a hint may take, from the request, unless ``MEEPLE_HINT_DEADLINE`` says otherwise.
HINT_DEADLINE = 30.0


class ServerSettings(Section):
    title = "the edge: Hosts, origins, proxies, timeouts (meeple serve)"

    allowed_hosts: Listed = setting(
        "MEEPLE_ALLOWED_HOSTS", (), "Host names answered besides the loopback ones and --host "
        "(*.example.org for its subdomains, * for any); --allowed-host replaces them", A_LIST)
    allowed_origins: Listed = setting(
        "MEEPLE_ALLOWED_ORIGINS", (), "origins whose pages may open a WebSocket besides the "
        "server's own; --allowed-origin replaces them", "origins separated by commas")
    trusted_proxies: Listed = setting(
        "MEEPLE_TRUSTED_PROXIES", (), "reverse proxies (addresses or networks) whose "
        "X-Forwarded-For and -Proto are believed; --trusted-proxy replaces them",
        "addresses or networks separated by commas")
    api_docs: bool = setting("MEEPLE_API_DOCS", False, "serve Swagger UI at /docs",
                             "true or false (1 or 0)")
    head_timeout: Annotated[float, AfterValidator(at_least(0.1, high=600))] = setting(
        "MEEPLE_HEAD_TIMEOUT", 10.0, "seconds a request's head may take to arrive",
        "a number of seconds from 0.1 to 600")
    body_timeout: Annotated[float, AfterValidator(at_least(0.1, high=3600))] = setting(
        "MEEPLE_BODY_TIMEOUT", 30.0, "seconds a request's body may take after its head",
        "a number of seconds from 0.1 to 3600")
    http_per_client: Count = setting(
        "MEEPLE_HTTP_PER_CLIENT", 64, "HTTP connections one client may hold open at once "
        "(0: no cap)", A_COUNT)
    table_seeds: int | None = setting(
        "MEEPLE_TABLE_SEEDS", None, "tests and demos only: new tables' seeds follow from this "
        "number (unset: random)", "a whole number", empty_unset=True)


class QuotaSettings(Section):
    """The per-client limits."""

    title = "per-client limits"

    create: Rate = setting("MEEPLE_RATE_CREATE", "30/minute", "tables a client may create",
                           A_RATE)
    join: Rate = setting("MEEPLE_RATE_JOIN", "60/minute", "seats a client may join", A_RATE)
    hint: Rate = setting("MEEPLE_RATE_HINT", "120/minute", "hints a client may ask", A_RATE)
    analysis: Rate = setting("MEEPLE_RATE_ANALYSIS", "10/minute", "analyses a client may ask",
                             A_RATE)
    frames: Rate = setting("MEEPLE_RATE_FRAMES", "20/second", "WebSocket frames a connection "
                           "may send", A_RATE)
    client_frames: Rate = setting("MEEPLE_RATE_CLIENT_FRAMES", "200/second", "WebSocket frames "
                                  "all of a client's connections may send", A_RATE)
    frames_refused: Rate = setting(
        "MEEPLE_RATE_FRAMES_REFUSED", "100/10 seconds", "frames over their rate a connection "
        "may send before it is closed (1008)", A_RATE)
    open_tables: Count = setting("MEEPLE_OPEN_TABLES", 20, "open (waiting or running) tables "
                                 "a client may have created (0: no cap)", A_COUNT)
    sockets: Count = setting("MEEPLE_WS_PER_CLIENT", 64, "WebSocket connections a client may "
                             "hold at once (0: no cap)", A_COUNT)
    stale_waiting: Seconds = setting(
        "MEEPLE_STALE_WAITING", 3600.0, "seconds a waiting table may go without a seat taken "
        "or left before it is closed (0: never)", SOME_SECONDS)
    abandoned: Seconds = setting(
        "MEEPLE_ABANDONED", 7200.0, "seconds a running table with no turn clock may go with no "
        "move and nobody connected before it ends as abandoned (0: never)", SOME_SECONDS)


class LaneSettings(Section):
    """The hint lane's size, budgets and deadlines."""

    title = "the hint lane (hints and analyses)"

    workers: Count = setting("MEEPLE_HINT_WORKERS", 1, "worker processes (0: none, jobs run "
                             "in threads)", "a whole number, 0 or more")
    queue: Positive = setting("MEEPLE_HINT_QUEUE", 8, "jobs running or waiting in the lane at "
                              "once, from all clients", A_POSITIVE)
    per_client: Positive = setting("MEEPLE_HINT_PER_CLIENT", 2, "jobs running or waiting from "
                                   "one client", A_POSITIVE)
    cpu_per_minute: Seconds = setting(
        "MEEPLE_HINT_CPU", 30.0, "worker CPU seconds a client's jobs may take in any minute "
        "(0: no budget)", SOME_SECONDS)
    hint_deadline: Annotated[float | None, AfterValidator(
        lambda v: None if v is None else at_least(0, above=True)(v))] = setting(
        "MEEPLE_HINT_DEADLINE", None, f"seconds a hint may take from the request (unset: "
        f"{HINT_DEADLINE:g}, or the bots' deadline if longer)", SOME_POSITIVE, empty_unset=True)
    analysis_deadline: PositiveSeconds = setting(
        "MEEPLE_ANALYSIS_DEADLINE", 120.0, "seconds the analysis of a whole game may take from "
        "the request", SOME_POSITIVE, empty_unset=True)

    def hint_seconds(self, bot_deadline: float) -> float:
        """A hint's deadline: ``hint_deadline`` if set, else the larger of the default and
        the bots' deadline (a hint is a bot's decision)."""
        if self.hint_deadline is not None:
            return self.hint_deadline
        return max(HINT_DEADLINE, bot_deadline)


__all__ = ["HINT_DEADLINE", "LaneSettings", "QuotaSettings", "ServerSettings"]
