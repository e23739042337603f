"""Several server processes on one address: ``meeple serve --workers N``.

uvicorn's own supervisor (:class:`uvicorn.supervisors.Multiprocess`) starts N spawned
processes, pings them, and starts a new one in place of one that dies; :class:`Supervisor`
gives each process a listening socket of its own on the same address (``SO_REUSEPORT``: the
kernel spreads new connections evenly over the sockets). With uvicorn's one socket shared by
all, the process that was idle took nearly every connection (measured: every one of a run of
sequential requests landed on the same process), so one process served all the tables while
the other waited. A process that dies takes its socket with it: the supervisor binds a new
one for its replacement, and until that one listens every new connection goes to the others
(the connections waiting in the dead socket's queue are refused; a page reconnects). Each
process builds
its own app, store and bot pool; they share the tables through PostgreSQL (LISTEN/NOTIFY,
:mod:`meeple.server.table.fanout`). The supervisor sends its configuration to each process by
pickling it, so what cannot be pickled (the app, the edge's HTTP protocol class made by
:func:`meeple.server.edge.http_protocol`) is made in the process by factories that can.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess
from uvicorn.supervisors.multiprocess import Process

log = logging.getLogger("uvicorn.error")

#: The response header naming the process that answered (its pid), sent only with
#: ``--workers`` N > 1: an operator (and the tests) can tell which process a request or a
#: WebSocket landed on. A process id says nothing about a player or a secret.
PROCESS_HEADER = b"x-meeple-process"

ASGIApp = Callable[..., Any]

#: Seconds the supervisor waits for a process to answer its ping before it kills it and
#: starts another (uvicorn's default, 5, is shorter than loading the app takes on a busy
#: machine, so new processes were killed before they could answer). A process that died is
#: seen at once, whatever this is.
HEALTHCHECK_SECONDS = 120


class ProcessHeader:
    """ASGI middleware: :data:`PROCESS_HEADER` on every HTTP response and WebSocket handshake."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.header = (PROCESS_HEADER, str(os.getpid()).encode())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = self.header

        async def send_named(message: dict[str, Any]) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        await self.app(scope, receive, send_named)


def stop_with_supervisor(supervisor: int) -> None:
    """In a worker process: SIGTERM when the supervisor that started it (pid ``supervisor``)
    dies (Linux ``PR_SET_PDEATHSIG``), so that a supervisor killed with SIGKILL leaves no
    process serving on without it (and none that nobody would restart)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    if os.getppid() != supervisor:  # it died before the line above: stop now
        os.kill(os.getpid(), signal.SIGTERM)


class WorkersConfig(uvicorn.Config):
    """uvicorn's configuration for N processes. ``app_factory`` (called in each process)
    makes its app; ``http_factory`` its HTTP protocol class. Both must pickle (a module-level
    function, or a bound method of a dataclass of plain values)."""

    def __init__(self, app_factory: Callable[[], ASGIApp],
                 http_factory: Callable[[], type[Any]], **kw: Any) -> None:
        super().__init__(app=_WorkerApp(app_factory), factory=True,
                         timeout_worker_healthcheck=HEALTHCHECK_SECONDS, **kw)
        self.http_factory = http_factory

    def load(self) -> None:
        self.http = self.http_factory()
        super().load()


class _WorkerApp:
    """The app factory run in each worker: stop with the supervisor, build the app, name the
    process in its answers."""

    def __init__(self, app_factory: Callable[[], ASGIApp]) -> None:
        self.app_factory = app_factory
        self.supervisor = os.getpid()  # made in the supervisor, sent to each worker

    def __call__(self) -> ASGIApp:
        stop_with_supervisor(self.supervisor)
        return ProcessHeader(self.app_factory())


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` that other sockets of this user may bind too
    (``SO_REUSEPORT``), to be handed to one process (it listens on it)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def address_free(host: str, port: int) -> None:
    """:class:`OSError` if something listens on ``host:port`` already (a socket bound with
    ``SO_REUSEPORT`` by another server of the same user would otherwise share its
    connections with it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


class Supervisor(Multiprocess):
    """uvicorn's supervisor with a socket of its own for each process (:func:`listening_socket`);
    a process that dies is replaced on a new socket. Changing the number of processes while
    running (SIGTTIN, SIGTTOU) and restarting them all (SIGHUP) are not offered: restart
    ``meeple serve``."""

    def __init__(self, config: uvicorn.Config) -> None:
        address_free(config.host, config.port)
        super().__init__(config, [listening_socket(config.host, config.port)
                                  for _ in range(config.workers)])
        self.failed = False  # a process could not start its app: all were stopped

    def init_processes(self) -> None:
        for sock in self.sockets:
            process = Process(self.config, [sock])
            process.start()
            self.processes.append(process)

    def keep_subprocess_alive(self) -> None:
        for idx, process in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # (hung: it did not answer the ping)
            process.join()
            if process.exitcode == STARTUP_FAILURE:  # the app cannot start: no use retrying
                log.error("a server process [%s] failed to start: stopping", process.pid)
                self.failed = True
                self.should_exit.set()
                return
            log.warning("server process [%s] ended (exit code %s): starting another",
                        process.pid, process.exitcode)
            self.sockets[idx].close()
            self.sockets[idx] = listening_socket(self.config.host, self.config.port)
            process = Process(self.config, [self.sockets[idx]])
            process.start()
            self.processes[idx] = process

    def handle_hup(self) -> None:
        log.warning("SIGHUP ignored: restart meeple serve to restart its processes")

    def handle_ttin(self) -> None:
        log.warning("SIGTTIN ignored: restart meeple serve with another --workers")

    def handle_ttou(self) -> None:
        log.warning("SIGTTOU ignored: restart meeple serve with another --workers")


def run_workers(config: WorkersConfig) -> bool:
    """Serve on ``config``'s host and port with ``config.workers`` processes until SIGINT or
    SIGTERM (then each process is stopped and waited for): True, or False if a process could
    not start its app (and all were stopped). :class:`OSError` if the address cannot be
    bound."""
    supervisor = Supervisor(config)
    try:
        supervisor.run()
    finally:
        for sock in supervisor.sockets:
            sock.close()
    return not supervisor.failed


__all__ = ["PROCESS_HEADER", "ProcessHeader", "Supervisor", "WorkersConfig", "run_workers"]
