"""meeple on the internet as docs/deploy.md sets it up, tried on this machine (issue 51):
Debian's nginx terminating TLS (a self-signed certificate made for the test) in front of two
``meeple serve`` processes on one PostgreSQL, everything on 127.0.0.1. A game is played over
WebSockets through the proxy (the two seats reach different processes), and the real client
address reaches the rate limiter: clients on 127.0.0.2 and 127.0.0.3 (the loopback range) are
counted apart behind the proxy, and an X-Forwarded-For a client writes itself changes nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from meeple.core.delta import apply_patch
from tests.server import nginx
from tests.server.conftest import Server, free_port

#: The deployment is PostgreSQL's (two processes share tables through it); on SQLite the
#: module's server is not started (the fixture below makes its own processes).
pytestmark = pytest.mark.skipif(not nginx.available(),
                                reason="nginx or openssl is not installed "
                                       "(scripts/test installs them with apt-get)")

#: Tables a client may create a minute, set low here so the test reaches the limit fast.
CREATE_LIMIT = 5


@pytest.fixture(scope="module")
def site(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[nginx.Nginx]:
    if not db_url.startswith("postgresql"):
        pytest.skip("the deployment of docs/deploy.md is two processes on one PostgreSQL")
    folder = tmp_path_factory.mktemp("site")
    port = free_port()
    public = f"https://127.0.0.1:{port}"
    servers = [Server(db_url, free_port(), folder / f"meeple{k}.log") for k in range(2)]
    for srv in servers:
        # the settings docs/deploy.md names: the proxy trusted, the public host and origin
        srv.env = {"MEEPLE_TRUSTED_PROXIES": "127.0.0.1",
                   "MEEPLE_ALLOWED_HOSTS": f"127.0.0.1,127.0.0.1:{port},localhost",
                   "MEEPLE_ALLOWED_ORIGINS": public,
                   "MEEPLE_RATE_CREATE": f"{CREATE_LIMIT}/minute",
                   "MEEPLE_OPEN_TABLES": "100"}
        srv.start()
    proxy = nginx.Nginx(folder, port, [s.port for s in servers])
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()
        for srv in servers:
            srv.stop()


def _client(site: nginx.Nginx, address: str) -> httpx.Client:
    """An HTTPS client of the site whose connections come from ``address`` (127.0.0.x)."""
    return httpx.Client(base_url=site.base, verify=site.tls, timeout=60,
                        transport=httpx.HTTPTransport(local_address=address, verify=site.tls))


def _table(http: httpx.Client, headers: dict[str, str] | None = None, **extra: Any
           ) -> httpx.Response:
    return http.post("/api/tables", headers=headers,
                     json={"game": "reefs", "variant": {"level": 1},
                           "seats": [{"kind": "human"}, {"kind": "human"}], **extra})


def test_a_game_played_over_websockets_through_the_proxy(site: nginx.Nginx) -> None:
    with _client(site, "127.0.0.4") as http:
        made = _table(http, join_as="Ann")
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        ann = made.json()["secret"]
        bob = http.post(f"/api/tables/{table}/join", json={"name": "Bob"}).json()["secret"]
    secrets = {0: ann, 1: bob}
    views: dict[int, dict[str, Any]] = {}
    versions = {0: -1, 1: -1}
    with contextlib.ExitStack() as stack:
        sockets = {seat: stack.enter_context(connect(
            f"{site.ws_base}/ws/tables/{table}", ssl=site.tls, origin=site.base,  # type: ignore[arg-type]
            open_timeout=60, close_timeout=10, ping_interval=None)) for seat in (0, 1)}
        def read(seat: int) -> dict[str, Any]:
            frame: dict[str, Any] = json.loads(sockets[seat].recv(timeout=60))
            if frame["type"] == "view":
                versions[seat], views[seat] = frame["version"], frame["view"]
            elif frame["type"] == "update":
                assert frame["base"] == versions[seat]
                versions[seat] = frame["version"]
                views[seat] = apply_patch(views[seat], frame["patch"])
            return frame

        for seat in (0, 1):
            sockets[seat].send(json.dumps({"type": "hello", "seat": seat,
                                           "secret": secrets[seat], "updates": True,
                                           "merged_ack": True}))
            while read(seat)["type"] != "view":
                pass
        moves = 0
        while moves < 12:
            version = max(versions.values())
            for seat in (0, 1):
                while versions[seat] < version:
                    read(seat)
            mover = next((s for s in (0, 1) if views[s]["to_move"] == s), None)
            if mover is None:
                break
            sockets[mover].send(json.dumps({"type": "move", "version": versions[mover],
                                            "move": views[mover]["legal_moves"][0],
                                            "id": f"m{moves}"}))
            while "ack" not in (got := read(mover)):
                assert got["type"] not in ("refused", "error"), got
            moves += 1
        assert moves == 12


def test_the_real_client_address_reaches_the_rate_limiter(site: nginx.Nginx) -> None:
    """Each process counts on its own (docs/deploy.md), so behind two processes a client gets
    at most twice the limit; a forged X-Forwarded-For, a new one each request, would give a
    fresh budget every time if it were believed."""
    with _client(site, "127.0.0.2") as flood, _client(site, "127.0.0.3") as other:
        codes = [_table(flood, {"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                 for i in range(2 * CREATE_LIMIT + 2)]
        assert set(codes) == {201, 429}, codes
        assert codes.count(201) <= 2 * CREATE_LIMIT
        refused = _table(flood)
        assert refused.status_code == 429 and refused.headers.get("retry-after")
        assert _table(other).status_code == 201  # another address: its own budget
