"""The test servers' ports (tests/server/conftest.py): picked outside the kernel's ephemeral
range, and a first start whose port another process took in the meantime moves to another
port, where a restart keeps its own (CI once failed on "address already in use")."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.server.conftest import PORTS, Server, free_port


def test_free_ports_are_outside_the_ephemeral_range() -> None:
    low, _high = (int(x) for x in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    picked = {free_port() for _ in range(50)}
    assert all(p in PORTS and p < low for p in picked)


def test_a_first_start_moves_off_a_taken_port_and_a_restart_keeps_its_own(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", free_port()))
    taken.listen()
    port = taken.getsockname()[1]
    srv = Server(f"sqlite:///{tmp_path / 'm.db'}", port, tmp_path / "server.log")
    try:
        srv.start()
        assert srv.port != port and srv.base.endswith(f":{srv.port}")
        assert srv.api("GET", "/api/games").status_code == 200
        moved = srv.port
        srv.restart(kill=True)
        assert srv.port == moved and srv.api("GET", "/api/games").status_code == 200
    finally:
        srv.stop()
        taken.close()
