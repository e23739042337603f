"""Reefs for clients: the layout (the sheet as printed, from its data) and the board of each view
(routes, items, pad, pencils, choices), checked against the engine over whole games of every
level and seat count, in hand-made positions, and for a sheet of the user's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import meeple
from meeple.core.present import presentation
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.core.view import seat_view, view_schema
from meeple.games.reefs import boards
from meeple.games.reefs.boards import (
    BOARD_SCHEMA,
    LAYOUT_SCHEMA,
    PAD_ROWS,
    ReefsBoard,
    ReefsLayout,
    view_board,
    view_layout,
)
from meeple.games.reefs.rules import ReefsState
from meeple.games.reefs.sheet import COLOURS, LETTERS, NEUTRAL, SHIPPED_DIR
from tests.games.reefs.helpers import lattice_sheet, new, roll, turn


def _round_trip_layout(layout: dict[str, Any]) -> ReefsLayout:
    model = ReefsLayout.model_validate_json(json.dumps(layout))
    assert model.model_dump(mode="json", by_alias=True) == layout
    return model


def _round_trip_board(board: dict[str, Any]) -> ReefsBoard:
    model = ReefsBoard.model_validate_json(json.dumps(board))
    assert model.model_dump(mode="json", by_alias=True) == board
    return model


def _element_ids(layout: dict[str, Any]) -> set[str]:
    ids = {sp["id"] for sp in layout["spaces"]}
    ids |= {c["id"] for c in layout["connections"]}
    ids |= {p["id"] for p in layout["pencils"]}
    for row in layout["treasure_rows"]:
        ids.add(row["id"])
        ids |= {b["id"] for b in row["boxes"]}
    ids.add(layout["coin_row"]["id"])
    ids |= {b["id"] for b in layout["coin_row"]["boxes"]}
    if layout["propeller_row"] is not None:
        ids.add(layout["propeller_row"]["id"])
        ids |= set(layout["propeller_row"]["boxes"])
    ids |= {s["id"] for s in layout["stars"]}
    return ids


def _check_marks(s: ReefsState, board: dict[str, Any], layout: dict[str, Any]) -> None:
    """Everything the board says of each sheet agrees with the engine's own marks."""
    b = s.board
    conns = {c["id"]: c for c in layout["connections"]}
    conn_index = {c["id"]: i for i, c in enumerate(layout["connections"])}
    entries = set(layout["entry_points"])
    scores = s.scores()
    holders = {st["id"]: st["holder"] for st in board["stars"]}
    assert [seat["total"] for seat in board["seats"]] == [sc.total for sc in scores]
    for seat, sh in enumerate(s.sheets):
        sb = board["seats"][seat]
        assert sb["seat"] == seat and sb["name"] == s.seats[seat]
        for c in range(5):
            route = sb["routes"][c]
            assert route["pencil"] == LETTERS[c] and route["colour"] == COLOURS[c]
            owned = {ci for ci, o in enumerate(sh.owner) if o == c + 1}
            if sh.entry[c] < 0:
                assert route["entry"] is None and route["spaces"] == [] and not owned
                continue
            assert route["entry"] == b.ids[sh.entry[c]] == route["spaces"][0]
            assert route["end"] == b.ids[sh.end[c]] == route["spaces"][-1]
            assert route["entry"] in entries
            # a single line along its own connections, each once, none missing
            assert len(route["connections"]) == len(route["spaces"]) - 1
            assert {conn_index[ci] for ci in route["connections"]} == owned
            assert len(set(route["connections"])) == len(route["connections"])
            for i, cid in enumerate(route["connections"]):
                ends = {conns[cid]["a"], conns[cid]["b"]}
                assert ends == {route["spaces"][i], route["spaces"][i + 1]}
            # never through an entry point after its start (R3)
            assert not entries & set(route["spaces"][1:])
        assert [t["space"] for t in sb["treasures"]] == [
            b.sheet.treasures[t].space for t, got in enumerate(sh.treasure) if got >= 0]
        assert [t["colour"] for t in sb["treasures"]] == [
            COLOURS[got] for got in sh.treasure if got >= 0]
        assert set(sb["coins"]) == {b.ids[i] for i in range(b.n) if sh.coins_taken >> i & 1}
        assert set(sb["whirlpools"]) == {b.ids[i] for i in range(b.n) if sh.whirls >> i & 1}
        assert set(sb["propellers"]) == {b.ids[i] for i in range(b.n) if sh.props_taken >> i & 1}
        assert sb["coin_boxes"] == sh.coins
        assert sb["coin_score"] == scores[seat].breakdown["coins"]
        assert (sb["propellers_collected"], sb["propellers_used"]) == (sh.props, sh.props_used)
        assert sb["stuck"] == sh.stuck
        for c, row in enumerate(sb["rows"]):
            assert row["boxes"] == sh.boxes[c]
            assert row["score"] == scores[seat].breakdown[COLOURS[c]]
            assert row["grey_reached"] == (sh.boxes[c] >= b.row_grey[c])
            assert row["full"] == (sh.boxes[c] == b.row_len[c])
        # the stars held are the pad's bonus rows
        for star in layout["stars"]:
            held = star["id"] in sb["stars"]
            assert scores[seat].breakdown[star["pad_row"]] == (star["points"] if held else 0)
            assert held == (holders[star["id"]] == seat)
    assert holders["star:two_each"] == (s.two_each_holder if s.two_each_holder >= 0 else None)
    assert holders["star:full_row"] == (s.full_row_holder if s.full_row_holder >= 0 else None)


