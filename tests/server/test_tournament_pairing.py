"""The tournaments' pure core (meeple.server.features.tournaments.pairing): Swiss rounds,
round robin schedules, Arena tables and standings, as properties over random tournaments
(checked against a brute force where the claim is "whenever possible") and worked examples
with known answers. The rules are written in src/meeple/server/features/tournaments/README.md."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.state import places_by_total
from meeple.server.features.tournaments.pairing import (
    ArenaStanding,
    Entry,
    Result,
    Round,
    Waiting,
    arena_standings,
    arena_tables,
    game_score,
    place_points,
    round_robin,
    standings,
    swiss_round,
)


def entries(count: int, rng: random.Random | None = None) -> list[Entry]:
    """Players p0, p1, ... rated from 1600 down (or at random with ``rng``)."""
    return [Entry(f"p{i}", 1600 - 10 * i if rng is None else rng.choice([1400, 1500, 1600]))
            for i in range(count)]


def played(table: Sequence[str], rng: random.Random) -> Result:
    """A finished game at ``table`` with random totals (ties share places, A4)."""
    totals = [rng.randint(0, 3) for _ in table]
    return Result(tuple(table), tuple(places_by_total(totals)))


def pairs(table: Sequence[str]) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in itertools.combinations(table, 2)}


def repeats(tables: Sequence[Sequence[str]], met: set[frozenset[str]]) -> int:
    return sum(len(pairs(table) & met) for table in tables)


def groupings(players: Sequence[str], seats: int) -> Iterator[list[tuple[str, ...]]]:
    """Every way to split ``players`` into tables of ``seats`` (the brute force)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, seats - 1):
        left = [p for p in rest if p not in others]
        for more in groupings(left, seats):
            yield [(first, *others), *more]


def fewest_repeats(players: Sequence[str], seats: int, met: set[frozenset[str]]) -> int:
    return min(repeats(tables, met) for tables in groupings(list(players), seats))


def check_round(round_: Round, players: Sequence[str], seats: int) -> None:
    """No player at two tables or both at a table and a bye; every table has the seat
    count; every player is seated or has a bye."""
    seated = [p for table in round_.tables for p in table]
    assert all(len(table) == seats for table in round_.tables)
    assert len(seated + list(round_.byes)) == len(set(seated) | set(round_.byes))
    assert sorted(seated + list(round_.byes)) == sorted(players)
    assert len(round_.byes) == len(players) % seats


# --- Swiss: properties ------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 9), seats=st.sampled_from([2, 3, 4]), rounds=st.integers(1, 6),
       seed=st.integers(0, 10**6))
def test_a_swiss_tournament_seats_everyone_once_a_round_without_avoidable_repeats(
        count: int, seats: int, rounds: int, seed: int) -> None:
    """Each round: everyone once (at a full table or a bye); no repeat opponents when a
    repeat-free grouping of the players seated exists (brute force), and for two seats never
    more repeats than the fewest possible; the byes go to players without one while someone
    is left without one, to the lowest-ranked of them."""
    if count < seats:
        count = seats
    rng = random.Random(seed)
    field = entries(count, rng)
    players = [e.player for e in field]
    results: list[Result] = []
    byes: list[str] = []
    for _ in range(rounds):
        round_ = swiss_round(field, results, byes, seats)
        check_round(round_, players, seats)
        met = set().union(*(pairs(r.players) for r in results))
        playing = [p for p in players if p not in round_.byes]
        best = fewest_repeats(playing, seats, met)
        if seats == 2:
            assert repeats(round_.tables, met) == best
        elif best == 0:
            assert repeats(round_.tables, met) == 0
        fresh = [p for p in players if p not in byes]
        if len(fresh) >= len(round_.byes):
            assert set(round_.byes) <= set(fresh)
            ranked = [s.player for s in standings(field, results, byes)
                      if s.player in fresh]
            order = {p: (-score, -rating, p) for p, score, rating in (
                (s.player, s.score, s.rating) for s in standings(field, results, byes))}
            lowest = sorted(fresh, key=order.__getitem__)[len(fresh) - len(round_.byes):]
            assert sorted(round_.byes) == sorted(lowest), ranked
        byes.extend(round_.byes)
        results.extend(played(table, rng) for table in round_.tables)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 8), seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_swiss_pairing_does_not_depend_on_the_order_of_the_games_or_entries(
        count: int, seats: int, seed: int) -> None:
    if count < seats:
        count = seats
    rng = random.Random(seed)
    field = entries(count, rng)
    results, byes = [], []
    for _ in range(3):
        round_ = swiss_round(field, results, byes, seats)
        byes.extend(round_.byes)
        results.extend(played(table, rng) for table in round_.tables)
    shuffled = results[:]
    rng.shuffle(shuffled)
    others = field[:]
    rng.shuffle(others)
    assert swiss_round(others, shuffled, byes[::-1], seats) == swiss_round(
        field, results, byes, seats)


