"""``meeple play``: a game in the terminal against bots or friends on the same keyboard."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

import meeple
from meeple.bots import make_bot
from meeple.bots.base import Bot
from meeple.cli.common import (
    app,
    check_game,
    check_record_path,
    console,
    fail,
    save_record,
    variant_options,
)
from meeple.core.errors import IllegalMove, MeepleError
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
    return save_record(state, path, game)  # falls back to another path rather than lose it


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
    check_record_path(record, game)
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
