"""The broadcaster: what each client of a table is told, made once for every client alike.

After every change the authority commits, each connected client is sent the position as it
may see it: a whole ``view`` frame, or (a client that asked for updates) what changed since
the view it was sent last. Each view is made once per version and kind of viewer (a seat, or
the spectators; with or without the terminal text) and written as JSON text once
(:class:`Shown`); an update from a given version is made once for every client a move behind.
It also sends the turn clock's and the table's presence frames. Sending only queues a frame on
the client's connection, so no move waits for another client's socket.

It reads a :class:`~meeple.server.table.runtime.Runtime` and writes only its ``shown`` and
``presence_sent``; it changes no position. The ack of a committed move that its mover takes
inside the frame of the new version comes as an argument (:class:`MergedAck`), not as a
field of the client.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from typing import Any, cast

from meeple.core.delta import diff
from meeple.core.state import State
from meeple.core.turn import Turn
from meeple.core.view import view_data
from meeple.server.table.authority import PreviewAnswer
from meeple.server.table.runtime import Client, Runtime, json_text
from meeple.store import HUMAN
from meeple.store.models import TURN_BASED


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
    data: dict[str, Any]
    forced: list[str]
    updates: dict[int, tuple[dict[str, Any], str]] = field(default_factory=dict)

    @functools.cached_property
    def whole(self) -> str:
        """The whole ``view`` frame as JSON text (made only when a client needs one)."""
        extra = f',"forced":{json_text(self.forced)}' if self.forced else ""
        return (f'{{"type":"view","version":{self.version}{extra},'
                f'"view":{json_text(self.data)}}}')


@dataclass(frozen=True)
class MergedAck:
    """The ack of a committed move, for its mover to take inside the next view or update
    frame it is sent (a connection that said hello ``merged_ack``): the connection, and the
    move's id (None if it had none)."""

    client: Client
    id: str | None


def opening_forced(rt: Runtime, view: dict[str, Any]) -> list[str]:
    """The decisions that open the turn of the seat to move in ``rt`` when each has only one
    legal move (the server's :meth:`Turn.play_forced <meeple.core.turn.Turn.play_forced>`),
    for that seat's own ``view`` (as JSON data) only; empty for anyone else or when the first
    decision is a choice. The page is sent them as the first preview of its turn."""
    viewer = view["viewer"]
    if viewer is None or viewer != view["to_move"] or len(view["legal_moves"]) != 1:
        return []
    if rt.opening is None or rt.opening[0] != rt.version:
        turn = Turn(rt.state)
        rt.opening = (rt.version, [s.text for s in turn.play_forced()])
    return rt.opening[1]


