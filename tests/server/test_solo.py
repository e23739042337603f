"""GET /api/solo/{player}: a player's Pergola solo achievement table (P10), built from the
finished solo tables in the store whose seat bears that name; it agrees with the engine's
challenge reports and ``solo.thousand_club``."""

from __future__ import annotations

import time
from typing import Any

import meeple
from meeple.games.pergola import challenge_report, thousand_club
from tests.server.conftest import Server
from tests.server.test_play import create


def finish_bot_table(server: Server, variant: dict[str, Any], seats: list[dict[str, Any]],
                     limit: float = 900, **extra: Any) -> str:
    """Create a Pergola table of bot seats only and wait until its bots have finished it."""
    table = create(server, "pergola", variant, seats, **extra)["id"]
    deadline = time.monotonic() + limit
    while server.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.3)
    return str(table)


def engine_report(server: Server, table: str) -> dict[str, Any]:
    state = meeple.replay(server.api("GET", f"/api/tables/{table}/record").json())
    return challenge_report(state)  # type: ignore[arg-type]


def test_an_unknown_player_has_an_empty_table_not_an_error(server: Server) -> None:
    r = server.api("GET", "/api/solo/Nobody%20at%20all")
    assert r.status_code == 200, r.text
    t = r.json()
    assert t["player"] == "Nobody at all"
    assert t["games"] == []
    assert t["total"] == 0 and t["member"] is False
    assert t["missing"] == list(range(1, 11))
    assert [s["number"] for s in t["spaces"]] == list(range(1, 11))
    assert t["game"] == "pergola"
    assert server.api("GET", "/api/solo/Nobody?game=pergola").json()["game"] == "pergola"
    # a game keeping no such table is named in the refusal, with the games that do
    r = server.api("GET", "/api/solo/Nobody?game=gardens")
    assert r.status_code == 404 and "gardens" in r.text and "pergola" in r.text
    assert all(s["best"] is None for s in t["spaces"])
    assert t["spaces"][9]["title"] == "Free game" and t["thousand"] == 1000


def test_the_table_holds_the_best_score_per_space_as_the_thousand_club_counts(
        server: Server) -> None:
    name = "Zofia solo"
    bot = {"kind": "bot", "bot": "random", "name": name}
    tables = [finish_bot_table(server, {"challenge": c}, [bot]) for c in (2, 2, 9, 10)]
    # not hers: another name, and a two-seat game with her name in it
    finish_bot_table(server, {"challenge": 2}, [{**bot, "name": "Someone else"}])
    finish_bot_table(server, {}, [bot, {"kind": "bot", "bot": "random"}])
    # an unlisted table counts, but its id is not shown
    private = finish_bot_table(server, {"challenge": 3}, [bot], public=False)
    reports = {t: engine_report(server, t) for t in [*tables, private]}

    t = server.api("GET", f"/api/solo/{name}").json()
    assert t["player"] == name
    assert len(t["games"]) == 5
    by_id = {g["table"]: g for g in t["games"]}
    for table in tables:
        g, rep = by_id[table], reports[table]
        assert (g["challenge"], g["met"], g["score"], g["recorded_as"]) == (
            rep["challenge"], rep["met"], rep["score"], rep["recorded_as"])
    assert private not in by_id and None in by_id  # counted, id withheld
    club = thousand_club(reports.values())
    assert {s["number"]: s["best"] for s in t["spaces"] if s["best"] is not None} == club["best"]
    assert t["total"] == club["total"] and t["missing"] == club["missing"]
    assert t["member"] is club["member"] is False
    for s in t["spaces"]:  # a space's replay link is a game that scored its best there
        if s["table"] is not None:
            assert reports[s["table"]]["recorded_as"] == s["number"]
            assert reports[s["table"]]["score"] == s["best"]
    # the name is matched exactly
    assert server.api("GET", "/api/solo/zofia%20solo").json()["games"] == []
