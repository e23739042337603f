"""The Pergola screen: the cascade and the pond drawn (P8 bonus spots, the dragonfly stacks),
each garden as on the boards, the score pad alone, the notation help, and every line readable
at 100 columns with the letters kept when colour is off."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

import meeple
from meeple.core.present import presentation
from meeple.core.rng import Rng
from meeple.core.view import terminal_score, terminal_text
from meeple.games.pergola import scoring as sc
from meeple.games.pergola.rules import BOTTOM, LARGE, SMALL, PergolaState
from meeple.games.pergola.sheet import load_bundle
from tests.games.pergola.helpers import data, garden, start


def screen(s: PergolaState, seat: int | None = 0) -> str:
    """The screen as it reads without colour (the markup must be valid Rich markup)."""
    return Text.from_markup(terminal_text(s, seat, seat)).plain


def lines_with(text: str, needle: str) -> list[str]:
    return [line for line in text.splitlines() if needle in line]


# ---------------------------------------------------------------- the cascade (P8)


def test_cascade_every_stone_with_its_insect_and_streams() -> None:
    s = start(players=2)
    text = screen(s)
    for stone in load_bundle(None).cascade.stone:
        what = stone.insect or "start"
        assert f"{stone.id} {what} -> {' '.join(stone.to)}" in text.replace("*", ""), stone.id
    assert "bottom" in text and "an insect of your choice and a bonus spot" in text
    for bonus in sc.BONUSES:  # the three printed bonus spots with what they score
        assert f"{bonus} (" in text


def test_cascade_drops_of_each_seat_and_bonus_spots_taken() -> None:
    s = start(players=2)
    s.seats = ["you", "Bob"]
    g = garden(s, 0)
    g.drops = [BOTTOM, s.c.stone_index["c"]]
    g.bonuses = ["sets"]
    text = screen(s, 0)
    assert "Your drops (*) on the bottom and c; bonus spots taken: sets" in text
    assert "Bob's drops on a and b; bonus spots taken: none yet" in text
    assert "c* ladybug -> f g" in text  # the viewer's drop is marked on the cascade
    # the panel says where each drop may go and what the next stone gives
    assert "drops one at the bottom | c -> f bee, g butterfly | bonus spots: sets" in text


def test_cascade_blocked_stream_is_marked() -> None:
    s = start(players=1)
    g = garden(s)
    g.drops = [s.c.stone_index["d"], s.c.stone_index["b"]]
    text = screen(s)
    assert "b -> d bee (blocked), e butterfly" in text  # two drops never share a stone


# ---------------------------------------------------------------- the pond


def test_pond_every_lily_with_what_it_gives_and_what_it_touches() -> None:
    s = start(players=2)
    text = screen(s)
    need = {"magnolia": "magnolias", "hollyhock": "hollyhocks", "buttercup": "buttercups",
            "lavender": "lavender leaves"}
    for lily in load_bundle(None).pond.lily:
        row = [x for x in text.splitlines() if re.match(rf"^\s+{lily.id}\s{{2}}", x)]
        assert len(row) == 1, lily.id
        gives = lily.insect or f"dragonfly for 4 {need[lily.dragonfly or '']}"
        assert gives in row[0]
        assert f"touches {' '.join(lily.adjacent)}" in row[0]


def test_pond_dragonfly_stacks_top_first_and_emptied() -> None:
    s = start(players=4)  # stacks of medium, medium, large (bottom first)
    text = screen(s)
    assert len(lines_with(text, "stack L M M")) == 4
    s.stacks[1] = [3]
    s.stacks[2] = []
    text = screen(s)
    row3 = next(x for x in text.splitlines() if re.match(r"^\s+3\s{2}", x))
    row11 = next(x for x in text.splitlines() if re.match(r"^\s+11\s{2}", x))
    assert "stack M " in row3 and "stack empty" in row11


def test_pond_frogs_where_they_sit() -> None:
    s = start(players=3)
    s.seats = ["Ann", "Bob", "Cy"]
    garden(s, 0).frog = s.c.lily_index["6"]
    garden(s, 2).frog = s.c.lily_index["6"]
    garden(s, 1).frog = s.c.lily_index["14"]
    text = screen(s)
    row6 = next(x for x in text.splitlines() if re.match(r"^\s+6\s{2}", x))
    assert row6.endswith("frog: Ann, Cy")
    assert "frog on lily 14 (dragonfly for 4 lavender leaves), touching 10 13" in text
    assert "frog in the garden" not in text


def test_dragonfly_lily_requirements_per_player() -> None:
    s = start(players=2)
    g = garden(s, 0)
    g.holly = [2, 1, 1]
    g.df_reqs = 1 << 1  # the hollyhock dragonfly already won
    g.mag[0] = 1
    text = screen(s)
    assert "dragonfly lilies: 1 magnolias 1/4, 3 hollyhocks 4/4 won, 11 buttercups 0/4," in text


# ---------------------------------------------------------------- the gardens


def test_garden_as_on_the_boards() -> None:
    s = start(players=2)
    s.seats = ["Ann", "Bob"]
    g = garden(s, 1)
    g.holly = [3, 1, 2]
    g.bfly[0], g.bfly[2] = 2, 1
    g.mag[:2] = [1, 2]
    g.mag_buds[:2] = [0, 3]
    g.lady[1] = 1
    g.cups[:3] = [SMALL, LARGE, LARGE]
    g.cup_bees[:3] = [1, 1, 2]
    g.lav_leaves = 5
    g.flowers = [2]
    g.df_small = 1
    g.bees_fly, g.lady_fly = 2, 1
    g.lanterns = [1, 0, 0, 2]
    g.lanterns_used = 3
    g.leaves = [s.c.leaf_index["G1"], s.c.leaf_index["Y2"]]
    g.pots = ["ladybugs"]
    g.tools = [s.c.tool_index["S05"], s.c.tool_index["H01"]]
    text = screen(s, 0)
    panel = text[text.index("Bob  seat 1"):]
    assert "2 of 15 tools taken" in panel
    assert re.search(r"\n\s+3  B \. \.  butterflies 1/1", panel)
    assert re.search(r"\n\s+2  B \. R", panel)
    assert re.search(r"\n\s+1  B Y R  butterflies 2/3", panel)
    assert re.search(r"2  MM    buds 3  ladybugs 1/2", panel)
    assert re.search(r"1  M     buds 0", panel)
    assert "Pergola   1:s(*) 2:L(*.) 3:L(**) 4:_" in panel
    assert "5 leaves: flower 1(**.), 1 small dragonfly; 1 leaf waits for its pair" in panel
    assert "butterflies 0, ladybugs 1, bees 2" in panel
    assert "Lanterns  unused: drip 1, action 2; used 3" in panel
    assert "bees on buttercups 4, next pot at 7; filled (3 at most): ladybugs" in panel
    assert "ladybugs 2, lanterns 6" in panel  # what each pot would give now
    assert "Birdhouse G1 Y2  (2 colours)" in panel
    assert "Tools     S05 H01" in panel


def test_action_board_tools_components_and_actions() -> None:
    s = start(players=2, sheet=data(S01=["hollyhock-blue", "lantern-jump"],
                                     S04=["magnolia-double", "bee"]))
    text = screen(s)
    assert "space 1  insect flutter  S01 blue hollyhock + jump lantern" in text
    assert "space 4  frog jump       S04 magnolia (2 buds) + bee" in text
    assert "space 2  bird flight" in text and "space 3  water drip" in text
    assert "Tool holder: 29 tools left: 11 shovels, 18 hoes" in text


def test_leaf_piles_top_leaves_and_sizes() -> None:
    s = start(players=2, tops=("G1", "Y3", "O5"))
    text = screen(s)
    assert re.search(r"pile 1: G1 green, butterfly \+ a 1-insect flutter\s+10 leaves", text)
    assert re.search(r"pile 2: Y3 yellow, ladybug\s+10 leaves", text)


def test_seat_names_and_wording() -> None:
    s = start(players=2)
    s.seats = ["you", "greedy (1)"]
    text = screen(s, 0)
    assert "you's" not in text and "you decides" not in text
    assert "You decide now: pick a tool" in text
    assert "Greedy (1)'s drops" in text
    s.seats = ["Ann", "Bob"]
    assert "Ann decides now: pick a tool" in screen(s, 0)


def test_decision_named_from_the_legal_moves() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    s.play("pick 3")
    text = screen(s)
    assert "decides now: water drip" in text or "decide now: water drip" in text
    assert "Tool in play: S03 red hollyhock + blue hollyhock" in text


def test_colours_keep_their_letters_and_are_backgrounds() -> None:
    s = start(players=2, tops=("G1", "Y3", "B5"))
    g = garden(s, 0)
    g.holly = [1, 1, 1]
    markup = terminal_text(s, 0, 0)
    for style in re.findall(r"(?<!\\)\[([^\]/][^\]]*)\]", markup):
        if any(c in style for c in ("blue", "red", "yellow", "green", "orange", "magenta")):
            assert " on " in style and "bold" in style, style  # a badge, readable either way
    plain = screen(s)
    assert re.search(r"\n\s+1  B Y R", plain)
    assert "pile 3: B5 brown" in plain


def _positions(players: int, seed: int, every: int) -> list[PergolaState]:
    s = meeple.new_game("pergola", players=players, seed=seed,
                        **({"challenge": 1 + seed % 10} if players == 1 else {}))
    assert isinstance(s, PergolaState)
    s.seats = ["you"] + [f"greedy ({i})" for i in range(1, players)]
    rng = Rng(seed)
    out = []
    k = 0
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
        k += 1
        if k % every == 0:
            out.append(s.clone())
    return [*out, s]


@settings(max_examples=8, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 10_000))
def test_every_line_fits_100_columns_and_markup_is_valid(players: int, seed: int) -> None:
    for s in _positions(players, seed, 40):
        for line in screen(s).splitlines():
            assert len(line) <= 100, line


# ---------------------------------------------------------------- the score pad alone


def test_render_score_is_the_pad_only() -> None:
    s = start(players=2)
    s.seats = ["you", "greedy (1)"]
    g = garden(s, 1)
    g.holly = [2, 2, 1]
    g.lav_leaves = 3
    pad = Text.from_markup(terminal_score(s, 0, 0) or "").plain
    rows = pad.splitlines()
    assert rows[0].startswith("Score pad")
    assert rows[1].split() == ["you", "greedy", "(1)"]
    assert [r.split()[0] for r in rows[2:]] == [r.split()[0] for r in sc.ROWS] + ["total"]
    scores = s.scores()
    for r, line in zip(sc.ROWS, rows[2:], strict=False):
        assert line.split()[-2:] == [str(scores[0].breakdown[r]), str(scores[1].breakdown[r])]
    assert rows[-1].split() == ["total", str(scores[0].total), str(scores[1].total)]
    for other in ("Action board", "Cascade", "Pond", "Hollyhocks", "Leaf piles"):
        assert other not in pad


# ---------------------------------------------------------------- notation help


def test_notation_help_lists_pergolas_move_forms() -> None:
    help_text = presentation("pergola").notation_help  # plain text, shown as written
    assert "[bold" not in help_text and "\\[" not in help_text
    for form in ("pick 3", "magnolia 4", "buttercup 2", "lavender flower", "bee cup4",
                 "action frog", "lantern action bird", "move bee fly>cup2", "stop", "leaf 2",
                 "take bee", "drip c>f", "drip i>bottom", "bonus sets", "jump 7",
                 "lantern drip", "honey ladybugs", "skip"):
        assert form in help_text, form
    assert "take O" not in help_text and "waste" not in help_text  # no Gardens examples
    assert all(len(line) <= 100 for line in help_text.splitlines())


@pytest.mark.parametrize("players", [1, 2])
def test_the_table_before_setup_is_drawn(players: int) -> None:
    s = meeple.new_game("pergola", players=players)
    assert isinstance(s, PergolaState)
    text = screen(s)
    assert "(empty)" in text and "being set" in text


def test_both_drops_at_the_bottom() -> None:
    s = start(players=1)
    g = garden(s)
    g.drops = [BOTTOM, BOTTOM]
    g.bonuses = ["sets", "honey"]
    assert ("drops both at the bottom (a water drip gives an insect) | bonus spots: sets, honey"
            in screen(s))
