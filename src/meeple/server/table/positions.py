"""A stored table's game: the ``new_game`` keywords of its variant and sheet, and its start.

Both the service (:mod:`meeple.server.table.service`) and the bot workers
(:mod:`meeple.server.table.botpool`) build positions from a table's stored fields; this module is
what they share, so that neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import meeple
from meeple.core.state import State

if TYPE_CHECKING:  # a bot worker imports this module: it needs no store (SQLAlchemy)
    from meeple.store import Table


@dataclass(frozen=True)
class TableGame:
    """A table's game as a worker rebuilds it: the game, its setup and the moves so far (the
    start of a bot's :class:`~meeple.server.table.botpool.Decision` and of a hint's job)."""

    game: str
    players: int
    variant: dict[str, Any]
    sheet: dict[str, Any] | None
    seed: int
    moves: tuple[str, ...]


def game_args(variant: dict[str, Any], sheet: dict[str, Any] | None) -> dict[str, Any]:
    """``new_game`` keywords for a stored table: its variant, and its sheet data if it has its
    own (an uploaded sheet) instead of a shipped sheet named in the variant."""
    opts = dict(variant)
    if sheet is not None:
        opts["sheet"] = sheet
    return opts


def new_state(table: Table) -> State[Any]:
    """The table's game before its first move, with its seats' names."""
    state = meeple.new_game(table.game, players=table.players, seed=table.seed,
                            **game_args(table.variant, table.sheet))
    state.seats = [s.name for s in table.seats]
    return state
