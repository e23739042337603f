"""Pergola moves carry their meaning as fields; short forms of the pending decision.

The fields are checked against the canonical text they were built with (rebuilt here from the
fields alone); short forms (``3`` for ``pick 3``, ``7`` for ``jump 7``, ...) against every
legal move of many positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.rng import Rng
from meeple.games.pergola.moves import (
    ACTION_LANTERN,
    ACTIONS,
    BOTTOM,
    DRIP_LANTERN,
    INSECT_LANTERN,
    INSECTS,
    JUMP_LANTERN,
    LANTERNS,
    PergolaMove,
    mv,
    parse,
)
from meeple.games.pergola.rules import (
    ACTION,
    BIRD,
    FLUTTER,
    FROG,
    INSECT,
    PICK,
    RULES,
    TASK_NAMES,
    PergolaState,
)
from tests.games.pergola.helpers import data, legal, start


def positions(players: int, seed: int, every: int = 1) -> Iterator[PergolaState]:
    """Seat decisions of a seeded random game (every ``every``-th one)."""
    s = meeple.new_game("pergola", players=players, seed=seed)
    assert isinstance(s, PergolaState)
    rng = Rng(seed)
    n = 0
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
            continue
        if n % every == 0:
            yield s
        n += 1
        s.play(rng.choice(s.legal_moves()), check=False)


def _spot(spot: tuple[str, int]) -> str:
    return "fly" if spot[0] == "fly" else f"{spot[0]}{spot[1] + 1}"


def text_from_fields(m: PergolaMove, s: PergolaState) -> str:
    """The canonical text, written again from the move's fields only."""
    c = s.c
    f = m.form
    if f in ("pick", "buttercup"):
        return f"{f} {m.space + 1}"
    if f == "magnolia":
        return f"magnolia {m.level + 1}"
    if f == "lavender":
        return f"lavender {m.name}"
    if f == "place":
        return f"{INSECTS[m.insect]} {_spot(m.spot)}"
    if f == "action":
        return f"action {ACTIONS[m.action]}"
    if f == "lantern":
        if m.lantern == ACTION_LANTERN:
            return f"lantern action {ACTIONS[m.action]}"
        return f"lantern {LANTERNS[m.lantern]}"
    if f == "move":
        return f"move {INSECTS[m.insect]} {_spot(m.source)}>{_spot(m.spot)}"
    if f == "leaf":
        return f"leaf {m.pile + 1}"
    if f == "take":
        return f"take {INSECTS[m.insect]}"
    if f == "drip":
        to = "bottom" if m.to == BOTTOM else c.stone_ids[m.to]
        return f"drip {c.stone_ids[m.stone]}>{to}"
    if f in ("bonus", "honey"):
        return f"{f} {m.name}"
    if f == "jump":
        return f"jump {c.lily_ids[m.lily]}"
    if f == "draw":
        return f"draw {c.tool_ids[m.tool]}"
    if f == "reveal":
        return f"reveal {m.pile + 1} {c.leaf_ids[m.leaf]}"
    assert f in ("stop", "skip"), f
    return f


@pytest.mark.parametrize(("players", "seed"), [(1, 11), (2, 12), (3, 13), (4, 14)])
def test_every_legal_move_carries_the_meaning_of_its_text(players: int, seed: int) -> None:
    for s in positions(players, seed):
        for m in s.legal_moves():
            assert m.form, m
            assert text_from_fields(m, s) == m.text
            assert s.parse_move(m.text) is m  # parsing gives the very move listed
    # chance outcomes carry their tool / leaf too
    fresh = meeple.new_game("pergola", players=players, seed=seed)
    assert isinstance(fresh, PergolaState)
    rng = Rng(seed)
    while not fresh.is_over:
        if fresh.to_move == meeple.CHANCE:
            for m, _ in fresh.chance_outcomes():
                assert text_from_fields(m, fresh) == m.text
            fresh.sample_chance(rng)
        else:
            fresh.play(rng.choice(fresh.legal_moves()), check=False)


def test_each_task_kind_has_a_named_rule_citing_its_source() -> None:
    names = []
    for kind, (options, effect) in enumerate(RULES):
        assert options.__name__ == f"{effect.__name__}_options", TASK_NAMES[kind]
        for fn in (options, effect):
            doc = fn.__doc__ or ""
            assert re.search(r"\bP\d+|Rulebook", doc), fn.__name__
        names.append(effect.__name__)
    assert names == [
        "pick_tool", "place_magnolia", "place_buttercup", "lavender_pair", "place_insect",
        "insect_lantern", "choose_action", "insect_flutter", "bird_flight", "water_drip",
        "bottom_of_cascade", "cascade_bonus", "frog_jump", "drip_lantern", "jump_lantern",
        "fill_honey_pot",
    ]


def test_lanterns_by_name() -> None:
    assert [LANTERNS[i] for i in (DRIP_LANTERN, JUMP_LANTERN, INSECT_LANTERN, ACTION_LANTERN)] \
        == ["drip", "jump", "insect", "action"]


