"""The Takenokolor layout and board for clients (issues 28, 29): checked against the engine at
every decision of random games on every sheet and seat count, and on a user's own sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.present import presentation
from meeple.core.view import seat_view
from meeple.games.takenokolor.boards import (
    BOARD_SCHEMA,
    LAYOUT_SCHEMA,
    TakenokolorBoard,
    TakenokolorLayout,
    view_board,
    view_layout,
)
from meeple.games.takenokolor.rules import TakenokolorState
from meeple.games.takenokolor.sheet import COLOURS, load
from tests.games.takenokolor.helpers import coloured, new, paint, roll

SHEETS = ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"]


def _json(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


def layout_of(s: TakenokolorState) -> dict[str, Any]:
    data = _json(view_layout(s))
    model = TakenokolorLayout.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True) == data
    assert data["schema"] == LAYOUT_SCHEMA
    return data


def board_of(s: TakenokolorState, viewer: int | None) -> dict[str, Any]:
    data = _json(view_board(s.seen_by(0 if viewer is None else viewer), viewer))
    model = TakenokolorBoard.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True) == data
    assert data["schema"] == BOARD_SCHEMA
    return data


def bits(s: TakenokolorState, mask: int) -> set[str]:
    return {iid for k, iid in enumerate(s.cs.item_ids) if mask >> k & 1}


def expected_passed(lay: dict[str, Any], done: set[str]) -> set[str]:
    """Items of a step-by-step area at or below its furthest coloured step, not coloured."""
    out: set[str] = set()
    for area in lay["areas"]:
        if area["order"] != "sequence":
            continue
        reached = [k for k, step in enumerate(area["steps"]) if set(step) & done]
        if reached:
            out |= {i for step in area["steps"][:max(reached) + 1] for i in step} - done
    return out


def check_marks(s: TakenokolorState, b: dict[str, Any], ink: list[dict[str, tuple[str, bool]]],
                takers: dict[str, int], lay: dict[str, Any]) -> None:
    """Every seat's marks on the board are the engine's; the inks and takers are those the
    game's own moves used."""
    cs = s.cs
    assert [seat["seat"] for seat in b["seats"]] == list(range(s.players))
    for p, seat in enumerate(b["seats"]):
        assert seat["name"] == s.seats[p]
        assert [c["item"] for c in seat["coloured"]] == [
            iid for iid in cs.item_ids if iid in coloured(s, p)]
        assert {c["item"]: (c["ink"], c["free"]) for c in seat["coloured"]} == ink[p]
        assert set(seat["open"]) == bits(s, s.avail[p])
        assert set(seat["locked"]) == bits(s, s.blocked[p] & ~s.coloured[p])
        assert set(seat["passed"]) == expected_passed(lay, coloured(s, p)) - set(seat["locked"])
        marks = [set(seat[k]) for k in ("open", "passed", "locked")] + [set(ink[p])]
        assert sum(len(m) for m in marks) == len(set().union(*marks))  # no item twice
        assert seat["complete"] == [a for ai, a in enumerate(cs.area_ids)
                                    if cs.complete(s.coloured[p], ai)]
        assert seat["ladybugs"] == [lb.id for li, lb in enumerate(cs.sheet.ladybugs)
                                    if s.ladybugs[p] >> li & 1]
        kept = {r["race"]: (r["kept"], r["points"]) for r in seat["races"]}
        for ri, race in enumerate(cs.sheet.races):
            want = (("first", race.first) if s.first[p] >> ri & 1 else
                    ("later", race.later) if s.later[p] >> ri & 1 else None)
            assert kept.get(race.id) == want
        assert list(seat["pad"]) == list(s.scores()[p].breakdown)
    assert b["claimed"] == [r.id for ri, r in enumerate(cs.sheet.races) if s.claimed >> ri & 1]
    assert b["holder"] == s.holder
    for k, m in enumerate(b["markers"]):
        assert m["id"] == COLOURS[k]
        assert (m["symbol"] is None) == (s.rolled[k] < 0)
        assert m["by"] == takers.get(m["id"])
        assert m["taken"] == (m["id"] in takers)


def check_choices(s: TakenokolorState, b: dict[str, Any], lay: dict[str, Any]) -> None:
    legal = [str(m) for m in s.legal_moves()]
    moves = [c["move"] for c in b["choices"]]
    assert sorted(moves) == sorted(legal) and len(set(moves)) == len(moves)
    items = {it["id"] for it in lay["items"]}
    markers = {m["id"] for m in lay["markers"]}
    for c in b["choices"]:
        word, arg = c["move"].split()
        assert c["kind"] == word and c["label"]
        assert c["target"] == arg
        assert c["target"] in (markers if word == "take" else items)
        if word == "take":  # the items lit for this marker are those it may colour once taken
            after = s.clone()
            after.play(c["move"])
            assert sorted(c["items"]) == sorted(str(m).split()[1] for m in after.legal_moves())
            assert set(c["items"]) <= items


