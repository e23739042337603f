"""Pergola's view for clients: the table's layout and each view's board (issues 28, 29)."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.present import presentation
from meeple.core.state import CHANCE
from meeple.core.view import seat_view
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.boards import (
    BOARD_SCHEMA,
    LAYOUT_SCHEMA,
    PergolaBoard,
    PergolaLayout,
    view_board,
    view_layout,
)
from meeple.games.pergola.rules import PergolaState
from meeple.games.pergola.sheet import load_bundle

from .helpers import chance, garden, legal, start

GAMES = [(n, {}) for n in (1, 2, 3, 4)] + [(1, {"challenge": k}) for k in range(1, 11)]


def _new(players: int, seed: int, **options: Any) -> PergolaState:
    s = meeple.new_game("pergola", players=players, seed=seed, **options)
    assert isinstance(s, PergolaState)
    return s


def _element_ids(layout: dict[str, Any]) -> set[str]:
    """Every element id the layout defines (every ``id`` field, anywhere)."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("id"), str):
                out.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(layout)
    return out


def _strings(x: Any) -> set[str]:
    """Every string value in a JSON-able structure (keys included)."""
    out: set[str] = set()
    if isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            out |= _strings(v)
    elif isinstance(x, list):
        for v in x:
            out |= _strings(v)
    elif isinstance(x, str):
        out.add(x)
    return out


def _board_score(b: dict[str, Any], g: dict[str, Any]) -> dict[str, int]:
    """The score pad of a garden computed from the board's data alone (not the engine's)."""
    heights = [c["height"] for c in g["hollyhock_columns"]]
    butterflies = [lv["level"] for lv in g["hollyhock_levels"] for _ in range(lv["butterflies"])]
    mags = [lv["magnolias"] for lv in g["magnolia_levels"]]
    ladies = [lv["ladybugs"] for lv in g["magnolia_levels"]]
    cups = g["pergola"]
    small = sum(1 for c in cups if c["buttercup"] == "small")
    large = sum(1 for c in cups if c["buttercup"] == "large")
    fs = sum(1 for c in cups if c["buttercup"] == "small" and c["full"])
    fl = sum(1 for c in cups if c["buttercup"] == "large" and c["full"])
    fv = sum(1 for f in g["lavender"]["flowers"] if f["full"])
    n = g["counts"]
    pots = [p.split(":", 1)[1] for p in g["honey"]["pots"]]
    bonuses = [x.split(":", 1)[1] for x in g["bonus_spots"]]
    df = g["dragonflies"]
    return {
        "hollyhocks": sc.score_hollyhocks(heights),
        "butterflies": sc.score_butterflies(butterflies),
        "magnolias": sc.score_magnolias(mags),
        "ladybugs": sc.score_ladybugs(ladies),
        "buttercups": sc.score_buttercups(small, large),
        "bees": sc.score_bees(fs, fl, fv),
        "lavender leaves": sc.score_lavender_leaves(g["lavender"]["leaves"]),
        "dragonflies": sc.score_dragonflies(df["small"], df["medium"], df["large"]),
        "honey pots": sc.score_honey_pots(pots, n["butterflies"], n["leaves"], n["ladybugs"],
                                          n["lanterns"]),
        "waterdrops": sc.score_waterdrops(bonuses, n["butterflies"], n["ladybugs"], n["bees"],
                                          n["dragonflies"], len(pots)),
        "leaf colours": sc.score_leaf_colours([x["colour"] for x in g["birdhouse"]]),
    }


