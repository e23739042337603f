"""Load soak: a long steady load through real WebSockets; does the server keep its pace and
its memory?

A real ``meeple serve`` on 127.0.0.1 (an SQLite file, or PostgreSQL) serves ``--tables``
tables at a time (100 by default), each of one WebSocket client of this script (random legal
moves with move ids, sent as soon as its view says it is to move, as bench_server.py does) and
one ``random`` bot; the games are the four in turn (``--game`` for one). A table whose game
ends is replaced by a new one, so the load stays the same for ``--minutes`` (10 by default);
then the script stops by itself. Every ``--sample`` seconds it reads the server process's
VmRSS (``/proc/PID/status``), its bot workers' and their CPU time.

Reported for the first and the last window (a minute each, or a third of a shorter run):
accepted moves per second (clients and bots: the stored log's moves, timed by when a client
saw the version that holds them), the clients' moves per second, send-to-ack p50 and p99,
the server's RSS and its workers'; and the growth ratios last / first of RSS and p99. A
table per minute follows.

    uv run python benchmarks/soak_load.py [--minutes 10] [--tables 100] [--db sqlite|postgresql]
        [--game mix] [--seed 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from soak_common import (
    GAMES,
    SeatDriver,
    TimedServer,
    cpu_seconds,
    create_table,
    database,
    free_port,
    pct,
    rss_kb,
    table_spec,
)


class Load:
    def __init__(self, srv: TimedServer, args: argparse.Namespace) -> None:
        self.srv = srv
        self.args = args
        self.rng = random.Random(args.seed)
        self.drivers: list[SeatDriver] = []
        self.samples: list[dict[str, float]] = []
        self.errors: list[str] = []
        self.finished = 0

    def spec(self, n: int) -> dict[str, Any]:
        game = None if self.args.game == "mix" else self.args.game
        return table_spec(n, random.Random(self.rng.random()), shape="person+bot", game=game,
                          greedy=0.0)

    async def new_driver(self, http: httpx.AsyncClient, n: int) -> SeatDriver:
        table, seats = await create_table(http, self.spec(n))
        (seat, secret), = seats
        d = SeatDriver(self.srv, table, seat, secret, random.Random(self.rng.random()),
                       tag=f"t{n}", record_seen=True)
        self.drivers.append(d)
        return d

    async def slot(self, http: httpx.AsyncClient, first: SeatDriver, n: int,
                   deadline: float) -> None:
        d = first
        while True:
            await d.run(deadline)
            if time.monotonic() >= deadline:
                return
            if d.over:
                self.finished += 1
            n += self.args.tables
            try:
                d = await self.new_driver(http, n)
            except (httpx.HTTPError, RuntimeError) as exc:
                self.errors.append(f"new table {n}: {exc!r}")
                await asyncio.sleep(1)

    async def sampler(self, stop: asyncio.Event) -> None:
        pid = self.srv.pid
        while not stop.is_set():
            workers = self.srv.descendants()
            self.samples.append({
                "t": time.monotonic(), "rss kB": rss_kb(pid),
                "workers rss kB": sum(rss_kb(w) for w in workers),
                "cpu s": cpu_seconds(pid), "load": os.getloadavg()[0],
                "tables finished": self.finished})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.args.sample)

    async def run(self) -> dict[str, Any]:
        a = self.args
        async with httpx.AsyncClient(base_url=self.srv.base, timeout=120) as http:
            # warm up: the bot workers start (spawned, games loaded) on a table of bots
            for game in GAMES:
                r = await http.post("/api/tables", json={
                    "game": game, "seats": [{"kind": "bot", "bot": "random"}] * 2,
                    "public": False})
                r.raise_for_status()
                warm = r.json()["id"]
                for _ in range(600):
                    if (await http.get(f"/api/tables/{warm}")).json()["version"] >= 20:
                        break
                    await asyncio.sleep(0.1)
            firsts = [await self.new_driver(http, n) for n in range(a.tables)]
            t0 = time.monotonic()
            deadline = t0 + a.minutes * 60
            stop = asyncio.Event()
            sampler = asyncio.create_task(self.sampler(stop))
            await asyncio.gather(*(self.slot(http, d, n, deadline)
                                   for n, d in enumerate(firsts)))
            end = time.monotonic()
            stop.set()
            await sampler
            # the stored logs: which versions are moves (not chance draws)
            sem = asyncio.Semaphore(4)

            async def kinds(d: SeatDriver) -> list[str]:
                async with sem:
                    r = await http.get(f"/api/tables/{d.table}/log")
                if r.status_code != 200:
                    self.errors.append(f"log of {d.table}: {r.status_code}")
                    return []
                return [e["kind"] for e in sorted(r.json(), key=lambda e: e["number"])]

            logs = await asyncio.gather(*(kinds(d) for d in self.drivers))
        moves_at: list[float] = []  # when a client first saw each stored move (any seat)
        for d, log in zip(self.drivers, logs, strict=True):
            times = [t for t, _ in d.seen]
            versions = [v for _, v in d.seen]
            for number, kind in enumerate(log, start=1):
                i = bisect.bisect_left(versions, number)
                if kind == "move" and 0 < i < len(times):  # not made before the first view
                    moves_at.append(times[i])
        rtts = [(t, s) for d in self.drivers for t, s in d.rtts]
        span = end - t0
        w = min(60.0, span / 3)
        nan = float("nan")

        def window(lo: float, hi: float) -> dict[str, float]:
            rt = [s for t, s in rtts if lo <= t < hi]
            smp = [s for s in self.samples if lo <= s["t"] <= hi] or self.samples[-1:]
            # server CPU (with its bot workers) a stored move, between the window's samples
            a, b = smp[0], smp[-1]
            moved = sum(1 for t in moves_at if a["t"] <= t < b["t"])
            return {
                "cpu ms/move": 1000 * (b["cpu s"] - a["cpu s"]) / moved if moved else nan,
                "games": b["tables finished"] - a["tables finished"],
                "accepted/s": sum(1 for t in moves_at if lo <= t < hi) / (hi - lo),
                "client/s": len(rt) / (hi - lo),
                "p50 ms": 1000 * pct(rt, 0.5), "p99 ms": 1000 * pct(rt, 0.99),
                "rss MB": sum(s["rss kB"] for s in smp) / len(smp) / 1024,
                "workers rss MB": sum(s["workers rss kB"] for s in smp) / len(smp) / 1024,
                "rss max MB": max(s["rss kB"] for s in smp) / 1024,
            }

        first, last = window(t0, t0 + w), window(end - w, end)
        minutes = [dict(window(t0 + 60 * m, min(end, t0 + 60 * (m + 1))), minute=m + 1)
                   for m in range(int(span // 60)) if t0 + 60 * (m + 1) <= end + 1]
        cpu = self.samples[-1]["cpu s"] - self.samples[0]["cpu s"] if self.samples else 0
        return {
            "tables": a.tables, "minutes": span / 60, "window s": w,
            "first": first, "last": last, "per minute": minutes,
            "rss growth": last["rss MB"] / first["rss MB"],
            "rss kB a game": (self.samples[-1]["rss kB"] - self.samples[0]["rss kB"])
            / max(1, self.samples[-1]["tables finished"] - self.samples[0]["tables finished"]),
            "workers rss growth": last["workers rss MB"] / max(1e-9, first["workers rss MB"]),
            "p99 growth": last["p99 ms"] / first["p99 ms"],
            "rate ratio": last["accepted/s"] / max(1e-9, first["accepted/s"]),
            "accepted/s": sum(1 for t in moves_at if t0 <= t < end) / span,
            "client/s": len(rtts) / span, "p50 ms": 1000 * pct([s for _, s in rtts], 0.5),
            "p99 ms": 1000 * pct([s for _, s in rtts], 0.99),
            "games": len(self.drivers), "games finished": self.finished,
            "server cpu s": cpu,
            "refused": sum(len(d.refusals) for d in self.drivers),
            "refusals": [x for d in self.drivers for x in d.refusals][:20],
            "anomalies": [x for d in self.drivers for x in d.anomalies],
            "errors": self.errors, "samples": self.samples,
            "load": os.getloadavg()[0],
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--tables", type=int, default=100, help="tables in play at a time")
    ap.add_argument("--game", default="mix", choices=["mix", *GAMES])
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--postgres", default=os.environ.get("MEEPLE_TEST_POSTGRES"),
                    help="a PostgreSQL server URL (default MEEPLE_TEST_POSTGRES); without it "
                         "--db postgresql starts a throwaway cluster")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    ap.add_argument("--bot-workers", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write every figure to this file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="meeple-soak-") as tmp, \
            database(args.db, Path(tmp), args.postgres) as (label, url):
        srv = TimedServer(url, free_port(), Path(tmp) / "server.log", args.bot_workers)
        srv.start()
        try:
            r = asyncio.run(Load(srv, args).run())
        finally:
            srv.stop()  # SIGTERM to its pid (SIGKILL after 15 s)
    r["database"] = label
    r["command"] = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    report(r)
    if args.json:
        args.json.write_text(json.dumps(r, indent=2, default=str))
    sys.exit(1 if r["errors"] else 0)


def report(r: dict[str, Any]) -> None:
    f, la = r["first"], r["last"]
    print("| database | tables | minutes | window s | accepted moves/s first / last | "
          "client moves/s first / last | p50 ms first / last | p99 ms first / last | "
          "p99 growth | server CPU ms a move first / last | server RSS MB first / last | "
          "RSS growth | bot worker RSS MB first / last | games finished | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {r['database']} | {r['tables']} | {r['minutes']:.1f} | {r['window s']:.0f} | "
          f"{f['accepted/s']:.0f} / {la['accepted/s']:.0f} | "
          f"{f['client/s']:.0f} / {la['client/s']:.0f} | "
          f"{f['p50 ms']:.1f} / {la['p50 ms']:.1f} | {f['p99 ms']:.1f} / {la['p99 ms']:.1f} | "
          f"{r['p99 growth']:.2f}x | {f['cpu ms/move']:.2f} / {la['cpu ms/move']:.2f} | "
          f"{f['rss MB']:.1f} / {la['rss MB']:.1f} | "
          f"{r['rss growth']:.2f}x | {f['workers rss MB']:.1f} / {la['workers rss MB']:.1f} | "
          f"{r['games finished']:,} | {r['load']:.1f} |")
    print(f"\n`{r['command']}`: over the whole run {r['accepted/s']:.0f} accepted moves/s, "
          f"{r['client/s']:.0f} client moves/s, p50 {r['p50 ms']:.1f} ms, p99 "
          f"{r['p99 ms']:.1f} ms; {r['games']:,} tables played, {r['refused']} moves refused, "
          f"{len(r['errors'])} errors, {len(r['anomalies'])} anomalies; server CPU "
          f"{r['server cpu s']:.0f} s; server RSS grew {r['rss kB a game']:.0f} kB a game "
          f"played (from the first sample to the last)")
    if r["per minute"]:
        print("\n| minute | accepted moves/s | client moves/s | p50 ms | p99 ms | server CPU ms "
              "a move | server RSS MB | bot worker RSS MB | games finished |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for m in r["per minute"]:
            print(f"| {m['minute']} | {m['accepted/s']:.0f} | {m['client/s']:.0f} | "
                  f"{m['p50 ms']:.1f} | {m['p99 ms']:.1f} | {m['cpu ms/move']:.2f} | "
                  f"{m['rss MB']:.1f} | {m['workers rss MB']:.1f} | {m['games']} |")
    for key in ("errors", "anomalies", "refusals"):
        if r[key]:
            print(f"\n{key} ({len(r[key])}):")
            for line in r[key][:20]:
                print(f"  {line}")


if __name__ == "__main__":
    main()
