"""``meeple analyse``: every decision of a saved game against a bot's best turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.common import app, console, err_console, refuse
from meeple.core.errors import MeepleError
from meeple.core.records import check_output_file, load_record
from meeple.sim.analyse import DEFAULT_JUDGE, Analysis, analyse, plot_losses

#: How many moves of a turn a table cell shows before it says how many more there are.
CELL_MOVES = 6


@app.command("analyse")
def analyse_cmd(
    file: Annotated[Path, typer.Argument(help="a record saved by play (one game as JSON) or by "
                                              "simulate/tournament (JSON lines)")],
    bot: Annotated[str, typer.Option(help="the judge: a bot spec (greedy, mcts:iterations=200) "
                                          "or a difficulty (easy, medium, hard, "
                                          "expert)")] = DEFAULT_JUDGE,
    seat: Annotated[int | None, typer.Option(help="analyse this seat only (0 = first)")] = None,
    index: Annotated[int, typer.Option(help="which game of a JSON-lines file (0 = first)")] = 0,
    plot: Annotated[Path | None, typer.Option(help="write a PNG of the loss per turn per seat")
                    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the analysis as JSON instead "
                                                         "of tables")] = False,
    seed: Annotated[int, typer.Option(help="seed of the judging bot")] = 0,
) -> None:
    """For each decision of each seat: the turn played, the bot's best turn and the loss in
    points (the best turn's value less the played one's, both by the game's evaluation of the
    position after the turn, from the deciding seat's view); totals per seat and, with
    --plot, a chart of the loss per turn."""
    try:
        if plot is not None:
            if plot.suffix.lower() != ".png":
                raise MeepleError(f"--plot {plot}: the chart is a PNG file; name it *.png")
            check_output_file(plot, "--plot writes the chart as a PNG file")
        rec = load_record(file, index)
        if as_json or not err_console.is_terminal:
            result = analyse(rec, bot, seat=seat, seed=seed)
        else:
            result = _with_progress(rec, bot, seat, seed)
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    if plot is not None:
        plot_losses(result, plot)
    if as_json:
        print(json.dumps(result.as_dict(), indent=1))
        return
    _print(result)
    if plot is not None:
        console.print(f"plot written to {escape(str(plot))}")


def _with_progress(rec: dict[str, object], bot: str, seat: int | None, seed: int) -> Analysis:
    from rich.progress import Progress

    with Progress(console=err_console, transient=True) as bar:
        task = bar.add_task("analysing", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse(rec, bot, seat=seat, seed=seed, progress=step)


def _turn(moves: tuple[str, ...]) -> str:
    shown = " ".join(moves[:CELL_MOVES])
    more = len(moves) - CELL_MOVES
    return escape(shown + (f" (+{more} more)" if more > 0 else ""))


def seat_given(a: Analysis) -> bool:
    return len(a.summaries) == 1 and a.players > 1


def _print(a: Analysis) -> None:
    state = "finished" if a.finished else "unfinished"
    console.print(f"[bold]{escape(a.game)}[/] ({state}, {a.players} seats) judged by "
                  f"[bold]{escape(a.bot)}[/]: loss = value of the best turn less value of the "
                  "turn played, in points by the game's evaluation")
    if not a.decisions:
        whose = f" by {escape(a.label(a.summaries[0].seat))}" if seat_given(a) else ""
        console.print(f"no decision to analyse: the record holds no complete turn{whose} with a "
                      "choice in it")
        return
    table = Table(show_lines=False)
    for name, justify in (("move", "right"), ("seat", "left"), ("turn", "right"),
                          ("played", "left"), ("best", "left"), ("value", "right"),
                          ("loss", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in a.decisions:
        loss = f"{d.loss:.2f}"
        if d.loss >= 5:
            loss = f"[bold red]{loss}[/]"
        elif d.matched:
            loss = f"[dim]{loss}[/]"
        table.add_row(str(d.number), escape(a.label(d.seat)), str(d.index), _turn(d.played),
                      "[dim]same[/]" if d.matched else _turn(d.best),
                      f"{d.played_value:.1f}", loss)
    console.print(table)
    totals = Table(title="per seat")
    for name in ("seat", "score", "decisions", "same as bot", "total loss", "mean loss per turn",
                 "biggest losses (move: loss)"):
        totals.add_column(name, justify="left" if name.startswith(("seat", "big")) else "right")
    losses = {d.number: d.loss for d in a.decisions}
    for s in a.summaries:
        worst = ", ".join(f"{n}: {losses[n]:.1f}" for n in s.blunders) or "none"
        totals.add_row(escape(a.label(s.seat)), str(a.scores[s.seat]), str(s.decisions),
                       str(s.matched), f"{s.total_loss:.1f}", f"{s.mean_loss:.2f}", worst)
    console.print(totals)
