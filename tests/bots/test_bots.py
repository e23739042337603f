"""Bots: specs, greedy (best immediate whole turn, planned turns), IS-MCTS (determinised from
the view, budgets, determinism). Tiny budgets: behaviour, not strength or speed."""

from __future__ import annotations

import math
from typing import Any

import pytest

import meeple
from meeple.bots import BOTS, make_bot
from meeple.bots.evaluation import evaluate, evaluation_for, register_evaluation, score_total
from meeple.bots.greedy import GreedyBot
from meeple.bots.mcts import MctsBot, sheet_name
from meeple.core.errors import MeepleError
from meeple.core.state import CHANCE, State
from meeple.sim.runner import play_game, strip_timings


def _to_decision(state: State[Any]) -> State[Any]:
    while state.to_move == CHANCE:
        state.sample_chance()
    return state


def _root_edges(state: State[Any], spec: str) -> list[Any]:
    """The root of a seeded ``spec`` search at ``state``: each edge's moves, visits and reward
    for the seat to move, to compare two searches' trees."""
    seat = state.to_move
    bot = make_bot(spec, seed=3)
    bot.choose(state.seen_by(seat), state.legal_moves())
    assert isinstance(bot, MctsBot) and bot.last_root is not None
    return [(e.moves, e.n, round(e.w[seat], 9)) for e in bot.last_root.edges]


def _deep(bot: Any) -> Any:
    """``bot`` (an mcts) with a child node made after two visits of its edge instead of ten
    (``MctsBot.expand``, a fixed setting, changed on this instance only): a tree several turns
    deep within a test's few iterations."""
    assert isinstance(bot, MctsBot)
    bot.expand = 2
    return bot


def _nodes(root: Any) -> list[Any]:
    """Every node of a search tree, depth first from ``root``."""
    out, todo = [], [root]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(e.child for e in node.edges if e.child is not None)
    return out


def _presets(monkeypatch: pytest.MonkeyPatch, gardens: dict[str, Any]) -> None:
    """Give Gardens these bot presets for one test (other games keep their own)."""
    import meeple.bots.mcts as mcts_module

    original = mcts_module.bot_presets
    monkeypatch.setattr(mcts_module, "bot_presets",
                        lambda game: gardens if game == "gardens" else original(game))


def _play_turn(bot: Any, state: State[Any]) -> list[Any]:
    """Let ``bot`` play the whole turn of the seat to move; the moves it made."""
    seat, turn = state.to_move, state.turn
    made = []
    while state.to_move == seat and state.turn == turn:
        move = bot.choose(state.seen_by(seat), state.legal_moves())
        made.append(move)
        state.play(move)
    return made


def test_bot_registry_and_specs() -> None:
    assert {"random", "greedy", "mcts"} <= set(BOTS)
    bot = make_bot("mcts:iterations=7,top=3", seed=5)
    assert isinstance(bot, MctsBot) and bot.spec.iterations == 7 and bot.spec.top == 3 and bot.seed == 5
    assert make_bot("mcts:iterations=7;horizon=-1").spec.horizon == -1
    assert isinstance(make_bot("Greedy"), GreedyBot)


@pytest.mark.parametrize("spec", ["mcts:wizard=1", "mcts:iterations=0", "greedy:epsilon=2",
                                  "mcts:top=0", "nobot", "random:depth=3", "greedy:depth=3"])
def test_bad_bot_specs_are_refused_clearly(spec: str) -> None:
    with pytest.raises(MeepleError):
        make_bot(spec)


def test_default_evaluation_is_the_seat_score_total() -> None:
    state = meeple.new_game("gardens", players=2, seed=1)
    assert score_total(state, 1) == state.scores()[1].total
    assert evaluation_for("no-such-game") is score_total
    register_evaluation("test-dummy", lambda s, seat: 42.0)
    assert evaluation_for("test-dummy")(state, 0) == 42.0


def test_greedy_plays_a_whole_turn_of_best_evaluation() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=3, level=2))
    # advance a few turns so that the evaluation differs between turns
    bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
    for _ in range(4):
        _play_turn(bots[state.to_move], _to_decision(state))
    state = _to_decision(state)
    seat = state.to_move
    best = max(evaluate(after, seat) for _moves, after in state.whole_turns())
    before = state.clone()
    made = _play_turn(GreedyBot(seed=9), state)
    assert len(made) >= 2  # take a pencil, then fields (or waste): one decision at a time
    after = before.clone()
    for m in made:
        after.play(m)
    assert evaluate(after, seat) == pytest.approx(best)


def test_greedy_drops_its_plan_when_the_view_is_not_the_expected_one() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=4))
    bot = GreedyBot(seed=0)
    first = bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert bot.plan.moves  # the rest of the turn is planned
    other = _to_decision(meeple.new_game("gardens", players=2, seed=99))
    move = bot.choose(other.seen_by(other.to_move), other.legal_moves())
    assert move in other.legal_moves()
    assert first in state.legal_moves()


def test_greedy_beats_random_on_gardens() -> None:
    greedy, rand = 0.0, 0.0
    for seed in range(3):
        for order in (["greedy", "random"], ["random", "greedy"]):
            rec = play_game("gardens", {"level": 1}, order, seed)
            g = order.index("greedy")
            greedy += rec["scores"][g]["total"]
            rand += rec["scores"][1 - g]["total"]
    assert greedy > rand


def test_greedy_and_mcts_are_deterministic_for_a_seed() -> None:
    bots = ["mcts:iterations=8", "greedy"]
    a = play_game("gardens", {"level": 1}, bots, seed=2)
    b = play_game("gardens", {"level": 1}, bots, seed=2)
    assert strip_timings(a) == strip_timings(b)


