"""Live tables: the engine's position of every table in play, moves in, views out.

The engine stays the single source of truth: a move is checked by playing it on a clone of the
table's position; the chance moves that follow it are drawn on the server from the table's own
generator; then the move and those draws are appended to the stored log in one transaction that
raises the table's version (:meth:`meeple.store.Store.append`). Only after that commit is the
move acknowledged and the clone becomes the table's position. A refused move changes nothing.

One :class:`Runtime` per table in this process holds the position, what each move caused in
words, the connected clients and the bot task. Runtimes are rebuilt from the stored log (on
first use, after a restart, or when another server process moved the table on).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from meeple.bots import make_bot
from meeple.core.delta import diff
from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.present import announcements
from meeple.core.state import CHANCE, State
from meeple.core.turn import StepRefused, Turn
from meeple.core.view import LogLine, View, log_line, seat_view
from meeple.server.botpool import DEFAULT_DEADLINE, Decision, decide, kill_pool, ready
from meeple.server.committer import Committer
from meeple.server.positions import new_state
from meeple.store import (
    BOT,
    FINISHED,
    HUMAN,
    MOVE,
    RUNNING,
    UNDO,
    DuplicateMove,
    Entry,
    StaleVersion,
    Store,
    StoreUnavailable,
    Table,
    effective_moves,
    request_key,
)
from meeple.store import CHANCE as CHANCE_ENTRY

log = logging.getLogger("meeple.server")

#: Seconds after which a finished or waiting table that nobody watches is forgotten from memory
#: (and rebuilt from the store when next asked for).
IDLE_EVICT = 60.0

#: The bot that plays for a human seat whose turn clock ran out, unless the seat names one.
STAND_IN = "greedy"

#: Bots whose decision costs less than handing it to a worker process (the random bot picks
#: one legal move): they decide on the server itself. Every other bot thinks in the pool, with
#: a deadline.
INLINE_BOTS = frozenset({"random"})

#: Sends a frame to a client: a dict, or a frame already written as JSON text.
Sender = Callable[[dict[str, Any] | str], Awaitable[None]]


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
    """What a preview gives: the seat's view after the moves, the moves (the ones sent, with
    every forced decision after them added), whether the turn is then complete, and for each
    move whether it was forced (the only legal move: the server played it, or would have)."""

    view: View
    moves: list[str]
    complete: bool
    forced: list[bool]


@dataclass(eq=False)
class Draft:
    """A connection's turn being built by previews: the :class:`~meeple.core.turn.Turn` of the
    last preview, kept for the next one while the table stays at the version (and the
    position) it was built on. A preview with one step more than the last then costs one step
    of the engine, one with a step fewer (an undo in the browser) one pop."""

    turn: Turn[Any] | None = None
    version: int = -1

    def turn_for(self, rt: Runtime, seat: int) -> Turn[Any]:
        """The kept turn if it was built on the table's position now for ``seat`` (and its
        names), else a new one from that position."""
        turn = self.turn
        state = rt.state
        if (turn is None or self.version != rt.version or turn.start is not state
                or turn.seat != seat or turn.position.seats is not state.seats):
            turn = self.turn = Turn(state, note=_log_note)
            self.version = rt.version
        return turn


def _log_note(before: State[Any], after: State[Any]) -> LogLine:
    """A turn step's log line in words (what a preview's log shows)."""
    return log_line(after, announcements(before, after))


@dataclass(eq=False)
class Client:
    """A connected WebSocket: who it is and how to send it a frame."""

    viewer: int | None
    send: Sender
    #: whether its views carry the terminal drawing as plain text
    text: bool = False
    #: the turn its previews build (one per connection)
    draft: Draft = field(default_factory=Draft)
    #: whether it takes update frames (deltas) after its first whole view
    updates: bool = False
    #: the version and the view (as JSON data) it was sent last: what its next update is from
    sent_version: int = -1
    sent_view: dict[str, Any] | None = None
    #: whether it is told who is at the table (presence frames)
    presence: bool = False
    #: whether it is told whose turn clock runs and how long it has left (clock frames)
    clock: bool = False


@dataclass(eq=False)
class Shown:
    """A view made once for a version and a kind of viewer (a seat or the spectators; with or
    without the terminal text), for every client of that kind: the view as JSON data (what
    updates are diffed against), the whole ``view`` frame's text, and the updates made from
    it, by the version they start from (every spectator a move behind gets the same one)."""

    state: State[Any]
    seats: list[str]
    lines: int
    version: int
    view: View
    data: dict[str, Any]
    forced: list[str]
    updates: dict[int, tuple[dict[str, Any], str]] = field(default_factory=dict)

    @functools.cached_property
    def whole(self) -> str:
        """The whole ``view`` frame as JSON text (made only when a client needs one)."""
        extra = f',"forced":{_json(self.forced)}' if self.forced else ""
        return (f'{{"type":"view","version":{self.version}{extra},'
                f'"view":{self.view.model_dump_json(by_alias=True)}}}')


@dataclass(eq=False)
class Runtime:
    table: Table
    state: State[Any]
    lines: list[LogLine]
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    since: float = field(default_factory=time.monotonic)
    #: the positions before the last decisions that undo can take back (the seat to move's
    #: own, in this turn), oldest first: an undo is one of them, not a replay of the game
    befores: list[State[Any]] = field(default_factory=list)
    #: the version and the forced decisions that open the turn there (:func:`opening_forced`)
    opening: tuple[int, list[str]] | None = None
    #: the views made for the position now, by (viewer, text): see :class:`Shown`
    shown: dict[tuple[int | None, bool], Shown] = field(default_factory=dict)
    #: the bots that decide on the server itself (:data:`INLINE_BOTS`), by (seat, spec)
    bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    shown_version: int = -1
    #: the presence frame sent last (:meth:`Service.tell_presence`), as JSON text
    presence_sent: str | None = None
    #: the decisions a stand-in bot played for each seat whose clock ran out while its
    #: person was connected, and the version after the last: for the clock frames, until the
    #: person takes the seat back
    ran_out: dict[int, tuple[list[str], int]] = field(default_factory=dict)

    def seat_kind(self, seat: int) -> tuple[str, str | None, bool]:
        s = self.table.seats[seat]
        return s.kind, s.bot, s.absent

    def bot_for(self, seat: int) -> str | None:
        """The bot that plays ``seat`` at its own pace now: its own for a bot seat, the
        stand-in for an absent person's seat that no connection acts for, none for a present
        person. The stand-in of an absent seat whose person is connected (their page is
        open) plays one decision each time the turn clock runs out instead (see
        :meth:`Service._clock_loop`), so the person can take the seat back at their next
        click (issue 39 #1)."""
        kind, bot, absent = self.seat_kind(seat)
        if kind == BOT:
            return bot or "random"
        if absent and not self.connected(seat):
            return bot or STAND_IN
        return None

    def stand_in(self, seat: int) -> str:
        """The bot that stands in for a person's ``seat`` (the seat's own ``bot`` if it names
        one, else :data:`STAND_IN`)."""
        return self.table.seats[seat].bot or STAND_IN

    def connected(self, seat: int) -> bool:
        """Whether a connection of this server process acts for ``seat`` now."""
        return any(c.viewer == seat for c in self.clients)

    def clock_left(self) -> float | None:
        """Seconds left on the turn clock of the person to move (None: no clock runs, as for
        a bot's seat, a seat played by its stand-in at its own pace, chance or the end)."""
        clock, seat = self.table.clock, self.state.to_move
        if (clock is None or self.table.status != RUNNING or seat is None or seat == CHANCE
                or self.table.seats[seat].kind != HUMAN or self.bot_for(seat) is not None):
            return None
        return max(0.0, clock - (time.monotonic() - self.since))


def not_your_turn(rt: Runtime) -> str:
    """Why a seat that is not to move cannot play or preview, naming who is (by name: the
    page shows it as it is, so no 0-based seat number)."""
    to_move = rt.state.to_move
    if to_move is None:
        return "the game is over: there is nothing more to play"
    if to_move == CHANCE:
        return "it is not your turn: the dice are being rolled"
    return f"it is not your turn: {rt.state.seats[to_move]} is to move"


def opening_forced(rt: Runtime, view: View) -> list[str]:
    """The decisions that open the turn of the seat to move in ``rt`` when each has only one
    legal move (the server's :meth:`Turn.play_forced <meeple.core.turn.Turn.play_forced>`),
    for that seat's own ``view`` only; empty for anyone else or when the first decision is a
    choice. The page sends them as its first preview, so the player sees them made."""
    if view.viewer is None or view.viewer != view.to_move or len(view.legal_moves) != 1:
        return []
    return _opening(rt)


def _opening(rt: Runtime) -> list[str]:
    if rt.opening is None or rt.opening[0] != rt.version:
        turn = Turn(rt.state)
        rt.opening = (rt.version, [s.text for s in turn.play_forced()])
    return rt.opening[1]


def _bot_seed(rt: Runtime) -> int:
    """The seed of a bot's decision at the table's version now."""
    return (rt.table.seed * 1_000_003 + rt.version) % (1 << 62)


def _json(data: Any) -> str:
    """JSON text as it goes on the wire (compact, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def rebuild(table: Table, entries: list[Entry]
            ) -> tuple[State[Any], list[LogLine], list[State[Any]]]:
    """The position a stored log describes, its log in words and the positions before the
    decisions undo can take back now (:attr:`Runtime.befores`)."""
    state = new_state(table)
    lines: list[LogLine] = []
    befores: list[State[Any]] = []
    for e in effective_moves(entries):
        before = state.clone()
        state.play(e.text)
        lines.append(log_line(state, announcements(before, state)))
        befores.append(before)
        befores = undoable(state, befores)
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
        lines.append(log_line(trial, announcements(before, trial)))
        befores.append(before)
    return moves, lines


def _after(moves: Sequence[str]) -> str:
    """How a refusal names the steps played before the refused one."""
    return f"after {', '.join(moves)}: " if moves else ""


class Service:
    """Every live table of this server process."""

    def __init__(self, store: Store, pool: Executor | None, *,
                 bot_deadline: float = DEFAULT_DEADLINE, bots: bool = True,
                 new_pool: Callable[[], Executor] | None = None) -> None:
        self.store = store
        self.pool = pool
        self.new_pool = new_pool
        self.bot_deadline = bot_deadline
        self.bots_enabled = bots
        self.runtimes: dict[str, Runtime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: open WebSocket connections per table (a table with one is never forgotten)
        self.connections: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        #: the pool's workers have started (see :meth:`_warm`); decisions wait for it
        self._pool_ready: asyncio.Future[Any] | None = None
        self._committer: Committer | None = None

    @property
    def committer(self) -> Committer:
        """The writer thread that stores moves, several tables in one commit under load
        (:mod:`meeple.server.committer`); started on first use."""
        if self._committer is None:
            self._committer = Committer(self.store)
        return self._committer

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Start serving at once; every unfinished table is resumed from its log in the
        background (its bots pick up where they were), and any table a client asks for first
        is rebuilt on that request (:meth:`runtime`), so a restart answers within moments
        however many tables there are."""
        if self.pool is not None and self.bots_enabled:
            self._spawn(self._warm(self.pool))
        self._spawn(self._resume_all())
        self._spawn(self._clock_loop())

    async def _resume_all(self) -> None:
        """Resume every unfinished table, one at a time, yielding to requests in between."""
        for table_id in await asyncio.to_thread(self.store.unfinished):
            if self._closed:
                return
            try:
                await self.start_table(table_id)
            except MeepleError as exc:
                log.error("table %s cannot be rebuilt: %s", table_id, exc)
            except Exception:  # one broken table must not stop the others resuming
                log.exception("table %s could not be resumed", table_id)

    async def stop(self) -> None:
        self._closed = True
        for rt in self.runtimes.values():
            if rt.bot_task is not None:
                rt.bot_task.cancel()
        for t in list(self._tasks):
            t.cancel()
        if self._committer is not None:
            await asyncio.to_thread(self._committer.stop)

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

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
                    rt = await asyncio.to_thread(self._load, table_id)
                    self.runtimes[table_id] = rt
        finally:  # a lock per table only while it loads (any id a client names costs nothing)
            if not lock.locked():
                self._loading.pop(table_id, None)
        return rt

    def evict_idle(self, idle: float = IDLE_EVICT) -> int:
        """Forget the positions of tables that nobody watches and that will not move by
        themselves (finished, or waiting for players) after ``idle`` seconds without a change:
        they are rebuilt from the store when next asked for, so memory does not grow with the
        number of tables ever served. Returns how many were forgotten."""
        cutoff = time.monotonic() - idle
        gone = [tid for tid, rt in self.runtimes.items()
                if not rt.clients and not self.connections.get(tid)
                and rt.table.status != RUNNING and rt.since < cutoff
                and not rt.lock.locked() and (rt.bot_task is None or rt.bot_task.done())]
        for tid in gone:
            del self.runtimes[tid]
        return len(gone)

    def _load(self, table_id: str) -> Runtime:
        table = self.store.table(table_id)
        entries = self.store.log(table_id)
        state, lines, befores = rebuild(table, entries)
        version = entries[-1].number if entries else 0
        rt = Runtime(table=table, state=state, lines=lines, version=version, befores=befores)
        if state.is_over and table.status != FINISHED:
            self.store.finish(table_id, [s.as_dict() for s in state.scores()])
            rt.table = self.store.table(table_id)
        return rt

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
                rt.table = table
                rt.state.seats = [s.name for s in table.seats]
                return changed
            fresh = await asyncio.to_thread(self._load, rt.table.id)
            if fresh.version <= rt.version:
                continue  # the runtime caught up meanwhile: read the table's row again
            rt.table, rt.state, rt.lines, rt.version = fresh.table, fresh.state, fresh.lines, \
                fresh.version
            rt.befores = fresh.befores
            rt.since = time.monotonic()
            return True
        return False  # (commits kept landing while it read: the runtime is the newest)

    async def remote_change(self, table_id: str, version: int) -> None:
        """Another server process changed a table (fan-out): catch up and tell our clients."""
        rt = self.runtimes.get(table_id)
        if rt is None or (0 <= version <= rt.version):
            return
        async with rt.lock:
            changed = await self.refresh(rt)
        if changed:
            await self.broadcast(rt)

    # ------------------------------------------------------------------ views
    def view(self, rt: Runtime, viewer: int | None, text: bool = False) -> View:
        return seat_view(rt.state, viewer, rt.lines, text=text)

    def view_frame(self, rt: Runtime, viewer: int | None, text: bool = False) -> dict[str, Any]:
        """The ``view`` frame for ``viewer``: the view, and for the seat to move the forced
        decisions that open its turn (``forced``, see :func:`opening_forced`), if any."""
        return cast("dict[str, Any]", json.loads(self.shown(rt, viewer, text).whole))

    def shown(self, rt: Runtime, viewer: int | None, text: bool = False) -> Shown:
        """The view of ``viewer`` of the position now, made once for every client of that
        kind (and made again only when the position, its names or its log changed)."""
        state = rt.state
        if rt.shown_version != rt.version:
            rt.shown.clear()
            rt.shown_version = rt.version
        key = (viewer, text)
        got = rt.shown.get(key)
        if (got is not None and got.state is state and got.seats is state.seats
                and got.lines == len(rt.lines)):
            return got
        view = self.view(rt, viewer, text)
        # the board is JSON data already (the game's view_board): dumping it again through
        # an untyped field would cost more than making it
        data = view.model_dump(mode="json", by_alias=True, exclude={"board"})
        data["board"] = view.board
        got = rt.shown[key] = Shown(state, state.seats, len(rt.lines), rt.version, view, data,
                                    opening_forced(rt, view))
        return got

    def view_frame_json(self, rt: Runtime, viewer: int | None, text: bool = False) -> str:
        """The whole ``view`` frame of :meth:`view_frame`, as JSON text."""
        return self.shown(rt, viewer, text).whole

    def frame_for(self, rt: Runtime, client: Client) -> str:
        """What ``client`` is sent for the position now: an ``update`` from the view it was
        sent last if it takes updates and has a view, else the whole ``view`` frame. Either
        is made once for all the clients that need the same one."""
        shown = self.shown(rt, client.viewer, client.text)
        base, before = client.sent_version, client.sent_view
        client.sent_version, client.sent_view = rt.version, shown.data
        if not client.updates or before is None:
            return shown.whole
        made = shown.updates.get(base)
        if made is not None and made[0] is before:  # another client had the same view
            return made[1]
        extra = f',"forced":{_json(shown.forced)}' if shown.forced else ""
        frame = (f'{{"type":"update","version":{rt.version},"base":{base}{extra},'
                 f'"patch":{_json(diff(before, shown.data))}}}')
        shown.updates[base] = (before, frame)
        return frame

    async def broadcast(self, rt: Runtime) -> None:
        """Send every connected client the position now: its own view, or what changed in it
        since its last (each made once per kind of viewer). Sending only queues the frame on
        the client's connection, so a move's ack never waits for the other clients' sockets."""
        for client in list(rt.clients):
            try:
                await client.send(self.frame_for(rt, client))
            except Exception:  # a client that went away is dropped
                rt.clients.discard(client)
        await self.tell_clock(rt)

    @staticmethod
    def clock_frame(rt: Runtime) -> str | None:
        """The ``clock`` frame of a table with a turn clock now (None without one): whose
        clock runs and the seconds it has left, which seats a stand-in bot plays for, and the
        decisions it played for a connected person whose time ran out."""
        limit = rt.table.clock
        if limit is None:
            return None
        left = rt.clock_left()
        seats = rt.table.seats
        data: dict[str, Any] = {
            "type": "clock", "version": rt.version, "limit": limit,
            "seat": rt.state.to_move if left is not None else None,
            "left": None if left is None else round(left, 1),
            "stood_in": [s.kind == HUMAN and s.absent for s in seats]}
        played = [{"seat": seat, "moves": moves, "version": version}
                  for seat, (moves, version) in sorted(rt.ran_out.items())
                  if seat < len(seats) and seats[seat].absent]
        if played:
            data["ran_out"] = played
        return _json(data)

    async def tell_clock(self, rt: Runtime, new: Client | None = None) -> None:
        """Send the clock frame (on a table with a turn clock) to every client that asked for
        clock frames, or only to ``new``."""
        if rt.table.clock is None:
            return
        frame = self.clock_frame(rt)
        for client in [new] if new is not None else list(rt.clients):
            if client.clock and frame is not None:
                try:
                    await client.send(frame)
                except Exception:  # a client that went away is dropped
                    rt.clients.discard(client)

    @staticmethod
    def presence_frame(rt: Runtime) -> str:
        """The ``presence`` frame of the table now: for each seat whether one of this
        process's connections acts for it, and how many watch without a seat."""
        seats = [False] * rt.table.players
        spectators = 0
        for c in rt.clients:
            if c.viewer is None:
                spectators += 1
            elif 0 <= c.viewer < len(seats):
                seats[c.viewer] = True
        return _json({"type": "presence", "seats": seats, "spectators": spectators})

    async def tell_presence(self, rt: Runtime, new: Client | None = None) -> None:
        """Send the presence frame to every client that asked for it, if it changed since
        it was sent last; ``new`` (a client that just said hello) gets it in any case."""
        frame = self.presence_frame(rt)
        changed = frame != rt.presence_sent
        rt.presence_sent = frame
        for client in list(rt.clients):
            if client.presence and (changed or client is new):
                try:
                    await client.send(frame)
                except Exception:  # a client that went away is dropped (and told of later)
                    rt.clients.discard(client)

    # ------------------------------------------------------------------ moves
    async def play(self, table_id: str, seat: int, text: str | Sequence[str], version: int,
                   client_id: str | None, *, by_bot: bool = False, quiet: bool = False) -> int:
        """Play ``text`` (a move, or several decisions of this seat in a row: a whole turn
        confirmed at once) for ``seat`` against table version ``version``. All or nothing:
        returns the new version once committed; raises :class:`Refused` otherwise."""
        texts = [text] if isinstance(text, str) else list(text)
        if not texts:
            raise Refused("no move was given", version)
        rt = await self.runtime(table_id)
        async with rt.lock:
            key = None if client_id is None else request_key(seat, version, client_id, MOVE,
                                                              texts)
            await self._check_turn(rt, seat, version, key, by_bot)
            trial = rt.state.clone()
            befores = list(rt.befores)
            moves, lines = play_steps(trial, seat, texts, rt.version, befores)
            entries = [Entry(MOVE, seat, m, key if i == 0 else None)
                       for i, m in enumerate(moves)]
            self._draw_chance(trial, entries, lines, befores)
            await self._commit(rt, trial, entries, rt.lines + lines, befores)
        if quiet:  # an inline bot's move inside a person's (see _inline_bots)
            return rt.version
        if not by_bot and rt.table.seats[seat].absent:
            await self.set_absent(table_id, seat, False)
        if not by_bot:
            await self._inline_bots(rt)
        await self.broadcast(rt)
        self.schedule_bots(rt)
        return rt.version

    async def _inline_bots(self, rt: Runtime) -> None:
        """After a person's move: the moves of the bots that decide on the server itself
        (:data:`INLINE_BOTS`) and are to move next, played now, so the clients get one view
        of the position after them all instead of one per move (at most a few turns)."""
        for _ in range(64):
            seat = rt.state.to_move
            if (seat is None or seat == CHANCE or rt.table.status != RUNNING or self._closed
                    or not self.bots_enabled or rt.bot_for(seat) not in INLINE_BOTS):
                return
            if rt.bot_task is not None and not rt.bot_task.done():
                return  # the table's bot task plays them
            version, spec = rt.version, str(rt.bot_for(seat))
            # the bot's decisions up to the end of its turn (or a roll), stored in one commit
            # as a person's confirmed turn is
            trial, texts = rt.state.clone(), list[str]()
            while trial.to_move == seat and len(texts) < 64:
                texts.append(self._decide_here(rt, seat, spec, trial))
                trial.play(texts[-1])
            try:
                await self.play(rt.table.id, seat, texts, version, None, by_bot=True,
                                quiet=True)
            except (Refused, StoreUnavailable):
                return  # the bot task plays it later (schedule_bots, after the broadcast)

    async def preview(self, table_id: str, seat: int, texts: Sequence[str], text: bool = False,
                      draft: Draft | None = None) -> PreviewAnswer:
        """What the position would be after ``texts`` (this seat's decisions from now), without
        playing anything: the seat's view, the moves with every forced decision (only one
        legal move) that follows them added, and whether the turn is then complete. A refused
        step raises :class:`Refused`. Used by the browser to build a turn by clicks before it
        is confirmed.

        ``draft``: the connection's turn of its last preview (see :class:`Draft`): only the
        steps that differ from it are played or taken back. Without one, the turn is built
        from the committed position."""
        rt = await self.runtime(table_id)
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
        # browser sends ``back`` at the person's click (issue 39 #1)
        rt.since = time.monotonic()
        await self.tell_clock(rt)
        return PreviewAnswer(seat_view(turn.position, seat, lines, text=text), turn.texts,
                             turn.complete, [s.forced for s in steps])

    async def undo(self, table_id: str, seat: int, version: int, client_id: str | None) -> int:
        """Take back ``seat``'s last decision of its unfinished turn (as the engine allows)."""
        rt = await self.runtime(table_id)
        async with rt.lock:
            key = None if client_id is None else request_key(seat, version, client_id, UNDO, [])
            await self._check_turn(rt, seat, version, key, False)
            if rt.befores and rt.state.can_undo():  # the position before it is kept
                trial = rt.befores[-1]
                back = rt.state.last_logged()[1]
                trial.seats = rt.state.seats
            else:
                trial = rt.state.clone()
                try:
                    back = trial.undo()
                except IllegalMove as exc:
                    raise Refused(exc.reason, rt.version) from None
            await self._commit(rt, trial, [Entry(UNDO, seat, str(back), key)],
                               rt.lines[:-1], rt.befores[:-1])
        await self.broadcast(rt)
        return rt.version

    async def _check_turn(self, rt: Runtime, seat: int, version: int, key: str | None,
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

    @staticmethod
    def _draw_chance(trial: State[Any], entries: list[Entry], lines: list[LogLine],
                     befores: list[State[Any]]) -> None:
        """Play every chance event now pending, from the table's own generator."""
        while trial.to_move == CHANCE:
            before = trial.clone()
            move = trial.sample_chance()
            entries.append(Entry(CHANCE_ENTRY, -1, str(move)))
            lines.append(log_line(trial, announcements(before, trial)))
            befores.append(before)

    async def _commit(self, rt: Runtime, trial: State[Any], entries: list[Entry],
                      lines: list[LogLine], befores: list[State[Any]]) -> None:
        """Store ``entries`` and make ``trial`` the table's position; ``befores``: the
        positions before the last moves of ``trial`` (those undo may need are kept)."""
        result = [s.as_dict() for s in trial.scores()] if trial.is_over else None
        try:
            new = await self.committer.append(rt.table.id, rt.version, entries,
                                              finished_result=result)
        except DuplicateMove as exc:
            raise Refused(str(exc), rt.version) from None
        except StaleVersion:
            await self.refresh(rt)
            raise Refused(f"the table has moved on: it is at version {rt.version}; look at "
                          f"the new position and play again", rt.version) from None
        rt.state, rt.lines, rt.version = trial, lines, new
        rt.befores = undoable(trial, befores)
        rt.since = time.monotonic()
        if result is not None:
            rt.table = await asyncio.to_thread(self.store.table, rt.table.id)

    async def start_table(self, table_id: str) -> None:
        """A table whose game starts: draw its opening chance events (the first roll) on the
        server, then let its bots play."""
        rt = await self.runtime(table_id)
        async with rt.lock:
            await self.refresh(rt)
            if rt.table.status == RUNNING and rt.state.to_move == CHANCE:
                trial = rt.state.clone()
                entries: list[Entry] = []
                lines: list[LogLine] = []
                befores: list[State[Any]] = []
                self._draw_chance(trial, entries, lines, befores)
                with contextlib.suppress(Refused):
                    await self._commit(rt, trial, entries, rt.lines + lines, befores)
        await self.broadcast(rt)
        self.schedule_bots(rt)

    async def set_absent(self, table_id: str, seat: int, absent: bool) -> None:
        rt = await self.runtime(table_id)
        await asyncio.to_thread(self.store.set_absent, table_id, seat, absent)
        await self.refresh(rt)
        if not absent:  # the person's own again: a whole clock for their decision
            rt.ran_out.pop(seat, None)
            if rt.state.to_move == seat:
                rt.since = time.monotonic()
        await self.broadcast(rt)
        self.schedule_bots(rt)

    async def seats_changed(self, table_id: str) -> None:
        rt = await self.runtime(table_id)
        await self.refresh(rt)
        if rt.table.status == RUNNING:
            await self.start_table(table_id)
        else:
            await self.broadcast(rt)

    # ------------------------------------------------------------------ bots
    def schedule_bots(self, rt: Runtime) -> None:
        if not self.bots_enabled or self._closed or rt.table.status != RUNNING:
            return
        if rt.bot_task is not None and not rt.bot_task.done():
            return
        to_move = rt.state.to_move
        if to_move is None or to_move == CHANCE or rt.bot_for(to_move) is None:
            return
        rt.bot_task = asyncio.ensure_future(self._bot_turns(rt))

    async def _bot_turns(self, rt: Runtime) -> None:
        """Let bots play while a bot (or a stand-in) is to move."""
        for _ in range(10_000):
            seat = rt.state.to_move
            if seat is None or seat == CHANCE or rt.table.status != RUNNING:
                return
            spec = rt.bot_for(seat)
            if spec is None:
                return
            version = rt.version
            text = await self._bot_decision(rt, seat, spec)
            await self._bot_move(rt, seat, text, version)
            if rt.bot_task is not asyncio.current_task():
                return

    async def _bot_decision(self, rt: Runtime, seat: int, spec: str) -> str:
        """What the bot ``spec`` plays for ``seat`` at the table's position now (a random
        legal move if it missed its deadline or failed)."""
        if spec in INLINE_BOTS:
            text: str | None = self._decide_here(rt, seat, spec)
        else:
            text = await self._decide(self._decision(rt, seat, spec))
        if text is None:  # missed its deadline or failed: a random legal move instead
            text = str(make_bot("random", seed=_bot_seed(rt)).choose(
                rt.state.view(seat), rt.state.legal_moves()))
        return text

    async def _time_ran_out(self, rt: Runtime, seat: int) -> None:
        """The turn clock of the person at ``seat`` ran out: the seat goes to its stand-in
        bot (Board Game Arena's zombie mode). While a connection of the seat is open (their
        page is there) the stand-in plays one decision now and one more each time the clock
        runs out again, and the person takes the seat back at their next click (a preview,
        a move or ``back``); with no connection open it plays on at a bot's pace, so nobody
        waits for a person who has gone (issue 39 #1)."""
        log.info("table %s: seat %s ran out of time; a stand-in bot plays for it",
                 rt.table.id, seat)
        try:
            await self._stand_in_for(rt, seat)
        finally:  # this task held the table's bots back: now the bots to move may play
            if rt.bot_task is asyncio.current_task():
                rt.bot_task = None
            self.schedule_bots(rt)

    async def _stand_in_for(self, rt: Runtime, seat: int) -> None:
        try:
            if not rt.table.seats[seat].absent:
                await self.set_absent(rt.table.id, seat, True)
        except MeepleError as exc:  # the store unavailable: the next tick tries again
            log.warning("table %s: no stand-in for seat %s yet: %s", rt.table.id, seat, exc)
            return
        if rt.state.to_move != seat or rt.table.status != RUNNING:
            return
        if rt.bot_for(seat) is not None:  # nobody there: it plays on at a bot's pace
            await self._bot_turns(rt)
            return
        version = rt.version
        text = await self._bot_decision(rt, seat, rt.stand_in(seat))
        if rt.state.to_move != seat or rt.version != version:
            return  # the person (or another process) moved meanwhile
        before = list(rt.ran_out.get(seat, ([], 0))[0])
        await self._bot_move(rt, seat, text, version)
        if rt.version != version and rt.table.seats[seat].absent:
            rt.ran_out[seat] = ([*before, text][-16:], rt.version)
            await self.tell_clock(rt)

    @staticmethod
    def _decision(rt: Runtime, seat: int, spec: str) -> Decision:
        """What a bot of ``spec`` decides for ``seat`` at the table's position now."""
        t = rt.table
        return Decision(t.game, t.players, t.variant, t.sheet, t.seed,
                        tuple(str(m) for m in rt.state.history), seat, spec, _bot_seed(rt), t.id)

    @staticmethod
    def _decide_here(rt: Runtime, seat: int, spec: str, state: State[Any] | None = None
                     ) -> str:
        """The move of a bot that decides in microseconds (:data:`INLINE_BOTS`), made on the
        server itself, as a worker would make it (one bot per seat, kept while the table is),
        at the table's position or at ``state`` (a position later in the same turn)."""
        bot = rt.bots.get((seat, spec))
        if bot is None:
            bot = rt.bots[(seat, spec)] = make_bot(spec, seed=_bot_seed(rt))
        view = (rt.state if state is None else state).view(seat)
        view.seed = _bot_seed(rt)
        return str(bot.choose(view, view.legal_moves()))

    async def _decide(self, d: Decision) -> str | None:
        """The bot's move, or None if it missed its deadline or failed (then the caller plays a
        stand-in move). A worker that overruns is stopped: the pool is made anew, and decisions
        that were under way in it are asked again.

        The deadline counts think time, not time spent waiting: not a new pool's start-up (see
        :meth:`_warm`), nor a decision's wait in the queue behind others while many bots think
        at once. A decision is an overrun once it has been running (handed to a worker) for a
        whole deadline, so a bot is stopped after one to two deadlines of thinking."""
        for _attempt in range(3):
            pool = self.pool
            if pool is None:
                return decide(d)
            try:
                await self._warm(pool)
                return await self._run_with_deadline(pool, d)
            except TimeoutError:
                log.warning("table bot %s missed its %.1f s deadline; a stand-in move is played",
                            d.spec, self.bot_deadline)
                self._renew_pool(pool)
                return None
            except BrokenProcessPool:
                self._pool_broken(pool)
                continue  # the pool was made anew (here, or by another decision): ask again
            except Exception as exc:
                log.error("bot %s failed (%s); a stand-in move is played", d.spec, exc)
                return None
        return None

    async def _run_with_deadline(self, pool: Executor, d: Decision) -> str:
        future = pool.submit(decide, d)
        waiting = asyncio.wrap_future(future)
        started_before = False
        for _period in range(1000):  # queued at most ~1000 deadlines, then given up on
            try:
                return await asyncio.wait_for(asyncio.shield(waiting), self.bot_deadline)
            except TimeoutError:
                if started_before:  # running for at least a whole deadline: an overrun
                    future.cancel()
                    raise
                started_before = future.running()
        future.cancel()
        raise TimeoutError

    async def _warm(self, pool: Executor) -> None:
        """Start ``pool``'s workers once (spawning them and loading the games can take
        seconds on a busy machine), before any decision's deadline counts."""
        if self._pool_ready is None or getattr(self._pool_ready, "pool", None) is not pool:
            loop = asyncio.get_running_loop()
            workers = int(getattr(pool, "_max_workers", 1) or 1)
            ready_all = asyncio.gather(*(loop.run_in_executor(pool, ready)
                                         for _ in range(workers)))
            ready_all.pool = pool  # type: ignore[attr-defined]
            self._pool_ready = ready_all
        await asyncio.shield(self._pool_ready)

    async def _bot_move(self, rt: Runtime, seat: int, text: str, version: int) -> None:
        """Play a bot's move made at ``version``; if someone else moved meanwhile, look again.
        While the store is unavailable (its database down, its disk full) the move is tried
        again, every 0.2 s at first and every 2 s at most, until it is stored or refused: an
        outage pauses a table's bots, it never leaves the table stuck."""
        for tries in itertools.count():
            try:
                try:
                    await self.play(rt.table.id, seat, text, version, None, by_bot=True)
                except Refused:
                    await self.refresh(rt)  # someone else moved meanwhile: look again
                return
            except StoreUnavailable as exc:
                if self._closed:
                    return
                if tries == 0:
                    log.warning("table %s: the bot's move waits for the store: %s",
                                rt.table.id, exc)
                await asyncio.sleep(min(0.2 * 2 ** min(tries, 4), 2.0))

    def _pool_broken(self, pool: Executor) -> None:
        """A worker of ``pool`` died (killed, out of memory): the pool is broken for good, every
        decision sent to it fails at once. It is made anew (unless that was done already) and
        the decisions under way in it are asked again."""
        if self.pool is pool:
            log.warning("a bot worker died; the bot pool is made anew")
        self._renew_pool(pool)

    def _renew_pool(self, pool: Executor) -> None:
        if self.pool is not pool or self.new_pool is None:
            return
        self.pool = self.new_pool()
        kill_pool(pool)

    # ------------------------------------------------------------------ clock
    async def _clock_loop(self) -> None:
        ticks = 0
        while not self._closed:
            await asyncio.sleep(1.0)
            ticks += 1
            if ticks % 15 == 0:
                self.evict_idle()
            for rt in list(self.runtimes.values()):
                left = rt.clock_left()
                seat = rt.state.to_move
                if (left is None or left > 0 or seat is None or seat == CHANCE
                        or (rt.bot_task is not None and not rt.bot_task.done())):
                    continue
                rt.bot_task = asyncio.ensure_future(self._time_ran_out(rt, seat))
