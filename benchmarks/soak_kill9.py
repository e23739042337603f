"""kill -9 soak: N kill -9 restarts of a real server under load over many tables, 0 acknowledged
moves lost or duplicated, every table finished.

A real ``meeple serve`` on 127.0.0.1 (an SQLite file, or PostgreSQL) serves ``--tables``
tables at a time, a mix of the four games: people (WebSocket clients of this script playing
random legal moves, each with a move id, after a think time) with or without bots, and tables
of bots only. A table that finishes is replaced by a new one until the last kill. At random
moments (``--gap`` seconds after the previous restart answered and was checked) the server is
killed with SIGKILL and started again; the clients reconnect by themselves, send again the
move whose answer they lost (same id, same version: the resend rule of src/meeple/server/table/README.md) and
carry on.

After every restart every table's stored log (``GET /api/tables/{id}/log``) is compared with
what its clients were told: every move acknowledged before the kill is there, at its log
number, once; no stored move of a client's seat is one it was not told about. After the last
kill the tables play to their end (``--finish-timeout``), then the check is made once more,
exactly: every seat's stored moves are its acknowledged ones, one for one. Measured: the
seconds from each restart's process start until ``GET /api/games`` answers (polled every
10 ms) and until each reconnecting client has its view (clients retry every 50-100 ms).

Exits 1 if an acknowledged move was lost or duplicated, a table did not finish, a request
answered 5xx or a seat got stuck.

    uv run python benchmarks/soak_kill9.py [--kills 100] [--tables 50] [--db sqlite|postgresql]
        [--seed 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from soak_common import (
    SeatDriver,
    TimedServer,
    alive,
    check_log,
    create_table,
    database,
    free_port,
    median,
    pct,
    table_spec,
)


class Soak:
    def __init__(self, srv: TimedServer, args: argparse.Namespace) -> None:
        self.srv = srv
        self.args = args
        self.rng = random.Random(args.seed)
        self.tables: dict[str, dict[str, Any]] = {}  # id -> {"spec", "drivers", "shape"}
        self.replace = True
        self.setup_lock = asyncio.Lock()  # no kill while a table is being set up
        self.lost: list[str] = []
        self.unexplained: list[str] = []
        self.errors: list[str] = []  # 5xx answers, failed set-ups
        self.restarts: list[dict[str, Any]] = []
        self.orphans: list[int] = []
        self.made = 0

    # -------------------------------------------------------------- tables
    async def slot(self, http: httpx.AsyncClient, index: int, deadline: float) -> None:
        """One place at the table: a table, played to its end; then a new one while the
        kills go on."""
        n = index
        while time.monotonic() < deadline:
            rng = random.Random(self.rng.random())
            spec = table_spec(n, rng)
            async with self.setup_lock:
                try:
                    table, seats = await create_table(http, spec)
                except (httpx.HTTPError, RuntimeError) as exc:
                    self.errors.append(f"set-up of table {n} ({spec}): {exc!r}")
                    print(self.errors[-1], file=sys.stderr, flush=True)
                    await asyncio.sleep(1)
                    continue
            self.made += 1
            shape = "+".join(s["kind"] if s["kind"] == "human" else s["bot"]
                             for s in spec["seats"])
            drivers = [SeatDriver(self.srv, table, seat, secret, random.Random(rng.random()),
                                  think=self.args.think, tag=f"t{n}")
                       for seat, secret in seats]
            self.tables[table] = {"spec": spec, "drivers": drivers, "shape": shape,
                                  "index": n}
            await asyncio.gather(*(d.run(deadline) for d in drivers))
            while time.monotonic() < deadline:  # bots may still be playing
                try:
                    r = await http.get(f"/api/tables/{table}")
                    if r.status_code >= 500:
                        self.errors.append(f"GET /api/tables/{table}: {r.status_code}")
                    elif r.json()["status"] == "finished":
                        break
                except (httpx.HTTPError, ValueError):
                    pass
                await asyncio.sleep(1)
            if not self.replace:
                return
            n += self.args.tables

    # -------------------------------------------------------------- checks
    async def get_log(self, http: httpx.AsyncClient, table: str) -> list[dict[str, Any]]:
        for _ in range(30):
            try:
                r = await http.get(f"/api/tables/{table}/log")
                if r.status_code == 200:
                    return list(r.json())
                self.errors.append(f"GET /api/tables/{table}/log: {r.status_code} {r.text}")
            except httpx.HTTPError:
                pass
            await asyncio.sleep(1)
        raise RuntimeError(f"no log of table {table}")

    async def verify(self, http: httpx.AsyncClient,
                     snapshot: dict[str, dict[int, dict[int, tuple[str, str]]]]) -> int:
        """Every move acked before the kill (``snapshot``) is stored; none is unexplained."""
        checked = 0
        sem = asyncio.Semaphore(4)

        async def one(table: str) -> None:
            nonlocal checked
            async with sem:
                log = await self.get_log(http, table)
            drivers = self.tables[table]["drivers"]
            lost, unexplained = check_log(drivers, log, snapshot[table])
            self.lost += lost
            self.unexplained += unexplained
            checked += sum(len(a) for a in snapshot[table].values())

        await asyncio.gather(*(one(t) for t in snapshot if self.tables[t]["drivers"]))
        return checked

    def snapshot(self) -> dict[str, dict[int, dict[int, tuple[str, str]]]]:
        return {t: {d.seat: dict(d.acked) for d in info["drivers"]}
                for t, info in list(self.tables.items())}

    # -------------------------------------------------------------- kills
    async def kill_and_restart(self, http: httpx.AsyncClient, k: int) -> None:
        async with self.setup_lock:
            workers = self.srv.descendants()
            pid = self.srv.pid
            os.kill(pid, signal.SIGKILL)
            await asyncio.to_thread(self.srv.proc.wait)  # type: ignore[union-attr]
            snap = self.snapshot()  # every ack any client can have read is in here
            acked = sum(len(a) for s in snap.values() for a in s.values())
            await asyncio.to_thread(self.srv.start)
            ready, banner = self.srv.ready_s, self.srv.banner_s
            t = time.monotonic()
            checked = await self.verify(http, snap)
            verify_s = time.monotonic() - t
        left = [w for w in workers if alive(w)]
        for w in left:  # a bot worker that outlived its server (it should die with it)
            self.orphans.append(w)
            os.kill(w, signal.SIGKILL)
        self.restarts.append({"kill": k + 1, "pid": pid, "http_s": ready, "banner_s": banner, "acked": acked,
                              "checked": checked, "verify_s": verify_s,
                              "lost so far": len(self.lost),
                              "unexplained so far": len(self.unexplained)})
        print(f"kill {k + 1}/{self.args.kills}: pid {pid}, URL printed after {banner:.2f} s, "
              f"HTTP after {ready:.2f} s, "
              f"{checked} acked moves checked in {verify_s:.1f} s, lost {len(self.lost)}, "
              f"unexplained {len(self.unexplained)}, {len(self.tables)} tables so far",
              file=sys.stderr, flush=True)

    async def run(self) -> dict[str, Any]:
        a = self.args
        hard_deadline = time.monotonic() + a.max_minutes * 60
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=self.srv.base, timeout=60) as http:
            slots = [asyncio.create_task(self.slot(http, i, hard_deadline))
                     for i in range(a.tables)]
            first_ready = self.srv.ready_s
            for k in range(a.kills):
                await asyncio.sleep(self.rng.uniform(*a.gap))
                if time.monotonic() > hard_deadline - a.finish_timeout:
                    print(f"--max-minutes reached after {k} kills", file=sys.stderr)
                    break
                await self.kill_and_restart(http, k)
            kill_s = time.monotonic() - started
            self.replace = False
            t = time.monotonic()
            done, slow = await asyncio.wait(slots, timeout=min(
                a.finish_timeout, max(1.0, hard_deadline - time.monotonic())))
            finish_s = time.monotonic() - t
            for task in slow:
                task.cancel()
            for task in done:
                if task.exception() is not None:
                    self.errors.append(f"a table slot failed: {task.exception()!r}")
            # the final check: exactly once, everything finished
            unfinished: list[str] = []
            final_lost: list[str] = []
            final_unexplained: list[str] = []
            for table, info in self.tables.items():
                r = await http.get(f"/api/tables/{table}")
                status = r.json().get("status") if r.status_code == 200 else r.status_code
                if status != "finished":
                    d = info["drivers"]
                    unfinished.append(
                        f"{table} ({info['spec']['game']} {info['spec']['variant']} "
                        f"{info['shape']}): status {status}, version "
                        f"{r.json().get('version') if r.status_code == 200 else '?'}"
                        + "".join(f"; seat {x.seat}: version {x.version}, to move "
                                  f"{x.view.get('to_move')}, pending "
                                  f"{x.pending and x.pending['frame']}" for x in d))
                if info["drivers"]:
                    lost, unexplained = check_log(info["drivers"],
                                                  await self.get_log(http, table))
                    final_lost += lost
                    final_unexplained += unexplained
        self.lost += final_lost
        self.unexplained += final_unexplained
        drivers = [d for info in self.tables.values() for d in info["drivers"]]
        nan = float("nan")
        view_s = [s for d in drivers for _, s in d.reconnect_view_s]
        for gen, restart in enumerate(self.restarts, start=1):
            mine = [s for d in drivers for g, s in d.reconnect_view_s if g == gen]
            restart["views"] = len(mine)
            restart["view s max"] = max(mine, default=None)
        http_s = [r["http_s"] for r in self.restarts]
        banner_s = [r["banner_s"] for r in self.restarts]
        anomalies = [x for d in drivers for x in d.anomalies]
        refusals = [x for d in drivers for x in d.refusals]
        return {
            "kills": len(self.restarts), "kills asked": a.kills, "tables": len(self.tables),
            "acked before the last kill": self.restarts[-1]["acked"] if self.restarts else 0,
            "live tables": a.tables, "human seats": len(drivers),
            "bots-only tables": sum(1 for i in self.tables.values() if not i["drivers"]),
            "acked moves": sum(len(d.acked) for d in drivers),
            "resends": sum(d.resends for d in drivers),
            "resent acks": sum(d.resent_acks for d in drivers),
            "refused": len(refusals), "refusals": refusals[:20],
            "lost": sorted(set(self.lost)), "unexplained": sorted(set(self.unexplained)),
            "final lost": final_lost, "final unexplained": final_unexplained,
            "unfinished": unfinished, "errors": self.errors, "anomalies": anomalies,
            "orphan workers": self.orphans,
            "first start http s": first_ready,
            "banner s median": median(banner_s), "banner s max": max(banner_s, default=nan),
            "http s median": median(http_s), "http s max": max(http_s, default=nan),
            "view s median": median(view_s), "view s max": max(view_s, default=nan),
            "view s p90": pct(view_s, 0.9), "reconnects measured": len(view_s),
            "kill phase s": kill_s, "finish s": finish_s,
            "wall s": time.monotonic() - started, "restarts": self.restarts,
            "load": os.getloadavg()[0],
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--tables", type=int, default=50, help="tables in play at a time")
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--postgres", default=os.environ.get("MEEPLE_TEST_POSTGRES"),
                    help="a PostgreSQL server URL (default MEEPLE_TEST_POSTGRES); without it "
                         "--db postgresql starts a throwaway cluster")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gap", type=float, nargs=2, default=(0.3, 3.0), metavar=("MIN", "MAX"),
                    help="seconds from a restart's first answer to the next kill (uniform)")
    ap.add_argument("--think", type=float, nargs=2, default=(0.05, 0.5), metavar=("MIN", "MAX"),
                    help="seconds a scripted person waits before a move (uniform)")
    ap.add_argument("--finish-timeout", type=float, default=600,
                    help="seconds the tables have to finish after the last kill")
    ap.add_argument("--max-minutes", type=float, default=60, help="the whole run's bound")
    ap.add_argument("--bot-workers", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write every figure to this file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="meeple-soak-") as tmp, \
            database(args.db, Path(tmp), args.postgres) as (label, url):
        srv = TimedServer(url, free_port(), Path(tmp) / "server.log", args.bot_workers)
        srv.start()
        try:
            r = asyncio.run(Soak(srv, args).run())
        finally:
            srv.stop()  # SIGTERM to its pid (SIGKILL after 15 s)
            log_tail = srv.log.read_text(errors="replace")[-4000:]
        r["database"] = label
        r["command"] = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
        failed = bool(r["lost"] or r["unexplained"] or r["unfinished"] or r["errors"]
                      or any(": stuck:" in a for a in r["anomalies"]) or r["orphan workers"])
        if failed:
            r["server log tail"] = log_tail
    report(r)
    if args.json:
        args.json.write_text(json.dumps(r, indent=2, default=str))
    sys.exit(1 if failed else 0)


def report(r: dict[str, Any]) -> None:
    print("| database | kills | tables (at a time) | human seats | acked moves | resent acks | "
          "lost | duplicated / unexplained | unfinished | 5xx / errors | restart -> HTTP "
          "median / max s | restart -> client view median / max s | wall s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {r['database']} | {r['kills']} | {r['tables']} ({r['live tables']}) | "
          f"{r['human seats']} | {r['acked moves']:,} | {r['resent acks']} | {len(r['lost'])} | "
          f"{len(r['unexplained'])} | {len(r['unfinished'])} | {len(r['errors'])} | "
          f"{r['http s median']:.2f} / {r['http s max']:.2f} | "
          f"{r['view s median']:.2f} / {r['view s max']:.2f} | {r['wall s']:.0f} |")
    if r["kills"] < r["kills asked"]:
        print(f"\nonly {r['kills']} of the {r['kills asked']} kills asked fitted in --max-minutes")
    print(f"\n`{r['command']}`: {r['acked before the last kill']:,} moves acked before the "
          f"last kill, {r['bots-only tables']} bots-only tables, {r['resends']} moves "
          f"sent again after a reconnect ({r['resent acks']} of them already stored), "
          f"{r['refused']} refused, {r['reconnects measured']} reconnections timed "
          f"(p90 {r['view s p90']:.2f} s), URL printed {r['banner s median']:.2f} s (median) / "
          f"{r['banner s max']:.2f} s (max) after a restart's process start, first start "
          f"{r['first start http s']:.2f} s, "
          f"tables finished {r['finish s']:.0f} s after the last kill, load {r['load']:.1f}")
    for key in ("lost", "unexplained", "unfinished", "errors", "anomalies", "refusals",
                "orphan workers"):
        if r[key]:
            print(f"\n{key} ({len(r[key])}):")
            for line in r[key][:20]:
                print(f"  {line}")
    if "server log tail" in r:
        print("\nserver log (tail):\n" + r["server log tail"])


if __name__ == "__main__":
    main()
