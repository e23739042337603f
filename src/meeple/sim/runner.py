"""Play games between bots: one game (:func:`play_game`), or a job of many seeds
(:func:`run_job`) on this process, a local process pool, or a Dask cluster.

Game ``i`` of a job uses seed ``base_seed + i``; the bot in seat ``s`` gets the seed
:func:`bot_seed` ``(game_seed, s)``. Every result is a pure function of (game, variant, bots,
seed), so a job gives the same records on 1 worker, 8 workers or a cluster.

A job with ``rotate`` (``meeple simulate``) moves the bots round the table from game to game,
so that no bot always sits first: the game seeded ``s`` seats the line-up rotated by
``r = s mod k`` (k bots), i.e. seat ``i`` holds bot ``(i + r) mod k`` of the line-up. Over any
k consecutive seeds every bot sits once in every seat. The record keeps the bots by seat
(``bots``), the line-up as given (``lineup``) and ``rotation`` (r). A line-up of identical bots
is not rotated (nothing would change).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import meeple
from meeple.bots import Bot, make_bot
from meeple.core.errors import MeepleError
from meeple.core.records import BadRecordFile, check_output_file, is_gzip, read_record_file
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State

#: How long to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = "10s"

#: Record keys that depend on the machine, not on the game (left out when comparing runs).
TIMING_KEYS = ("timings",)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game seeded ``game_seed`` (deterministic)."""
    return Rng.derive(game_seed, seat, 0xB07).next_u64() >> 1


#: A game longer than this many moves is stopped with an error (a bot or a rule stalling).
MAX_MOVES = 20_000


def play_game(game: str, options: dict[str, Any], bots: Sequence[str], seed: int,
              max_moves: int | None = None, make: Callable[[str, int], Bot] | None = None,
              on_move: Callable[[State[Any]], None] | None = None) -> dict[str, Any]:
    """Play one game between ``bots`` (one spec per seat) and return its record.

    The record is the engine's ``state.record()`` plus ``bots`` (the specs, by seat) and
    ``timings`` (per seat: decisions, total and longest seconds spent choosing). ``make``
    builds a seat's bot from its spec and seed (default :func:`make_bot`; ``meeple train``
    builds its search bot with in-memory nets); ``on_move`` is shown the true state before each
    move, a chance draw's too (``meeple train`` records its positions).
    """
    state = meeple.new_game(game, players=len(bots), seed=seed, **options)
    build = make or (lambda spec, bseed: make_bot(spec, seed=bseed))
    players = [build(spec, bot_seed(seed, s)) for s, spec in enumerate(bots)]
    decisions = [0] * len(bots)
    spent = [0.0] * len(bots)
    longest = [0.0] * len(bots)
    clock = time.perf_counter
    limit = MAX_MOVES if max_moves is None else max_moves
    moves = 0
    while True:
        seat = state.to_move
        if seat is None:
            break
        moves += 1
        if moves > limit:
            raise MeepleError(
                f"{game} seed {seed} with bots {', '.join(bots)} did not end within {limit} moves: "
                "a bot or the rules keep the game from ending (e.g. a seat that always passes)")
        if on_move is not None:
            on_move(state)
        if seat == CHANCE:
            state.sample_chance()
            continue
        legal = state.legal_moves()
        view = state.seen_by(seat)
        t0 = clock()
        move = players[seat].choose(view, legal)
        dt = clock() - t0
        decisions[seat] += 1
        spent[seat] += dt
        if dt > longest[seat]:
            longest[seat] = dt
        if move not in legal:
            raise MeepleError(f"bot {bots[seat]!r} in seat {seat} chose {move}, which is not legal")
        state.play(move, check=False)
    rec = state.record()
    rec["bots"] = list(bots)
    rec["timings"] = [
        {"decisions": decisions[s], "seconds": round(spent[s], 6), "longest": round(longest[s], 6)}
        for s in range(len(bots))
    ]
    return rec


def rotated(bots: Sequence[str], seed: int) -> tuple[tuple[str, ...], int]:
    """The bots by seat for the game seeded ``seed`` of a rotating job, and the rotation ``r``:
    seat ``i`` holds ``bots[(i + r) % k]`` with ``r = seed % k``."""
    k = len(bots)
    r = seed % k if k else 0
    return tuple(bots[(i + r) % k] for i in range(k)), r


Task = tuple[str, dict[str, Any], tuple[str, ...], int, tuple[str, ...] | None, int]


