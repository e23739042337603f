"""Another client's sign-in time while one address floods password checks (issue 58, finding
4): forty connections of one address (X-Forwarded-For through the trusted 127.0.0.1) sign in
without pause, the sign-in rates off, while another address signs in ten times.

    uv run python benchmarks/bench_hash_flood.py PORT
"""

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

port = int(sys.argv[1])
base = f"http://127.0.0.1:{port}"
env = dict(
    os.environ,
    MEEPLE_TRUSTED_PROXIES="127.0.0.1",
    MEEPLE_RATE_SIGNIN="off",
    MEEPLE_RATE_SIGNIN_USER="off",
    MEEPLE_RATE_SIGNUP="off",
)
proc = subprocess.Popen(
    [
        sys.executable,
        "-m",
        "meeple",
        "serve",
        "--port",
        str(port),
        "--db",
        str(Path(tempfile.mkdtemp()) / "meeple.db"),
        "--bot-workers",
        "1",
    ],
    env=env,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
try:
    for _ in range(300):
        try:
            if httpx.get(base + "/api/games").status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pw = "correct horse battery"
    for u in ("flooder", "victim"):
        httpx.post(base + "/api/accounts", json={"username": u, "password": pw}, timeout=60)

    def quiet():
        times = []
        with httpx.Client(base_url=base, timeout=120, headers={"X-Forwarded-For": "198.51.100.2"}) as c:
            for _ in range(10):
                t = time.perf_counter()
                r = c.post("/api/session", json={"username": "victim", "password": pw})
                times.append(time.perf_counter() - t)
                assert r.status_code == 200, r.text
        return statistics.median(times)

    alone = quiet()
    stop = threading.Event()
    codes = []

    def flood():
        with httpx.Client(base_url=base, timeout=120, headers={"X-Forwarded-For": "198.51.100.1"}) as c:
            while not stop.is_set():
                codes.append(c.post("/api/session", json={"username": "flooder", "password": pw}).status_code)

    threads = [threading.Thread(target=flood) for _ in range(40)]
    for t in threads:
        t.start()
    time.sleep(2)
    flooded = quiet()
    stop.set()
    for t in threads:
        t.join()
    print(
        f"victim sign-in median alone {alone:.2f} s, under a 40-connection flood {flooded:.2f} s; "
        f"flood answers: {sum(c == 200 for c in codes)} x 200, {sum(c == 429 for c in codes)} x 429"
    )
finally:
    proc.terminate()
    proc.wait()
