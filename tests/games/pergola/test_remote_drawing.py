"""The Pergola screen is drawn from the per-seat view and the layout alone: a client that got
both as JSON (``meeple join``) draws what ``meeple play`` draws, and the drawing module reads
no rules, data or scoring module."""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path

import pytest

import meeple
from meeple.core.present import presentation
from meeple.core.rng import Rng
from meeple.core.view import View, seat_view, terminal_score, terminal_text
from meeple.games.pergola import render
from meeple.games.pergola.rules import PergolaState
from tests.games.pergola.helpers import garden, start

FORBIDDEN = {"rules", "sheet", "scoring"}


def _played(players: int, seed: int, steps: int, **options: object) -> PergolaState:
    """A game ``steps`` random decisions in (chance sampled), or at its end."""
    s = meeple.new_game("pergola", players=players, seed=seed, **options)
    assert isinstance(s, PergolaState)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    return s


@cache
def _positions() -> list[PergolaState]:
    before = meeple.new_game("pergola", players=2)
    assert isinstance(before, PergolaState)
    named = start(players=3)
    named.seats = ["you", "Ann [x]", "Bob"]
    g = garden(named, 1)
    g.holly = [2, 1, 0]
    g.bfly[0] = 1
    return [before, named, _played(2, 3, 60), _played(4, 5, 200), _played(1, 7, 40, challenge=4),
            _played(1, 2, 10_000, challenge=6), _played(2, 1, 10_000)]


def _remote(state: PergolaState, viewer: int | None) -> tuple[dict[str, object], View]:
    """The layout and the view as a client gets them: through JSON."""
    layout = json.loads(json.dumps(presentation("pergola").view_layout(state)))
    view = seat_view(state, viewer)
    return layout, View.model_validate_json(view.model_dump_json(by_alias=True))


@pytest.mark.parametrize("k", range(7))
def test_a_view_through_json_draws_the_terminal_screen(k: int) -> None:
    state = _positions()[k].clone()
    for viewer in (*range(state.players), None):
        layout, view = _remote(state, viewer)
        for seat in {viewer, None, ((viewer or 0) + 1) % state.players}:
            for colourblind in (True, False):
                assert (render.draw(layout, view, seat, colourblind)
                        == terminal_text(state, viewer, seat, colourblind))
        assert render.draw_score(layout, view, viewer, True) == terminal_score(
            state, viewer, viewer, True)


def test_the_registered_drawing_is_the_view_drawing() -> None:
    shown = presentation("pergola")
    assert shown.draw is render.draw and shown.draw_score is render.draw_score
    assert not hasattr(shown, "render") and not hasattr(shown, "render_score")


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports (``from . import x`` counted as ``<package>.x``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def test_render_imports_no_rules_data_or_scoring() -> None:
    imported = _imported(Path(render.__file__))
    package = "meeple.games.pergola"
    bad = {m for m in imported if m.startswith(package + ".")
           and m.removeprefix(package + ".").split(".")[0] in FORBIDDEN}
    assert not bad, bad
    assert f"{package}.words" in imported and f"{package}.boards" in imported


def test_words_does_not_import_render() -> None:
    from meeple.games.pergola import words

    imported = _imported(Path(words.__file__))
    assert not any(m.endswith(".render") or ".render." in m for m in imported), imported