def test_mcts_determinises_the_view_every_iteration(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=5, level=3))
    view = state.seen_by(state.to_move)
    calls: list[int] = []
    original = type(view).sample_hidden

    def spy(self: Any, seat: int, rng: Any) -> Any:
        calls.append(seat)
        return original(self, seat, rng)

    monkeypatch.setattr(type(view), "sample_hidden", spy)
    bot = MctsBot(seed=1, iterations=12)
    move = bot.choose(view, state.legal_moves())
    assert move in state.legal_moves()
    assert bot.last_iterations == 12
    # one determinisation per iteration (the first one is reused for the root's candidates)
    assert len(calls) == 12 and set(calls) == {state.to_move}


def test_mcts_time_budget_returns_a_legal_move() -> None:
    state = _to_decision(meeple.new_game("gardens", players=3, seed=6))
    bot = MctsBot(seed=1, iterations=0, seconds=0.05)
    made = _play_turn(bot, state)
    assert made and bot.last_iterations >= 1


def test_mcts_plays_to_the_end_with_rollouts_to_the_end() -> None:
    rec = play_game("gardens", {"level": 1}, ["mcts:iterations=4;horizon=-1;top=3", "random"], seed=8)
    assert meeple.replay(rec).is_over


@pytest.mark.parametrize("info", meeple.games(), ids=lambda i: i.name)
def test_every_registered_game_plays_turns_with_greedy_and_mcts(info: meeple.GameInfo) -> None:
    variant = dict(info.variants[0])
    seats = info.player_range(variant)
    n = 2 if 2 in seats else seats.start
    state = meeple.new_game(info.name, players=n, seed=1, **variant)
    bots = [MctsBot(seed=1, iterations=3, top=2), GreedyBot(seed=2)][:n]
    turns = 0
    while not state.is_over and turns < 6:
        if state.to_move == CHANCE:
            state.sample_chance()
            continue
        seat = state.to_move
        _play_turn(bots[seat], state)  # state.play checks every move's legality
        turns += 1
    assert turns == 6 or state.is_over


def test_eval_option_picks_the_score_total_or_the_game_evaluation() -> None:
    assert make_bot("greedy:eval=score").which == "score"
    with pytest.raises(MeepleError, match="eval must be"):
        make_bot("greedy:eval=magic")
    state = _to_decision(meeple.new_game("gardens", players=2, seed=3))
    seat = state.to_move
    before = state.clone()
    made = _play_turn(GreedyBot(seed=1, eval="score"), state)
    after = before.clone()
    for m in made:
        after.play(m)
    best = max(s.scores()[seat].total for _m, s in before.whole_turns())
    assert after.scores()[seat].total == best


def test_mcts_per_game_default_bias_and_explicit_override() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=2))
    bot = MctsBot(seed=1, iterations=2)
    bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert bot.cfg.bias == 1.0
    explicit = MctsBot(seed=1, iterations=2, bias=0.25)
    explicit.choose(state.seen_by(state.to_move), state.legal_moves())
    assert explicit.cfg.bias == 0.25


def test_mcts_greedy_rollouts_play_each_seat_s_best_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rollout=greedy``: every rollout turn is the greedy bot's whole turn (the game's
    ranked best), for ``horizon`` seat turns, and the search still returns a legal move."""
    import meeple.bots.mcts as mcts_module

    state = _to_decision(meeple.new_game("gardens", players=2, seed=4, level=2))
    calls: list[tuple[int, int]] = []
    original = mcts_module.candidate_turns

    def spy(st: Any, seat: int, top: int, *args: Any, **kwargs: Any) -> Any:
        calls.append((seat, top))
        return original(st, seat, top, *args, **kwargs)

    monkeypatch.setattr(mcts_module, "candidate_turns", spy)
    bot = MctsBot(seed=3, iterations=6, rollout="greedy", horizon=2)  # 6 < expand: no child
    move = bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    rollout_calls = [c for c in calls if c[1] == 1]
    # 6 iterations x 2 rollout turns (the opponent's, then the seat's own), none cut short here
    assert len(rollout_calls) == 12
    assert {seat for seat, _ in rollout_calls} == {0, 1}


def test_mcts_rollout_option_is_checked_and_defaults_per_game() -> None:
    with pytest.raises(MeepleError, match="rollout must be one of random, greedy"):
        make_bot("mcts:rollout=smart")
    state = _to_decision(meeple.new_game("gardens", players=3, seed=2))
    bot = MctsBot(seed=1, iterations=2)
    bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert (bot.cfg.rollout, bot.cfg.horizon) == ("random", 0)
    explicit = MctsBot(seed=1, iterations=2, rollout="greedy", horizon=1)
    explicit.choose(state.seen_by(state.to_move), state.legal_moves())
    assert (explicit.cfg.rollout, explicit.cfg.horizon) == ("greedy", 1)


def test_mcts_time_cap_covers_the_whole_decision() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=9, level=3))
    bot = MctsBot(seed=1, iterations=10**9, seconds=0.2)
    bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert 1 <= bot.last_iterations < 10**9


def test_turn_listing_past_its_deadline_raises_out_of_time() -> None:
    """A listing with a deadline already past stops at once (no partial list); a deadline far
    ahead lists exactly the turns of a listing without one."""
    import time

    from meeple.core.turns import OutOfTime, expand_turns

    state = _to_decision(meeple.new_game("pergola", players=2, seed=3))
    with pytest.raises(OutOfTime, match="whole-turn listing stopped"):
        expand_turns(state, deadline=time.perf_counter() - 1.0)
    plain = [moves for moves, _ in expand_turns(state)]
    timed = [moves for moves, _ in expand_turns(state, deadline=time.perf_counter() + 3600)]
    assert timed == plain and len(plain) > 1


def test_mcts_root_lists_single_decisions_when_its_listing_runs_out_of_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a ``seconds`` cap the root's whole-turn listing may take ROOT_LISTING_SHARE of it;
    past that the root's candidates are single decisions and the search goes on, so the move
    is still legal and the decision does not wait for thousands of whole turns."""
    import meeple.bots.mcts as mcts_module

    monkeypatch.setattr(mcts_module, "ROOT_LISTING_SHARE", -1.0)  # the listing is late at once
    state = _to_decision(meeple.new_game("pergola", players=2, seed=3))
    bot = MctsBot(seed=1, iterations=20, seconds=60)
    move = bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    root = bot.last_root
    assert root is not None and root.edges
    assert all(len(edge.moves) == 1 for edge in root.edges)
    assert {edge.moves[0] for edge in root.edges} <= set(state.legal_moves())
    # without the cap the same root holds whole turns
    whole = MctsBot(seed=1, iterations=20)
    whole.choose(state.seen_by(state.to_move), state.legal_moves())
    assert whole.last_root is not None and max(len(e.moves) for e in whole.last_root.edges) > 1


