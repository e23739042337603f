"""What the server costs: accepted moves per second and move round trips over WebSockets.

For T tables (10, 100, 500 by default) of one game, a real ``meeple serve`` process on
127.0.0.1 (SQLite file, and PostgreSQL when ``--postgres URL`` or MEEPLE_TEST_POSTGRES names one)
serves T tables of two seats: one played by a WebSocket client of this process (random legal
moves, sent as soon as its view says it is to move), one by the server's ``random`` bot. Each
run lasts ``--seconds`` (bounded) and then stops by itself. Reported: accepted client moves per
second, p50 and p99 of send-to-ack, and, in the same run, the same moves through the engine
alone (replayed from the tables' records, with the legality check), as the ratio of what the
server costs per move.

    uv run python benchmarks/bench_server.py [--tables 10,100,500] [--seconds 15] [--game reefs]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.conftest import Server, free_port  # noqa: E402

from meeple.core.delta import apply_patch  # noqa: E402

#: bytes of every frame the clients received, and of the view and update frames among them
RECEIVED = {"bytes": 0, "view bytes": 0, "views": 0}


async def drive(ws_base: str, table: str, seat: int, secret: str, stop_at: float,
                rtts: list[float], rng: random.Random, updates: bool = True) -> int:
    made = 0
    async with connect(f"{ws_base}/ws/tables/{table}", max_size=None, open_timeout=120,
                       ping_interval=None) as ws:
        # as the page asks: updates, and its own accepted move acknowledged inside the update
        # frame of the new version (one frame per accepted move); --whole: an old client
        await ws.send(json.dumps({"type": "hello", "seat": seat, "secret": secret,
                                  "updates": updates, "merged_ack": updates}))
        view: dict[str, object] = {}
        version = -1
        sent_at: float | None = None
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.monotonic()))
            except TimeoutError:
                break
            frame = json.loads(raw)
            RECEIVED["bytes"] += len(raw)
            if frame["type"] in ("view", "update"):
                RECEIVED["view bytes"] += len(raw)
                RECEIVED["views"] += 1
            if "ack" in frame:  # the move acknowledged in the frame of the new version
                assert sent_at is not None
                rtts.append(time.perf_counter() - sent_at)
                sent_at = None
                made += 1
            if frame["type"] == "update":
                assert frame["base"] == version, (frame["base"], version)
                version, view = frame["version"], apply_patch(view, frame["patch"], in_place=True)
            elif frame["type"] == "view" and frame["version"] >= version:
                version, view = frame["version"], frame["view"]
            elif frame["type"] == "ack":
                assert sent_at is not None
                rtts.append(time.perf_counter() - sent_at)
                sent_at = None
                made += 1
            elif frame["type"] == "refused":
                sent_at = None
            if view.get("over"):
                break
            legal = view.get("legal_moves") or []
            if sent_at is None and view.get("to_move") == seat and legal:
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal),
                                          "version": version}))
    return made


async def watch(ws: Any, stop_at: float) -> int:
    """A spectator: reads every frame until the end of the run."""
    async with ws:
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.monotonic()))
            except TimeoutError:
                break
            RECEIVED["bytes"] += len(raw)
    return 0


def engine_rate(records: list[dict[str, object]]) -> tuple[int, float]:
    """Moves per second replaying the same games through the engine alone."""
    import meeple

    for rec in records[:1]:  # warm up: the games' modules load on first use
        meeple.replay(rec)
    moves = 0
    start = time.perf_counter()
    for rec in records:
        state = meeple.new_game(str(rec["game"]), players=int(rec["players"]),  # type: ignore[call-overload]
                                seed=0, sheet=rec["sheet"], **rec["variant"])  # type: ignore[arg-type]
        for text in rec["moves"]:  # type: ignore[attr-defined]
            state.play(text)
            moves += 1
    return moves, moves / (time.perf_counter() - start)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and of its live descendants (the bot workers;
    with ``--workers``, the server processes and theirs)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    for p in pids:  # (grows as it goes: children, then theirs)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                pids += [int(c) for c in task.read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def settled(pids: list[int], idle: float = 0.05, most: float = 120.0) -> None:
    """Wait (at most ``most`` seconds) until the servers and their bot workers are idle:
    under half a second, they used under ``idle`` CPU seconds. A bot worker still loading
    the games (spawned at start, on a busy machine for many seconds) would otherwise count
    its start-up as CPU of the moves measured."""
    give_up = time.monotonic() + most
    last = sum(map(cpu_seconds, pids))
    while time.monotonic() < give_up:
        await asyncio.sleep(0.5)
        now = sum(map(cpu_seconds, pids))
        if now - last < idle:
            return
        last = now


def start_profile(pid: int, seconds: float, out: Path) -> Any:
    """py-spy sampling the server process (and its bot workers) for ``seconds``: folded stacks
    in ``out``. Started with the timed part of a run."""
    import subprocess

    return subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--duration",
                             str(max(1, int(seconds))), "--rate", "250", "--format", "raw",
                             "--subprocesses", "--nonblocking", "--gil", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def profile_top(folded: Path, top: int = 12) -> list[str]:
    """The profile's top lines: per function (file and name), its share of the samples as
    the innermost frame (self) and anywhere on the stack (total)."""
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    samples = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        samples += n
        frames = [_frame_name(f) for f in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for f in set(frames):
            total[f] = total.get(f, 0) + n
    rows = [f"| {name} | {100 * own.get(name, 0) / samples:.1f} % | {100 * n / samples:.1f} % |"
            for name, n in sorted(total.items(), key=lambda kv: -kv[1])
            if (":process" not in name) and ("meeple" in name or "sqlalchemy" in name or "websockets" in name
            or "uvicorn" in name or "pydantic" in name or "json" in name)][:top]
    selfish = [f"| {name} | {100 * n / samples:.1f} % | {100 * total[name] / samples:.1f} % |"
               for name, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]]
    return ["| function (total) | self | total |", "|---|---:|---:|", *rows, "",
            "| function (self) | self | total |", "|---|---:|---:|", *selfish,
            f"({samples} samples)"]


def _frame_name(frame: str) -> str:
    """``fn (path/to/module.py:12)`` -> ``module.py:fn`` (the package kept for meeple)."""
    name, _, where = frame.partition(" (")
    path = where.rpartition(":")[0]
    if "/meeple/" in path:
        path = "meeple/" + path.rpartition("/meeple/")[2]
    else:
        path = "/".join(path.split("/")[-2:])
    return f"{path}:{name}"


async def run(servers: list[Server], game: str, tables: int, seconds: float,
              bots: bool = True, profile: Path | None = None, updates: bool = True,
              spectators: int = 0) -> dict[str, float]:
    """One row. With several ``servers`` (processes on one PostgreSQL) table i is created
    through, and its clients connect to, server i modulo their number: each process serves
    its share of the tables, and sees the others' moves only through the database."""
    server = servers[0]
    pids = [s.proc.pid for s in servers if s.proc is not None]
    print(f"server pids {pids}", file=sys.stderr, flush=True)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        # warm up first: the bot workers start (spawned, games loaded) on a table of bots
        for srv in servers:
            r = await http.post(f"{srv.base}/api/tables", json={
                "game": game, "seats": [{"kind": "bot", "bot": "random"}] * 2, "public": False})
            r.raise_for_status()
            warm = r.json()["id"]
            for _ in range(1200):  # at most 2 minutes
                if (await http.get(f"{srv.base}/api/tables/{warm}")).json()["version"] >= 20:
                    break
                await asyncio.sleep(0.1)
        seats = []
        other = {"kind": "bot", "bot": "random"} if bots else {"kind": "human"}
        for i in range(tables):
            r = await http.post(f"{servers[i % len(servers)].base}/api/tables", json={
                "game": game, "seats": [{"kind": "human"}, other],
                "join_as": "bench", "public": False})
            r.raise_for_status()
            j = r.json()
            ws_base = servers[i % len(servers)].ws_base
            seats.append((j["table"]["id"], j["seat"], j["secret"], ws_base))
            if not bots:
                r = await http.post(f"/api/tables/{j['table']['id']}/join", json={"name": "b2"})
                r.raise_for_status()
                seats.append((j["table"]["id"], r.json()["seat"], r.json()["secret"], ws_base))
        rtts: list[float] = []
        watched: list[float] = []  # the round trips of moves at the table the spectators watch
        watchers = []
        for _ in range(spectators):  # connected (and sent their first view) before the clock
            ws = await connect(f"{server.ws_base}/ws/tables/{seats[0][0]}", max_size=None,
                               open_timeout=120, ping_interval=None)
            await ws.send(json.dumps({"type": "hello", "updates": updates}))
            watchers.append(ws)
        for ws in watchers:
            while json.loads(await ws.recv())["type"] != "view":
                pass
        await settled(pids)
        stop_at = time.monotonic() + seconds
        start = time.perf_counter()
        cpu0, mine0 = sum(map(cpu_seconds, pids)), time.process_time()
        spy = start_profile(pids[0], seconds, profile) if profile is not None else None
        RECEIVED.update(dict.fromkeys(RECEIVED, 0))
        made = await asyncio.gather(
            *(drive(base, t, s, sec, stop_at,
                    watched if spectators and t == seats[0][0] else rtts, random.Random(i),
                    updates) for i, (t, s, sec, base) in enumerate(seats)),
            *(watch(ws, stop_at) for ws in watchers))
        made = made[:len(seats)]
        if spectators:
            rtts = watched
        elapsed = time.perf_counter() - start
        server_cpu = sum(map(cpu_seconds, pids)) - cpu0
        client_cpu = time.process_time() - mine0
        if spy is not None:
            spy.wait(timeout=60)
        ids = list(dict.fromkeys(t for t, _, _, _ in seats))
        records = [(await http.get(f"/api/tables/{t}/record")).json() for t in ids]
        accepted = 0  # moves of seats (clients and bots) the server accepted; not chance draws
        for t in ids:
            accepted += sum(1 for e in (await http.get(f"/api/tables/{t}/log")).json()
                            if e["kind"] == "move")
    total = sum(made)
    all_moves = sum(len(r["moves"]) for r in records)
    _, engine = engine_rate(records)
    rtts.sort()
    return {
        "client moves": total, "all moves": all_moves, "seconds": elapsed,
        "moves/s": total / elapsed, "all moves/s": all_moves / elapsed,
        "accepted/s": accepted / elapsed,
        "p50 ms": 1000 * rtts[len(rtts) // 2] if rtts else float("nan"),
        "p99 ms": 1000 * rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))] if rtts else float("nan"),
        "mean ms": 1000 * statistics.fmean(rtts) if rtts else float("nan"),
        "engine moves/s": engine,
        "server cpu ms/move": 1000 * server_cpu / max(1, all_moves),
        "client cpu ms/move": 1000 * client_cpu / max(1, total),
        # what the clients received per accepted move (their own acks and every view or update)
        "bytes/move": RECEIVED["bytes"] / max(1, accepted),
        "view frame bytes": RECEIVED["view bytes"] / max(1, RECEIVED["views"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="10,100,500")
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--game", default="reefs")
    ap.add_argument("--postgres", default=os.environ.get("MEEPLE_TEST_POSTGRES"))
    ap.add_argument("--no-bots", action="store_true",
                    help="two WebSocket clients per table instead of a client and a bot")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes on the one PostgreSQL database, each on a port "
                         "of its own (tables split between them; SQLite rows always use one)")
    ap.add_argument("--workers", default="1",
                    help="comma-separated: a PostgreSQL row for each, of one `meeple serve "
                         "--workers N` on one address (the kernel spreads the connections); "
                         "Np: N processes on ports of their own, each table's clients on one "
                         "of them (as a proxy hashing the table's URL would place them)")
    ap.add_argument("--boardgameio", action="store_true",
                    help="rows for boardgame.io's Node server (in memory and FlatFile), its "
                         "trivial game and two of its clients a table (node and npm needed)")
    ap.add_argument("--only-sqlite", action="store_true", help="no PostgreSQL rows")
    ap.add_argument("--only-postgres", action="store_true", help="no SQLite rows")
    ap.add_argument("--spectators", type=int, default=0,
                    help="this many spectators watch the first table; the round trips are "
                         "then those of that table's moves")
    ap.add_argument("--whole", action="store_true",
                    help="clients without updates: a whole view frame for every version")
    ap.add_argument("--profile", type=Path, default=None,
                    help="a folder: py-spy samples the server of each row there (folded "
                         "stacks) and its top lines are printed after the row")
    args = ap.parse_args()
    dbs: list[tuple[str, str | None]] = [] if args.only_postgres else [("SQLite", None)]
    if args.postgres and not args.only_sqlite:
        dbs.append(("PostgreSQL", args.postgres))
    print("| database | tables | accepted moves/s (clients + bots) | client moves/s | "
          "log entries/s (with chance) | p50 ms | p99 ms | engine alone moves/s | "
          "engine / server | server CPU ms a log entry | client CPU ms a move | "
          "bytes to clients a move | bytes a view or update frame | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows: dict[str, dict[str, float]] = {}
    runs = [(label, pg, w) for label, pg in dbs
            for w in (["1"] if pg is None else args.workers.split(","))]
    for label, pg, how in runs:
        workers = 1 if how.endswith("p") else int(how)
        processes = int(how[:-1]) if how.endswith("p") else args.processes
        for t in (int(x) for x in args.tables.split(",")):
            with tempfile.TemporaryDirectory() as tmp:
                url = f"sqlite:///{tmp}/bench.db" if pg is None else _fresh_pg(pg)
                servers = [Server(url, free_port(), Path(tmp) / f"server{k}.log")
                           for k in range(processes if pg is not None else 1)]
                for srv in servers:
                    srv.env = {"MEEPLE_BOT_WORKERS": "1"}
                    srv.workers = workers
                    srv.start()
                if workers > 1:
                    wait_for_workers(servers[0], workers)
                try:
                    folded = (None if args.profile is None else
                              args.profile / f"server-{label.lower()}-{t}.folded")
                    if folded is not None:
                        folded.parent.mkdir(parents=True, exist_ok=True)
                    r = asyncio.run(run(servers, args.game, t, args.seconds, not args.no_bots,
                                        folded, not args.whole, args.spectators))
                finally:
                    for srv in servers:
                        srv.stop()
                    if pg is not None:
                        _drop_pg(pg, url)
            name = f"{label}, {len(servers)} ports" if len(servers) > 1 else label
            name += f", --workers {workers}" if workers > 1 else ""
            rows[f"{name} {t}"] = r
            print(f"| {name} | {t} | {r['accepted/s']:.0f} | {r['moves/s']:.0f} | "
                  f"{r['all moves/s']:.0f} | "
                  f"{r['p50 ms']:.1f} | {r['p99 ms']:.1f} | {r['engine moves/s']:.0f} | "
                  f"{r['engine moves/s'] / r['all moves/s']:.0f}x | "
                  f"{r['server cpu ms/move']:.2f} | {r['client cpu ms/move']:.2f} | "
                  f"{r['bytes/move']:,.0f} | {r['view frame bytes']:,.0f} | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)
            if folded is not None and folded.exists():
                print("\n".join(profile_top(folded)), file=sys.stderr, flush=True)
    for storage in ("memory", "flatfile") if args.boardgameio else ():
        for t in (int(x) for x in args.tables.split(",")):
            r = boardgameio_row(t, args.seconds, storage)
            rows[f"boardgame.io {storage} {t}"] = r
            print(f"| boardgame.io ({'in memory' if storage == 'memory' else 'FlatFile'}) | {t} "
                  f"| {r['accepted/s']:.0f} | {r['moves/s']:.0f} | {r['all moves/s']:.0f} | "
                  f"{r['p50 ms']:.1f} | {r['p99 ms']:.1f} | | | "
                  f"{r['server cpu ms/move']:.2f} | {r['client cpu ms/move']:.2f} | | | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)
    print_ratios(rows)


def print_ratios(rows: dict[str, dict[str, float]]) -> None:
    """Each meeple row's moves/s as a ratio of boardgame.io's in memory and FlatFile at the
    same tables, and its p99 beside theirs."""
    for name, r in rows.items():
        if name.startswith("boardgame.io"):
            continue
        t = name.rpartition(" ")[2]
        memory, flat = rows.get(f"boardgame.io memory {t}"), rows.get(f"boardgame.io flatfile {t}")
        if memory is None or flat is None:
            continue
        print(f"{name} tables: {r['accepted/s'] / memory['accepted/s']:.2f}x boardgame.io in "
              f"memory, {r['accepted/s'] / flat['accepted/s']:.2f}x its FlatFile; p99 "
              f"{r['p99 ms']:.0f} ms (in memory {memory['p99 ms']:.0f}, FlatFile "
              f"{flat['p99 ms']:.0f})", flush=True)


def wait_for_workers(server: Server, workers: int, timeout: float = 300) -> None:
    """Until each of ``meeple serve --workers`` processes has answered a request (bounded)."""
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while len(seen) < workers:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{workers} processes did not answer in {timeout} s")
        seen.add(httpx.get(server.base + "/api/games", timeout=60).headers["x-meeple-process"])


BGIO = ROOT / "benchmarks" / "boardgameio"


def boardgameio_row(tables: int, seconds: float, storage: str) -> dict[str, float]:
    """boardgame.io's own Node server (``benchmarks/boardgameio``, installed with ``npm ci``
    there) with a trivial game (a counter, one move a turn, run on the server only), T
    matches of two of its own socket.io clients (``load.cjs``), for the same seconds:
    ``memory`` (its InMemory store) or ``flatfile`` (its FlatFile store, node-persist)."""
    import subprocess

    if not (BGIO / "node_modules" / "boardgame.io").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=BGIO,
                       check=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(["node", "server.cjs", str(port), storage, tmp], cwd=BGIO,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):  # up to 30 s to start
                try:
                    httpx.get(f"http://127.0.0.1:{port}/games", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            cpu0 = cpu_seconds(server.pid)
            out = subprocess.run(["node", "load.cjs", str(port), str(tables), str(seconds)],
                                 cwd=BGIO, capture_output=True, text=True, check=True,
                                 timeout=seconds + 120)
            server_cpu = cpu_seconds(server.pid) - cpu0
        finally:
            server.terminate()
            server.wait(timeout=10)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    moves = max(1, int(got["moves"]))
    return {"accepted/s": moves / got["seconds"], "moves/s": moves / got["seconds"],
            "all moves/s": moves / got["seconds"], "p50 ms": got["p50"], "p99 ms": got["p99"],
            "server cpu ms/move": 1000 * server_cpu / moves,
            "client cpu ms/move": 1000 * got["cpu"] / moves}


def _fresh_pg(base: str) -> str:
    import psycopg

    name = f"meeple_bench_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    with psycopg.connect(base.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base.rpartition('/')[0]}/{name}"


def _drop_pg(base: str, url: str) -> None:
    import psycopg

    name = url.rpartition("/")[2]
    with psycopg.connect(base.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