def _check_marks(s: PergolaState, b: dict[str, Any]) -> None:
    """The board agrees with the engine's state, garden by garden and on the table."""
    c = s.c
    scores = s.scores()
    for seat, g in enumerate(b["gardens"]):
        eg = s.gardens[seat]
        assert _board_score(b, g) == dict(scores[seat].breakdown), seat
        assert [x["height"] for x in g["hollyhock_columns"]] == eg.holly
        assert (sum(lv["butterflies"] for lv in g["hollyhock_levels"]) + g["flying"]["butterfly"]
                == eg.butterflies() == g["counts"]["butterflies"])
        assert (sum(lv["ladybugs"] for lv in g["magnolia_levels"]) + g["flying"]["ladybug"]
                == eg.ladybugs())
        assert (sum(x["bees"] for x in g["pergola"]) + sum(f["bees"] for f in
                g["lavender"]["flowers"]) + g["flying"]["bee"] == eg.bees())
        assert sum(lv["free_buds"] for lv in g["magnolia_levels"]) == sum(eg.mag_buds)
        assert g["drops"] == ["bottom" if d < 0 else f"stone:{c.stone_ids[d]}"
                              for d in eg.drops]
        assert g["frog"] == (None if eg.frog < 0 else f"lily:{c.lily_ids[eg.frog]}")
        assert g["tools"] == [f"tool:{c.tool_ids[t]}" for t in eg.tools]
        assert [x["leaf"] for x in g["birdhouse"]] == [c.leaf_ids[i] for i in eg.leaves]
        assert g["lanterns"]["used"] == eg.lanterns_used
        assert list(g["lanterns"]["unused"].values()) == eg.lanterns
    assert [p["size"] for p in b["piles"]] == s.pile_left
    assert [p["top"] and p["top"]["leaf"] for p in b["piles"]] == [
        c.leaf_ids[t] if t >= 0 else None for t in s.tops]
    assert [x["left"] for x in b["holder"]] == [len(h) for h in s.holder]
    assert [x["tool"] for x in b["action_board"]] == [
        f"tool:{c.tool_ids[t]}" if t >= 0 else None for t in s.board]
    assert list(b["supply"].values()) == s.supply
    assert b["discards"] == [f"tool:{c.tool_ids[t]}" for t in s.discards]


def _check_hidden(s: PergolaState, layout: dict[str, Any], b: dict[str, Any]) -> None:
    """No leaf id before its reveal (the layout holds none at all), no tool of the holder."""
    c = s.c
    leaf_ids = set(c.leaf_ids)
    assert not _strings(layout) & leaf_ids, "the layout names a leaf"
    shown = {c.leaf_ids[t] for t in s.tops if t >= 0}
    for g in s.gardens:
        shown |= {c.leaf_ids[i] for i in g.leaves}
    assert _strings(b) & leaf_ids <= shown, "a leaf not revealed yet is in the board"
    in_holder = {f"tool:{c.tool_ids[t]}" for h in s.holder for t in h}
    assert not _strings(b) & in_holder, "a tool still in the holder is in the board"
    assert not _strings(b) & {c.tool_ids[t] for h in s.holder for t in h}