@dataclass(frozen=True)
class JobSpec:
    """A simulation job: ``n`` games of ``game`` (with ``options``) between ``bots``, one per
    seat in that order, or with ``rotate`` moved round the table from game to game (see the
    module docstring)."""

    game: str
    bots: tuple[str, ...]
    n: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = False

    @property
    def rotates(self) -> bool:
        """Whether the seats really rotate (a line-up of identical bots is left as it is)."""
        return self.rotate and len(set(self.bots)) > 1

    def seeds(self) -> list[int]:
        return [self.seed + i for i in range(self.n)]

    def seating(self, seed: int) -> tuple[str, ...]:
        """The bots by seat in the game seeded ``seed``."""
        return rotated(self.bots, seed)[0] if self.rotates else self.bots

    def task(self, seed: int) -> Task:
        if self.rotates:
            seats, r = rotated(self.bots, seed)
            return (self.game, dict(self.options), seats, seed, self.bots, r)
        return (self.game, dict(self.options), self.bots, seed, None, 0)


def validate_job(job: JobSpec) -> None:
    """Raise :class:`MeepleError` with a clear message if the job cannot run."""
    info = meeple.game_info(job.game)
    if job.n < 1:
        raise MeepleError(f"the number of games must be at least 1, not {job.n}")
    if not job.bots:
        raise MeepleError("give at least one bot, e.g. --bots random,greedy")
    for spec in job.bots:
        make_bot(spec, seed=0)
    variant = {k: v for k, v in job.options.items() if k != "sheet"}
    seats = info.player_range(variant)
    if len(job.bots) not in seats:
        raise MeepleError(
            f"{info.title} ({info.describe_variant(variant)}) takes {seats.start} to "
            f"{seats.stop - 1} players, but {len(job.bots)} bots were given "
            f"({', '.join(job.bots)}); one bot per seat"
        )
    meeple.new_game(job.game, players=len(job.bots), seed=job.seed, **job.options)


def _run_task(task: Task) -> dict[str, Any]:
    game, options, bots, seed, lineup, rotation = task
    rec = play_game(game, options, bots, seed)
    if lineup is not None:
        rec["lineup"] = list(lineup)
        rec["rotation"] = rotation
    return rec


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every record of a record file (JSON lines, or one game as JSON; see
    :mod:`meeple.core.records`). A missing or empty file holds none; a last line cut off by an
    interrupted write is left out (that seed is played again). Anything else that is not a
    record file raises :class:`~meeple.core.errors.BadRecord` naming the path and the problem."""
    return read_record_file(path, missing_ok=True, empty_ok=True, torn_tail_ok=True).records


def prepare_out(path: Path) -> list[str]:
    """Make ``path`` ready for games to be appended as JSON lines, and say what was done.

    Refuses (:class:`~meeple.core.errors.BadRecord`, nothing changed) a folder, a path in a
    folder that does not exist, a file that cannot be written, a gzip-compressed file, and a
    file that is not a record file (not UTF-8, not JSON, JSON that is not game records). A
    missing or empty file is fine. A last line cut off by an interrupted write is removed (its
    seed is played again).
    A file holding one game as an indented JSON document (``meeple play --record``) is
    rewritten as that game on one line, so that the games appended after it keep the file
    one record per line.
    """
    check_output_file(path, "games are appended as JSON lines to a new file or to a record "
                            "file meeple wrote", error=BadRecordFile)
    if is_gzip(path):
        raise BadRecordFile(path, "is gzip-compressed; games are appended as plain JSON lines",
                            "give an uncompressed .jsonl file (or a new file name)")
    found = read_record_file(path, missing_ok=True, empty_ok=True, torn_tail_ok=True)
    notes = []
    if found.torn_line is not None:
        data = path.read_bytes()
        keep = data[:data.rfind(b"\n") + 1]
        path.write_bytes(keep)
        notes.append(f"{path}: line {found.torn_line} was cut off (an interrupted write); it is "
                     "removed and its game played again")
    elif found.layout == "one game" and "\n" in path.read_text(encoding="utf-8").strip():
        path.write_text(json.dumps(found.records[0], separators=(",", ":")) + "\n",
                        encoding="utf-8")
        notes.append(f"{path} held one game as a JSON document; it now holds that game on its "
                     "first line, and the new games on the lines after it (JSON lines)")
    elif found.layout != "empty" and not path.read_bytes().endswith(b"\n"):
        with path.open("a", encoding="utf-8") as fh:
            fh.write("\n")  # a complete last line without its newline
    return notes


def _signature(game: Any, bots: Any, variant: Any, sheet: Any, rotates: bool) -> str:
    """What must match for a stored record to count as a game of a job (seed aside)."""
    sheet_hash = hashlib.sha1(json.dumps(sheet, sort_keys=True).encode()).hexdigest()
    parts: list[Any] = [game, list(bots), variant, sheet_hash]
    if rotates:
        parts.append("rotated")
    return json.dumps(parts, sort_keys=True)


def record_signature(rec: dict[str, Any]) -> str:
    rotates = "rotation" in rec
    bots = rec.get("lineup", ()) if rotates else rec.get("bots", ())
    return _signature(rec.get("game"), bots, rec.get("variant", {}), rec.get("sheet"), rotates)


def job_signature(job: JobSpec) -> str:
    state = meeple.new_game(job.game, players=len(job.bots), seed=job.seed, **job.options)
    return _signature(job.game, job.bots, state.variant(), state.sheet_data(), job.rotates)


def _matching(job: JobSpec, existing: Iterable[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Stored records of ``job`` (same game, bots, variant and sheet), by seed."""
    sig = job_signature(job)
    wanted = set(job.seeds())
    return {r["seed"]: r for r in existing
            if r.get("seed") in wanted and "scores" in r and record_signature(r) == sig}


