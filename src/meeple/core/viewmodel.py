"""The per-seat view's data: what one seat (or a spectator) sees of a game, as pydantic models.

Kept apart from :mod:`meeple.core.view` (which builds a view from a state) so that the
presentation layer (:mod:`meeple.core.present`), whose terminal drawings read a view, can name
the model without importing the builder.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

VIEW_SCHEMA = "meeple-view/1"


class TurnWords(BaseModel):
    """The words a game's board gives about the turn: the base of Gardens', Reefs' and
    Takenokolor's board models (their fields come first in the board). The same three
    sentences in every game, so a client shows them the same way: the status line, the words
    after "Your turn: ", and the result under the winners."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sentence: str = Field(description="who is doing what, in words: a whole sentence naming the "
                                      "seat (once over: the result)")
    doing: str = Field(description="what the seat to move has to do, without its name, to follow "
                                   "'Your turn: ' or 'Ann is to move: '; empty while chance acts "
                                   "(a roll) and once over")
    result_text: str = Field(description="once over: when and why the game ended, as a sentence "
                                         "shown after the winners; else empty")


class ScorePad(BaseModel):
    """One seat's score pad: the total and the rows as printed, in pad order."""

    total: int
    rows: dict[str, int]


class LogLine(BaseModel):
    """One move of the game: its number, who made it and what happened, in words."""

    number: int = Field(description="1-based position among the game's moves")
    seat: int | None = Field(description="the seat that moved; None for chance (a roll, a draw)")
    who: str = Field(description="the seat's display name, or 'chance'")
    move: str = Field(description="the move in the game's notation")
    said: list[str] = Field(default_factory=list,
                            description="what a player should be told it caused")
    words: str = Field(default="", description="the move in words, as players read it "
                                               "('colour C7 green'); empty where the log was "
                                               "made without them (then show ``move``)")


class SeatSummary(BaseModel):
    index: int
    name: str
    total: int


class View(BaseModel):
    """What one seat (or a spectator) sees of a game."""

    schema_: str = Field(VIEW_SCHEMA, alias="schema", description="the view format's version")
    game: str
    title: str
    variant: dict[str, Any]
    players: int
    viewer: int | None = Field(description="the seat this view is for; None for a spectator")
    seats: list[SeatSummary]
    to_move: int | None = Field(description="the seat to move; None once over or while "
                                            "chance is pending")
    chance_pending: bool
    over: bool
    winners: list[int]
    turn: int = Field(description="seat turns completed")
    moves_played: int
    legal_moves: list[str] = Field(description="the moves of the seat to move, in notation; "
                                               "empty unless the viewer is to move")
    can_undo: bool = Field(description="whether the viewer may take back their last decision")
    scores: list[ScorePad]
    log: list[LogLine]
    board: dict[str, Any] = Field(description="the game's public position data "
                                              "(game-specific; see docs/server.md)")
    text: str = Field(description="the position as the terminal draws it for this viewer, "
                                  "plain text (only when asked for)")

    model_config = {"populate_by_name": True}
