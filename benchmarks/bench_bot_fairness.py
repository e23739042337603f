"""Fair bot scheduling under a flood (issue 58, probe finding 2): how long a person waits for
a greedy bot's reply, with and without another client's flood of bot-only tables.

Starts a real ``meeple serve`` on 127.0.0.1 (SQLite in a temporary directory, 127.0.0.1
believed as a proxy so each request names its client in X-Forwarded-For, the bot workers as
configured: by default the core count, as a server runs). Then, a few repetitions of:

1. *quiet*: a person (client 10.9.0.2) plays a two-seat Pergola table against ``greedy``;
   each reply is timed from the person's last decision of their turn sent to the view where
   they are to move again (the bot's whole turn, its commit and the broadcast);
2. *flood*: one client (10.9.0.1) makes ``--tables`` bot-only Pergola tables of four
   ``mcts:seconds=10`` bots (the probe's flood), then the person plays again and is timed the
   same way; the flood's tables are closed before the next repetition (by restarting the
   server on a new database).

Prints the replies' median and 90th percentile in both, and the ratio of the medians (the
target: at most 2). Bounded: ``--reps`` repetitions of ``--replies`` replies each, and the run
stops by itself after ``--max-minutes``. ``--pythonpath DIR`` runs the server from another
checkout's ``src`` (to measure the code before a change).

    uv run python benchmarks/bench_bot_fairness.py                 # 3 x 8 replies, 20 tables
    uv run python benchmarks/bench_bot_fairness.py --reps 1 --tables 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.client import Player  # noqa: E402
from tests.server.conftest import Server, free_port  # noqa: E402

from meeple.core.rng import Rng  # noqa: E402

FLOOD = {"X-Forwarded-For": "10.9.0.1"}
PERSON = {"X-Forwarded-For": "10.9.0.2"}


class OutOfTime(Exception):
    pass


class NoReply(Exception):
    """A reply did not come within ``--reply-timeout`` (the code before the change)."""


def start(tmp: Path, name: str, args: argparse.Namespace) -> Server:
    srv = Server(f"sqlite:///{tmp / name}.db", free_port(), tmp / f"{name}.log")
    srv.env = {"MEEPLE_TRUSTED_PROXIES": "127.0.0.1"}
    if args.workers:
        srv.env["MEEPLE_BOT_WORKERS"] = str(args.workers)
    else:  # the server's own default (the core count), not the tests' one worker
        srv.env["MEEPLE_BOT_WORKERS"] = "0"
    if args.pythonpath:
        srv.env["PYTHONPATH"] = args.pythonpath
    srv.start()
    return srv


def create(srv: Server, seats: list[dict[str, str]], headers: dict[str, str]) -> str:
    r = srv.api("POST", "/api/tables", headers=headers,
                json={"game": "pergola", "variant": {}, "seats": seats})
    r.raise_for_status()
    return str(r.json()["id"])


def replies(srv: Server, count: int, rng: Rng, stop_at: float, timeout: float) -> list[float]:
    """Seconds of ``count`` greedy replies to a person's turns (new tables as games end);
    :class:`NoReply` if one takes longer than ``timeout``."""
    times: list[float] = []
    while len(times) < count:
        table = create(srv, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], PERSON)
        joined = srv.api("POST", f"/api/tables/{table}/join", headers=PERSON,
                         json={"name": "Ann", "seat": 0}).json()
        ann = Player(srv.ws_base, table, 0, joined["secret"])
        try:
            while len(times) < count and ann.wait_turn(timeout):
                if time.monotonic() > stop_at:
                    raise OutOfTime
                sent = time.perf_counter()
                got = ann.move(rng.choice(ann.view["legal_moves"]))
                assert got["type"] == "ack", got
                while ann.version < got["version"]:
                    ann.recv(600)
                if ann.view.get("to_move") == 0 or ann.view.get("over"):
                    continue  # the turn goes on (or ended the game): not a reply yet
                try:
                    if ann.wait_turn(timeout):
                        times.append(time.perf_counter() - sent)
                except TimeoutError:
                    raise NoReply from None
        finally:
            ann.close()
    return times


def flood(srv: Server, tables: int, spec: str) -> list[str]:
    made = [create(srv, [{"kind": "bot", "bot": spec}] * 4, FLOOD) for _ in range(tables)]
    # the flood under way: a first decision played (so every worker it may take is busy)
    deadline = time.monotonic() + 300
    while not any(srv.api("GET", f"/api/tables/{t}").json()["version"] > 0 for t in made):
        if time.monotonic() > deadline:
            raise OutOfTime
        time.sleep(0.5)
    return made


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3, help="repetitions (a new server each)")
    ap.add_argument("--replies", type=int, default=8, help="greedy replies timed per phase")
    ap.add_argument("--tables", type=int, default=20, help="the flood's bot-only tables")
    ap.add_argument("--spec", default="mcts:seconds=10", help="the flood's bots")
    ap.add_argument("--workers", type=int, default=0, help="bot workers (0: the core count)")
    ap.add_argument("--max-minutes", type=float, default=20.0)
    ap.add_argument("--reply-timeout", type=float, default=600.0,
                    help="seconds to wait for one reply before the run stops")
    ap.add_argument("--pythonpath", default="", help="run the server from this src directory")
    args = ap.parse_args()
    stop_at = time.monotonic() + 60 * args.max_minutes
    rng = Rng(58)
    quiet: list[float] = []
    loaded: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-fair-") as tmp_name:
        tmp = Path(tmp_name)
        try:
            for rep in range(args.reps):
                srv = start(tmp, f"rep{rep}", args)
                try:
                    wait = args.reply_timeout
                    replies(srv, 1, rng, stop_at, wait)  # untimed: the workers start up
                    quiet += replies(srv, args.replies, rng, stop_at, wait)
                    flood(srv, args.tables, args.spec)
                    loaded += replies(srv, args.replies, rng, stop_at, wait)
                finally:
                    srv.stop()
                print(f"repetition {rep + 1}: quiet {len(quiet)} replies, flood {len(loaded)}",
                      flush=True)
        except OutOfTime:
            print(f"stopped after {args.max_minutes:g} minutes", flush=True)
        except NoReply:
            print(f"a reply took more than {args.reply_timeout:g} s: stopped (quiet: "
                  f"{len(quiet)} replies, median {summary(quiet)[0] if quiet else 0:.3f} s; "
                  f"flood: {len(loaded)} replies before it)", flush=True)
    if not quiet or not loaded:
        print("no replies timed")
        return
    (qm, q90), (lm, l90) = summary(quiet), summary(loaded)
    print(f"\nbot workers: {args.workers or 'the core count'}; flood: {args.tables} bot-only "
          f"Pergola tables of four {args.spec} bots from one client")
    print("| phase | replies | median s | p90 s |")
    print("|---|---:|---:|---:|")
    print(f"| quiet | {len(quiet)} | {qm:.3f} | {q90:.3f} |")
    print(f"| flood | {len(loaded)} | {lm:.3f} | {l90:.3f} |")
    print(f"\nratio of medians (flood / quiet): {lm / qm:.2f}; of p90: {l90 / q90:.2f}")


if __name__ == "__main__":
    main()
