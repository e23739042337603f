"""A real ``meeple serve`` process on 127.0.0.1 for the server tests, on SQLite (and on
PostgreSQL when ``MEEPLE_TEST_POSTGRES`` names a server URL, as .ci/run sets it)."""

from __future__ import annotations

import os
import random
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

PG_ENV = "MEEPLE_TEST_POSTGRES"

#: One TLS context for every test client. The servers here speak plain HTTP, but an
#: ``httpx.Client`` builds a context when it is made unless given one, and building one loads
#: the CA bundle: about 40 ms, which a fresh client per request (``httpx.get``) paid each time.
TLS = ssl.create_default_context()


#: The per-client limits (issue 51) off on every test server: a test module makes hundreds of
#: tables, sockets and frames from 127.0.0.1, which the defaults (docs/server.md) would refuse.
#: The tests of the limits set their own (tests/server/test_quotas.py, test_lanes.py).
TEST_LIMITS = {
    "MEEPLE_RATE_CREATE": "off", "MEEPLE_RATE_JOIN": "off", "MEEPLE_RATE_HINT": "off",
    "MEEPLE_RATE_ANALYSIS": "off", "MEEPLE_RATE_FRAMES": "off",
    "MEEPLE_RATE_CLIENT_FRAMES": "off", "MEEPLE_OPEN_TABLES": "0", "MEEPLE_WS_PER_CLIENT": "0",
    "MEEPLE_HINT_PER_CLIENT": "100", "MEEPLE_HINT_QUEUE": "100", "MEEPLE_HINT_CPU": "0",
    # issue 52: sign-ins and sign-ups (tests/server/test_accounts.py sets its own)
    "MEEPLE_RATE_SIGNIN": "off", "MEEPLE_RATE_SIGNIN_USER": "off", "MEEPLE_RATE_SIGNUP": "off",
    # issue 54: chat messages and reports (tests/server/test_chat.py sets its own)
    "MEEPLE_RATE_CHAT": "off", "MEEPLE_RATE_REPORT": "off",
    # issue 58: connections, passkey ceremonies, password changes and hashing, chat per
    # address and per table (tests/server/test_limits.py sets its own)
    "MEEPLE_HTTP_PER_CLIENT": "0", "MEEPLE_RATE_PASSWORD": "off", "MEEPLE_HASH_PER_CLIENT": "0",
    "MEEPLE_RATE_CHAT_CLIENT": "off", "MEEPLE_RATE_CHAT_TABLE": "off",
    "MEEPLE_RATE_CEREMONY": "off",
}


