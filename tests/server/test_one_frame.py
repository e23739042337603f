"""The move path's frames for a client that asks (issue 50), on a real server process, over
whole games of every game: a move that is accepted is acknowledged inside the update frame of
the new version (one frame, ``merged_ack``); previews come as patches of the view the
connection holds (``preview_updates``) and give the same view as a whole preview; a turn
that opens with forced decisions is previewed by the server unasked (``opening``), and the
turn confirmed from there is stored as the decisions sent. A client that asked for none of
this gets the frames as before (the other server tests)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.sync.client import connect

from meeple.core.delta import apply_patch
from meeple.core.rng import Rng
from tests.server.client import Player
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_play import create, join

#: The frames are the service's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY

GAMES = [("gardens", {"level": 1}), ("reefs", {"level": 1}),
         ("takenokolor", {"sheet": "2-pandas"}), ("pergola", {})]


class NewClient:
    """A seat's connection that asks for every addition of issue 50 and checks each frame."""

    def __init__(self, server: Server, table: str, seat: int, secret: str) -> None:
        self._cm = connect(f"{server.ws_base}/ws/tables/{table}", open_timeout=60,
                           max_size=None, ping_interval=None, close_timeout=30)
        self.ws = self._cm.__enter__()
        self.seat = seat
        self.view: dict[str, Any] = {}
        self.version = -1
        self.openings: list[dict[str, Any]] = []
        self.send({"type": "hello", "seat": seat, "secret": secret, "updates": True,
                   "merged_ack": True, "preview_updates": True, "opening": True})
        assert self.recv()["type"] == "welcome"

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def recv(self, timeout: float = 120) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "view":
            self.version, self.view = frame["version"], frame["view"]
        elif frame["type"] == "update":
            assert frame["base"] == self.version
            self.version, self.view = frame["version"], apply_patch(self.view, frame["patch"])
        elif frame["type"] == "preview":
            assert "view" not in frame and frame["base"] == self.version
            frame["view"] = apply_patch(self.view, frame["patch"])
            if frame.get("opening"):
                assert frame["version"] == self.version
                self.openings.append(frame)
        assert frame["type"] != "ack", "an accepted move is acknowledged in its update"
        return frame

    def until(self, kinds: tuple[str, ...], timeout: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.1, deadline - time.monotonic()))
            if frame["type"] in kinds:
                return frame

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def _settle(clients: dict[int, NewClient], version: int) -> None:
    """Read every client's frames until each holds ``version`` (and any opening preview that
    follows it has come: the server sends it right after the view)."""
    for c in clients.values():
        while c.version < version:
            c.recv()


@pytest.mark.parametrize(("game", "variant"), GAMES, ids=[g for g, _ in GAMES])
def test_one_frame_per_accepted_move_and_previews_as_patches(server: Server, game: str,
                                                             variant: dict[str, Any]) -> None:
    t = create(server, game, variant, [{"kind": "human"}, {"kind": "human"}])
    secrets = {s["seat"]: s["secret"] for s in (join(server, t["id"], "Ann"),
                                                 join(server, t["id"], "Bob"))}
    clients = {seat: NewClient(server, t["id"], seat, secrets[seat]) for seat in (0, 1)}
    plain = {seat: Player(server.ws_base, t["id"], seat, secrets[seat]) for seat in (0, 1)}
    rng = Rng(5)
    turns = openings = checked = 0
    try:
        for c in clients.values():
            c.until(("view",))
        for _turn in range(12):
            version = max(c.version for c in clients.values())
            _settle(clients, version)
            mover = next((c for c in clients.values() if c.view.get("to_move") == c.seat), None)
            if mover is None:
                break
            # a turn that opens with forced decisions: previewed unasked, right after the view
            opening: list[str] = []
            if len(mover.view["legal_moves"]) == 1:
                frame = mover.until(("preview",), 30)
                assert frame.get("opening") and frame["forced"][0] is True
                opening = frame["moves"]
                openings += 1
                answer = frame
            buffer = list(opening)
            complete = bool(opening) and answer["complete"]
            while not complete:
                view = answer["view"] if buffer else mover.view
                buffer.append(rng.choice(view["legal_moves"]))
                mover.send({"type": "preview", "moves": buffer})
                answer = mover.until(("preview",))
                assert not answer.get("opening")
                # the patched view is the whole one a plain connection gets for that preview
                if checked < 6:
                    plain[mover.seat].send({"type": "preview", "moves": buffer})
                    whole = plain[mover.seat].expect("preview")
                    assert whole["view"] == answer["view"]
                    assert whole["moves"] == answer["moves"]
                    checked += 1
                buffer, complete = answer["moves"], answer["complete"]
            mover.send({"type": "move", "moves": buffer, "version": mover.version,
                        "id": f"t{_turn}"})
            got = mover.until(("view", "update", "refused", "error"))
            assert got["type"] == "update", got
            assert got["ack"] == {"id": f"t{_turn}"}
            # stored as the decisions sent (the forced opening included), chance after them
            played = [line["move"] for line in mover.view["log"] if line["seat"] is not None]
            assert played[-len(buffer):] == buffer
            turns += 1
        assert turns >= 4
        # (the test server's tables are seeded: these games open a turn with forced
        # decisions within 12 turns here; Pergola's turns open with a choice)
        assert openings >= (0 if game == "pergola" else 1)
    finally:
        for c in clients.values():
            c.close()
        for p in plain.values():
            p.close()
