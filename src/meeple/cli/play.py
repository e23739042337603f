"""``meeple games``, ``meeple play``, ``meeple replay`` and ``meeple sheets``."""

from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

import meeple
from meeple.bots import make_bot
from meeple.bots.base import Bot
from meeple.cli.common import app, check_game, console, err_console, fail, variant_options
from meeple.core.errors import IllegalMove, MeepleError, SheetError
from meeple.core.state import CHANCE, State

HUMAN = {"me", "human", "you"}

HELP_TEXT = """[bold]Commands[/]
  a move in notation   play it (see the legal choices listed; e.g. 'take O', 'D4', 'waste')
  moves                list every legal choice again
  undo                 take back your last decision of this unfinished turn
  show N               draw seat N's sheet
  score                show the score pad
  log                  show the last moves
  help                 this text
  quit                 stop; the record so far is saved"""


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


def _seat_list(seats: str, game: str) -> list[str]:
    names = [s.strip() for s in seats.split(",") if s.strip()]
    info = meeple.game_info(game)
    if not info.min_players <= len(names) <= info.max_players:
        raise MeepleError(
            f"--seats names {len(names)} seat(s); {info.title} takes {info.min_players} to "
            f"{info.max_players} (e.g. --seats me,random)"
        )
    return names


def _format_moves(moves: list[Any]) -> str:
    texts = [str(m) for m in moves]
    width = max(len(t) for t in texts) + 2 if texts else 4
    per_line = max(1, (console.width - 2) // width)
    lines = []
    for i in range(0, len(texts), per_line):
        lines.append("".join(t.ljust(width) for t in texts[i:i + per_line]))
    return "\n".join(lines)


def _save(state: State[Any], path: Path | None, game: str) -> Path:
    if path is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = Path("meeple-records") / f"{game}-seed{state.seed}-{stamp}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state.record(), indent=1), encoding="utf-8")
    return path


def _final(state: State[Any]) -> None:
    console.print(state.render_text(state.winners()[0] if state.winners() else 0))
    names = ", ".join(state.seats[w] for w in state.winners())
    console.print(f"\n[bold green]Game over.[/] Winner(s): {names}")


@app.command("play")
def play_cmd(
    game: Annotated[str, typer.Argument(help="gardens, reefs, takenokolor or pergola")],
    seats: Annotated[str, typer.Option(help="comma-separated seats: 'me' for you, or a bot "
                                            "(random, greedy, mcts...)")] = "me,random",
    level: Annotated[int | None, typer.Option(help="level (Gardens, Reefs)")] = None,
    sheet: Annotated[str | None, typer.Option(help="a shipped sheet name or a TOML file")] = None,
    challenge: Annotated[int | None, typer.Option(help="solo challenge (Pergola)")] = None,
    option: Annotated[list[str] | None, typer.Option(help="other game option key=value")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for rolls and bots")] = None,
    record: Annotated[Path | None, typer.Option(help="where to save the game record")] = None,
    colourblind: Annotated[bool, typer.Option(help="letters per colour")] = True,
) -> None:
    """Play a game in the terminal against bots (or friends on the same keyboard)."""
    check_game(game)
    try:
        names = _seat_list(seats, game)
        opts = variant_options(game, level, sheet, challenge, option)
        the_seed = seed if seed is not None else int(time.time()) % 1_000_000
        state = meeple.new_game(game, players=len(names), seed=the_seed, **opts)
        bots: dict[int, Bot] = {}
        for i, name in enumerate(names):
            if name.lower() not in HUMAN:
                bots[i] = make_bot(name, seed=the_seed * 31 + i)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    humans = [i for i in range(len(names)) if i not in bots]
    state.seats = [("you" if len(humans) == 1 else f"player {i}") if i in humans
                   else f"{n} ({i})" for i, n in enumerate(names)]
    console.print(f"[bold]{meeple.game_info(game).title}[/]  seed {the_seed}  "
                  f"seats: {', '.join(state.seats)}   (type 'help' for commands)")
    try:
        _loop(state, bots)
    except (EOFError, KeyboardInterrupt):
        console.print("\n[yellow]stopped[/]")
    path = _save(state, record, game)
    if state.is_over:
        _final(state)
    console.print(f"record saved to {path}  (meeple replay {path})")


def _loop(state: State[Any], bots: dict[int, Bot]) -> None:
    shown_for: tuple[int, int] | None = None
    while not state.is_over:
        who = state.to_move
        assert who is not None
        if who == CHANCE:
            move = state.sample_chance()
            console.print(f"[dim]chance: {move}[/]")
            continue
        if who in bots:
            move = bots[who].choose(state.view(who), state.legal_moves())
            state.play(move)
            console.print(f"{state.seats[who]}: [bold]{move}[/]")
            continue
        legal = state.legal_moves()
        key = (len(state.history), who)
        if shown_for != key:
            console.print()
            console.print(state.render_text(who))
            console.print(f"\n[bold]{state.seats[who]}[/], your choices:\n{_format_moves(legal)}")
            shown_for = key
        text = console.input("[bold cyan]> [/]").strip()
        if not text:
            continue
        cmd, _, arg = text.partition(" ")
        low = cmd.lower()
        if low in ("quit", "exit"):
            raise KeyboardInterrupt
        if low == "help":
            console.print(HELP_TEXT)
        elif low == "moves":
            console.print(_format_moves(legal))
        elif low == "undo":
            try:
                back = state.undo()
                console.print(f"took back {back}")
                shown_for = None
            except IllegalMove as exc:
                console.print(f"[red]{exc.reason}[/]")
        elif low == "show":
            try:
                n = int(arg)
                console.print(state.view(who).render_text(n))
            except (ValueError, IndexError):
                console.print(f"[red]show takes a seat number 0-{state.players - 1}[/]")
        elif low == "score":
            console.print(state.render_text(who).split("\n\n")[-1])
        elif low == "log":
            console.print(" | ".join(str(m) for m in state.history[-30:]))
        else:
            try:
                state.play(text)
            except IllegalMove as exc:
                console.print(f"[red]refused:[/] {exc.reason}")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record saved by play or simulate (JSON/JSONL)")],
    at: Annotated[int | None, typer.Option(help="show the position after this many moves")] = None,
    seat: Annotated[int, typer.Option(help="whose sheet to draw")] = 0,
    index: Annotated[int, typer.Option(help="which record of a JSONL file (0 = first)")] = 0,
) -> None:
    """Step through a saved game: Enter/n next, p previous, g K go to move K, e end, q quit."""
    try:
        rec = _read_record(file, index)
        final = meeple.replay(rec)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    total = len(rec["moves"])
    if not 0 <= seat < final.players:
        raise fail(f"--seat must be 0-{final.players - 1}")
    if at is not None:
        if not 0 <= at <= total:
            raise fail(f"--at must be between 0 and {total} (the record has {total} moves)")
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
    if not file.exists():
        raise MeepleError(f"no such file: {file}")
    text = file.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not 0 <= index < len(lines):
            raise MeepleError(f"{file} holds {len(lines)} records; --index must be 0-"
                              f"{len(lines) - 1}") from None
        try:
            data = json.loads(lines[index])
        except json.JSONDecodeError as exc:
            raise MeepleError(f"{file} is not a JSON game record: {exc}") from None
    if not isinstance(data, dict):
        raise MeepleError(f"{file} does not hold a game record")
    return data


def _show(rec: dict[str, Any], pos: int, seat: int, total: int) -> None:
    state = meeple.replay(rec, upto=pos)
    last = f"  last: {rec['moves'][pos - 1]}" if pos else ""
    console.print(state.render_text(seat))
    console.print(f"[bold]move {pos}/{total}[/]{last}")


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
