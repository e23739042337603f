"""The ``meeple`` command (Typer + Rich).

Sub-commands live in modules of this package, each adding itself to ``app``:
``agent`` (agent), ``analyse`` (analyse), ``newgame`` (new-game),
``play`` (play), ``online`` (join), ``ratings`` (calibrate-bots),
``records`` (replay), ``reports`` (reports: the chat's reported messages), ``serve`` (serve,
schema), ``sheets`` (games, sheets), ``sim`` (simulate, report, tournament) and ``train`` (train).
"""

from __future__ import annotations

import importlib

from meeple.cli.common import app, err_console
from meeple.core.errors import MeepleError

for _module in ("agent", "analyse", "newgame", "online", "play", "ratings", "records", "reports", "serve",
                "sheets", "sim", "train"):
    try:
        importlib.import_module(f"meeple.cli.{_module}")
    except ModuleNotFoundError as exc:  # a sub-command module not written yet
        if exc.name != f"meeple.cli.{_module}":
            raise


def main() -> None:
    """Entry point: a MeepleError that escapes a command is shown as a clear message, exit 2."""
    try:
        app()
    except MeepleError as exc:
        err_console.print(f"[bold red]error:[/] {exc}")
        raise SystemExit(2) from None


__all__ = ["app", "main"]
