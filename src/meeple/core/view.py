"""The per-seat view: the one thing a client (browser, terminal, bot over the wire) ever sees.

``seat_view(state, viewer, log)`` builds it from the engine's own ``state.view(seat)``: what
that seat may see and nothing else (a spectator, ``viewer=None``, sees what every seat may see
in common). It carries the legal moves of the seat to move (only to that seat), the score pad
rows of every seat, the log of what happened in words, and ``board``: the game's own public
position data, from the hook its package registers (``Presentation.view_board``), documented in
``docs/server.md``. The schema is versioned (``schema``); ``meeple schema GAME`` prints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.markup import strip_markup
from meeple.core.present import draw_view, draw_view_score, presentation
from meeple.core.registry import game_info
from meeple.core.state import CHANCE, State
from meeple.core.viewmodel import VIEW_SCHEMA as VIEW_SCHEMA
from meeple.core.viewmodel import LogLine as LogLine
from meeple.core.viewmodel import ScorePad as ScorePad
from meeple.core.viewmodel import SeatSummary as SeatSummary
from meeple.core.viewmodel import View as View


def log_lines(state: State[Any], said: Sequence[list[str]] | None = None,
              first: int = 0) -> list[LogLine]:
    """The game's moves as log lines, from move ``first`` on; ``said[i]`` is what move ``i``
    caused (from :func:`meeple.core.present.announcements`), when the caller kept it."""
    out = []
    for i, (mover, move) in enumerate(state.log()):
        if i < first:
            continue
        seat = None if mover == CHANCE else mover
        out.append(LogLine(number=i + 1, seat=seat,
                           who="chance" if seat is None else state.seats[seat],
                           move=str(move), said=list(said[i]) if said and i < len(said) else []))
    return out


#: How many of the last log lines a view carries (the whole log is the record's).
LOG_TAIL = 50


def log_line(state: State[Any], said: list[str]) -> LogLine:
    """The log line of the move just played on ``state``; ``said``: what it caused."""
    mover, move = state.last_logged()
    seat = None if mover == CHANCE else mover
    return LogLine(number=len(state.history), seat=seat,
                   who="chance" if seat is None else state.seats[seat], move=str(move),
                   said=list(said))


def seat_view(state: State[Any], viewer: int | None, log: list[LogLine] | None = None,
              log_tail: int = LOG_TAIL, text: bool = False) -> View:
    """The view of ``viewer`` (None: a spectator) of ``state``: ``log`` is the game's log in
    words if the caller keeps it (else it is made from the moves, without announcements);
    ``text`` adds the terminal drawing as plain text."""
    info = game_info(state.game_name)
    shown = presentation(state.game_name)
    seen = state.view(viewer if viewer is not None else 0)
    to_move = state.to_move
    scores = state.scores()
    legal: list[str] = []
    if viewer is not None and to_move == viewer:
        legal = [str(m) for m in state.legal_moves()]
    board = shown.view_board(seen, viewer)
    lines = log if log is not None else log_lines(state)
    view = View(
        schema=VIEW_SCHEMA, game=state.game_name, title=info.title, variant=state.variant(),
        players=state.players, viewer=viewer,
        seats=[SeatSummary(index=i, name=state.seats[i], total=scores[i].total)
               for i in range(state.players)],
        to_move=None if to_move in (None, CHANCE) else to_move,
        chance_pending=to_move == CHANCE, over=state.is_over, winners=state.winners(),
        turn=state.turn, moves_played=len(state.history), legal_moves=legal,
        can_undo=viewer is not None and state.can_undo() and to_move == viewer,
        scores=[ScorePad(total=s.total, rows=dict(s.breakdown)) for s in scores],
        log=lines[-log_tail:], board=board, text="",
    )
    if text:
        view.text = _plain(state, view)
    return view


def _plain(state: State[Any], view: View) -> str:
    """The terminal drawing of ``view`` as plain text (the view's ``text``)."""
    shown = presentation(state.game_name)
    return strip_markup(shown.draw(shown.view_layout(state), view, view.viewer, True))


def terminal_text(state: State[Any], viewer: int | None, seat: int | None,
                  colourblind: bool = True, log: list[LogLine] | None = None) -> str:
    """The terminal screen of ``state`` as ``viewer`` (a seat, or None: a spectator) sees it,
    about ``seat`` (the sheet shown; None: every seat), as Rich markup: drawn from the per-seat
    view and the layout, as a client of a server draws it (``meeple join``)."""
    shown = presentation(state.game_name)
    view = seat_view(state, viewer, log=log)
    return draw_view(shown.view_layout(state), view, seat, colourblind)


def terminal_score(state: State[Any], viewer: int | None, seat: int | None,
                   colourblind: bool = True) -> str | None:
    """The score pad alone as printed, about ``seat``, from ``viewer``'s view; ``None`` if the
    game draws none (the terminal then prints the view's score rows)."""
    shown = presentation(state.game_name)
    return draw_view_score(shown.view_layout(state), seat_view(state, viewer), seat, colourblind)


def view_schema(game: str | None = None) -> dict[str, Any]:
    """The JSON Schema of :class:`View`; for a game, with its ``board`` part and the layout
    it draws on (``Presentation.board_model``, ``layout_model``) under ``$defs``."""
    schema = View.model_json_schema(by_alias=True)
    if game is None:
        return schema
    info = game_info(game)
    shown = presentation(game)
    schema["title"] = f"{info.title} view"
    defs = schema.setdefault("$defs", {})
    for key, model in (("board", shown.board_model), ("layout", shown.layout_model)):
        part = model.model_json_schema(by_alias=True, ref_template=f"#/$defs/{key}_{{model}}")
        for name, sub in part.pop("$defs", {}).items():
            defs[f"{key}_{name}"] = sub
        defs[f"{key}_{part.get('title', key)}"] = part
        if key == "board":
            schema["properties"]["board"] = {"$ref": f"#/$defs/board_{part.get('title', key)}"}
        else:
            schema["x-layout"] = {"$ref": f"#/$defs/layout_{part.get('title', key)}",
                                  "description": "GET /api/tables/{id}/layout returns this"}
    return schema