def _check_choices(s: PergolaState, b: dict[str, Any], ids: set[str]) -> None:
    legal_now = [str(m) for m in s.legal_moves()]
    moves = [ch["move"] for ch in b["choices"]]
    assert sorted(moves) == sorted(legal_now) and len(set(moves)) == len(moves)
    pairs = set()
    for ch in b["choices"]:
        if ch["target"] is None:
            assert ch["kind"] in ("skip", "stop")
        else:
            assert ch["target"] in ids, ch
        if ch["source"] is not None:
            assert ch["source"] in ids, ch
        assert ch["label"]
        key = (ch["target"], ch["source"])
        assert key not in pairs, f"two choices share target and source: {ch}"
        pairs.add(key)


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_whole_games_every_view_conforms(players: int, options: dict[str, Any]) -> None:
    """Seeded random playouts to the end: at every decision the layout and the board validate
    (through JSON), the marks are the engine's, every legal move is a choice once with a
    target the layout has, other viewers and spectators get no choices, nothing hidden leaks."""
    seed = players * 31 + options.get("challenge", 0)
    s = _new(players, seed, **options)
    rng = random.Random(seed)
    layout = view_layout(s)
    lm = PergolaLayout.model_validate_json(json.dumps(layout))
    assert lm.schema_ == LAYOUT_SCHEMA
    assert lm.model_dump(mode="json", by_alias=True) == layout
    ids = _element_ids(layout)
    assert len(ids) == len(set(ids))
    phases = set()
    kinds = set()
    while True:
        v = s.seen_by(0)
        mover = s.to_move
        spectator = view_board(v, None)
        assert spectator["choices"] == []
        if mover is not None and mover != CHANCE:
            b = view_board(s.seen_by(mover), mover)
            _check_choices(s, b, ids)
            kinds |= {ch["kind"] for ch in b["choices"]}
            assert {k: v for k, v in b.items() if k not in ("choices", "viewer")} == {
                k: v for k, v in spectator.items() if k not in ("choices", "viewer")}
        for viewer in range(players):  # every other seat sees the spectator's board
            if viewer != mover:
                other = view_board(s.seen_by(viewer), viewer)
                assert other["choices"] == [] and other["viewer"] == viewer
                assert other["gardens"] == spectator["gardens"]
        bm = PergolaBoard.model_validate_json(json.dumps(spectator))
        assert bm.model_dump(mode="json", by_alias=True) == spectator
        assert spectator["schema"] == BOARD_SCHEMA
        phases.add(spectator["phase"])
        _check_marks(s, spectator)
        _check_hidden(s, layout, spectator)
        if mover == CHANCE:
            assert spectator["to_move"] is None and spectator["phase"] in ("setup", "refill")
        if s.is_over:
            assert spectator["phase"] == "over" and spectator["to_move"] is None
            break
        s.play(rng.choice(s.legal_moves()))
    assert {"setup", "refill", "pick", "over"} <= phases
    assert {"tool", "insect"} <= kinds
    if players == 1:
        ch = spectator["challenge"]
        assert ch["number"] == options.get("challenge", 10)
        assert ch["recorded_as"] in (ch["number"], 10)
        assert spectator["discards"], "the solo neighbour discards tools"
        assert layout["solo"]["challenge"] == ch["number"]
        assert len(layout["solo"]["challenges"]) == 10
    else:
        assert spectator["challenge"] is None and layout["solo"] is None


def test_the_layout_follows_the_shipped_data() -> None:
    s = _new(2, 0)
    b = load_bundle(None)
    lay = view_layout(s)
    assert [a["action"] for a in lay["action_board"]] == b.tools.board
    assert [a["id"] for a in lay["action_board"]] == ["space:1", "space:2", "space:3", "space:4"]
    assert [(t["tool"], t["type"], t["components"]) for t in lay["tools"]] == [
        (t.id, t.type, t.components) for t in b.tools.tool]
    lilies = {x["lily"]: x for x in lay["pond"]["lilies"]}
    for x in b.pond.lily:
        got = lilies[x.id]
        assert (got["x"], got["y"], got["insect"], got["dragonfly"]) == (
            x.x, x.y, x.insect, x.dragonfly)
        assert got["adjacent"] == [f"lily:{a}" for a in x.adjacent]
        assert (got["stack"] is None) == (x.dragonfly is None)
    stones = {x["stone"]: x for x in lay["cascade"]["stones"]}
    for st in b.cascade.stone:
        assert stones[st.id]["insect"] == st.insect
        assert stones[st.id]["start"] == (st.id in b.cascade.starts)
        assert stones[st.id]["to"] == ["bottom" if t == "bottom" else f"stone:{t}"
                                       for t in st.to]
    assert {x["id"] for x in lay["cascade"]["streams"]} == {
        f"stream:{st.id}>{t}" for st in b.cascade.stone for t in st.to}
    assert [x["id"] for x in lay["cascade"]["bonus_spots"]] == [
        "bonus:sets", "bonus:dragonflies", "bonus:honey"]
    bottom = lay["cascade"]["bottom"]
    assert bottom["y"] > max(st.y for st in b.cascade.stone)
    assert [x["accepts"] for x in lay["garden"]["pergola"]] == [
        x.accepts for x in b.pergola.space]
    assert lay["garden"]["honey_thresholds"] == b.pergola.honey_thresholds == [4, 7, 9]
    assert lay["tool_types"] == ["shovel", "hoe"]
    assert [r["key"] for r in lay["score_pad"]] == list(sc.ROWS)
    rows = {r["key"]: r for r in lay["score_pad"]}
    assert rows["hollyhocks"]["table"]["values"] == [1, 3, 6]
    assert rows["dragonflies"]["table"] == {"keys": ["small", "medium", "large"],
                                            "values": [1, 3, 5]}
    assert rows["butterflies"]["table"]["values"][:5] == [1, 2, 2, 3, 3]
    assert rows["magnolias"]["table"]["values"][:5] == [1, 1, 1, 2, 3]
    assert lay["leaves"]["size"] == 10 and len(lay["leaves"]["piles"]) == 3
    assert lay["solo"] is None
    solo = view_layout(_new(1, 0, challenge=4))["solo"]
    assert solo["challenge"] == 4 and solo["thousand"] == 1000
    assert solo["challenges"][3]["przemek"] == 104 and solo["challenges"][3]["golab"] == 105
    # the layout is built once per table kind, and a caller may change its copy
    lay["tools"].clear()
    assert view_layout(s)["tools"]


