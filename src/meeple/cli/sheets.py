"""``meeple games`` and ``meeple sheets``: what games there are, and their sheet files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

import meeple
from meeple.cli.common import GamesHelpCommand, app, check_game, console, err_console, refuse
from meeple.core.errors import MeepleError, SheetError
from meeple.core.registry import SHEETS_FOLDER, game_files, game_sheets
from meeple.core.sheets import SheetProblems, read_sheet_text


@app.command("games")
def games_cmd() -> None:
    """List every game with its players, options and variants."""
    table = Table(title="meeple games")
    for col in ("name", "title", "players", "options", "variants"):
        table.add_column(col)
    for info in meeple.games():
        opts = "; ".join(
            f"{k}: {', '.join(str(v) for v in vals)}" for k, vals in info.options.items()
        )
        variants = "; ".join(info.describe_variant(v) for v in info.variants)
        table.add_row(info.name, info.title, f"{info.min_players}-{info.max_players}",
                      opts or "-", variants)
    console.print(table)


sheets_app = typer.Typer(help="List and validate sheet files.", no_args_is_help=True)
app.add_typer(sheets_app, name="sheets")

#: Games whose ``--sheet`` is a data bundle made of several part files rather than one sheet:
#: the bundle's name, and how a user gives their own.
BUNDLES = {
    "pergola": ("standard", "a folder holding the five part files, or one .toml file with the "
                            "five tables [tools], [pond], [cascade], [leaves], [pergola]"),
}


def _problem_count(exc: MeepleError) -> int:
    """How far a file is from a game's sheet: its number of invalid fields, or (a file of
    another shape altogether, e.g. not a Pergola bundle) very far."""
    return len(exc.problems) if isinstance(exc, SheetProblems) else 1_000_000


def _count_text(exc: MeepleError) -> str:
    n = _problem_count(exc)
    return "not of that shape" if n >= 1_000_000 else f"{n} problem{'s' if n > 1 else ''}"


def _try_game(name: str, file: Path) -> MeepleError | None:
    """None if ``file`` is a valid sheet of game ``name``, else the error it gives."""
    info = meeple.game_info(name)
    last: MeepleError | None = None
    for players in range(info.min_players, info.max_players + 1):  # a sheet may fix the count
        try:
            meeple.new_game(name, players=players, sheet=str(file))
        except SheetError as exc:
            return exc
        except MeepleError as exc:
            last = exc
            continue
        return None
    return last


@sheets_app.command("validate", cls=GamesHelpCommand)
def sheets_validate(
    file: Annotated[Path, typer.Argument(help="a sheet TOML file (Pergola: a data bundle, a "
                                              "folder or one TOML file)")],
    game: Annotated[str | None, typer.Option(help="the game the sheet is for: {games} "
                                                  "(without it, every game is tried)")] = None,
) -> None:
    """Check a sheet file: every problem is listed with its line and field and what is
    allowed; exit code 0 if valid, 2 if not."""
    if game:
        check_game(game)
    candidates = _candidates(file, [game] if game else [g.name for g in meeple.games()])
    errors: dict[str, MeepleError] = {}
    for name in candidates:
        problem = _try_game(name, file)
        if problem is not None:
            errors[name] = problem
            continue
        _print_valid(name, file)
        return
    _refuse_invalid(file, candidates, errors)


def _candidates(file: Path, games: list[str]) -> list[str]:
    """The games ``file`` may be a sheet of: a folder only a data bundle's; a file must be
    readable TOML (refused otherwise)."""
    if file.is_dir():
        folder_games = [g for g in games if g in BUNDLES]
        if not folder_games:
            raise refuse(f"{file} is a folder; a {meeple.game_info(games[0]).title} sheet is "
                       "one UTF-8 TOML file")
        return folder_games
    try:
        text = read_sheet_text(file)
        tomllib.loads(text)
    except SheetError as exc:
        raise refuse(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise refuse(f"{file}: not valid TOML ({exc}); a sheet is a TOML file") from None
    return games


def _print_valid(name: str, file: Path) -> None:
    """A valid sheet (or data bundle) of game ``name``: its title and the notes of what in it
    is reconstructed."""
    info = meeple.game_info(name)
    state = meeple.new_game(name, players=info.max_players, sheet=str(file))
    data = state.sheet_data()
    what = "data bundle" if name in BUNDLES else "sheet"
    title = data.get("title") or data.get("name") or file.name
    console.print(f"[green]valid[/] {info.title} {what}: {escape(str(title))}")
    notes = [str(data.get("note", "")).strip()] if data.get("reconstructed") else []
    if name in BUNDLES:
        notes = [f"{part}: {str(v.get('note', '')).strip()}" for part, v in data.items()
                 if isinstance(v, dict) and v.get("reconstructed")]
    for note in notes:
        console.print("  marked reconstructed: " + escape(note))


def _refuse_invalid(file: Path, candidates: list[str], errors: dict[str, MeepleError]) -> None:
    """A sheet of no game: a part of a bundle is told to validate the bundle; otherwise the
    problems for the closest game, then how far the others are; exit code 2."""
    part_of = [g for g in candidates if g in BUNDLES and file.stem in game_sheets(g)]
    if part_of:
        title = meeple.game_info(part_of[0]).title
        raise refuse(f"{file.name} is named like one part of a {title} data bundle: validate the "
                   f"bundle instead ({BUNDLES[part_of[0]][1]}), with --game {part_of[0]}")
    closest = min(errors, key=lambda g: _problem_count(errors[g]))
    title = meeple.game_info(closest).title
    err_console.print(f"[bold red]invalid[/] {title} sheet: {escape(str(errors[closest]))}")
    others = [f"{meeple.game_info(g).title} ({_count_text(e)})"
              for g, e in errors.items() if g != closest]
    if others:
        err_console.print(f"  closest to a {title} sheet; not a sheet of "
                          f"{', '.join(others)} either (give --game to choose)")
    raise typer.Exit(2)


@sheets_app.command("list", cls=GamesHelpCommand)
def sheets_list(game: Annotated[str | None, typer.Argument(
        help="the game: {games} (without it, every game)")] = None) -> None:
    """The sheets shipped with each game (Pergola: its one data bundle)."""
    names = [game] if game else [g.name for g in meeple.games()]
    for name in names:
        check_game(name)
        folder = game_files(name) / SHEETS_FOLDER
        files = game_sheets(name)
        if not files:
            console.print(f"[bold]{name}[/]: ships no sheets")
            continue
        if name in BUNDLES:
            bundle, own = BUNDLES[name]
            console.print(f"[bold]{name}[/]: one data bundle, {bundle!r} (the default), made of "
                          f"{len(files)} parts: {', '.join(files)}. These parts are not sheets "
                          f"of their own: --sheet takes the bundle name {bundle!r}, or your own "
                          f"bundle: {escape(own)}")
        else:
            console.print(f"[bold]{name}[/]: " + ", ".join(files))
        console.print(f"  in {folder}")