def _die_with_parent() -> None:
    """In the child before exec: if the test process dies (killed, interrupted), the server
    it started dies too (Linux PR_SET_PDEATHSIG), so no server outlives its test run."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


#: Where :func:`free_port` picks: below Linux's ephemeral range (32768-60999), from which the
#: kernel takes the port of every outgoing connection. A port the kernel handed out with
#: ``bind(0)`` is one of those, and between the test freeing it and the server binding it a
#: client connection (the tests make thousands: HTTP, WebSocket, PostgreSQL) could take it:
#: "address already in use" and a failed test, seen once in CI.
PORTS = range(20000, 32768)
_ports = random.Random(os.getpid() ^ time.time_ns())


def free_port() -> int:
    """A port on 127.0.0.1 no socket holds now, picked at random outside the ephemeral range
    (two test workers pick the same one about once in 12,000 tries; a server's first start
    then moves to another port, :meth:`Server.start`)."""
    for _ in range(200):
        port = _ports.choice(PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1} after 200 tries")


class PortTaken(RuntimeError):
    """The server could not listen: another process took its port after it was picked."""


class Server:
    """One server process; ``restart(kill=True)`` kills it with SIGKILL and starts it again."""

    def __init__(self, url: str, port: int, log: Path) -> None:
        self.db_url = url
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.env: dict[str, str] = {}
        self.workers = 1  # processes of ``meeple serve --workers`` (PostgreSQL only above 1)
        self.started = False  # once started, the port is kept (restarts come back to it)
        # one keep-alive client per thread (the race tests call api() from threads), all
        # closed when the server stops, so no request reuses a connection to a dead process
        self._local = threading.local()
        self._clients: list[httpx.Client] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the server and wait until it answers. On its first start only (no client
        knows its port yet), a port another process took in the meantime is given up for
        another one, up to three times; a restart keeps its port (its clients come back
        to it)."""
        tries = 1 if self.started else 3
        for attempt in range(1, tries + 1):
            try:
                self._start()
            except PortTaken:
                if attempt == tries:
                    raise
                self.port = free_port()
                self.base = f"http://127.0.0.1:{self.port}"
                self.ws_base = f"ws://127.0.0.1:{self.port}"
                continue
            self.started = True
            return

    def _start(self) -> None:
        self._drop_clients()  # (a process that died by itself leaves them to a dead port)
        env = {**os.environ, "MEEPLE_DATABASE_URL": self.db_url, "MEEPLE_BOT_WORKERS": "1",
               **TEST_LIMITS}
        # the same tables on every run (issue 36: a test that reads a random table may pass or
        # fail by the table it got); MEEPLE_TEST_TABLE_SEEDS=N tries other tables, empty: random
        seeds = os.environ.get("MEEPLE_TEST_TABLE_SEEDS", "36")
        if seeds:
            env["MEEPLE_TABLE_SEEDS"] = seeds
        env.update(self.env)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "meeple", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--workers", str(self.workers)], env=env,
                stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 180
        with httpx.Client(verify=TLS, timeout=1) as probe:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    said = self.log.read_text()[-2000:]
                    if f"('127.0.0.1', {self.port}): address already in use" in said:
                        raise PortTaken(said)
                    raise RuntimeError(f"server exited: {said}")
                try:
                    if probe.get(self.base + "/api/games").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
        raise RuntimeError("server did not start in 180 s")

    def worker_pids(self) -> set[int]:
        """The live processes ``--workers`` started (the supervisor's spawned children; not
        multiprocessing's resource tracker)."""
        assert self.proc is not None
        pids = set()
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*/children"):
            for child in task.read_text().split():
                try:
                    cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
                except OSError:
                    continue
                if b"spawn_main" in cmdline:
                    pids.add(int(child))
        return pids

    def _drop_clients(self) -> None:
        with self._lock:
            for client in self._clients:
                client.close()
            self._clients.clear()
            self._local = threading.local()

    def stop(self, kill: bool = False) -> None:
        self._drop_clients()
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()

    def http(self) -> httpx.Client:
        """This thread's keep-alive client for the server (made on first use)."""
        client: httpx.Client | None = getattr(self._local, "client", None)
        if client is None:
            # idle connections are dropped after 2 s, before uvicorn's 5 s keep-alive ends
            # them from its side (a request sent as the server closes would fail)
            client = httpx.Client(base_url=self.base, timeout=120, verify=TLS,
                                  limits=httpx.Limits(keepalive_expiry=2))
            with self._lock:
                self._clients.append(client)
            self._local.client = client
        return client

    def api(self, method: str, path: str, **kw: object) -> httpx.Response:
        return self.http().request(method, path, **kw)  # type: ignore[arg-type]


#: The stores a server test runs on. A module whose subject is the store (durability, crashes,
#: fan-out between processes, stored sheets and scores, the store's own edge values) runs on
#: both, the default. A module or test whose subject is the protocol, the rules, the parsers or
#: the page, where the store only keeps what it is given, says ``pytestmark = SQLITE_ONLY``
#: (issue 36: the suite's time; each store-touching feature keeps at least one test on both).
STORES = ["sqlite", "postgresql"]
SQLITE_ONLY = pytest.mark.sqlite_only


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``SQLITE_ONLY``: a test so marked is not run with its server on PostgreSQL (it is
    deselected there; a test of the module that starts no server is left as it is)."""
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_pg = params.get("db_url") == "postgresql"
        (dropped if on_pg and item.get_closest_marker("sqlite_only") else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(scope="module", params=STORES)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'meeple.db'}"
        return
    yield from pg_database("meeple_test")


def pg_database(prefix: str) -> Iterator[str]:
    """(For a fixture to yield from.) The URL of a fresh database on the test PostgreSQL
    (``MEEPLE_TEST_POSTGRES``; the test is skipped without it), dropped afterwards."""
    import psycopg

    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"PostgreSQL is not available ({PG_ENV} unset; scripts/test starts one)")
    name = f"{prefix}_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    admin = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    head, _, _ = base.rpartition("/")
    yield f"{head}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
