"""Update frames (deltas) on a real server, over every game and variant: a connection that
said ``updates: true`` gets each new version as what changed since its last (JSON Patch), and
the view it rebuilds from them is, at every version, the whole view the server would send (the
REST view of the same seat, and of a spectator). A client that never asked gets whole views
only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import Server
from tests.server.test_play import VARIANTS, create


def rest_view(server: Server, table: str, seat: int | None, secret: str | None
              ) -> tuple[int, dict[str, Any]]:
    params = {} if seat is None else {"seat": seat}
    headers = {} if secret is None else {"X-Seat-Secret": secret}
    got = server.api("GET", f"/api/tables/{table}/view", params=params, headers=headers).json()
    return got["version"], got["view"]


def catch_up(p: Player, version: int) -> None:
    while p.version < version:
        p.recv(60)


@pytest.mark.parametrize(("game", "variant", "players"), VARIANTS,
                         ids=[f"{g}-{'-'.join(map(str, v.values())) or 'std'}"
                              for g, v, _ in VARIANTS])
def test_updates_rebuild_the_whole_view_at_every_version(
        server: Server, game: str, variant: dict[str, Any], players: int) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    joined = create(server, game, variant, seats, join_as="Ann")
    table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
    me = Player(server.ws_base, table, seat, secret, updates=True)
    watcher = Player(server.ws_base, table, updates=True)
    plain = Player(server.ws_base, table)  # a spectator that never asked for updates
    rng = Rng(5)
    checked = 0
    try:
        while me.wait_turn():
            version, whole = rest_view(server, table, seat, secret)
            if version == me.version:  # the table may have moved on meanwhile (a bot)
                assert me.view == whole, f"seat view at version {version}"
                checked += 1
            ack = me.move(rng.choice(me.view["legal_moves"]), f"u{checked}")
            assert ack["type"] == "ack", ack
            catch_up(watcher, ack["version"])
            catch_up(plain, ack["version"])
            version, whole = rest_view(server, table, None, None)
            if version == watcher.version == plain.version:
                assert watcher.view == whole == plain.view, f"spectator view at {version}"
        assert me.view["over"]
        final, whole = rest_view(server, table, None, None)
        catch_up(watcher, final)
        catch_up(plain, final)
        assert watcher.view == whole == plain.view
    finally:
        for p in (me, watcher, plain):
            p.close()
    assert checked > 0
    updates = [f for f in me.frames + watcher.frames if f["type"] == "update"]
    assert updates, "no update frame came"
    assert not any(f["type"] == "update" for f in plain.frames)
    assert all(f["type"] != "view" for f in watcher.frames[2:]), "a whole view after the first"
    # an update is smaller than the whole view it stands for
    whole_bytes = len(json.dumps({"type": "view", "view": whole}))
    mean = sum(len(json.dumps(f)) for f in updates) / len(updates)
    assert mean < whole_bytes, (mean, whole_bytes)
