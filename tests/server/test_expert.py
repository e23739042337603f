"""The ``expert`` difficulty on a real server: it sits at a table and plays it to its end, a hint
asked at expert level answers, and a bot spec naming nets that are not a game's (or a path) is
refused before anything changes."""

from __future__ import annotations

import time

import pytest

from meeple.bots.ratings import seeded
from tests.server.conftest import SQLITE_ONLY, Server
from tests.server.test_hint import _hint, _view
from tests.server.test_play import create, join
from tests.server.test_profile import wait_finished

#: The bots and the hint lane are the same on either store; the refusals are checked on both.
BAD_NETS = ["../x", "x.npz", "nosuch", "Expert", "nets/expert"]


def _total(server: Server) -> str:
    return str(server.api("GET", "/api/tables").headers["X-Total-Count"])


@pytest.mark.parametrize("net", BAD_NETS)
def test_a_table_with_nets_the_game_lacks_is_refused_and_nothing_changes(server: Server,
                                                                         net: str) -> None:
    before = _total(server)
    for seats in ([{"kind": "human"}, {"kind": "bot", "bot": f"mcts:iterations=50;net={net}"}],
                  [{"kind": "human", "bot": f"mcts:net={net};iterations=50"},
                   {"kind": "bot", "bot": "expert"}]):
        r = server.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                                   "seats": seats})
        assert r.status_code == 422, r.text
        detail = str(r.json()["detail"])
        if net == "nosuch":
            assert "gardens has no nets called 'nosuch'; its nets:" in detail
        else:
            assert "lower-case letters, digits and hyphens" in detail and "never a file" in detail
    assert _total(server) == before


@SQLITE_ONLY
def test_an_expert_seat_plays_a_table_to_its_end(server: Server) -> None:
    t = create(server, "gardens", {"level": 1},
               [{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "random"}])["id"]
    info = wait_finished(server, t, 600)
    rec = server.api("GET", f"/api/tables/{t}/record").json()
    assert len(rec["scores"]) == 2 and info["result"] == rec["scores"]
    # every decision was the expert's own, none a stand-in's for a bot past its deadline
    assert "missed its" not in server.log.read_text()


@SQLITE_ONLY
def test_a_hint_at_expert_level_answers(server: Server) -> None:
    joined = create(server, "gardens", {"level": 1}, [{"kind": "human"}, {"kind": "human"}],
                    join_as="Ann")
    table = joined["table"]["id"]
    bob = join(server, table, "Bob")
    secrets = {joined["seat"]: joined["secret"], bob["seat"]: bob["secret"]}
    view = _view(server, table, joined["seat"], joined["secret"])
    for _ in range(100):
        if view["to_move"] is not None:
            break
        time.sleep(0.1)
        view = _view(server, table, joined["seat"], joined["secret"])
    mover = view["to_move"]
    mover_view = _view(server, table, mover, secrets[mover])
    r = _hint(server, table, mover, secrets[mover], "expert")
    assert r.status_code == 200, r.text
    assert r.json()["hint"]["move"] in mover_view["legal_moves"]
    # a hint asked of nets the game lacks is refused before any worker is asked
    for level in ("mcts:iterations=50;net=nosuch", "mcts:iterations=50;net=../x"):
        bad = _hint(server, table, mover, secrets[mover], level)
        assert bad.status_code == 422, bad.text


@SQLITE_ONLY
def test_expert_is_off_a_games_ladder_until_calibrated(server: Server) -> None:
    # a difficulty no calibration run measured in a game has no rating there to show, and
    # Play now (which seats the bot of the nearest rating) never picks it
    board = server.api("GET", "/api/leaderboard/gardens").json()
    difficulties = [b["difficulty"] for b in board["bots"]]
    assert difficulties[:3] == ["easy", "medium", "hard"]
    assert ("expert" in difficulties) == seeded("gardens", "expert")
    # nor does a table's expert seat show a made-up number (a new player's 1500?)
    t = create(server, "gardens", {"level": 1},
               [{"kind": "human"}, {"kind": "bot", "bot": "hard"},
                {"kind": "bot", "bot": "expert"}])["id"]
    seats = server.api("GET", f"/api/tables/{t}").json()["seats"]
    hard_seed = next(b["rating"] for b in board["bots"] if b["difficulty"] == "hard")
    assert seats[1]["rating"] == hard_seed
    if not seeded("gardens", "expert"):
        assert seats[2]["rating"] is None
