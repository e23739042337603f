"""Pergola's LEARNING record: the shared checks over every variant and seat count, the action
order, a hand-checked observation, the score block against the engine's score pad."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.games.pergola import LEARNING
from meeple.games.pergola.rules import BIRD, FLUTTER, HONEY, INSECT, LANT_INSECT, PergolaState
from meeple.games.pergola.scoring import ROWS
from tests.games.learning_checks import check_playouts, check_values, split_blocks
from tests.games.pergola.helpers import data, start

INFO = meeple.game_info("pergola")
CASES = [(v, p) for v in INFO.variants for p in INFO.player_range(v)]


@pytest.mark.parametrize(("variant", "players"), CASES,
                         ids=[f"{INFO.describe_variant(v)}-{p}p" for v, p in CASES])
def test_shared_checks(variant: dict[str, Any], players: int) -> None:
    seeds = range(4) if not variant else range(2)
    assert check_playouts("pergola", variant, players, seeds) > 0


def new(players: int, **options: Any) -> PergolaState:
    s = meeple.new_game("pergola", players=players, **options)
    assert isinstance(s, PergolaState)
    return s


def blocks(state: PergolaState, seat: int) -> dict[str, list[int]]:
    """The observation of ``seat``, cut into its blocks by name."""
    return split_blocks(LEARNING.layout(state), LEARNING.observe(state.seen_by(seat), seat))


# ------------------------------------------------------------------ actions
def test_action_order() -> None:
    acts = LEARNING.actions(new(2))
    assert len(acts) == 1349
    assert acts[:5] == ("pick 1", "pick 2", "pick 3", "pick 4", "magnolia 1")
    assert acts[30] == "magnolia 27" and acts[31] == "buttercup 1" and acts[38] == "buttercup 8"
    assert acts[39:41] == ("lavender flower", "lavender dragonfly")
    assert acts[41:43] == ("butterfly fly", "butterfly h1") and acts[52] == "butterfly h11"
    assert acts[53] == "ladybug fly" and acts[80] == "ladybug m27"
    assert acts[81:83] == ("bee fly", "bee cup1") and acts[89:91] == ("bee cup8", "bee flower1")
    assert acts[99:103] == ("action flutter", "action bird", "action drip", "action frog")
    assert acts[103] == "lantern action flutter"
    assert acts[107:110] == ("lantern drip", "lantern jump", "lantern insect")
    assert acts[110] == "move butterfly fly>h1" and acts[242] == "move ladybug fly>m1"
    assert acts[998] == "move bee fly>cup1" and acts[1303] == "move bee flower9>flower8"
    assert acts[1304] == "stop" and acts[1305:1308] == ("leaf 1", "leaf 2", "leaf 3")
    assert acts[1308:1311] == ("take butterfly", "take ladybug", "take bee")
    assert acts[1311] == "drip a>c" and acts[1326] == "drip j>bottom"
    assert acts[1327:1330] == ("bonus sets", "bonus dragonflies", "bonus honey")
    assert acts[1330] == "jump 1" and acts[1343] == "jump 14"
    assert acts[1344] == "honey butterflies" and acts[-1] == "skip"
    assert "lantern action" not in acts
    assert not any(a.startswith(("draw", "reveal")) for a in acts)
    # the same tuple for every seat count and challenge (one data bundle)
    for v, p in CASES:
        assert LEARNING.actions(new(p, **v)) is acts


def test_own_data_changes_the_lists() -> None:
    """A user's data: 2 leaf piles and 5 pergola spaces give 2 leaf moves, 5 buttercup moves and
    fewer bee spots; a playout's legal moves are all in the list and the values in bounds."""
    d = data()
    d["leaves"]["piles"] = 2
    d["pergola"]["space"] = d["pergola"]["space"][:5]
    s = new(2, sheet=d, seed=3)
    acts = LEARNING.actions(s)
    assert "leaf 2" in acts and "leaf 3" not in acts
    assert "buttercup 5" in acts and "buttercup 6" not in acts and "bee cup6" not in acts
    layout = LEARNING.layout(s)
    assert {b.name: b.shape for b in layout}["tops"] == (2, 30)
    index = set(acts)
    rng = Rng(5)
    while s.to_move is not None:
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        legal = s.legal_moves()
        assert {str(m) for m in legal} <= index
        for seat in range(2):
            check_values(layout, LEARNING.observe(s.seen_by(seat), seat))
        s.play(rng.choice(legal), check=False)


