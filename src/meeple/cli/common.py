"""Shared pieces of the command line: the Typer app, the console, variant options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

import meeple
from meeple.core.errors import MeepleError

app = typer.Typer(
    name="meeple",
    help="Play, study and train agents on Pick a Pen: Gardens, Pick a Pen: Reefs, "
    "Takenokolor and Pergola.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a clear error and return the Exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def variant_options(
    game: str,
    level: int | None = None,
    sheet: str | None = None,
    challenge: int | None = None,
    option: list[str] | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``meeple.new_game`` from the common CLI options.

    ``--level``, ``--sheet`` and ``--challenge`` are shortcuts; ``--option key=value`` passes any
    other option a game offers (``meeple games`` lists them).
    """
    info = meeple.game_info(game)
    out: dict[str, Any] = {}
    if level is not None:
        out["level"] = level
    if challenge is not None:
        out["challenge"] = challenge
    if sheet is not None:
        out["sheet"] = sheet
    for item in option or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise MeepleError(f"--option {item!r} must be written key=value")
        allowed = info.options.get(key)
        parsed: Any = value
        if allowed and any(isinstance(a, int) for a in allowed):
            try:
                parsed = int(value)
            except ValueError:
                parsed = value
        out[key] = parsed
    return out


def check_game(game: str) -> None:
    try:
        meeple.game_info(game)
    except MeepleError as exc:
        raise fail(str(exc)) from None


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    import json

    with path.open("a", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