# --- Standings: properties --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 8), seats=st.sampled_from([2, 3, 4]), games=st.integers(0, 12),
       seed=st.integers(0, 10**6))
def test_standings_are_the_same_whatever_the_order_of_games_seats_and_entries(
        count: int, seats: int, games: int, seed: int) -> None:
    if count < seats:
        count = seats
    rng = random.Random(seed)
    field = entries(count, rng)
    players = [e.player for e in field]
    results = [played(rng.sample(players, seats), rng) for _ in range(games)]
    byes = [rng.choice(players) for _ in range(rng.randint(0, 3))]
    expected = standings(field, results, byes)

    def reseated(result: Result) -> Result:
        order = list(range(len(result.players)))
        rng.shuffle(order)
        return Result(tuple(result.players[i] for i in order),
                      tuple(result.places[i] for i in order))

    again = [reseated(r) for r in results]
    rng.shuffle(again)
    others = field[:]
    rng.shuffle(others)
    assert standings(others, again, rng.sample(byes, len(byes))) == expected
    # a plain recomputation: each score is the sum of the games' place points plus the byes
    for line in expected:
        gained = sum((game_score(r.places)[r.players.index(line.player)]
                      for r in results if line.player in r.players), Fraction(0))
        assert line.score == gained + byes.count(line.player)
    # and each Buchholz is the mean of the opponents' scores at each table, summed
    score = {line.player: line.score for line in expected}
    for line in expected:
        assert line.buchholz == sum(
            (sum((score[q] for q in r.players if q != line.player), Fraction(0))
             / (len(r.players) - 1) for r in results if line.player in r.players),
            Fraction(0))
    assert [line.rank for line in expected] == sorted(line.rank for line in expected)


# --- Round robin: properties ------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 11), seats=st.sampled_from([2, 3, 4]))
def test_a_round_robin_has_every_pair_meet(count: int, seats: int) -> None:
    """Every pair shares a table; with two seats exactly once, in n - 1 rounds (n when odd,
    each player's bye once)."""
    if count < seats:
        count = seats
    field = entries(count)
    players = [e.player for e in field]
    rounds = round_robin(field, seats)
    for round_ in rounds:
        check_round(round_, players, seats)
    met = Counter(pair for round_ in rounds for table in round_.tables for pair in pairs(table))
    assert set(met) == pairs(players)
    if seats == 2:
        assert set(met.values()) == {1}
        assert len(rounds) == count - 1 + count % 2
        byes = [p for round_ in rounds for p in round_.byes]
        assert len(byes) == len(set(byes)) == (count if count % 2 else 0)