def pending_seeds(job: JobSpec, existing: Iterable[dict[str, Any]]) -> list[int]:
    """The job's seeds not yet present among ``existing`` records (same game, bots, variant
    and sheet)."""
    done = _matching(job, existing)
    return [s for s in job.seeds() if s not in done]


def iter_results(
    job: JobSpec, seeds: Sequence[int], workers: int = 1, cluster: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of ``seeds``, in seed order, from this process, a pool or a Dask cluster."""
    yield from map_tasks(_run_task, [job.task(s) for s in seeds], workers, cluster)


def map_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], workers: int = 1,
              cluster: str | None = None) -> Iterator[Any]:
    """``fn`` of each task, in task order, from this process, a local pool of ``workers``
    processes or the Dask cluster at ``cluster``. ``fn`` must be a module-level function (it
    is pickled to the workers)."""
    if cluster is not None:
        yield from _iter_dask(fn, list(tasks), cluster)
    elif workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield fn(t)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn") if _forking_unsafe() else mp.get_context()
        with ctx.Pool(processes=workers) as pool:
            yield from pool.imap(fn, tasks, chunksize=1)


def _forking_unsafe() -> bool:
    import sys

    return sys.platform == "darwin"


def _iter_dask(fn: Callable[[Any], Any], tasks: list[Any], address: str) -> Iterator[Any]:
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - dask[distributed] is a dependency
        raise MeepleError("--cluster needs dask[distributed]: pip install 'dask[distributed]'") from exc
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise MeepleError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        futures = client.map(fn, tasks, pure=False)
        for fut in futures:  # in seed order, like the local pool
            yield fut.result()
    finally:
        client.close()  # type: ignore[no-untyped-call]


def run_job(
    job: JobSpec,
    out: Path | None = None,
    workers: int = 1,
    cluster: str | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run ``job``, appending each new record to ``out`` (skipping seeds already there; see
    :func:`prepare_out` for what ``out`` may be).

    Returns the job's records in seed order (those found in ``out`` included).
    """
    if out is not None:
        prepare_out(out)
    existing = read_records(out) if out is not None else []
    todo = pending_seeds(job, existing)
    fresh: dict[int, dict[str, Any]] = {}
    fh = out.open("a", encoding="utf-8") if out is not None else None
    try:
        for rec in iter_results(job, todo, workers=workers, cluster=cluster):
            fresh[rec["seed"]] = rec
            if fh is not None:
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                fh.flush()
            if on_record is not None:
                on_record(rec)
    finally:
        if fh is not None:
            fh.close()
    by_seed = _matching(job, existing)
    by_seed.update(fresh)
    return [by_seed[s] for s in job.seeds() if s in by_seed]


def strip_timings(rec: dict[str, Any]) -> dict[str, Any]:
    """A record without machine-dependent entries, for comparing runs."""
    return {k: v for k, v in rec.items() if k not in TIMING_KEYS}
