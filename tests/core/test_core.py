"""The engine core: the shipped generator, the registry, records and the State contract."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.bits import bit_list, components, flood
from meeple.core.rng import Rng


def test_rng_is_splitmix64_reference() -> None:
    # published SplitMix64 reference: seed 0 gives 0xE220A8397B1DCDAF first
    assert Rng(0).next_u64() == 0xE220A8397B1DCDAF
    r = Rng(42)
    assert [r.next_u64() for _ in range(3)] == [
        13679457532755275413, 2949826092126892291, 5139283748462763858]


def test_rng_golden_values_never_change() -> None:
    r = Rng(7)
    assert [r.randbelow(6) for _ in range(12)] == [3, 0, 0, 3, 4, 3, 4, 0, 5, 5, 1, 4]
    assert Rng.derive(7, 0).next_u64() == 15788448427192582350


def test_rng_randbelow_is_uniform_enough_and_checks_bounds() -> None:
    r = Rng(1)
    counts = Counter(r.randbelow(5) for _ in range(50_000))
    assert all(9_000 < counts[i] < 11_000 for i in range(5))
    with pytest.raises(ValueError, match="positive"):
        r.randbelow(0)
    with pytest.raises(IndexError):
        r.choice([])


def test_rng_shuffle_and_weighted() -> None:
    r = Rng(3)
    items = list(range(10))
    r.shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    w = Counter(Rng(i).weighted_index([1.0, 3.0]) for i in range(4000))
    assert 2700 < w[1] < 3300


def test_bits_helpers() -> None:
    nb = [0b10, 0b101, 0b010, 0b10000, 0b01000]  # 0-1-2 path, 3-4 pair
    assert flood(0b1, 0b11111, nb) == 0b111
    assert sorted(components(0b11111, nb)) == [0b111, 0b11000]
    assert bit_list(0b10110) == [1, 2, 4]


def test_registry_lists_games_with_variants() -> None:
    names = [g.name for g in meeple.games()]
    assert names[0] == "gardens"
    info = meeple.game_info("gardens")
    assert (info.min_players, info.max_players) == (1, 4)
    assert list(info.variants) == [{"level": 1}, {"level": 2}, {"level": 3}]


def test_new_game_is_deterministic_by_seed() -> None:
    def rolls(seed: int) -> list[str]:
        s = meeple.new_game("gardens", players=2, seed=seed)
        while s.to_move == meeple.CHANCE:
            s.sample_chance()
        return [str(m) for m in s.history]

    assert rolls(7) == rolls(7)
    assert rolls(7) != rolls(8)


def test_seeded_rolls_do_not_depend_on_the_choices() -> None:
    a = meeple.new_game("gardens", players=1, seed=5)
    b = meeple.new_game("gardens", players=1, seed=5)
    for s, first in ((a, True), (b, False)):
        while not s.is_over and len([m for m in s.history if str(m).startswith("roll")]) < 15:
            if s.to_move == meeple.CHANCE:
                s.sample_chance()
            else:
                moves = s.legal_moves()
                s.play(moves[0] if first else moves[len(moves) // 2])
    ra = [str(m) for m in a.history if str(m).startswith("roll")]
    rb = [str(m) for m in b.history if str(m).startswith("roll")]
    assert len(ra) == len(rb) == 15
    assert ra == rb
    assert [str(m) for m in a.history] != [str(m) for m in b.history]


def test_sample_chance_refused_when_a_seat_is_to_move() -> None:
    s = meeple.new_game("gardens", players=2, seed=1)
    while s.to_move == meeple.CHANCE:
        s.sample_chance()
    with pytest.raises(meeple.IllegalMove, match="no chance event"):
        s.sample_chance()


def test_undo_never_crosses_a_roll_or_another_seat() -> None:
    s = meeple.new_game("gardens", players=2, seed=1)
    s.sample_chance()
    assert not s.can_undo()
    with pytest.raises(meeple.IllegalMove, match="nothing to undo"):
        s.undo()
    while s.to_move == meeple.CHANCE:
        s.sample_chance()
    s.play(s.legal_moves()[0])
    assert s.can_undo()
    s.play("waste")
    assert s.to_move == 1 and not s.can_undo()


def test_record_is_json_and_replays_partially() -> None:
    s = meeple.new_game("gardens", players=3, level=3, seed=2)
    r = Rng(4)
    for _ in range(40):
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
        else:
            s.play(r.choice(s.legal_moves()))
    rec = json.loads(json.dumps(s.record()))
    assert rec["format"] == "meeple-record/1" and rec["game"] == "gardens"
    assert rec["variant"] == {"level": 3} and len(rec["moves"]) == 40
    assert rec["sheet"]["name"].startswith("Level 3")
    assert meeple.replay(rec).key() == s.key()
    assert "scores" not in rec


def test_view_checks_the_seat() -> None:
    s = meeple.new_game("gardens", players=2)
    assert s.seen_by(1).key() == s.key()
    with pytest.raises(ValueError, match=r"seats are 0\.\.1"):
        s.seen_by(2)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=400))
def test_gardens_invariants_under_any_legal_play(seed: int, picks: list[int]) -> None:
    """Property: whatever legal decisions are made, each seat's colour masks are disjoint and
    make up its coloured fields, all of them form one connected area (G4), every offered move
    is accepted, and refusing anything leaves the state as it was."""
    s = meeple.new_game("gardens", players=2, level=2, seed=seed)
    nb = s.sheet.neighbours  # type: ignore[attr-defined]
    for pick in picks:
        if s.is_over:
            break
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
            continue
        moves = s.legal_moves()
        s.play(moves[pick % len(moves)])
        for seat in range(2):
            masks = s.cmask[seat * 5: seat * 5 + 5]  # type: ignore[attr-defined]
            union = 0
            for m in masks:
                assert union & m == 0
                union |= m
            coloured = s.coloured[seat]  # type: ignore[attr-defined]
            assert union == coloured
            if coloured:
                low = coloured & -coloured
                assert flood(low, coloured, nb) == coloured


def test_sheet_error_lines_for_tables_dotted_tables_and_arrays() -> None:
    from meeple.core.sheets import SheetModel, parse_sheet_text

    class Row(SheetModel):
        values: list[int]

    class Item(SheetModel):
        size: int

    class Doc(SheetModel):
        name: str
        rows: dict[str, Row]
        items: list[Item]
        inline: tuple[Item, ...] = ()

    text = """name = "x"

[[items]]
size = 1

[[items]]
size = "big"

[rows.orange]
values = [1, 2]

[rows.red]
values = ["a"]
"""
    with pytest.raises(meeple.SheetError) as exc:
        parse_sheet_text(Doc, text, "doc.toml")
    # both problems, in the order of the file (the first one's line is the error's line)
    assert exc.value.line == 7 and "line 13: rows.red.values[0]" in str(exc.value)
    fixed = text.replace('values = ["a"]', "values = [3]")
    with pytest.raises(meeple.SheetError) as exc:
        parse_sheet_text(Doc, fixed, "doc.toml")
    assert exc.value.line == 7 and "items[1].size" in str(exc.value)
    inline = 'inline = [\n  { size = 1 },\n  { size = "x" },\n]\n' + fixed.replace('"big"', "2")
    with pytest.raises(meeple.SheetError) as exc:
        parse_sheet_text(Doc, inline, "doc.toml")
    assert exc.value.line == 3 and "inline[1].size" in str(exc.value)
