"""``GET /api/tables/{id}/hint``: a suggested turn for the seat to move, for that seat only."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import meeple
from meeple.bots.greedy import best_turns
from tests.server.conftest import SQLITE_ONLY, Server, free_port
from tests.server.test_play import create, join

#: Hints are the bot pool's and the service's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY


def _hint(server: Server, table: str, seat: int | None, secret: str | None,
          level: str | None = None) -> Any:
    params: dict[str, Any] = {}
    if seat is not None:
        params["seat"] = seat
    if level is not None:
        params["level"] = level
    headers = {"X-Seat-Secret": secret} if secret is not None else {}
    return server.api("GET", f"/api/tables/{table}/hint", params=params, headers=headers)


def _view(server: Server, table: str, seat: int, secret: str) -> dict[str, Any]:
    r = server.api("GET", f"/api/tables/{table}/view", params={"seat": seat},
                   headers={"X-Seat-Secret": secret})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()["view"]
    return out


def test_a_hint_is_for_the_seat_to_move_with_its_secret_only(server: Server) -> None:
    joined = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}],
                    join_as="Ann")
    table, ann, ann_secret = joined["table"]["id"], joined["seat"], joined["secret"]
    # before the game starts there is nothing to hint
    early = _hint(server, table, ann, ann_secret, "easy")
    assert early.status_code == 409, early.text
    assert "not to move" in early.json()["detail"]
    bob_joined = join(server, table, "Bob")
    bob, bob_secret = bob_joined["seat"], bob_joined["secret"]
    secrets = {ann: ann_secret, bob: bob_secret}
    view = _view(server, table, ann, ann_secret)
    for _ in range(50):  # the server rolls the dice: wait until a seat is to move
        if view["to_move"] is not None:
            break
        time.sleep(0.1)
        view = _view(server, table, ann, ann_secret)
    mover = view["to_move"]
    assert mover in (ann, bob)
    other = bob if mover == ann else ann
    mover_view = _view(server, table, mover, secrets[mover])

    r = _hint(server, table, mover, secrets[mover], "medium")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["type"] == "hint" and body["seat"] == mover
    h = body["hint"]
    assert h["move"] in mover_view["legal_moves"]
    assert h["best"]["moves"][0] == h["move"]
    assert len(h["alternatives"]) == 3
    values = [a["value"] for a in h["alternatives"]]
    assert values == sorted(values, reverse=True)
    assert h["best"]["value"] >= values[0] - 1e-9  # medium is greedy: it takes the best by its values
    assert h["margin"] == h["best"]["value"] - values[0]
    assert isinstance(h["best"]["words"], str) and h["best"]["words"]
    # the same value as greedy's best turn computed here from the record's position
    rec = server.api("GET", f"/api/tables/{table}/record").json()
    assert rec["seed"] == 0  # the game runs: its seed is withheld
    state = meeple.replay(rec)
    best = best_turns(state.seen_by(mover), mover)[0][0]
    assert abs(h["best"]["value"] - best) < 1e-9

    wrong = _hint(server, table, mover, "not-the-secret", "easy")
    assert wrong.status_code == 403 and "secret" in wrong.json()["detail"]
    borrowed = _hint(server, table, mover, secrets[other], "easy")  # another seat's secret
    assert borrowed.status_code == 403
    spectator = _hint(server, table, None, None, "easy")
    assert spectator.status_code == 403 and "spectators" in spectator.json()["detail"]
    waiting = _hint(server, table, other, secrets[other], "easy")
    assert waiting.status_code == 409
    assert f"seat {mover} is to move" in waiting.json()["detail"]
    bad = _hint(server, table, mover, secrets[mover], "grandmaster")
    assert bad.status_code == 422
    assert "easy, medium, hard" in bad.json()["detail"]
    # asking changed nothing: the seat is still to move at the same version
    after = server.api("GET", f"/api/tables/{table}/view", params={"seat": mover},
                       headers={"X-Seat-Secret": secrets[mover]}).json()
    assert after["version"] == body["version"]
    assert after["view"]["to_move"] == mover


def test_the_default_level_answers_within_the_deadline(server: Server) -> None:
    joined = create(server, "takenokolor", {}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    join_as="Ann")
    table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
    view = _view(server, table, seat, secret)
    for _ in range(200):
        if view["to_move"] == seat:
            break
        time.sleep(0.1)
        view = _view(server, table, seat, secret)
    assert view["to_move"] == seat
    r = _hint(server, table, seat, secret)
    assert r.status_code == 200, r.text
    h = r.json()["hint"]
    assert h["bot"] == "medium"
    assert h["move"] in view["legal_moves"]


def test_a_hint_past_its_deadline_is_an_error_and_the_server_carries_on(
        tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'meeple.db'}", free_port(), tmp_path / "server.log")
    srv.env = {"MEEPLE_HINT_DEADLINE": "0.05"}
    srv.start()
    try:
        joined = create(srv, "pergola", {}, [{"kind": "human"}, {"kind": "human"}],
                        join_as="Ann")
        table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
        bob = join(srv, table, "Bob")
        secrets = {seat: secret, bob["seat"]: bob["secret"]}
        view = _view(srv, table, seat, secret)
        for _ in range(200):
            if view["to_move"] is not None:
                break
            time.sleep(0.1)
            view = _view(srv, table, seat, secret)
        seat = view["to_move"]
        secret = secrets[seat]
        r = _hint(srv, table, seat, secret, "mcts:iterations=20000")
        assert r.status_code == 503, r.text
        assert "took longer than 0.05 s" in r.json()["detail"]
        assert _view(srv, table, seat, secret)["to_move"] == seat  # still answering, unchanged
    finally:
        srv.stop()