def play_checked(sheet: Any, players: int, seed: int) -> TakenokolorState:
    s = new(sheet, players)
    rng = meeple.Rng(seed)
    lay = layout_of(s)
    assert [it["id"] for it in lay["items"]] == s.cs.item_ids
    ink: list[dict[str, tuple[str, bool]]] = [{} for _ in range(players)]
    takers: dict[str, int] = {}
    hand = ""
    passed: list[set[str]] = [set() for _ in range(players)]
    decisions = 0
    while True:
        to_move = s.to_move
        if to_move == meeple.CHANCE and s.n_rolled == 0:  # a new round: markers back
            takers = {}
        spectator = board_of(s, None)
        assert spectator["choices"] == []
        check_marks(s, spectator, ink, takers, lay)
        for p in range(players):  # a passed item is never coloured afterwards
            assert not passed[p] & coloured(s, p)
            passed[p] |= set(spectator["seats"][p]["passed"])
        if s.is_over:
            assert spectator["phase"] == "over" and spectator["end_reason"]
            assert spectator["to_move"] is None and spectator["doing"] == ""
            assert spectator["end_reason"] in spectator["result_text"]
            assert spectator["result_text"] in spectator["sentence"]
            if players == 1:
                assert "Final score" in spectator["sentence"] and "win" not in spectator["sentence"]
            else:
                assert all(s.seats[w] in spectator["sentence"] for w in s.winners())
            break
        assert spectator["result_text"] == "" and spectator["end_reason"] is None
        if to_move == meeple.CHANCE:
            assert spectator["phase"] == "roll" and spectator["to_move"] is None
            assert spectator["next_marker"] == COLOURS[s.n_rolled]
            s.sample_chance(rng)  # plays the roll
            continue
        assert isinstance(to_move, int)
        decisions += 1
        mine = board_of(s, to_move)
        assert mine["to_move"] == to_move and mine["phase"] == str(s.legal_moves()[0]).split()[0]
        assert mine["doing"] and mine["doing"].split()[0] in mine["sentence"]
        assert mine["sentence"].startswith(s.seats[to_move])
        check_choices(s, mine, lay)
        if players > 1:  # another seat (a different one each time) sees no choices
            other = (to_move + 1 + decisions % (players - 1)) % players
            assert board_of(s, other)["choices"] == []
        assert {k: v for k, v in mine.items() if k != "choices"} == \
            {k: v for k, v in spectator.items() if k != "choices"}
        if mine["phase"] == "free":
            assert mine["free"] is not None and mine["free"]["remaining"] >= 1
        else:
            assert mine["free"] is None
        in_hand = [m["id"] for m in mine["markers"] if m["in_hand"]]
        assert in_hand == ([hand] if mine["phase"] == "colour" else [])
        move = rng.choice(s.legal_moves())
        word, arg = str(move).split()
        if word == "take":
            hand = arg
            takers[arg] = to_move
        elif word == "colour":
            i = s.cs.index[arg]
            printed = s.cs.item_colour[i]
            assert printed == 4 or COLOURS[printed] == hand  # the marker matches (or 'any')
            ink[to_move][arg] = (hand, False)
        else:
            ink[to_move][arg] = ("B", True)  # "with their blue marker" (T3)
        s.play(move)
    assert decisions > 10
    return s


