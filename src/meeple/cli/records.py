"""``meeple replay``: step through a saved game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

import meeple
from meeple.cli.common import app, console, refuse
from meeple.core.errors import MeepleError
from meeple.core.records import load_record
from meeple.core.view import terminal_text


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record saved by play (one game as JSON) or by "
                                              "simulate/tournament (JSON lines)")],
    at: Annotated[int | None, typer.Option(help="show the position after this many moves")] = None,
    seat: Annotated[int, typer.Option(help="whose sheet to draw")] = 0,
    index: Annotated[int, typer.Option(help="which game of a JSON-lines file (0 = first)")] = 0,
) -> None:
    """Step through a saved game: Enter/n next, p previous, g K go to move K, e end, q quit."""
    try:
        rec = _read_record(file, index)
        final = meeple.replay(rec)
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    total = len(rec["moves"])
    if not 0 <= seat < final.players:
        raise refuse(f"--seat must be 0-{final.players - 1}")
    if at is not None:
        if not 0 <= at <= total:
            raise refuse(f"--at must be between 0 and {total} (the record has {total} moves)")
        _show(rec, at, seat, total)
        return
    pos = 0
    _show(rec, pos, seat, total)
    while True:
        try:
            cmd = console.input("[bold cyan]replay> [/]").strip().lower()
        except (EOFError, KeyboardInterrupt):
            break
        if cmd in ("q", "quit"):
            break
        if cmd in ("", "n", "next"):
            pos = min(total, pos + 1)
        elif cmd in ("p", "prev"):
            pos = max(0, pos - 1)
        elif cmd in ("e", "end"):
            pos = total
        elif cmd.startswith("g"):
            try:
                pos = max(0, min(total, int(cmd[1:].strip())))
            except ValueError:
                console.print("[red]write g and a move number, e.g. g 40[/]")
                continue
        else:
            console.print("Enter/n next, p previous, g K go to move K, e end, q quit")
            continue
        _show(rec, pos, seat, total)


def _read_record(file: Path, index: int) -> dict[str, Any]:
    """Record ``index`` of ``file`` (a one-game JSON file or JSON lines; see
    :mod:`meeple.core.records`), or a :class:`MeepleError` saying what is wrong."""
    return load_record(file, index)


def _show(rec: dict[str, Any], pos: int, seat: int, total: int) -> None:
    state = meeple.replay(rec, upto=pos)
    last = f"  last: {rec['moves'][pos - 1]}" if pos else ""
    console.print(terminal_text(state, seat, seat))
    console.print(f"[bold]move {pos}/{total}[/]{last}")
