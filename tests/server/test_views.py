"""What the server sends a seat: nothing it may not see, no seed, no outcome drawn early; the
turn clock hands an absent person's seat to a bot and back; undo over the wire."""

from __future__ import annotations

import json
import re
import time

from meeple.core.rng import Rng
from meeple.store import Store
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create, join

#: What a view holds is the same on either store; the seat's ``absent`` is tried on PostgreSQL
#: by test_faults (the clock running out while the database is down): SQLite only.
pytestmark = SQLITE_ONLY


def test_pergola_views_never_hold_a_leaf_or_a_seed_before_it_is_drawn(server: Server) -> None:
    joined = create(server, "pergola", {}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    join_as="Ann")
    table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
    seed = Store(server.db_url).table(table).seed
    p = Player(server.ws_base, table, seat, secret)
    watcher = Player(server.ws_base, table)
    rng = Rng(5)
    records = []
    try:
        while p.wait_turn(180):
            records.append(json.dumps(server.api("GET", f"/api/tables/{table}/record").json()))
            assert p.move(rng.choice(p.view["legal_moves"]))["type"] == "ack"
        while watcher.version < p.version:
            watcher.expect("view", 120)
    finally:
        p.close()
        watcher.close()
    log = server.api("GET", f"/api/tables/{table}/log").json()
    reveals = [(e["number"], e["text"].split()[2]) for e in log if e["text"].startswith("reveal")]
    draws = [(e["number"], e["text"]) for e in log if e["text"].startswith("draw")]
    assert reveals and draws
    frames = [f for f in p.frames + watcher.frames if f["type"] == "view"]
    assert frames
    for frame in frames:
        text = json.dumps(frame)
        assert str(seed) not in text
        v = frame["version"]
        assert all(line["number"] <= v for line in frame["view"]["log"])
        for number, leaf in reveals:
            if number > v:  # not revealed yet: that leaf is nowhere in the view
                assert not re.search(rf"\b{leaf}\b", text), (v, number, leaf)
        for number, draw in draws:
            if number > v:
                assert draw not in text
    for rec in records:  # a running game's record withholds the seed
        assert str(seed) not in rec
        assert json.loads(rec)["seed"] == 0
    final = server.api("GET", f"/api/tables/{table}/record").json()
    assert final["seed"] == seed  # once over, the record is complete


def test_the_turn_clock_lets_a_bot_play_for_an_absent_person_until_they_come_back(
        server: Server) -> None:
    t = create(server, "reefs", {"level": 1}, [{"kind": "human"}, {"kind": "human"}], clock=5)
    a = join(server, t["id"], "Ann")
    b = join(server, t["id"], "Bob")
    pa = Player(server.ws_base, t["id"], 0, a["secret"])
    pb = Player(server.ws_base, t["id"], 1, b["secret"])
    try:
        # nobody moves: after the clock, a stand-in plays, so the game goes on by itself (one
        # decision is enough here, where the subject is the seat's stored ``absent``; how the
        # stand-in plays on is test_clock's)
        start = pa.view["moves_played"]
        deadline = time.monotonic() + 300
        while pa.view["moves_played"] <= start:
            assert time.monotonic() < deadline, "no stand-in played"
            pa.recv(120)
        seats = server.api("GET", f"/api/tables/{t['id']}").json()["seats"]
        assert any(s["absent"] for s in seats)
        # both come back: their seats are theirs again
        pa.send({"type": "back"})
        pb.send({"type": "back"})
        deadline = time.monotonic() + 30
        while any(s["absent"] for s in server.api("GET", f"/api/tables/{t['id']}").json()["seats"]):
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        pa.close()
        pb.close()


def test_undo_inside_the_own_turn_over_the_websocket(server: Server) -> None:
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    a = join(server, t["id"], "Ann")
    b = join(server, t["id"], "Bob")
    pa = Player(server.ws_base, t["id"], 0, a["secret"])
    pb = Player(server.ws_base, t["id"], 1, b["secret"])
    try:
        mover = pa if pa.view["to_move"] == 0 else pb
        assert not mover.view["can_undo"]
        mover.send({"type": "undo", "version": mover.version, "id": "u0"})
        assert mover.expect("refused")["reason"]
        take = next(m for m in mover.view["legal_moves"] if m.startswith("take"))
        assert mover.move(take, "t1")["type"] == "ack"
        assert mover.view["can_undo"]
        moves = mover.view["moves_played"]
        mover.send({"type": "undo", "version": mover.version, "id": "u1"})
        assert mover.expect("ack")["type"] == "ack"
        while mover.view["moves_played"] != moves - 1:
            mover.recv(120)
        rec = server.api("GET", f"/api/tables/{t['id']}/record").json()
        assert take not in rec["moves"][-1:]
        kinds = [e["kind"] for e in server.api("GET", f"/api/tables/{t['id']}/log").json()]
        assert kinds[-2:] == ["move", "undo"]
    finally:
        pa.close()
        pb.close()
