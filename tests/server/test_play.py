"""Whole games over real WebSockets against a real server process, every game and variant."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server

VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    *(("gardens", {"level": lv}, 2) for lv in (1, 2, 3)),
    *(("reefs", {"level": lv}, 2) for lv in (1, 2, 3)),
    *(("takenokolor", {"sheet": s}, 2)
      for s in ("2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon")),
    ("pergola", {}, 2),
    ("pergola", {"challenge": 3}, 1),
]


def create(server: Server, game: str, variant: dict[str, Any], seats: list[dict[str, Any]],
           **extra: Any) -> dict[str, Any]:
    r = server.api("POST", "/api/tables", json={"game": game, "variant": variant,
                                                 "seats": seats, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(server: Server, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
    r = server.api("POST", f"/api/tables/{table}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def play_out(p: Player, rng: Rng) -> int:
    """Play random legal moves for the player's seat until the game ends; returns moves made."""
    made = 0
    while p.wait_turn():
        legal = p.view["legal_moves"]
        got = p.move(rng.choice(legal), move_id=f"m{p.seat}-{made}")
        assert got["type"] == "ack", got
        made += 1
    return made


def rest_view(server: Server, table: str, seat: int | None, secret: str | None
              ) -> tuple[int, dict[str, Any]]:
    """The table's version and whole view as ``seat`` (None: a spectator) over REST."""
    params = {} if seat is None else {"seat": seat}
    headers = {} if secret is None else {"X-Seat-Secret": secret}
    got = server.api("GET", f"/api/tables/{table}/view", params=params, headers=headers).json()
    return got["version"], got["view"]


def _on_both_stores(variants: list[tuple[str, dict[str, Any], int]]) -> list[Any]:
    """Every variant on SQLite; the first variant of each game on PostgreSQL too (the store
    keeps moves the same way whatever the game: one game each proves it there). The store
    comes from ``db_url``'s own parameters, so pytest starts each store's server once per
    worker (an indirect ``db_url`` in this list would give every case its own parameter
    index, and so its own server start: about 2.5 s a case)."""
    seen: set[str] = set()
    out = []
    for g, v, n in variants:
        name = f"{g}-{'-'.join(map(str, v.values())) or 'std'}"
        out.append(pytest.param(g, v, n, id=name, marks=[SQLITE_ONLY] if g in seen else []))
        seen.add(g)
    return out


@pytest.mark.parametrize(("game", "variant", "players"), _on_both_stores(VARIANTS))
def test_a_whole_game_with_a_bot_and_a_scripted_human(server: Server, game: str,
                                                     variant: dict[str, Any],
                                                     players: int) -> None:
    """A whole game of every game and variant. The person's connection and one spectator's
    take update frames (deltas, src/meeple/server/table/README.md): the views they rebuild from them are the
    whole views another spectator (who never asked for updates) gets at every version, and
    the person's is the REST view of its seat."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    joined = create(server, game, variant, seats, join_as="Ann")
    table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
    p = Player(server.ws_base, table, seat, secret, updates=True)
    watcher = Player(server.ws_base, table, updates=True)
    plain = Player(server.ws_base, table)
    rng = Rng(7)
    made = compared = 0
    try:
        while p.wait_turn():
            if made % 10 == 0:
                version, whole = rest_view(server, table, seat, secret)
                if version == p.version:  # (a bot may have moved meanwhile)
                    assert p.view == whole, f"the seat's view at version {version}"
                    compared += 1
            got = p.move(rng.choice(p.view["legal_moves"]), move_id=f"m{p.seat}-{made}")
            assert got["type"] == "ack", got
            made += 1
            for other in (watcher, plain):
                while other.version < p.version:
                    other.recv(60)
            if watcher.version == plain.version:
                assert watcher.view == plain.view, f"the spectators' views at {plain.version}"
        final, whole = rest_view(server, table, None, None)
        for other in (watcher, plain):
            while other.version < final:
                other.recv(60)
        assert watcher.view == whole == plain.view
    finally:
        for c in (p, watcher, plain):
            c.close()
    assert compared > 0
    assert any(f["type"] == "update" for f in watcher.frames)
    assert not any(f["type"] == "update" for f in plain.frames)
    assert all(f["type"] != "view" for f in watcher.frames[2:]), "a whole view after the first"
    assert made > 0
    assert p.view["over"]
    rec = server.api("GET", f"/api/tables/{table}/record").json()
    replayed = meeple.replay(rec)
    assert [s.total for s in replayed.scores()] == [s["total"] for s in p.view["scores"]]
    assert [dict(s.breakdown) for s in replayed.scores()] == [s["rows"] for s in p.view["scores"]]
    info = server.api("GET", f"/api/tables/{table}").json()
    assert info["status"] == "finished"
    assert info["result"] == rec["scores"]
