"""Scenario tests for Pergola: setup, the turn (P5), every plant and insect placement rule,
the four actions, lanterns, honey pots (P7), cascade bonuses (P8), clean up (P9), solo (P10)
and hidden information (P4). Chance is forced by playing outcome texts (A1)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.games.pergola.rules import BOTTOM, LARGE, SMALL, PergolaState
from tests.games.pergola.helpers import chance, data, garden, legal, start

# ---------------------------------------------------------------- setup (P2a, P3)


@pytest.mark.parametrize(("players", "types", "count"), [
    (1, ["shovel", "hoe"], 33), (2, ["shovel", "hoe"], 33),
    (3, ["shovel", "rake", "hoe"], 48), (4, ["shovel", "rake", "trowel", "hoe"], 63),
])
def test_p3_tool_types_by_player_count(players: int, types: list[str], count: int) -> None:
    s = meeple.new_game("pergola", players=players)
    assert isinstance(s, PergolaState)
    assert sum(len(h) for h in s.holder) == count
    assert [s.c.tool_type[h[0]] for h in s.holder] == types
    # the first draws are shovels only (each type on its own, in the printed order)
    assert all(str(m).startswith("draw S") for m, _ in s.chance_outcomes())


def test_p2a_first_four_tools_fill_spaces_right_to_left() -> None:
    s = meeple.new_game("pergola", players=2)
    assert s.to_move == meeple.CHANCE
    s.play("draw S07")
    assert s.board == [-1, -1, -1, s.c.tool_index["S07"]]
    s.play("draw S02")
    assert s.board[2] == s.c.tool_index["S02"]


@pytest.mark.parametrize(("players", "stacks"), [
    (1, [[5], [3], [3], [5]]), (2, [[3, 5]] * 4), (3, [[3, 5]] * 4), (4, [[3, 3, 5]] * 4),
])
def test_setup_dragonfly_stacks(players: int, stacks: list[list[int]]) -> None:
    s = meeple.new_game("pergola", players=players)
    assert s.stacks == stacks  # large (5) on top of medium (3); solo: 2 medium, 2 large


def test_setup_player_boards() -> None:
    s = start(players=3)
    for g in s.gardens:
        assert g.frog == -1  # the frog waits in the garden
        assert g.drops == list(s.c.starts)  # drops on the start spots
        assert g.pots == [] and g.bonuses == []
    assert s.tops == [s.c.leaf_index[x] for x in ("G1", "Y1", "O1")]
    assert s.pile_left == [10, 10, 10]
    assert s.to_move == 0


# ---------------------------------------------------------------- the turn, clean up (P5, P9)


def test_p9_pick_slides_tools_away_from_flutter_and_refills_space_1() -> None:
    sheet = data(S01=["hollyhock-blue", "hollyhock-red"], S02=["hollyhock-blue", "hollyhock-red"],
                 S03=["hollyhock-blue", "hollyhock-red"], S04=["hollyhock-blue", "hollyhock-red"])
    s = start(players=2, sheet=sheet)
    t = [s.c.tool_index[x] for x in ("S01", "S02", "S03", "S04")]
    s.play("pick 3")  # drip space; the drop moves down
    while s.to_move == 0:
        s.play(legal(s)[0])
    assert s.to_move == meeple.CHANCE
    assert s.board == [-1, t[0], t[1], t[3]]  # tools slid away from the flutter space
    s.play("draw S09")
    assert s.board[0] == s.c.tool_index["S09"]  # the new tool enters above flutter
    assert s.to_move == 1 and s.turn == 1
    assert garden(s).tools == [t[2]]


def test_p5_components_taken_and_hollyhocks_go_in_colour_columns() -> None:
    s = start(sheet=data(S01=["hollyhock-blue", "hollyhock-red"],
                         S02=["hollyhock-blue", "lavender-leaf"]))
    s.play("pick 1")  # flutter with nothing to move ends at once
    assert garden(s).holly == [1, 0, 1]
    chance(s, "draw S05", "draw S06")
    s.play("pick 3")  # S02 slid... pick the tool above space 3
    g = garden(s)
    assert sum(g.holly) >= 2


def test_hollyhock_same_colour_added_to_its_column() -> None:
    s = start(sheet=data(S01=["hollyhock-yellow", "hollyhock-yellow"]))
    s.play("pick 1")
    assert garden(s).holly == [0, 2, 0]
    assert s.scores()[0].breakdown["hollyhocks"] == 2  # two rows with a single flower


def test_magnolia_tree_levels_single_and_double_branches() -> None:
    s = start(sheet=data(S01=["magnolia-double", "magnolia-single"]))
    s.play("pick 1")
    # the first magnolia anywhere (level 1, no choice), the single one then on a free bud
    g = garden(s)
    assert g.mag[:2] == [1, 1]
    assert g.mag_buds[:2] == [1, 1]  # the double brought 2 buds, one is used
    s2 = start(sheet=data(S01=["magnolia-single", "magnolia-double"], S05=[
        "magnolia-single", "magnolia-single"]))
    s2.play("pick 1")
    assert garden(s2).mag[:3] == [1, 1, 0]
    assert garden(s2).mag_buds[:2] == [0, 2]
    chance(s2, "draw S05", "draw S06")
    s2.play("pick 2")  # S05 is above space 2
    # both free buds are on level 2: the first single goes to level 3 at once; the second
    # may use the other level-2 bud or the new level-3 bud
    g2 = garden(s2)
    assert g2.mag[:3] == [1, 1, 1]
    assert legal(s2) == ["magnolia 3", "magnolia 4"]
    s2.play("magnolia 4")
    assert g2.mag[:4] == [1, 1, 1, 1] and g2.mag_buds[:4] == [0, 1, 0, 1]


def test_magnolia_choice_between_levels() -> None:
    s = start(sheet=data(S01=["magnolia-double", "magnolia-single"],
                         S05=["magnolia-single", "hollyhock-red"]))
    s.play("pick 1")
    chance(s, "draw S05", "draw S06")
    s.play("pick 2")
    assert legal(s) == ["magnolia 2", "magnolia 3"]  # a bud free on level 1 and on level 2
    s.play("magnolia 2")
    assert garden(s).mag[:3] == [1, 2, 0]


def test_buttercups_on_the_pergola_and_lost_without_space() -> None:
    s = start(sheet=data(S01=["buttercup-small", "buttercup-large"]))
    s.play("pick 1")
    g = garden(s)
    assert sorted(g.cups[:2]) == [SMALL, LARGE]
    assert s.scores()[0].breakdown["buttercups"] == 3
    full = start(sheet=data(S01=["buttercup-small", "hollyhock-red"]))
    g = garden(full)
    g.cups = [LARGE] * len(g.cups)
    full.play("pick 1")
    assert g.cups.count(SMALL) == 0  # no free space: the buttercup is lost (our choice)


def test_lavender_pair_gives_flower_or_small_dragonfly() -> None:
    s = start(sheet=data(S01=["lavender-leaf", "hollyhock-red"],
                         S05=["lavender-leaf", "hollyhock-red"]))
    s.play("pick 1")
    assert garden(s).lav_leaves == 1 and garden(s).flowers == []
    chance(s, "draw S06", "draw S05")  # refills go right to left: S05 above space 1
    s.play("pick 1")
    assert legal(s) == ["lavender flower", "lavender dragonfly"]
    s.play("lavender dragonfly")
    g = garden(s)
    assert g.df_small == 1
    s2 = start(sheet=data(S01=["lavender-leaf", "hollyhock-red"]))
    g2 = garden(s2)
    g2.lav_leaves, g2.df_small = 3, 1
    s2.play("pick 1")
    s2.play("lavender flower")
    assert g2.lav_leaves == 4 and g2.flowers == [0] and g2.df_small == 1
    sc = s2.scores()[0].breakdown
    assert sc["lavender leaves"] == 8 and sc["dragonflies"] == 1


def test_insects_sit_only_on_their_plants_or_fly() -> None:
    s = start(sheet=data(S01=["hollyhock-red", "butterfly"]))
    s.play("pick 1")
    assert legal(s) == ["butterfly fly", "butterfly h1"]
    s.play("butterfly h1")
    assert garden(s).bfly[0] == 1
    s2 = start(sheet=data(S01=["hollyhock-red", "ladybug"]))
    s2.play("pick 1")  # no magnolia: the ladybug can only fly (resolved at once)
    assert garden(s2).lady_fly == 1


def test_bees_on_buttercups_and_lavender_flowers() -> None:
    s = start(sheet=data(S01=["buttercup-large", "bee"]))
    g = garden(s)
    g.cups[0], g.cup_bees[0] = SMALL, 1  # full small buttercup
    g.flowers = [2]
    s.play("pick 1")
    assert legal(s) == ["bee fly", "bee cup2", "bee flower1"]
    s.play("bee flower1")
    assert g.flowers == [3]
    assert s.scores()[0].breakdown["bees"] == 2 + 8


def test_p6_flutter_moves_up_to_two_insects_never_dragonflies() -> None:
    s = start(sheet=data(S01=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.holly = [4, 0, 0]
    g.bfly_fly = 2
    g.df_medium = 1
    s.play("pick 1")  # insect flutter
    moves = legal(s)
    assert "stop" in moves and all("dragonfly" not in m for m in moves)
    s.play("move butterfly fly>h4")
    s.play("move butterfly fly>h3")
    assert s.to_move == meeple.CHANCE  # two insects moved: the flutter is over
    assert g.bfly[:4] == [0, 0, 1, 1] and g.bfly_fly == 0


def test_flutter_zero_insects() -> None:
    s = start(sheet=data(S01=["hollyhock-red", "butterfly"]))
    s.play("pick 1")
    s.play("butterfly fly")
    s.play("stop")
    assert s.to_move == meeple.CHANCE and garden(s).bfly_fly == 1


# ---------------------------------------------------------------- bird flight


def test_bird_flight_leaf_insect_and_extra_flutter_then_new_top() -> None:
    s = start(sheet=data(S02=["hollyhock-red", "hollyhock-blue"]), tops=("G1", "Y3", "O1"))
    s.play("pick 2")  # bird flight
    assert legal(s) == ["leaf 1", "leaf 2", "leaf 3"]
    s.play("leaf 1")  # G1: butterfly with the extra flutter
    assert legal(s) == ["butterfly fly", "butterfly h1"]
    s.play("butterfly fly")
    assert legal(s)[0] == "stop" and "move butterfly fly>h1" in legal(s)
    s.play("move butterfly fly>h1")  # only one insect in this flutter
    assert s.to_move == meeple.CHANCE
    assert s.chance_outcomes()[0][0].text.startswith("reveal 1 ")
    s.play("reveal 1 B2")
    assert s.tops[0] == s.c.leaf_index["B2"] and s.pile_left[0] == 9
    assert garden(s).leaves == [s.c.leaf_index["G1"]]


def test_bird_flight_with_no_leaves_left_takes_any_insect() -> None:
    s = start(sheet=data(S02=["hollyhock-red", "hollyhock-blue"]))
    s.tops = [-1, -1, -1]
    s.pile_left = [0, 0, 0]
    s.play("pick 2")
    assert legal(s) == ["take butterfly", "take ladybug", "take bee"]
    s.play("take bee")
    assert garden(s).bees_fly == 1


# ---------------------------------------------------------------- water drip (P8)


def test_water_drip_stone_insect_and_no_shared_space() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    assert legal(s)[2] == "pick 3"
    s.play("pick 3")
    assert legal(s) == ["drip a>c", "drip a>d", "drip b>d", "drip b>e"]
    s.play("drip a>d")  # d shows a bee
    assert garden(s).bees_fly == 1 and garden(s).drops[0] == s.c.stone_index["d"]
    g = garden(s)
    s2 = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s2)
    g.drops = [s2.c.stone_index["d"], s2.c.stone_index["b"]]
    s2.play("pick 3")
    assert "drip b>d" not in legal(s2)  # two drops never share a space
    assert "drip b>e" in legal(s2)


def test_water_drip_bottom_insect_and_bonus_each_spot_once() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.drops = [s.c.stone_index["i"], BOTTOM]
    g.bonuses = ["sets"]
    s.play("pick 3")  # the only drip, i>bottom, is made at once
    assert legal(s) == ["take butterfly", "take ladybug", "take bee"]
    s.play("take ladybug")
    assert legal(s) == ["bonus dragonflies", "bonus honey"]  # a different spot (P8)
    s.play("bonus honey")
    assert g.drops == [BOTTOM, BOTTOM] and g.bonuses == ["sets", "honey"] and g.lady_fly == 1


def test_water_drip_both_at_bottom_takes_an_insect() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.drops = [BOTTOM, BOTTOM]
    g.bonuses = ["sets", "honey"]
    s.play("pick 3")
    assert legal(s) == ["take butterfly", "take ladybug", "take bee"]
    s.play("take butterfly")
    s.play("butterfly fly")
    assert g.bfly_fly == 1 and g.bonuses == ["sets", "honey"]


# ---------------------------------------------------------------- frog jump


def test_frog_first_jump_anywhere_then_adjacent() -> None:
    s = start(players=2, sheet=data(S04=["hollyhock-red", "hollyhock-blue"],
                                    S06=["hollyhock-red", "hollyhock-blue"]))
    s.play("pick 4")
    targets = legal(s)
    # anywhere except dragonfly lilies whose requirement is not met
    assert targets == [f"jump {i}" for i in ("2", "4", "5", "6", "7", "8", "9", "10", "12", "13")]
    s.play("jump 5")  # a bee lily
    assert garden(s).frog == s.c.lily_index["5"] and garden(s).bees_fly == 1
    g = garden(s)
    g.frog = s.c.lily_index["2"]
    s2 = start(sheet=data(S04=["hollyhock-red", "hollyhock-blue"]))
    g2 = garden(s2)
    g2.frog = s2.c.lily_index["2"]
    s2.play("pick 4")
    assert legal(s2) == ["jump 5", "jump 6"]  # adjacent lilies only (1 and 3 need plants)


def test_frog_dragonfly_lily_requirement_one_per_requirement_and_empty_stack() -> None:
    s = start(players=2, sheet=data(S04=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.holly = [2, 1, 1]  # 4 hollyhocks (6 with the tool)
    s.play("pick 4")
    assert "jump 3" in legal(s)
    s.play("jump 3")  # hollyhock dragonflies: take the large one on top
    assert g.df_large == 1 and s.stacks[1] == [3]
    # another jump to that lily gives nothing more (one dragonfly per requirement)
    g.frog = s.c.lily_index["2"]
    t = s.frog_jump(g, 0, s.c.jump_moves[s.c.lily_index["3"]])
    assert g.df_medium == 0 and s.stacks[1] == [3] and t
    # an empty stack: the jump has no effect
    g.holly = [0, 0, 0]
    g.lav_leaves = 4
    s.stacks[3] = []
    s.frog_jump(g, 0, s.c.jump_moves[s.c.lily_index["14"]])
    assert g.df_large == 1 and g.df_medium == 0


def test_frog_with_no_legal_lily_does_nothing() -> None:
    d = data(S04=["hollyhock-red", "hollyhock-blue"])
    lilies = {x["id"]: x for x in d["pond"]["lily"]}
    lilies["2"]["adjacent"] = ["1", "3"]  # lily 2 touches only two dragonfly lilies
    for other in ("5", "6"):
        lilies[other]["adjacent"].remove("2")
    s = start(sheet=d)
    g = garden(s)
    g.frog = s.c.lily_index["2"]
    s.play("pick 4")  # 2 hollyhocks only: neither dragonfly lily may be reached
    assert s.to_move == meeple.CHANCE and g.frog == s.c.lily_index["2"]


def test_first_jump_straight_to_a_dragonfly_lily_then_lantern_jump() -> None:
    # the rulebook's lantern example: a large dragonfly, then another jump to a butterfly lily
    s = start(players=2, sheet=data(S04=["lantern-jump", "magnolia-single"]))
    g = garden(s)
    g.mag[:3] = [1, 1, 1]
    g.mag_buds[:3] = [0, 0, 1]
    s.play("pick 4")
    assert "jump 1" in legal(s)  # 4 magnolias with the new one
    s.play("jump 1")
    assert g.df_large == 1
    s.play("lantern jump")
    assert legal(s) == ["jump 2", "jump 4", "jump 5"]
    s.play("jump 2")
    assert g.bfly_fly == 1 and g.lanterns_used == 1


def test_ladybugs_on_magnolias_by_level() -> None:
    s = start(sheet=data(S01=["magnolia-double", "ladybug"]))
    g = garden(s)
    g.mag[:2] = [1, 1]
    g.mag_buds[:2] = [0, 1]
    g.lady[:2] = [1, 0]
    s.play("pick 1")  # the magnolia goes to level 3 (only free bud)
    assert legal(s) == ["ladybug fly", "ladybug m2", "ladybug m3"]  # level 1 is taken
    s.play("ladybug m3")
    assert g.lady[:3] == [1, 0, 1]


# ---------------------------------------------------------------- lanterns


def test_lantern_action_used_the_turn_it_is_gained() -> None:
    s = start(sheet=data(S01=["lantern-action", "hollyhock-blue"]))
    s.play("pick 1")
    assert legal(s) == ["action flutter", "lantern action bird", "lantern action drip",
                        "lantern action frog"]
    s.play("lantern action drip")
    assert garden(s).lanterns_used == 1 and garden(s).lanterns[3] == 0
    assert legal(s)[0].startswith("drip ")


def test_lantern_drip_and_jump_repeat_the_action() -> None:
    s = start(sheet=data(S03=["lantern-drip", "lantern-drip"]))
    s.play("pick 3")
    s.play("drip a>c")  # the ladybug can only fly: placed at once
    assert legal(s) == ["lantern drip", "skip"]
    s.play("lantern drip")
    s.play("drip c>f")
    s.play("lantern drip")
    s.play("drip f>i")
    g = garden(s)
    assert g.lanterns_used == 2 and g.drops[0] == s.c.stone_index["i"]
    s2 = start(sheet=data(S04=["lantern-jump", "hollyhock-red"]))
    s2.play("pick 4")
    s2.play("jump 2")
    s2.play("butterfly h1")
    assert legal(s2) == ["lantern jump", "skip"]
    s2.play("lantern jump")
    assert legal(s2) == ["jump 5", "jump 6"]


def test_lantern_insect_takes_another_of_the_same_type() -> None:
    s = start(sheet=data(S01=["lantern-insect", "ladybug"]))
    s.play("pick 1")
    # the ladybug can only fly: placed at once; then the lantern is offered
    assert legal(s) == ["lantern insect", "skip"]
    s.play("lantern insect")
    g = garden(s)
    assert g.lady_fly == 2 and g.lanterns_used == 1


def test_several_lanterns_in_one_turn() -> None:
    s = start(sheet=data(S01=["lantern-action", "lantern-drip"]))
    s.play("pick 1")
    s.play("lantern action drip")
    s.play("drip b>e")
    s.play("lantern drip")
    assert garden(s).lanterns_used == 2


# ---------------------------------------------------------------- honey pots (P7)


def test_p7_honey_pots_at_4_7_9_bees_at_most_three() -> None:
    s = start(sheet=data(S01=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.cups[:5] = [LARGE] * 5
    g.cup_bees[:5] = [2, 2, 0, 0, 0]  # 4 bees on buttercups
    s.play("pick 1")
    s.play("stop")
    assert legal(s) == ["honey butterflies", "honey leaves", "honey ladybugs", "honey lanterns",
                        "skip"]
    s.play("honey ladybugs")
    assert g.pots == ["ladybugs"]
    # fewer than 7 bees: no second pot; a pot stays filled when bees move away
    g.cup_bees[:5] = [0, 0, 0, 0, 0]
    g.bees_fly = 4
    assert not s._honey_ready(g)
    g.cup_bees[:5] = [2, 2, 2, 1, 0]
    assert s._honey_ready(g)
    g.pots += ["leaves", "butterflies"]
    g.cup_bees[:5] = [2, 2, 2, 2, 2]
    assert not s._honey_ready(g)  # three pots at most


# ---------------------------------------------------------------- end of game, solo (P10)


def test_multiplayer_game_ends_after_15_turns_each() -> None:
    s = meeple.new_game("pergola", players=3, seed=4)
    rng = Rng(4)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    assert isinstance(s, PergolaState)
    assert [len(g.tools) for g in s.gardens] == [15, 15, 15]
    assert sum(1 for t in s.board if t >= 0) == 3 and sum(len(h) for h in s.holder) == 0


def test_p10_neighbour_discards_the_other_tool_of_the_same_half() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    t = [s.c.tool_index[x] for x in ("S01", "S02", "S03", "S04")]
    s.play("pick 3")
    while s.to_move == 0:
        s.play(legal(s)[0])
    assert s.discards == [t[3]]
    assert s.board == [-1, -1, t[0], t[1]]  # the rest slide away from flutter
    assert next(str(m) for m, _ in s.chance_outcomes()).startswith("draw ")
    chance(s, "draw S09", "draw S10")
    assert s.board == [s.c.tool_index["S10"], s.c.tool_index["S09"], t[0], t[1]]


def test_p10_solo_ends_after_15_turns_with_3_tools_left() -> None:
    s = meeple.new_game("pergola", players=1, seed=9, challenge=3)
    rng = Rng(2)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    assert isinstance(s, PergolaState)
    assert len(s.gardens[0].tools) == 15 and len(s.discards) == 15
    assert sum(1 for t in s.board if t >= 0) == 3


def test_challenge_needs_one_player() -> None:
    with pytest.raises(meeple.BadVariant, match="1 player"):
        meeple.new_game("pergola", players=2, challenge=4)
    info = meeple.game_info("pergola")
    assert list(info.player_range({"challenge": 2})) == [1]
    assert list(info.player_range({})) == [1, 2, 3, 4]


# ---------------------------------------------------------------- hidden information (P4)


def test_p4_view_holds_no_hidden_order_and_sample_hidden_is_consistent() -> None:
    s = start(players=2)
    v = s.seen_by(1)
    assert v.key() == s.key()
    # the holder is a set of remaining tools, not an order: the next draw is a chance move
    s.play("pick 2")
    while s.to_move == 0:
        s.play(legal(s)[0])
    outs = s.chance_outcomes()
    assert len(outs) > 1 and abs(sum(p for _, p in outs) - 1) < 1e-9
    det = s.sample_hidden(0, Rng(1))
    assert det.key() == s.seen_by(0).key()
    order = s.holder_order(Rng(5))
    assert sorted(order) == sorted(s.c.tool_ids[t] for h in s.holder for t in h)
    # leaves below the tops are never decided: a reveal may give any unseen leaf
    assert len(s.pool) == 27


def test_clones_share_gardens_until_one_changes_and_never_leak() -> None:
    """Copy-on-write gardens: a clone shares its gardens, copies one only when its seat plays,
    and a move on either side never shows on the other; kept garden keys stay true."""
    from tests.conformance.copy_on_write import check_clones_never_leak

    check_clones_never_leak("pergola", "gardens", (1, 2, 4), seed=7, only_mover_copies=True)
