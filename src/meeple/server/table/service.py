"""Live tables: the three owners of the server's move path, put together.

- :class:`~meeple.server.table.authority.Authority` checks, plays and commits (``authority``);
- :class:`~meeple.server.table.broadcaster.Broadcaster` tells every client (``broadcaster``);
- :class:`~meeple.server.table.scheduler.BotScheduler` plays the bots and stand-ins (``bots``).

Each change follows one path: the authority commits it, the broadcaster tells the clients,
the scheduler lets the bots now to move play. The REST and WebSocket routes, the fan-out
between server processes and the tests call the :class:`Service` for a change; what only
reads or tells (a runtime, a refresh, a frame, the clock) they ask of its owner directly
(``svc.authority``, ``svc.broadcaster``, ``svc.bots``): the service passes nothing through.
Each owner can also be used (and is tested) on its own. What a change committed travels as
data: the authority returns it (:class:`~meeple.server.table.authority.Committed`), and a mover's
ack goes to the broadcaster as an argument (:class:`~meeple.server.table.broadcaster.MergedAck`).
``docs/layers.md`` names each part and what it owns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.server.table.authority import (
    IDLE_EVICT,
    AlreadyPlayed,
    Authority,
    PreviewAnswer,
    Refused,
    play_steps,
    rebuild,
    undoable,
)
from meeple.server.table.botpool import DEFAULT_DEADLINE
from meeple.server.table.broadcaster import Broadcaster, MergedAck, Shown, opening_forced
from meeple.server.table.runtime import STAND_IN, Client, Draft, Runtime, Sender, not_your_turn
from meeple.server.table.scheduler import INLINE_BOTS, BotScheduler
from meeple.server.table.settings import ShareSettings, TestingSettings
from meeple.store import MOVE, RUNNING, UNDO, Store, request_key

if TYPE_CHECKING:
    from meeple.server.identity import Identity

__all__ = [
    "IDLE_EVICT", "INLINE_BOTS", "SEAT_LOST", "STAND_IN", "AlreadyPlayed", "Client", "Draft",
    "Played", "PreviewAnswer", "Refused", "Runtime", "Sender", "Service", "Shown", "not_your_turn",
    "opening_forced", "play_steps", "rebuild", "undoable",
]

log = logging.getLogger("meeple.server")


@dataclass(frozen=True)
class Played:
    """A request committed and told: the table's version after it, and whether its mover's
    ack went inside the view or update frame of the change (a connection that said hello
    ``merged_ack``), so the mover is sent no ``ack`` frame of its own."""

    version: int
    acked: bool = False


class Service:
    """Every live table of this server process."""

    def __init__(self, store: Store, pool: Executor | None, *,
                 bot_deadline: float = DEFAULT_DEADLINE, bots: bool = True,
                 new_pool: Callable[[], Executor] | None = None,
                 shares: ShareSettings | None = None,
                 testing: TestingSettings | None = None,
                 identity: Identity | None = None) -> None:
        self.store = store
        #: who holds a seat by a session (the site's identity; None: no accounts, so no
        #: socket acts by a session)
        self.identity = identity
        self.authority = Authority(store, testing)
        self.broadcaster = Broadcaster()
        self.bots = BotScheduler(self, pool, deadline=bot_deadline, enabled=bots,
                                 new_pool=new_pool, shares=shares,
                                 refresh=self.authority.refresh,
                                 tell_clock=self.broadcaster.tell_clock)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        #: called after every change this process made, once its clients are told (the mail
        #: notices): each must return at once (it may start a task)
        self.watchers: list[Callable[[Runtime], None]] = []

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Start serving at once; every unfinished table is resumed from its log in the
        background (its bots pick up where they were), and any table a client asks for first
        is rebuilt on that request (:meth:`runtime`), so a restart answers within moments
        however many tables there are."""
        if self.bots.pool is not None and self.bots.enabled:
            self._spawn(self.bots.warm(self.bots.pool))
        self._spawn(self._resume_all())
        self._spawn(self._tick_loop())

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

    async def _tick_loop(self) -> None:
        """Once a second the turn clocks (:meth:`BotScheduler.tick`); every 15 s the tables
        nobody watches are forgotten (:meth:`Authority.evict_idle`)."""
        ticks = 0
        while not self._closed:
            await asyncio.sleep(1.0)
            ticks += 1
            if ticks % 15 == 0:
                self.authority.evict_idle()
            self.bots.tick(list(self.authority.runtimes.values()))

    async def stop(self) -> None:
        self._closed = True
        self.bots.stop(list(self.authority.runtimes.values()))
        for t in list(self._tasks):
            t.cancel()
        await self.authority.stop()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ positions
    async def remote_change(self, table_id: str, version: int) -> None:
        """Another server process changed a table (fan-out): catch up (reading only the new
        log entries) and tell our clients."""
        rt = self.authority.runtimes.get(table_id)
        if rt is None or (0 <= version <= rt.version):
            return
        async with rt.lock:
            changed = await self.authority.refresh(rt)
        if version < 0:  # the seats changed there: a seat here may have changed hands
            await self.end_lost_seats(rt)
        if changed:
            await self.broadcaster.broadcast(rt)

    # ------------------------------------------------------------------ what clients see
    async def _told(self, rt: Runtime, ack: MergedAck | None = None) -> bool:
        """After a change: every client told (``ack``: the mover's, inside its frame), then
        the bots now to move set going. Returns whether the mover's ack went out."""
        acked = await self.broadcaster.broadcast(rt, ack)
        for client in list(rt.clients):
            await self.open_turn(rt, client)
        self.bots.schedule(rt)
        for watch in self.watchers:
            try:
                watch(rt)
            except Exception:  # a notice must never break the move path
                log.exception("table %s: a watcher of changes failed", rt.table.id)
        return acked

    async def open_turn(self, rt: Runtime, client: Client) -> None:
        """For a client that asked (hello ``opening``) whose seat is to move, and whose turn
        opens with forced decisions: those decisions previewed on its turn in progress, and
        the preview frame sent unasked (``opening``), right after its view. The client then
        starts its turn from there without sending them back."""
        seat = rt.state.to_move
        if not client.opening or client.viewer is None or client.viewer != seat:
            return
        forced = self.broadcaster.shown(rt, seat, client.text).forced
        if not forced:
            return
        try:
            answer = self.authority.preview(rt, seat, forced, client.text, client.draft)
            await client.send(self.broadcaster.preview_frame(rt, client, answer, opening=True))
        except Refused:  # (the forced steps are legal at the position they were made for)
            log.exception("table %s: the forced opening could not be previewed", rt.table.id)
        except Exception:  # a client that went away is dropped
            rt.clients.discard(client)

    # ------------------------------------------------------------------ changes
    async def play(self, table_id: str, seat: int, text: str | Sequence[str], version: int,
                   client_id: str | None, *, by_bot: bool = False, quiet: bool = False,
                   draft: Draft | None = None, mover: Client | None = None) -> Played:
        """Play ``text`` (a move, or several decisions of this seat in a row: a whole turn
        confirmed at once) for ``seat`` against table version ``version``. All or nothing:
        returns the new version once committed; raises :class:`Refused` otherwise.
        ``draft``: the connection's turn in progress (its previews), whose positions are
        committed as they are when it holds these steps. ``mover``: the connection that sent
        it; if it takes its ack in the next view or update frame (``merged_ack``), the ack
        goes in the frame of this change (:class:`Played` says whether it did)."""
        texts = [text] if isinstance(text, str) else list(text)
        if not texts:
            raise Refused("no move was given", version)
        rt = await self.authority.runtime(table_id)
        if not by_bot:
            conceded(rt, seat, version)
        key = None if client_id is None else request_key(seat, version, client_id, MOVE, texts)
        committed = await self.authority.play(rt, seat, texts, version, key, by_bot=by_bot,
                                              draft=draft)
        if quiet:  # an inline bot's move inside a person's (see BotScheduler.play_inline)
            return Played(committed.version)
        ack = MergedAck(mover, client_id) if mover is not None and mover.merged_ack else None
        acked = False
        if not by_bot and rt.table.seats[seat].absent:
            await self._set_absent(rt, seat, False)
            acked = await self._told(rt, ack)
        if not by_bot:
            await self.bots.play_inline(rt)
        acked = await self._told(rt, None if acked else ack) or acked
        return Played(rt.version, acked)

    async def preview(self, table_id: str, seat: int, texts: Sequence[str], text: bool = False,
                      draft: Draft | None = None) -> PreviewAnswer:
        """What the position would be after ``texts`` (:meth:`Authority.preview`); the turn
        clock restarts, and its clients are told."""
        rt = await self.authority.runtime(table_id)
        conceded(rt, seat, rt.version)
        answer = self.authority.preview(rt, seat, texts, text, draft)
        await self.broadcaster.tell_clock(rt)
        return answer

    async def undo(self, table_id: str, seat: int, version: int, client_id: str | None
                   ) -> Played:
        """Take back ``seat``'s last decision of its unfinished turn (as the engine allows);
        its mover is sent an ``ack`` frame of its own."""
        rt = await self.authority.runtime(table_id)
        conceded(rt, seat, version)
        key = None if client_id is None else request_key(seat, version, client_id, UNDO, [])
        committed = await self.authority.undo(rt, seat, version, key)
        await self.broadcaster.broadcast(rt)
        return Played(committed.version)

    async def start_table(self, table_id: str) -> None:
        """A table whose game starts: draw its opening chance events (the first roll) on the
        server, then let its bots play."""
        rt = await self.authority.runtime(table_id)
        await self.authority.draw_opening(rt)
        await self._told(rt)

    async def set_absent(self, table_id: str, seat: int, absent: bool) -> None:
        """Mark ``seat``'s person away (its stand-in plays) or back, and tell the table."""
        rt = await self.authority.runtime(table_id)
        await self._set_absent(rt, seat, absent)
        await self._told(rt)

    async def _set_absent(self, rt: Runtime, seat: int, absent: bool) -> None:
        if not absent:
            conceded(rt, seat, rt.version)
        await self.authority.set_absent(rt, seat, absent)
        if not absent:  # the person's own again
            self.bots.seat_back(rt, seat)

    async def holders_changed(self, table_id: str) -> None:
        """A seat's holder changed at ``table_id`` without a change to the table (a secret
        claimed into an account, or revoked): end the sockets whose proof no longer holds,
        if this process holds the table live."""
        rt = self.authority.runtimes.get(table_id)
        if rt is not None:
            await self.end_lost_seats(rt)

    async def end_lost_seats(self, rt: Runtime) -> None:
        """Close (:data:`SEAT_LOST`) every socket of ``rt`` that acts for a seat by a proof
        that no longer holds: the secret it showed is no longer the seat's (the seat was
        left before the game and opened again, taken by someone else, claimed into an
        account, or its secrets revoked), or the session it acted by was revoked or its
        account no longer holds the seat. One rule for every way a seat changes hands
        (src/meeple/server/features/accounts/README.md, "One identity per seat")."""
        seated = [c for c in rt.clients if c.viewer is not None and c.holder is not None]
        if not seated:
            return
        hashes = await asyncio.to_thread(self.store.seat_secret_hashes, rt.table.id)
        for client in seated:
            assert client.viewer is not None and client.holder is not None
            kind, proof = client.holder
            if kind == "secret":
                lost = None if hashes.get(client.viewer) == proof else SEAT_LOST
            else:
                lost = await asyncio.to_thread(session_lost, self.identity, proof, rt.table.id,
                                               client.viewer)
            if lost is None:
                continue
            rt.clients.discard(client)
            if client.end is not None:
                try:
                    await client.end(lost, SEAT_LOST_REASON if lost == SEAT_LOST
                                     else SIGNED_OUT_REASON)
                except Exception:  # already gone
                    log.debug("a socket whose seat changed hands was already closed",
                              exc_info=True)

    async def seats_changed(self, table_id: str) -> None:
        rt = await self.authority.runtime(table_id)
        await self.authority.refresh(rt)
        await self.end_lost_seats(rt)
        if rt.table.status == RUNNING:
            await self.start_table(table_id)
        else:
            await self.broadcaster.broadcast(rt)
        await self.broadcaster.tell_presence(rt)  # a concession, a rematch made


