"""Places with forfeits (issue 58), as the store rates them, on SQLite and PostgreSQL: a
Hypothesis property over every mix of seats that finished, conceded, left, timed out or whose
account was deleted, at tables of 2, 3 and 4 seats with the named bots, some abandoned:

- the places a rated game counts are a ranking (a place is one more than the seats above);
- every seat that conceded or left is below every seat that played on, the earlier forfeit
  lower; the seats that played on are placed by total, equal totals sharing (A4);
- a timed-out seat is no forfeit; a deleted account's seat is not rated; an abandoned table
  is never rated;
- every rating moves exactly as OpenSkill's own ``PlackettLuce().rate`` on those places;
- a profile never counts a forfeiting seat's game as a win.

And the issue's repro at the store, with its scores: one concedes, the other then leaves, the
conceded seat outscores the other 31 to 16; the one who conceded first is last."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import select
from typer.testing import CliRunner

from meeple.bots.ratings import bot_subject, seed_for
from meeple.cli import app as cli_app
from meeple.core.state import places_by_total
from meeple.server.features.accounts.store import Accounts
from meeple.server.features.profiles.routes import stats
from meeple.store import Store
from meeple.store.models import HUMAN, MOVE, AccountRow, RatingHistoryRow, RatingRow
from meeple.store.store import Entry, SeatSpec

GAME = "gardens"
FATES = ("finished", "conceded", "left", "timed_out", "deleted")
FORFEITS = ("conceded", "left")
_names = itertools.count()


@pytest.fixture(scope="module")
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    s.migrate()
    yield s
    s.close()


@dataclass(frozen=True)
class Case:
    kinds: tuple[str, ...]  # "person" or a bot difficulty, per seat
    fates: tuple[str, ...]  # per seat (a bot's is "finished")
    order: tuple[int, ...]  # the seats in the order their fates happen
    totals: tuple[int, ...]
    abandoned: bool


@st.composite
def cases(draw: st.DrawFn) -> Case:
    n = draw(st.integers(2, 4))
    bots = draw(st.lists(st.sampled_from(["easy", "medium", "hard"]), max_size=n - 1,
                         unique=True))
    kinds = ["person"] * (n - len(bots)) + bots
    kinds = list(draw(st.permutations(kinds)))
    fates = tuple(draw(st.sampled_from(FATES)) if k == "person" else "finished" for k in kinds)
    order = tuple(draw(st.permutations(range(n))))
    totals = tuple(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    return Case(tuple(kinds), fates, order, totals, draw(st.booleans()))


def new_account(store: Store) -> str:
    name = f"fp{os.getpid() % 10_000}x{next(_names)}"
    return Accounts(store).create(name, name, name.upper(), "not-a-hash", {}).id


def seated(store: Store, kinds: tuple[str, ...]) -> tuple[str, dict[int, str], dict[int, str]]:
    """A running rated table of these seats, each person's seat taken by a new account, and
    one move made by every person (so no forfeit aborts the rating): the table, the accounts
    by seat and the seats' secrets."""
    specs = [SeatSpec(kind=HUMAN) if k == "person" else SeatSpec(kind="bot", bot=k)
             for k in kinds]
    people = [i for i, k in enumerate(kinds) if k == "person"]
    accounts = {i: new_account(store) for i in people}
    first = people[0]
    taken = store.create_table(GAME, {}, len(kinds), specs, rated=True,
                               join_as=f"p{first}", account=accounts[first])
    table = taken.table_id
    secrets = {first: str(taken.secret)}
    for i in people[1:]:
        secrets[i] = str(store.join(table, i, f"p{i}", account=accounts[i]).secret)
    t = store.table(table)
    assert t.status == "running" and t.rated
    store.append(table, t.version, [Entry(MOVE, i, "a move") for i in people])
    return table, accounts, secrets


def rating_of(store: Store, subject: str) -> tuple[float, float]:
    with store.session() as s:
        row = s.execute(select(RatingRow.mu, RatingRow.sigma).where(
            RatingRow.subject == subject, RatingRow.game == GAME)).first()
    if row is not None:
        return float(row.mu), float(row.sigma)
    if subject.startswith("bot:"):
        return seed_for(GAME, subject[4:])
    m = PlackettLuce()
    return float(m.mu), float(m.sigma)


