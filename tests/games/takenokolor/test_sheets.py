"""The sheet files: shipped sheets, validation with clear errors, user sheets, registry."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.core.sheets import SheetProblems
from meeple.core.view import terminal_text
from meeple.games.takenokolor.sheet import load, shipped_names
from tests.games.takenokolor.helpers import it, mini, new

SHEETS = ["2-pandas", "3-pandas", "4-pandas-dragon", "4-pandas-river"]


def test_T5_four_shipped_sheets_are_marked_reconstructed() -> None:
    assert shipped_names() == SHEETS
    for name in SHEETS:
        sh = load(name)
        assert sh.name == name
        assert sh.reconstructed and "Reconstructed" in sh.note
        assert sh.ladybugs_to_end == 3  # T4
        assert sorted(sh.faces) == ["circle", "circle", "square", "square", "triangle",
                                    "triangle"]  # T1


def test_T5_sheets_match_the_rulebook_counts() -> None:
    two = load("2-pandas")
    assert [a.kind for a in two.areas].count("cloud") == 1
    cloud = next(a for a in two.areas if a.kind == "cloud")
    assert [(g.target, g.count, g.spread) for g in cloud.on_complete] == [("bamboo", 2, "same")]
    assert next(r for r in two.scoring if r.row == "Sun").points == 5
    three = load("3-pandas")
    groups: dict[str | None, int] = {}
    for a in three.areas:
        if a.kind == "bamboo":
            groups[a.group] = groups.get(a.group, 0) + 1
    assert set(groups.values()) == {3}  # "the three bamboos of that colour"
    rows = {r.row: r for r in three.scoring}
    assert rows["Bamboo groups"].points == 2 and rows["Pond"].points == 7
    assert rows["Sun"].places == [6, 4, 2]
    assert next(a for a in three.areas if a.kind == "sun").lockout
    g3 = next(a for a in three.areas if a.id == "g3")
    assert g3.items[-1].points == 5  # the 5-point bamboo
    assert len(three.ladybugs) == 4  # 5-point bamboo, pond, sun, river
    river = load("4-pandas-river")
    kinds = {(a.kind) for a in river.areas}
    assert {"bamboo", "lantern", "shoot", "pond", "river"} <= kinds
    assert sum(1 for a in river.areas if a.kind == "lantern") == 3
    shoots = next(a for a in river.areas if a.kind == "shoot")
    ponds = next(a for a in river.areas if a.kind == "pond")
    assert len(shoots.items) == 4 and len(ponds.items) == 3
    symbols = {(g.target, g.count, g.spread)
               for a in river.areas if a.kind == "river" for i in a.items for g in i.grants}
    assert symbols == {("lantern", 1, "any"), ("bamboo", 2, "different"), ("pond", 1, "any"),
                       ("lantern", 2, "same"), ("bamboo", 2, "same")}
    assert {(r.first, r.later) for r in river.races} == {(4, 2)}  # T7
    assert next(r for r in river.scoring if r.row == "Bamboo groups").points == 3
    dragon = load("4-pandas-dragon")
    burst = next(a for a in dragon.areas if a.kind == "burst")
    assert (burst.items[0].colour, burst.items[0].points) == ("P", 1)  # the 1-point pink burst
    trail = next(a for a in dragon.areas if a.kind == "trail")
    assert {i.colour for i in trail.items} == {"Y"}
    assert any(a.adjacent_different for a in dragon.areas)


def test_sheet_data_rebuilds_the_same_game() -> None:
    for name in SHEETS:
        s = new(name, 3)
        again = meeple.new_game("takenokolor", players=3, sheet=s.sheet_data())
        assert again.key() == s.key()
        assert again.sheet_data() == s.sheet_data()
        assert s.variant() == {}


def test_default_sheet_and_registry() -> None:
    info = meeple.game_info("takenokolor")
    assert (info.min_players, info.max_players) == (1, 4)
    assert [dict(v) for v in info.variants] == [{"sheet": n} for n in
                                                ("2-pandas", "3-pandas", "4-pandas-river",
                                                 "4-pandas-dragon")]
    s = meeple.new_game("takenokolor", players=2)
    assert s.sheet_data()["name"] == "2-pandas"
    with pytest.raises(meeple.BadVariant):
        meeple.new_game("takenokolor", players=2, level=2)
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("takenokolor", players=2, sheet="5-pandas")
    assert "2-pandas" in str(exc.value)


BAD = '''name = "mine"
[[areas]]
id = "b1"
kind = "bamboo"
order = "sequence"
items = [
  { id = "b1.1", colour = "R", symbol = "circle", col = 0, row = 0 },
]
'''


def test_user_sheet_errors_name_the_line_and_what_is_allowed(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(BAD)
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("takenokolor", players=2, sheet=str(p))
    msg = str(exc.value)
    assert "bad.toml" in msg and "'B'" in msg
    for broken, words in [
        ({"ladybugs": [{"id": "x", "areas": ["nope"]}] * 3}, "unknown area 'nope'"),
        ({"ladybugs": []}, "ladybugs_to_end"),
    ]:
        data = mini([{"id": "b", "kind": "bamboo",
                      "items": [it("b.1", "G", "circle", 0, 0)]}])
        data.update(broken)
        with pytest.raises(meeple.SheetError) as exc:
            meeple.new_game("takenokolor", players=2, sheet=data)
        assert words in str(exc.value)
    dup = mini([{"id": "b", "kind": "bamboo", "items": [it("b.1", "G", "circle", 0, 0),
                                                        it("b.1", "G", "square", 1, 0)]}])
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("takenokolor", players=2, sheet=dup)
    assert "used twice" in str(exc.value)
    anycol = mini([{"id": "b", "kind": "bamboo", "items": [it("b.1", "any", "circle", 0, 0)]}])
    with pytest.raises(meeple.SheetError) as exc:
        meeple.new_game("takenokolor", players=2, sheet=anycol)
    assert "adjacent_different" in str(exc.value)


GOOD = '''name = "tiny"
reconstructed = false
[[areas]]
id = "b1"
kind = "bamboo"
order = "sequence"
items = [
  { id = "b1.1", colour = "G", symbol = "circle", points = 1, col = 0, row = 1 },
  { id = "b1.2", colour = "Y", symbol = "square", points = 2, col = 0, row = 0 },
]
[[areas]]
id = "cloud"
kind = "cloud"
on_complete = [{ target = "bamboo", count = 2, spread = "same" }]
items = [{ id = "c1", colour = "B", symbol = "triangle", col = 1, row = 0 }]
[[ladybugs]]
id = "top"
areas = ["b1"]
[[ladybugs]]
id = "cloud"
areas = ["cloud"]
[[ladybugs]]
id = "first"
items = ["b1.1"]
[[scoring]]
row = "Leaves"
rule = "sum"
kinds = ["bamboo"]
[[scoring]]
row = "Ladybugs"
rule = "ladybugs"
points = 1
'''


def test_a_users_sheet_file_plays_to_the_end(tmp_path: Path) -> None:
    p = tmp_path / "tiny.toml"
    p.write_text(GOOD)
    s = meeple.new_game("takenokolor", players=2, sheet=str(p), seed=4)
    rng = meeple.Rng(2)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    assert max(sc.total for sc in s.scores()) >= 3
    again = meeple.replay(s.record())
    assert again.key() == s.key()


def test_render_text_shows_ids_colour_letters_and_the_score_pad() -> None:
    s = new("3-pandas", 2)
    s.play("roll B circle")
    text = terminal_text(s, 0, 0, colourblind=True)
    assert "g3.3 G□5" in text and "Score pad" in text and "Ladybugs circled: 0/3" in text
    assert "r1 B○" in text


# issue 39 #7: every problem at once, each at its own field's line; no negative points
def test_every_problem_of_a_takenokolor_file_is_listed_at_once(tmp_path: Path) -> None:
    bad = (GOOD.replace('{ id = "b1.2", colour = "Y", symbol = "square", points = 2',
                        '{ id = "b1.1", colour = "Y", symbol = "square", points = -2')
           .replace('id = "first"\nitems = ["b1.1"]', 'id = "first"\nitems = ["nope"]')
           .replace('kinds = ["bamboo"]', 'kinds = ["bamboo", "river"]'))
    bad += '[[races]]\nid = "r"\nitems = ["c1"]\nfirst = -4\nlater = 2\n'
    p = tmp_path / "bad.toml"
    p.write_text(bad)
    with pytest.raises(SheetProblems) as exc:
        meeple.new_game("takenokolor", players=2, sheet=str(p))
    lines = bad.splitlines()
    got = {where: (line, msg) for line, where, msg in exc.value.problems}
    assert set(got) == {"areas[0].items[1].id", "areas[0].items[1].points", "ladybugs[2].items[0]",
                        "scoring[0].kinds[1]", "races[0].first"}, got
    assert "used twice" in got["areas[0].items[1].id"][1]
    assert got["areas[0].items[1].points"][1] == "must be 0 or more; got -2"
    assert "unknown item 'nope'" in got["ladybugs[2].items[0]"][1]
    assert "no area of kind 'river'" in got["scoring[0].kinds[1]"][1]
    assert got["races[0].first"][1] == "must be 0 or more; got -4"
    for where, needle in [("areas[0].items[1].id", "points = -2"), ("ladybugs[2].items[0]", "nope"),
                          ("scoring[0].kinds[1]", "river"), ("races[0].first", "first = -4")]:
        line = got[where][0]
        assert line is not None and needle in lines[line - 1], (where, line)
