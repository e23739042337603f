"""A sheet of one's own over the API: checking a file (every problem with its line and field),
shipped sheets to start from, and a table on an uploaded sheet that plays to the end with a
bot, survives a server restart and whose record replays to the same scores."""

from __future__ import annotations

import re
import time
from importlib import resources
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.server.table.uploads import MAX_SHEET_BYTES
from tests.server.client import Player
from tests.server.conftest import Server


def shipped(game: str, name: str) -> str:
    return (resources.files("meeple.games") / game / "sheets" / f"{name}.toml").read_text("utf-8")


def changed_gardens() -> str:
    """The level-1 Gardens sheet with other values, as an owner of a printed sheet would type
    theirs in: another name, other single-colour boxes and stars, a flower moved."""
    text = shipped("gardens", "level-1")
    text = text.replace('name = "Level 1: Small Gardens"', 'name = "My printed sheet"')
    text = text.replace("reconstructed = true", "reconstructed = false")
    text = text.replace("single_colour_boxes = [2, 3, 4]", "single_colour_boxes = [3, 5, 7]")
    text = text.replace("row_stars = [10, 12, 15]", "row_stars = [11, 13, 17]")
    text = text.replace("colourful_star = 10", "colourful_star = 19")
    assert text.count("My printed sheet") == 1 and "[3, 5, 7]" in text and "= 19" in text
    return text


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def check(server: Server, game: str, text: str | bytes) -> Any:
    body = text.encode("utf-8") if isinstance(text, str) else text
    return server.api("POST", f"/api/sheets/{game}/check", content=body,
                      headers={"content-type": "application/toml"})


# ---------------------------------------------------------------- the check endpoint
def test_a_changed_gardens_sheet_is_valid_and_comes_back_as_data_and_layout(server: Server
                                                                             ) -> None:
    r = check(server, "gardens", changed_gardens())
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["valid"] is True
    assert out["name"] == "My printed sheet"
    assert out["reconstructed"] is False
    assert out["variant"] == {"level": 1}
    assert out["sheet"]["scoring"]["single_colour_boxes"] == [3, 5, 7]
    assert out["sheet"]["scoring"]["colourful_star"] == 19
    # the preview: the layout a table on it would draw, and a view with nothing marked yet
    assert out["layout"]["name"] == "My printed sheet"
    assert len(out["layout"]["fields"]) == len(out["sheet"]["fields"])
    assert out["view"]["game"] == "gardens" and out["view"]["moves_played"] == 0
    assert out["view"]["board"]


@pytest.mark.parametrize(("game", "name"), [
    ("gardens", "level-3"), ("reefs", "small-ocean"), ("reefs", "the-propellers"),
    ("takenokolor", "2-pandas"), ("takenokolor", "4-pandas-dragon")])
def test_every_shipped_sheet_passes_the_check(server: Server, game: str, name: str) -> None:
    r = check(server, game, shipped(game, name))
    assert r.status_code == 200, r.text
    out = r.json()
    fresh = meeple.new_game(game, players=1, sheet=name)
    assert out["sheet"] == fresh.sheet_data()
    assert out["variant"] == fresh.variant()


def _broken(kind: str) -> tuple[str, int | None, str, str]:
    """A broken Gardens file: (text, line, field, a word the message must carry)."""
    good = changed_gardens()
    if kind == "wrong type":
        text = good.replace("colourful_star = 19", 'colourful_star = "many"')
        return text, line_of(text, "colourful_star ="), "scoring.colourful_star", "integer"
    if kind == "unknown field":
        text = good.replace('{ id = "B2", q = 0', '{ id = "B2", colour = "red", q = 0')
        return text, line_of(text, 'id = "B2"'), "fields[6].colour", "unknown field"
    if kind == "missing field":
        text = good.replace("level = 1\n", "")
        return text, None, "level", "missing"
    if kind == "bad value":
        text = good.replace('{ id = "C4", q = 1', '{ id = "c4", q = 1')
        return text, line_of(text, 'id = "c4"'), "fields[14].id", "capital letter"
    if kind == "rule of the sheet":
        text = good.replace("row_stars = [11, 13, 17]", "row_stars = [11, 13]")
        # the field's own line, not its table's header (issue 39 #7)
        return text, line_of(text, "row_stars ="), "scoring.row_stars", "one star per row"
    if kind == "not TOML":
        text = good.replace("colourful_star = 19", "colourful_star = = 19")
        return text, line_of(text, "colourful_star"), "(file)", "not valid TOML"
    raise AssertionError(kind)