def expected_places(totals: list[int], forfeit_order: list[int | None]) -> list[int]:
    """The places, counted the long way: tiers from the top (each distinct total of the seats
    that played on, highest first; then each forfeit, the latest first), a seat's place one
    more than the seats in the tiers above it."""
    stayed = sorted({t for t, f in zip(totals, forfeit_order, strict=True) if f is None},
                    reverse=True)
    gone = sorted({f for f in forfeit_order if f is not None}, reverse=True)
    tiers: list[list[int]] = [[i for i, (t, f) in enumerate(zip(totals, forfeit_order,
                                                                 strict=True))
                               if f is None and t == total] for total in stayed]
    tiers += [[i for i, f in enumerate(forfeit_order) if f == order] for order in gone]
    out = [0] * len(totals)
    above = 0
    for tier in tiers:
        for i in tier:
            out[i] = above + 1
        above += len(tier)
    return out


def check_ranking(places: list[int], totals: list[int], order: list[int | None]) -> None:
    for p in places:
        assert p == 1 + sum(1 for q in places if q < p)
    for i, j in itertools.permutations(range(len(places)), 2):
        if order[i] is None and order[j] is not None:
            assert places[i] < places[j]  # a forfeit below every seat that played on
        if order[i] is not None and order[j] is not None and order[i] < order[j]:
            assert places[i] > places[j]  # the earlier forfeit lower
        if order[i] is None and order[j] is None:
            assert (places[i] == places[j]) == (totals[i] == totals[j])  # A4


def play(store: Store, case: Case) -> None:
    table, accounts, _ = seated(store, case.kinds)
    forfeits: dict[int, int] = {}
    for seat in case.order:
        fate = case.fates[seat]
        if fate == "conceded":
            store.concede(table, seat)
        elif fate == "left":
            store.leave(table, seat)
        elif fate == "timed_out":  # a clock's stand-in plays for it: no forfeit
            store.set_absent(table, seat, True)
        elif fate == "deleted":
            Accounts(store).delete(accounts.pop(seat))
        if fate in FORFEITS:
            forfeits[seat] = len(forfeits) + 1
    n = len(case.kinds)
    order = [forfeits.get(i) for i in range(n)]
    assert [s.forfeit_order for s in store.table(table).seats] == order
    subjects = {i: accounts[i] if k == "person" else bot_subject(k)
                for i, k in enumerate(case.kinds) if k != "person" or i in accounts}
    priors = {i: rating_of(store, sub) for i, sub in subjects.items()}
    result = [{"total": t, "breakdown": {}} for t in case.totals]
    if case.abandoned:
        store.finish(table, None)
    else:
        store.finish(table, result, places_by_total(list(case.totals)))
    with store.session() as s:
        lines = {str(r.subject): r for r in s.scalars(
            select(RatingHistoryRow).where(RatingHistoryRow.table_id == table))}
    if case.abandoned or len(subjects) < 2:  # never rated
        assert lines == {}
        assert {i: rating_of(store, sub) for i, sub in subjects.items()} == priors
        return
    # the places the rating counted, among the rated seats
    seats = sorted(subjects)
    want = expected_places([case.totals[i] for i in seats], [order[i] for i in seats])
    got = [int(lines[subjects[i]].place) for i in seats]
    assert got == want, (case, got, want)
    check_ranking(got, [case.totals[i] for i in seats], [order[i] for i in seats])
    # every rating as OpenSkill's own rate on those places
    m = PlackettLuce()
    rated = m.rate([[m.rating(mu=priors[i][0], sigma=priors[i][1])] for i in seats],
                   ranks=[float(p) for p in want])
    for i, team in zip(seats, rated, strict=True):
        mu, sigma = rating_of(store, subjects[i])
        assert mu == pytest.approx(float(team[0].mu), rel=1e-12, abs=1e-12)
        assert sigma == pytest.approx(float(team[0].sigma), rel=1e-12, abs=1e-12)
    # the table's places (chips, result line, profile) put the same seats first
    table_places = store.table(table).places()
    check_ranking(table_places, list(case.totals), order)
    assert table_places == expected_places(list(case.totals), order)
    # no profile counts a forfeiting seat's game as a win
    for seat, account in accounts.items():
        played = [p for p in Accounts(store).played_seats(account, 50) if p.table_id == table]
        assert len(played) == 1 and played[0].places() == table_places
        _, games, wins = stats(played)
        assert games == 1
        assert wins == (1 if table_places[seat] == 1 and order[seat] is None else 0)


@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=cases())
def test_places_with_forfeits_rate_as_openskill_over_every_mix(store: Store, case: Case
                                                                ) -> None:
    play(store, case)