# --- Arena: properties ------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(count=st.integers(0, 9), seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_the_arena_starts_full_tables_without_an_avoidable_immediate_rematch(
        count: int, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    free = [Waiting(p, rng.choice([1400, 1500]), rng.randint(0, 4),
                    frozenset(rng.sample(players, min(len(players), rng.randint(0, seats - 1)))),
                    rng.randint(0, 3)) for p in players]
    tables = arena_tables(free, seats)
    seated = [p for table in tables for p in table]
    assert all(len(table) == seats for table in tables)
    assert len(seated) == len(set(seated)) == count - count % seats
    waited = {w.player: (w.free_since, w.player) for w in free}
    left = set(players) - set(seated)
    assert all(waited[w] >= waited[s] for w in left for s in seated)
    recent = {frozenset((w.player, q)) for w in free for q in w.last_opponents if q != w.player}
    if fewest_repeats(seated, seats, recent) == 0:
        assert repeats(tables, recent) == 0


# --- Worked examples --------------------------------------------------------------------


def test_place_points_are_two_per_seat_beaten_and_one_per_seat_tied() -> None:
    assert place_points([1, 2]) == [2, 0]
    assert place_points([1, 1]) == [1, 1]
    assert place_points([2, 1, 3, 4]) == [4, 6, 2, 0]
    assert place_points([1, 1, 3, 4]) == [5, 5, 2, 0]
    assert game_score([1, 1, 3, 4]) == [Fraction(5, 6), Fraction(5, 6), Fraction(1, 3), 0]
    assert game_score([2, 1]) == [0, 1]


def four_players() -> list[Entry]:
    return [Entry("a", 1600), Entry("b", 1500), Entry("c", 1550), Entry("d", 1450)]


def test_round_one_pairs_neighbours_by_rating_and_round_two_the_winners() -> None:
    field = four_players()
    first = swiss_round(field, [], [], 2)
    assert first == Round(tables=(("a", "c"), ("b", "d")))
    results = [Result(("a", "c"), (1, 2)), Result(("b", "d"), (2, 1))]
    # a and d won: equal scores meet; the first seats go to who has not sat first yet
    assert swiss_round(field, results, [], 2) == Round(tables=(("d", "a"), ("c", "b")))


def test_a_repeat_is_made_only_when_every_pairing_repeats() -> None:
    field = four_players()
    results = [Result(("a", "c"), (1, 2)), Result(("b", "d"), (1, 2)),
               Result(("a", "b"), (1, 2)), Result(("c", "d"), (1, 2)),
               Result(("a", "d"), (1, 2)), Result(("b", "c"), (1, 2))]
    # everyone has met everyone: a (3) meets the next score, b (2); c (1) meets d (0)
    round_ = swiss_round(field, results, [], 2)
    assert sorted(tuple(sorted(t)) for t in round_.tables) == [("a", "b"), ("c", "d")]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    field = [Entry(p, r) for p, r in (("a", 1600), ("b", 1500), ("c", 1400))]
    assert swiss_round(field, [], [], 2).byes == ("c",)
    # c had the bye and leads with a win's worth; b lost to a: b is lowest without a bye
    results = [Result(("a", "b"), (1, 2))]
    assert swiss_round(field, results, ["c"], 2) == Round(tables=(("c", "a"),), byes=("b",))


def test_swiss_standings_of_a_small_tournament() -> None:
    """a beats b, c beats d; then a beats c, b and d draw. Scores a 2, c 1, b 1/2, d 1/2;
    b and d are split by Buchholz (b met a and d: 2 1/2; d met c and b: 1 1/2)."""
    results = [Result(("a", "b"), (1, 2)), Result(("c", "d"), (1, 2)),
               Result(("a", "c"), (1, 2)), Result(("b", "d"), (1, 1))]
    lines = standings(four_players(), results)
    assert [(s.rank, s.player, s.score, s.buchholz, s.sonneborn_berger) for s in lines] == [
        (1, "a", 2, Fraction(3, 2), Fraction(3, 2)),
        (2, "c", 1, Fraction(5, 2), Fraction(1, 2)),
        (3, "b", Fraction(1, 2), Fraction(5, 2), Fraction(1, 4)),
        (4, "d", Fraction(1, 2), Fraction(3, 2), Fraction(1, 4)),
    ]


