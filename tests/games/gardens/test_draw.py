"""The Gardens terminal drawing reads only a seat's view and the table's layout.

A remote client (``meeple join``) holds the view and the layout as JSON: drawn from them after
a trip through JSON, the screen and the score pad equal what ``meeple play`` shows for the same
position and viewer. And render.py reaches no engine module, so it cannot read the state.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.present import presentation
from meeple.core.rng import Rng
from meeple.core.view import seat_view, terminal_score, terminal_text
from meeple.core.viewmodel import View
from meeple.games.gardens import render
from meeple.games.gardens.rules import GardensState

ENGINE = {"rules", "sheet", "scoring"}


def positions(level: int, players: int, seed: int) -> list[GardensState]:
    """A few positions of a random game: its start, some taking and colouring, its end."""
    s = meeple.new_game("gardens", players=players, seed=seed, level=level)
    assert isinstance(s, GardensState)
    rng = Rng(seed)
    out = [s.clone()]
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
        else:
            s.play(rng.choice(s.legal_moves()))
        if len(s.history) % 23 == 0:
            out.append(s.clone())
    return [*out, s]


def remote(state: GardensState, viewer: int | None) -> tuple[dict[str, Any], View]:
    """The layout and the view of ``viewer`` as a client of a server gets them: through JSON."""
    layout = json.loads(json.dumps(presentation("gardens").view_layout(state)))
    view = seat_view(state, viewer)
    return layout, View.model_validate_json(view.model_dump_json(by_alias=True))


@pytest.mark.parametrize(("level", "players", "seed"), [(1, 1, 3), (2, 2, 5), (3, 4, 8)])
def test_a_view_through_json_draws_the_terminal_screen(level: int, players: int,
                                                       seed: int) -> None:
    states = positions(level, players, seed)
    assert states[-1].is_over and any(s.phase == 2 for s in states)
    for state in states:
        for viewer in [*range(players), None]:
            layout, view = remote(state, viewer)
            for seat in {viewer, (0 if viewer is None else viewer + 1) % players}:
                assert render.draw(layout, view, seat, True) == terminal_text(
                    state, viewer, seat, True), (len(state.history), viewer, seat)
            assert render.draw_score(layout, view, viewer, False) == terminal_score(
                state, viewer, viewer, False)


def test_the_pencil_in_hand_shows_the_same_to_a_spectator() -> None:
    state = next(s for s in positions(2, 2, 5) if s.phase == 2 and s.group)
    layout, view = remote(state, None)
    screen = render.draw(layout, view, None, True)
    # the screen the mover sees of its own sheet: open fields underlined, its fields marked
    assert screen == terminal_text(state, state.seat, state.seat, True)
    assert "[underline]" in screen and "+" in screen


def test_render_imports_no_engine_module() -> None:
    tree = ast.parse(Path(render.__file__).read_text(encoding="utf-8"))
    reached = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = ("meeple.games.gardens." + (node.module or "") if node.level
                    else node.module or "")
            names = [base, *(f"{base.rstrip('.')}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        reached |= {n.split(".")[3] for n in names if n.startswith("meeple.games.gardens.")}
    assert reached and not reached & ENGINE, reached
    assert not any(isinstance(node, ast.Name) and node.id == "GardensState"
                   for node in ast.walk(tree))
