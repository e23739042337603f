"""The Takenokolor evaluation: exact score, ranking of positions, game end, determinism, and
greedy with it against random (behaviour, not timing)."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
import meeple.games.takenokolor.evaluation as ev
from meeple.bots.evaluation import evaluation_for
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.games.takenokolor.rules import TakenokolorState
from meeple.sim.runner import play_game

SHEETS = ("2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon")
evaluate = ev.takenokolor_evaluation


def _new(sheet: str, players: int = 2, seed: int = 0) -> TakenokolorState:
    s = meeple.new_game("takenokolor", players=players, seed=seed, sheet=sheet)
    assert isinstance(s, TakenokolorState)
    return s


def _paint(s: TakenokolorState, seat: int, *ids: str) -> None:
    """Set-up only: colour items for ``seat`` through the engine's colouring step (order rules,
    ladybugs, races and the lock-out apply; free colourings are dropped)."""
    for iid in ids:
        i = s.cs.index[iid]
        assert s.avail[seat] >> i & 1, f"{iid} is not open for seat {seat}"
        s._colour(seat, i, 0)
        s.pending.clear()


def _random_states(sheet: str, players: int, seed: int) -> list[TakenokolorState]:
    s = _new(sheet, players, seed)
    rng = Rng(seed)
    out = []
    while s.to_move is not None:
        if s.to_move == CHANCE:
            s.sample_chance(rng)
            continue
        out.append(s.clone())
        s.play(rng.choice(s.legal_moves()), check=False)
    out.append(s)
    return out


def test_registered() -> None:
    assert evaluation_for("takenokolor") is evaluate


@pytest.mark.parametrize("sheet", SHEETS)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_score_matches_the_pad(sheet: str, players: int) -> None:
    model = ev._model(_new(sheet).cs)
    for seed in range(3):
        for st in _random_states(sheet, players, seed)[::5]:
            totals = [x.total for x in st.scores()]
            for p in range(players):
                assert model.score(st, p) == totals[p]


@pytest.mark.parametrize("sheet", SHEETS)
def test_equals_the_score_at_the_end_and_is_deterministic(sheet: str) -> None:
    end = _random_states(sheet, 3, 11)[-1]
    assert end.is_over
    for p in range(3):
        assert evaluate(end, p) == end.scores()[p].total
    mid = _random_states(sheet, 3, 12)[20]
    assert [evaluate(mid, p) for p in range(3)] == [evaluate(mid.clone(), p) for p in range(3)]


def test_final_round_is_the_score_and_the_lead() -> None:
    """Once a seat has its third ladybug the game ends with the round: no credit for goals any
    more, only the score and (``end_weight``) the lead over the best other seat."""
    s = _new("2-pandas")
    _paint(s, 1, "b1.1", "b1.2", "b5.1", "b5.2", "b3.1", "b3.2", "b3.3")
    _paint(s, 0, "s1", "s2", "s3", "b2.1")
    assert s.ladybugs[1].bit_count() == 3 and not s.is_over
    mine, theirs = (x.total for x in s.scores())
    assert evaluate(s, 0) == mine + ev.Params().end_weight * (mine - theirs)
    assert ev.make_evaluation(ev.Params(end_weight=0.0))(s, 0) == mine


def test_progress_on_a_pond_counts() -> None:
    """3 pandas: two of the three pond sections coloured is worth more than none (same score)."""
    a, b = _new("3-pandas"), _new("3-pandas")
    _paint(a, 0, "po1", "po2")
    assert a.scores()[0].total == b.scores()[0].total
    assert evaluate(a, 0) > evaluate(b, 0)


def test_a_locked_out_sun_is_worth_nothing_more() -> None:
    """T6: once the other seat completes the sun, the seat's own rays are dead."""
    open_, locked = _new("3-pandas"), _new("3-pandas")
    for s in (open_, locked):
        _paint(s, 0, "s1", "s2")
    _paint(locked, 1, "s1", "s2", "s3", "s4")
    gain_open = evaluate(open_, 0) - open_.scores()[0].total
    gain_locked = evaluate(locked, 0) - locked.scores()[0].total
    assert gain_open > gain_locked


def test_taller_bamboo_progress_is_worth_more() -> None:
    """2 pandas: of two bamboos of four sections, the bottom of the one with leaves 2, 3, 4 above
    beats the bottom of the one with 2, 2, 3 above (both give 1 point now)."""
    tall, short = _new("2-pandas"), _new("2-pandas")
    _paint(tall, 0, "b2.1")
    _paint(short, 0, "b4.1")
    assert tall.scores()[0].total == short.scores()[0].total
    assert evaluate(tall, 0) > evaluate(short, 0)


def test_first_player_lantern_race() -> None:
    """River sheet: half a lantern is worth more while no one has completed that lantern."""
    free, taken = _new("4-pandas-river"), _new("4-pandas-river")
    for s in (free, taken):
        _paint(s, 0, "l1t")
    _paint(taken, 1, "l1t", "l1b")
    assert evaluate(free, 0) > evaluate(taken, 0)


