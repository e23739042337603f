"""``meeple calibrate-bots``: the bots' rating seeds from a round robin between them
(docs/ratings.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

import meeple
from meeple.bots.ratings import RATED_BOTS, SEED_FILE
from meeple.cli.common import GamesHelpCommand, app, console, refuse
from meeple.core.errors import MeepleError
from meeple.core.records import check_output_file
from meeple.sim.calibrate import calibrate, check_difficulties, schedule, seed_file


@app.command("calibrate-bots", cls=GamesHelpCommand)
def calibrate_bots_cmd(
    game: Annotated[list[str] | None, typer.Option(
        "--game", "-g", help="A game to calibrate: {games} (repeat for more); default: every game.")] = None,
    games_per_pair: Annotated[int, typer.Option(
        "--games-per-pair", "-n", help="Games each pair of difficulties plays per game (each "
                                       "seed twice, the seats swapped; rounded up to even).",
        min=2, max=1000)] = 20,
    seed: Annotated[int, typer.Option("--seed", help="The first game seed.")] = 0,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", help="Worker processes that play the games.", min=1, max=64)] = 2,
    out: Annotated[Path, typer.Option(
        "--out", help="The seed file to write (default: the one the server reads).")] = SEED_FILE,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="A difficulty to play in the round robin: easy, medium, hard or "
                            "expert (repeat for more, at least two); default: all four. A "
                            "game that ships no expert nets plays expert as hard, so its "
                            "expert games are hard against itself.")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Say how many games each game would play, and play none.")] = False,
) -> None:
    """Play a round robin between the bots' difficulties (easy, medium, hard, expert) in each game,
    rate it with OpenSkill as people's rated games are, and write the results as the bots'
    starting ratings (the seeds the server gives each difficulty on first use)."""
    names = game or [g.name for g in meeple.games()]
    try:
        for name in names:
            meeple.game_info(name)
        bots = check_difficulties(bot or RATED_BOTS)
        plans = {name: len(schedule(name, games_per_pair, seed, bots)) for name in names}
        check_output_file(out, "--out names the JSON file the seeds are written to")
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    if dry_run:
        for name, n in plans.items():
            console.print(f"{name}: {n} games")
        return
    started = time.monotonic()

    def progress(name: str, done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            console.print(f"{name}: {done}/{total} games", highlight=False)

    found = calibrate(names, games_per_pair, seed, workers, progress, bots)
    seconds = time.monotonic() - started
    data = seed_file(found, games_per_pair, seed, seconds, workers, bots)
    try:
        out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise refuse(f"{out}: cannot be written ({exc.strerror or exc})") from None
    table = Table("game", "difficulty", "mu", "sigma", "rating", title="the bots' seeds")
    for name, entry in data["games"].items():
        for difficulty, r in entry["bots"].items():
            table.add_row(name, difficulty, f"{r['mu']:.2f}", f"{r['sigma']:.2f}",
                          str(r["rating"]))
    console.print(table)
    console.print(f"{sum(plans.values())} games in {seconds:.0f} s; written to {out}")