def _toml(data: dict[str, Any]) -> str:
    """A one-file Pergola bundle as TOML: each part a table; lists of tables written as arrays
    of inline tables; None values left out."""

    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()
                                    if x is not None) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v)

    lines = []
    for part, table in data.items():
        lines.append(f"[{part}]")
        lines += [f"{json.dumps(k)} = {value(v)}" for k, v in table.items() if v is not None]
    return "\n".join(lines) + "\n"


def test_a_users_own_data_draws(tmp_path: Path) -> None:
    """A data file of one's own (pond moved and joined differently, a stone's insect changed, a
    stream to the bottom added, other pergola spaces and thresholds, the action board in
    another order): the layout is that file's, and the board and choices follow it."""
    d = load_bundle(None).as_data()
    d["tools"]["board"] = ["flutter", "frog", "drip", "bird"]
    for x in d["pond"]["lily"]:
        x["x"] = x["x"] * 2 + 0.5
    d["pond"]["lily"][0]["adjacent"].remove("2")
    d["pond"]["lily"][1]["adjacent"].remove("1")
    d["cascade"]["stone"][2]["insect"] = "butterfly"
    d["cascade"]["stone"][0]["to"].append("bottom")
    d["pergola"]["space"] = [{"accepts": ["small"]}, {"accepts": ["large"]},
                             {"accepts": ["small", "large"]}]
    d["pergola"]["honey_thresholds"] = [2, 3]
    path = tmp_path / "mine.toml"
    path.write_text(_toml(d), encoding="utf-8")
    assert tomllib.loads(path.read_text())["pergola"]["honey_thresholds"] == [2, 3]
    s = start(players=2, sheet=str(path))
    lay = view_layout(s)
    assert lay["data"] == "mine"
    assert [a["action"] for a in lay["action_board"]] == ["flutter", "frog", "drip", "bird"]
    lilies = {x["lily"]: x for x in lay["pond"]["lilies"]}
    assert lilies["1"]["x"] == 2.5 and "lily:2" not in lilies["1"]["adjacent"]
    stones = {x["stone"]: x for x in lay["cascade"]["stones"]}
    assert stones["c"]["insect"] == "butterfly"
    assert stones["a"]["to"][-1] == "bottom"
    assert "stream:a>bottom" in _element_ids(lay)
    assert [x["accepts"] for x in lay["garden"]["pergola"]] == [["small"], ["large"],
                                                                  ["small", "large"]]
    assert lay["garden"]["honey_thresholds"] == [2, 3]
    b = view_board(s.seen_by(0), 0)
    assert [x["id"] for x in b["gardens"][0]["pergola"]] == ["cup:1", "cup:2", "cup:3"]
    assert b["gardens"][1]["honey"]["next_threshold"] == 2
    # space 2 is the frog jump here: its choice's label says so
    pick2 = next(ch for ch in b["choices"] if ch["move"] == "pick 2")
    assert pick2["target"] == "tool:S02" and "frog jump" in pick2["label"]
    ids = _element_ids(lay)
    rng = random.Random(5)
    while not s.is_over:
        if s.to_move != CHANCE:
            b = view_board(s.seen_by(s.seat), s.seat)
            _check_choices(s, b, ids)
            _check_marks(s, b)
        s.play(rng.choice(s.legal_moves()))


