"""Named difficulties (easy, medium, hard), the mcts config (parsed once, validated) and the
search's budgets and decision info. Behaviour only: no timing assertions."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.bots import BOTS, DIFFICULTIES, DifficultyBot, GreedyBot, MctsBot, difficulty_spec, make_bot
from meeple.bots.config import MctsConfig
from meeple.bots.difficulty import GENERAL
from meeple.bots.knowledge import bot_knowledge
from meeple.core.errors import MeepleError
from meeple.core.state import CHANCE, State


def _to_decision(state: State[Any]) -> State[Any]:
    while state.to_move == CHANCE:
        state.sample_chance()
    return state


def test_the_difficulties_are_bots_like_any_other() -> None:
    assert DIFFICULTIES == ("easy", "medium", "hard", "expert") and set(DIFFICULTIES) <= set(BOTS)
    for name in DIFFICULTIES:
        bot = make_bot(name, seed=3)
        assert isinstance(bot, DifficultyBot) and bot.name == name and bot.seed == 3
    with pytest.raises(MeepleError, match="takes no options"):
        make_bot("hard:cpu=1")


@pytest.mark.parametrize("info", meeple.games(), ids=lambda i: i.name)
def test_every_game_plays_every_difficulty_as_a_valid_spec(info: meeple.GameInfo) -> None:
    # a game presets only the difficulties it plays otherwise than the general ones
    presets = bot_knowledge(info.name).presets.get("difficulties", {})
    assert set(presets) <= set(DIFFICULTIES)
    for name, spec in presets.items():
        assert spec["*"] != GENERAL[name], f"{info.name} repeats the general {name}"
    for name in DIFFICULTIES:
        for players in range(info.min_players, info.max_players + 1):
            spec = difficulty_spec(name, info.name, players)
            make_bot(spec)  # a spec that builds
            if name in ("hard", "expert"):
                cfg = MctsConfig.parse(dict(p.split("=") for p in spec.split(":")[1].split(";")))
                # budgets in iterations or CPU time; the wall clock only as a safety cap
                assert cfg.iterations > 0 or cfg.cpu > 0
            if name == "expert":
                # expert is hard's search at hard's budget (equal think time), with the nets
                hard = MctsConfig.parse(dict(p.split("=") for p in difficulty_spec(
                    "hard", info.name, players).split(":")[1].split(";")))
                assert cfg.net == "expert" and hard.net is None
                assert (cfg.iterations, cfg.cpu, cfg.seconds) == (hard.iterations, hard.cpu,
                                                                  hard.seconds)


def test_a_game_without_presets_plays_the_general_difficulties() -> None:
    for name in DIFFICULTIES:
        assert difficulty_spec(name, "no-such-game", 2) == GENERAL[name]
    with pytest.raises(MeepleError,
                       match="unknown difficulty 'master'; difficulties: easy, medium, hard, expert"):
        difficulty_spec("master", "gardens", 2)


def test_a_difficulty_plays_its_game_s_preset_for_the_view_it_is_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import meeple.bots.difficulty as dif

    def fake(name: str, game: str, players: int, sheet: str | None = None) -> str:
        return "random" if players == 3 else "greedy"

    monkeypatch.setattr(dif, "difficulty_spec", fake)
    bot = make_bot("medium", seed=1)
    assert isinstance(bot, DifficultyBot)
    for players, kind in ((2, GreedyBot), (3, "random")):
        state = _to_decision(meeple.new_game("gardens", players=players, seed=2))
        move = bot.choose(state.seen_by(state.to_move), state.legal_moves())
        assert move in state.legal_moves()
        assert bot.last is not None
        assert isinstance(bot.last, GreedyBot) if kind is GreedyBot else bot.last.name == "random"


@pytest.mark.parametrize("name", ["easy", "medium"])
@pytest.mark.parametrize("game", ["gardens", "reefs", "takenokolor", "pergola"])
def test_easy_and_medium_play_a_whole_turn_in_every_game(name: str, game: str) -> None:
    state = _to_decision(meeple.new_game(game, players=2, seed=5))
    seat, turn = state.to_move, state.turn
    bot = make_bot(name, seed=2)
    for _ in range(50):  # bounded: a turn is a few decisions
        if state.to_move != seat or state.turn != turn:
            break
        move = bot.choose(state.seen_by(seat), state.legal_moves())
        state.play(move)
    assert state.to_move != seat or state.turn != turn


def test_hard_searches_with_a_bounded_budget_and_says_what_stopped_it() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=5, level=2))
    bot = make_bot("hard", seed=2)
    move = bot.choose(state.seen_by(state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    assert isinstance(bot, DifficultyBot)
    info = bot.last_info
    assert info["difficulty"] == "hard" and info["bot"] == "mcts"
    assert info["stopped"] in ("iterations", "cpu", "wall-clock cap")
    assert 0 < info["iterations"] <= 1000


def test_mcts_cpu_budget_and_wall_clock_cap_are_reported() -> None:
    state = _to_decision(meeple.new_game("gardens", players=2, seed=9, level=3))
    view, legal = state.seen_by(state.to_move), state.legal_moves()
    cpu = MctsBot(seed=1, iterations=0, cpu=0.05)
    cpu.choose(view, legal)
    assert cpu.last_info["stopped"] == "cpu" and not cpu.last_info["capped"]
    capped = MctsBot(seed=1, iterations=10**9, seconds=0.05)
    capped.choose(view, legal)
    assert capped.last_info["stopped"].startswith("wall-clock cap") and capped.last_info["capped"]
    counted = MctsBot(seed=1, iterations=25)
    counted.choose(view, legal)
    assert counted.last_info["stopped"] == "iterations" and counted.last_info["iterations"] == 25


@pytest.mark.parametrize(("options", "message"), [
    ({"wizard": 1}, "unknown mcts option.s. wizard; options: iterations, cpu, seconds"),
    ({"sync": 1}, "unknown mcts option.s. sync"),
    ({"chance": "closed"}, "unknown mcts option.s. chance"),
    ({"top": 0}, "mcts option top must be a whole number, at least 1, not 0"),
    ({"cpu": -1}, "mcts option cpu must be 0 .none. or a positive number of CPU seconds, not -1"),
    ({"crn": 2}, "mcts option crn must be 0 .off. or 1 .on., not 2"),
    ({"others": "smart"}, "mcts option others must be one of tree, greedy, not 'smart'"),
    ({"iterations": "many"}, "mcts option iterations must be a whole number"),
    ({"iterations": 0}, "give mcts a positive budget"),
    ({"beam": -1}, "mcts option beam must be 0 .off. or a positive width, not -1"),
    ({"scale": 4}, "unknown mcts option.s. scale .scale: removed, the search plays fixed values"),
])
def test_mcts_config_refuses_bad_options_naming_them(options: dict[str, Any], message: str) -> None:
    with pytest.raises(MeepleError, match=message):
        MctsConfig.parse(options)
    spec = "mcts:" + ";".join(f"{k}={v}" for k, v in options.items())
    with pytest.raises(MeepleError, match=message):
        make_bot(spec)


def test_mcts_config_is_frozen_parsed_once_and_resolved_from_presets() -> None:
    cfg = MctsConfig.parse({"iterations": "200", "top": "4", "crn": "1"})
    assert (cfg.iterations, cfg.top, cfg.crn, cfg.beam) == (200, 4, True, None)
    with pytest.raises(AttributeError):
        cfg.top = 5  # type: ignore[misc]
    assert cfg.given() == {"iterations": 200, "top": 4, "crn": True}
    presets = {"mcts": {"beam": {2: 4}, "top": 6}, "mcts_sheets": {"odd": {"beam": {2: 2}}}}
    two = cfg.resolve(presets, 2)
    assert (two.top, two.beam, two.bias, two.versus) == (4, 4, 1.0, "best")
    assert cfg.resolve(presets, 2, "odd").beam == 2
    three = MctsConfig().resolve(presets, 3)
    assert (three.top, three.beam) == (6, 0)
    # the game's own presets, through its registry entry
    bot = make_bot("mcts:iterations=5")
    assert isinstance(bot, MctsBot)
    assert bot.resolve("reefs", 2).bias == 0.0 and bot.resolve("gardens", 2).bias == 1.0
    assert bot.resolve("pergola", 3).others == "greedy"