def test_mcts_drops_an_iteration_whose_listing_runs_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """An iteration whose node listing passes the cap ends the search and is not counted:
    the root's visits are exactly the iterations completed before it."""
    import meeple.bots.mcts as mcts_module
    from meeple.core.turns import OutOfTime

    state = _to_decision(meeple.new_game("reefs", players=2, seed=4, level=1))
    original = mcts_module.candidate_turns
    calls = [0]

    def late_after_root(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] > 1:
            raise OutOfTime("test: the first listing below the root is late")
        return original(*args, **kwargs)

    monkeypatch.setattr(mcts_module, "candidate_turns", late_after_root)
    bot = _deep(MctsBot(seed=2, iterations=500, top=3))
    move = bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    root = bot.last_root
    assert root is not None
    assert 0 < bot.last_iterations < 500
    assert root.visits == bot.last_iterations == sum(edge.n for edge in root.edges)


def test_mcts_others_greedy_keeps_only_the_searching_seat_in_the_tree() -> None:
    """``others=greedy``: the other seats play greedy's turn in every determinisation, so
    every node of the tree is one where the searching seat decides, and the tree does grow
    past the root; without it the opponents' nodes are in the tree."""
    with pytest.raises(MeepleError, match="others must be one of tree, greedy"):
        make_bot("mcts:others=smart")
    state = _to_decision(meeple.new_game("takenokolor", players=3, seed=5, sheet="2-pandas"))
    seat = state.to_move

    def movers(bot: MctsBot) -> list[int | None]:
        assert bot.last_root is not None
        return [node.mover for node in _nodes(bot.last_root) if node.edges]

    policy = _deep(MctsBot(seed=1, iterations=120, others="greedy"))
    assert policy.choose(state.seen_by(seat), state.legal_moves()) in state.legal_moves()
    seen = movers(policy)
    assert len(seen) > 1 and set(seen) == {seat}
    tree = _deep(MctsBot(seed=1, iterations=120, others="tree"))
    tree.choose(state.seen_by(seat), state.legal_moves())
    assert set(movers(tree)) - {seat}