# ------------------------------------------------------------------ a hand-checked position
def test_hand_checked_position() -> None:
    # S01 over space 1 (flutter), S02 over space 2 (bird), S03, S04; tops G1, Y1, O1
    s = start(players=2)
    s.play("pick 2")  # S02: a yellow hollyhock, a small buttercup (one place: space 1); bird
    assert [str(m) for m in s.legal_moves()] == ["leaf 1", "leaf 2", "leaf 3"]
    o = blocks(s, 0)
    assert o["phase"] == [1 << BIRD] and o["queue"] == [1 << HONEY] and o["task"] == [0]
    s.play("leaf 1")  # G1: a butterfly, and an extra 1-insect flutter
    o = blocks(s, 0)
    assert o["own.hollyhocks"] == [0, 1, 0]
    assert o["own.pergola"] == [1, 0, 0, 0, 0, 0, 0, 0] + [0] * 8
    assert o["own.lavender"] == [-1] * 9
    assert o["own.leaves"] == [1 << 0]  # G1 is leaf 0
    assert o["own.tools"] == [1 << 1]  # S02 is tool 1
    assert o["own.drops"] == [0b11]  # both drops on their start stones a, b
    assert o["own.frog"] == [0] and o["own.marks"] == [0, 0, 0]
    assert o["next1.tools"] == [0] and o["next1.hollyhocks"] == [0, 0, 0]
    assert o["board"] == [1 << 0, 0, 1 << 2, 1 << 3]  # S01, (taken), S03, S04
    assert o["offer"][15:30] == [0] * 15  # nothing over space 2 now
    assert o["tops"] == [0, 1 << 6, 1 << 12]  # pile 1 empty until clean-up; Y1, O1
    assert o["piles"] == [9, 10, 10]
    assert o["unrevealed"] == [(1 << 30) - 1 - (1 << 0) - (1 << 6) - (1 << 12)]
    assert o["holder"] == [11, 18]  # 2 players: 15 shovels less the 4 drawn, then 18 hoes
    assert o["phase"] == [1 << INSECT] and o["task"] == [0]  # place the butterfly
    assert o["queue"] == [1 << LANT_INSECT | 1 << FLUTTER | 1 << HONEY]
    assert o["turn"] == [0, 0] and o["current_tool"] == [1 << 1]
    pad = dict(zip(ROWS, o["scores"][:11], strict=True))
    assert pad["hollyhocks"] == 1 and pad["leaf colours"] == 1
    assert o["scores"][11] == 2 and o["scores"][12:] == [0] * 12
    assert o["scores"] == [x for sc in s.scores() for x in (*sc.breakdown.values(), sc.total)]
    # the other seat sees the same gardens the other way round, the turn one seat away
    o1 = blocks(s, 1)
    assert o1["next1.tools"] == [1 << 1] and o1["own.tools"] == [0]
    assert o1["turn"] == [0, 1]
    assert o1["scores"][:12] == [0] * 12 and o1["scores"][12:] == o["scores"][:12]
    s.play("butterfly h1")
    o = blocks(s, 0)
    assert o["own.butterflies"][:2] == [1, 0] and o["own.flying"] == [0, 0, 0]
    assert o["phase"] == [1 << FLUTTER] and o["task"] == [1]  # the leaf's 1-insect flutter


def test_solo_challenge_block() -> None:
    s = start(players=1, challenge=8)
    o = blocks(s, 0)
    assert o["challenge"] == [8, 0]
    assert o["discards"] == [0]
    s.play("pick 1")  # solo: the neighbour discards the tool over space 2 (S02)
    o = blocks(s, 0)
    assert o["discards"] == [1 << 1]


# ------------------------------------------------------------------ over playouts
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_scores_and_cache(players: int) -> None:
    """The score block equals the engine's score pad; an observation made with the per-garden
    cache equals one made afresh; the holder's order is never read."""
    for seed in range(2):
        s = new(players, seed=seed)
        rng = Rng(seed)
        step = 0
        while True:
            if s.to_move == CHANCE:
                s.sample_chance()
                continue
            if step % 5 == 0 or s.to_move is None:
                for seat in range(players):
                    o = blocks(s, seat)
                    order = [(seat + i) % players for i in range(players)]
                    want = [x for r in order for x in (*s.scores()[r].breakdown.values(),
                                                       s.scores()[r].total)]
                    assert o["scores"] == want
                    warm = list(LEARNING.observe(s, seat))
                    for g in s.gardens:  # forget every garden's kept parts
                        g._seen = None
                    assert list(LEARNING.observe(s, seat)) == warm
                    other = s.clone()
                    for h in other.holder:
                        h.reverse()
                    other.pool.reverse()
                    assert list(LEARNING.observe(other, seat)) == warm
            if s.to_move is None:
                break
            s.play(rng.choice(s.legal_moves()), check=False)
            step += 1
