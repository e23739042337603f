"""``mcts:net=<name>``: the search's leaves judged by a game's nets (meeple.bots.learned), found
by name only; and the ``expert`` difficulty, hard's search with the nets ``expert``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import meeple
import meeple.bots.learned as learned
from meeple.bots import make_bot
from meeple.bots.config import MctsConfig
from meeple.bots.difficulty import difficulty_spec
from meeple.bots.encoding import encoding
from meeple.bots.learned import (
    NetFile,
    ValueNet,
    nets_for,
    register_nets,
    unregister_nets,
    variant_key,
)
from meeple.bots.limits import client_spec
from meeple.bots.mcts import MctsBot
from meeple.core.errors import MeepleError
from meeple.core.registry import game_files
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State

GAME = "gardens"


def _position(seed: int, plies: int = 0) -> State[Any]:
    """A two-seat Gardens level-1 game with ``plies`` random decisions played, at a decision."""
    return random_position(meeple.new_game(GAME, players=2, seed=seed, level=1), seed, plies)


def random_position(state: State[Any], seed: int, plies: int) -> State[Any]:
    """``state`` after ``plies`` random decisions (fewer if the game ends), chance drawn up to
    the next decision (generator seeded by ``seed``). Also benchmarks/bench_learned_leaf.py's."""
    rng = Rng(seed)
    for _ in range(plies):
        while state.to_move == CHANCE:
            state.sample_chance(rng)
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    while state.to_move == CHANCE:
        state.sample_chance(rng)
    return state


def _net(size: int, scale: float, seed: int = 0) -> ValueNet:
    """A net of the right size: random weights (``scale`` the output layer's), or all zero."""
    rng = np.random.default_rng(seed)
    return ValueNet([(rng.normal(0, 1, (size, 16)), rng.normal(0, 1, 16)),
                     (rng.normal(0, scale, (16, 1)), np.zeros(1))])


@pytest.fixture
def nets() -> Iterator[dict[str, NetFile]]:
    """Three nets registered for Gardens two-seat level 1: ``t-random`` (random weights),
    ``t-zero`` (answers 0 everywhere) and ``t-other`` (for another variant only)."""
    state = _position(1)
    size = encoding(state).size
    key = variant_key(state)
    made = {"t-random": NetFile(GAME, {key: _net(size, 5.0)}),
            "t-zero": NetFile(GAME, {key: _net(size, 0.0)}),
            "t-other": NetFile(GAME, {"4p{\"level\": 3}": _net(size, 5.0)})}
    for name, netfile in made.items():
        register_nets(GAME, name, netfile)
    yield made
    for name in made:
        unregister_nets(GAME, name)


def _decisions(spec: str, positions: list[State[Any]], seed: int = 5
               ) -> list[tuple[Any, list[int]]]:
    """The move each position gets from a fresh bot, with the root's visit counts."""
    out = []
    for state in positions:
        bot = make_bot(spec, seed=seed)
        view = state.seen_by(state.to_move)
        move = bot.choose(view, view.legal_moves())
        root = bot.last_root
        out.append((move, [e.n for e in root.edges] if root is not None else []))
    return out


POSITIONS = [(3, 0), (4, 6), (7, 12), (9, 20)]


def test_a_net_changes_the_search_and_a_zero_net_changes_nothing(nets: dict[str, NetFile]
                                                                  ) -> None:
    positions = [_position(s, p) for s, p in POSITIONS]
    hard = _decisions("mcts:iterations=300", positions)
    zero = _decisions("mcts:iterations=300;net=t-zero", positions)
    rand = _decisions("mcts:iterations=300;net=t-random", positions)
    # a net answering 0 judges exactly as the game's evaluation: the same search, visit for visit
    assert zero == hard
    # a net that answers something else judges the leaves differently
    assert rand != hard
    bot = make_bot("mcts:iterations=50;net=t-random", seed=1)
    view = positions[0].seen_by(positions[0].to_move)
    bot.choose(view, view.legal_moves())
    assert bot.last_info["net"] == "t-random"
    plain = make_bot("mcts:iterations=50", seed=1)
    plain.choose(view, view.legal_moves())
    assert "net" not in plain.last_info  # type: ignore[attr-defined]


def test_nets_given_in_memory_judge_as_registered_ones(nets: dict[str, NetFile]) -> None:
    positions = [_position(s, p) for s, p in POSITIONS[:2]]
    registered = _decisions("mcts:iterations=200;net=t-random", positions)
    in_memory = []
    for state in positions:
        bot = MctsBot(seed=5, iterations=200, nets=nets["t-random"])
        view = state.seen_by(state.to_move)
        move = bot.choose(view, view.legal_moves())
        assert bot.last_info["net"] == "(in memory)"
        in_memory.append((move, [e.n for e in bot.last_root.edges]))  # type: ignore[union-attr]
    assert in_memory == registered