KINDS = ["wrong type", "unknown field", "missing field", "bad value", "rule of the sheet",
         "not TOML"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_problem_is_named_with_line_field_and_message(server: Server,
                                                                   kind: str) -> None:
    text, line, where, word = _broken(kind)
    r = check(server, "gardens", text)
    assert r.status_code == 422, r.text
    out = r.json()
    assert "not a valid Pick a Pen: Gardens sheet" in out["detail"]
    assert "level-1" in out["allowed"] and "TOML" in out["allowed"]
    hits = [p for p in out["problems"] if p["field"] == where]
    assert hits, out["problems"]
    assert word in hits[0]["message"].lower() or word in hits[0]["message"]
    assert hits[0]["line"] == line
    assert "/tmp" not in r.text and "meeple-sheet-" not in r.text


def test_every_problem_of_a_file_is_listed_at_once(server: Server) -> None:
    text = changed_gardens().replace("colourful_star = 19", 'colourful_star = "many"')
    text = text.replace('{ id = "B2", q = 0', '{ id = "B2", colour = "red", q = 0')
    text = text.replace("level = 1", "level = 0")
    r = check(server, "gardens", text)
    assert r.status_code == 422
    got = {(p["line"], p["field"]) for p in r.json()["problems"]}
    assert got == {(line_of(text, "level = 0"), "level"),
                   (line_of(text, "colourful_star"), "scoring.colourful_star"),
                   (line_of(text, 'id = "B2"'), "fields[6].colour")}


def test_a_reefs_or_takenokolor_file_with_a_problem_names_its_line(server: Server) -> None:
    reefs = shipped("reefs", "small-ocean")
    m = re.search(r"^(\s*)title = .*$", reefs, re.M)
    assert m is not None
    bad = reefs.replace(m.group(0), m.group(1) + "title = 7", 1)
    r = check(server, "reefs", bad)
    assert r.status_code == 422, r.text
    assert {(p["line"], p["field"]) for p in r.json()["problems"]} == {
        (line_of(bad, "title = 7"), "title")}
    tk = "# my garden\nsurprise = 1\n" + shipped("takenokolor", "2-pandas")
    r = check(server, "takenokolor", tk)
    assert r.status_code == 422
    assert r.json()["problems"][0]["field"] == "surprise"
    assert r.json()["problems"][0]["line"] == line_of(tk, "surprise = 1")


def test_a_sheet_of_another_game_is_not_a_gardens_sheet(server: Server) -> None:
    r = check(server, "gardens", shipped("reefs", "small-ocean"))
    assert r.status_code == 422
    fields = {p["field"] for p in r.json()["problems"]}
    assert "fields" in fields and "scoring" in fields  # missing, each named


@pytest.mark.parametrize(("body", "word"), [(b"", "empty"), (b"   \n", "empty"),
                                            (b"name = \"\xff\xfe\"", "UTF-8")])
def test_empty_or_not_text_is_refused(server: Server, body: bytes, word: str) -> None:
    r = check(server, "gardens", body)
    assert r.status_code == 422
    assert word in r.json()["detail"]


def test_an_oversize_file_is_refused_with_the_limit(server: Server) -> None:
    text = changed_gardens() + "\n" + "# padding\n" * (MAX_SHEET_BYTES // 10)
    assert len(text) > MAX_SHEET_BYTES
    r = check(server, "gardens", text)
    assert r.status_code == 413
    assert str(MAX_SHEET_BYTES) in r.json()["detail"]


def test_unknown_game_and_pergola_are_refused_with_the_games_that_take_sheets(
        server: Server) -> None:
    r = check(server, "chess", "x = 1")
    assert r.status_code == 404
    assert "unknown game 'chess'" in r.json()["detail"]
    assert "gardens, reefs, takenokolor" in r.json()["detail"]
    r = check(server, "pergola", shipped("pergola", "pond"))
    assert r.status_code == 422
    assert "Pergola takes no sheet" in r.json()["detail"]
    assert server.api("GET", "/api/sheets/pergola").status_code == 422
    assert server.api("GET", "/api/sheets/pergola/pond").status_code == 422


def test_shipped_sheets_are_listed_and_downloadable(server: Server) -> None:
    r = server.api("GET", "/api/sheets/takenokolor")
    assert r.status_code == 200
    assert r.json()["shipped"] == ["2-pandas", "3-pandas", "4-pandas-dragon", "4-pandas-river"]
    assert r.json()["max_bytes"] == MAX_SHEET_BYTES
    r = server.api("GET", "/api/sheets/gardens/level-2")
    assert r.status_code == 200
    assert r.text == shipped("gardens", "level-2")
    assert "attachment" in r.headers["content-disposition"]
    assert r.headers["content-type"].startswith("application/toml")
    r = server.api("GET", "/api/sheets/gardens/level-9")
    assert r.status_code == 404
    assert "level-1, level-2, level-3" in r.json()["detail"]
    assert server.api("GET", "/api/sheets/gardens/..%2F..%2Fpyproject").status_code == 404


# ---------------------------------------------------------------- tables on an own sheet
def _tables(server: Server) -> set[str]:
    return {t["id"] for status in ("waiting", "running", "finished")
            for t in server.api("GET", f"/api/tables?status={status}").json()}


@pytest.mark.parametrize(("variant", "sheet", "status", "word"), [
    ({}, "kind = 1\n", 422, "problems"),
    ({"level": 2}, None, 422, "contradicts"),                     # the sheet is a level-1 one
    ({"sheet": "level-1"}, None, 422, "not both"),
    ({}, "level-2", 422, "choose it with variant.level"),       # a name, not a file's text
])
def test_a_bad_table_request_with_a_sheet_creates_nothing(server: Server, variant: dict[str, Any],
                                                         sheet: str | None, status: int,
                                                         word: str) -> None:
    before = _tables(server)
    r = server.api("POST", "/api/tables", json={
        "game": "gardens", "variant": variant, "sheet": sheet or changed_gardens(),
        "seats": [{"kind": "bot", "bot": "random"}] * 2})
    assert r.status_code == status, r.text
    assert word in r.text
    assert _tables(server) == before


def test_pergola_tables_take_no_sheet(server: Server) -> None:
    r = server.api("POST", "/api/tables", json={
        "game": "pergola", "sheet": shipped("pergola", "pond"),
        "seats": [{"kind": "bot", "bot": "random"}] * 2})
    assert r.status_code == 422
    assert "Pergola takes no sheet" in r.json()["detail"]


def test_a_table_on_an_uploaded_sheet_plays_survives_a_restart_and_replays(server: Server
                                                                          ) -> None:
    text = changed_gardens()
    r = server.api("POST", "/api/tables", json={
        "game": "gardens", "variant": {}, "sheet": text, "join_as": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    joined = r.json()
    table, seat, secret = joined["table"]["id"], joined["seat"], joined["secret"]
    assert joined["table"]["own_sheet"] == "My printed sheet"
    assert joined["table"]["variant"] == {"level": 1}
    expected = check(server, "gardens", text).json()["sheet"]
    rng = Rng(11)
    made = 0
    p = Player(server.ws_base, table, seat, secret)
    try:
        for _ in range(6):  # a few decisions, then the server dies
            assert p.wait_turn()
            assert p.move(rng.choice(p.view["legal_moves"]), f"a{made}")["type"] == "ack"
            made += 1
    finally:
        p.close()
    server.restart(kill=True)
    layout = server.api("GET", f"/api/tables/{table}/layout").json()["layout"]
    assert layout["name"] == "My printed sheet"
    assert server.api("GET", f"/api/tables/{table}").json()["own_sheet"] == "My printed sheet"
    p = Player(server.ws_base, table, seat, secret)
    try:
        assert p.view["moves_played"] >= made
        for _ in range(2000):
            if not p.wait_turn():
                break
            assert p.move(rng.choice(p.view["legal_moves"]), f"b{made}")["type"] == "ack"
            made += 1
        assert p.view["over"]
    finally:
        p.close()
    rec = server.api("GET", f"/api/tables/{table}/record").json()
    assert rec["sheet"] == expected
    replayed = meeple.replay(rec)
    assert [s.as_dict() for s in replayed.scores()] == rec["scores"]
    assert [s.total for s in replayed.scores()] == [s["total"] for s in p.view["scores"]]
    # the same moves on the shipped level-1 sheet score differently: the upload counted
    shipped_rec = {**rec, "sheet": meeple.new_game("gardens", sheet="level-1").sheet_data()}
    assert [s.as_dict() for s in meeple.replay(shipped_rec).scores()] != rec["scores"]


def test_bots_play_a_reefs_table_made_from_checked_data_to_the_end(server: Server) -> None:
    text = shipped("reefs", "the-whirlpools").replace('title = "', 'title = "Mine: ', 1)
    checked = check(server, "reefs", text).json()
    assert checked["name"].startswith("Mine: ")
    r = server.api("POST", "/api/tables", json={
        "game": "reefs", "sheet": checked["sheet"],
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    assert r.json()["variant"] == {"level": 2}
    deadline = time.monotonic() + 300
    info = r.json()
    while info["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.5)
        info = server.api("GET", f"/api/tables/{table}").json()
    assert info["status"] == "finished"
    rec = server.api("GET", f"/api/tables/{table}/record").json()
    assert rec["sheet"] == checked["sheet"]
    assert [s.as_dict() for s in meeple.replay(rec).scores()] == info["result"]


# ---------------------------------------------------------------- no upload breaks the check
@pytest.mark.parametrize(("game", "name"), [("gardens", "level-2"), ("reefs", "the-propellers"),
                                            ("takenokolor", "4-pandas-river")])
def test_a_changed_value_anywhere_is_accepted_or_refused_with_problems(game: str,
                                                                       name: str) -> None:
    """Whatever value a line of a shipped sheet is given, the check either accepts the file
    or refuses it with problems: never a server error (the engine's own checks run in-process
    here, as the endpoint runs them)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from meeple.server.table.uploads import SheetRejected
    from meeple.server.table.uploads import check as check_text

    lines = shipped(game, name).splitlines()
    assigns = [i for i, ln in enumerate(lines) if "=" in ln and not ln.lstrip().startswith("#")]
    values = st.one_of(st.integers(-5, 400).map(str), st.sampled_from(
        ['""', '"x"', "true", "[]", "[1, 2]", "{}", "-1", "0", "1.5", '"red"', "[[1, 2]]"]))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(assigns), values, st.booleans())
    def one(index: int, value: str, inline: bool) -> None:
        changed = list(lines)
        line = changed[index]
        if inline and "{" in line:  # a value inside an inline table: the first key's
            head, _, rest = line.partition("=")
            _, sep, tail = rest.partition(",")
            changed[index] = f"{head}= {value}{sep}{tail}" if sep else f"{head}= {value}"
        else:
            changed[index] = line.split("=", 1)[0] + "= " + value
        try:
            out = check_text(game, "\n".join(changed) + "\n")
        except SheetRejected as exc:
            assert exc.status == 422
            assert exc.problems
            assert all(isinstance(w, str) and w and isinstance(m, str) and m
                       for _, w, m in exc.problems)
            return
        assert out["valid"] and out["sheet"]

    one()