def _check_pencils(s: ReefsState, board: dict[str, Any]) -> None:
    for c, p in enumerate(board["pencils"]):
        assert p["letter"] == LETTERS[c] and p["id"] == f"pencil:{LETTERS[c]}"
        f = s.middle[c]
        if f >= 0:
            assert p["where"] == "middle" and p["holder"] is None
            assert p["face"] == str(s.moves.roll[c][f]).split()[-1]
        elif s.pc == c and not s.over:
            assert p["where"] == "drawing" and p["holder"] == s.seat
        else:
            assert p["where"] in ("taken", "unrolled")
    assert (board["drawing"] is not None) == (board["phase"] == "draw")
    if board["drawing"] is not None:
        d = board["drawing"]
        assert d["seat"] == s.seat and d["pencil"] == LETTERS[s.pc]
        assert d["can_forfeit"] == ("forfeit" in {str(m) for m in s.legal_moves()})
        assert d["can_stop"] == ("stop" in {str(m) for m in s.legal_moves()})


CASES = [(level, players) for level in (1, 2, 3) for players in (1, 2, 3, 4)]


@pytest.mark.parametrize(("level", "players"), CASES)
def test_whole_games_every_view_conforms(level: int, players: int) -> None:
    rng = Rng(100 + 10 * level + players)
    s = meeple.new_game("reefs", players=players, level=level, seed=level * 7 + players)
    assert isinstance(s, ReefsState)
    s.seats = ["you", *[f"bot {i}" for i in range(1, players)]]
    layout = view_layout(s)
    _round_trip_layout(layout)
    assert layout["schema"] == LAYOUT_SCHEMA
    ids = _element_ids(layout)
    spaces = {sp["id"]: sp for sp in layout["spaces"]}
    kinds_seen: set[str] = set()
    decisions = 0
    published = view_schema("reefs")
    validator = jsonschema.Draft202012Validator(published)
    jsonschema.validate(layout, {"$defs": published["$defs"],
                                 "$ref": published["x-layout"]["$ref"]})
    while True:
        to_move = s.to_move
        mover = to_move if to_move is not None and to_move != CHANCE else None
        board = view_board(s.seen_by(mover if mover is not None else 0), mover)
        if decisions % 5 == 0 or to_move is None:
            _round_trip_board(board)
            _check_marks(s, board, layout)
        if decisions % 40 == 0 or to_move is None:  # the whole view, as the server sends it
            validator.validate(json.loads(seat_view(s, mover).model_dump_json(by_alias=True)))
        assert board["schema"] == BOARD_SCHEMA
        _check_pencils(s, board)
        if decisions % 25 == 0 or to_move is None:
            assert view_layout(s) == layout  # never changes at a table
        if to_move is None:
            assert board["phase"] == "over" and board["choices"] == []
            assert board["end_reason"] and board["sentence"].startswith("Game over")
            assert board["result_text"] and not board["doing"]
            break
        if to_move == CHANCE:
            assert board["phase"] == "roll" and board["choices"] == [] and not board["doing"]
            assert board["to_move"] is None
            for viewer in range(players):
                assert view_board(s.seen_by(viewer), viewer)["choices"] == []
            s.sample_chance(rng)
            continue
        decisions += 1
        legal = [str(m) for m in s.legal_moves()]
        moves = [ch["move"] for ch in board["choices"]]
        assert sorted(moves) == sorted(legal) and len(set(moves)) == len(moves)
        for ch in board["choices"]:
            kinds_seen.add(ch["kind"])
            assert ch["label"]
            if ch["target"] is not None:
                assert ch["target"] in ids, ch
            if ch["kind"] == "entry":
                assert spaces[ch["target"]]["kind"] == "entry"
            elif ch["kind"] == "step":
                assert spaces[ch["target"]]["kind"] != "entry"
            elif ch["kind"] in ("pencil", "propeller"):
                assert ch["target"] == f"pencil:{ch['move'].split()[1]}"
            else:
                assert ch["target"] is None and ch["move"] == ch["kind"]
        assert board["to_move"] == mover and board["doing"] and not board["result_text"]
        # every other viewer, and a spectator, sees the same board without the choices
        others = [v for v in range(players) if v != mover]
        viewer = others[decisions % len(others)] if others else None
        for v in {viewer, None}:
            seen = view_board(s.seen_by(v if v is not None else 0), v)
            assert seen == {**board, "choices": []}
        s.play(rng.choice(s.legal_moves()))
    assert {"pencil", "entry", "step"} <= kinds_seen
    if level == 3:
        assert layout["propeller_row"] is not None
    else:
        assert layout["propeller_row"] is None