def test_greedy_with_it_beats_random() -> None:
    ev_bot = "greedy"
    share = 0.0
    games = 0
    for sheet in SHEETS:
        for seed in range(3):
            for seat in range(2):
                bots = ["random", "random"]
                bots[seat] = ev_bot
                rec: dict[str, Any] = play_game("takenokolor", {"sheet": sheet}, bots, 100 + seed)
                if seat in rec["winners"]:
                    share += 1 / len(rec["winners"])
                games += 1
    assert share / games >= 0.75


def test_taking_the_marker_the_next_seat_needs() -> None:
    """The markers left after a turn are a shared race: with equal points for the seat, the
    evaluation prefers taking the green marker that would give the next seat its 3-point section
    (b2.3, green circle)."""
    s = _new("2-pandas")
    _paint(s, 1, "b2.1", "b2.2")
    for colour in "BYPG":
        s.play(f"roll {colour} circle")
    assert s.to_move == 0
    values = {" ".join(map(str, moves)): evaluate(after, 0) for moves, after in s.whole_turns()}
    best = max(values, key=lambda k: values[k])
    assert best == "take G colour b1.1"
    no_deny = ev.make_evaluation(ev.Params(deny=0.0))
    after = {" ".join(map(str, m)): a for m, a in s.whole_turns()}
    took_g = no_deny(after["take G colour b1.1"], 0) - evaluate(after["take G colour b1.1"], 0)
    left_g = no_deny(after["take B colour b7.1"], 0) - evaluate(after["take B colour b7.1"], 0)
    assert left_g > took_g > 0


@pytest.mark.parametrize("sheet", SHEETS)
def test_the_memos_change_no_value(sheet: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds 11-12: the memos of a seat's colourings left per area, its ladybug race, its
    race costs, the sheet part of its score, its own credit and another seat's best gain from
    the markers left (``_Model.lefts``, ``race_colourings``, ``race_costs``, ``sheet_score``,
    ``credit_memos``, ``denial_memos``) give exactly the values computed afresh
    (``MEMO_SIZE = 0``), at every seat of every position of random 3- and 4-seat games, and a
    full memo is cleared rather than grown past its size."""
    states = [st for players in (3, 4) for st in _random_states(sheet, players, 21)]
    monkeypatch.setattr(ev, "MEMO_SIZE", 0)
    ev._model.clear()
    fresh = [[evaluate(st, p) for p in range(st.players)] for st in states]
    model = ev._model(states[0].cs)
    assert not any(_memos(model))
    monkeypatch.setattr(ev, "MEMO_SIZE", 7)
    ev._model.clear()
    for _ in range(2):  # the second pass reads what the first remembered
        assert [[evaluate(st, p) for p in range(st.players)] for st in states] == fresh
    model = ev._model(states[0].cs)
    sizes = [len(m) for m in _memos(model)]
    # every memo was used (the sheets without races or denial aside) and none grew past 7
    assert all(0 < n <= 7 for n in sizes[:2]) and all(n <= 7 for n in sizes)
    assert model._sheet_score_memo and any(model.credit_memos.values())
    monkeypatch.setattr(ev, "MEMO_SIZE", 1 << 14)
    ev._model.clear()
    for _ in range(2):
        assert [[evaluate(st, p) for p in range(st.players)] for st in states] == fresh
    model = ev._model(states[0].cs)
    assert len(model._lefts_memo) > 7


def _memos(model: ev._Model) -> list[dict[object, object]]:
    """Every memo of a sheet model, the per-evaluation ones included."""
    return [model._lefts_memo, model._race_memo, model._race_costs_memo,
            model._sheet_score_memo, *model.credit_memos.values(),
            *model.denial_memos.values()]


@pytest.mark.parametrize("sheet", ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"])
def test_the_evaluation_scores_with_the_game_s_own_score_pad(sheet: str) -> None:
    """The evaluation's score is the game's scoring code (``scoring.pad_rows``), and its totals
    equal the score pad's rows summed, in random positions of every sheet and seat count."""
    from meeple.bots import make_bot
    from meeple.games.takenokolor import scoring

    for players in (2, 3):
        state = meeple.new_game("takenokolor", players=players, seed=7, sheet=sheet)
        model = ev._model(state.cs)
        assert model.pad is scoring.pad_rows(state.cs)
        bot = make_bot("random", seed=players)
        for _ in range(400):  # bounded: a game is far shorter
            if state.to_move is None:
                break
            if state.to_move == CHANCE:
                state.sample_chance()
                continue
            state.play(bot.choose(state.seen_by(state.to_move), state.legal_moves()))
            pads = scoring.pad(state.cs, state.coloured, state.ladybugs, state.first, state.later)
            for p in range(players):
                total = model.pad.total(state.coloured, state.ladybugs[p], state.first[p],
                                        state.later[p], p)
                assert total == sum(pads[p].values()) == model.score(state, p)
                assert total == state.scores()[p].total
