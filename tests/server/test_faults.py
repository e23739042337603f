"""Faults injected from outside into real ``meeple serve`` processes (issue 35).

* PostgreSQL stopped in the middle of a game and started again (a cluster of the test's own);
* the SQLite file on a full file system (a small tmpfs filled up), then space given back;
* the SQLite file on a read-only file system (tmpfs remounted ro), then remounted rw;
* a bot worker process killed with SIGKILL while a slow bot thinks.

Each time: a move gets a clear refusal (a frame, never a dropped connection or a hang), REST
calls a clear 503 with ``{"detail"}``, the server keeps answering, nothing acknowledged is lost,
and once the fault is gone the server resumes by itself (moves accepted, bots carry on, the
person's game finishes; after a bot worker's kills, three more moves of the two-second bot
show the new pool deciding; ``MEEPLE_WHOLE_GAMES=1`` plays that game and the bots' out too).
Every process a test starts is stopped by its pid; servers listen on 127.0.0.1 only. The
figures of a run (moves acknowledged before and after, time to resume) are printed; ``pytest
-s`` shows them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from meeple.core.rng import Rng
from meeple.store import Store, StoreUnavailable, sqlite_url
from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_play import create

#: Seconds within which a move or a request must be answered, fault or not (no hang).
ANSWER = 30.0
#: Seconds within which service must be back once the fault is gone.
RESUME = 30.0
#: A bot that thinks for two seconds a turn (no iteration budget: the wall-clock cap only).
SLOW_BOT = "mcts:iterations=0,seconds=2"
#: The bots of a table of bots only: still thinking (half a second a turn) while a fault lasts.
BUSY_BOT = "mcts:iterations=0,seconds=0.5"
GAME, VARIANT = "reefs", {"level": 1}
#: The shortest turn clock a table may have (seconds).
CLOCK = 5


# ---------------------------------------------------------------------------- the game side
class Game:
    """A person's seat over a WebSocket at a table with a bot seat, and every move of theirs
    the server acknowledged: (its log number, its text)."""

    def __init__(self, server: Server, bot: str, rng_seed: int = 35) -> None:
        self.server = server
        joined = create(server, GAME, VARIANT, [{"kind": "human"}, {"kind": "bot", "bot": bot}],
                        join_as="Ann")
        self.table, self.seat, self.secret = (joined["table"]["id"], joined["seat"],
                                              joined["secret"])
        self.rng = Rng(rng_seed)
        self.acked: list[tuple[int, str]] = []
        self.made = 0
        self.player = Player(server.ws_base, self.table, self.seat, self.secret)

    def reconnect(self) -> None:
        with contextlib.suppress(Exception):
            self.player.close()
        self.player = Player(self.server.ws_base, self.table, self.seat, self.secret)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.player.close()

    def wait_turn(self, timeout: float = 120) -> bool:
        return self.player.wait_turn(timeout)

    def next_move(self) -> tuple[str, str, int]:
        """A random legal move, a fresh move id and the log number the move would get."""
        self.made += 1
        text = self.rng.choice(self.player.view["legal_moves"])
        return text, f"f{self.made}", self.player.version + 1

    def move(self, text: str, move_id: str) -> dict[str, Any]:
        """Send a move; the server's answer to it, which must come within ``ANSWER`` seconds
        on a connection that stays open."""
        p = self.player
        p.send({"type": "move", "move": text, "version": p.version, "id": move_id})
        deadline = time.monotonic() + ANSWER
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer to move {move_id} within {ANSWER} s (a hang)"
            try:
                got = p.recv(left)
            except TimeoutError:
                raise AssertionError(f"no answer to move {move_id} within {ANSWER} s") from None
            except ConnectionClosed as exc:
                raise AssertionError(f"the connection dropped on move {move_id}: {exc!r}") from None
            if got["type"] in ("ack", "refused", "error"):
                return got

    def play(self, count: int) -> int:
        """Up to ``count`` moves, each acknowledged; returns how many (fewer if the game ended)."""
        done = 0
        while done < count and self.wait_turn():
            text, move_id, number = self.next_move()
            got = self.move(text, move_id)
            assert got["type"] == "ack", got
            self.acked.append((number, text))
            done += 1
        return done

    def play_out(self) -> int:
        made = 0
        while self.wait_turn(180):
            made += self.play(1)
        assert self.player.view["over"], "the game did not finish"
        return made

    def until_acked(self, text: str, move_id: str, number: int, timeout: float = RESUME
                    ) -> tuple[float, int]:
        """Send the same move (same id) until it is acknowledged: the seconds that took and
        the tries. Meanwhile only the store's refusals (``retry``) are allowed."""
        start, tries = time.monotonic(), 0
        while True:
            tries += 1
            got = self.move(text, move_id)
            if got["type"] == "ack":
                self.acked.append((number, text))
                return time.monotonic() - start, tries
            assert unavailable(got), got
            assert time.monotonic() - start < timeout, (
                f"not accepted again within {timeout} s ({tries} tries); the last answer: {got}")
            time.sleep(0.2)

    def lost(self, log: dict[int, str] | None = None) -> list[tuple[int, str]]:
        """Acknowledged moves missing from the stored log (read over REST)."""
        log = stored_log(self.server, self.table) if log is None else log
        return [(n, t) for n, t in self.acked if log.get(n) != t]