@pytest.mark.parametrize("level", [1, 2, 3])
def test_layout_follows_the_shipped_sheet_data(level: int) -> None:
    s = meeple.new_game("reefs", players=2, level=level)
    assert isinstance(s, ReefsState)
    data = s.sheet_data()
    layout = _round_trip_layout(view_layout(s)).model_dump(mode="json", by_alias=True)
    assert layout["level"] == level and layout["sheet"] == data["name"]
    assert [(sp["id"], sp["x"], sp["y"]) for sp in layout["spaces"]] == [
        (sp["id"], sp["x"], sp["y"]) for sp in data["spaces"]]
    assert [(c["a"], c["b"]) for c in layout["connections"]] == [
        tuple(c) for c in data["connections"]]
    for c in layout["connections"]:
        a = next(sp for sp in layout["spaces"] if sp["id"] == c["a"])
        b = next(sp for sp in layout["spaces"] if sp["id"] == c["b"])
        assert c["diagonal"] == (a["x"] != b["x"] and a["y"] != b["y"])
        assert (c["dx"] != 0) == (a["x"] != b["x"]) and (c["dy"] != 0) == (a["y"] != b["y"])
    assert layout["entry_points"] == data["entry_points"]
    assert [(t["space"], t["colour"], t["value"]) for t in layout["treasures"]] == [
        (t["space"], t["colour"], t["value"]) for t in data["treasures"]]
    assert layout["coins"] == data["coins"]
    assert layout["whirlpools"] == data["whirlpools"]
    assert layout["propellers"] == data["propellers"]
    for row in layout["treasure_rows"]:
        printed = data["treasure_rows"][row["colour"]]
        assert [bx["value"] for bx in row["boxes"]] == printed["values"]
        assert [bx["grey"] for bx in row["boxes"]].count(True) == printed["grey"] == row["grey"]
    assert [bx["value"] for bx in layout["coin_row"]["boxes"]] == data["coin_row"]["values"]
    assert layout["pad_rows"] == list(PAD_ROWS) == list(s.scores()[0].breakdown)
    assert {st["pad_row"] for st in layout["stars"]} <= set(PAD_ROWS)
    kinds = {sp["id"]: sp["kind"] for sp in layout["spaces"]}
    assert {k for k, v in kinds.items() if v == "entry"} == set(data["entry_points"])
    assert {k for k, v in kinds.items() if v == "coin"} == set(data["coins"])
    assert {k for k, v in kinds.items() if v == "treasure"} == {
        t["space"] for t in data["treasures"]}
    assert len(_element_ids(layout)) == (
        len(layout["spaces"]) + len(layout["connections"]) + 5 + 5 + sum(
            len(r["boxes"]) for r in layout["treasure_rows"]) + 1
        + len(layout["coin_row"]["boxes"]) + 4
        + (1 + len(data["propellers"]) if data["propellers"] else 0)), "element ids clash"


