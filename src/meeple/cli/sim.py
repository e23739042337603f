"""``meeple simulate``, ``meeple tournament`` and ``meeple report``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import meeple
from meeple.cli.common import (
    GamesHelpCommand,
    app,
    check_game,
    console,
    err_console,
    refuse,
    variant_options,
)
from meeple.core.errors import MeepleError
from meeple.core.records import (
    check_output_file,
    check_output_folder,
    read_record_file,
)
from meeple.sim.report import build_report
from meeple.sim.runner import (
    JobSpec,
    job_signature,
    pending_seeds,
    prepare_out,
    read_records,
    record_signature,
    run_job,
    validate_job,
)
from meeple.sim.stats import bot_summary
from meeple.sim.tournament import head_to_head_table, is_solo, run_tournament, tournament_table

LevelOpt = Annotated[int | None, typer.Option("--level", help="Game level ({games with level}).")]
SheetOpt = Annotated[str | None, typer.Option("--sheet", help="A shipped sheet name or a TOML path.")]
ChallengeOpt = Annotated[int | None, typer.Option(
    "--challenge", help="Solo challenge ({games with challenge}).")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Any other game option, key=value.")
]
BotsOpt = Annotated[
    str, typer.Option("--bots", "-b", help="One bot spec per seat, comma separated: "
                      "random,greedy,mcts:iterations=200 (options after ':' joined by ';' or ',').")
]


class RateColumn(ProgressColumn):
    """Games per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if not speed else f"{speed:.1f} games/s", style="cyan")


def progress_bar() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console,
        transient=False,
    )