def test_the_repro_a_conceder_who_outscored_is_still_last(store: Store) -> None:
    """Two seats of rated Gardens: seat 1 concedes, seat 0 then leaves; the bots finish and
    seat 1 outscores seat 0 31 to 16. Seat 0 is first and gains; seat 1 is last. Neither
    profile counts a win: both gave the game up."""
    table, accounts, _ = seated(store, ("person", "person"))
    ann, bob = accounts[0], accounts[1]
    priors = {a: rating_of(store, a) for a in (ann, bob)}
    store.concede(table, 1)
    store.leave(table, 0)
    store.finish(table, [{"total": 16, "breakdown": {}}, {"total": 31, "breakdown": {}}],
                 [2, 1])
    assert store.table(table).places() == [1, 2]
    with store.session() as s:
        place = {str(r.subject): int(r.place) for r in s.scalars(
            select(RatingHistoryRow).where(RatingHistoryRow.table_id == table))}
    assert place == {ann: 1, bob: 2}
    assert rating_of(store, ann)[0] > priors[ann][0] > rating_of(store, bob)[0]
    assert stats(Accounts(store).played_seats(bob, 10))[2] == 0
    assert stats(Accounts(store).played_seats(ann, 10))[2] == 0


def test_a_forfeit_before_every_person_moved_leaves_the_game_unrated(store: Store) -> None:
    """Rating farming (probe 7): a rated game given up before each person made a move is
    no longer rated; nothing moves when it ends."""
    specs = [SeatSpec(kind=HUMAN), SeatSpec(kind=HUMAN)]
    ann, bob = new_account(store), new_account(store)
    taken = store.create_table(GAME, {}, 2, specs, rated=True, join_as="a", account=ann)
    store.join(taken.table_id, 1, "b", account=bob)
    t = store.table(taken.table_id)
    store.append(t.id, t.version, [Entry(MOVE, 0, "a move")])  # only Ann moved
    store.concede(t.id, 1)
    assert not store.table(t.id).rated
    store.finish(t.id, [{"total": 5, "breakdown": {}}, {"total": 9, "breakdown": {}}], [2, 1])
    with store.session() as s:
        assert not list(s.scalars(select(RatingHistoryRow)
                                  .where(RatingHistoryRow.table_id == t.id)))
    assert store.table(t.id).places() == [1, 2]  # (still below: it conceded)


def test_results_given_again_and_again_are_listed_for_the_moderators(store: Store,
                                                                      db_url: str) -> None:
    """Rating farming (probe 7) that gets past the first-move rule: one account concedes to
    the same other account three rated games running (after a move each); ``meeple reports
    --ratings`` lists the pair with the three tables; two such games are not listed."""
    taker, giver = new_account(store), new_account(store)
    made = []
    for k in range(3):
        specs = [SeatSpec(kind=HUMAN), SeatSpec(kind=HUMAN)]
        taken = store.create_table(GAME, {}, 2, specs, rated=True, join_as="t", account=taker)
        store.join(taken.table_id, 1, "g", account=giver)
        t = store.table(taken.table_id)
        store.append(t.id, t.version, [Entry(MOVE, 0, "a move"), Entry(MOVE, 1, "a move")])
        store.concede(t.id, 1)
        assert store.table(t.id).rated  # each moved: still rated
        store.finish(t.id, [{"total": 1, "breakdown": {}}, {"total": 40, "breakdown": {}}],
                     [2, 1])
        made.append(t.id)
        with store.session() as s:
            names = {str(r.subject) for r in s.scalars(select(RatingHistoryRow).where(
                RatingHistoryRow.table_id == t.id))}
        assert names == {taker, giver}
        out = CliRunner().invoke(cli_app, ["reports", "--ratings", "--json",
                                           "--database-url", db_url])
        assert out.exit_code == 0, out.output
        listed = [f for f in json.loads(out.output)
                  if f["tables"] and set(f["tables"]) <= set(made)]
        if k < 2:
            assert listed == []
        else:
            assert len(listed) == 1
            assert listed[0]["games"] == 3 and sorted(listed[0]["tables"]) == sorted(made)
            assert listed[0]["taker"] == username(store, taker)
            assert listed[0]["giver"] == username(store, giver)
    out = CliRunner().invoke(cli_app, ["reports", "--ratings", "--database-url", db_url])
    assert out.exit_code == 0 and "gave up" in out.output, out.output


def username(store: Store, account: str) -> str:
    with store.session() as s:
        return str(s.scalar(select(AccountRow.username).where(AccountRow.id == account)))
