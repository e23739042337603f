"""The pages under the server's Content-Security-Policy (issue 51): Chromium loads the lobby,
a running table (its drawing, its WebSocket) and /docs, and not one violation is reported.
(The served HTML's own rules, no inline script, style or handler, are checked without a
browser in tests/server/test_edge.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server, free_port
from tests.server.test_play import create

LISTEN = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
          "(e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


@pytest.fixture(scope="module")
def documented(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with its API docs on (``MEEPLE_API_DOCS``), served from its own files."""
    folder = tmp_path_factory.mktemp("documented")
    srv = Server(f"sqlite:///{folder / 'meeple.db'}", free_port(), folder / "server.log")
    srv.env = {"MEEPLE_API_DOCS": "1"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_the_pages_break_no_rule_of_their_policy_in_a_browser(documented: Server,
                                                               page: Any) -> None:
    t = create(documented, "gardens", {"level": 1}, [{"kind": "human"}, {
        "kind": "bot", "bot": "random"}], join_as="Ann")["table"]["id"]  # (waits for Ann)
    page.add_init_script(LISTEN)
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.goto(documented.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "gardens")
    assert page.evaluate("window.__csp") == []
    page.goto(f"{documented.base}/t/{t}")
    # a spectator: its WebSocket connected, the board drawn
    page.wait_for_function("() => document.getElementById('conn').textContent "
                           "=== 'connected'", timeout=60_000)
    page.wait_for_selector("#board svg", state="attached", timeout=60_000)
    assert page.evaluate("window.__csp") == []
    page.goto(documented.base + "/docs")
    page.wait_for_selector(".opblock", timeout=60_000)  # the operations are listed
    assert page.evaluate("window.__csp") == []
    assert logged == []