def stored_log(server: Server, table: str) -> dict[int, str]:
    r = server.api("GET", f"/api/tables/{table}/log")
    assert r.status_code == 200, r.text
    return {e["number"]: e["text"] for e in r.json()}


def unavailable(frame: dict[str, Any]) -> bool:
    """A refusal because the store is unavailable: says so, and to try again."""
    return (frame["type"] in ("refused", "error") and frame.get("retry") is True
            and "unavailable" in frame["reason"] and "again" in frame["reason"])


def assert_503(r: Any) -> None:
    assert r.status_code == 503, (r.status_code, r.text)
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "unavailable" in detail and "again" in detail, detail


def assert_answering(server: Server, game: Game) -> None:
    """The server still answers: REST without the store, and the WebSocket (ping)."""
    assert server.api("GET", "/api/games").status_code == 200
    game.player.send({"type": "ping"})
    assert game.player.expect("pong", ANSWER)["type"] == "pong"


def hello_during_fault(server: Server, table: str) -> dict[str, Any]:
    """A spectator's hello while the store is down: its answer (the connection must stay open:
    a ping after it is answered)."""
    with connect(f"{server.ws_base}/ws/tables/{table}", open_timeout=ANSWER,
                 ping_interval=None, close_timeout=5) as ws:
        try:
            ws.send(json.dumps({"type": "hello"}))
            first: dict[str, Any] = json.loads(ws.recv(timeout=ANSWER))
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(timeout=ANSWER))["type"] != "pong":
                pass
        except TimeoutError:
            raise AssertionError(f"no answer to a hello within {ANSWER} s") from None
        except ConnectionClosed as exc:
            raise AssertionError(f"the connection dropped on a hello: {exc!r}") from None
        return first