@pytest.mark.parametrize("sheet", SHEETS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_board_follows_a_whole_game(sheet: str, players: int) -> None:
    s = play_checked(sheet, players, seed=players * 7 + SHEETS.index(sheet))
    assert s.is_over


def test_passed_items_are_never_coloured_later() -> None:
    for seed in range(3):
        s = new("4-pandas-dragon", 3)
        rng = meeple.Rng(seed)
        passed: list[set[str]] = [set(), set(), set()]
        while not s.is_over:
            b = board_of(s, None)
            for p in range(3):
                assert not passed[p] & coloured(s, p)
                passed[p] |= set(b["seats"][p]["passed"])
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
            else:
                s.play(rng.choice(s.legal_moves()))
        assert any(passed)


def test_layout_carries_the_sheet() -> None:
    for name in SHEETS:
        s = new(name, 2)
        lay = layout_of(s)
        sheet = load(name)
        assert lay["sheet"]["name"] == name and lay["ladybugs_to_end"] == sheet.ladybugs_to_end
        items = {it["id"]: it for it in lay["items"]}
        for area, a in zip(sheet.areas, lay["areas"], strict=True):
            assert a["id"] == area.id and a["kind"] == area.kind
            assert a["items"] == [it.id for it in area.items]
            assert sorted(i for step in a["steps"] for i in step) == sorted(a["items"])
            for it in area.items:
                got = items[it.id]
                assert (got["col"], got["row"], got["colour"], got["symbol"], got["points"]) \
                    == (it.col, it.row, it.colour, it.symbol, it.points)
                assert got["area"] == area.id and got["requires"] == it.requires
                assert len(got["grants"]) == len(it.grants)
                assert a["box"]["col"] <= it.col < a["box"]["col"] + a["box"]["cols"]
                assert a["box"]["row"] <= it.row < a["box"]["row"] + a["box"]["rows"]
                assert it.col < lay["grid"]["cols"] and it.row < lay["grid"]["rows"]
        assert [lb["id"] for lb in lay["ladybugs"]] == [lb.id for lb in sheet.ladybugs]
        for lb in lay["ladybugs"]:
            assert lb["anchor"] in items
        assert [r["row"] for r in lay["scoring"]] == list(s.scores()[0].breakdown)
        assert all(r["text"] for r in lay["scoring"])
        assert [r["id"] for r in lay["races"]] == [r.id for r in sheet.races]
    TakenokolorLayout.model_json_schema(by_alias=True)
    TakenokolorBoard.model_json_schema(by_alias=True)


def test_kinds_of_each_sheet_are_drawn() -> None:
    """The items the browser must draw, per sheet: bamboo with leaf values, cloud, sun; river,
    fish on it, pond; lanterns, shoots, ponds; dragon with feet, favours, fireworks."""
    want = {"2-pandas": {"bamboo", "cloud", "sun"},
            "3-pandas": {"bamboo", "river", "fish", "pond", "sun"},
            "4-pandas-river": {"bamboo", "lantern", "shoot", "pond", "river"},
            "4-pandas-dragon": {"bamboo", "lantern", "favour", "dragon", "trail", "burst"}}
    for name, kinds in want.items():
        lay = layout_of(new(name, 2))
        assert {a["kind"] for a in lay["areas"]} == kinds
        bamboo = [it for it in lay["items"] if it["kind"] == "bamboo"]
        assert bamboo and all(it["points"] > 0 for it in bamboo)  # leaf values
    dragon = layout_of(new("4-pandas-dragon", 2))
    feet = [r for r in dragon["races"] if r["when"] == "any"]
    assert len(feet) == 3 and all(
        next(it for it in dragon["items"] if it["id"] == r["anchor"])["kind"] == "dragon"
        for r in feet)
    fish = [it for it in layout_of(new("3-pandas", 2))["items"] if it["kind"] == "fish"]
    assert fish and all(it["requires"] for it in fish)
    river = layout_of(new("4-pandas-river", 2))
    assert any(it["grants"] for it in river["items"] if it["kind"] == "river")
    assert any(len(step) > 1 for a in river["areas"] if a["kind"] == "river" for step in a["steps"])


def _user_sheet() -> dict[str, Any]:
    data = load("2-pandas").model_dump(mode="json")
    data["name"] = "my-garden"
    data["title"] = "My own garden"
    first = data["areas"][0]["items"][0]
    first["points"] = 9
    first["col"], first["row"] = 30, 20
    first["id"] = "mine"
    return data


def test_a_users_own_sheet_draws() -> None:
    s = new(_user_sheet(), 2)
    lay = layout_of(s)
    assert lay["sheet"]["name"] == "my-garden" and lay["sheet"]["title"] == "My own garden"
    mine = next(it for it in lay["items"] if it["id"] == "mine")
    assert (mine["points"], mine["col"], mine["row"]) == (9, 30, 20)
    assert lay["grid"] == {"cols": 31, "rows": 21}
    assert lay["areas"][0]["steps"][0] == ["mine"]
    assert lay["areas"][0]["box"]["rows"] > 10  # the area spans to its moved item
    play_checked(_user_sheet(), 2, seed=5)


def test_a_users_sheet_file_draws(tmp_path: Path) -> None:
    text = (Path(__file__).parents[3] / "src/meeple/games/takenokolor/sheets/2-pandas.toml"
            ).read_text()
    text = text.replace('name = "2-pandas"', 'name = "from-a-file"', 1)
    path = tmp_path / "garden.toml"
    path.write_text(text)
    lay = layout_of(new(str(path), 2))
    assert lay["sheet"]["name"] == "from-a-file"


def test_free_colouring_and_markers_on_the_board() -> None:
    """Completing the 2-panda cloud earns two sections of one bamboo (T3): the board names
    the free colouring, lights only open bamboo sections, and the free one is blue ink."""
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")  # G square completes the cloud (c4)
    b = board_of(s, 0)
    assert b["phase"] == "take" and b["to_move"] == 0
    take_g = next(c for c in b["choices"] if c["move"] == "take G")
    assert "c4" in take_g["items"] and take_g["target"] == "G"
    s.play("take G")
    b = board_of(s, 0)
    assert [m["id"] for m in b["markers"] if m["in_hand"]] == ["G"]
    assert next(m for m in b["markers"] if m["id"] == "G")["by"] == 0
    s.play("colour c4")
    b = board_of(s, 0)
    assert b["phase"] == "free" and b["free"]["target"] == "bamboo"
    assert b["free"]["spread"] == "same" and b["free"]["remaining"] == 2
    assert {c["kind"] for c in b["choices"]} == {"free"}
    assert {c["target"] for c in b["choices"]} == bits(s, s.avail[0] & s.cs.kind_mask["bamboo"])
    assert board_of(s, 1)["choices"] == [] and board_of(s, None)["choices"] == []
    target = b["choices"][0]["target"]
    s.play(b["choices"][0]["move"])
    seat = board_of(s, None)["seats"][0]
    got = {c["item"]: (c["ink"], c["free"]) for c in seat["coloured"]}
    assert got[target] == ("B", True) and got["c4"] == ("G", False)
    assert "cloud" in seat["complete"]


def test_dragon_ink_is_the_marker_used() -> None:
    s = new("4-pandas-dragon", 2)
    roll(s, "triangle circle square square")  # Y circle: d1 (any colour)
    s.play("take Y")
    s.play("colour d1")
    seat = board_of(s, None)["seats"][0]
    assert {c["item"]: c["ink"] for c in seat["coloured"]} == {"d1": "Y"}
    assert set(seat["open"]) >= {"d2", "d2b"}


def test_sun_lockout_shows_locked() -> None:
    s = new("3-pandas", 2)
    sun = next(a for a in s.cs.sheet.areas if a.lockout)
    paint(s, 0, *[it.id for it in sun.items])
    seat1 = board_of(s, None)["seats"][1]
    assert set(seat1["locked"]) == {it.id for it in sun.items}
    assert not set(seat1["open"]) & set(seat1["locked"])


def test_the_view_carries_the_board() -> None:
    s = new("4-pandas-river", 3)
    rng = meeple.Rng(3)
    while s.to_move == meeple.CHANCE:
        s.sample_chance(rng)
    to_move = s.to_move
    assert isinstance(to_move, int)
    v = seat_view(s, to_move)
    assert v.board == view_board(s.seen_by(to_move), to_move)
    assert sorted(c["move"] for c in v.board["choices"]) == sorted(v.legal_moves)
    assert seat_view(s, None).board["choices"] == []
    shown = presentation("takenokolor")
    assert shown.view_layout is view_layout and shown.view_board is view_board


@settings(max_examples=25, deadline=None)
@given(sheet=st.sampled_from(SHEETS), dx=st.integers(0, 40), dy=st.integers(0, 40),
       points=st.lists(st.integers(0, 99), min_size=60, max_size=60))
def test_layout_follows_the_sheet_data(sheet: str, dx: int, dy: int, points: list[int]) -> None:
    """Any sheet data draws as given: move every item and reprint every number."""
    data = load(sheet).model_dump(mode="json")
    data["name"] = "moved"
    k = 0
    for area in data["areas"]:
        for item in area["items"]:
            item["col"] += dx
            item["row"] += dy
            item["points"] = points[k % len(points)]
            k += 1
    lay = layout_of(new(data, 2))
    got = {it["id"]: (it["col"], it["row"], it["points"]) for it in lay["items"]}
    k = 0
    for area in data["areas"]:
        for item in area["items"]:
            assert got[item["id"]] == (item["col"], item["row"], points[k % len(points)])
            k += 1
    plain = layout_of(new(sheet, 2))
    assert lay["grid"] == {"cols": plain["grid"]["cols"] + dx, "rows": plain["grid"]["rows"] + dy}
    for a, b in zip(lay["areas"], plain["areas"], strict=True):
        assert (a["box"]["col"], a["box"]["row"]) == (b["box"]["col"] + dx, b["box"]["row"] + dy)