def _b(s: PergolaState, viewer: int | None = 0) -> dict[str, Any]:
    return view_board(s.seen_by(0 if viewer is None else viewer), viewer)


def _choices(b: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {ch["move"]: ch for ch in b["choices"]}


def test_pick_a_tool_its_components_and_the_words() -> None:
    """The tools above the action spaces, the pick choices targeting them, then the tool in play,
    its insect placed on a spot, and the task in words."""
    from .helpers import data

    s = start(players=2, sheet=data(S01=["hollyhock-red", "butterfly"]))
    s.seats = ["Ann", "you"]
    b = _b(s)
    assert b["phase"] == "pick" and b["doing"] == "Ann has to pick a tool"
    assert [x["tool"] for x in b["action_board"]] == ["tool:S01", "tool:S02", "tool:S03",
                                                      "tool:S04"]
    ch = _choices(b)
    assert ch["pick 1"] == {"move": "pick 1", "target": "tool:S01", "source": None,
                            "kind": "tool",
                            "label": "pick tool S01: red hollyhock, butterfly; then insect "
                                     "flutter"}
    assert _b(s, 1)["choices"] == [] and _b(s, None)["choices"] == []
    s.play("pick 1")
    b = _b(s)
    assert b["current_tool"] == "tool:S01" and b["phase"] == "insect"
    assert b["doing"] == "Ann has to place the butterfly"
    assert b["tasks"][0] == "place the butterfly"
    assert b["gardens"][0]["hollyhock_columns"][2] == {"id": "hollyhock:red", "colour": "red",
                                                       "height": 1}
    assert b["gardens"][0]["hollyhock_levels"] == [
        {"id": "hollyhock:1", "level": 1, "flowers": 1, "colours": ["red"], "butterflies": 0}]
    ch = _choices(b)
    assert ch["butterfly h1"]["target"] == "hollyhock:1"
    assert ch["butterfly fly"]["target"] == "fly:butterfly"
    assert b["action_board"][0]["tool"] is None
    assert b["gardens"][0]["tools"] == ["tool:S01"]


def test_water_drip_choices_name_the_drop_and_the_stone() -> None:
    s = start(players=2)
    g = garden(s)
    g.lanterns[0] = 1  # a drip lantern
    s.play("pick 3")  # water drip (S03)
    while s.legal_moves() and not str(s.legal_moves()[0]).startswith("drip"):
        s.play(s.legal_moves()[0])
    b = _b(s)
    assert b["phase"] == "drip"
    ch = _choices(b)
    assert ch["drip a>d"]["target"] == "stone:d" and ch["drip a>d"]["source"] == "stone:a"
    assert ch["drip b>d"]["target"] == "stone:d" and ch["drip b>d"]["source"] == "stone:b"
    assert ch["drip a>c"]["kind"] == "drip"


def test_cascade_bottom_bonus_and_drops() -> None:
    s = start(players=2)
    g = garden(s)
    c = s.c
    g.drops = [c.stone_index["i"] if "i" in c.stone_index else c.stone_index[c.stone_ids[-1]],
               c.starts[1]]
    s.play("pick 3")
    moves = legal(s)
    while not any(m.endswith(">bottom") for m in moves):
        s.play(moves[0])
        moves = legal(s)
    down = next(m for m in moves if m.endswith(">bottom"))
    assert _choices(_b(s))[down]["target"] == "bottom"
    s.play(down)
    b = _b(s)
    assert "bottom" in b["gardens"][0]["drops"]
    ch = _choices(b)
    assert ch["take bee"]["target"] == "supply:bee"
    s.play("take bee")
    while not legal(s)[0].startswith("bonus"):
        s.play(legal(s)[0])
    ch = _choices(_b(s))
    assert ch["bonus sets"]["target"] == "bonus:sets"
    s.play("bonus honey")
    assert _b(s)["gardens"][0]["bonus_spots"] == ["bonus:honey"]


def test_frog_jump_lilies_and_stacks() -> None:
    s = start(players=2)
    s.play("pick 4")  # frog jump (S04)
    while not legal(s)[0].startswith("jump"):
        s.play(legal(s)[0])
    b = _b(s)
    assert b["phase"] == "frog"
    ch = _choices(b)
    insect_lilies = [x.id for x in s.c.bundle.pond.lily if x.insect]
    assert {m["target"] for m in ch.values()} == {f"lily:{x}" for x in insect_lilies}
    assert [len(x["dragonflies"]) for x in b["stacks"]] == [2, 2, 2, 2]
    assert b["stacks"][0]["dragonflies"] == ["medium", "large"]
    s.play(f"jump {insect_lilies[0]}")
    assert _b(s)["gardens"][0]["frog"] == f"lily:{insect_lilies[0]}"


def test_bird_flight_a_leaf_appears_only_once_revealed() -> None:
    s = start(players=2)
    b = _b(s)
    assert [p["top"]["leaf"] for p in b["piles"]] == ["G1", "Y1", "O1"]
    s.play("pick 2")  # bird flight (S02)
    while not legal(s)[0].startswith("leaf"):
        s.play(legal(s)[0])
    ch = _choices(_b(s))
    assert ch["leaf 2"]["target"] == "pile:2" and "Y1" in ch["leaf 2"]["label"]
    s.play("leaf 2")
    while s.to_move != CHANCE:
        s.play(legal(s)[-1])
    b = _b(s, None)
    assert b["phase"] == "refill" and b["piles"][1]["top"] is None
    assert b["piles"][1]["size"] == 9
    assert b["gardens"][0]["birdhouse"][0]["leaf"] == "Y1"
    before = json.dumps(b)
    assert "Y2" not in before
    while s.to_move == CHANCE:
        what = s.chance[0][0]
        chance(s, "reveal 2 Y2" if what == "reveal" else str(s.legal_moves()[0]))
    assert _b(s, None)["piles"][1]["top"]["leaf"] == "Y2"


def test_holder_sizes_by_type_never_the_order() -> None:
    s = _new(3, 2)
    while s.to_move == CHANCE:
        s.play(s.legal_moves()[0])
    b = _b(s)
    c = s.c
    assert [x["type"] for x in b["holder"]] == ["shovel", "rake", "hoe"]
    assert [x["left"] for x in b["holder"]] == [len(h) for h in s.holder]
    assert sum(x["left"] for x in b["holder"]) == (
        sum(1 for t in c.tool_type if t in ("shovel", "rake", "hoe")) - 4)
    assert "holder" not in json.dumps(b["gardens"])


def test_solo_discards_and_challenge_progress() -> None:
    s = start(players=1, challenge=9)
    b = _b(s)
    assert b["challenge"]["number"] == 9 and b["challenge"]["met"] is False
    assert b["challenge"]["progress"] == "0 of 4 dragonflies"
    assert (b["challenge"]["przemek"], b["challenge"]["golab"]) == (101, 101)
    assert b["challenge"]["recorded_as"] is None
    s.play("pick 1")
    b = _b(s)
    assert b["discards"] == ["tool:S02"]
    assert b["action_board"][1]["tool"] is None


def test_honey_pot_choice_and_lanterns() -> None:
    """An action lantern offers the other actions on their spaces; a bee reaching the honey
    threshold offers the pots."""
    from .helpers import data

    s = start(players=2, sheet=data(S04=["bee", "lantern-action"]))
    g = garden(s)
    g.cups[:4] = [2, 2, 1, 1]
    g.cup_bees[:4] = [2, 1, 0, 0]
    s.play("pick 4")
    b = _b(s)
    assert b["phase"] == "insect"
    assert b["gardens"][0]["honey"] == {
        "pots": [], "bees_on_buttercups": 3, "next_threshold": 4,
        "values": {"butterflies": 0, "leaves": 0, "ladybugs": 0, "lanterns": 1}}
    s.play("bee cup2")
    b = _b(s)
    ch = _choices(b)
    assert b["phase"] == "action"
    assert ch["action frog"]["target"] == "space:4" and ch["action frog"]["kind"] == "action"
    assert ch["lantern action bird"]["target"] == "space:2"
    assert ch["lantern action bird"]["kind"] == "lantern"
    assert "action frog" in ch and "lantern action frog" not in ch
    assert b["gardens"][0]["lanterns"]["unused"]["action"] == 1
    s.play("lantern action bird")
    assert _b(s)["gardens"][0]["lanterns"] == {
        "unused": {"drip": 0, "jump": 0, "insect": 0, "action": 0}, "used": 1}
    while _b(s)["phase"] != "honey":
        s.play(legal(s)[0])
    b = _b(s)
    ch = _choices(b)
    assert ch["honey ladybugs"]["target"] == "pot:ladybugs"
    assert ch["skip"]["target"] is None and ch["skip"]["kind"] == "skip"
    s.play("honey lanterns")
    assert _b(s)["gardens"][0]["honey"]["pots"] == ["pot:lanterns"]


def test_flutter_choices_have_a_source() -> None:
    s = start(players=2)
    g = garden(s)
    g.holly = [2, 1, 0]
    g.bfly = [0] * len(g.bfly)
    g.bfly[0] = 1
    g.bees_fly = 1
    g.cups[0] = 1
    s.play("pick 1")  # insect flutter (S01)
    while not any(m.startswith("move") for m in legal(s)):
        s.play(legal(s)[0])
    ch = _choices(_b(s))
    m = ch["move butterfly h1>h2"]
    assert (m["target"], m["source"], m["kind"]) == ("hollyhock:2", "hollyhock:1", "flutter")
    assert ch["move bee fly>cup1"]["source"] == "fly:bee"
    assert ch["stop"]["target"] is None and ch["stop"]["kind"] == "stop"


def test_the_core_view_carries_the_board_and_the_layout_hook() -> None:
    s = start(players=2)
    shown = presentation("pergola")
    assert shown.view_layout is view_layout and shown.view_board is view_board
    v = seat_view(s, 0)
    assert v.board == view_board(s.seen_by(0), 0)
    assert [ch["move"] for ch in v.board["choices"]] == v.legal_moves
    assert seat_view(s, 1).board["choices"] == []
    assert seat_view(s, None).board["choices"] == []
    PergolaBoard.model_json_schema(by_alias=True)
    PergolaLayout.model_json_schema(by_alias=True)


def test_the_seed_shows_nowhere() -> None:
    """Two tables with other seeds but the same public moves draw the same layout and board:
    nothing the seed would decide later (the holder's order, the leaves below) is in them."""
    a, b = _new(2, 1), _new(2, 999)
    rng = random.Random(3)
    for _ in range(60):
        assert view_layout(a) == view_layout(b)
        for viewer in (0, 1, None):
            assert _b(a, viewer) == _b(b, viewer)
        m = rng.choice(a.legal_moves())
        a.play(str(m))
        b.play(str(m))