def _toml(data: dict[str, Any]) -> str:
    """A sheet's data as TOML (scalars, lists of scalars, lists of lists and of small tables,
    then tables of scalars or of tables): enough for sheet files."""

    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v)

    head = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    tables: list[str] = []
    for k, v in data.items():
        if isinstance(v, dict):
            plain = {a: x for a, x in v.items() if not isinstance(x, dict)}
            if plain or not v:
                tables += [f"[{k}]", *(f"{a} = {value(x)}" for a, x in plain.items())]
            for a, x in v.items():
                if isinstance(x, dict):
                    tables += [f"[{k}.{a}]", *(f"{b} = {value(y)}" for b, y in x.items())]
    return "\n".join(head + tables) + "\n"


def test_a_users_own_sheet_draws(tmp_path: Path) -> None:
    """A sheet file of one's own (the level 3 sheet moved, with a diagonal, other values, a
    neutral treasure and different grey boxes): the layout is that file's, not the shipped."""
    import tomllib

    data = tomllib.loads((SHIPPED_DIR / "the-propellers.toml").read_text())
    data["name"] = "my-reef"
    data["title"] = "My own reef"
    for sp in data["spaces"]:
        sp["x"] += 10
        sp["y"] *= 2
    data["treasure_rows"]["blue"] = {"values": [3, 5, 7], "grey": 1}
    data["coin_row"] = {"values": [2, 4]}
    data["treasures"][0]["colour"] = "neutral"
    data["treasures"][0]["value"] = 9
    data["bonus"] = {"two_each": 7, "full_row": 3, "end_grey": 0, "end_coins": 1}
    path = tmp_path / "my-reef.toml"
    path.write_text(_toml(data))
    s = meeple.new_game("reefs", players=2, sheet=str(path))
    layout = _round_trip_layout(view_layout(s)).model_dump(mode="json", by_alias=True)
    assert layout["sheet"] == "my-reef" and layout["title"] == "My own reef"
    xy = {sp["id"]: (sp["x"], sp["y"]) for sp in layout["spaces"]}
    for sp in data["spaces"]:
        assert xy[sp["id"]] == (sp["x"], sp["y"])
    assert layout["bounds"]["min_x"] == min(sp["x"] for sp in data["spaces"])
    assert layout["bounds"]["max_y"] == max(sp["y"] for sp in data["spaces"])
    blue = next(r for r in layout["treasure_rows"] if r["colour"] == "blue")
    assert [(b["value"], b["grey"]) for b in blue["boxes"]] == [(3, True), (5, False),
                                                                (7, False)]
    assert [b["value"] for b in layout["coin_row"]["boxes"]] == [2, 4]
    first = layout["treasures"][0]
    assert (first["colour"], first["letter"], first["value"]) == ("neutral", "N", 9)
    assert next(sp for sp in layout["spaces"] if sp["id"] == first["space"])["treasure"] == first
    assert [st["points"] for st in layout["stars"]] == [7, 3, 0, 1]
    # the diagonals of the file are drawn as diagonals, with their direction (y stretched
    # twice: a diagonal steps 1 across and 2 down, reduced; a vertical step 2 becomes 1)
    diag = [c for c in layout["connections"] if c["diagonal"]]
    assert diag and all(abs(c["dx"]) == 1 and abs(c["dy"]) == 2 for c in diag)
    assert {(c["dx"], c["dy"]) for c in layout["connections"] if not c["diagonal"]} <= {
        (1, 0), (-1, 0), (0, 1), (0, -1)}
    # and the board plays on it: the pad rows follow the file's lengths
    board = view_board(s.seen_by(0), 0)
    assert [r["boxes"] for r in board["seats"][0]["rows"]] == [0] * 5


