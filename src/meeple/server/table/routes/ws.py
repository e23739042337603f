"""The WebSocket a client plays or watches on: ``/ws/tables/{id}``.

Each message is read strictly (:func:`meeple.server.table.checks.loads_strict`, at most
:data:`~meeple.server.table.protocol.MAX_FRAME` bytes), validated as one of the client frames of
:mod:`meeple.server.table.protocol` and answered with server frames from there. A frame that is not
valid gets an ``error`` frame saying which field is wrong and what it allows; nothing changes
and the connection stays open. One :class:`Connection` per socket makes one call into the
service per frame of the table core's, or hands it to the feature that registered its type
(the chat's ``chat``: :mod:`meeple.server.table.sockets`); who acts for a seat is asked of the
site's identity (:mod:`meeple.server.identity`).

Each client holds at most ``MEEPLE_WS_PER_CLIENT`` sockets (one more is refused before it is
accepted: HTTP 429), and sends frames within its rates (``MEEPLE_RATE_FRAMES`` a connection,
``MEEPLE_RATE_CLIENT_FRAMES`` all of a client's): a frame over them is not read but answered
(``refused`` with ``retry`` for a move or undo, else an ``error`` with ``retry``), and a
connection that keeps sending far over them (``MEEPLE_RATE_FRAMES_REFUSED``) is closed with
1008 (:mod:`meeple.server.quotas`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from meeple.server import edge, wslog
from meeple.server.deps import ServiceDep
from meeple.server.identity import SOCKET_RECHECK, SignedIn, seat_proof
from meeple.server.quotas import Quotas, QuotasDep, Throttled, client_of
from meeple.server.site import Site, site_of
from meeple.server.table.checks import BadInput, loads_strict
from meeple.server.table.protocol import (
    CLIENT_FRAMES,
    MAX_FRAME,
    Ack,
    Back,
    Chat,
    ClientFrame,
    ErrorFrame,
    Hello,
    Move,
    Ping,
    Pong,
    Preview,
    RefusedFrame,
    Undo,
    Welcome,
    frame_problem,
)
from meeple.server.table.service import AlreadyPlayed, Client, Refused, Runtime, Service
from meeple.server.table.sockets import SocketRegistry
from meeple.store import NotFound, StoreUnavailable
from meeple.store.store import hash_secret

log = logging.getLogger("meeple.server")

router = APIRouter()

T = TypeVar("T")

#: What a client that has not said hello is told, whatever it sent but a ping.
SAY_HELLO = ('say hello first: {"type": "hello", "seat": N, "secret": "..."} or '
             '{"type": "hello"} to watch')


#: Connection numbers, for their own frame rates.
_numbers = itertools.count()


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, svc: ServiceDep, quotas: QuotasDep) -> None:
    who = client_of(ws)
    if not quotas.open_socket(who):  # at its cap: refused before it is accepted
        await refuse(ws, quotas.too_many_sockets())
        return
    try:
        await _play(ws, table_id, svc, quotas, who)
    finally:
        quotas.close_socket(who)


async def refuse(ws: WebSocket, exc: Throttled) -> None:
    """Refuse a WebSocket before accepting it: an HTTP answer (429, ``Retry-After``, the JSON
    body of every refusal) where the server can send one, else accepted and closed at once
    with 1013 (try again later) and the reason. Logged by :data:`edge.refused` (a bounded
    number of lines a minute), not by uvicorn's ERROR line (:mod:`meeple.server.wslog`)."""
    edge.refused(429, f"WebSocket {ws.url.path[:80]}", ws.scope.get("client"), exc.detail)
    wslog.mark_refused()
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(exc.response())
        return
    await ws.accept()
    await ws.close(code=1013, reason=exc.detail.encode()[:123].decode("utf-8", "ignore"))


async def _play(ws: WebSocket, table_id: str, svc: Service, quotas: Quotas, who: str) -> None:
    await ws.accept()
    try:
        rt = await svc.authority.runtime(table_id)
    except NotFound as exc:
        await ws.send_text(ErrorFrame(reason=str(exc)).dump())
        await ws.close(code=4404)
        return
    except StoreUnavailable as exc:  # the table cannot be read now: come back later
        await ws.send_text(ErrorFrame(reason=str(exc), retry=True).dump())
        await ws.close(code=1013)
        return
    conn = Connection(svc, rt, ws, quotas, who)
    connections = svc.authority.connections
    connections[table_id] = connections.get(table_id, 0) + 1
    try:
        await conn.serve()
    except WebSocketDisconnect:
        pass
    finally:
        if conn.client is not None:
            rt.clients.discard(conn.client)
            with contextlib.suppress(Exception):  # the others learn that this one left
                await svc.broadcaster.tell_presence(rt)
                # a seat its stand-in plays for, now with nobody there: it plays on at a
                # bot's pace (Runtime.bot_for)
                svc.bots.schedule(rt)
                await svc.broadcaster.tell_clock(rt)
        await conn.finish()
        left = connections.pop(table_id, 1) - 1
        if left > 0:
            connections[table_id] = left