def split_bots(text: str) -> list[str]:
    """Split ``--bots``: commas separate seats, except inside a spec's ``:`` options, where the
    options are joined by ``;`` (``mcts:iterations=200;rollout=random``). A comma followed by
    ``key=value`` (no ``:``) continues the previous spec's options."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part.replace(";", ","))
    return out


def _options(game: str, level: int | None, sheet: str | None, challenge: int | None,
             option: list[str] | None) -> dict[str, Any]:
    check_game(game)
    try:
        return variant_options(game, level=level, sheet=sheet, challenge=challenge, option=option)
    except MeepleError as exc:
        raise refuse(str(exc)) from None


def summary_table(records: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title)
    for col in ("bot", "seat-games", "wins", "win %", "mean score"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for spec, row in bot_summary(records).items():
        table.add_row(spec, str(int(row["games"])), str(int(row["wins"])),
                      f"{100 * row['wins'] / row['games']:.1f}", f"{row['mean_score']:.2f}")
    return table


def _advancer(progress: Progress, task: Any) -> Any:
    def advance(_rec: dict[str, Any]) -> None:
        progress.advance(task)

    return advance


@app.command("simulate", cls=GamesHelpCommand)
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="The game: {games}.")],
    n: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 100,
    bots: BotsOpt = "random,random",
    seed: Annotated[int, typer.Option("--seed", help="Game i uses seed SEED+i.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Local worker processes.")] = 1,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", help="Run on a Dask cluster, e.g. tcp://10.0.0.5:8786.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="JSONL file; records are appended, seeds already there are skipped.")] = None,
    level: LevelOpt = None,
    sheet: SheetOpt = None,
    challenge: ChallengeOpt = None,
    option: OptionOpt = None,
) -> None:
    """Play N games between bots and write one JSON record per game. The bots move round the
    table: the game with seed S seats the --bots list rotated by S mod (number of bots), so
    every bot sits in every seat equally often over consecutive seeds."""
    options = _options(game, level, sheet, challenge, option)
    job = JobSpec(game=game, bots=tuple(split_bots(bots)), n=n, seed=seed, options=options,
                  rotate=True)
    if workers < 1:
        raise refuse(f"--workers must be at least 1, not {workers}")
    try:
        validate_job(job)
        existing: list[dict[str, Any]] = []
        if out is not None:
            for note in prepare_out(out):
                err_console.print(f"[yellow]note:[/] {note}")
            existing = read_records(out)
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    todo = len(pending_seeds(job, existing))
    if out is not None and todo < n:
        console.print(f"{out}: {n - todo} of {n} games already there; playing the other {todo}")
    if out is not None and existing:
        sig = job_signature(job)
        other = sum(1 for r in existing if record_signature(r) != sig)
        if other:
            console.print(f"{out}: {other} other record(s) there are of other games, bots, "
                          "variants, sheets or seatings, and are left as they are")
    if job.rotates:
        console.print(f"seats rotate: the game with seed S seats {', '.join(job.bots)} "
                      f"rotated by S mod {len(job.bots)}")
    with progress_bar() as progress:
        task = progress.add_task(f"{game} {' v '.join(job.bots)}", total=todo)
        try:
            records = run_job(job, out=out, workers=workers, cluster=cluster,
                              on_record=lambda _rec: progress.advance(task))
        except MeepleError as exc:
            raise refuse(str(exc)) from None
    console.print(summary_table(records, f"{game}: {len(records)} games"))
    if out is not None:
        console.print(f"records in {out}")


@app.command("tournament", cls=GamesHelpCommand)
def tournament_cmd(
    game: Annotated[str, typer.Argument(help="The game: {games}.")],
    bots: BotsOpt = "greedy,random",
    n: Annotated[int, typer.Option(
        "-n", "--games", help="Games per seat rotation (solo variants: seeds each bot plays).")] = 20,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w")] = 1,
    cluster: Annotated[str | None, typer.Option("--cluster")] = None,
    level: LevelOpt = None,
    sheet: SheetOpt = None,
    challenge: ChallengeOpt = None,
    option: OptionOpt = None,
    all_variants: Annotated[bool, typer.Option(
        "--all-variants", help="Every standard variant of the game (ignores --level etc.).")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Write the results as JSON.")] = None,
    records: Annotated[Path | None, typer.Option(
        "--records", help="Also append every game record to this JSONL file.")] = None,
) -> None:
    """Bots against each other over fixed seeds with seats rotated: win rates (95 % Wilson
    intervals) and mean scores, per variant. In a solo variant (Pergola's challenges) each bot
    plays the same seeds alone and is compared by score on each seed."""
    check_game(game)
    specs = split_bots(bots)
    variants = (_all_variants(game, specs) if all_variants
                else [_options(game, level, sheet, challenge, option)])
    if workers < 1:
        raise refuse(f"--workers must be at least 1, not {workers}")
    _check_outputs(out, records)
    _check_tournament(game, specs, variants, n, seed)
    results = []
    for variant in variants:
        try:
            with progress_bar() as progress:
                task = progress.add_task(f"{game} {variant}", total=n * len(specs))
                res = run_tournament(game, variant, specs, n, seed=seed, workers=workers,
                                     cluster=cluster, records=records,
                                     on_record=_advancer(progress, task))
        except MeepleError as exc:
            raise refuse(str(exc)) from None
        console.print(tournament_table(res))
        if (len(specs) > 2 or res.get("solo")) and len(set(specs)) > 1:
            console.print(head_to_head_table(res))
        results.append(res)
    if out is not None:
        _write_results(out, results)


def _all_variants(game: str, specs: list[str]) -> list[dict[str, Any]]:
    """``--all-variants``: every standard variant for that many bots (solo variants take any
    number, one game each), the others named as skipped."""
    info = meeple.game_info(game)

    def plays(v: Any) -> bool:
        return len(specs) in info.player_range(v) or is_solo(game, dict(v))

    variants = [dict(v) for v in info.variants if plays(v)]
    skipped = [info.describe_variant(v) for v in info.variants if not plays(v)]
    if skipped:
        console.print(f"skipped (not for {len(specs)} seats): {'; '.join(skipped)}")
    if not variants:
        raise refuse(f"no variant of {info.title} takes {len(specs)} seats")
    return variants


def _check_outputs(out: Path | None, records: Path | None) -> None:
    """The results file and the records file can be written, before the first game."""
    try:
        if out is not None:
            check_output_file(out, "--out writes the results as one JSON file")
        if records is not None:
            for note in prepare_out(records):
                err_console.print(f"[yellow]note:[/] {note}")
    except MeepleError as exc:
        raise refuse(str(exc)) from None


def _check_tournament(game: str, specs: list[str], variants: list[dict[str, Any]], n: int,
                      seed: int) -> None:
    """Every variant and bot checked before the first game (a solo variant: each bot alone)."""
    try:
        for variant in variants:
            if is_solo(game, variant):
                for spec in specs:
                    validate_job(JobSpec(game, (spec,), n, seed, variant))
            else:
                validate_job(JobSpec(game, tuple(specs), n, seed, variant))
    except MeepleError as exc:
        raise refuse(str(exc)) from None


def _write_results(out: Path, results: list[Any]) -> None:
    """The results as JSON in ``out``; printed instead when they cannot be written."""
    try:
        out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        err_console.print(json.dumps(results, indent=2))
        raise refuse(f"{out}: the results cannot be written ({exc.strerror or exc}); they "
                   "are printed above") from None
    console.print(f"results in {out}")


@app.command("report")
def report_cmd(
    file: Annotated[Path, typer.Argument(help="A record file: JSON lines from meeple simulate or "
                                              "tournament --records, or one game from meeple "
                                              "play --record.")],
    out: Annotated[Path | None, typer.Option("--out", help="Directory for report.md and PNG plots.")] = None,
    plots: Annotated[bool, typer.Option("--plots/--no-plots", help="Draw PNG plots.")] = True,
) -> None:
    """Tables (scores per bot and seat, score-pad rows, game length, win share by seat
    position) and plots."""
    try:
        found = read_record_file(file)
        if out is not None:
            check_output_folder(out, "--out names a folder for report.md and the plots")
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    recs = [r for r in found.records if "scores" in r]
    if not recs:
        n = len(found.records)
        raise refuse(f"{file}: none of its {n} game record(s) is finished (a game stopped before "
                   "its end has no scores); report needs finished games")
    if len(recs) < len(found.records):
        err_console.print(f"[yellow]note:[/] {len(found.records) - len(recs)} unfinished game(s) "
                          "in the file are left out")
    try:
        build_report(recs, out, console=console, plots=plots, source=str(file))
    except MeepleError as exc:
        raise refuse(str(exc)) from None
    except OSError as exc:
        raise refuse(f"{out}: the report cannot be written ({exc.strerror or exc})") from None