def _board(s: ReefsState, viewer: int | None = 0) -> dict[str, Any]:
    board = view_board(s.seen_by(viewer if viewer is not None else 0), viewer)
    _round_trip_board(board)
    _check_marks(s, board, view_layout(s))
    return board


def test_two_seats_pencils_holders_items_and_words() -> None:
    sheet = lattice_sheet(coins=("b2",), treasures=(("a2", "orange", 2), ("b1", "neutral", 1)))
    s = new(sheet, players=2)
    s.seats = ["you", "Ann"]
    board = _board(s)
    assert board["phase"] == "roll" and board["round"] == 0
    assert [p["where"] for p in board["pencils"]] == ["unrolled"] * 5
    roll(s, O="3any", R="3any", B="2straight")
    board = _board(s, 0)
    assert board["phase"] == "take" and board["round"] == 1 and board["to_move"] == 0
    assert board["sentence"] == "You take a pencil from the middle."
    assert board["doing"] == "take a pencil from the middle" and board["result_text"] == ""
    assert [(p["where"], p["face"]) for p in board["pencils"]][:3] == [
        ("middle", "3any"), ("middle", "3any"), ("middle", "2straight")]
    assert {c["move"]: (c["target"], c["kind"]) for c in board["choices"]}["take B"] == (
        "pencil:B", "pencil")
    assert next(c for c in board["choices"] if c["move"] == "take B")["label"] == (
        "take blue (2 straight)")
    assert _board(s, 1)["choices"] == [] and _board(s, None)["choices"] == []
    s.play("take O")
    board = _board(s, 0)
    assert board["pencils"][0]["where"] == "drawing" and board["pencils"][0]["holder"] == 0
    d = board["drawing"]
    assert (d["mode"], d["source"], d["steps_left"], d["steps_drawn"], d["route_started"],
            d["at"], d["can_forfeit"]) == ("any", "face", 3, 0, False, None, True)
    assert board["sentence"] == ("You are drawing orange: 3 any steps to go, starting at an "
                                 "entry point.")
    kinds = {c["move"]: c["kind"] for c in board["choices"]}
    assert kinds == {"in1": "entry", "in2": "entry", "in3": "entry", "in4": "entry",
                     "forfeit": "forfeit"}
    for m in ("in1", "a3", "a2"):
        s.play(m)
    board = _board(s, 0)
    assert board["drawing"]["steps_drawn"] == 2 and board["drawing"]["at"] == "a2"
    assert not board["drawing"]["can_forfeit"]
    assert {c["move"] for c in board["choices"]} == {"a1", "b2"}
    s.play("b2")
    board = _board(s, 1)
    you = board["seats"][0]
    assert you["routes"][0]["spaces"] == ["in1", "a3", "a2", "b2"]
    assert you["treasures"] == [{"space": "a2", "colour": "orange"}]
    assert you["coins"] == ["b2"] and you["coin_boxes"] == 1
    assert you["rows"][0]["boxes"] == 2 and you["rows"][0]["score"] == 2
    assert board["pencils"][0] == {"id": "pencil:O", "letter": "O", "colour": "orange",
                                   "where": "taken", "face": "3any", "face_label": "3 any",
                                   "holder": 0, "propeller": False}
    assert board["sentence"] == "Ann takes a pencil from the middle."
    s.play("take R")
    s.play("in2")
    s.play("c1")
    s.play("b1")  # the neutral treasure, recovered in red
    s.play("a1")
    board = _board(s, 0)
    assert board["seats"][1]["treasures"] == [{"space": "b1", "colour": "red"}]
    assert board["seats"][1]["rows"][1]["boxes"] == 1
    assert [p["holder"] for p in board["pencils"]][:2] == [0, 1]
    for taker in (0, 1, 0):  # B, G, P forfeited
        assert board["to_move"] == taker
        c = next(c for c in board["choices"] if c["kind"] == "pencil")
        s.play(c["move"])
        s.play("forfeit")
        board = _board(s, 1 - taker)
    # a new roll: every pencil is back, unrolled, holders forgotten
    assert board["phase"] == "roll" and board["roller"] == 1
    assert all(p["where"] == "unrolled" and p["holder"] is None for p in board["pencils"])
    assert board["sentence"] == "Rolling the pencils for Ann (0 of 5 rolled)."
    s.play("roll O 1any")
    board = _board(s, 0)
    assert [p["where"] for p in board["pencils"]] == ["middle"] + ["unrolled"] * 4
    assert board["sentence"] == "Rolling the pencils for Ann (1 of 5 rolled)."