def test_a_variant_without_a_net_is_searched_as_without_one(nets: dict[str, NetFile]) -> None:
    positions = [_position(s, p) for s, p in POSITIONS[:2]]
    assert (_decisions("mcts:iterations=200;net=t-other", positions)
            == _decisions("mcts:iterations=200", positions))
    bot = make_bot("mcts:iterations=20;net=t-other", seed=1)
    view = positions[0].seen_by(positions[0].to_move)
    bot.choose(view, view.legal_moves())
    assert bot.last_info["net"] == "none for this variant"


@pytest.mark.parametrize("name", ["../x", "x.npz", "X", "", "-x", "a/b", "a" * 41, "nets/expert"])
def test_a_net_is_named_never_a_path(name: str) -> None:
    with pytest.raises(MeepleError, match="lower-case letters, digits and hyphens"):
        make_bot(f"mcts:iterations=5;net={name}" if name else "mcts:iterations=5;net=''")
    with pytest.raises(MeepleError, match="lower-case letters, digits and hyphens"):
        nets_for(GAME, name)
    with pytest.raises(MeepleError, match="lower-case letters, digits and hyphens"):
        client_spec(f"mcts:iterations=5;net={name}", GAME)


def test_nets_a_game_does_not_have_are_refused_naming_its_nets(nets: dict[str, NetFile]) -> None:
    with pytest.raises(MeepleError, match=r"gardens has no nets called 'nosuch'; its nets: "
                                          r".*t-random"):
        nets_for(GAME, "nosuch")
    # what a server checks before a table exists: the spec and the game it is for
    with pytest.raises(MeepleError, match="gardens has no nets called 'nosuch'"):
        client_spec("mcts:iterations=5;net=nosuch", GAME)
    assert client_spec("mcts:iterations=5;net=t-random", GAME) == "mcts:iterations=5;net=t-random"
    # the registered nets are Gardens', not Reefs'
    with pytest.raises(MeepleError, match="reefs has no nets called 't-random'"):
        client_spec("mcts:iterations=5;net=t-random", "reefs")
    # a search asked for nets that are not there stops with the reason, not a guess
    bot = make_bot("mcts:iterations=5;net=nosuch")
    state = _position(2)
    view = state.seen_by(state.to_move)
    with pytest.raises(MeepleError, match="no nets called 'nosuch'"):
        bot.choose(view, view.legal_moves())
    with pytest.raises(MeepleError, match="the nets are gardens's, not reefs's"):
        register_nets("reefs", "t-x", nets["t-random"])


def test_shipped_nets_are_read_from_the_games_nets_folder_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nets: dict[str, NetFile]) -> None:
    (tmp_path / "nets").mkdir()
    nets["t-random"].save(tmp_path / "nets" / "shipped.npz")
    (tmp_path / "nets" / "Bad.Name.npz").write_bytes(b"not listed: no net's name")
    monkeypatch.setattr(learned, "game_files", lambda game: tmp_path)
    monkeypatch.setattr(learned, "_LOADED", {})
    assert learned.shipped_nets(GAME) == ["shipped"]
    first = nets_for(GAME, "shipped")
    assert nets_for(GAME, "shipped") is first  # kept: read once
    assert set(first.nets) == set(nets["t-random"].nets)
    # a file that is no net file is a MeepleError naming it, never a crash
    (tmp_path / "nets" / "broken.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(MeepleError, match="gardens's nets 'broken': not a meeple value-net file"):
        nets_for(GAME, "broken")
    # a registration wins over a file of the same name
    register_nets(GAME, "shipped", nets["t-zero"])
    try:
        assert nets_for(GAME, "shipped") is nets["t-zero"]
    finally:
        unregister_nets(GAME, "shipped")


def test_expert_without_shipped_nets_plays_hards_search_and_says_so() -> None:
    for game, players in (("gardens", 2), ("takenokolor", 2), ("pergola", 1)):
        if (game_files(game) / "nets" / "expert.npz").is_file():
            continue  # a game that ships its nets: the tests above cover the search with them
        state = meeple.new_game(game, players=players, seed=4)
        rng = Rng(4)
        while state.to_move == CHANCE:
            state.sample_chance(rng)
        view = state.seen_by(state.to_move)
        hard_spec = difficulty_spec("hard", game, players)
        expert_spec = difficulty_spec("expert", game, players)
        assert expert_spec == hard_spec + ";net=expert"
        # the same search made cheap for the test: 100 iterations, no CPU or wall budget
        hard = make_bot("mcts:iterations=100", seed=2)
        expert = make_bot("expert", seed=2)
        inner = expert.bot_for(view)  # type: ignore[attr-defined]
        assert inner.spec.net == "expert"
        inner.spec = MctsConfig(iterations=100, net="expert")
        assert expert.choose(view, view.legal_moves()) == hard.choose(view, view.legal_moves())
        assert [e.n for e in inner.last_root.edges] == [e.n for e in hard.last_root.edges]
        info = expert.last_info  # type: ignore[attr-defined]
        assert info["difficulty"] == "expert"
        assert info["net"] == f"none: {game} ships no nets 'expert'"
