"""A site that answers like a site (issue 58), from outside on a real server process:

- every unknown page is the site's HTML 404 page (with the way back and the security
  headers), while the API (``/api/...``) keeps JSON; an unknown game is a 404 on
  ``/leaderboard/<game>`` (the page) and ``/api/leaderboard/<game>`` (naming the games);
- ``Cache-Control: no-store`` on every API answer (the account, its CSRF token, the
  export, sign-in and sign-up, passkey options, seat secrets), the pages ``no-cache``;
- refused WebSocket handshakes (another site's page, over the per-client socket cap) are
  logged in bounded form: no ERROR line each, no traceback.

The pages, the cache headers and the log are the server's, not the store's: SQLite only."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from meeple.server.edge import LOG_BUDGET
from tests.server.conftest import SQLITE_ONLY, Server, free_port
from tests.server.test_accounts import Browser

pytestmark = SQLITE_ONLY

GAMES = ("gardens", "reefs", "takenokolor", "pergola")


def is_404_page(r: httpx.Response) -> str:
    """The site's 404 page: HTML, its heading, the way back, the security headers."""
    assert r.status_code == 404, (r.request.url, r.status_code, r.text[:200])
    assert r.headers["content-type"].startswith("text/html"), r.headers
    assert "Back to the lobby" in r.text and '<a class="back-to-lobby" href="/">' in r.text
    assert "content-security-policy" in r.headers and r.headers["x-frame-options"] == "DENY"
    assert '"detail"' not in r.text
    return r.text


def test_unknown_pages_are_the_404_page_and_the_api_keeps_json(server: Server) -> None:
    for path in ("/nope", "/nope/deeper", "/t", "/account/nope", "/u/x/y", "/static/nope.js",
                 "/index.html", "/%3Cb%3Ex"):
        text = is_404_page(server.api("GET", path))
        assert "There is no page" in text
        assert "<b>x" not in text  # the path is escaped
    for path in ("/api/nope", "/api/tables/x/nope", "/api/leaderboard"):
        r = server.api("GET", path)
        assert r.status_code == 404 and r.headers["content-type"] == "application/json"
        assert r.json()["detail"] == "Not Found"


def test_an_unknown_game_is_a_404_on_the_leaderboard_page_and_api(server: Server) -> None:
    for game in GAMES:
        assert server.api("GET", f"/leaderboard/{game}").status_code == 200
        assert server.api("GET", f"/api/leaderboard/{game}").status_code == 200
    for game in ("chess", "Gardens", "gardens%20", "%3Cscript%3E"):
        text = is_404_page(server.api("GET", f"/leaderboard/{game}"))
        assert "There is no leaderboard for" in text and "no rating" not in text
        assert "<script>" not in text.split("<main>")[1]
        assert all(g in text for g in GAMES)
        r = server.api("GET", f"/api/leaderboard/{game}")
        assert r.status_code == 404, r.text
        assert r.headers["content-type"] == "application/json"
        detail = r.json()["detail"]
        assert "no game" in detail and all(g in detail for g in GAMES), detail
    # the other pages with a game or a name: rules, a table, a profile
    assert is_404_page(server.api("GET", "/rules/chess"))
    assert is_404_page(server.api("GET", "/t/nosuchtable"))
    r = server.api("GET", "/u/nobody_at_all_here")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert server.api("GET", "/api/rules/chess").status_code == 404


def test_api_answers_say_no_store_and_pages_no_cache(server: Server) -> None:
    b = Browser(server)
    try:
        r = b.http.post("/api/accounts", json={"username": f"nostore{free_port()}",
                                               "password": "correct horse battery"})
        assert r.status_code == 201 and "csrf" in r.json()
        assert r.headers["cache-control"] == "no-store"
        b.csrf, b.username = r.json()["csrf"], r.json()["account"]["username"]
        for path in ("/api/me", "/api/session", "/api/me/export", "/api/me/mail",
                     "/api/me/games", "/api/me/passkeys"):
            r = b.request("GET", path)
            assert r.status_code == 200, (path, r.text)
            assert r.headers["cache-control"] == "no-store", path
        r = b.sign_in()
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        r = b.request("POST", "/api/passkeys/register/options", json={})
        assert r.headers["cache-control"] == "no-store", r.text
        r = b.request("POST", "/api/tables", json={
            "game": "gardens", "variant": {"level": 1}, "join_as": "Ann",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201 and "secret" in r.json()
        assert r.headers["cache-control"] == "no-store"
        # a refusal and a guest's answer too
        r = server.api("GET", "/api/me")
        assert r.status_code == 401 and r.headers["cache-control"] == "no-store"
        assert server.api("GET", "/api/session").headers["cache-control"] == "no-store"
        # the pages are asked for again each time (no-cache), as before
        for path in ("/", "/account", "/u/"):
            assert server.api("GET", path).headers["cache-control"] == "no-cache"
    finally:
        b.close()


# ------------------------------------------------------------------------ refused sockets
@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with a cap of one WebSocket per client."""
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'capped.db'}", free_port(),
                 tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_WS_PER_CLIENT": "1"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_refused_websocket_handshakes_are_logged_in_bounded_form(capped: Server) -> None:
    r = capped.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {"level": 1}, "join_as": "Ann",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    url = f"{capped.ws_base}/ws/tables/{r.json()['table']['id']}"
    before = capped.log.read_bytes()
    statuses: dict[int, int] = {}

    def refused(**kw: str) -> None:
        try:
            ws = connect(url, open_timeout=30, **kw)  # type: ignore[arg-type]
        except InvalidStatus as exc:
            code = exc.response.status_code
            statuses[code] = statuses.get(code, 0) + 1
            return
        ws.close()
        raise AssertionError("the handshake was let in")

    start = time.monotonic()
    with connect(url, open_timeout=30):  # the client's one socket
        for _ in range(100):  # another site's page: 403
            refused(origin="http://evil.example")
        for _ in range(100):  # over the cap of one socket: 429
            refused()
    assert statuses == {403: 100, 429: 100}
    # the server is still well, and what it wrote is bounded and says what happened
    assert capped.api("GET", "/api/games").status_code == 200
    written = capped.log.read_bytes()[len(before):].decode("utf-8", "replace")
    lines = [line for line in written.splitlines() if line.strip()]
    assert "ERROR" not in written and "Traceback" not in written, written[:2000]
    # LOG_BUDGET lines in each minute of the monotonic clock (system-wide, so the server's
    # minutes are these) and one counting the rest: the handshakes may straddle a minute's
    # end, and a slow machine spreads them over several
    minutes = int(time.monotonic() // 60) - int(start // 60) + 1
    assert len(lines) <= minutes * (LOG_BUDGET + 1) + 2, (len(lines), minutes)
    assert any("refused 403 WebSocket" in line for line in lines), lines[:5]
