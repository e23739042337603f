"""A player's own sheet: check an uploaded sheet file and build a table's game on it.

A game whose ``GameInfo.own_sheets`` is on (Gardens, Reefs and Takenokolor) has single-TOML-file
sheets (the format ``meeple sheets`` documents and validates), so a person who owns the printed
sheet can enter the real one. Pergola has no player sheet of that kind (its data is a five-part
bundle of boards and tiles), so it takes none here.

A file is checked exactly as ``meeple sheets validate`` checks it: by building a new game on it
with the engine, which reports every problem with its line and field. What is kept (with the
table and in its record) is the validated sheet as plain data, so the table rebuilds on it
after a restart and its record replays anywhere.
"""

from __future__ import annotations

import json
import logging
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import meeple
from meeple.core.errors import BadVariant, MeepleError, SheetError
from meeple.core.present import presentation
from meeple.core.registry import SHEETS_FOLDER, game_files, game_sheets
from meeple.core.sheets import SheetProblems, check_sheet_data
from meeple.core.state import State
from meeple.core.view import seat_view

log = logging.getLogger("meeple.server")

def upload_games() -> tuple[str, ...]:
    """The games a player may bring a sheet of their own to: every registered game whose
    ``GameInfo.own_sheets`` says it has a sheet format to fill in."""
    return tuple(g.name for g in meeple.games() if g.own_sheets)


#: The largest sheet file accepted, in bytes (the shipped ones are 4-9 KB).
MAX_SHEET_BYTES = 64 * 1024

#: The largest sheet given as data (JSON) to table creation, in bytes once serialised.
MAX_SHEET_DATA_BYTES = 256 * 1024


@dataclass
class SheetRejected(Exception):
    """A sheet that is refused: the HTTP status, a sentence, and every problem found as
    ``(line, field, message)`` (``line`` None where unknown)."""

    status: int
    detail: str
    problems: list[tuple[int | None, str, str]] = field(default_factory=list)
    allowed: str = ""

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"detail": self.detail}
        if self.problems:
            out["problems"] = [{"line": ln, "field": where, "message": msg}
                               for ln, where, msg in self.problems]
        if self.allowed:
            out["allowed"] = self.allowed
        return out


def upload_game(game: str) -> str:
    """``game`` if it takes a player's own sheet; otherwise :class:`SheetRejected` saying which
    games do (an unknown game: 404; Pergola: 422)."""
    games = ", ".join(upload_games())
    try:
        info = meeple.game_info(game)
    except MeepleError as exc:
        raise SheetRejected(404, f"{exc}; own sheets can be uploaded for: {games}") from None
    if not info.own_sheets:
        raise SheetRejected(422, f"{info.title} takes no sheet of a player's own: its sheet data "
                                 f"is not a printed sheet to fill in; own sheets can be uploaded "
                                 f"for: {games}")
    return info.name


def shipped_text(game: str, name: str) -> str:
    """The TOML text of shipped sheet ``name`` of ``game`` (a starting point for one's own)."""
    game = upload_game(game)
    names = game_sheets(game)
    if name.removesuffix(".toml") not in names:
        raise SheetRejected(404, f"no shipped {meeple.game_info(game).title} sheet named "
                                 f"{name!r}; shipped: {', '.join(names)}")
    path = game_files(game) / SHEETS_FOLDER / f"{name.removesuffix('.toml')}.toml"
    return path.read_text(encoding="utf-8")


def _allowed(game: str) -> str:
    title = meeple.game_info(game).title
    names = ", ".join(game_sheets(game))
    return (f"a {title} sheet is a UTF-8 TOML file of at most {MAX_SHEET_BYTES // 1024} KB, laid "
            f"out like the shipped sheets ({names}; GET /api/sheets/{game}/<name> gives one to "
            f"start from); its format is in docs/{game}.md, section Sheet files")


def decode_upload(game: str, raw: bytes) -> str:
    """The text of an uploaded file: refused if too large, not UTF-8 or empty."""
    if len(raw) > MAX_SHEET_BYTES:
        raise SheetRejected(413, f"the sheet file is {len(raw)} bytes; at most {MAX_SHEET_BYTES} "
                                 f"bytes ({MAX_SHEET_BYTES // 1024} KB) are accepted",
                            allowed=_allowed(game))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SheetRejected(422, f"the sheet file is not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                                 f"at offset {exc.start})",
                            [(None, "(file)", "not UTF-8 text: save the file as UTF-8")],
                            _allowed(game)) from None
    if not text.strip():
        raise SheetRejected(422, "the sheet file is empty", [(None, "(file)", "empty file")],
                            _allowed(game))
    return text


def _problems_of(exc: MeepleError, hide: str | None = None) -> list[tuple[int | None, str, str]]:
    """Every problem of a refused sheet; ``hide``, the scratch file's path, never shows."""
    if isinstance(exc, SheetProblems):
        found = list(exc.problems)
    elif isinstance(exc, SheetError):
        found = [(exc.line, "(file)", exc.message)]
    elif isinstance(exc, BadVariant):
        found = [(None, "(variant)", str(exc))]
    else:
        found = [(None, "(sheet)", str(exc))]
    if hide is None:
        return found
    return [(ln, where, msg.replace(f"the sheet {hide!r}", "your sheet")
             .replace(repr(hide), "your sheet").replace(hide, "your sheet"))
            for ln, where, msg in found]