def test_a_move_known_only_by_its_text_plays_as_the_legal_one() -> None:
    for check in (True, False):
        s = start(sheet=data(S01=["hollyhock-red", "lantern-action", "butterfly"]))
        s.play(mv("pick 1"), check=check)  # text only: no fields
        assert s.gardens[0].lanterns[ACTION_LANTERN] == 1
        assert legal(s) == ["butterfly fly", "butterfly h1"]
        s.play(PergolaMove("butterfly fly"), check=check)
        s.play(parse("lantern action frog"), check=check)
        g = s.gardens[0]
        assert g.lanterns[ACTION_LANTERN] == 0 and g.lanterns_used == 1 and g.bfly_fly == 1
        assert s.tasks[0][0] == FROG


def test_equal_moves_are_equal_by_text() -> None:
    s = start()
    m = s.legal_moves()[0]
    assert m == mv(m.text) and hash(m) == hash(mv(m.text)) and m in {mv(m.text)}
    assert m != mv("pick 4")


# ---------------------------------------------------------------- short forms


@pytest.mark.parametrize(("players", "seed"), [(1, 21), (2, 22), (3, 23), (4, 24)])
def test_short_forms_name_the_legal_move_they_shorten(players: int, seed: int) -> None:
    for s in positions(players, seed):
        moves = s.legal_moves()
        counts: dict[str, int] = {}
        for m in moves:
            for f in m.short:
                counts[f.lower()] = counts.get(f.lower(), 0) + 1
        for m in moves:
            for f in m.short:
                assert (f == m.text.split(" ", 1)[1] or m.text.endswith(" " + f)
                        or (f == "lantern" and m.text.startswith("lantern ")))
                if counts[f.lower()] == 1:
                    assert s.parse_move(f) is m
                    assert s.parse_move(f.upper()) is m


def test_short_forms_at_each_decision() -> None:
    s = start(players=2, sheet=data(S01=["hollyhock-red", "lantern-action", "butterfly"]))
    assert s.parse_move("3") == mv("pick 3")
    s.play("1")  # pick 1
    assert s.tasks[0] == (INSECT, 0)
    assert s.parse_move("fly") == mv("butterfly fly")
    assert s.parse_move("h1") == mv("butterfly h1")
    s.play("fly")
    assert s.tasks[0][0] == ACTION
    # the tool's own action by its name; another action needs the lantern spelled out
    own = ACTIONS[s.tasks[0][1]]
    assert s.parse_move(own) == mv(f"action {own}")
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("bird")
    assert "action bird is not legal now" in exc.value.reason
    assert "lantern action bird" in exc.value.reason
    assert s.key() == before
    s.play("lantern action frog")
    assert s.tasks[0][0] == FROG
    lily = legal(s)[0].split(" ")[1]
    assert s.parse_move(lily) == mv(f"jump {lily}")


def test_short_forms_for_bird_flight_and_flutter() -> None:
    s = start(players=2, board=("S01", "S02", "S03", "S04"),
              sheet=data(S02=["bee", "butterfly"]))
    s.play("pick 2")  # action space 2 is the bird flight in the standard data
    while s.tasks[0][0] != BIRD:
        s.play(s.legal_moves()[0])
    assert s.parse_move("2") == mv("leaf 2")
    s2 = start(players=2, sheet=data(S01=["hollyhock-red", "butterfly"]))
    s2.play("pick 1")  # space 1 is the insect flutter
    assert s2.tasks[0][0] == INSECT
    s2.play("fly")
    assert s2.tasks[0] == (FLUTTER, 2)
    assert s2.parse_move("fly>h1") == mv("move butterfly fly>h1")
    assert s2.parse_move("butterfly fly>h1") == mv("move butterfly fly>h1")
    before = s2.key()
    with pytest.raises(meeple.IllegalMove) as exc:  # no hollyhock level 4 to land on
        s2.play("FLY>H4")
    assert "move butterfly fly>h4 is not legal now" in exc.value.reason
    assert TASK_NAMES[FLUTTER] in exc.value.reason
    assert s2.key() == before


def test_a_line_of_short_forms_plays_a_whole_turn() -> None:
    """The example of docs/pergola.md, Notation: ``4 h1 7``, one word at a time."""
    s = start(players=2, sheet=data(S04=["hollyhock-red", "butterfly"]))
    line = "4 h1 7"
    for word in line.split(" "):
        s.play(word)
    g = s.gardens[0]
    assert g.tools == [s.c.tool_index["S04"]] and g.bfly[0] == 1 and g.bfly_fly == 1
    assert g.frog == s.c.lily_index["7"]
    assert s.turn == 1


def test_a_short_form_not_legal_now_is_refused_with_the_decision() -> None:
    s = start()
    assert s.tasks[0][0] == PICK
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("9")
    assert "pick 9 is not legal now" in exc.value.reason and "pick a tool" in exc.value.reason
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("h3")  # a spot is no pick: the accepted forms are listed
    assert "pick N" in exc.value.reason
    assert s.key() == before


def test_short_forms_are_for_seat_decisions_only() -> None:
    s = meeple.new_game("pergola", players=2, seed=1)
    assert s.to_move == meeple.CHANCE
    with pytest.raises(meeple.IllegalMove):
        s.play("S01")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_full_texts_keep_their_meaning(seed: int, players: int) -> None:
    """Whatever else parse_move accepts, every canonical text reads as itself."""
    for k, s in enumerate(positions(players, seed, every=7)):
        for m in s.legal_moves():
            assert s.parse_move(m.text) is m
            assert s.parse_move(f"  {m.text.upper()} ") is m
        if k > 12:
            break
