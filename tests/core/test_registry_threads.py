"""The registry loads its games once, and threads asking at the same moment all see them."""

from __future__ import annotations

import subprocess
import sys


def test_threads_asking_for_games_at_once_all_find_them() -> None:
    # a fresh interpreter, so the registry is not loaded yet when the threads start
    code = """
import threading
import meeple
from meeple.core import registry
names, errors = [], []
go = threading.Barrier(8)
def ask():
    go.wait()
    try:
        names.append(registry.game_info("gardens").name)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert not errors, errors
assert names == ["gardens"] * 8, names
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
