"""The bots' rating seeds (issue 53): ``meeple calibrate-bots``'s round robin, its rating (as
OpenSkill's own ``rate`` gives it, game after game), the seed file it writes and the one
shipped; finishing places as the engine ranks them; the words for a player's level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

import meeple
from meeple.bots.difficulty import DIFFICULTIES
from meeple.bots.ratings import SEED_FILE, level, seed_for, seeded, seeds, shown
from meeple.cli import app
from meeple.core.state import places_by_total
from meeple.sim.calibrate import SIGMA_FLOOR, Pairing, rate, schedule, tally
from meeple.sim.runner import play_game


def test_places_share_equal_totals_and_the_engine_gives_them_at_the_end() -> None:
    assert places_by_total([3, 7, 3]) == [2, 1, 2]
    assert places_by_total([5, 5]) == [1, 1]
    assert places_by_total([1, 2, 3, 4]) == [4, 3, 2, 1]
    state = meeple.new_game("reefs", players=2, seed=3)
    assert state.places() == []  # not over
    over = meeple.replay(play_game("reefs", {}, ("random", "random"), 1))
    assert over.places() == places_by_total([s.total for s in over.scores()])


def test_the_schedule_plays_each_pair_both_ways_on_the_two_seat_variants() -> None:
    games = schedule("gardens", 4, seed=10)
    assert len(games) == 6 * 4  # six pairs of four difficulties, two seeds each played twice
    assert {g.seed for g in games} == {10, 11}
    assert {g.variant["level"] for g in games} == {1, 2}
    for a, b in (("easy", "medium"), ("easy", "hard"), ("medium", "hard"), ("easy", "expert"),
                 ("medium", "expert"), ("hard", "expert")):
        assert sum(g.bots == (a, b) for g in games) == 2
        assert sum(g.bots == (b, a) for g in games) == 2
    assert len(schedule("gardens", 3)) == len(schedule("gardens", 4))  # rounded up to even
    with pytest.raises(meeple.MeepleError, match="at least 2"):
        schedule("gardens", 1)


def test_the_seeds_are_openskills_rate_of_the_games_in_order() -> None:
    pairings = [Pairing("gardens", {}, ("easy", "hard"), 0),
                Pairing("gardens", {}, ("hard", "easy"), 0),
                Pairing("gardens", {}, ("medium", "hard"), 1)]
    places = [[2, 1], [1, 1], [1, 2]]
    m = PlackettLuce()
    now = {d: m.rating() for d in ("easy", "medium", "hard", "expert")}
    for p, got in zip(pairings, places, strict=True):
        new = m.rate([[now[b]] for b in p.bots], ranks=got)
        for b, team in zip(p.bots, new, strict=True):
            now[b] = team[0]
    assert rate(pairings, places) == {d: (r.mu, r.sigma) for d, r in now.items()}
    assert tally(pairings, places) == {
        "easy-hard": {"games": 2, "easy": 0, "hard": 1, "ties": 1},
        "medium-hard": {"games": 1, "medium": 1, "hard": 0, "ties": 0}}


def test_calibrate_bots_writes_a_seed_file_the_server_reads(tmp_path: Path) -> None:
    # by default every difficulty plays every other: six pairs, each seed both ways
    plan = CliRunner().invoke(app, ["calibrate-bots", "-g", "reefs", "-n", "2", "--dry-run"])
    assert plan.exit_code == 0 and "reefs: 12 games" in plan.output, plan.output
    # the file, from a round robin of two of them (--bot): expert and the weakest
    out = tmp_path / "seeds.json"
    got = CliRunner().invoke(app, ["calibrate-bots", "-g", "reefs", "-n", "2", "-w", "1",
                                   "--bot", "expert", "--bot", "easy", "--out", str(out)])
    assert got.exit_code == 0, got.output
    data = json.loads(out.read_text())
    assert data["how"].endswith("--workers 1 --bot easy --bot expert")  # in the ladder's order
    entry = data["games"]["reefs"]
    assert entry["games"] == 2 and entry["results"]["easy-expert"]["games"] == 2
    read = seeds(out)
    assert set(read["reefs"]) == {"easy", "expert"}
    for d, r in entry["bots"].items():
        assert r["sigma"] >= SIGMA_FLOOR
        assert read["reefs"][d] == (r["mu"], r["sigma"])
        assert r["rating"] == shown(r["mu"], r["sigma"])
    for bots, said in ((["hard"], "at least 2 difficulties"),
                       (["hard", "hardest"], "unknown difficulty 'hardest'; difficulties: easy"),
                       (["hard", "hard"], "named once")):
        bad = CliRunner().invoke(app, ["calibrate-bots", "-g", "reefs", "--dry-run",
                                       *[a for b in bots for a in ("--bot", b)]])
        assert bad.exit_code == 2 and said in bad.output, bad.output
    bad = CliRunner().invoke(app, ["calibrate-bots", "-g", "chess", "--dry-run"])
    assert bad.exit_code == 2 and "chess" in bad.output
    # a file that cannot be written is refused before any game is played
    bad = CliRunner().invoke(app, ["calibrate-bots", "-g", "reefs", "--out",
                                   str(tmp_path / "no" / "seeds.json")])
    assert bad.exit_code == 2 and "does not exist" in bad.output


def test_the_shipped_seeds_cover_every_game_and_difficulty() -> None:
    data = json.loads(SEED_FILE.read_text())
    assert data["format"] == "meeple-bot-ratings/1"
    for g in meeple.games():
        bots = data["games"][g.name]["bots"]
        # expert gets a seed from a calibration run that includes it, never a made-up one;
        # until then it is off the game's ladder (docs/ratings.md)
        assert {"easy", "medium", "hard"} <= set(bots) <= set(DIFFICULTIES)
        for d, r in bots.items():
            assert seed_for(g.name, d) == (r["mu"], r["sigma"]) and seeded(g.name, d)
        if "expert" not in bots:
            assert not seeded(g.name, "expert")
        # the seeds order the bots as their results do: easy is the weakest everywhere
        assert bots["easy"]["mu"] < bots["medium"]["mu"]
        assert bots["easy"]["mu"] < bots["hard"]["mu"]


def test_a_players_level_in_words() -> None:
    bots = {"easy": 1500, "medium": 1900, "hard": 2100}
    assert level(1520, bots) == "at about easy's level"
    assert level(1950, bots) == "at about medium's level"
    assert level(2300, bots) == "above hard's level"
    assert level(1300, bots) == "below easy's level"
    assert level(1500, {}) is None
