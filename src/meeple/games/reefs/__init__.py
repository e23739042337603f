"""Pick a Pen: Reefs: draw routes from entry points to recover treasures and coins."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meeple.core.errors import BadVariant
from meeple.core.layers import BotKnowledge
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo
from meeple.games.reefs.announce import announce
from meeple.games.reefs.evaluation import reefs_evaluation
from meeple.games.reefs.moves import NOTATION_HELP, ReefsMove
from meeple.games.reefs.presets import BOT_PRESETS
from meeple.games.reefs.ranker import TurnRanker
from meeple.games.reefs.render import render, render_score
from meeple.games.reefs.rules import ReefsState
from meeple.games.reefs.sheet import LEVEL_SHEETS, Board, load_board
from meeple.games.reefs.view import ReefsBoard, ReefsLayout, view_board, view_layout

__all__ = ["BOTS", "GAME", "PRESENTATION", "ReefsMove", "ReefsState", "make_game"]

#: The level of each shipped sheet.
SHEET_LEVELS: dict[str, int] = {name: level for level, name in LEVEL_SHEETS.items()}


def _items_level(board: Board) -> int:
    """The lowest level whose sheet has this sheet's items: 3 with propellers, 2 with
    whirlpools, else 1."""
    return 3 if board.prop_mask else 2 if board.whirl_mask else 1


def make_game(
    players: int = 2,
    seed: int = 0,
    sheet: str | Path | Mapping[str, Any] | None = None,
    level: int | None = None,
) -> ReefsState:
    """A new game. ``sheet``: None (the level's shipped sheet), a shipped sheet name, a TOML
    path, or the data from ``sheet_data()``.

    The level and the sheet are one choice (each level is a printed sheet), so they must agree:
    a shipped sheet with another level's number is refused. A sheet file of your own plays what
    it contains; its level is the label kept in records, by default the level having its items
    (propellers 3, whirlpools 2, else 1), and an explicit level is refused when the file has an
    item that level's sheet has not (whirlpools are level 2, propellers level 3). Sheet data (a
    record's) keeps the level it is given, so every record replays."""
    if level is not None and level not in LEVEL_SHEETS:
        raise BadVariant(f"level={level!r} does not exist; choose from 1, 2, 3")
    if not 1 <= players <= 4:
        raise BadVariant(f"Pick a Pen: Reefs takes 1 to 4 players, not {players}")
    if sheet is None:
        level = 1 if level is None else level
        return ReefsState(load_board(LEVEL_SHEETS[level]), players, seed, level)
    shipped = SHEET_LEVELS.get(str(sheet)) if isinstance(sheet, str) else None
    if shipped is not None and level is not None and level != shipped:
        raise BadVariant(
            f"sheet {sheet!r} is the level {shipped} sheet, but level={level} was asked for; "
            f"level {level} plays sheet {LEVEL_SHEETS[level]!r}: give one of the two, or a "
            f"matching pair ({', '.join(f'{n!r} = level {lv}' for n, lv in SHEET_LEVELS.items())})"
        )
    board = load_board(sheet)
    if shipped is not None:
        return ReefsState(board, players, seed, shipped)
    if level is None:
        level = _items_level(board)
    elif not isinstance(sheet, Mapping):
        wrong = [f"{items} (level {lv})" for items, lv, mask in (
            ("whirlpools", 2, board.whirl_mask), ("propellers", 3, board.prop_mask))
            if mask and lv != level]
        if wrong:
            raise BadVariant(
                f"the sheet {str(sheet)!r} has {' and '.join(wrong)}, which the level {level} "
                f"sheet has not; leave the level out (it then follows the sheet's items)"
            )
    return ReefsState(board, players, seed, level)


GAME = GameInfo(
    name="reefs",
    title="Pick a Pen: Reefs",
    min_players=1,
    max_players=4,
    factory=make_game,
    options={"level": (1, 2, 3)},
    # no default level: it follows the sheet (see make_game); without a sheet it is 1
    variants=({"level": 1}, {"level": 2}, {"level": 3}),
    summary="Roll five pencils, draft them, and draw routes from entry points to treasures "
    "and coins; level 2 adds whirlpools, level 3 propellers.",
    default_players=2,
)

PRESENTATION: Presentation[ReefsState] = Presentation(
    render=render,
    render_score=render_score,
    notation_help=NOTATION_HELP,
    announce=announce,
    view_board=view_board,
    view_layout=view_layout,
    layout_model=ReefsLayout,
    board_model=ReefsBoard,
)

BOTS: BotKnowledge[ReefsState] = BotKnowledge(
    evaluation=reefs_evaluation,
    turn_ranker=TurnRanker(reefs_evaluation),
    presets=BOT_PRESETS,
)
