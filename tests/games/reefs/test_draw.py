"""Reefs' terminal drawing reads the per-seat view and the layout alone: drawn from a view and a
layout that went through JSON (as ``meeple join`` gets them from a server) it is the screen
``terminal_text`` draws for the same position and viewer, and ``render.py`` imports nothing of
the rules."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.present import presentation
from meeple.core.view import View, seat_view, terminal_score, terminal_text
from meeple.games.reefs import render
from meeple.games.reefs.rules import ReefsState
from tests.games.reefs.helpers import new, roll, turn


def _positions(level: int, players: int, seed: int) -> list[ReefsState]:
    """A sample of one random game's positions: a few while taking, drawing and rolling, and
    the end."""
    s = meeple.new_game("reefs", players=players, level=level, seed=seed)
    assert isinstance(s, ReefsState)
    rng = random.Random(seed)
    out = []
    while not s.is_over:
        if len(s.history) % 37 == 0 and len(out) < 5:
            out.append(s.clone())
        s.play(rng.choice(s.legal_moves()))
    out.append(s)
    return out


def _remote(state: ReefsState, viewer: int | None) -> tuple[dict[str, Any], View]:
    """The layout and ``viewer``'s view as a remote client gets them: through JSON."""
    layout = json.loads(json.dumps(presentation("reefs").view_layout(state)))
    view = seat_view(state, viewer)
    return layout, View.model_validate_json(view.model_dump_json(by_alias=True))


def _check_remote_screens(state: ReefsState) -> None:
    for viewer in [*range(state.players), None]:
        layout, view = _remote(state, viewer)
        for seat in {viewer, None, ((viewer or 0) + 1) % state.players}:
            colourblind = seat != viewer
            assert render.draw(layout, view, seat, colourblind) == terminal_text(
                state, viewer, seat, colourblind), (viewer, seat)
        assert render.draw_score(layout, view, viewer, True) == terminal_score(
            state, viewer, viewer, True)


@pytest.mark.parametrize(("level", "players", "seed"), [(1, 1, 0), (2, 2, 1), (3, 3, 2)])
def test_a_view_through_json_draws_the_screen_terminal_text_draws(level: int, players: int,
                                                                  seed: int) -> None:
    for state in _positions(level, players, seed):
        _check_remote_screens(state)


def test_a_spectator_sees_the_next_spaces_of_the_pencil_drawn() -> None:
    s = new(players=2)
    roll(s, O="3any")
    turn(s, "O", "in1")
    layout, view = _remote(s, None)
    assert view.board["drawing"]["next_spaces"] == ["a3"]
    assert not view.board["choices"]  # the choices are only the mover's
    markup = render.draw(layout, view, None, True)
    assert re.search(r"\[bold underline\]a3\[/\]", markup)
    assert "Orange: next step from in1 to a3 (underlined)" in markup.replace("[/]", "")
    _check_remote_screens(s)


def _imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def test_render_imports_no_rules_sheet_scoring_nor_state() -> None:
    source = Path(render.__file__).read_text(encoding="utf-8")
    imported = _imported(ast.parse(source))
    for name in imported:
        parts = set(name.split("."))
        assert not parts & {"rules", "sheet", "scoring"}, name
        assert not name.startswith("meeple.core.state"), name
        assert "State" not in name.rsplit(".", 1)[-1], name
    assert "meeple.games.reefs.boards" in imported