def version_of(server: Server, table: str) -> int:
    r = server.api("GET", f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    v: int = r.json()["version"]
    return v


def wait_finished(server: Server, table: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while (info := server.api("GET", f"/api/tables/{table}").json())["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not finish: {info}"
        time.sleep(0.3)


def bots_finish(server: Server, table: str) -> None:
    """The bots' table after a fault: it has carried on (``bots_resume``), and the person's
    game has ended, which proves a game ends after the fault; ``MEEPLE_WHOLE_GAMES=1`` waits
    for the bots' game to end too (about 20 s of their thinking, issue 36)."""
    if os.environ.get("MEEPLE_WHOLE_GAMES") == "1":
        wait_finished(server, table)


def bots_table(server: Server) -> str:
    """A table of two thinking bots that runs by itself through the fault."""
    made = create(server, GAME, VARIANT, [{"kind": "bot", "bot": BUSY_BOT}] * 2)
    table: str = made["id"]
    return table


def bots_playing(server: Server, table: str, moves: int = 4, timeout: float = 120) -> None:
    """Wait until the bots of ``table`` have played ``moves`` moves: the pool has started and
    they are at it, so that they try to store moves while the fault lasts."""
    deadline = time.monotonic() + timeout
    while sum(e["kind"] == "move" for e in server.api("GET", f"/api/tables/{table}/log").json()
              ) < moves:
        assert time.monotonic() < deadline, "the bots did not start playing"
        time.sleep(0.2)
    assert server.api("GET", f"/api/tables/{table}").json()["status"] == "running"


def bots_resume(server: Server, table: str, version: int, since: float) -> float:
    """Wait until the bots of ``table`` have stored a move after ``version``: the seconds from
    ``since`` (the end of the fault) until it was seen."""
    deadline = time.monotonic() + RESUME
    while version_of(server, table) <= version:
        assert time.monotonic() < deadline, "the bots did not carry on"
        time.sleep(0.1)
    return round(time.monotonic() - since, 2)


def hint_of(server: Server, game: Game) -> Any:
    return server.api("GET", f"/api/tables/{game.table}/hint",
                      params={"seat": game.seat, "level": "easy"},
                      headers={"X-Seat-Secret": game.secret})


def report(name: str, **figures: Any) -> None:
    print(f"\n[{name}] " + ", ".join(f"{k}={v}" for k, v in figures.items()))


@contextlib.contextmanager
def running(server: Server) -> Iterator[Server]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------------------- PostgreSQL
def pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parts[-3].split(".")])
    found = [p for p in found if os.access(p, os.X_OK)]
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """A PostgreSQL cluster of the test's own (as scripts/postgres.sh starts one: initdb in a
    temporary folder, run as the postgres user when we are root, on a free 127.0.0.1 port),
    so that the test can stop and start it."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="meeple-faults-pg."))
        self.data = self.dir / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.run_as = ["runuser", "-u", "postgres", "--"]

    def _run(self, tool: str, *args: str) -> None:
        # from / : the postgres user may not enter the test's folder
        r = subprocess.run([*self.run_as, str(self.bin / tool), *args], cwd="/",
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"{tool} {' '.join(args)}: {r.stdout}{r.stderr}"

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60",
                  "-o", f"-h 127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off "
                        "-c max_connections=60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def pid(self) -> int | None:
        """The postmaster's pid, while it runs."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.data / "postmaster.pid").read_text().split()[0])
        return None

    def destroy(self) -> None:
        pid = self.pid()
        if pid is not None:
            with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
                self.stop()
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # by its pid, if pg_ctl could not stop it
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    bin_dir = pg_bin()
    missing = None
    if bin_dir is None:
        missing = "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin)"
    elif os.geteuid() == 0 and shutil.which("runuser") is None:
        missing = "runuser is missing: as root, PostgreSQL must run as the postgres user"
    if missing is not None:
        if os.environ.get("CI") == "true":  # as scripts/test: CI must not skip PostgreSQL
            pytest.fail(f"CI needs PostgreSQL for this test: {missing}")
        pytest.skip(missing)
    assert bin_dir is not None
    pg = Postgres(bin_dir)
    try:
        pg.init()
        pg.start()
        yield pg
    finally:
        pg.destroy()


def test_postgres_stopped_mid_game_and_started_again(postgres: Postgres, tmp_path: Path
                                                     ) -> None:
    server = Server(postgres.url, free_port(), tmp_path / "server.log")
    with running(server):
        game = Game(server, "greedy")
        try:
            bots = bots_table(server)
            game.play(4)
            bots_playing(server, bots)
            before = len(game.acked)
            # a table with a turn clock whose person is to move: the clock runs out while the
            # database is down, and must still work once it is back
            clocked = create(server, GAME, VARIANT,
                             [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                             join_as="Bob", clock=CLOCK)["table"]["id"]
            clocked_since = time.monotonic()
            assert game.wait_turn()
            text, move_id, number = game.next_move()

            down = time.monotonic()
            postgres.stop()
            got = game.move(text, move_id)
            assert got["type"] == "refused" and unavailable(got), got
            refused_in = time.monotonic() - down
            assert got["id"] == move_id
            for method, path, body in [
                    ("GET", f"/api/tables/{game.table}", None),
                    ("GET", "/api/tables", None),
                    ("GET", f"/api/tables/{game.table}/log", None),
                    ("POST", "/api/tables", {"game": GAME, "variant": VARIANT,
                                             "seats": [{"kind": "bot", "bot": "random"}] * 2}),
                    ("POST", f"/api/tables/{game.table}/join", {"name": "Cy"})]:
                assert_503(server.api(method, path, json=body))
            assert unavailable(hello_during_fault(server, game.table))
            assert_answering(server, game)
            # the clocked table's person runs out of time meanwhile; the bots try on
            time.sleep(max(1.0, clocked_since + CLOCK + 2 - time.monotonic()))
            assert game.move(text, move_id)["type"] == "refused"  # still nothing acknowledged
            postgres.start()
            back = time.monotonic()
            clocked_at, bots_at = version_of(server, clocked), version_of(server, bots)

            resumed_in, tries = game.until_acked(text, move_id, number)
            assert not game.lost(), "an acknowledged move was lost"
            # the table of bots goes on by itself (and finishes, below)
            bots_in = bots_resume(server, bots, bots_at, back)
            # the bot seat carries on: the person gets the turn again
            game.play(3)
            # the clocked table: its person ran out of time during the outage; a stand-in
            # plays for them once the database is back
            deadline = time.monotonic() + RESUME
            while version_of(server, clocked) <= clocked_at:
                assert time.monotonic() < deadline, "the turn clock stopped after the outage"
                time.sleep(0.3)
            assert server.api("GET", f"/api/tables/{clocked}").json()["seats"][0]["absent"]
            after = game.play_out()
            assert not game.lost(), "an acknowledged move was lost"
            bots_finish(server, bots)
            wait_finished(server, game.table, 30)
        finally:
            game.close()
    report("postgres", acked_before=before, acked_after=len(game.acked) - before, lost=0,
           refused_after_s=round(refused_in, 2), resumed_after_s=round(resumed_in, 2),
           tries=tries, bots_resumed_s=bots_in, down_s=round(back - down, 1),
           after_resume=after)


# ---------------------------------------------------------------------------- SQLite faults
def mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)


@pytest.fixture
def tmpfs() -> Iterator[Path]:
    """A small tmpfs of the test's own (16 MiB: the database and its write-ahead log fit)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where = Path(tempfile.mkdtemp(prefix="meeple-faults-fs."))
    r = mount("-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", str(where))
    if r.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield where
    finally:
        mount("-o", "remount,rw", str(where))
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)
        with contextlib.suppress(OSError):
            where.rmdir()


def fill(path: Path) -> int:
    """Write ``path`` until the file system is full: the bytes written."""
    written = 0
    chunk = b"\0" * 65536
    with path.open("wb", buffering=0) as f:
        with contextlib.suppress(OSError):
            while True:
                written += f.write(chunk)
        with contextlib.suppress(OSError):  # the last partial page, byte by byte at the end
            for _ in range(65536):
                written += f.write(b"\0")
    return written


def refused_by_the_store(game: Game, budget: int = 20, filler: Path | None = None
                         ) -> tuple[str, str, int]:
    """Moves until one is refused because the store is unavailable (a write that still fits
    in the log's last page may be accepted first: it is then acknowledged and stored). The
    refused move, its id and number.

    With ``filler`` (the file that fills the disk): when such an accepted move hands the turn
    to the table's bot, the bot cannot store its own move on the full disk and the seat never
    gets the turn back; the disk is then freed until the bot has moved, and filled again."""
    for _ in range(budget):
        if filler is not None and not game.wait_turn(15):
            filler.unlink()
            assert game.wait_turn(), "the bot did not move once the disk had room"
            fill(filler)
        assert game.wait_turn(), "the game ended before the fault showed"
        text, move_id, number = game.next_move()
        got = game.move(text, move_id)
        if got["type"] == "ack":
            game.acked.append((number, text))
            continue
        assert got["type"] == "refused" and unavailable(got), got
        return text, move_id, number
    raise AssertionError(f"{budget} moves were accepted on the faulty file system")


def test_sqlite_on_a_full_file_system(tmpfs: Path, tmp_path: Path) -> None:
    server = Server(sqlite_url(tmpfs / "meeple.db"), free_port(), tmp_path / "server.log")
    filler = tmpfs / "filler"
    with running(server):
        game = Game(server, "greedy")
        try:
            bots = bots_table(server)
            game.play(4)
            bots_playing(server, bots)
            before = len(game.acked)
            fill(filler)
            full = time.monotonic()
            text, move_id, number = refused_by_the_store(game, filler=filler)
            refused_in = time.monotonic() - full
            # reads still work on a full disk; writes are refused with 503
            assert version_of(server, game.table) == game.player.version
            assert not game.lost(), "an acknowledged move was lost"
            assert_503(server.api("POST", "/api/tables", json={
                "game": GAME, "variant": VARIANT, "seats": [{"kind": "bot", "bot": "random"}] * 2}))
            assert_answering(server, game)
            bots_at = version_of(server, bots)
            time.sleep(2)  # the bots think on, and cannot store their moves
            assert version_of(server, bots) == bots_at, "a move was stored on a full disk"
            assert game.move(text, move_id)["type"] == "refused"

            filler.unlink()
            back = time.monotonic()
            resumed_in, tries = game.until_acked(text, move_id, number)
            bots_in = bots_resume(server, bots, bots_at, back)
            game.play(3)
            after = game.play_out()
            assert not game.lost(), "an acknowledged move was lost"
            bots_finish(server, bots)
        finally:
            game.close()
    report("sqlite full", acked_before=before, acked_after=len(game.acked) - before, lost=0,
           refused_after_s=round(refused_in, 2), resumed_after_s=round(resumed_in, 2),
           tries=tries, bots_resumed_s=bots_in, after_resume=after)


def test_sqlite_writes_again_once_the_file_system_is_rw_though_a_read_was_running(
        tmpfs: Path) -> None:
    """The store alone (no server): a connection opened while the file system is read-only
    stays read-only, and one such connection left open keeps every other connection's writes
    refused. One that was reading in another thread when a write found the file system
    read-only is closed when it is given back, so the first write after ``remount,rw`` is
    stored (before, it rested in the disposed pool and every write was refused until the
    garbage collector happened to free it: a CI run's move was refused for 30 s)."""
    url = sqlite_url(tmpfs / "meeple.db")
    # a writer killed mid-life leaves the write-ahead log's files behind, as a killed server does
    subprocess.run([sys.executable, "-c", (
        f"import os; from meeple.store import Store; s = Store({url!r})\n"
        "with s.engine.begin() as c: c.exec_driver_sql('CREATE TABLE probe (x INTEGER)')\n"
        "os._exit(0)")], check=True, timeout=120, capture_output=True)
    assert (tmpfs / "meeple.db-wal").exists()
    r = mount("-o", "remount,ro", str(tmpfs))
    assert r.returncode == 0, r.stderr
    store = Store(url)
    try:
        reading = store.engine.connect()
        assert reading.exec_driver_sql("SELECT count(*) FROM probe").scalar() == 0
        with pytest.raises(StoreUnavailable, match="read-only"), store.engine.begin() as c:
            c.exec_driver_sql("INSERT INTO probe VALUES (1)")
        reading.close()  # given back after the failed write's dispose
        r = mount("-o", "remount,rw", str(tmpfs))
        assert r.returncode == 0, r.stderr
        for x in (2, 3):
            with store.engine.begin() as c:
                c.exec_driver_sql("INSERT INTO probe VALUES (?)", (x,))
        with store.engine.connect() as c:
            assert c.exec_driver_sql("SELECT x FROM probe ORDER BY x").scalars().all() == [2, 3]
    finally:
        store.engine.dispose()


def test_sqlite_on_a_read_only_file_system(tmpfs: Path, tmp_path: Path) -> None:
    """Linux refuses to remount a file system read-only while a process holds a file on it
    open for writing (EBUSY), and a running server holds its database open: a live server
    meets a read-only file system when it starts on one. So the server is killed (-9) in the
    middle of the game, the tmpfs is remounted ro, the server is started on it, and the tmpfs
    is remounted rw under the running server."""
    server = Server(sqlite_url(tmpfs / "meeple.db"), free_port(), tmp_path / "server.log")
    with running(server):
        game = Game(server, "greedy")
        try:
            bots = bots_table(server)
            game.play(4)
            bots_playing(server, bots)
            before = len(game.acked)
            assert game.wait_turn()
            busy = mount("-o", "remount,ro", str(tmpfs))
            assert busy.returncode != 0, "remounted ro under a running server"  # see above
            server.stop(kill=True)
            r = mount("-o", "remount,ro", str(tmpfs))
            assert r.returncode == 0, r.stderr
            ro = time.monotonic()
            server.start()  # it starts, and answers, on a read-only file system
            started_in = time.monotonic() - ro
            assert not game.lost(), "an acknowledged move was lost"
            game.reconnect()
            assert game.wait_turn(10)
            text, move_id, number = refused_by_the_store(game, budget=1)
            assert_503(server.api("POST", "/api/tables", json={
                "game": GAME, "variant": VARIANT, "seats": [{"kind": "bot", "bot": "random"}] * 2}))
            assert_answering(server, game)
            # reading works: a hint (computed in the bot workers once they have started)
            assert hint_of(server, game).status_code == 200
            bots_at = version_of(server, bots)
            time.sleep(2)  # the bots think on, and cannot store their moves
            assert version_of(server, bots) == bots_at, "a move was stored on a ro file system"

            r = mount("-o", "remount,rw", str(tmpfs))
            assert r.returncode == 0, r.stderr
            back = time.monotonic()
            resumed_in, tries = game.until_acked(text, move_id, number)
            bots_in = bots_resume(server, bots, bots_at, back)
            game.play(3)
            after = game.play_out()
            assert not game.lost(), "an acknowledged move was lost"
            bots_finish(server, bots)
        finally:
            game.close()
    report("sqlite read-only", acked_before=before, acked_after=len(game.acked) - before,
           lost=0, started_ro_s=round(started_in, 2), resumed_after_s=round(resumed_in, 2),
           tries=tries, bots_resumed_s=bots_in, after_resume=after)


# ---------------------------------------------------------------------------- bot workers
def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in task.read_text().split()]
    return out


def workers(server_pid: int) -> list[int]:
    """The bot pool's worker processes: the server's children started by multiprocessing's
    spawn (not its resource tracker)."""
    found = []
    for pid in children(server_pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def busy_worker(server_pid: int, timeout: float = 30) -> int:
    """A worker that is thinking now: its CPU time rising (by 30 ms in 0.3 s at least, a share
    a loaded machine still gives it; an idle worker takes none)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in workers(server_pid):
            with contextlib.suppress(OSError):
                start = cpu_ticks(pid)
                time.sleep(0.3)
                if cpu_ticks(pid) - start >= 3:
                    return pid
        time.sleep(0.05)
    raise AssertionError("no bot worker was thinking")


def bot_moved(server: Server, game: Game) -> bool:
    """Whether the table's bot has played a move (so its pool has started)."""
    r = server.api("GET", f"/api/tables/{game.table}/log")
    return any(e["kind"] == "move" and e["seat"] != game.seat for e in r.json())


def bot_moves(server: Server, game: Game) -> int:
    """How many moves the table's bot has played."""
    r = server.api("GET", f"/api/tables/{game.table}/log")
    return sum(1 for e in r.json() if e["kind"] == "move" and e["seat"] != game.seat)


def test_bot_worker_killed_mid_decision(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "meeple.db"), free_port(), tmp_path / "server.log")
    server.env = {"MEEPLE_BOT_WORKERS": "1"}
    kills: list[dict[str, Any]] = []
    with running(server):
        assert server.proc is not None
        game = Game(server, SLOW_BOT)
        try:
            while len(kills) < 2:
                assert game.play(1) == 1
                if game.player.view["to_move"] == game.seat or not bot_moved(server, game):
                    continue  # (the pool's start-up is over once the bot has played)
                # the bot is to move, and thinks (two seconds): kill its worker
                victim = busy_worker(server.proc.pid)
                os.kill(victim, signal.SIGKILL)
                killed = time.monotonic()
                assert game.wait_turn(60), "the game ended"
                carried_on = time.monotonic() - killed
                # the pool was made anew: a new worker, and it works (a hint is computed)
                new = workers(server.proc.pid)
                assert new and victim not in new, new
                hint = hint_of(server, game)
                assert hint.status_code == 200, hint.text
                kills.append({"carried_on_s": round(carried_on, 2), "worker": victim,
                              "new": new[0]})
                assert not game.lost(), "an acknowledged move was lost"
            # a worker killed while idle: the next to use the pool is a hint, which makes the
            # pool anew itself
            assert game.wait_turn()
            idle = workers(server.proc.pid)
            for pid in idle:
                os.kill(pid, signal.SIGKILL)
            killed = time.monotonic()
            hint = hint_of(server, game)
            assert hint.status_code == 200, hint.text
            kills.append({"hint_after_s": round(time.monotonic() - killed, 2), "worker": idle})
            before = len(game.acked)
            # the pool made anew goes on deciding: three more bot moves, between the person's
            # (not the whole game: each decision of this bot takes two seconds, and the rest
            # of a game after a restart is test_crash's; MEEPLE_WHOLE_GAMES=1 plays it out)
            if os.environ.get("MEEPLE_WHOLE_GAMES") == "1":
                game.play_out()
            wanted = bot_moves(server, game) + 3
            while bot_moves(server, game) < wanted and game.play(1):
                pass
            assert bot_moves(server, game) >= wanted or game.player.view["over"]
            assert not game.lost(), "an acknowledged move was lost"
        finally:
            game.close()
    log = (tmp_path / "server.log").read_text(errors="replace")
    report("bot worker killed", kills=kills, acked_before=before,
           acked_after=len(game.acked) - before, lost=0,
           stand_in_moves=log.count("stand-in move"))
