"""The authority: checks a request against the engine, plays it and commits it.

The engine stays the single source of truth: a move is checked by playing it on a clone of the
table's position (or, for a turn its connection previewed, on the positions that preview
made: :class:`~meeple.server.table.runtime.Draft`); the chance moves that follow it are drawn on the
server from the table's own generator; then the move and those draws are appended to the
stored log in one transaction that raises the table's version
(:class:`~meeple.server.table.committer.Committer`). Only after that commit does the trial position
become the table's. A refused move changes nothing.

The authority tells nobody and schedules nothing: each change returns what it committed
(:class:`Committed`), and :class:`~meeple.server.table.service.Service` hands the change to the
broadcaster and the bot scheduler. It holds every live
:class:`~meeple.server.table.runtime.Runtime` of this process, rebuilt from the stored log on first
use, after a restart, and caught up (from the new log entries only) when another server
process moved a table on.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.state import CHANCE, State
from meeple.core.turn import StepRefused, Turn, take_back
from meeple.core.view import LogLine, View, view_data
from meeple.server.table.committer import Committer
from meeple.server.table.pace import MoveTimes
from meeple.server.table.positions import new_state
from meeple.server.table.runtime import Draft, Runtime, log_note, not_your_turn
from meeple.server.table.settings import TestingSettings
from meeple.store import (
    BOT,
    FINISHED,
    MOVE,
    RUNNING,
    UNDO,
    DuplicateMove,
    Entry,
    StaleVersion,
    Store,
    Table,
    effective_moves,
)
from meeple.store import CHANCE as CHANCE_ENTRY

log = logging.getLogger("meeple.server")

#: A fault to inject, for the reliability tests only (docs/reliability.md): with
#: ``MEEPLE_FAULT=crash-after-commit:NAME`` (:class:`meeple.server.table.settings.TestingSettings`) the
#: process dies as a kill -9 would at the fault point NAME, right after that request's commit
#: and before its reply (``create`` and ``join`` in the lobby; ``finish``: the transaction
#: that stores a game's end, and rates it, has committed).
FAULT_ENV = "MEEPLE_FAULT"

#: Seconds after which a finished or waiting table that nobody watches is forgotten from memory
#: (and rebuilt from the store when next asked for).
IDLE_EVICT = 60.0


class Refused(MeepleError):
    """A move, undo or request the table refuses; nothing changed."""

    def __init__(self, reason: str, version: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.version = version


class AlreadyPlayed(MeepleError):
    """A resend of a move (or undo) request already stored: the client missed the ack.
    Nothing changes; the client gets the ack again (with ``resent``), at the version the
    request was first acknowledged at."""

    def __init__(self, key: str, version: int) -> None:
        super().__init__("this move request was already played")
        self.key = key
        self.version = version


class PreviewAnswer(NamedTuple):
    """What a preview gives: the seat's view after the moves (as JSON data, ``data``), the
    moves (the ones sent, with every forced decision after them added), whether the turn is
    then complete, and for each move whether it was forced (the only legal move: the server
    played it, or would have)."""

    data: dict[str, Any]
    moves: list[str]
    complete: bool
    forced: list[bool]

    @property
    def view(self) -> View:
        """The view as its model (made from the data when asked for)."""
        return View.model_validate(self.data)


@dataclass(frozen=True)
class Committed:
    """What one commit stored: the table's version after it and the log entries it added
    (a seat's decisions with the chance drawn after them, the opening draws, or an undo)."""

    version: int
    entries: tuple[Entry, ...]


class Position(NamedTuple):
    """A runtime's position as it is at one moment of the event loop, its lists and clock
    times copied (:meth:`Authority._caught_up` plays the new log entries on it in a thread)."""

    table: Table
    state: State[Any]
    lines: list[LogLine]
    version: int
    befores: list[State[Any]]
    times: MoveTimes | None

    @classmethod
    def of(cls, rt: Runtime) -> Position:
        return cls(rt.table, rt.state, list(rt.lines), rt.version, list(rt.befores),
                   None if rt.times is None else copy.deepcopy(rt.times))


class Trial(NamedTuple):
    """A request played on positions that are not the table's yet: the position after it,
    the canonical moves, their log lines and the positions before each (for undo)."""

    position: State[Any]
    moves: list[str]
    lines: list[LogLine]
    befores: list[State[Any]]


def fault_point(name: str, fault: str) -> None:
    """Die here if ``fault`` (the setting :data:`FAULT_ENV`) asks for a crash after the commit
    of ``name``."""
    if fault == f"crash-after-commit:{name}":
        log.warning("%s: dying after the commit of a %s request", FAULT_ENV, name)
        os._exit(137)


def rebuild(table: Table, entries: list[Entry], times: list[MoveTimes | None] | None = None,
            scale: float = 1.0) -> tuple[State[Any], list[LogLine], list[State[Any]]]:
    """The position a stored log describes, its log in words and the positions before the
    decisions undo can take back now (:attr:`Runtime.befores`). ``times``: a list to put a
    turn-based table's move times in (:class:`~meeple.server.table.pace.MoveTimes`, from the log's
    times; None for a live table), ``scale`` how many times faster its time runs (tests)."""
    state = new_state(table)
    kept = MoveTimes.of(table, state, entries[0].created if entries else None, scale)
    if times is not None:
        times.append(kept)
    return replay_onto(state, [], [], effective_moves(entries), kept)


def replay_onto(state: State[Any], lines: list[LogLine], befores: list[State[Any]],
                entries: Sequence[Entry], times: MoveTimes | None = None
                ) -> tuple[State[Any], list[LogLine], list[State[Any]]]:
    """``state`` (changed in place) after the moves of ``entries`` (no undo among them), with
    their log lines added to ``lines`` and ``befores`` kept as :func:`undoable` says; a
    turn-based table's ``times`` follow the entries' times."""
    for e in entries:
        before = state.clone()
        state.play(e.text)
        lines.append(log_note(before, state))
        befores.append(before)
        befores = undoable(state, befores)
        if times is not None:
            times.passed(state, e.created.timestamp() if e.created else time.time())
    return state, lines, befores


def undoable(state: State[Any], befores: list[State[Any]]) -> list[State[Any]]:
    """Of ``befores`` (the positions before the last moves of ``state``, oldest first), those
    before the decisions that undo can take back from ``state``."""
    keep = state.undo_depth()
    return befores[len(befores) - keep:] if keep else []


def play_steps(trial: State[Any], seat: int, texts: Sequence[str], version: int,
               befores: list[State[Any]]) -> tuple[list[str], list[LogLine]]:
    """Play ``texts`` on ``trial``, each a decision of ``seat``: the canonical moves and their
    log lines (the position before each step is added to ``befores``). Raises
    :class:`Refused` naming the step that is refused and why; ``trial`` is a scratch copy, so
    nothing real changed."""
    moves: list[str] = []
    lines: list[LogLine] = []
    for step in texts:
        if trial.to_move != seat:
            raise Refused(f"{_after(moves)}it is no longer your turn there; nothing was "
                          "played", version)
        before = trial.clone()
        try:
            trial.play(step)
        except IllegalMove as exc:
            raise Refused(_after(moves) + exc.reason, version) from None
        moves.append(str(trial.last_logged()[1]))
        lines.append(log_note(before, trial))
        befores.append(before)
    return moves, lines


def _after(moves: Sequence[str]) -> str:
    """How a refusal names the steps played before the refused one."""
    return f"after {', '.join(moves)}: " if moves else ""


def draw_chance(trial: State[Any], entries: list[Entry], lines: list[LogLine],
                befores: list[State[Any]]) -> None:
    """Play every chance event now pending on ``trial``, from the table's own generator."""
    while trial.to_move == CHANCE:
        before = trial.clone()
        move = trial.sample_chance()
        entries.append(Entry(CHANCE_ENTRY, -1, str(move)))
        lines.append(log_note(before, trial))
        befores.append(before)


class Authority:
    """Every live table of this server process: its position, and the only way to change it."""

    def __init__(self, store: Store, testing: TestingSettings | None = None) -> None:
        self.store = store
        testing = testing or TestingSettings()
        #: the reliability tests' fault (:func:`fault_point`) and turn-based time's scale
        self.fault, self.turn_scale = testing.fault, testing.turn_based_scale
        if self.fault == "crash-after-commit:finish":
            store.after_finish = lambda _table: fault_point("finish", self.fault)
        self.runtimes: dict[str, Runtime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: open WebSocket connections per table (a table with one is never forgotten)
        self.connections: dict[str, int] = {}
        self._committer: Committer | None = None

    @property
    def committer(self) -> Committer:
        """The writer thread that stores moves, several tables in one commit under load
        (:mod:`meeple.server.table.committer`); started on first use."""
        if self._committer is None:
            self._committer = Committer(self.store)
        return self._committer

    async def stop(self) -> None:
        if self._committer is not None:
            await asyncio.to_thread(self._committer.stop)

    # ------------------------------------------------------------------ positions
    async def runtime(self, table_id: str) -> Runtime:
        rt = self.runtimes.get(table_id)
        if rt is not None:
            return rt
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                rt = self.runtimes.get(table_id)
                if rt is None:
                    rt = await asyncio.to_thread(self.load, table_id)
                    self.runtimes[table_id] = rt
        finally:  # a lock per table only while it loads (any id a client names costs nothing)
            if not lock.locked():
                self._loading.pop(table_id, None)
        return rt

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's position or is loading it. Safe to call
        from another thread (two dictionary lookups, each atomic): the fan-out's listener
        asks it for every notice. A table is in ``_loading`` from before its load reads the
        store until it is in ``runtimes``, so a commit made after that read is never
        answered "not held"."""
        return table_id in self.runtimes or table_id in self._loading

    def evict_idle(self, idle: float = IDLE_EVICT) -> int:
        """Forget the positions of tables that nobody watches and that will not move by
        themselves (finished, or waiting for players) after ``idle`` seconds without a change:
        they are rebuilt from the store when next asked for, so memory does not grow with the
        number of tables ever served. Returns how many were forgotten."""
        cutoff = time.monotonic() - idle
        gone = [tid for tid, rt in self.runtimes.items()
                if not rt.clients and not self.connections.get(tid)
                and rt.table.status != RUNNING and rt.since < cutoff
                and not rt.lock.locked() and not rt.busy()]
        for tid in gone:
            del self.runtimes[tid]
        return len(gone)

    def load(self, table_id: str) -> Runtime:
        """The table rebuilt from its whole stored log (in a thread: it reads the store)."""
        table = self.store.table(table_id)
        entries = self.store.log(table_id)
        times: list[MoveTimes | None] = []
        state, lines, befores = rebuild(table, entries, times, self.turn_scale)
        version = entries[-1].number if entries else 0
        rt = Runtime(table=table, state=state, lines=lines, version=version, befores=befores,
                     times=times[0])
        if state.is_over and table.status != FINISHED:
            self.store.finish(table_id, [s.as_dict() for s in state.scores()], state.places())
            rt.table = self.store.table(table_id)
        return rt

    def _caught_up(self, rt: Position) -> Runtime:
        """The table after the log entries stored since ``rt``'s version (in a thread): only
        those are read and played, on a copy of ``rt``'s position. A log whose new entries
        hold an undo, or a game that ended there, is rebuilt whole (:meth:`load`).

        ``rt`` is a :class:`Position` taken in the event loop, not the live runtime: the loop
        may move the runtime on while this thread reads (a refresh under the table's lock
        beside a client's hello outside it), and the new entries read after one version must
        be played on the position of that same version (else they were played on a later
        one and refused: "the server failed on this frame", seen with ``--workers 2``)."""
        table = self.store.table(rt.table.id)
        entries = self.store.log(rt.table.id, after=rt.version)
        if not entries or any(e.kind == UNDO for e in entries) or table.version < rt.version:
            return self.load(rt.table.id)
        state = rt.state.clone()
        state.seats = [s.name for s in table.seats]
        times = rt.times
        state, lines, befores = replay_onto(state, rt.lines, rt.befores, entries, times)
        if state.is_over and table.status != FINISHED:
            return self.load(rt.table.id)
        return Runtime(table=table, state=state, lines=lines, version=entries[-1].number,
                       befores=befores, times=times)

    async def refresh(self, rt: Runtime) -> bool:
        """Catch up with the stored log (another process may have moved the table on).
        Returns whether anything changed.

        It may run beside a move of this process (a client's hello and ``set_absent`` call it
        outside the table's lock): a commit that lands while it reads makes the runtime newer
        than what it read, and then what it read is dropped (versions only grow). Without that,
        a refresh that read the store before a bot's commit could put the runtime back to the
        position before that move, and a client could be left there: a spectator would never
        see the end of a game that had ended (tests/server/test_refresh_race.py)."""
        for _ in range(8):
            table = await asyncio.to_thread(self.store.table, rt.table.id)
            if table.version < rt.version:
                continue  # read before a commit of ours that has landed since: read again
            if table.version == rt.version:
                changed = table != rt.table
                if rt.version == 0 and rt.table.status != RUNNING and table.status == RUNNING:
                    rt.times = MoveTimes.of(table, rt.state, scale=self.turn_scale)  # starts now
                rt.table = table
                rt.state.seats = [s.name for s in table.seats]
                return changed
            fresh = await asyncio.to_thread(self._caught_up, Position.of(rt))
            if fresh.version <= rt.version:
                continue  # the runtime caught up meanwhile: read the table's row again
            rt.table, rt.state, rt.lines, rt.version = fresh.table, fresh.state, fresh.lines, \
                fresh.version
            rt.befores, rt.times = fresh.befores, fresh.times
            rt.since = time.monotonic()
            return True
        return False  # (commits kept landing while it read: the runtime is the newest)

    # ------------------------------------------------------------------ checks
    async def check_turn(self, rt: Runtime, seat: int, version: int, key: str | None,
                         by_bot: bool) -> None:
        """Refuse a request that this seat may not make now. ``key`` is the request's key
        (:func:`meeple.store.request_key`): the same request stored already is a resend after
        a lost ack, answered with its ack again (:class:`AlreadyPlayed`)."""
        if version != rt.version:
            await self.refresh(rt)
        if version < rt.version and key is not None:
            acked = await asyncio.to_thread(self.store.acked_version, rt.table.id, key)
            if acked is not None:  # played once already: the client missed its ack
                raise AlreadyPlayed(key, acked)
        if version != rt.version:
            raise Refused(f"the table has moved on: it is at version {rt.version}, your move "
                          f"was made at version {version}; look at the new position and "
                          f"play again", rt.version)
        if rt.table.status == FINISHED or rt.state.is_over:
            raise Refused("the game is over", rt.version)
        if rt.table.status != RUNNING:
            raise Refused("the game has not started: seats are still open "
                          f"({', '.join(map(str, rt.table.open_seats))})", rt.version)
        to_move = rt.state.to_move
        if to_move != seat:
            raise Refused(not_your_turn(rt), rt.version)
        if not by_bot and rt.table.seats[seat].kind == BOT:
            raise Refused(f"seat {seat} ({rt.state.seats[seat]}) is a bot seat", rt.version)

    # ------------------------------------------------------------------ changes
    async def play(self, rt: Runtime, seat: int, texts: Sequence[str], version: int,
                   key: str | None, *, by_bot: bool = False, draft: Draft | None = None
                   ) -> Committed:
        """Play ``texts`` (decisions of ``seat`` in a row) against ``version`` and commit
        them with the chance draws that follow: all or nothing; returns what was committed.
        ``draft``: the connection's turn in progress; when it holds these steps, its
        positions are committed as they are (no step is played again). Raises :class:`Refused`."""
        async with rt.lock:
            await self.check_turn(rt, seat, version, key, by_bot)
            trial = self._confirmed(rt, seat, texts, draft) or self._played(rt, seat, texts)
            position = trial.position
            entries = [Entry(MOVE, seat, m, key if i == 0 else None)
                       for i, m in enumerate(trial.moves)]
            lines, befores = trial.lines, trial.befores
            if position.to_move == CHANCE:
                if position is not rt.state and draft is not None:
                    position = position.clone()  # the draft's position stays as it was
                draw_chance(position, entries, lines, befores)
            return await self.commit(rt, position, entries, rt.lines + lines, befores)

    @staticmethod
    def _played(rt: Runtime, seat: int, texts: Sequence[str]) -> Trial:
        """``texts`` played on a clone of the table's position."""
        trial = rt.state.clone()
        befores = list(rt.befores)
        moves, lines = play_steps(trial, seat, texts, rt.version, befores)
        return Trial(trial, moves, lines, befores)

    @staticmethod
    def _confirmed(rt: Runtime, seat: int, texts: Sequence[str], draft: Draft | None
                   ) -> Trial | None:
        """The turn ``texts`` describes, from the positions the connection's previews made
        (``draft``), when it was built on the table's position now and holds them; else None
        (the request is played from the table's position, :meth:`_played`, which also names
        what a refused step did wrong)."""
        turn: Turn[Any] | None = None if draft is None else draft.turn
        if (turn is None or draft is None or draft.version != rt.version
                or turn.start is not rt.state or turn.seat != seat
                or turn.position.seats is not rt.state.seats or len(turn) == 0):
            return None
        try:
            turn.sync(texts)
        except StepRefused:
            return None
        n = len(texts)
        steps = turn.steps[:n]
        befores = [*rt.befores, *(turn.before(i) for i in range(n))]
        return Trial(turn.before(n), [s.text for s in steps], [s.note for s in steps],
                     befores)

    async def undo(self, rt: Runtime, seat: int, version: int, key: str | None) -> Committed:
        """Take back ``seat``'s last decision of its unfinished turn (as the engine allows);
        returns what was committed (the ``UNDO`` entry)."""
        async with rt.lock:
            await self.check_turn(rt, seat, version, key, False)
            try:
                trial, back = take_back(rt.state, rt.befores)
            except IllegalMove as exc:
                raise Refused(exc.reason, rt.version) from None
            trial.seats = rt.state.seats
            return await self.commit(rt, trial, [Entry(UNDO, seat, str(back), key)],
                                     rt.lines[:-1], rt.befores[:-1])

    async def draw_opening(self, rt: Runtime) -> Committed | None:
        """A table whose game starts: its opening chance events (the first roll), drawn on
        the server and committed (returned). Nothing happens (None) if the table is not
        waiting for them, or another process drew them first."""
        async with rt.lock:
            await self.refresh(rt)
            if rt.table.status == RUNNING and rt.state.to_move == CHANCE:
                trial = rt.state.clone()
                entries: list[Entry] = []
                lines: list[LogLine] = []
                befores: list[State[Any]] = []
                draw_chance(trial, entries, lines, befores)
                with contextlib.suppress(Refused):  # another process drew them first
                    return await self.commit(rt, trial, entries, rt.lines + lines, befores)
            return None

    async def set_absent(self, rt: Runtime, seat: int, absent: bool) -> None:
        """Mark ``seat``'s person away (a stand-in plays for it) or back."""
        await asyncio.to_thread(self.store.set_absent, rt.table.id, seat, absent)
        await self.refresh(rt)
        if not absent and rt.state.to_move == seat:
            rt.since = time.monotonic()  # the person's own again: a whole clock

    async def commit(self, rt: Runtime, trial: State[Any], entries: list[Entry],
                     lines: list[LogLine], befores: list[State[Any]]) -> Committed:
        """Store ``entries`` and make ``trial`` the table's position; ``befores``: the
        positions before the last moves of ``trial`` (those undo may need are kept).
        Returns what was stored."""
        result = [s.as_dict() for s in trial.scores()] if trial.is_over else None
        try:
            new = await self.committer.append(rt.table.id, rt.version, entries,
                                              finished_result=result,
                                              places=trial.places() if result else None)
        except DuplicateMove as exc:
            raise Refused(str(exc), rt.version) from None
        except StaleVersion:
            await self.refresh(rt)
            raise Refused(f"the table has moved on: it is at version {rt.version}; look at "
                          f"the new position and play again", rt.version) from None
        rt.state, rt.lines, rt.version = trial, lines, new
        rt.befores = undoable(trial, befores)
        rt.since = time.monotonic()
        if rt.times is not None:
            rt.times.passed(trial, time.time())
        if result is not None:
            rt.table = await asyncio.to_thread(self.store.table, rt.table.id)
        return Committed(new, tuple(entries))

    # ------------------------------------------------------------------ previews
    def preview(self, rt: Runtime, seat: int, texts: Sequence[str], text: bool = False,
                draft: Draft | None = None) -> PreviewAnswer:
        """What the position would be after ``texts`` (this seat's decisions from now), without
        playing anything: the seat's view, the moves with every forced decision (only one
        legal move) that follows them added, and whether the turn is then complete. A refused
        step raises :class:`Refused`. Used by the browser to build a turn by clicks before it
        is confirmed.

        ``draft``: the connection's turn of its last preview (see :class:`Draft`): only the
        steps that differ from it are played or taken back. Without one, the turn is built
        from the committed position."""
        if rt.state.to_move != seat:
            raise Refused(not_your_turn(rt), rt.version)
        turn = (draft if draft is not None else Draft()).turn_for(rt, seat)
        try:
            turn.sync(texts)
        except StepRefused as exc:
            done = _after(turn.texts[:exc.index])
            if exc.ended:
                raise Refused(f"{done}it is no longer your turn there; nothing was played",
                              rt.version) from None
            raise Refused(done + exc.reason, rt.version) from None
        steps = turn.steps
        lines = rt.lines + [s.note for s in steps]
        # a decision previewed restarts the turn clock (it counts the time since the
        # person's last decision); it does not take the seat back from a stand-in bot, as a
        # client previews by itself too (the forced opening, steps kept over a reload): the
        # browser sends ``back`` at the person's click
        rt.since = time.monotonic()
        data = view_data(turn.position, [seat], lines, text=text)[seat]
        return PreviewAnswer(data, turn.texts, turn.complete, [s.forced for s in steps])

