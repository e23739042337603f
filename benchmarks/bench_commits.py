"""What the database takes: commits a second of the move path's append (the guarded version
UPDATE, the log INSERT and the NOTIFY, :meth:`meeple.store.Store.append`) on PostgreSQL, for
docs/deploy.md's model of many server processes and hosts on one database.

On a fresh database of ``--postgres URL`` (default MEEPLE_TEST_POSTGRES) with ``--tables``
tables (Reefs), each row runs for ``--seconds`` (bounded) and is stopped by itself:
- one writer, one move a commit (the latency of a commit, as one process sees it);
- ``--threads`` writers at once, each on its own tables, one move a commit (what several
  processes' commits add up to);
- one writer, every table's next move in one transaction (``append_group``: the group commit a
  busy process makes), as moves a second.

    uv run python benchmarks/bench_commits.py [--seconds 5] [--threads 4] [--tables 100]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_server import _drop_pg, _fresh_pg  # noqa: E402

from meeple.store import Store  # noqa: E402
from meeple.store.store import Append, Entry, SeatSpec  # noqa: E402


def one_writer(store: Store, tables: list[str], versions: dict[str, int], seconds: float,
               stop: threading.Event | None = None) -> int:
    """Moves appended one a commit, round the ``tables``, for ``seconds``: how many."""
    made = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (stop and stop.is_set()):
        t = tables[made % len(tables)]
        versions[t] = store.append(t, versions[t], [Entry("move", 0, "m")])
        made += 1
    return made


def grouped(store: Store, tables: list[str], versions: dict[str, int], seconds: float
            ) -> tuple[int, int]:
    """Every table's next move in one transaction, again and again: (moves, commits)."""
    moves = commits = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = store.append_group([Append(t, versions[t], [Entry("move", 0, "m")])
                                  for t in tables])
        for t, v in zip(tables, got, strict=True):
            assert isinstance(v, int), v
            versions[t] = v
        moves += len(tables)
        commits += 1
    return moves, commits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--postgres", default=os.environ.get("MEEPLE_TEST_POSTGRES"))
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--tables", type=int, default=100)
    args = ap.parse_args()
    if not args.postgres:
        raise SystemExit("give --postgres URL (or set MEEPLE_TEST_POSTGRES)")
    url = _fresh_pg(args.postgres)
    try:
        store = Store(url)
        store.migrate()
        tables = [store.create_table("reefs", {"level": 1}, 2, [SeatSpec(), SeatSpec()],
                                     public=False).table_id for _ in range(args.tables)]
        versions = {t: store.table(t).version for t in tables}
        cpu0 = time.process_time()
        n = one_writer(store, tables, versions, args.seconds)
        cpu = time.process_time() - cpu0
        print(f"one writer, a move a commit: {n / args.seconds:,.0f} commits/s "
              f"({1000 * args.seconds / n:.2f} ms a commit, {1000 * cpu / n:.2f} ms of this "
              f"process's CPU)")
        counts = [0] * args.threads
        share = max(1, len(tables) // args.threads)

        def writer(i: int) -> None:
            mine = tables[i * share:(i + 1) * share] or tables[:1]
            counts[i] = one_writer(Store(url), mine, versions, args.seconds)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(args.threads)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=args.seconds + 120)
        print(f"{args.threads} writers at once, a move a commit: "
              f"{sum(counts) / args.seconds:,.0f} commits/s")
        moves, commits = grouped(store, tables, versions, args.seconds)
        print(f"one writer, {len(tables)} tables' moves a commit: {moves / args.seconds:,.0f} "
              f"moves/s ({commits / args.seconds:,.1f} commits/s)")
        print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        store.close()
    finally:
        _drop_pg(args.postgres, url)


if __name__ == "__main__":
    main()