def test_a_route_crossing_itself_keeps_its_order() -> None:
    """The route's spaces come in drawing order, the crossing space twice; a position set up
    without its moves (no log) still gives a single line over the same connections."""
    s = new(lattice_sheet(), players=1)
    roll(s, O="3any")
    turn(s, "O", "in1", "a3", "b3", "b2")
    for letter in "RBGP":
        turn(s, letter, "forfeit")
    roll(s, O="3any")
    turn(s, "O", "a2", "a3", "a4")  # back through a3: the route crosses itself there
    layout = view_layout(s)
    board = _board(s)
    orange = board["seats"][0]["routes"][0]
    assert orange["spaces"] == ["in1", "a3", "b3", "b2", "a2", "a3", "a4"]
    assert orange["connections"] == ["conn:in1-a3", "conn:a3-b3", "conn:b2-b3", "conn:a2-b2",
                                     "conn:a2-a3", "conn:a3-a4"]
    bare = new(lattice_sheet(), players=1)
    bare.sheets = [sh.copy() for sh in s.sheets]
    assert not bare.history
    rebuilt = view_board(bare.seen_by(0), 0)
    _check_marks(bare, rebuilt, layout)
    again = rebuilt["seats"][0]["routes"][0]
    assert again["spaces"][0] == "in1" and again["spaces"][-1] == "a4"
    assert again["spaces"].count("a3") == 2
    assert set(again["connections"]) == set(orange["connections"])


