"""``meeple games`` and ``meeple sheets``: what games there are, and their sheet files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

import meeple
from meeple.cli.common import app, check_game, console, err_console, fail
from meeple.core.errors import MeepleError, SheetError


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


@sheets_app.command("validate")
def sheets_validate(
    file: Annotated[Path, typer.Argument(help="a sheet TOML file")],
    game: Annotated[str | None, typer.Option(help="the game the sheet is for")] = None,
) -> None:
    """Check a sheet file; errors give the line and say what is allowed."""
    if not file.exists():
        raise fail(f"no such file: {file}")
    candidates = [game] if game else [g.name for g in meeple.games()]
    if game:
        check_game(game)
    errors: list[tuple[str, str]] = []
    for name in candidates:
        info = meeple.game_info(name)
        try:
            state = meeple.new_game(name, players=info.min_players, sheet=str(file))
        except SheetError as exc:
            errors.append((name, str(exc)))
            continue
        except MeepleError as exc:
            errors.append((name, str(exc)))
            continue
        data = state.sheet_data()
        console.print(f"[green]valid[/] {info.title} sheet: {data.get('name', file.name)}")
        if data.get("reconstructed"):
            console.print("  marked reconstructed: " + str(data.get("note", "")).strip())
        return
    for name, msg in errors:
        err_console.print(f"[bold red]invalid[/] as a {name} sheet: {msg}")
    raise typer.Exit(1)


@sheets_app.command("list")
def sheets_list(game: Annotated[str | None, typer.Argument()] = None) -> None:
    """The sheet files shipped with each game."""
    names = [game] if game else [g.name for g in meeple.games()]
    for name in names:
        check_game(name)
        folder = resources.files("meeple.games") / name / "sheets"
        files = sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml"))
        console.print(f"[bold]{name}[/]: " + ", ".join(f.removesuffix(".toml") for f in files))
        console.print(f"  in {folder}")