class Broadcaster:
    """Tells every client of a table what it may see of the position now."""

    # ------------------------------------------------------------------ views
    def shown(self, rt: Runtime, viewer: int | None, text: bool = False) -> Shown:
        """The view of ``viewer`` of the position now, made once for every client of that
        kind (and made again only when the position, its names or its log changed). The
        views of every kind of viewer connected that are not made yet are made with it, at
        once (:func:`meeple.core.view.view_data`: what they all see is made once)."""
        state = rt.state
        if rt.shown_version != rt.version:
            rt.shown.clear()
            rt.diffed.clear()
            rt.shown_version = rt.version
        key = (viewer, text)
        got = rt.shown.get(key)
        if got is not None and self._current(rt, got):
            return got
        wanted = {viewer} | {c.viewer for c in rt.clients if c.text == text}
        viewers = [v for v in wanted if v == viewer or not self._made(rt, (v, text))]
        made = view_data(state, viewers, rt.lines, text=text)
        for v, data in made.items():
            rt.shown[(v, text)] = Shown(state, state.seats, len(rt.lines), rt.version, data,
                                        opening_forced(rt, data))
        return rt.shown[key]

    @staticmethod
    def _current(rt: Runtime, shown: Shown) -> bool:
        """Whether ``shown`` was made for the position now (its names and its log too)."""
        state = rt.state
        return (shown.state is state and shown.seats is state.seats
                and shown.lines == len(rt.lines))

    def _made(self, rt: Runtime, key: tuple[int | None, bool]) -> bool:
        got = rt.shown.get(key)
        return got is not None and self._current(rt, got)

    def view_frame(self, rt: Runtime, viewer: int | None, text: bool = False
                   ) -> dict[str, Any]:
        """The ``view`` frame for ``viewer``: the view, and for the seat to move the forced
        decisions that open its turn (``forced``, see :func:`opening_forced`), if any."""
        return cast("dict[str, Any]", json.loads(self.shown(rt, viewer, text).whole))

    def view_frame_json(self, rt: Runtime, viewer: int | None, text: bool = False) -> str:
        """The whole ``view`` frame of :meth:`view_frame`, as JSON text."""
        return self.shown(rt, viewer, text).whole

    def frame_for(self, rt: Runtime, client: Client, ack: MergedAck | None = None) -> str:
        """What ``client`` is sent for the position now: an ``update`` from the view it was
        sent last if it takes updates and has a view, else the whole ``view`` frame. Either
        is made once for all the clients that need the same one; ``ack``: the ack of the
        client's own move, committed, that goes in the same frame (``merged_ack``)."""
        frame = self._frame_for(rt, client)
        if ack is None:
            return frame
        return f'{{"ack":{json_text({"id": ack.id})},{frame[1:]}'

    def _frame_for(self, rt: Runtime, client: Client) -> str:
        shown = self.shown(rt, client.viewer, client.text)
        base, before = client.sent_version, client.sent_view
        client.sent_version, client.sent_view = rt.version, shown.data
        if not client.updates or before is None:
            return shown.whole
        made = shown.updates.get(base)
        if made is not None and made[0] is before:  # another client had the same view
            return made[1]
        extra = f',"forced":{json_text(shown.forced)}' if shown.forced else ""
        frame = (f'{{"type":"update","version":{rt.version},"base":{base}{extra},'
                 f'"patch":{json_text(diff(before, shown.data, shared=rt.diffed))}}}')
        shown.updates[base] = (before, frame)
        return frame

    def preview_frame(self, rt: Runtime, client: Client, answer: PreviewAnswer,
                      opening: bool = False) -> str:
        """The ``preview`` frame answering ``client``'s preview: the view after the steps
        whole, or, for a client that takes preview updates and holds the view of the version
        the preview was built on, what it changes in that view (``base``, ``patch``).
        ``opening``: the server previewed the forced opening of the turn unasked."""
        head: dict[str, Any] = {"type": "preview", "moves": answer.moves,
                                "complete": answer.complete, "forced": answer.forced}
        if opening:
            head["opening"] = True
            head["version"] = rt.version
        held = client.sent_view
        if client.preview_updates and held is not None and client.sent_version == rt.version:
            head["base"] = rt.version
            head["patch"] = diff(held, answer.data)
        else:
            head["view"] = answer.data
        return json_text(head)

    async def broadcast(self, rt: Runtime, ack: MergedAck | None = None) -> bool:
        """Send every connected client the position now: its own view, or what changed in it
        since its last (each made once per kind of viewer). Sending only queues the frame on
        the client's connection, so a move's ack never waits for the other clients' sockets.
        ``ack``: a mover's ack to send inside its frame; returns whether its frame was
        made (False: the mover is not a client of the table, and its ack is due still; a
        mover dropped as its frame is queued is owed nothing more)."""
        acked = False
        for client in list(rt.clients):
            mine = ack if ack is not None and ack.client is client else None
            acked = acked or mine is not None
            try:
                await client.send(self.frame_for(rt, client, mine))
            except Exception:  # a client that went away is dropped
                rt.clients.discard(client)
        await self.tell_clock(rt)
        return acked

    # ------------------------------------------------------------------ clock
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
        if rt.times is not None:  # turn-based: the move's allowance and the banks
            now = time.time()
            running = data["seat"]
            data["pace"] = TURN_BASED
            data["bank"] = rt.table.bank
            data["move_left"] = (None if running is None else round(
                rt.times.move_left(now, seats[running].back_at), 1))
            data["banks"] = [round(rt.times.bank_left(i, now, s.back_at), 1)
                             if s.kind == HUMAN else None for i, s in enumerate(seats)]
        played = [{"seat": seat, "moves": moves, "version": version}
                  for seat, (moves, version) in sorted(rt.ran_out.items())
                  if seat < len(seats) and seats[seat].absent]
        if played:
            data["ran_out"] = played
        return json_text(data)

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

    # ------------------------------------------------------------------ presence
    @staticmethod
    def presence_frame(rt: Runtime) -> str:
        """The ``presence`` frame of the table now: for each seat whether one of this
        process's connections acts for it, how many watch without a seat, which seats'
        people conceded and the table's rematch, once one is made."""
        seats = [False] * rt.table.players
        spectators = 0
        for c in rt.clients:
            if c.viewer is None:
                spectators += 1
            elif 0 <= c.viewer < len(seats):
                seats[c.viewer] = True
        return json_text({"type": "presence", "seats": seats, "spectators": spectators,
                          "conceded": [x.conceded for x in rt.table.seats],
                          "rematch": rt.table.rematch})

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
