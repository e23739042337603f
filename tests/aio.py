"""``run(coroutine)``: asyncio.run in a thread of its own. A worker that ran a browser test
holds Playwright's event loop running in its main thread for the rest of the session, and
asyncio.run refuses to start inside a running loop; a thread has none."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(1, thread_name_prefix="test-asyncio") as pool:
        return pool.submit(asyncio.run, coroutine).result()
