"""P10: the ten solo challenges checked at the end and reported with the neighbours' results,
and the 1000 club across a player's challenge games."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.view import terminal_text
from meeple.games.pergola import CHALLENGES, challenge_report, thousand_club
from meeple.games.pergola.rules import BOTTOM, LARGE, SMALL, Garden, PergolaState
from meeple.games.pergola.solo import challenge_met
from tests.games.pergola.helpers import start


def _ladybugs(g: Garden, ok: bool) -> None:
    g.mag[:3] = [1, 2, 2]
    g.lady[:3] = [1, 1, 1] if ok else [1, 2, 0]


def _lanterns(g: Garden, ok: bool) -> None:
    g.lanterns_used = 4 if ok else 3
    g.lanterns = [0, 0, 0, 2]  # unused lanterns do not count


def _four_each(g: Garden, ok: bool) -> None:
    g.bfly_fly, g.lady_fly, g.bees_fly = 4, 4, 4 if ok else 3


def _cascade(g: Garden, ok: bool) -> None:
    g.drops = [BOTTOM, 0]
    g.bonuses = ["dragonflies"]
    g.df_medium = 5 if ok else 4


def _pot(g: Garden, ok: bool) -> None:
    g.pots = ["leaves"]
    g.leaves = list(range(10 if ok else 9))  # 5 or 4 points


def _full_flowers(g: Garden, ok: bool) -> None:
    g.cups[:3] = [SMALL, LARGE, LARGE]
    g.cup_bees[:3] = [1, 2, 2 if ok else 1]
    g.flowers = [3, 2]


def _butterflies(g: Garden, ok: bool) -> None:
    g.holly = [5, 4, 0]
    g.bfly[3] = 1
    g.bfly[4] = 1 if ok else 0
    g.bfly[2] = 1


def _leaves(g: Garden, ok: bool) -> None:
    g.leaves = [0, 6, 12, 18, 24] if ok else [0, 6, 12, 18, 19]


def _dragonflies(g: Garden, ok: bool) -> None:
    g.df_small, g.df_medium, g.df_large = 2, 1, 1 if ok else 0


def _free(g: Garden, ok: bool) -> None:
    pass


BUILD: dict[int, Callable[[Garden, bool], None]] = {
    1: _ladybugs, 2: _lanterns, 3: _four_each, 4: _cascade, 5: _pot, 6: _full_flowers,
    7: _butterflies, 8: _leaves, 9: _dragonflies, 10: _free,
}


@pytest.mark.parametrize("number", range(1, 11))
def test_p10_each_challenge_met_or_not(number: int) -> None:
    for ok in (True, False) if number != 10 else (True,):
        s = start(challenge=number)
        BUILD[number](s.garden_for_update(0), ok)
        assert challenge_met(s, number) is ok
        rep = challenge_report(s)
        ch = CHALLENGES[number - 1]
        assert rep["challenge"] == number and rep["met"] is ok
        assert (rep["przemek"], rep["golab"]) == (ch.przemek, ch.golab)
        assert rep["recorded_as"] == (number if ok else 10)
        assert rep["score"] == s.scores()[0].total


def test_printed_neighbour_results() -> None:
    assert [(c.przemek, c.golab) for c in CHALLENGES] == [
        (102, 100), (99, 103), (102, 102), (104, 105), (106, 102), (107, 103), (105, 106),
        (98, 101), (101, 101), (105, 104)]


def _finish(challenge: int, seed: int) -> PergolaState:
    s = meeple.new_game("pergola", players=1, seed=seed, challenge=challenge)
    rng = Rng(seed)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    assert isinstance(s, PergolaState)
    return s


def test_finished_solo_record_carries_the_challenge_report() -> None:
    s = _finish(8, 3)
    rec = json.loads(json.dumps(s.record()))
    assert rec["challenge"]["challenge"] == 8 and rec["challenge"]["over"] is True
    assert rec["challenge"]["score"] == rec["scores"][0]["total"]
    assert meeple.replay(rec).key() == s.key()


def _result(n: int, score: int, met: bool = True) -> dict[str, Any]:
    return {"challenge": n, "score": score, "met": met, "recorded_as": n if met else 10}


def test_thousand_club_member() -> None:
    res = [_result(n, 100 + n) for n in range(1, 11)]
    club = thousand_club(res)
    assert club["all_challenges"] and club["member"] and club["total"] == 1055


def test_thousand_club_needs_every_challenge_and_1000_points() -> None:
    res = [_result(n, 100) for n in range(1, 10)]
    res.append(_result(3, 120, met=False))  # a failed challenge goes to the Free game space
    club = thousand_club(res)
    assert club["all_challenges"] and club["best"][10] == 120 and club["member"]
    low = thousand_club([_result(n, 99) for n in range(1, 11)])
    assert low["all_challenges"] and not low["member"] and low["total"] == 990
    missing = thousand_club([_result(n, 150) for n in range(1, 10)])
    assert missing["missing"] == [10] and not missing["member"]


def test_thousand_club_from_records_best_score_per_challenge() -> None:
    recs = [_finish(n, n).record() for n in (1, 1, 10)]
    club = thousand_club(recs)
    assert not club["member"]
    spaces = {r["challenge"]["recorded_as"] for r in recs}
    assert set(club["best"]) == spaces


# ---------------------------------------------------------------- the challenge on screen (P10)


def _plain(markup: str) -> str:
    from rich.text import Text

    return Text.from_markup(markup).plain


def _finished_with_lanterns(used: int) -> PergolaState:
    s = _finish(2, 5)
    s.seats = ["you"]
    s.garden_for_update(0).lanterns_used = used
    return s


def test_p10_failed_challenge_says_not_met_with_the_neighbours_scores_and_no_winner() -> None:
    s = _finished_with_lanterns(0)
    score = s.scores()[0].total
    screen = _plain(terminal_text(s, 0, 0))
    assert "challenge 2 not met: 0 of 4 lanterns used" in screen
    assert f"score {score}, recorded in the Free game space (challenge 10)" in screen
    assert "printed neighbours at challenge 2: Przemek 99, Gołąb 103" in screen
    assert "printed neighbours at the Free game: Przemek 105, Gołąb 104" in screen
    assert "Winner" not in screen and "wins" not in screen and "met so far" not in screen


def test_p10_met_challenge_says_met_and_compares_with_its_neighbours() -> None:
    s = _finished_with_lanterns(4)
    score = s.scores()[0].total
    screen = _plain(terminal_text(s, 0, 0))
    assert "challenge 2 met: 4 of 4 lanterns used" in screen
    assert f"score {score}, recorded at challenge 2" in screen
    assert "printed neighbours at challenge 2: Przemek 99, Gołąb 103" in screen
    assert "at the Free game" not in screen and "Winner" not in screen
    verdict = "better than both" if score > 103 else "below both" if score < 99 else ""
    assert verdict in screen


def test_p10_during_the_game_the_challenge_and_its_progress_are_shown() -> None:
    s = start(challenge=2)
    s.garden_for_update(0).lanterns_used = 1
    screen = _plain(terminal_text(s, 0, 0))
    assert "Challenge 2 (solo): Use 4 lanterns (use at least 4 lanterns during the game)" in screen
    assert "so far: 1 of 4 lanterns used (0 unused) (not met yet)" in screen
    assert "Przemek 99, Gołąb 103" in screen
    s.garden_for_update(0).lanterns_used = 4
    assert "(met so far)" in _plain(terminal_text(s, 0, 0))


@pytest.mark.parametrize("number", range(1, 11))
def test_p10_progress_in_words_for_every_challenge(number: int) -> None:
    from meeple.games.pergola.solo import challenge_progress

    for ok in (True, False):
        s = start(challenge=number)
        BUILD[number](s.garden_for_update(0), ok)
        text = challenge_progress(s)
        assert (text and " of " in text) or number in (4, 5, 10)
        if number in (1, 2, 6, 8, 9) and ok:
            need = {1: "3 of 3", 2: "4 of 4", 6: "4 of 4", 8: "5 of 5", 9: "4 of 4"}[number]
            assert text.startswith(need), text


def test_neighbours_comparison_words() -> None:
    from meeple.games.pergola.words import _against

    assert _against(110, 104, 105) == "better than both"
    assert _against(90, 104, 105) == "below both"
    assert _against(104, 104, 105) == "level with Przemek"
    assert _against(105, 104, 105) == "better than Przemek, level with Gołąb"
    assert _against(101, 101, 101) == "level with Przemek and Gołąb"
