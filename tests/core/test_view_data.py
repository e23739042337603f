"""``view_data``: the views of several viewers of one position at once (issue 50), for every game,
variant and seat count, are the views ``seat_view`` made one viewer at a time before they shared
their public parts (the digests pinned in ``tests/core/view_snapshots.json``, see
``tests/core/view_snapshots.py``): every seat's and the spectator's, with and without the
terminal text, at positions along seeded random playouts (the start, chance pending, the end;
Pergola's tools and leaves still hidden). ``seat_view`` still makes the same views; the data is
plain JSON data (no tuples) that the view's and the board's models give back unchanged, and a
game without ``view_boards`` makes the same views from ``view_board``."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from meeple.core.present import PRESENTATIONS, presentation
from meeple.core.state import CHANCE, State
from meeple.core.view import View, view_data
from tests.core.view_snapshots import DATA, cases, digest, key, log_for, positions, viewers, views

PINNED: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))

CASES = [pytest.param(*case, id=case[0]) for case in cases()]


def _plain_json(data: Any, where: str = "view") -> None:
    """``data`` holds only what ``json.loads`` gives back: dicts with text keys, lists, text,
    numbers, booleans and None."""
    if isinstance(data, dict):
        for k, v in data.items():
            assert isinstance(k, str), f"{where}: key {k!r}"
            _plain_json(v, f"{where}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _plain_json(v, f"{where}[{i}]")
    else:
        assert data is None or isinstance(data, str | int | float), f"{where}: {data!r}"


def _text(data: Any) -> str:
    return json.dumps(data)


def _models_give_back(game: str, data: dict[str, Any]) -> None:
    """The view's model and the game's board model read ``data`` and write it back unchanged
    (the same keys in the same order, the same values): what the schema publishes is what
    is sent."""
    assert _text(View.model_validate(data).model_dump(mode="json", by_alias=True)) == _text(data)
    board = presentation(game).board_model.model_validate(data["board"])
    assert _text(board.model_dump(mode="json", by_alias=True)) == _text(data["board"])


@pytest.mark.parametrize(("case", "game", "variant", "players"), CASES)
def test_the_views_of_every_viewer_at_once_are_the_pinned_views(
        case: str, game: str, variant: dict[str, Any], players: int) -> None:
    pinned = PINNED[case]
    got = positions(case, game, variant, players)
    assert [str(i) for i, _ in got] == list(pinned), \
        f"{case}: the playout changed (regenerate: uv run python -m tests.core.view_snapshots)"
    for n, (i, state) in enumerate(got):
        want = pinned[str(i)]
        where = f"{case} after {i} moves"
        assert digest([str(m) for _, m in state.log()]) == want["moves"], f"{where}: playout"
        log, tail = log_for(state, n)
        for text in (False, True):
            made = view_data(state, viewers(state), log, tail, text)
            assert list(made) == viewers(state)
            for viewer, data in made.items():
                assert digest(data) == want["views"][key(viewer, text)], \
                    f"{where}: {key(viewer, text)}"
                if not text:
                    _plain_json(data)
                    _models_give_back(game, data)
        one_at_a_time = {k: digest(d) for k, d in views(state, n).items()}
        assert one_at_a_time == want["views"], f"{where}: seat_view"


def _some_positions(game: str) -> list[State[Any]]:
    case = next(c for c in cases() if c[1] == game and c[3] == 2)
    return [state for _, state in positions(*case)]


@pytest.mark.parametrize("game", sorted({case[1] for case in cases()}))
def test_a_game_without_view_boards_makes_the_same_views(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    states = _some_positions(game)
    shared = [view_data(s, viewers(s)) for s in states]
    assert presentation(game).view_boards is not None
    monkeypatch.setitem(PRESENTATIONS, game,
                        dataclasses.replace(presentation(game), view_boards=None))
    for state, want in zip(states, shared, strict=True):
        assert _text(view_data(state, viewers(state))) == _text(want)


@pytest.mark.parametrize("game", sorted({case[1] for case in cases()}))
def test_any_choice_of_viewers_gets_the_views_made_for_all(game: str) -> None:
    for state in _some_positions(game):
        every = view_data(state, viewers(state))
        to_move = state.to_move
        seat = 1 if to_move == 0 else 0
        for chosen in ([None], [seat], [1, None, 0], [0, 0]):
            made = view_data(state, chosen)
            assert list(made) == list(dict.fromkeys(chosen))
            assert all(_text(made[v]) == _text(every[v]) for v in chosen)
        if to_move not in (None, CHANCE):
            assert every[to_move]["legal_moves"]
            assert not any(every[v]["legal_moves"] for v in every if v != to_move)