#: Frames queued for one connection at most: a client that reads slower than its table moves
#: (and so falls this far behind) is closed with 1013 and comes back for a whole view.
MAX_OUTBOX = 1000


class Connection:
    """One client's socket at one table: who it is (after its hello) and its frames.

    Frames go out through the connection's own queue, written in order by its writer task:
    sending a frame never waits for this client's socket, so a move's ack and the other
    clients' views never wait behind a slow reader."""

    def __init__(self, svc: Service, rt: Runtime, ws: WebSocket,
                 quotas: Quotas | None = None, who: str = "") -> None:
        self.svc, self.rt, self.ws = svc, rt, ws
        self.table_id = rt.table.id
        #: the frame rates (none without), the client's address and this connection's number
        self.quotas, self.who, self.number = quotas, who, f"ws{next(_numbers)}"
        #: the connection's client once it said hello (a seat, or a spectator)
        self.client: Client | None = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self._closing: asyncio.Task[None] | None = None
        #: the session the connection acts for its seat by (None: by the seat's secret, or
        #: a spectator), when it was last seen live, and how to stop watching it
        self.session: SignedIn | None = None
        self._session_seen = 0.0
        self._forget: Callable[[], None] | None = None
        #: whether the server closed it (:meth:`end`): a frame still read is not answered
        self.ended = False
        #: what the features add to the socket (the chat): their frames and hooks
        self.sockets: SocketRegistry = getattr(self._site(), "sockets", None) or SocketRegistry()

    def _site(self) -> Site | None:
        """The site of the socket's app (None for a stand-in socket without an app)."""
        site: Site | None = getattr(getattr(getattr(self.ws, "app", None), "state", None),
                                    "site", None)
        return site

    async def send(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame: a dict, or JSON text already (a view frame; a model's dump)."""
        if self._closing is not None or self._writer.done():
            raise ConnectionError("the connection is closed")
        if self._outbox.qsize() >= MAX_OUTBOX:
            self._writer.cancel()  # its socket is stuck: what is queued is dropped
            self._closing = asyncio.create_task(self._close_behind())
            raise ConnectionError("the client is too far behind")
        self._outbox.put_nowait(frame if isinstance(frame, str) else json.dumps(frame))

    async def _write(self) -> None:
        while True:
            text = await self._outbox.get()
            try:
                await self.ws.send_text(text)
            except Exception:  # the client went away: the reader sees it too
                return

    async def _close_behind(self) -> None:
        """Close a connection that fell :data:`MAX_OUTBOX` frames behind (1013: come back);
        it reconnects and gets a whole view."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=1013, reason="too far behind: connect "
                                                 "again"), 10)

    async def finish(self) -> None:
        """Stop the writer (the socket is gone or closing)."""
        self._by_session(None)
        for closed in self.sockets.closes:
            closed(self)
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer

    async def error(self, reason: str) -> None:
        await self.send(ErrorFrame(reason=reason).dump())

    async def serve(self) -> None:
        """Answer frames until the client goes."""
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            over = None if self.quotas is None else self.quotas.frame(self.number, self.who)
            if over is not None:
                if not await self.throttled(message, *over):
                    return
                continue
            frame = await self.read(message)
            if frame is None:
                continue
            try:
                await self.answer(frame)
            except WebSocketDisconnect:
                raise
            except Exception:  # a defect: logged, answered, and the connection kept
                log.exception("unexpected error on a %s frame at table %s", frame.type,
                              self.table_id)
                await self.error("the server failed on this frame (a defect: it is logged); "
                                 "nothing was changed by it")

    async def throttled(self, message: Mapping[str, Any], wait: float, rate: str) -> bool:
        """Answer a frame over its rate without acting on it: a move or undo is refused with
        ``retry`` (its client sends it again, with the same id), anything else gets an
        ``error`` with ``retry``. A connection far over its rate is closed with 1008 (False:
        the connection is done)."""
        assert self.quotas is not None
        if self.quotas.far_over(self.number):
            log.warning("table %s: a connection from %s closed: far over its frame rate",
                        self.table_id, self.who)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1008, reason="too many frames: far over the rate, "
                                                      "after being told to wait")
            return False
        reason = self.quotas.frame_refusal(wait, rate)
        frame = None
        with contextlib.suppress(BadInput, ValidationError):
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if len(raw) <= MAX_FRAME:
                data = loads_strict(raw, "the frame")
                frame = CLIENT_FRAMES.validate_python(data) if isinstance(data, dict) else None
        try:
            if isinstance(frame, Move | Undo):
                await self.send(RefusedFrame(id=frame.id, reason=reason, version=frame.version,
                                             retry=True).dump())
            elif isinstance(frame, Chat):
                await self.send(ErrorFrame(reason=reason, retry=True, chat=True).dump())
            else:
                await self.send(ErrorFrame(reason=reason, retry=True).dump())
        except ConnectionError:  # it does not read its answers either: it is being closed
            return False
        return True

    async def read(self, message: Mapping[str, Any]) -> ClientFrame | None:
        """The frame a WebSocket message holds, strictly parsed and validated; None after
        telling the client what was wrong with it."""
        raw: str | bytes | None = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if len(raw) > MAX_FRAME:
            await self.error(f"frame too large ({len(raw)} bytes; at most {MAX_FRAME})")
            return None
        try:
            data = loads_strict(raw, "the frame")
        except BadInput as exc:
            await self.error(str(exc))
            return None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            await self.error('a frame is a JSON object with a "type"')
            return None
        try:
            return CLIENT_FRAMES.validate_python(data)
        except ValidationError as exc:
            if data["type"] == "chat":
                await self.send(ErrorFrame(reason=frame_problem(exc, "chat"), chat=True).dump())
            else:
                await self.error(frame_problem(exc, data["type"]))
            return None

    async def answer(self, frame: ClientFrame) -> None:
        """Answer one valid frame: one call into the service per frame type."""
        if self.ended:  # closed by the server (its seat changed hands): nothing more
            return
        if isinstance(frame, Ping):
            await self.send(Pong().dump())
        elif isinstance(frame, Hello):
            self.client = await self._unless_unavailable(self.hello(frame), self.client)
        elif self.client is None:
            await self.error(SAY_HELLO)
        elif self.session is not None and not await self._session_lives():
            return
        elif isinstance(frame, Move | Undo):
            await self.move(self.client, frame)
        elif isinstance(frame, Preview):
            await self.preview(self.client, frame)
        elif isinstance(frame, Back):
            await self.back(self.client)
        else:
            await self.featured(self.client, frame)

    async def featured(self, client: Client, frame: ClientFrame) -> None:
        """A frame a feature answers (:mod:`meeple.server.table.sockets`): to its handler, or
        an ``error`` saying the server has none (about a chat message: ``chat: true``)."""
        handler = self.sockets.frames.get(frame.type)
        if handler is None:
            await self.send(ErrorFrame(reason=f"this server has no {frame.type}",
                                       chat=True if isinstance(frame, Chat) else None).dump())
            return
        await handler(self, client, frame)

    async def hello(self, frame: Hello) -> Client | None:
        """The connection's client after a hello: a new one, or the old one (None if none)
        after an error frame saying why not."""
        rt, seat = self.rt, frame.seat
        if seat is not None:
            if seat >= rt.table.players:
                await self.error(f"seat must be a number 0..{rt.table.players - 1}")
                return self.client
            proof = await seat_proof(self.ws, rt.table.id, seat, frame.secret)
            if proof is None:
                await self.error(f"that is not the secret of seat {seat}" if frame.secret
                                 else f"seat {seat} needs its secret, or a signed-in session "
                                      f"whose account holds it")
                return self.client
            signed = None if isinstance(proof, bool) else proof
            self._by_session(signed)
            holder = (("session", signed.session_id) if signed is not None
                      else ("secret", hash_secret(frame.secret or "")))
        else:
            self._by_session(None)
            holder = None
        if self.client is not None:
            rt.clients.discard(self.client)
        client = Client(viewer=seat, send=self.send, text=frame.text is True,
                        updates=frame.updates is True, presence=frame.presence is True,
                        clock=frame.clock is True, merged_ack=frame.merged_ack is True,
                        preview_updates=frame.preview_updates is True,
                        opening=frame.opening is True, holder=holder, end=self.end)
        await self.svc.authority.refresh(rt)
        # welcome, the whole view, and only then a client of the table: nothing in between
        # waits (a send only queues), so no broadcast can come before the welcome or slip
        # between the view and the updates that start from it
        await self.send(Welcome(table=rt.table.id, seat=seat).dump())
        await self.send(self.svc.broadcaster.frame_for(rt, client))
        rt.clients.add(client)
        await self.svc.open_turn(rt, client)
        # after its view: who is at the table (to it, and to the others if that changed)
        await self.svc.broadcaster.tell_presence(rt, client)
        if seat is not None and rt.table.seats[seat].absent and rt.state.to_move == seat:
            # back at a seat its stand-in played for: a whole clock for the next decision
            rt.since = time.monotonic()
            await self.svc.broadcaster.tell_clock(rt)
        else:
            await self.svc.broadcaster.tell_clock(rt, client)
        # then what the features add after a hello (the chat's history, if asked for)
        for hook in self.sockets.hellos:
            await hook(self, frame, seat)
        return client

    def _by_session(self, signed: SignedIn | None) -> None:
        """Act by ``signed``'s session from now on (None: not by a session): while it
        does, a revocation of the session in this process closes the socket."""
        if self._forget is not None:
            self._forget()
            self._forget = None
        self.session = signed
        self._session_seen = time.monotonic()
        site = self._site()
        identity = None if site is None else site.identity
        if signed is not None and identity is not None:
            self._forget = identity.watch(signed.account_id, signed.session_id,
                                          self.signed_out)

    async def signed_out(self, reason: str) -> None:
        """Close the socket: the session it acted for its seat by was revoked (4401); the
        page connects again as a spectator, or with the seat's secret."""
        self._by_session(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=4401, reason=reason[:120]), 10)

    async def end(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason`` (its seat is no longer its own:
        :meth:`Service.end_lost_seats <meeple.server.table.service.Service.end_lost_seats>`); the
        page opens the table again, as a spectator or by the account's session."""
        self._by_session(None)
        self.ended = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=code, reason=reason[:120]), 10)

    async def _session_lives(self) -> bool:
        """Whether the session this socket acts by is still live and holds the seat
        (looked up at most every :data:`SOCKET_RECHECK` seconds: a revocation in another
        server process is seen at the next frame after that); if not, the socket is
        closed (False)."""
        signed, client = self.session, self.client
        assert signed is not None and client is not None and client.viewer is not None
        if time.monotonic() - self._session_seen < SOCKET_RECHECK:
            return True
        identity = site_of(self.ws).identity
        if identity is not None and await asyncio.to_thread(
                identity.seat_held, signed.session_id, self.table_id, client.viewer) is True:
            self._session_seen = time.monotonic()
            return True
        await self.signed_out("signed out, or the seat is no longer this account's: sign "
                              "in again to play it")
        return False

    async def move(self, client: Client, frame: Move | Undo) -> None:
        """A move (or undo) of the client's seat: acked once stored, else refused."""
        move_id, version = frame.id, frame.version
        if client.viewer is None:
            await self.send(RefusedFrame(id=move_id, reason="spectators cannot move",
                                         version=version).dump())
            return
        try:
            if isinstance(frame, Undo):
                played = await self.svc.undo(self.table_id, client.viewer, version, move_id)
            else:
                played = await self.svc.play(self.table_id, client.viewer, frame.steps,
                                             version, move_id, draft=client.draft,
                                             mover=client)
        except AlreadyPlayed as exc:
            # the same id again (the connection dropped before the ack): played once, acked again
            await self.send(Ack(id=move_id, version=exc.version, resent=True).dump())
            return
        except Refused as exc:
            await self.send(RefusedFrame(id=move_id, reason=exc.reason,
                                         version=exc.version).dump())
            return
        except StoreUnavailable as exc:  # not acked: send it again, with the same id
            await self.send(RefusedFrame(id=move_id, version=version, reason=str(exc),
                                         retry=True).dump())
            return
        if not played.acked:  # else acknowledged in the view or update frame of the change
            await self.send(Ack(id=move_id, version=played.version).dump())

    async def preview(self, client: Client, frame: Preview) -> None:
        """The position after the frame's decisions of this seat's turn, playing nothing."""
        if client.viewer is None:
            await self.send(RefusedFrame(reason="spectators cannot move").dump())
            return
        try:
            answer = await self.svc.preview(self.table_id, client.viewer, frame.steps,
                                            client.text, draft=client.draft)
        except Refused as exc:
            await self.send(RefusedFrame(preview=True, reason=exc.reason,
                                         version=exc.version).dump())
            return
        await self.send(self.svc.broadcaster.preview_frame(self.rt, client, answer))

    async def back(self, client: Client) -> None:
        """The client's seat taken back from its stand-in bot."""
        if client.viewer is None:
            await self.error("a spectator has no seat to take back")
            return
        try:
            await self._unless_unavailable(
                self.svc.set_absent(self.table_id, client.viewer, False), None)
        except Refused as exc:  # a conceded seat
            await self.error(exc.reason)

    async def _unless_unavailable(self, step: Awaitable[T], otherwise: T) -> T:
        """``step``'s result; if the store is unavailable, an ``error`` frame saying so is
        sent instead and ``otherwise`` returned (the connection stays open)."""
        try:
            return await step
        except StoreUnavailable as exc:
            await self.send(ErrorFrame(reason=str(exc), retry=True).dump())
            return otherwise
