"""The Gardens view for clients: layout (sheet geometry, score area) and board (marks, choices).

Random playouts of every level and seat count check, at every decision, that layout and board
validate against their models (through JSON), that the choices are exactly the legal moves
with targets in the layout, that only the seat to move gets choices, and that the marks agree
with the engine: coloured fields, gardens, boxes, goals, and the score pad recounted from the
layout's values and the board's marks equals the engine's scores row by row.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.view import seat_view
from meeple.games.gardens.boards import (
    BOARD_SCHEMA,
    LAYOUT_SCHEMA,
    GardensBoard,
    GardensLayout,
    view_board,
    view_layout,
)
from meeple.games.gardens.moves import FIELD
from meeple.games.gardens.rules import GardensState
from meeple.games.gardens.sheet import COLOURS, LETTERS
from tests.games.gardens.helpers import new, roll, strip_sheet, turn


def _json(data: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    assert out == data, "the view is not plain JSON data"
    return out  # type: ignore[no-any-return]


def layout_of(state: GardensState) -> dict[str, Any]:
    data = _json(view_layout(state))
    model = GardensLayout.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True) == data
    assert data["schema"] == LAYOUT_SCHEMA
    return data


def board_of(state: GardensState, viewer: int | None, validate: bool = True) -> dict[str, Any]:
    seen = state.seen_by(viewer if viewer is not None else 0)
    data = view_board(seen, viewer)
    if not validate:
        return data
    data = _json(data)
    model = GardensBoard.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True) == data
    assert data["schema"] == BOARD_SCHEMA
    return data


def element_ids(layout: dict[str, Any]) -> set[str]:
    """Every element id the layout names."""
    ids = {f["id"] for f in layout["fields"]} | {p["id"] for p in layout["pencils"]}
    ids |= {f["id"] for f in layout["fountain"]}
    score = layout["score"]
    for row in score["single_colour"]["rows"]:
        ids |= {b["id"] for b in row["boxes"]} | {row["star"]["id"]}
    areas = [score["colourful"], score["flowers"], score["trees"]]
    for area in areas:
        if area is None:
            continue
        ids |= {b["id"] for b in area["boxes"]}
        if area["star"] is not None:
            ids.add(area["star"]["id"])
    ids |= {p["id"] for p in score["pencils"]} | {g["id"] for g in score["goals"]}
    return ids


def recount(layout: dict[str, Any], board: dict[str, Any], seat: int) -> dict[str, int]:
    """The score pad of ``seat`` from the layout's printed values and the board's marks only."""
    score = layout["score"]
    mine = board["seats"][seat]
    rows_sc = score["single_colour"]["rows"]
    holders = {g["id"]: g["holder"] for g in board["goals"]}
    out: dict[str, int] = {}
    for c in COLOURS:
        out[c] = sum(r["value"] for r in rows_sc[: mine["boxes"][c]])
    out["row stars"] = sum(r["star"]["value"] for r, m in zip(rows_sc, mine["rows"], strict=True)
                           if m["star"])
    out["colourful gardens"] = sum(b["value"] for b in score["colourful"]["boxes"][: mine["colourful"]])
    if score["colourful"]["star"] is not None:
        out["colourful star"] = score["colourful"]["star"]["value"] if mine["colourful_star"] else 0
    goals = {g["id"]: g for g in score["goals"]}
    if score["flowers"] is not None:
        out["flowers"] = score["flower_box_value"] * len(mine["flowers"])
        out["flower star"] = score["flowers"]["star"]["value"] if mine["flower_star"] else 0
        out["all flower fields"] = goals["goal-flowers"]["stars"] * (holders["goal-flowers"] == seat)
    if score["trees"] is not None:
        out["tree star"] = score["trees"]["star"]["value"] if mine["tree_star"] else 0
    fours = [g for g in score["goals"] if g["kind"] == "four"]
    if fours:
        out["four gardens"] = sum(g["stars"] for g in fours if holders[g["id"]] == seat)
    for gid, row in (("goal-outer", "all outer fields"), ("goal-all", "all fields"),
                     ("goal-largest", "largest area")):
        out[row] = goals[gid]["stars"] if holders[gid] == seat else 0
    out["pencils"] = sum(p["penalty"] for p in score["pencils"][: mine["pencils_crossed"]])
    return out


def garden_status(state: GardensState, seat: int, g: int) -> str:
    """Garden ``g`` on ``seat``'s sheet, read from the engine: fields still free, or the colour
    letter (done in one colour), ``5c`` (in all five) or ``mix`` (done, no box)."""
    mask = state.sheet.garden_masks[g]
    free = mask & ~state.coloured[seat]
    if free:
        return str(free.bit_count())
    present = [c for c in range(5) if state.cmask[seat * 5 + c] & mask]
    if len(present) == 1:
        return LETTERS[present[0]]
    return "5c" if len(present) == 5 else "mix"


def check_marks(state: GardensState, layout: dict[str, Any], board: dict[str, Any]) -> None:
    """The board's marks equal the engine's position."""
    sheet = state.sheet
    assert [g["id"] for g in board["goals"]] == [g["id"] for g in layout["score"]["goals"]]
    scores = state.scores()
    for seat in range(state.players):
        mine = board["seats"][seat]
        assert mine["seat"] == seat and mine["name"] == state.seats[seat]
        for c in range(5):
            want = {sheet.ids[i] for i in range(sheet.n) if state.cmask[seat * 5 + c] >> i & 1}
            assert {f for f, col in mine["coloured"].items() if col == COLOURS[c]} == want
            assert mine["boxes"][COLOURS[c]] == state.boxes[seat * 5 + c]
        assert mine["coloured_count"] == state.coloured[seat].bit_count()
        assert mine["fields_left"] == sheet.n - mine["coloured_count"]
        for g, mark in enumerate(mine["gardens"]):
            st = garden_status(state, seat, g)
            assert mark["id"] == layout["gardens"][g]["id"]
            if st.isdigit():
                assert not mark["completed"] and mark["left"] == int(st) and mark["by"] is None
            else:
                want_by = {"5c": "colourful", "mix": "mixed"}.get(st) or COLOURS[LETTERS.index(st)]
                assert mark["completed"] and mark["left"] == 0 and mark["by"] == want_by
        assert mine["pencils_crossed"] == state.crossed[seat]
        assert mine["largest_area"] == state.largest_area(seat)
        assert mine["colourful"] == state.colourful[seat]
        assert recount(layout, board, seat) == scores[seat].breakdown, f"seat {seat}"
        assert list(scores[seat].breakdown) == layout["score"]["rows"]
    hand = board["hand"]
    if state.phase == 2:
        assert hand["seat"] == state.seat and hand["colour"] == COLOURS[state.hand]
        assert hand["face"] == state.need
        assert hand["left"] == state.need - state.group.bit_count()
        assert set(hand["coloured"]) == {sheet.ids[i] for i in range(sheet.n) if state.group >> i & 1}
        fields = [str(m) for m in state.legal_moves() if m.kind == FIELD]
        assert sorted(hand["colourable"]) == sorted(fields)
        assert hand["colourable"] == sorted(hand["colourable"], key=sheet.ids.index)
    else:
        assert hand is None
    assert board["ended_by"] == (state.seat if state.is_over else None)
    for c, p in enumerate(board["pencils"]):
        assert p["id"] == f"pencil-{LETTERS[c]}"
        if state.phase in (1, 2):
            assert (p["where"] == "middle") == bool(state.middle >> c & 1)
            assert p["face"] == state.faces[c]
    assert board["phase"] == ("rolling", "taking", "colouring", "over")[state.phase]
    assert board["seat"] == (None if state.is_over else state.seat)


def check_decision(state: GardensState, layout: dict[str, Any]) -> None:
    ids = element_ids(layout)
    mover = state.to_move
    # the mover's and the spectator's boards go through JSON and the model; the others must
    # equal them but for the choices
    checked = {mover if isinstance(mover, int) and mover >= 0 else 0, None}
    boards = {v: board_of(state, v, validate=v in checked)
              for v in [*range(state.players), None]}
    if mover is None or mover == meeple.CHANCE:
        assert all(b["choices"] == [] for b in boards.values())
    else:
        legal = [str(m) for m in state.legal_moves()]
        choices = boards[mover]["choices"]
        assert sorted(c["move"] for c in choices) == sorted(legal)
        assert len(choices) == len(legal) == len(set(legal))
        for c in choices:
            assert c["target"] is None or c["target"] in ids, c
            assert c["label"]
            state.parse_move(c["move"])  # the text is the engine's own
        for v, b in boards.items():
            if v != mover:
                assert b["choices"] == [], f"viewer {v} got choices"
    # apart from the choices, every viewer sees the same board (nothing is hidden in Gardens)
    plain = [{**b, "choices": []} for b in boards.values()]
    assert all(p == plain[0] for p in plain)
    check_marks(state, layout, boards[None])


CASES = [pytest.param(level, players, id=f"level{level}-{players}p")
         for level in (1, 2, 3) for players in (1, 2, 3, 4)]


@pytest.mark.parametrize(("level", "players"), CASES)
def test_playout_views_conform(level: int, players: int) -> None:
    state = meeple.new_game("gardens", players=players, level=level, seed=300 + level * 10 + players)
    assert isinstance(state, GardensState)
    layout = layout_of(state)
    rng = Rng(level * 7 + players)
    decisions = 0
    while not state.is_over:
        if state.to_move == meeple.CHANCE:
            if state.roll_next == 2:  # mid-roll: no choices, pencils partly rolled
                b = board_of(state, state.seat)
                assert b["choices"] == [] and b["phase"] == "rolling"
                assert [p["face"] is None for p in b["pencils"]] == [False] * 2 + [True] * 3
            state.sample_chance(rng)
            continue
        check_decision(state, layout)
        decisions += 1
        state.play(rng.choice(state.legal_moves()), check=False)
    check_decision(state, layout)
    assert decisions > 10
    assert layout_of(state) == layout, "the layout changed during the game"
    end = board_of(state, None)
    assert end["phase"] == "over" and end["end"] and end["seat"] is None
    assert {g["id"] for g in end["goals"] if g["decided"]} >= {"goal-largest"}


def test_layout_follows_the_shipped_sheet() -> None:
    state = new_layout_state("level-2")
    layout = layout_of(state)
    sheet = state.sheet
    assert [f["id"] for f in layout["fields"]] == list(sheet.ids)
    for f, spec in zip(layout["fields"], sheet.data.fields, strict=True):
        assert (f["q"], f["r"]) == (spec.q, spec.r)
        assert math.isclose(f["x"], math.sqrt(3) * (spec.q + spec.r / 2), abs_tol=1e-3)
        assert math.isclose(f["y"], 1.5 * spec.r, abs_tol=1e-3)
        assert f["garden"] == spec.garden and f["flower"] == spec.flower and f["tree"] == spec.tree
    assert sorted(f["flower"] for f in layout["fields"] if f["flower"]) == sorted(COLOURS)
    assert len(layout["fountain"]) == len(sheet.data.fountain)
    assert sum(g["size"] for g in layout["gardens"]) == sheet.n
    assert layout["score"]["flowers"] is not None and layout["score"]["trees"] is None
    assert [s["penalty"] for s in layout["score"]["pencils"]] == sheet.data.scoring.pencil_penalties
    assert [s["ends_game"] for s in layout["score"]["pencils"]] == [False] * 4 + [True]


def new_layout_state(sheet: str | Path, players: int = 2) -> GardensState:
    s = meeple.new_game("gardens", players=players, sheet=sheet)
    assert isinstance(s, GardensState)
    return s


def test_borders_face_other_gardens_fountain_and_outside() -> None:
    # A1 A2 | A3 in a row; A2 and A3 are different gardens; nothing else around
    state = new(strip_sheet([2, 1]))
    fields = {f["id"]: f for f in layout_of(state)["fields"]}
    sides = {fid: {b["side"]: b["against"] for b in f["borders"]} for fid, f in fields.items()}
    assert sides["A1"] == dict.fromkeys(["NE", "NW", "W", "SW", "SE"], "outside")
    assert sides["A2"] == {"E": "garden", **dict.fromkeys(["NE", "NW", "SW", "SE"], "outside")}
    assert sides["A3"]["W"] == "garden" and len(sides["A3"]) == 6
    assert fields["A2"]["neighbours"] == ["A3", "A1"]
    # the shipped level-1 sheet: every field next to the fountain has a fountain border, and
    # the fountain is never 'outside'
    layout = layout_of(new_layout_state("level-1"))
    fountain = {(s["q"], s["r"]) for s in layout["fountain"]}
    steps = {s["name"]: (s["dq"], s["dr"]) for s in layout["hex"]["sides"]}
    gardens = {f["id"]: f["garden"] for f in layout["fields"]}
    at = {(f["q"], f["r"]): f for f in layout["fields"]}
    assert fountain
    for f in layout["fields"]:
        kinds = {b["side"]: b["against"] for b in f["borders"]}
        for side, (dq, dr) in steps.items():
            p = (f["q"] + dq, f["r"] + dr)
            if p in fountain:
                assert kinds[side] == "fountain"
            elif p in at:
                assert (side in kinds) == (gardens[at[p]["id"]] != f["garden"])
            else:
                assert kinds[side] == "outside"
        assert f["outer"] == ("outside" in kinds.values())


def test_a_users_own_sheet_draws(tmp_path: Path) -> None:
    toml = tmp_path / "mine.toml"
    toml.write_text('''name = "My garden"
level = 2
fountain = [[1, 1]]
fields = [
  { id = "A1", q = 0, r = 0, garden = "north" },
  { id = "A2", q = 1, r = 0, garden = "north", flower = "red" },
  { id = "A3", q = 2, r = 0, garden = "east", tree = true },
  { id = "B1", q = 0, r = 1, garden = "west" },
  { id = "B2", q = 2, r = 1, garden = "east" },
  { id = "C1", q = 0, r = 2, garden = "south" },
  { id = "C2", q = 1, r = 2, garden = "south", flower = "blue" },
]

[scoring]
single_colour_boxes = [1, 7]
row_stars = [20, 30]
colourful_boxes = [9]
colourful_star = 0
pencil_penalties = [-2, -9]
outer_fields_bonus = 4
four_gardens_bonus = 3
four_gardens_count = 2
''')
    state = new_layout_state(toml, players=2)
    layout = layout_of(state)
    assert layout["name"] == "My garden" and layout["level"] == 2
    assert [f["id"] for f in layout["fields"]] == ["A1", "A2", "A3", "B1", "B2", "C1", "C2"]
    assert [(g["id"], g["size"], g["label"]) for g in layout["gardens"]] == [
        ("north", 2, "a"), ("east", 2, "b"), ("west", 1, "c"), ("south", 2, "d")]
    assert layout["fountain"] == [{"id": "fountain-1", "q": 1, "r": 1,
                                   "x": round(math.sqrt(3) * 1.5, 4), "y": 1.5}]
    f = {x["id"]: x for x in layout["fields"]}
    assert f["A2"]["flower"] == "red" and f["A3"]["tree"] and not f["A1"]["tree"]
    # the fountain is enclosed: A2's side facing it is a border of kind 'fountain'
    assert {b["side"]: b["against"] for b in f["A2"]["borders"]}["SE"] == "fountain"
    score = layout["score"]
    rows = score["single_colour"]["rows"]
    assert [(r["value"], r["star"]["value"]) for r in rows] == [(1, 20), (7, 30)]
    assert [b["id"] for b in rows[1]["boxes"]] == [f"box-{c}-2" for c in LETTERS]
    assert [b["value"] for b in score["colourful"]["boxes"]] == [9] and score["colourful"]["star"] is None
    assert [p["penalty"] for p in score["pencils"]] == [-2, -9]
    assert score["flowers"] is not None and score["trees"] is not None
    goals = {g["id"]: g for g in score["goals"]}
    assert goals["goal-outer"]["stars"] == 4
    assert goals["goal-four-O"]["stars"] == 3 and goals["goal-four-O"]["target"] == 2
    assert goals["goal-flowers"]["target"] == 2
    assert list(goals)[-1] == "goal-largest"
    # and it plays: the board follows the moves on this sheet
    roll(state, "O2 R1 G1 B1 P1")
    board = board_of(state, 0)
    assert {c["move"] for c in board["choices"]} == {"take O", "take R", "take G", "take B", "take P"}
    turn(state, "O", "A1", "A2")
    board = board_of(state, None)
    assert board["seats"][0]["coloured"] == {"A1": "orange", "A2": "orange"}
    assert board["seats"][0]["gardens"][0] == {"id": "north", "left": 0, "completed": True,
                                               "by": "orange"}
    assert board["pencils"][0]["holder"] == 0 and board["pencils"][0]["where"] == "used"
    check_marks(state, layout, board)
    # without the fountain line, the enclosed space is a hole: still a border, still not outer
    toml.write_text(toml.read_text().replace("fountain = [[1, 1]]\n", ""))
    holed = layout_of(new_layout_state(toml))
    a2 = next(x for x in holed["fields"] if x["id"] == "A2")
    assert holed["fountain"] == []
    assert {b["side"]: b["against"] for b in a2["borders"]}["SE"] == "hole"
    for x in holed["fields"]:
        assert x["outer"] == any(b["against"] == "outside" for b in x["borders"])


def test_pencils_hand_goals_and_choices_in_a_scenario() -> None:
    state = new(strip_sheet([1, 1, 2]), players=2)
    layout = layout_of(state)
    roll(state, "O1 R2 G1 B1 P1")
    b = board_of(state, 0)
    assert b["phase"] == "taking" and b["seat"] == 0
    assert b["doing"] == "take a pencil from the middle" and b["result_text"] == ""
    assert [(p["where"], p["face"], p["holder"]) for p in b["pencils"]] == [("middle", 1, None),
                                                                           ("middle", 2, None),
                                                                           ("middle", 1, None),
                                                                           ("middle", 1, None),
                                                                           ("middle", 1, None)]
    pencil = {c["move"]: c for c in b["choices"]}["take R"]
    assert pencil == {"move": "take R", "target": "pencil-R", "kind": "pencil",
                      "label": "take the red pencil (2 fields)"}
    assert board_of(state, 1)["choices"] == [] and board_of(state, None)["choices"] == []
    state.play("take R")
    b = board_of(state, 0)
    assert b["hand"] == {"seat": 0, "pencil": "pencil-R", "colour": "red", "letter": "R",
                         "face": 2, "coloured": [], "left": 2, "can_waste": True,
                         "colourable": [c["move"] for c in b["choices"] if c["kind"] == "field"]}
    assert b["pencils"][1]["where"] == "hand" and b["pencils"][1]["holder"] == 0
    assert b["doing"] == "colour 2 fields with the red pencil, or waste it"
    waste = {c["move"]: c for c in b["choices"]}["waste"]
    assert waste["target"] == "symbol-1" and waste["kind"] == "waste"
    assert "(2 fields)" not in waste["label"] and "-1" in waste["label"]
    state.play("A3")
    b = board_of(state, 0)
    assert b["hand"]["coloured"] == ["A3"] and b["hand"]["left"] == 1 and not b["hand"]["can_waste"]
    assert b["hand"]["colourable"] == ["A2", "A4"]
    assert b["doing"].startswith("colour 1 more field with the red pencil")
    assert {c["move"] for c in b["choices"]} == {"A4", "A2"}
    assert all(c["kind"] == "field" and c["target"] == c["move"] for c in b["choices"])
    state.play("A4")
    b = board_of(state, 1)
    assert b["seat"] == 1 and b["hand"] is None
    assert b["seats"][0]["gardens"][2]["by"] == "red"
    assert b["seats"][0]["rows"][0] == {"row": 1, "ticked": ["R"], "star": False}
    turn(state, "O", "waste")
    b = board_of(state, None)
    assert b["seats"][1]["pencils_crossed"] == 1
    assert b["pencils"][0] == {"id": "pencil-O", "colour": "orange", "letter": "O", "face": 1,
                               "where": "used", "holder": 1}
    check_marks(state, layout, b)


def test_goal_taken_by_one_seat_is_crossed_out_for_the_others() -> None:
    state = new(strip_sheet([1, 1]), players=2)
    layout = layout_of(state)
    roll(state, "O2 R1 G1 B1 P1")
    turn(state, "O", "A1", "A2")  # colours everything: the game ends at once (G10)
    b = board_of(state, None)
    goals = {g["id"]: g for g in b["goals"]}
    assert goals["goal-outer"] == {"id": "goal-outer", "holder": 0, "holder_name": state.seats[0],
                                   "decided": True}
    assert goals["goal-all"]["holder"] == 0
    assert goals["goal-largest"]["holder"] == 0 and goals["goal-largest"]["decided"]
    assert b["seats"][0]["goals"] == ["goal-outer", "goal-all", "goal-largest"]
    assert b["seats"][1]["goals"] == []
    assert b["phase"] == "over" and "coloured every field" in b["end"]
    assert b["result_text"] == "Seat 0 has coloured every field (G10)."
    assert b["doing"] == ""
    check_marks(state, layout, b)


def test_the_view_carries_our_board_and_round_trips() -> None:
    state = meeple.new_game("gardens", players=2, level=3, seed=5)
    rng = Rng(3)
    while state.to_move == meeple.CHANCE:
        state.sample_chance(rng)
    v = seat_view(state, 0)
    data = json.loads(v.model_dump_json(by_alias=True))
    assert data["board"]["schema"] == BOARD_SCHEMA
    assert sorted(c["move"] for c in data["board"]["choices"]) == sorted(data["legal_moves"])
    assert seat_view(state, None).board["choices"] == []
    assert seat_view(state, 1).board["choices"] == []
