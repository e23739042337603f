"""What a Pergola player is told happened (``present.announcements``): the solo neighbour's discard
(P10), a honey pot filled (P7), a cascade bonus spot taken (P8), a dragonfly won, a lantern used
(P5), a new top leaf (P4), an insect running out (P1), and the end of the game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.present import announcements
from meeple.core.rng import Rng
from meeple.games.pergola.rules import BOTTOM, LARGE, PergolaState
from meeple.games.pergola.sheet import SUPPLY_ITEMS
from tests.games.pergola.helpers import chance, data, garden, start


def play(s: PergolaState, *moves: str) -> list[str]:
    """Play ``moves`` and return every announcement made along the way."""
    said: list[str] = []
    for m in moves:
        before = s.clone()
        s.play(m)
        said += announcements(before, s)
    return said


def test_p10_solo_neighbour_discard_is_announced() -> None:
    s = start(sheet=data(S02=["hollyhock-yellow", "lantern-insect"],
                         S03=["hollyhock-red", "hollyhock-blue"]))
    said = play(s, "pick 1")  # the neighbour discards the other tool of spaces 1-2
    assert any(a.startswith("The solo neighbour discards S02 (yellow hollyhock + insect "
                            "lantern) from space 2 (bird flight)") for a in said), said
    assert s.discards == [s.c.tool_index["S02"]]


def test_no_discard_in_a_two_player_game() -> None:
    s = start(players=2)
    said = play(s, "pick 1")
    assert not any("discards" in a for a in said)


def test_p7_honey_pot_filled_is_announced_with_its_points() -> None:
    s = start(sheet=data(S01=["hollyhock-red", "hollyhock-blue"]))
    g = garden(s)
    g.cups[:2] = [LARGE, LARGE]
    g.cup_bees[:2] = [2, 2]
    g.lady_fly = 3
    s.seats = ["you"]
    play(s, "pick 1", "stop")
    said = play(s, "honey ladybugs")
    assert "You fill the ladybugs honey pot (1 per ladybug): 3 points now." in said


def test_p8_cascade_bonus_taken_is_announced() -> None:
    s = start(sheet=data(S03=["hollyhock-red", "hollyhock-blue"]))
    s.seats = ["Ann"]
    g = garden(s)
    g.drops = [s.c.stone_index["i"], BOTTOM]
    g.df_small = 2
    said = play(s, "pick 3", "take ladybug", "bonus dragonflies")
    assert "Ann takes the cascade bonus spot dragonflies (1 each): 2 points now." in said


def test_dragonfly_won_on_a_lily_and_none_from_an_empty_stack() -> None:
    s = start(players=2, sheet=data(S04=["hollyhock-red", "hollyhock-blue"]))
    s.seats = ["you", "Bob"]
    garden(s).holly = [2, 1, 1]
    said = play(s, "pick 4", "jump 3")
    assert "You win a large dragonfly (5 points) on lily 3." in said
    s2 = start(players=2, sheet=data(S04=["hollyhock-red", "hollyhock-blue"]))
    s2.seats = ["Ann", "Bob"]
    garden(s2).holly = [2, 1, 1]
    s2.stacks[1] = []
    said = play(s2, "pick 4", "jump 3")
    assert "Ann's frog lands on lily 3 but gets no dragonfly: its stack is empty." in said


def test_small_dragonfly_from_a_lavender_pair() -> None:
    s = start(sheet=data(S01=["lavender-leaf", "lavender-leaf"]))
    said = play(s, "pick 1", "lavender dragonfly")
    assert any("a small dragonfly (1 point) between a new pair of lavender leaves" in a
               for a in said)


def test_lantern_used_is_announced_by_kind() -> None:
    s = start(sheet=data(S01=["lantern-action", "hollyhock-blue"]))
    s.seats = ["you"]
    said = play(s, "pick 1", "lantern action drip")
    assert "You use an action lantern (another action than the tool's)." in said


def test_p4_new_top_leaf_is_announced() -> None:
    s = start(sheet=data(S02=["hollyhock-red", "hollyhock-blue"]))
    play(s, "pick 2", "leaf 2")
    while s.to_move == 0:
        play(s, str(s.legal_moves()[0]))
    before = s.clone()
    while s.to_move == meeple.CHANCE and not str(s.legal_moves()[0]).startswith("reveal"):
        s.play(s.legal_moves()[0])
    chance(s, "reveal 2 R4")
    assert "New top leaf on pile 2: R4 red, ladybug + a 1-insect flutter." in \
        announcements(before, s)


def test_p1_insect_running_out_is_announced() -> None:
    s = start(sheet=data(S01=["butterfly", "hollyhock-blue"]))
    s.supply[SUPPLY_ITEMS.index("butterfly")] = 1  # the last one
    said = play(s, "pick 1")
    assert "The supply has no butterflies left: from now on nobody gets one." in said


def _to_the_end(s: PergolaState, seed: int) -> list[str]:
    rng = Rng(seed)
    said: list[str] = []
    while not s.is_over:
        before = s.clone()
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
        said = announcements(before, s)
    return said


def test_end_of_a_two_player_game_names_the_winner() -> None:
    s = meeple.new_game("pergola", players=2, seed=2)
    assert isinstance(s, PergolaState)
    s.seats = ["Ann", "Bob"]
    last = _to_the_end(s, 2)
    totals = [x.total for x in s.scores()]
    assert any(a.startswith("Game over") for a in last)
    winner = "Ann" if totals[0] > totals[1] else "Bob"
    if totals[0] != totals[1]:
        assert f"{winner} wins with {max(totals)} points." in last


def test_end_of_a_failed_solo_challenge_says_not_met_and_never_winner() -> None:
    for seed in range(20):
        s = meeple.new_game("pergola", players=1, seed=seed, challenge=7)
        assert isinstance(s, PergolaState)
        s.seats = ["you"]
        last = _to_the_end(s, seed)
        if s.record()["challenge"]["met"]:
            continue
        text = "\n".join(last)
        assert "challenge 7 not met" in text
        assert "Przemek 105, Gołąb 106" in text and "Przemek 105, Gołąb 104" in text
        assert "Winner" not in text and "wins" not in text
        return
    raise AssertionError("no failed challenge 7 in 20 random games")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), challenge=st.integers(1, 10))
def test_p10_every_discard_announced_once_in_random_solo_games(seed: int, challenge: int) -> None:
    s = meeple.new_game("pergola", players=1, seed=seed, challenge=challenge)
    assert isinstance(s, PergolaState)
    s.seats = ["you"]
    rng = Rng(seed)
    said: list[str] = []
    while not s.is_over:
        before = s.clone()
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
        said += announcements(before, s)
    discards = [a for a in said if a.startswith("The solo neighbour discards ")]
    assert [a.split()[4] for a in discards] == [s.c.tool_ids[t] for t in s.discards]
    assert sum(a.startswith("Game over") for a in said) == 1
    assert not any("Winner" in a or " wins " in a for a in said)