def _reject(game: str, problems: list[tuple[int | None, str, str]]) -> SheetRejected:
    title = meeple.game_info(game).title
    n = len(problems)
    return SheetRejected(422, f"not a valid {title} sheet: {n} problem{'s' if n != 1 else ''}",
                         problems, _allowed(game))


def build(game: str, sheet: str | Mapping[str, Any], players: int = 1,
          variant: Mapping[str, Any] | None = None, seed: int = 0) -> State[Any]:
    """A new game of ``game`` on ``sheet`` (the file's TOML text, or sheet data), validated by
    the engine; :class:`SheetRejected` lists every problem with its line (for text) and field.

    Text is parsed from a scratch file, the way ``meeple sheets validate`` reads a user's file,
    so the lines it names are the lines of the upload. A variant or player count the game
    refuses for this sheet (a level contradicting the sheet's own) is refused too."""
    game = upload_game(game)
    opts = dict(variant or {})
    if "sheet" in opts:
        raise SheetRejected(422, "give either a shipped sheet in variant.sheet or a sheet of "
                                 "your own in sheet, not both")
    if isinstance(sheet, str):
        try:
            size = len(sheet.encode("utf-8"))
        except UnicodeEncodeError as exc:  # a lone surrogate ("\ud800" in the JSON)
            line = sheet.count("\n", 0, exc.start) + 1
            raise SheetRejected(422, "the sheet text is not valid Unicode text",
                                [(line, "(file)", f"a lone surrogate (character "
                                                  f"{exc.start + 1} of the text), which no "
                                                  f"UTF-8 file holds")],
                                _allowed(game)) from None
        if size > MAX_SHEET_BYTES:
            raise SheetRejected(413, f"the sheet text is {size} bytes; at "
                                     f"most {MAX_SHEET_BYTES} bytes are accepted",
                                allowed=_allowed(game))
        if not sheet.strip():
            raise SheetRejected(422, "the sheet text is empty", [(None, "(file)", "empty file")],
                                _allowed(game))
        if sheet.strip() in game_sheets(game):
            keys = sorted({k for v in meeple.game_info(game).variants for k in v})
            way = " or ".join(f"variant.{k}" for k in keys) or "its name"
            raise SheetRejected(422, f"{sheet.strip()!r} is a shipped sheet: choose it with "
                                     f"{way}; sheet takes the text of a sheet file of your own")
        with tempfile.TemporaryDirectory(prefix="meeple-sheet-") as tmp:
            path = Path(tmp) / "sheet.toml"
            path.write_text(sheet, encoding="utf-8")
            state = _new(game, players, seed, str(path), opts, hide=str(path))
    else:
        try:  # depth and size first: json.dumps and pydantic recurse
            check_sheet_data(sheet, path="<sheet data>")
        except SheetError as exc:
            raise _reject(game, _problems_of(exc)) from None
        try:
            size = len(json.dumps(sheet))
        except (TypeError, ValueError):
            raise SheetRejected(422, "sheet data must be plain JSON data") from None
        if size > MAX_SHEET_DATA_BYTES:
            raise SheetRejected(413, f"the sheet data is {size} bytes as JSON; at most "
                                     f"{MAX_SHEET_DATA_BYTES} are accepted")
        state = _new(game, players, seed, sheet, opts)
    # what is kept is the engine's own form of the sheet; it must build the same game
    return _new(game, players, seed, state.sheet_data(), state.variant())


def _new(game: str, players: int, seed: int, sheet: Any, opts: Mapping[str, Any],
         hide: str | None = None) -> State[Any]:
    try:
        return meeple.new_game(game, players=players, seed=seed, sheet=sheet, **opts)
    except MeepleError as exc:
        raise _reject(game, _problems_of(exc, hide)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # the engine failed on data its models let through: still the upload's fault, and
        # still refused with a reason rather than a server error
        log.warning("an uploaded %s sheet broke the engine: %r", game, exc)
        raise _reject(game, [(None, "(sheet)", f"the sheet cannot be played: {exc}")]) from None


def check(game: str, text: str) -> dict[str, Any]:
    """What ``POST /api/sheets/{game}/check`` answers for a valid file: the sheet as data, the
    variant it plays (e.g. its level), and for a preview the layout and a spectator's view of a
    new one-player game on it (nothing marked yet)."""
    state = build(game, text)
    state.seats = ["you"]  # the preview shows the sheet as its owner's
    data = state.sheet_data()
    layout = presentation(game).view_layout(state)
    view = seat_view(state, None, []).model_dump(mode="json", by_alias=True)
    return {"game": game, "valid": True, "name": sheet_name(data), "variant": state.variant(),
            "reconstructed": bool(data.get("reconstructed")), "sheet": data, "layout": layout,
            "view": view}


def sheet_name(data: Mapping[str, Any] | None) -> str | None:
    """How a sheet calls itself (its title or name), for lists and records."""
    if not data:
        return None
    name = data.get("title") or data.get("name")
    return str(name) if name else None


__all__ = ["MAX_SHEET_BYTES", "SheetRejected", "build", "check",
           "decode_upload", "sheet_name", "shipped_text", "upload_game",
           "upload_games"]