def conceded(rt: Runtime, seat: int, version: int) -> None:
    """:class:`Refused` if ``seat``'s person conceded: its stand-in plays it to the
    end, and its person can no longer move, preview, undo or take it back."""
    if 0 <= seat < len(rt.table.seats) and rt.table.seats[seat].conceded:
        raise Refused("you conceded this game: a bot plays your seat to the end", version)


#: The close code of a socket whose seat is no longer its own (changed hands, left, its
#: secret revoked); 4401 is a signed-out session's.
SEAT_LOST = 4403
SEAT_LOST_REASON = ("this seat is no longer yours: it was left, taken by someone else, or its "
                    "secret was revoked")


#: The close code and reason of a socket whose session was signed out (as
#: :meth:`AccountService.signed_out <meeple.server.features.accounts.sessions.AccountService.signed_out>`'s).
SIGNED_OUT = 4401
SIGNED_OUT_REASON = "signed out: this session no longer acts for the seat; sign in again to play it"


def session_lost(identity: Identity | None, session: str, table_id: str, seat: int
                 ) -> int | None:
    """None while session ``session`` is live and its account holds the seat; else the close
    code of its sockets: :data:`SIGNED_OUT` (the session was revoked) or :data:`SEAT_LOST`."""
    held = None if identity is None else identity.seat_held(session, table_id, seat)
    if held is None:
        return SIGNED_OUT
    return None if held else SEAT_LOST
