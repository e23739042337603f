"""The server says which steps of a turn were forced (a decision with one legal move), so a
client keeps no rule of its own for it: the seat to move's view frame names the forced
decisions that open its turn (``forced``), a preview marks each of its moves (``forced``), and
a fresh connection after a reconnect marks a re-sent turn the same as the one that built it.
Tried on a real server process, over a whole Gardens game (about a fifth of its turns open
with a forced pencil: the last one left)."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create, join

#: Forced steps are the turn's and the service's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY


def latest_view_frame(p: Player) -> dict[str, Any]:
    return next(f for f in reversed(p.frames) if f["type"] == "view")


def preview(p: Player, moves: list[str]) -> dict[str, Any]:
    p.send({"type": "preview", "moves": moves})
    return p.expect("preview", 120)


def test_the_server_names_the_forced_steps_of_a_turn(server: Server) -> None:
    t = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}])
    secrets = {s["seat"]: s["secret"] for s in (join(server, t["id"], "Ann"),
                                                 join(server, t["id"], "Bob"))}
    players = {seat: Player(server.ws_base, t["id"], seat, secrets[seat]) for seat in (0, 1)}
    rng = Rng(11)
    openings = marked = rechecked = 0
    try:
        for turn in range(400):
            mover = next((p for p in players.values() if p.view["to_move"] == p.seat), None)
            if mover is None:
                assert all(p.view["over"] for p in players.values())
                break
            frame = latest_view_frame(mover)
            legal = mover.view["legal_moves"]
            other = players[1 - mover.seat]
            # the opening's forced decisions: named to the seat to move only, and only when
            # its first decision has one legal move
            assert "forced" not in latest_view_frame(other)
            buffer: list[str] = frame.get("forced", [])
            flags: list[bool] = [True] * len(buffer)
            if len(legal) == 1:
                assert buffer and buffer[0] == legal[0]
                openings += 1
                answer = preview(mover, buffer)
                assert answer["moves"] == buffer and answer["forced"] == flags
            else:
                assert not buffer
            complete = bool(buffer) and bool(answer["complete"])
            while not complete:
                view = answer["view"] if buffer else mover.view
                choice = rng.choice(view["legal_moves"])
                answer = preview(mover, [*buffer, choice])
                added = answer["moves"][len(buffer):]
                assert added[0] == choice and len(answer["forced"]) == len(answer["moves"])
                assert answer["forced"][:len(buffer)] == flags
                # the click's own step is forced only if it was the one legal move
                assert answer["forced"][len(buffer)] is (len(view["legal_moves"]) == 1)
                assert all(answer["forced"][len(buffer) + 1:])  # what the server added
                marked += len(added) - 1
                buffer, flags, complete = answer["moves"], answer["forced"], answer["complete"]
            if any(flags) and not all(flags) and rechecked < 3:
                # a reconnect: a fresh connection's turn marks the re-sent moves the same
                fresh = Player(server.ws_base, t["id"], mover.seat, secrets[mover.seat])
                try:
                    again = preview(fresh, buffer)
                    assert again["moves"] == buffer and again["forced"] == flags
                finally:
                    fresh.close()
                rechecked += 1
            mover.send({"type": "move", "moves": buffer, "version": mover.version,
                        "id": f"t{turn}"})
            ack = mover.expect("ack", 120)
            assert ack["id"] == f"t{turn}"
            for p in players.values():  # both see the new position before the next turn
                while latest_view_frame(p)["version"] < ack["version"]:
                    p.recv(120)
        assert openings >= 1, "no turn opened with a forced decision in a whole game"
        assert marked >= 1 and rechecked >= 1
    finally:
        for p in players.values():
            p.close()
