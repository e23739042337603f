"""``meeple train``: improve a bot by self-play (expert iteration; :mod:`meeple.sim.train`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import GamesHelpCommand, app, check_game, console, refuse
from meeple.cli.sim import ChallengeOpt, LevelOpt, OptionOpt, SheetOpt, _options, split_bots
from meeple.core.errors import MeepleError


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise refuse(f"--hidden {text!r}: give layer widths as integers, e.g. 64,64") from None
    if not sizes:
        raise refuse("--hidden needs at least one layer width, e.g. 64,64")
    return sizes


@app.command("train", cls=GamesHelpCommand)
def train_cmd(
    game: Annotated[str, typer.Argument(help="The game: {games}.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Seats.")] = 2,
    generations: Annotated[int, typer.Option("--generations", "-g",
                                             help="Generations to train.")] = 10,
    games: Annotated[int, typer.Option("--games", "-n",
                                       help="Self-play games a generation.")] = 40,
    iterations: Annotated[int, typer.Option(
        "--iterations", help="The search's iterations a decision (0: hard's own budget, "
        "CPU-timed, so not reproducible).")] = 400,
    eval_games: Annotated[int, typer.Option(
        "--eval-games", help="Games against hard and against medium after each generation.")] = 20,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer widths.")] = "64,64",
    window: Annotated[int, typer.Option(
        "--window", help="Generations of self-play data the net is fitted on.")] = 4,
    epochs: Annotated[int, typer.Option("--epochs", help="Most epochs a fit runs.")] = 60,
    batch: Annotated[int, typer.Option("--batch", help="Positions a gradient step.")] = 256,
    lr: Annotated[float, typer.Option("--lr", help="Adam's learning rate.")] = 1e-3,
    decay: Annotated[float, typer.Option("--decay", help="L2 weight decay.")] = 1e-4,
    seed: Annotated[int, typer.Option("--seed", help="The run's seed.")] = 0,
    target: Annotated[str, typer.Option(
        "--target", help="What the net learns the evaluation misses about: margin (a seat's "
        "final score less the other seats', what the search ranks by) or score (its own).")
    ] = "margin",
    against: Annotated[str, typer.Option(
        "--against", help="Bots each generation is measured against (the first picks "
        "best.npz).")] = "hard,medium",
    out: Annotated[Path | None, typer.Option(
        "--out", help="The run's folder (default runs/GAME).")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out from its last checkpoint.")] = False,
    minutes: Annotated[float | None, typer.Option(
        "--minutes", help="Start no generation after this many minutes.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Local worker processes.")] = 1,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", help="Run the games on a Dask cluster, e.g. tcp://10.0.0.5:8786.")] = None,
    level: LevelOpt = None,
    sheet: SheetOpt = None,
    challenge: ChallengeOpt = None,
    option: OptionOpt = None,
) -> None:
    """Train a value net for GAME by self-play: mcts (hard's search) plays itself, a numpy
    net learns what the game's evaluation misses, and the next generation searches with it.
    Writes gen-NNN.npz checkpoints, best.npz, run.json and curve.png to --out."""
    # imported here: numpy and the learner load only for this command, not for every meeple
    from meeple.sim.train import TrainSettings, train

    check_game(game)
    options = _options(game, level, sheet, challenge, option)
    settings = TrainSettings(game=game, players=players, options=options,
                             generations=generations, games=games, iterations=iterations,
                             eval_games=eval_games, hidden=_hidden(hidden), window=window,
                             epochs=epochs, batch=batch, lr=lr, decay=decay, seed=seed,
                             against=tuple(split_bots(against)), target=target)
    folder = out if out is not None else Path("runs") / game
    try:
        run = train(settings, folder, workers=workers, cluster=cluster, minutes=minutes,
                    resume=resume, log=lambda msg: console.print(msg, markup=False,
                                                                 highlight=False))
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    console.print(f"{folder}: best generation {run['best']} (best.npz); run.json, curve.png",
                  markup=False, highlight=False)
