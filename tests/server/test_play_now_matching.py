"""Who Play now seats with whom (issue 53; meeple.server.features.playnow.service.match), as a pure function:
the longest waiting first, the closest ratings within a window that widens with the wait,
anyone after a while, bots of the closest rating for someone who said so, wishes never mixed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from meeple.server.features.playnow.service import bucket_of, match
from meeple.server.features.playnow.settings import PlayNowSettings
from meeple.server.features.playnow.store import Entry, Group
from meeple.settings import Settings

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
SETTINGS = PlayNowSettings(window=100, widen=10, anyone_after=90, bots_after=20)
BOTS = {"easy": 600.0, "medium": 750.0, "hard": 900.0}


def entry(who: str, rating: float, waited: float, players: int = 2, bots: bool = False,
          game: str = "gardens", variant: dict[str, int] | None = None) -> Entry:
    variant = {"level": 1} if variant is None else variant
    since = NOW - timedelta(seconds=waited)
    return Entry(who, game, variant, players, bucket_of(game, variant, players), rating, bots,
                 "waiting", since, NOW, None, None)


def seated(groups: list[Group]) -> list[tuple[list[str], tuple[str, ...]]]:
    return [([e.account_id for e in g.entries], g.bots) for g in groups]


def bots(game: str) -> dict[str, float]:
    return BOTS


def test_the_longest_waiting_meets_the_closest_rating_within_the_window() -> None:
    waiting = [entry("a", 750, 5), entry("b", 800, 1), entry("c", 760, 2),
               entry("d", 1200, 1)]
    assert seated(match(waiting, NOW, SETTINGS, bots)) == [(["a", "c"], ())]


def test_nobody_close_enough_waits_and_the_window_widens_with_the_wait() -> None:
    far = [entry("a", 750, 1), entry("b", 950, 1)]  # 200 apart, windows of ~110
    assert match(far, NOW, SETTINGS, bots) == []
    later = [entry("a", 750, 11), entry("b", 950, 1)]  # a's window: 100 + 10 * 11 = 210
    assert seated(match(later, NOW, SETTINGS, bots)) == [(["a", "b"], ())]
    assert SETTINGS.window_after(0) == 100 and SETTINGS.window_after(10) == 200


def test_after_a_bounded_wait_anyone_of_the_same_wish_will_do() -> None:
    waiting = [entry("a", 0, 91), entry("b", 3000, 1)]
    assert seated(match(waiting, NOW, SETTINGS, bots)) == [(["a", "b"], ())]


def test_different_wishes_never_sit_together() -> None:
    waiting = [entry("a", 750, 200), entry("b", 750, 200, variant={"level": 2}),
               entry("c", 750, 200, players=3), entry("d", 750, 200, game="reefs")]
    assert match(waiting, NOW, SETTINGS, bots) == []


def test_bots_fill_the_table_of_someone_who_said_so_after_a_while() -> None:
    # not yet: 10 s waited
    assert match([entry("a", 880, 10, bots=True)], NOW, SETTINGS, bots) == []
    # 20 s: the closest bot (hard, 900)
    assert seated(match([entry("a", 880, 20, bots=True)], NOW, SETTINGS, bots)) == [
        (["a"], ("hard",))]
    # three seats: the person within the window comes, a bot fills the third seat
    waiting = [entry("a", 700, 25, players=3, bots=True), entry("b", 720, 1, players=3)]
    assert seated(match(waiting, NOW, SETTINGS, bots)) == [(["a", "b"], ("medium",))]
    # no bots offered for the game: waits on
    assert match([entry("a", 880, 30, bots=True)], NOW, SETTINGS, lambda g: {}) == []


def test_several_tables_at_once_and_each_person_once() -> None:
    waiting = [entry(f"p{i}", 700 + i, 30 - i) for i in range(7)]
    groups = seated(match(waiting, NOW, SETTINGS, bots))
    people = [p for g, _ in groups for p in g]
    assert len(groups) == 3 and len(people) == len(set(people)) == 6


@pytest.mark.parametrize("raw", ["0", "-1", "x", "nan", "inf"])
def test_settings_refuse_what_is_not_a_positive_number(raw: str) -> None:
    with pytest.raises(ValueError, match="MEEPLE_PLAY_NOW_WINDOW"):
        Settings.from_env({"MEEPLE_PLAY_NOW_WINDOW": raw})
