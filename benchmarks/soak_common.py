"""What the two soak benchmarks share (``soak_kill9.py``, ``soak_load.py``): a real ``meeple
serve`` process whose start is timed, a WebSocket seat client that reconnects after a dropped
connection and keeps count of every acknowledged move, the mix of tables, process memory, and
the database (an SQLite file, or PostgreSQL: a URL, else a throwaway cluster).

Only the documented protocol (src/meeple/server/table/README.md) is used: the REST lobby, ``GET
.../log`` and the WebSocket frames ``hello``, ``move`` (with a move id) and their answers. The resend rule: a
move whose answer was lost with the connection is sent again, unchanged (same id, same
version), once the new connection has its view; the server answers ``ack`` (``resent`` if it
had stored it) or ``refused``, so it is never played twice and never played by a new decision
on an old view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.conftest import Server, _die_with_parent, free_port  # noqa: E402

from bench_server import _drop_pg, _fresh_pg, cpu_seconds  # noqa: E402

__all__ = ["ROOT", "SeatDriver", "TimedServer", "alive", "check_log", "cpu_seconds",
           "create_table", "database", "free_port", "median", "pct", "rss_kb", "table_spec"]

#: a seat client with a move sent and no answer for this long reconnects (a stuck seat)
STUCK_S = 60.0
#: a seat client that hears nothing for this long (not its turn) reconnects and re-reads
QUIET_S = 90.0


# ---------------------------------------------------------------------------- the server
class TimedServer(Server):
    """``tests.server.conftest.Server`` whose start is timed to 10 ms: ``started`` is the
    monotonic time of the process start (``Popen``), ``ready_s`` the seconds from there until
    ``GET /api/games`` answered 200, ``banner_s`` until it printed its URL (imports done,
    database opened and upgraded; the rest is building the app, resuming the unfinished tables
    and listening). ``generation`` counts the starts."""

    def __init__(self, url: str, port: int, log: Path, bot_workers: int = 1) -> None:
        super().__init__(url, port, log)
        self.env = {"MEEPLE_BOT_WORKERS": str(bot_workers)}
        self.generation = -1
        self.started = 0.0
        self.ready_s = 0.0
        self.banner_s = float("nan")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 180) -> None:
        env = {**os.environ, "MEEPLE_DATABASE_URL": self.db_url, **self.env}
        with self.log.open("ab") as out:
            offset = out.tell()
            self.banner_s = float("nan")
            self.started = time.monotonic()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "meeple", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port)], env=env, stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent)
        self.generation += 1
        deadline = self.started + timeout
        with httpx.Client(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
                if self.banner_s != self.banner_s:  # nan: not printed yet
                    with self.log.open("rb") as log:
                        log.seek(offset)
                        if b"meeple server at" in log.read():
                            self.banner_s = time.monotonic() - self.started
                try:
                    if http.get(self.base + "/api/games").status_code == 200:
                        self.ready_s = time.monotonic() - self.started
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.01)
        raise RuntimeError(f"server did not answer in {timeout:.0f} s")

    def descendants(self) -> list[int]:
        """The server's live child processes and theirs (its bot workers)."""
        return descendants(self.pid) if self.proc is not None else []


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                kids = [int(c) for c in task.read_text().split()]
                out += kids
                todo += kids
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not count)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def rss_kb(pid: int) -> int:
    """VmRSS of a process in kB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# ---------------------------------------------------------------------------- the database
@contextlib.contextmanager
def database(kind: str, workdir: Path, postgres: str | None) -> Iterator[tuple[str, str]]:
    """(label, SQLAlchemy URL) of a fresh database: an SQLite file in ``workdir``, or a new
    database on the PostgreSQL server ``postgres`` names (dropped after), or on a throwaway
    cluster started here (as scripts/postgres.sh does) and stopped after, by its pid."""
    if kind == "sqlite":
        yield "SQLite", f"sqlite:///{workdir / 'soak.db'}"
        return
    with contextlib.ExitStack() as stack:
        base = postgres or stack.enter_context(throwaway_postgres())
        url = _fresh_pg(base)
        try:
            yield "PostgreSQL", url
        finally:
            _drop_pg(base, url)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                  key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    if not bins:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql), and no "
                         "--postgres URL or MEEPLE_TEST_POSTGRES was given")
    bindir = bins[-1].parent
    tmp = Path(tempfile.mkdtemp(prefix="meeple-soak-pg."))
    run_as: list[str] = []
    if os.getuid() == 0:
        shutil.chown(tmp, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    pid = 0
    try:
        subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(tmp / "data"), "-U",
                        "postgres", "-A", "trust"], cwd="/", check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(tmp / "data"), "-l",
                        str(tmp / "log"), "-w", "-t", "60", "-o",
                        f"-h 127.0.0.1 -p {port} -k {tmp} -c fsync=off -c max_connections=300",
                        "start"], cwd="/", check=True, stdout=subprocess.DEVNULL)
        pid = int((tmp / "data" / "postmaster.pid").read_text().split()[0])
        print(f"throwaway PostgreSQL on 127.0.0.1:{port} (pid {pid})", file=sys.stderr)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        if pid:
            os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown
            deadline = time.monotonic() + 60
            while alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------- tables
#: the variants used per game and player count (Takenokolor's sheets fix the panda count)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "gardens": [{"level": 1}, {"level": 2}, {"level": 3}],
    "reefs": [{"level": 1}, {"level": 2}, {"level": 3}],
    "pergola": [{}],
    "takenokolor": [{"sheet": "2-pandas"}],
}
GAMES = ("gardens", "reefs", "takenokolor", "pergola")
#: table shapes: (name, seat kinds), "h" a person (a scripted client), "b" a bot
SHAPES = {
    "person+bot": "hb",
    "two people": "hh",
    "person+2 bots": "hbb",
    "solo": "h",
    "bots only": "bb",
}


def table_spec(index: int, rng: random.Random, shape: str | None = None,
               game: str | None = None, greedy: float = 0.25) -> dict[str, Any]:
    """The POST /api/tables body of table ``index`` of the mix: the games in turn, a shape
    (weights 3:2:1:1:3 unless given), random bots (a ``greedy`` share of ``greedy`` ones)."""
    game = game or GAMES[index % len(GAMES)]
    if shape is None:
        shape = rng.choices(list(SHAPES), weights=[3, 2, 1, 1, 3])[0]
    kinds = SHAPES[shape]
    variant = dict(rng.choice(VARIANTS[game]))
    if game == "takenokolor" and len(kinds) == 3:
        variant = {"sheet": "3-pandas"}
    if game == "pergola" and len(kinds) == 1:
        variant = {"challenge": rng.randint(1, 10)}
    seats = [{"kind": "human"} if k == "h" else
             {"kind": "bot", "bot": "greedy" if rng.random() < greedy else "random"}
             for k in kinds]
    body: dict[str, Any] = {"game": game, "variant": variant, "seats": seats,
                            "public": False}
    if "h" in kinds:
        body["join_as"] = "soak-0"
    return body


async def create_table(http: httpx.AsyncClient, body: dict[str, Any]
                       ) -> tuple[str, list[tuple[int, str]]]:
    """Create a table and take all its human seats: (table id, [(seat, secret)])."""
    r = await http.post("/api/tables", json=body)
    if not r.is_success:
        raise RuntimeError(f"POST /api/tables {body}: {r.status_code} {r.text}")
    j = r.json()
    table = j["table"]["id"] if "join_as" in body else j["id"]
    seats: list[tuple[int, str]] = []
    if "join_as" in body:
        seats.append((j["seat"], j["secret"]))
        for n in range(1, sum(1 for s in body["seats"] if s["kind"] == "human")):
            r = await http.post(f"/api/tables/{table}/join", json={"name": f"soak-{n}"})
            if not r.is_success:
                raise RuntimeError(f"join {table}: {r.status_code} {r.text}")
            seats.append((r.json()["seat"], r.json()["secret"]))
    return table, seats


# ---------------------------------------------------------------------------- a seat
@dataclass(eq=False)
class SeatDriver:
    """One human seat played by a script: random legal moves, each with its own move id.

    ``acked`` maps the log number of every acknowledged move (the version it was made at,
    plus one) to (text, id). ``pending`` is the move sent and not yet answered; after a
    dropped connection it is sent again unchanged (the resend rule). ``think`` is a range of
    seconds to wait before a move (frames are still read meanwhile)."""

    srv: TimedServer
    table: str
    seat: int
    secret: str
    rng: random.Random
    think: tuple[float, float] = (0.0, 0.0)
    tag: str = ""
    acked: dict[int, tuple[str, str]] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    version: int = -1
    view: dict[str, Any] = field(default_factory=dict)
    over: bool = False
    sent: int = 0
    #: (monotonic time, seconds from send to ack) of acks on the connection the move went by
    rtts: list[tuple[float, float]] = field(default_factory=list)
    #: (monotonic time, version) whenever a view raised the version this client knows
    seen: list[tuple[float, int]] = field(default_factory=list)
    record_seen: bool = False
    resends: int = 0
    resent_acks: int = 0
    refusals: list[str] = field(default_factory=list)
    connects: int = 0
    #: (server generation, seconds from that server's process start to this client's view)
    reconnect_view_s: list[tuple[int, float]] = field(default_factory=list)
    #: things that should not happen: unexpected frames, stuck or quiet seats, errors
    anomalies: list[str] = field(default_factory=list)
    _gen: int = -1

    @property
    def url(self) -> str:
        return f"{self.srv.ws_base}/ws/tables/{self.table}"

    async def run(self, deadline: float) -> None:
        """Play until the game is over (and no move is unanswered) or ``deadline``."""
        while time.monotonic() < deadline and not (self.over and self.pending is None):
            with contextlib.suppress(OSError, WebSocketException, TimeoutError):
                await self._session(deadline)
            if self.over and self.pending is None:
                return
            await asyncio.sleep(self.rng.uniform(0.05, 0.1))

    def our_turn(self) -> bool:
        return (not self.view.get("over") and self.view.get("to_move") == self.seat
                and bool(self.view.get("legal_moves")))

    async def _session(self, deadline: float) -> None:
        async with connect(self.url, open_timeout=10, close_timeout=1, ping_interval=None,
                           max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": self.seat,
                                      "secret": self.secret}))
            self.connects += 1
            has_view = False
            move_at: float | None = None
            while True:
                now = time.monotonic()
                if now >= deadline:
                    return
                if has_view and self.pending is None and self.our_turn():
                    if move_at is None:
                        move_at = now + self.rng.uniform(*self.think)
                    if now >= move_at:
                        move_at = None
                        await self._send_move(ws)
                        continue
                    wait = move_at - now
                else:
                    move_at = None
                    wait = STUCK_S if self.pending is not None else QUIET_S
                try:
                    raw = await asyncio.wait_for(ws.recv(), min(wait, deadline - now))
                except TimeoutError:
                    if move_at is not None or time.monotonic() >= deadline:
                        continue
                    what = "stuck: no answer to move " + json.dumps(
                        self.pending["frame"]) if self.pending else "quiet: no frame"
                    self.anomalies.append(f"{self.table} seat {self.seat} at version "
                                          f"{self.version}: {what} for {wait:.0f} s")
                    return  # reconnect, re-read the view, resend
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "view":
                    if frame["version"] >= self.version:
                        if frame["version"] > self.version and self.record_seen:
                            self.seen.append((time.monotonic(), frame["version"]))
                        self.version, self.view = frame["version"], frame["view"]
                    if not has_view:
                        has_view = True
                        self._connected()
                        if self.pending is not None:  # the resend rule
                            self.resends += 1
                            self.pending["resent"] = True
                            await ws.send(json.dumps(self.pending["frame"]))
                elif kind == "ack":
                    self._ack(frame)
                elif kind == "refused":
                    self._refused(frame)
                elif kind == "error":
                    self.anomalies.append(f"{self.table} seat {self.seat}: error {frame}")
                    if not has_view:
                        return
                elif kind != "welcome":
                    self.anomalies.append(f"{self.table} seat {self.seat}: frame {frame}")
                if self.view.get("over"):
                    self.over = True
                    if self.pending is None:
                        return

    async def _send_move(self, ws: Any) -> None:
        text = self.rng.choice(self.view["legal_moves"])
        self.sent += 1
        frame = {"type": "move", "move": text, "version": self.version,
                 "id": f"{self.tag}s{self.seat}-{self.sent}"}
        self.pending = {"frame": frame, "text": text, "version": self.version,
                        "at": time.perf_counter(), "resent": False}
        await ws.send(json.dumps(frame))

    def _connected(self) -> None:
        gen = self.srv.generation
        if self._gen >= 0 and gen > self._gen:
            self.reconnect_view_s.append((gen, time.monotonic() - self.srv.started))
        self._gen = gen

    def _ack(self, frame: dict[str, Any]) -> None:
        p = self.pending
        if p is None or frame.get("id") != p["frame"]["id"]:
            self.anomalies.append(f"{self.table} seat {self.seat}: ack of no pending move "
                                  f"{frame} (pending {p and p['frame']})")
            return
        number = p["version"] + 1
        if number in self.acked:
            self.anomalies.append(f"{self.table} seat {self.seat}: two acks for log number "
                                  f"{number}: {self.acked[number]} and {p['frame']}")
        self.acked[number] = (p["text"], p["frame"]["id"])
        if frame.get("resent"):
            self.resent_acks += 1
        elif not p["resent"]:
            self.rtts.append((time.monotonic(), time.perf_counter() - p["at"]))
        self.pending = None

    def _refused(self, frame: dict[str, Any]) -> None:
        p = self.pending
        if p is None or frame.get("id") != p["frame"]["id"]:
            self.anomalies.append(f"{self.table} seat {self.seat}: refusal of no pending move "
                                  f"{frame}")
            return
        self.refusals.append(("resent: " if p["resent"] else "") + str(frame.get("reason")))
        self.pending = None


def check_log(drivers: list[SeatDriver], log: list[dict[str, Any]],
              acked: dict[int, dict[int, tuple[str, str]]] | None = None
              ) -> tuple[list[str], list[str]]:
    """Compare a table's stored log with what its seat clients were told.

    Returns (lost, unexplained): ``lost`` are acknowledged moves (of ``acked``, a snapshot
    per seat, by default the clients' own) not at their log number with their seat and text;
    ``unexplained`` are stored moves of a client's seat that it neither had acknowledged nor
    has in flight: a move played twice, or played although the client was told otherwise."""
    by_number = {e["number"]: e for e in log}
    lost: list[str] = []
    for d in drivers:
        mine = acked[d.seat] if acked is not None else d.acked
        for number, (text, move_id) in sorted(mine.items()):
            e = by_number.get(number)
            if e is None or e["kind"] != "move" or e["seat"] != d.seat or e["text"] != text:
                lost.append(f"{d.table} seat {d.seat}: acked {move_id} {text!r} as log "
                            f"number {number}; the log has {e}")
    seats = {d.seat: d for d in drivers}
    unexplained: list[str] = []
    for e in log:
        d = seats.get(e["seat"])
        if d is None or e["kind"] != "move" or e["number"] in d.acked:
            continue
        if d.pending is not None and d.pending["version"] + 1 == e["number"]:
            continue  # in flight: stored, its ack not read yet
        unexplained.append(f"{d.table} seat {d.seat}: log number {e['number']} "
                           f"{e['text']!r} was never acknowledged to its client")
    return lost, unexplained


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest rank; nan for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
