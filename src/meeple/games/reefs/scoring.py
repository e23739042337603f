"""Pick a Pen: Reefs' score pad (R9, R10): every seat's rows in the pad's order, read from a
state's sheets and bonus holders. ``ReefsState.scores()`` is :func:`score_pad`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.state import Score
from meeple.games.reefs.sheet import COLOURS

if TYPE_CHECKING:
    from meeple.games.reefs.rules import ReefsState


def score_pad(state: ReefsState) -> list[Score]:
    """R9/R10: each treasure row and the coin row score the value above the last coloured
    box; plus the bonus stars. Breakdown in score-pad order."""
    b = state.board
    out = []
    for seat, sh in enumerate(state.sheets):
        rows: dict[str, int] = {}
        for c in range(5):
            n = sh.boxes[c]
            rows[COLOURS[c]] = b.row_values[c][n - 1] if n else 0
        rows["coins"] = b.coin_values[sh.coins - 1] if sh.coins else 0
        rows["bonus 2 each"] = b.bonus.two_each if state.two_each_holder == seat else 0
        rows["bonus full row"] = b.bonus.full_row if state.full_row_holder == seat else 0
        ender = state.over and state.ender == seat
        rows["end grey"] = b.bonus.end_grey if ender and state.end_grey else 0
        rows["end coins"] = b.bonus.end_coins if ender and state.end_coins else 0
        out.append(Score(sum(rows.values()), rows))
    return out
