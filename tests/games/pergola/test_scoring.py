"""The rulebook's scoring examples, built directly on the pure scoring functions, and Jane's
end-of-game board (100 points with the printed breakdown)."""

from __future__ import annotations

from meeple.games.pergola import scoring as sc
from meeple.games.pergola.rules import LARGE, SMALL, Garden, compiled, score_garden
from meeple.games.pergola.sheet import load_bundle


def test_hollyhocks_example_16() -> None:
    # 2 sets of 3 colours, 1 set of 2 colours, 1 single flower: 6 + 6 + 3 + 1
    assert sc.score_hollyhocks([4, 3, 2]) == 16


def test_hollyhock_sets_by_row() -> None:
    assert sc.score_hollyhocks([1, 0, 0]) == 1
    assert sc.score_hollyhocks([1, 1, 0]) == 3
    assert sc.score_hollyhocks([1, 1, 1]) == 6
    assert sc.score_hollyhocks([3, 0, 0]) == 3  # three single flowers in one colour


def test_butterflies_example_10() -> None:
    # 6 butterflies, one flying (0): 1 + 2 + 2 + 2 + 3
    assert sc.score_butterflies([1, 2, 3, 2, 4]) == 10
    assert [sc.butterfly_value(v) for v in (1, 2, 3, 4, 7)] == [1, 2, 2, 3, 3]


def test_magnolias_example_11() -> None:
    # 4 on levels 1-3, 2 on level 4, 1 on level 5: 1+1+1+1+2+2+3
    assert sc.score_magnolias([1, 1, 2, 2, 1]) == 11
    assert [sc.magnolia_value(v) for v in (1, 3, 4, 5, 8)] == [1, 1, 2, 3, 3]


def test_ladybugs_example_10() -> None:
    # three on one level (3 each) and one alone (1)
    assert sc.score_ladybugs([0, 3, 1]) == 10
    assert sc.score_ladybugs([2]) == 4
    assert sc.score_ladybugs([5]) == 15


def test_buttercups_example_6() -> None:
    # 2 pairs of different sizes and 1 buttercup without a pair
    assert sc.score_buttercups(small=2, large=3) == 6
    assert sc.score_buttercups(small=4, large=0) == 0


def test_bees_example_14() -> None:
    # full small (2) + full large (4) + full lavender (8); a lavender with 1 bee scores nothing
    assert sc.score_bees(full_small=1, full_large=1, full_lavender=1) == 14


def test_bees_only_full_flowers_score_in_garden() -> None:
    g = Garden(compiled(load_bundle(None)))
    g.cups[:3] = [SMALL, LARGE, LARGE]
    g.cup_bees[:3] = [1, 1, 2]
    g.flowers = [2, 3]
    assert score_garden(g, ()).breakdown["bees"] == 2 + 4 + 8


def test_lavender_leaves_example_14() -> None:
    assert sc.score_lavender_leaves(7) == 14


def test_dragonflies_example_14() -> None:
    # 2 large, 1 medium, 1 small: 5 + 5 + 3 + 1
    assert sc.score_dragonflies(small=1, medium=1, large=2) == 14


def test_leaf_colours_example_4() -> None:
    # 6 leaves in 4 colours
    assert sc.score_leaf_colours(["green", "green", "red", "yellow", "brown", "red"]) == 4


def test_honey_pot_butterflies_example_6() -> None:
    # 5 butterflies on hollyhocks and 1 flying: 6 points
    assert sc.pot_value("butterflies", butterflies=6, leaves=0, ladybugs=0, lanterns=0) == 6
    assert sc.pot_value("leaves", butterflies=0, leaves=7, ladybugs=0, lanterns=0) == 3
    assert sc.pot_value("lanterns", butterflies=0, leaves=0, ladybugs=0, lanterns=3) == 3


def test_cascade_bonuses() -> None:
    # sets: the insect you have least of; 1 per dragonfly; 2 per full honey pot
    assert sc.bonus_value("sets", 4, 7, 7, 0, 0) == 4
    assert sc.bonus_value("dragonflies", 0, 0, 0, 3, 0) == 3
    assert sc.bonus_value("honey", 0, 0, 0, 0, 2) == 4


def jane_board() -> Garden:
    """Jane's board at the end of the game, built to match every printed row."""
    g = Garden(compiled(load_bundle(None)))
    g.holly = [3, 2, 2]  # 6 + 6 + 1
    g.bfly[0], g.bfly[1] = 1, 2  # 1 + 2 + 2
    g.bfly_fly = 1
    g.mag[:4] = [1, 2, 3, 2]  # 6 x 1 + 2 x 2
    g.lady[:4] = [0, 2, 3, 2]  # 2 x 2 + 3 x 3 + 2 x 2
    g.cups[:4] = [SMALL, LARGE, LARGE, LARGE]  # 1 pair of different sizes
    g.cup_bees[:4] = [1, 2, 2, 2]  # 3 x 4 + 1 x 2
    g.lav_leaves = 5
    g.flowers = [0]
    g.df_small, g.df_medium, g.df_large = 1, 1, 1  # 1 + 3 + 5
    g.pots = ["ladybugs", "leaves"]  # 7 + 3
    g.leaves = [0, 1, 2, 6, 7, 8]  # 6 leaves in 2 colours
    g.bonuses = ["dragonflies", "sets"]  # 3 + 4
    g.drops = [-1, -1]
    return g


def test_jane_end_of_game_example_100() -> None:
    b = load_bundle(None)
    c = compiled(b)
    g = jane_board()
    assert len({c.leaf_colour[i] for i in g.leaves}) == 2
    score = score_garden(g, c.leaf_colour)
    assert score.breakdown == {
        "hollyhocks": 13, "butterflies": 5, "magnolias": 10, "ladybugs": 17, "buttercups": 3,
        "bees": 14, "lavender leaves": 10, "dragonflies": 9, "honey pots": 10,
        "waterdrops": 7, "leaf colours": 2,
    }
    assert score.total == 100
    assert list(score.breakdown) == list(sc.ROWS)