def test_drawing_after_a_whirlpool_and_with_a_propeller() -> None:
    s = new(lattice_sheet(whirlpools=("a3",)), level=2)
    s.seats = ["you"]
    roll(s, O="4+straight")
    turn(s, "O", "in1")
    d = _board(s)["drawing"]
    assert (d["mode"], d["source"], d["steps_left"], d["steps_drawn"]) == (
        "4+straight", "face", None, 0)
    s.play("a3")  # a whirlpool: 3 any steps from it
    board = _board(s)
    d = board["drawing"]
    assert (d["mode"], d["source"], d["steps_left"], d["steps_drawn"], d["direction"]) == (
        "any", "whirlpool", 3, 0, None)
    assert board["seats"][0]["whirlpools"] == ["a3"]
    assert board["sentence"] == ("You are drawing orange after a whirlpool: 3 any steps to go, "
                                 "from a3.")
    s.play("a2")
    assert _board(s)["drawing"]["steps_drawn"] == 1

    s = new(lattice_sheet(propellers=("a3",)), level=3)
    s.seats = ["you"]
    roll(s, O="1any")
    turn(s, "O", "in1", "a3")
    for letter in "RBGP":
        turn(s, letter, "forfeit")
    roll(s, O="1any", R="4+straight")
    board = _board(s)
    assert board["seats"][0]["propellers"] == ["a3"]
    assert (board["seats"][0]["propellers_collected"], board["seats"][0]["propellers_used"]) == (
        1, 0)
    prop = [c for c in board["choices"] if c["kind"] == "propeller"]
    assert {c["move"] for c in prop} == {f"take {x} propeller" for x in "ORBGP"} & {
        c["move"] for c in board["choices"]}
    red = next(c for c in prop if c["move"] == "take R propeller")
    assert red["target"] == "pencil:R" and "4+ straight" in red["label"]
    s.play("take R propeller")
    board = _board(s)
    d = board["drawing"]
    assert (d["mode"], d["source"], d["steps_left"], d["can_forfeit"]) == (
        "any", "propeller", 3, False)
    assert board["sentence"] == ("You are drawing red with a propeller: 3 any steps to go, "
                                 "starting at an entry point.")
    assert board["doing"] == ("draw red with a propeller: 3 any steps to go, starting at an "
                              "entry point")
    assert board["pencils"][1]["propeller"] and board["pencils"][1]["face"] == "4+straight"
    assert board["seats"][0]["propellers_used"] == 1
    assert "forfeit" not in {c["move"] for c in board["choices"]}


def test_straight_direction_and_stop() -> None:
    s = new(lattice_sheet(), players=1)
    roll(s, O="4+straight")
    turn(s, "O", "in1", "a3", "b3")
    d = _board(s)["drawing"]
    assert d["direction"] == [1, 0] and d["steps_drawn"] == 2 and not d["can_stop"]
    s.play("c3")
    s.play("d3")
    board = _board(s)
    assert board["drawing"]["can_stop"]
    stop = next(c for c in board["choices"] if c["kind"] == "stop")
    assert stop == {"move": "stop", "target": None, "kind": "stop",
                    "label": "stop orange here (4 steps)"}
    assert {c["move"]: c["target"] for c in board["choices"]} == {"e3": "e3", "stop": None}


def test_the_end_stars_and_the_end_in_words() -> None:
    # one short coin row: the first coin ends the game with the end coins star
    s = new(lattice_sheet(coins=("a3",), coin_row=(4,)), players=2)
    s.seats = ["you", "Ann"]
    roll(s, O="1any")
    turn(s, "O", "in1", "a3")
    board = _board(s, None)
    assert board["phase"] == "over" and board["ended_by"] == 0
    assert board["seats"][0]["stars"] == ["star:end_coins"]
    assert {st["id"]: st["holder"] for st in board["stars"]} == {
        "star:two_each": None, "star:full_row": None, "star:end_grey": None,
        "star:end_coins": 0}
    assert board["end_reason"] == "you have reached the last coin box"
    assert board["sentence"] == "Game over: you have reached the last coin box."
    assert board["result_text"] == "You have reached the last coin box."
    assert board["doing"] == ""
    assert board["to_move"] is None and board["choices"] == []


