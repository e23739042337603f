"""The per-seat view: the one thing a client (browser, terminal, bot over the wire) ever sees.

``seat_view(state, viewer, log)`` builds it from the engine's own ``state.seen_by(seat)``: what
that seat may see and nothing else (a spectator, ``viewer=None``, sees what every seat may see
in common). It carries the legal moves of the seat to move (only to that seat), the score pad
rows of every seat, the log of what happened in words, and ``board``: the game's own public
position data, from the hook its package registers (``Presentation.view_board``), documented in
``src/meeple/server/table/README.md`` (*The per-seat view*). The schema is versioned (``schema``);
``meeple schema GAME`` prints it.

``view_data(state, viewers, log)`` makes the views of several viewers of one position at once
as JSON data (what a server sends and diffs), making what they all see once
(``Presentation.view_boards``); ``seat_view`` is the model of one viewer's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import to_jsonable_python

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


def log_line(state: State[Any], said: list[str], words: str = "") -> LogLine:
    """The log line of the move just played on ``state``; ``said``: what it caused; ``words``:
    the move in words (:func:`meeple.core.present.move_words` of the position before it)."""
    mover, move = state.last_logged()
    seat = None if mover == CHANCE else mover
    return LogLine(number=len(state.history), seat=seat,
                   who="chance" if seat is None else state.seats[seat], move=str(move),
                   said=list(said), words=words)


def seat_view(state: State[Any], viewer: int | None, log: list[LogLine] | None = None,
              log_tail: int = LOG_TAIL, text: bool = False) -> View:
    """The view of ``viewer`` (None: a spectator) of ``state``: ``log`` is the game's log in
    words if the caller keeps it (else it is made from the moves, without announcements);
    ``text`` adds the terminal drawing as plain text. The model of :func:`view_data`'s data."""
    view = View.model_validate(_views(state, [viewer], _tail(state, log, log_tail))[viewer])
    if text:
        view.text = _plain(state, view)
    return view


def view_data(state: State[Any], viewers: Sequence[int | None],
              log: list[LogLine] | None = None, log_tail: int = LOG_TAIL,
              text: bool = False) -> dict[int | None, dict[str, Any]]:
    """The views of several ``viewers`` (seats, None: a spectator) of ``state`` at once, by
    viewer, as JSON data: each equal to ``seat_view(state, viewer, log, log_tail,
    text).model_dump(mode="json", by_alias=True)``, keys in the same order. What every viewer
    sees (the seats, the scores, the log, the board's public parts: the game's
    ``Presentation.view_boards``) is made once and shared between the views: read them,
    never change them."""
    tail = _tail(state, log, log_tail)
    out = _views(state, viewers, [line_data(line) for line in tail])
    if text:
        layout = presentation(state.game_name).view_layout(state)
        for data in out.values():
            data["text"] = _plain(state, View.model_validate({**data, "log": tail}), layout)
    return out


#: The JSON data of log lines made lately, by the line's id (with the line itself, so an id
#: is never taken for another line's): a live table's view carries the same 50 lines version
#: after version, and making their data again each time cost a tenth of a server's move.
_LINE_DATA: dict[int, tuple[LogLine, dict[str, Any]]] = {}
#: How many lines' data :data:`_LINE_DATA` keeps at most (then it starts again).
LINE_DATA_KEPT = 20_000


def line_data(line: LogLine) -> dict[str, Any]:
    """``line`` as JSON data (its ``model_dump``), made once for a line and kept while it is
    among the last lines asked for: read it, never change it (views share it)."""
    got = _LINE_DATA.get(id(line))
    if got is not None and got[0] is line:
        return got[1]
    if len(_LINE_DATA) >= LINE_DATA_KEPT:
        _LINE_DATA.clear()
    data = {"number": line.number, "seat": line.seat, "who": line.who, "move": line.move,
            "said": list(line.said), "words": line.words}
    _LINE_DATA[id(line)] = (line, data)
    return data


def _tail(state: State[Any], log: list[LogLine] | None, log_tail: int) -> list[LogLine]:
    """The last ``log_tail`` lines of ``log``, or of the log made from the moves."""
    return (log if log is not None else log_lines(state))[-log_tail:]


def _views(state: State[Any], viewers: Sequence[int | None],
           log: list[Any]) -> dict[int | None, dict[str, Any]]:
    """The views of ``viewers`` as :func:`view_data` makes them, without the terminal text,
    with ``log`` as given (log lines, or their JSON data)."""
    boards = presentation(state.game_name).boards(state, viewers)
    common = _common(state)
    to_move = common["to_move"]
    mover = to_move in viewers and to_move is not None
    legal = [str(m) for m in state.legal_moves()] if mover else []
    undo = mover and state.can_undo()
    out: dict[int | None, dict[str, Any]] = {}
    for v in viewers:
        mine = v is not None and v == to_move
        out[v] = {
            "schema": VIEW_SCHEMA, "game": common["game"], "title": common["title"],
            "variant": common["variant"], "players": common["players"], "viewer": v,
            "seats": common["seats"], "to_move": to_move,
            "chance_pending": common["chance_pending"], "over": common["over"],
            "winners": common["winners"], "turn": common["turn"],
            "moves_played": common["moves_played"], "legal_moves": legal if mine else [],
            "can_undo": mine and undo, "scores": common["scores"], "log": log,
            "board": boards[v], "text": "",
        }
    return out


def _common(state: State[Any]) -> dict[str, Any]:
    """What every viewer's view of ``state`` holds alike but the log, as JSON data (see
    :func:`view_data`; ``to_move`` is None while chance is pending)."""
    scores = state.scores()
    to_move = state.to_move
    return {
        "game": state.game_name, "title": game_info(state.game_name).title,
        "variant": to_jsonable_python(state.variant()), "players": state.players,
        "seats": [{"index": i, "name": state.seats[i], "total": scores[i].total}
                  for i in range(state.players)],
        "to_move": None if to_move in (None, CHANCE) else to_move,
        "chance_pending": to_move == CHANCE, "over": state.is_over,
        "winners": list(state.winners()), "turn": state.turn,
        "moves_played": len(state.history),
        "scores": [{"total": s.total, "rows": dict(s.breakdown)} for s in scores],
    }


def _plain(state: State[Any], view: View, layout: Mapping[str, Any] | None = None) -> str:
    """The terminal drawing of ``view`` as plain text (the view's ``text``), on ``layout``
    (the game's ``view_layout`` of ``state``, made here if not given)."""
    shown = presentation(state.game_name)
    if layout is None:
        layout = shown.view_layout(state)
    return strip_markup(shown.draw(layout, view, view.viewer, True))


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
