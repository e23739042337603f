"""Browser tests: Playwright for Python driving Debian's Chromium (never ``playwright install``)
against a real ``meeple serve`` process on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server, free_port

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs Chromium at {CHROMIUM} (scripts/test installs it)")
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on an SQLite file (the browser tests are about the page; the storage tests
    cover PostgreSQL)."""
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'web.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"