def test_mcts_others_game_default_applies_to_its_seat_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's ``others`` default (the game's mcts presets) holds for the numbers of seats it names
    only, and an explicit ``others=`` in the spec wins over it."""
    _presets(monkeypatch, {"mcts": {"others": {3: "greedy"}}})
    for players, spec, expected in ((3, "mcts", True), (4, "mcts", False), (2, "mcts", False),
                                    (3, "mcts:others=tree", False),
                                    (2, "mcts:others=greedy", True)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("gardens", players)
        assert (cfg.others == "greedy") is expected, (players, spec)
    bot = make_bot("mcts")
    assert isinstance(bot, MctsBot)
    cfg = bot.resolve("reefs", 3)
    assert cfg.others == "tree"  # Reefs has no others default


def test_mcts_game_defaults_may_be_given_per_seat_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any the game's mcts presets entry may be a plain value (every seat count) or a dict by seat count
    (only the counts it names; the others keep the bot's own default); the spec wins."""
    _presets(monkeypatch, {"mcts": {"beam": {2: 4}, "bias": 0.5}})
    for players, spec, beam, bias in ((2, "mcts", 4, 0.5), (3, "mcts", 0, 0.5),
                                      (2, "mcts:beam=0;bias=1", 0, 1.0), (3, "mcts:beam=2", 2, 0.5)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("gardens", players)
        assert (cfg.beam, cfg.bias) == (beam, bias), (players, spec)


def test_mcts_versus_may_be_a_game_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """``versus`` takes the game's default for the seat counts it names, ``best`` elsewhere,
    and an explicit ``versus=`` in the spec wins over it."""
    _presets(monkeypatch, {"mcts": {"versus": {4: "each"}}})
    for players, spec, versus in ((4, "mcts", "each"), (3, "mcts", "best"), (2, "mcts", "best"),
                                  (4, "mcts:versus=best", "best"), (3, "mcts:versus=each", "each")):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("gardens", players)
        assert cfg.versus == versus, (players, spec)
    with pytest.raises(MeepleError, match="versus must be one of best, each, not 'all'"):
        make_bot("mcts:versus=all")


def test_pergola_mcts_defaults_by_seat_count() -> None:
    """Pergola's mcts defaults (docs/strength.md): round 9, at two seats others=greedy with
    beam=4; round 19 (C36a, C36b), at three and four seats others=greedy with beam=4, the
    seat's own greedy next turn before a leaf is judged (rollout=greedy;horizon=1), common
    random numbers at the root (crn=1) and one candidate per tool (diverse=1;top=4); round 20
    (C38), solo games the same search without others (round 10's solo default was beam=4
    alone). The spec wins over every default."""
    round19 = (True, 4, "greedy", 1, True, True, 4)
    for players, spec, want in (
            (1, "mcts", (False, 4, "greedy", 1, True, True, 4)),
            (1, "mcts:beam=0", (False, 0, "greedy", 1, True, True, 4)),
            (1, "mcts:horizon=0;crn=0;diverse=0;top=8", (False, 4, "greedy", 0, False, False, 8)),
            (2, "mcts", (True, 4, "random", 0, False, False, 8)),
            (2, "mcts:others=tree;beam=0", (False, 0, "random", 0, False, False, 8)),
            (3, "mcts", round19), (4, "mcts", round19),
            (3, "mcts:others=tree;beam=0;horizon=0;crn=0;diverse=0;top=8",
             (False, 0, "greedy", 0, False, False, 8)),
            (4, "mcts:top=6;crn=0", (True, 4, "greedy", 1, False, True, 6))):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("pergola", players)
        got = (cfg.others == "greedy", cfg.beam, cfg.rollout, cfg.horizon, cfg.crn, cfg.diverse, cfg.top)
        assert got == want, (players, spec)
    # a two-seat search with those defaults holds only the searching seat's decisions
    state = _to_decision(meeple.new_game("pergola", players=2, seed=4))
    seat = state.to_move
    bot = _deep(make_bot("mcts:iterations=30", seed=3))
    bot.choose(state.seen_by(seat), state.legal_moves())
    root = bot.last_root
    assert root is not None and any(e.child is not None and e.child.edges for e in root.edges)
    for node in _nodes(root):
        assert node.mover in (None, seat)
    # at three and four seats a plain search is the round-19 search: the same tree as the spec
    # that asks for it, not the tree's own replies; solo (round 20), the same without others,
    # not round 10's beam=4 alone; the root holds one turn per tool on the board
    for players, options, this, old in (
            (1, {"challenge": 7}, "beam=4;rollout=greedy;horizon=1;crn=1;diverse=1;top=4",
             "beam=4;horizon=0;crn=0;diverse=0;top=8"),
            *((n, {}, "beam=4;others=greedy;rollout=greedy;horizon=1;crn=1;diverse=1;top=4",
               "others=tree;beam=0;horizon=0;crn=0;diverse=0;top=8") for n in (3, 4))):
        state = _to_decision(meeple.new_game("pergola", players=players, seed=4, **options))
        roots = [_root_edges(state, spec) for spec in (
            "mcts:iterations=12", f"mcts:iterations=12;{this}", f"mcts:iterations=12;{old}")]
        assert roots[0] == roots[1], players
        assert roots[0] != roots[2], players
        firsts = [moves[0] for moves, _n, _w in roots[0]]
        assert len(firsts) == len(set(firsts)) == len(state.legal_moves()) == 4, players


def test_takenokolor_mcts_models_greedy_opponents_at_three_and_four_seats() -> None:
    """Rounds 10-11 (docs/strength.md, trial T): Takenokolor's mcts plays others=greedy at
    three and four seats unless the spec says otherwise; two seats keep the tree's replies.
    A three-seat search with the plain spec holds only the searching seat's decisions."""
    for players, spec, others in ((2, "mcts", False), (3, "mcts", True), (4, "mcts", True),
                                  (3, "mcts:others=tree", False), (4, "mcts:others=tree", False)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("takenokolor", players)
        assert (cfg.others == "greedy") is others, (players, spec)
    state = _to_decision(meeple.new_game("takenokolor", players=3, seed=5))
    seat = state.to_move
    seen: list[set[int | None]] = []
    for spec in ("mcts:iterations=60", "mcts:iterations=60;others=tree"):
        bot = _deep(make_bot(spec, seed=3))
        bot.choose(state.seen_by(seat), state.legal_moves())
        assert isinstance(bot, MctsBot) and bot.last_root is not None
        seen.append({node.mover for node in _nodes(bot.last_root)})
    assert seen[0] <= {None, seat}
    assert seen[1] - {None, seat}  # the tree's own replies put other seats' nodes in it


def test_takenokolor_mcts_judges_leaves_against_each_seat_but_on_the_dragon_sheet_at_three() -> None:
    """Round 14 (docs/strength.md, C14): Takenokolor's mcts at four seats plays versus=each;
    round 15 (C15, C16): at three seats too, except on the 4-pandas-dragon sheet, which keeps
    versus=best there (the sheet's mcts presets); two seats play best, and the spec wins over both. The
    default is the search's own: a plain search makes the same tree as the one that asks for
    the default's reward, and not the same as the other reward's."""
    for players, sheet, spec, versus in (
            (2, "2-pandas", "mcts", "best"), (3, "2-pandas", "mcts", "each"),
            (4, "2-pandas", "mcts", "each"), (3, "3-pandas", "mcts", "each"),
            (3, "4-pandas-river", "mcts", "each"), (3, "4-pandas-dragon", "mcts", "best"),
            (4, "4-pandas-dragon", "mcts", "each"), (3, "my-own-sheet", "mcts", "each"),
            (3, None, "mcts", "each"), (3, "4-pandas-dragon", "mcts:versus=each", "each"),
            (4, "2-pandas", "mcts:versus=best", "best")):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("takenokolor", players, sheet)
        assert cfg.versus == versus, (players, sheet, spec)
    for players, sheet, same, other in ((4, "2-pandas", "each", "best"),
                                        (3, "2-pandas", "each", "best"),
                                        (3, "4-pandas-dragon", "best", "each")):
        state = _to_decision(meeple.new_game("takenokolor", players=players, seed=5, sheet=sheet))
        assert sheet_name(state) == sheet
        roots = [_root_edges(state, spec) for spec in (
            "mcts:iterations=60", f"mcts:iterations=60;versus={same}",
            f"mcts:iterations=60;versus={other}")]
        assert roots[0] == roots[1], (players, sheet)
        assert roots[0] != roots[2], (players, sheet)


def test_takenokolor_dragon_sheet_rolls_out_one_round_of_greedy_turns_at_four_seats() -> None:
    """Round 17 (docs/strength.md, S24, C25): on the 4-pandas-dragon sheet at four seats a
    plain mcts rolls each leaf out one more round with greedy turns (rollout=greedy;horizon=4),
    the same tree as the spec that asks for it and not the one without; other sheets and seat
    counts keep no rollout, and the spec wins."""
    for players, sheet, spec, rollout, horizon in (
            (4, "4-pandas-dragon", "mcts", "greedy", 4), (3, "4-pandas-dragon", "mcts", "random", 0),
            (2, "4-pandas-dragon", "mcts", "random", 0), (4, "4-pandas-river", "mcts", "random", 0),
            (4, "2-pandas", "mcts", "random", 0), (4, None, "mcts", "random", 0),
            (4, "4-pandas-dragon", "mcts:horizon=0", "greedy", 0),
            (4, "4-pandas-dragon", "mcts:rollout=random;horizon=2", "random", 2)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("takenokolor", players, sheet)
        assert (cfg.rollout, cfg.horizon) == (rollout, horizon), (players, sheet, spec)
    state = _to_decision(meeple.new_game("takenokolor", players=4, seed=5, sheet="4-pandas-dragon"))
    roots = [_root_edges(state, spec) for spec in (
        "mcts:iterations=40", "mcts:iterations=40;rollout=greedy;horizon=4",
        "mcts:iterations=40;horizon=0")]
    assert roots[0] == roots[1]
    assert roots[0] != roots[2]


def test_reefs_rolls_out_greedy_turns_on_level_one_at_four_seats_and_level_two_at_three_and_four(
        ) -> None:
    """Round 18 (docs/strength.md, S26a and C27; S32b and C33b; S34 and C35): a plain mcts
    rolls each leaf out with greedy turns on Reefs level 1 (small-ocean) at four seats, one
    round (rollout=greedy;horizon=4), and on level 2 (the-whirlpools) two rounds at three seats
    (horizon=6) and one at four, judged against each other seat (versus=each): the same tree
    as the spec that asks for it and not the one without; level 3, other seat counts and
    sheets a user names otherwise keep no rollout, and the spec wins."""
    for players, sheet, spec, rollout, horizon in (
            (4, "small-ocean", "mcts", "greedy", 4), (3, "small-ocean", "mcts", "random", 0),
            (2, "small-ocean", "mcts", "random", 0), (4, "the-whirlpools", "mcts", "greedy", 4),
            (3, "the-whirlpools", "mcts", "greedy", 6), (2, "the-whirlpools", "mcts", "random", 0),
            (3, "the-propellers", "mcts", "random", 0),
            (4, "the-propellers", "mcts", "random", 0), (4, "my-ocean", "mcts", "random", 0),
            (4, "small-ocean", "mcts:horizon=0", "greedy", 0),
            (4, "small-ocean", "mcts:rollout=random;horizon=2", "random", 2)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("reefs", players, sheet)
        assert (cfg.rollout, cfg.horizon, cfg.bias) == (rollout, horizon, 0.0), (players, sheet, spec)
    for players, sheet, versus in ((4, "the-whirlpools", "each"), (3, "the-whirlpools", "best"),
                                   (4, "small-ocean", "best"), (4, "the-propellers", "best")):
        bot = make_bot("mcts")
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("reefs", players, sheet)
        assert cfg.versus == versus, (players, sheet)
    for players, level, name, horizon, extra in (
            (4, 1, "small-ocean", 4, ""), (3, 2, "the-whirlpools", 6, ""),
            (4, 2, "the-whirlpools", 4, ";versus=each")):
        state = _to_decision(meeple.new_game("reefs", players=players, seed=5, level=level))
        assert sheet_name(state) == name
        roots = [_root_edges(state, spec) for spec in (
            "mcts:iterations=40", f"mcts:iterations=40;rollout=greedy;horizon={horizon}{extra}",
            "mcts:iterations=40;horizon=0")]
        assert roots[0] == roots[1], name
        assert roots[0] != roots[2], name


def test_sheet_defaults_layer_over_the_game_defaults_seat_count_by_seat_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet's mcts presets win over the game's only for the seat counts they name; for the
    others the game's preset holds; other sheets and games are untouched; the spec wins."""
    _presets(monkeypatch, {"mcts": {"beam": {2: 4, 3: 4}, "bias": 0.5},
                           "mcts_sheets": {"odd": {"beam": {3: 2}, "bias": 0.25}}})
    for players, sheet, spec, beam, bias in ((3, "odd", "mcts", 2, 0.25), (2, "odd", "mcts", 4, 0.25),
                                             (4, "odd", "mcts", 0, 0.25), (3, "even", "mcts", 4, 0.5),
                                             (3, None, "mcts", 4, 0.5),
                                             (3, "odd", "mcts:beam=8;bias=1", 8, 1.0)):
        bot = make_bot(spec)
        assert isinstance(bot, MctsBot)
        cfg = bot.resolve("gardens", players, sheet)
        assert (cfg.beam, cfg.bias) == (beam, bias), (players, sheet, spec)
    assert sheet_name(meeple.new_game("gardens", players=2, seed=1, level=2)) is not None
    assert sheet_name(meeple.new_game("pergola", players=2, seed=1)) is None


def test_pergola_solo_mcts_searches_with_the_beam_by_default() -> None:
    """Round 10 (docs/strength.md, batch S), kept in round 20's solo default: a solo Pergola
    search with the plain spec resolves to the search with ``beam=4`` (the game's preset), and
    not to the search without the beam. (``choose`` searches with
    the resolved settings: ``self.cfg = self.resolve(...)``.)"""
    plain, beam4, beam0 = (make_bot(spec, seed=7) for spec in (
        "mcts:iterations=25", "mcts:iterations=25;beam=4", "mcts:iterations=25;beam=0"))
    assert isinstance(plain, MctsBot) and isinstance(beam4, MctsBot) and isinstance(beam0, MctsBot)
    solo = plain.resolve("pergola", 1)
    assert solo.beam == 4
    assert solo == beam4.resolve("pergola", 1)
    assert solo != beam0.resolve("pergola", 1)


def test_mcts_greedy_memo_changes_no_decision() -> None:
    """Greedy's turn for a position is found once per search and reused (``others=greedy``,
    ``rollout=greedy``): the same seed and iteration budget give the same tree with the memo
    as without it, and the memo is used."""
    for game, options in (("takenokolor", {"sheet": "2-pandas"}), ("reefs", {"level": 2})):
        state = _to_decision(meeple.new_game(game, players=3, seed=4, **options))
        seat = state.to_move
        assert seat is not None
        runs = []
        for memo in (True, False):
            bot = MctsBot(seed=3, iterations=30, others="greedy")
            bot.memo_greedy = memo
            move = bot.choose(state.seen_by(seat), state.legal_moves())
            root = bot.last_root
            assert root is not None
            runs.append((move, [(e.moves, e.n, e.w) for e in root.edges], bot.greedy_memo_hits))
        (move_on, tree_on, hits_on), (move_off, tree_off, hits_off) = runs
        assert move_on == move_off and tree_on == tree_off
        assert hits_on > 0 and hits_off == 0


def _position_with_many_turns(game: str, level: int, more_than: int) -> State[Any]:
    """A turn-start position of a greedy self-play game with more than ``more_than`` turns."""
    from meeple.core.turns import expand_turns

    for seed in range(10):
        state = meeple.new_game(game, players=2, seed=seed, level=level)
        bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
        while not state.is_over:
            if state.to_move == CHANCE:
                state.sample_chance()
                continue
            if len(expand_turns(state, limit=more_than + 1)) > more_than:
                return state
            _play_turn(bots[state.to_move], state)
    raise AssertionError("no such position in ten games")


def test_mcts_root_lists_every_whole_turn_beyond_the_node_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the root the search ranks up to ``root_turns`` whole turns (not single decisions), so
    the turn greedy would play is always a candidate; deeper nodes keep the ``turns`` limit."""
    import meeple.bots.mcts as mcts_module
    from meeple.bots.evaluation import all_turns_ranked

    state = _position_with_many_turns("reefs", 2, 300)
    seat = state.to_move
    calls: list[tuple[int, Any]] = []
    original = mcts_module.candidate_turns

    def spy(st: Any, mover: int, top: int, max_turns: int, *args: Any, **kwargs: Any) -> Any:
        out = original(st, mover, top, max_turns, *args, **kwargs)
        calls.append((max_turns, out))
        return out

    monkeypatch.setattr(mcts_module, "candidate_turns", spy)
    bot = MctsBot(seed=1, iterations=3, top=4)
    view = state.seen_by(seat)
    bot.choose(view, state.legal_moves())
    root_limit, root_candidates = calls[0]
    assert root_limit == 5000
    best_value = all_turns_ranked(view, seat)[0][0]
    assert root_candidates[0][0] == pytest.approx(best_value)
    assert all(limit == 300 for limit, _ in calls[1:])
    narrow = MctsBot(seed=1, iterations=3, top=4)
    narrow.root_turns = 300  # a fixed setting, lowered on this instance
    calls.clear()
    narrow.choose(view, state.legal_moves())
    assert calls[0][0] == 300 and all(len(moves) == 1 for _, moves in calls[0][1])


def test_mcts_common_random_numbers_key_luck_by_root_turn_visit(monkeypatch: pytest.MonkeyPatch) -> None:
    """crn=1: the chance after a root turn comes from a stream keyed by (search base, that
    turn's visit count), so every root turn's k-th trial sees the same luck; crn=0: not."""
    import itertools
    from collections import Counter

    import meeple.bots.mcts as mcts_module
    from meeple.core.rng import Rng

    calls: list[tuple[int, int]] = []
    original = mcts_module.common_random_numbers

    def spy(base: int, visit: int) -> Rng:
        calls.append((base, visit))
        return original(base, visit)

    monkeypatch.setattr(mcts_module, "common_random_numbers", spy)
    state = _to_decision(meeple.new_game("gardens", players=2, seed=5, level=1))
    bot = MctsBot(seed=2, iterations=30, top=3, horizon=1, crn=1)
    bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert len(calls) == 30 and len({base for base, _ in calls}) == 1
    per_visit = Counter(v for _, v in calls)
    counts = [per_visit[k] for k in range(max(per_visit) + 1)]
    assert counts[0] <= 3 and all(a >= b > 0 for a, b in itertools.pairwise(counts))
    assert original(7, 3).next_u64() == original(7, 3).next_u64() != original(7, 4).next_u64()
    calls.clear()
    MctsBot(seed=2, iterations=30, top=3, horizon=1).choose(state.seen_by(state.to_move),
                                                                   state.legal_moves())
    assert calls == []


def test_diverse_top_keeps_the_best_turn_of_every_first_decision() -> None:
    from meeple.bots.mcts import diverse_top

    scored = [(9.0, ("a", 1)), (8.0, ("a", 2)), (7.0, ("a", 3)), (6.0, ("b", 1)),
              (5.0, ("a", 4)), (4.0, ("c", 1)), (3.0, ("b", 2))]
    assert diverse_top(scored, 3) == [(9.0, ("a", 1)), (6.0, ("b", 1)), (4.0, ("c", 1))]
    assert diverse_top(scored, 4) == [(9.0, ("a", 1)), (8.0, ("a", 2)), (6.0, ("b", 1)),
                                      (4.0, ("c", 1))]
    assert diverse_top(scored, 2) == [(9.0, ("a", 1)), (6.0, ("b", 1))]
    assert diverse_top(scored, 10) == scored


def test_mcts_diverse_candidates_cover_every_pencil_taken() -> None:
    """diverse=1: in Reefs the root's candidates include a turn for each pencil that can be
    taken, even where the evaluation's top turns all take the same one."""
    from meeple.bots.evaluation import evaluation_for
    from meeple.bots.mcts import candidate_turns

    ev = evaluation_for("reefs")
    found = False
    for seed in range(6):
        state = _to_decision(meeple.new_game("reefs", players=2, seed=seed, level=2))
        seat = state.to_move
        plain = candidate_turns(state, seat, 3, 5000, ev)
        wide = candidate_turns(state, seat, 3, 5000, ev, diverse=True)
        takes = set(state.legal_moves())
        assert len(wide) == len(plain) == 3 and wide[0] == plain[0]
        assert all(len(moves) > 1 and moves[0] in takes for _, moves in wide)
        assert [v for v, _ in wide] == sorted((v for v, _ in wide), reverse=True)
        if len({moves[0] for _, moves in plain}) < min(3, len(takes)):
            assert len({moves[0] for _, moves in wide}) == min(3, len(takes))
            found = True
    assert found


def test_mcts_judges_solo_leaves_against_their_own_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solo, a leaf's margin is taken less the mean margin of the leaves so far at the same
    number of turns past the root, per seat (so deeper solo leaves do not win by depth alone,
    and the logistic does not saturate); with more seats the margins stay as they are."""
    bot = MctsBot(seed=1, iterations=5)
    assert bot._depth_reference(1, [2.0, -2.0]) == [2.0, -2.0]
    assert bot._depth_reference(1, [4.0, -4.0]) == [3.0, -3.0]
    assert bot._depth_reference(2, [1.0, -1.0]) == [1.0, -1.0]
    # solo Takenokolor (A5): with the root as reference every leaf looks like a gain, the
    # rewards crowd near 1; against their depth's mean they centre on 1/2
    state = _to_decision(meeple.new_game("takenokolor", players=1, seed=2))
    for _ in range(6):  # a few turns in, so the evaluation has something to grow on
        _play_turn(make_bot("greedy", seed=1), state)
        _to_decision(state)
    view = state.seen_by(0)
    two = _to_decision(meeple.new_game("gardens", players=2, seed=1))
    assert bot._reference(two, [3.0, -3.0], 2) == [3.0, -3.0]
    means = {}
    for ref in ("depth", "root"):
        if ref == "root":  # the rise over the root's evaluation alone
            monkeypatch.setattr(MctsBot, "_reference", lambda self, state, margins, players: margins)
        bot = MctsBot(seed=3, iterations=300, top=4)
        bot.choose(view, state.legal_moves())
        root = bot.last_root
        assert root is not None
        means[ref] = sum(e.w[0] for e in root.edges) / sum(e.n for e in root.edges)
    assert 0.4 < means["depth"] < 0.6 and means["root"] > means["depth"]


def test_beam_turns_finds_whole_turns_and_with_a_wide_beam_all_of_them() -> None:
    """beam_turns: every turn it returns is a legal whole turn, best first, its value the
    score after it; a beam wider than any layer finds exactly expand_turns' turns; a narrow
    beam finds fewer and keeps the state it was given untouched."""
    from meeple.core.turns import beam_turns, expand_turns, turn_ended

    state = _to_decision(meeple.new_game("pergola", players=2, seed=4))
    for _ in range(6):  # into the game, where turns branch more
        _play_turn(make_bot("greedy", seed=1), state)
        _to_decision(state)
    seat, turn = state.to_move, state.turn
    assert seat is not None
    before = state.key()
    score = evaluation_for("pergola")
    every = expand_turns(state)
    wide = beam_turns(state, lambda s: score(s, seat), 100_000)
    def after(moves: tuple[Any, ...]) -> Any:
        s = state.clone()
        for m in moves:
            s.play(m)
        return s.key()

    # the same positions (reached by the first path each search meets)
    assert {after(m) for _, m in wide} == {s.key() for _, s in every}
    assert len(wide) == len(every)
    narrow = beam_turns(state, lambda s: score(s, seat), 2)
    assert 0 < len(narrow) < len(every)
    assert [v for v, _ in narrow] == sorted((v for v, _ in narrow), reverse=True)
    for value, moves in narrow:
        s = state.clone()
        for m in moves[:-1]:
            s.play(m)
            assert not turn_ended(turn, seat, s)
        s.play(moves[-1])
        assert turn_ended(turn, seat, s) and value == score(s, seat)
    # every first decision (the tool taken) keeps a beam of its own, even one wide
    single = beam_turns(state, lambda s: score(s, seat), 1)
    assert {m[0] for _, m in single} == {m[0] for m, _ in every}
    assert state.key() == before
    with pytest.raises(ValueError, match="width must be at least 1"):
        beam_turns(state, lambda s: 0.0, 0)


def test_mcts_beam_option_lists_inner_candidates_by_beam_search() -> None:
    """beam=W: inner nodes list candidates with beam_turns, the root still lists all (so
    greedy's turn is a candidate); the search stays deterministic for a seed."""
    state = _to_decision(meeple.new_game("pergola", players=2, seed=4))
    for _ in range(4):
        _play_turn(make_bot("greedy", seed=1), state)
        _to_decision(state)
    view = state.seen_by(state.to_move)
    picks = []
    for _ in range(2):
        bot = _deep(make_bot("mcts:iterations=40;beam=4", seed=9))
        picks.append(bot.choose(view, state.legal_moves()))
        root = bot.last_root
        assert root is not None and any(e.child is not None and e.child.edges for e in root.edges)
    assert picks[0] == picks[1]
    greedy_turn = GreedyBot(seed=1)
    first = greedy_turn.choose(view, state.legal_moves())
    assert any(e.moves[0] == first for e in root.edges)
    with pytest.raises(MeepleError, match="beam must be 0"):
        make_bot("mcts:beam=-1")


def test_mcts_versus_each_rewards_the_mean_pairwise_result() -> None:
    """versus=each (3+ seats): a seat's reward is the mean of its two-seat rewards against
    each other seat; at the end, half of it is the pairwise result."""
    bot = MctsBot(seed=1, iterations=5, versus="each")
    bot.scale = 1.0  # a fixed setting (4 points), one point per unit here
    state = _to_decision(meeple.new_game("gardens", players=3, seed=1))
    values = [10.0, 10.0, 0.0]
    out = bot._reward_each(state, values, [], 3)
    sig = 1.0 / (1.0 + math.exp(10.0))  # the logistic of -10
    assert out[0] == pytest.approx((0.5 + (1 - sig)) / 2)
    assert out[2] == pytest.approx(sig)
    assert sum(out) == pytest.approx(1.5)  # pairwise rewards are zero-sum per pair
    best = MctsBot(seed=1, iterations=5)
    best.scale = 1.0
    assert best._reward(state, lambda s, seat: values[seat], 3, 0, 0.0)[0] == pytest.approx(0.5)
    # a finished game: each pairwise result counts half
    done = meeple.new_game("gardens", players=3, seed=1)
    rec = play_game("gardens", {}, ["greedy", "greedy", "random"], 1)
    for m in rec["moves"]:
        done.play(done.parse_move(m) if isinstance(m, str) else m)
    assert done.is_over
    totals = [float(s.total) for s in done.scores()]
    got = bot._reward_each(done, totals, done.winners(), 3)
    assert got[2] < 0.25 < 0.5 < max(got[0], got[1])
    with pytest.raises(MeepleError, match="versus must be one of best, each"):
        make_bot("mcts:versus=all")


def test_mcts_other_seats_reply_with_their_best_turn_from_three_seats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a node where another seat moves the search lists that seat's single best turn with
    three or more seats (the searching seat's nodes keep ``top``), so the tree goes deeper on
    the seat's own turns; with two seats the other seat gets ``top`` candidates too."""
    import meeple.bots.mcts as mcts_module

    calls: list[tuple[int, int]] = []
    original = mcts_module.candidate_turns

    def spy(st: Any, mover: int, top: int, *args: Any, **kwargs: Any) -> Any:
        calls.append((mover, top))
        return original(st, mover, top, *args, **kwargs)

    monkeypatch.setattr(mcts_module, "candidate_turns", spy)
    for players, replies in ((3, 1), (2, 6)):
        state = _to_decision(meeple.new_game("gardens", players=players, seed=3))
        me = state.to_move
        calls.clear()
        bot = _deep(make_bot("mcts:iterations=200;top=6", seed=4))
        bot.choose(state.seen_by(me), state.legal_moves())
        root = bot.last_root
        assert root is not None and root.mover == me and len(root.edges) == 6
        assert {top for mover, top in calls if mover == me} == {6}
        assert {top for mover, top in calls if mover != me} == {replies}
        if players == 3:  # the seat's own nodes below the root, with their own candidates
            mine = [n for n in _nodes(root) if n.mover == me and n is not root and n.edges]
            assert mine and max(len(n.edges) for n in mine) > 1


@pytest.mark.parametrize("option", ["c=1.4", "expand=2", "scale=8", "turns=100", "root_turns=300",
                                    "ref=depth", "replies=3", "eval=score"])
def test_removed_research_options_are_refused_naming_the_allowed_ones(option: str) -> None:
    """The research options issue 36 took out of the product are refused, by the bot spec and
    by a server's client spec alike, with what is allowed (experiments/research_mcts.py still
    takes them)."""
    from meeple.bots.config import PRESETTABLE
    from meeple.bots.limits import CLIENT_LIMITS, client_spec

    name = option.split("=")[0]
    allowed = ("options: iterations, cpu, seconds, top, horizon, crn, diverse, versus, beam, others, "
               "bias, rollout, net")
    for refuse in (make_bot, client_spec):
        with pytest.raises(MeepleError) as exc:
            refuse(f"mcts:iterations=5;{option}")
        text = str(exc.value)
        assert f"unknown mcts option(s) {name} ({name}: removed" in text and text.endswith(allowed)
    assert name not in CLIENT_LIMITS and name not in PRESETTABLE
