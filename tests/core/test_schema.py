"""``meeple schema GAME`` publishes the view's JSON Schema with the game's own board and layout,
and real views of every game validate against it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core.present import presentation
from meeple.core.rng import Rng
from meeple.core.state import CHANCE
from meeple.core.view import seat_view, view_schema

GAMES = [g.name for g in meeple.games()]


def _positions(game: str, steps: int = 60) -> list[Any]:
    info = meeple.game_info(game)
    state = meeple.new_game(game, players=2, seed=3, **dict(info.variants[0]))
    rng = Rng(1)
    out = []
    for _ in range(steps):
        if state.is_over:
            break
        if state.to_move == CHANCE:
            state.sample_chance()
            continue
        out.append(state.clone())
        state.play(rng.choice(state.legal_moves()))
    out.append(state)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_views_validate_against_the_published_schema(game: str) -> None:
    shown = presentation(game)
    assert issubclass(shown.board_model, BaseModel) and issubclass(shown.layout_model, BaseModel)
    schema = view_schema(game)
    layout_schema = {"$defs": schema["$defs"], "$ref": schema["x-layout"]["$ref"]}
    validator = jsonschema.Draft202012Validator(schema)
    for state in _positions(game):
        for viewer in (state.to_move if isinstance(state.to_move, int) and state.to_move >= 0
                       else None, None):
            data = json.loads(seat_view(state, viewer).model_dump_json(by_alias=True))
            validator.validate(data)
    layout = shown.view_layout(state)
    jsonschema.validate(json.loads(json.dumps(layout)), layout_schema)


def test_meeple_schema_prints_it_and_refuses_an_unknown_game() -> None:
    out = CliRunner().invoke(app, ["schema", "gardens"])
    assert out.exit_code == 0, out.output
    printed = json.loads(out.output)
    assert printed["properties"]["board"]["$ref"].startswith("#/$defs/board_")
    bad = CliRunner().invoke(app, ["schema", "chess"])
    assert bad.exit_code == 2
