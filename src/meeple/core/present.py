"""The presentation layer's registry: how a game is put into words, views and drawing.

Each game package builds a :class:`Presentation` over its own State class and exposes it as
``PRESENTATION`` beside its ``GAME`` (the rules' facts, :mod:`meeple.core.registry`), from the
modules of the package's shape (:meth:`Presentation.from_modules`); this module finds it through
the package the rules registry loaded. Everything that shows a game to a person reads it from
here: the per-seat view (:mod:`meeple.core.view`), the terminal (:func:`draw_view`,
:func:`draw_view_score`, from the view), the log in words (:func:`announcements`), the schema
(``meeple schema``). The rules never import any of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from meeple.core.registry import kept_game_part
from meeple.core.state import State
from meeple.core.viewmodel import View

log = logging.getLogger("meeple")

S = TypeVar("S", bound=State[Any])
S_contra = TypeVar("S_contra", bound=State[Any], contravariant=True)

#: ``draw(layout, view, seat, colourblind)``: the terminal drawing of a per-seat view, as Rich
#: markup. ``layout`` is what the game's ``view_layout`` gives for the table (JSON data, as
#: ``GET /api/tables/{id}/layout`` sends it), ``view`` the viewer's :class:`View` (its
#: ``board`` from ``view_board``), ``seat`` the seat whose sheet the screen is about (None:
#: every seat, as a spectator's screen shows them), letters beside colours when ``colourblind``.
#: It reads nothing but its arguments, so a client that has a view and the layout (``meeple
#: join``) draws the same screen as ``meeple play``.
ViewDrawing = Callable[[Mapping[str, Any], View, int | None, bool], str]

#: ``view_boards(state, viewers)``: the boards of several viewers of one position, by viewer
#: (:attr:`Presentation.view_boards`).
ViewBoards = Callable[[S, Sequence[int | None]], dict[int | None, dict[str, Any]]]


def public_boards(state: S, viewers: Sequence[int | None],
                  public: Callable[[S], dict[str, Any]],
                  board: Callable[[dict[str, Any], S, int | None], dict[str, Any]]
                  ) -> dict[int | None, dict[str, Any]]:
    """A ``view_boards`` for a game whose every sheet is public (``state.seen_by(seat)`` is
    the whole position for every seat): the board made once by ``public`` from seat 0's
    sight of ``state``, then ``board(public_board, seen, viewer)`` adds each viewer's own
    part (the choices of the seat to move). The boards share their parts."""
    seen = state.seen_by(0)
    made = public(seen)
    return {v: board(made, seen, v) for v in viewers}


@dataclass(frozen=True, kw_only=True)
class Presentation(Generic[S]):
    """A game's words, views and terminal drawing, typed over its State class ``S``.

    Build it annotated, ``PRESENTATION: Presentation[GardensState] = Presentation(...)`` (or
    ``= Presentation.from_modules(...)``), so mypy checks each function against the game's own
    state.
    """

    #: The whole screen for a seat as Rich markup (``meeple play``, ``meeple join``), drawn
    #: from the per-seat view and the layout only (:data:`ViewDrawing`): the game's
    #: ``render.py``, which never reads its rules.
    draw: ViewDrawing
    #: The score pad alone, as printed (``score`` at the terminal prompt), from the view;
    #: ``None``: the terminal prints the score rows of the view.
    draw_score: ViewDrawing | None = None
    #: ``announce(before, after)``: what happened between two states of a game, in words, for
    #: players (a garden completed, a bonus taken).
    announce: Callable[[S, S], list[str]]
    #: ``view_board(view_state, viewer)``: the game's public position as JSON-able data for
    #: clients (``meeple.core.view``): what changes during a game, and the choices of the
    #: seat to move keyed by the layout element each one targets; ``viewer`` is a seat or
    #: None for a spectator. Built from ``state.seen_by(seat)``.
    view_board: Callable[[S, int | None], dict[str, Any]]
    #: ``view_boards(state, viewers)``: the boards of several viewers of one position at once
    #: (:func:`meeple.core.view.view_data`), by viewer, each equal to what ``view_board``
    #: gives that viewer, with what they all see made once. ``state`` is the whole state: the
    #: hook keeps what a seat may not see out of the others' boards as ``view_board`` does
    #: (from ``state.seen_by(seat)``). The boards may share their parts: read them, never change
    #: them. None: ``view_board`` per viewer (:meth:`boards`).
    view_boards: ViewBoards[S] | None = None
    #: ``view_layout(state)``: what never changes during a game, as JSON-able data: the
    #: sheet's or board's geometry, element ids, labels and scoring tables, so a client can
    #: draw any sheet (a user's own too). Sent once per table (``GET .../layout``).
    view_layout: Callable[[S], dict[str, Any]]
    #: The pydantic models behind ``view_layout`` and ``view_board`` (for ``meeple schema``).
    layout_model: type[BaseModel]
    board_model: type[BaseModel]
    #: How moves are written in this game, with examples (``help`` at the terminal prompt);
    #: empty: the terminal shows examples from the legal moves.
    notation_help: str = ""
    #: ``describe(before, move)``: ``move`` (a decision of the seat to move, or a chance event)
    #: in words, as a player reads it in the log and in the turn being built ("colour C7
    #: green"), from the position before it; only what every seat may know of it (the log is
    #: public). The words of a decision are those its choice has in ``view_board``
    #: (``board.choices``). None: the notation (:func:`move_words`).
    describe: Callable[[S, Any], str] | None = None

    def boards(self, state: S, viewers: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """The boards of ``viewers`` (seats, None: a spectator) of the whole state ``state``, by
        viewer: the game's ``view_boards``, else ``view_board`` of each viewer's own view
        (``state.seen_by(seat)``; seat 0's for a spectator)."""
        if self.view_boards is not None:
            return self.view_boards(state, viewers)
        return {v: self.view_board(state.seen_by(0 if v is None else v), v) for v in viewers}

    @classmethod
    def from_modules(cls, moves: MovesModule, words: WordsModule[S], view: ViewModule[S],
                     render: RenderModule, *, layout_model: type[BaseModel],
                     board_model: type[BaseModel]) -> Presentation[S]:
        """The presentation of a game package whose modules have the names the package shape
        gives them (docs/adding-a-game.md): ``moves.NOTATION_HELP``, ``words.announce``,
        ``view.view_board`` and ``view.view_layout`` (and ``view.view_boards`` if the module
        has it), ``render.draw`` and ``render.draw_score``, with the view's two models (their
        names are the game's own). mypy checks each module against the game's State class as
        it checks the fields: a ``words`` whose ``announce`` takes another state is not a
        ``WordsModule[GardensState]``."""
        boards = view.view_boards if isinstance(view, SharedViewModule) else None
        describe = view.describe if isinstance(view, DescribingViewModule) else None
        return cls(draw=render.draw, draw_score=render.draw_score,
                   notation_help=moves.NOTATION_HELP, announce=words.announce,
                   view_board=view.view_board, view_boards=boards, view_layout=view.view_layout,
                   layout_model=layout_model, board_model=board_model, describe=describe)


# The modules of a game package that :meth:`Presentation.from_modules` reads (a module object
# satisfies a protocol by its top-level names; mypy checks them).


class MovesModule(Protocol):
    """A game's ``moves.py``: how its moves are written."""

    NOTATION_HELP: str


class WordsModule(Protocol[S_contra]):
    """A game's ``words.py``: the game in words."""

    @property
    def announce(self) -> Callable[[S_contra, S_contra], list[str]]: ...


class ViewModule(Protocol[S_contra]):
    """A game's ``boards.py``: the per-seat view as JSON-able data."""

    @property
    def view_board(self) -> Callable[[S_contra, int | None], dict[str, Any]]: ...

    @property
    def view_layout(self) -> Callable[[S_contra], dict[str, Any]]: ...


@runtime_checkable
class SharedViewModule(ViewModule[S_contra], Protocol[S_contra]):
    """A game's ``boards.py`` that also makes the boards of several viewers at once."""

    @property
    def view_boards(self) -> ViewBoards[S_contra]: ...


@runtime_checkable
class DescribingViewModule(ViewModule[S_contra], Protocol[S_contra]):
    """A game's ``boards.py`` that also puts a move into words (:attr:`Presentation.describe`):
    beside its choices' labels, which say the same."""

    @property
    def describe(self) -> Callable[[S_contra, Any], str]: ...


class RenderModule(Protocol):
    """A game's ``render.py``: its terminal drawing, the whole screen and the score pad."""

    @property
    def draw(self) -> ViewDrawing: ...

    @property
    def draw_score(self) -> ViewDrawing: ...


#: Presentations found so far, by game name (tests may replace one for a game).
PRESENTATIONS: dict[str, Presentation[Any]] = {}


def presentation(game: str) -> Presentation[Any]:
    """Game ``game``'s presentation (its package's ``PRESENTATION``). Raises
    :class:`~meeple.core.errors.UnknownGame` for a game not registered and
    :class:`~meeple.core.errors.IncompleteGame` for one whose package has none."""
    return kept_game_part(PRESENTATIONS, game, "PRESENTATION", Presentation)


def draw_view(layout: Mapping[str, Any], view: View, seat: int | None,
              colourblind: bool = True) -> str:
    """The terminal screen of ``view`` (a per-seat view, from :func:`meeple.core.view.seat_view`
    or a server) on the table's ``layout``, as Rich markup, about ``seat`` (None: every seat)."""
    return presentation(view.game).draw(layout, view, seat, colourblind)


def draw_view_score(layout: Mapping[str, Any], view: View, seat: int | None,
                    colourblind: bool = True) -> str | None:
    """The score pad alone, as printed, from ``view``; ``None`` if the game draws none."""
    draw = presentation(view.game).draw_score
    return None if draw is None else draw(layout, view, seat, colourblind)


def move_words(before: State[Any], move: Any) -> str:
    """``move``, played from ``before``, in words for players (the game's
    :attr:`Presentation.describe`), or its notation where the game has no words for it. Words
    are never worth a failed move: a ``describe`` that fails is logged and the notation shown."""
    describe = presentation(before.game_name).describe
    if describe is None:
        return str(move)
    try:
        words = describe(before, move)
    except Exception:  # a defect in a game's words: the move itself stands
        log.warning("%s: no words for the move %r", before.game_name, str(move), exc_info=True)
        return str(move)
    return words or str(move)


def announcements(before: State[Any], after: State[Any]) -> list[str]:
    """What a player should be told happened from ``before`` to ``after`` (a later state of
    the same game), in words: a garden completed, a bonus taken, a ladybug circled. Computed
    from the two states, so the rules pay nothing for it in playouts."""
    return presentation(after.game_name).announce(before, after)
