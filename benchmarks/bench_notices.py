"""What a server process spends on another process's notice of a table it does not hold (the
*n* of docs/deploy.md's model of many processes: every process receives every move's notice).

Two ways, in one run, alternating rounds: ``handed over`` is the listener handing every notice
to the event loop, which then finds it does not hold the table (the listener before
2026-12-06); ``skipped in the thread`` is the listener's own check
(:meth:`meeple.server.table.fanout.PgListener.handle`). The event loop runs in a thread of this
process, so the process's CPU time counts both sides. No database: the notices are made here,
as psycopg would hand them over.

    uv run python benchmarks/bench_notices.py [--notices 20000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from meeple.server.table.fanout import PgListener  # noqa: E402
from meeple.server.table.service import Service  # noqa: E402
from meeple.store import Store  # noqa: E402


def per_notice(listener: PgListener, loop: asyncio.AbstractEventLoop, payloads: list[str]
               ) -> float:
    """CPU microseconds a notice (this process, every thread), the event loop drained."""
    cpu = time.process_time()
    for p in payloads:
        listener.handle(p)
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(60)  # what was queued ran
    return (time.process_time() - cpu) / len(payloads) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notices", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'meeple.db'}")
        svc = Service(store, None, bots=False)
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, daemon=True)
        thread.start()
        listener = PgListener("postgresql+psycopg://meeple@127.0.0.1/meeple", svc, loop)
        payloads = [f"t{k % 500:031d}:{k}:0f0f0f0f0f0f" for k in range(args.notices)]
        held = svc.authority.holds
        rows: dict[str, list[float]] = {"handed over": [], "skipped in the thread": []}
        try:
            for _ in range(args.rounds):
                svc.authority.holds = lambda _t: True  # type: ignore[method-assign]
                rows["handed over"].append(per_notice(listener, loop, payloads))
                svc.authority.holds = held  # type: ignore[method-assign]
                rows["skipped in the thread"].append(per_notice(listener, loop, payloads))
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
            store.close()
    print(f"{args.notices} notices of tables this process does not hold, {args.rounds} rounds")
    print("| way | CPU us a notice (each round) | best |")
    print("|---|---|---:|")
    for name, got in rows.items():
        print(f"| {name} | {', '.join(f'{g:.1f}' for g in got)} | {min(got):.1f} |")
    ratio = min(rows["skipped in the thread"]) / min(rows["handed over"])
    print(f"skipped / handed over (best): {ratio:.3f}x")


if __name__ == "__main__":
    main()