def test_the_view_carries_the_board_and_the_schemas_publish() -> None:
    s = meeple.new_game("reefs", players=2, level=3, seed=4)
    while s.to_move == CHANCE:
        s.sample_chance()
    v = seat_view(s, 0)
    assert v.board == view_board(s.seen_by(0), 0)
    assert v.board["choices"] and seat_view(s, None).board["choices"] == []
    shown = presentation("reefs")
    assert shown.view_layout is view_layout and shown.view_board is view_board
    assert (shown.layout_model, shown.board_model) == (ReefsLayout, ReefsBoard)
    published = view_schema("reefs")
    assert published["properties"]["board"]["$ref"] == "#/$defs/board_ReefsBoard"
    for model in (ReefsLayout, ReefsBoard):
        schema = model.model_json_schema(by_alias=True)
        assert "schema" in schema["properties"]
        json.dumps(schema)
    assert NEUTRAL == 5  # the neutral treasure colour index the layout maps to 'neutral'


def _game(level: int, players: int, seed: int) -> ReefsState:
    state = meeple.new_game("reefs", players=players, level=level, seed=seed)
    assert isinstance(state, ReefsState)
    return state


def _fresh_views(state: ReefsState) -> dict[int | None, Any]:
    """The boards of every viewer with nothing kept from earlier views."""
    boards._cache(state.board).walks.clear()
    boards._cache(state.board).seat_boards.clear()
    return boards.view_boards(state, [None, *range(state.players)])


def test_views_made_from_kept_walks_and_seat_boards_equal_views_made_afresh() -> None:
    """A view continues the walk kept for its game and reuses the seat boards that did not
    change: in any order of positions, on branches that left the game's line (a preview, a
    search), after a position taken back, and with several games of one seed at once, each
    board equals the board made with nothing kept."""
    rng = Rng(5)
    for players, level in ((2, 1), (3, 2), (4, 3)):
        line = [_game(level, players, 11)]
        while line[-1].to_move is not None and len(line) < 160:
            nxt = line[-1].clone()
            if nxt.to_move == CHANCE:
                nxt.sample_chance()
            else:
                nxt.play(rng.choice(nxt.legal_moves()))
            line.append(nxt)
        other = _game(level, players, 11)  # another table of the same seed
        for _ in range(12):
            if other.to_move == CHANCE:
                other.sample_chance()
            else:
                other.play(rng.choice(other.legal_moves()))
        order = list(range(len(line)))
        rng.shuffle(order)
        picks = sorted(order[:25]) + order[25:40]  # forward through the game, then anywhere
        for i in picks:
            state = line[i]
            kept = boards.view_boards(state, [None, *range(players)])
            branch = state.clone()
            if branch.to_move is not None and branch.to_move != CHANCE:
                branch.play(rng.choice(branch.legal_moves()))
                boards.view_boards(branch, [None])  # a preview's walk kept beside the line's
            boards.view_boards(other, [None])
            assert kept == _fresh_views(state), (players, level, i)
        # a position taken back: the kept walk of the longer log is not used for it
        undone = line[-1].clone()
        if undone.can_undo():
            boards.view_boards(undone, [None])
            undone.undo()
            assert boards.view_boards(undone, [None]) == _fresh_views(undone)


def test_a_move_leaves_the_other_seats_boards_as_they_were() -> None:
    """A move changes its mover's sheet only: the next view holds the other seats' boards of
    the view before (the very same objects, which an update's diff passes over at once)."""
    state = _game(1, 3, 4)
    rng = Rng(2)
    shared = 0
    for _ in range(120):
        if state.to_move is None:
            break
        before = boards.view_boards(state, [None])[None]["seats"]
        mover = state.to_move
        if mover == CHANCE:
            state.sample_chance()
        else:
            state.play(rng.choice(state.legal_moves()))
        after = boards.view_boards(state, [None])[None]["seats"]
        for s in range(3):
            if s != mover and after[s] == before[s]:
                assert after[s] is before[s]
                shared += 1
    assert shared > 100
