"""The long fuzz run, outside CI (issue 35; docs/fuzzing.md).

Runs the fuzz tests (``tests/server/test_fuzz_api.py``: schemathesis on every operation of the
server's /openapi.json, hostile requests on every endpoint; ``tests/server/test_fuzz_ws.py``:
hostile frames of every type over a real WebSocket) with every example count multiplied by
``--scale`` (CI runs them at 1), on a seed of your choice, against a real ``meeple serve`` on
127.0.0.1 (SQLite, and PostgreSQL too if ``MEEPLE_TEST_POSTGRES`` names a server, as
``scripts/test`` sets it). Each failure is listed with the server log's traceback line.

    uv run python benchmarks/fuzz_long.py                      # scale 20, the CI seed
    uv run python benchmarks/fuzz_long.py --scale 100 --seed 7
    uv run python benchmarks/fuzz_long.py --only ws --scale 50 # the WebSocket part only

Every request goes to the server this run starts on 127.0.0.1; the run is bounded by its
example counts (the time grows about linearly with ``--scale``) and by ``--max-minutes``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = {"api": "tests/server/test_fuzz_api.py", "ws": "tests/server/test_fuzz_ws.py"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=20,
                        help="multiply every example count by this (CI: 1)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of Hypothesis and schemathesis (default: CI's, 3535)")
    parser.add_argument("--only", choices=sorted(FILES), default=None,
                        help="run one part only: api (REST) or ws (WebSocket)")
    parser.add_argument("--max-minutes", type=float, default=240,
                        help="stop the run after this long (default 240)")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args()

    env = {**os.environ, "MEEPLE_FUZZ_SCALE": str(max(1, args.scale))}
    if args.seed is not None:
        env["MEEPLE_FUZZ_SEED"] = str(args.seed)
    files = [FILES[args.only]] if args.only else list(FILES.values())
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-rf",
           *files, *args.pytest_args]
    print(f"fuzzing at scale {args.scale}, seed {env.get('MEEPLE_FUZZ_SEED', '3535')}: "
          f"{' '.join(cmd[1:])}", flush=True)
    started = time.monotonic()
    try:
        done = subprocess.run(cmd, cwd=ROOT, env=env, timeout=args.max_minutes * 60)
    except subprocess.TimeoutExpired:
        print(f"stopped after {args.max_minutes} minutes", file=sys.stderr)
        return 2
    print(f"done in {(time.monotonic() - started) / 60:.1f} min: "
          f"{'no failure' if done.returncode == 0 else 'failures above'}", flush=True)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