def test_lines_equal_in_every_tie_break_share_a_rank() -> None:
    field = [Entry("a", 1500), Entry("b", 1500), Entry("c", 1400)]
    lines = standings(field, [Result(("a", "b"), (1, 1))], ["c"])
    assert [(s.rank, s.player) for s in lines] == [(1, "c"), (2, "a"), (2, "b")]
    assert [s.byes for s in lines] == [1, 0, 0]


def test_a_three_seat_round_that_must_repeat_repeats_as_little_as_it_can() -> None:
    """p0 has met p4 and p5, and p1, p2, p3 have all met: whoever sits with p0 repeats, so
    no round is repeat-free; the fewest repeats is one a table."""
    field = entries(6)
    results = [Result(("p4", "p5", "p0"), (1, 1, 1)), Result(("p1", "p2", "p3"), (1, 1, 1))]
    round_ = swiss_round(field, results, [], 3)
    met = set().union(*(pairs(r.players) for r in results))
    assert repeats(round_.tables, met) == 2 == fewest_repeats([e.player for e in field], 3, met)
    # the first seats go to who has not sat first yet, then by rank
    assert round_ == Round(tables=(("p0", "p2", "p1"), ("p3", "p5", "p4")))


def test_the_arena_repairs_a_grouping_that_would_rematch() -> None:
    """In rank order p0 p1 p2 would leave p3 p4 p5, with p4 and p5 just met: the search
    goes back until no table rematches."""
    free = [Waiting(f"p{i}", 1600 - i) for i in range(6)]
    free[4] = Waiting("p4", 1596, last_opponents=frozenset({"p5"}))
    tables = arena_tables(free, 3)
    assert not any({"p4", "p5"} <= set(table) for table in tables)
    assert tables == [("p0", "p1", "p4"), ("p2", "p3", "p5")]


def test_the_arena_avoids_an_immediate_rematch_and_the_last_free_waits() -> None:
    free = [Waiting("a", 1500, last_opponents=frozenset({"b"}), free_since=1),
            Waiting("b", 1500, last_opponents=frozenset({"a"}), free_since=1),
            Waiting("c", 1500, free_since=2), Waiting("d", 1500, free_since=2),
            Waiting("e", 1500, free_since=9)]
    tables = arena_tables(free, 2)
    assert sorted(p for t in tables for p in t) == ["a", "b", "c", "d"]
    assert ("a", "b") not in tables


def test_arena_standings_count_place_points() -> None:
    results = [Result(("a", "b"), (1, 2)), Result(("c", "d"), (1, 1)),
               Result(("a", "c"), (2, 1))]
    assert arena_standings(four_players(), results) == [
        ArenaStanding(1, "c", 3, 2, 1550), ArenaStanding(2, "a", 2, 2, 1600),
        ArenaStanding(3, "d", 1, 1, 1450), ArenaStanding(4, "b", 0, 1, 1500)]


def test_a_four_player_round_robin_by_the_circle_method() -> None:
    """By rating a c b d; a stays, the others turn; the first seat alternates by round."""
    assert round_robin(four_players(), 2) == [
        Round(tables=(("a", "d"), ("c", "b"))),
        Round(tables=(("b", "a"), ("c", "d"))),
        Round(tables=(("a", "c"), ("b", "d"))),
    ]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: swiss_round(four_players(), [], [], 1), "two or more seats"),
    (lambda: swiss_round(four_players()[:2], [], [], 3), "cannot fill a table of 3"),
    (lambda: standings([Entry("a", 1), Entry("a", 2)], []), "entered twice"),
    (lambda: standings(four_players(), [Result(("a", "z"), (1, 2))]), "not entered"),
    (lambda: Result(("a", "b"), (1,)), "2 players but 1 places"),
    (lambda: Result(("a", "a"), (1, 2)), "different players"),
    (lambda: Result(("a", "b"), (1, 3)), "between 1 and 2"),
    (lambda: Entry("a", float("nan")), "finite"),
    (lambda: arena_tables([Waiting("a", 1), Waiting("a", 1)], 2), "free twice"),
])
def test_bad_input_is_a_value_error_that_names_it(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
