"""The terminal drawing reads the per-seat view and the layout only: a view and a layout that
went through JSON (as a client of a server gets them) draw the same screen and score pad as
``terminal_text`` / ``terminal_score`` for the same position and viewer, and render.py imports
nothing of the engine (rules, sheet, scoring)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from meeple.core.present import presentation
from meeple.core.view import seat_view, terminal_score, terminal_text
from meeple.core.viewmodel import View
from meeple.games.takenokolor import render
from meeple.games.takenokolor.moves import FREE
from meeple.games.takenokolor.render import draw, draw_score
from meeple.games.takenokolor.rules import TakenokolorState
from tests.games.takenokolor.helpers import new, paint, roll

SHEETS = ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"]


def _remote(s: TakenokolorState, viewer: int | None) -> tuple[dict[str, Any], View]:
    """The layout and ``viewer``'s view of ``s`` as a remote client has them: through JSON."""
    layout = json.loads(json.dumps(presentation("takenokolor").view_layout(s)))
    view = seat_view(s, viewer)
    return layout, View.model_validate_json(view.model_dump_json(by_alias=True))


def _check(s: TakenokolorState, viewer: int | None, seat: int | None, colourblind: bool) -> None:
    layout, view = _remote(s, viewer)
    assert draw(layout, view, seat, colourblind) == terminal_text(s, viewer, seat, colourblind)
    assert draw_score(layout, view, seat, colourblind) == terminal_score(s, viewer, seat,
                                                                         colourblind)


@pytest.mark.parametrize("sheet", SHEETS)
def test_a_view_through_json_draws_the_same_screen(sheet: str) -> None:
    rng = random.Random(sheet)
    s = new(sheet, 3)
    s.seats = ["you", "Ann", "bob"]
    phases = set()
    k = 0
    while True:
        k += 1
        if s.is_over or k % 9 == 0:
            phases.add(s.phase)
            to_move = s.to_move if isinstance(s.to_move, int) and s.to_move >= 0 else None
            for viewer, seat in ((to_move, to_move), (None, None), (0, 1), (2, None)):
                _check(s, viewer, seat, k % 2 == 0)
        if s.is_over:
            break
        s.play(rng.choice(s.legal_moves()))
    assert len(phases) >= 3  # rolling, taking, colouring, ... and the end


def test_a_spectator_sees_the_items_the_seat_to_move_may_colour() -> None:
    s = new("2-pandas", 2)
    roll(s, "circle square triangle square")
    s.play("take B")
    layout, view = _remote(s, None)
    assert view.board["colourable"]  # public: the same for every viewer
    plain = Text.from_markup(draw(layout, view, None, True)).plain
    assert ">" + view.board["colourable"][0] in plain
    assert plain == Text.from_markup(terminal_text(s, 0, 0)).plain


def test_a_free_colouring_is_drawn_from_the_view() -> None:
    s = new("2-pandas", 2)
    paint(s, 0, "c1", "c2", "c3")
    roll(s, "circle circle circle square")
    s.play("take G")
    s.play("colour c4")  # completes the cloud: two free sections of one bamboo
    assert s.phase == FREE
    for viewer in (None, 0, 1):
        for seat in (None, 0, 1):
            _check(s, viewer, seat, True)
    layout, view = _remote(s, 1)
    plain = Text.from_markup(draw(layout, view, None, True)).plain
    assert ": a free colouring (2 to make)" in plain.splitlines()[-1]


def test_render_imports_nothing_of_the_engine() -> None:
    tree = ast.parse(Path(render.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    engine = {f"meeple.games.takenokolor.{m}" for m in ("rules", "sheet", "scoring")}
    assert not imported & engine, imported & engine
    assert not any("State" in name.rsplit(".", 1)[-1] for name in imported)
