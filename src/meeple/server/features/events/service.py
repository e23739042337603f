"""The account event stream: one NDJSON line for each thing a program playing for an account
must know (a challenge to or from it, one gone, a game it holds a seat at starting or
finishing), and a blank line after a few seconds of quiet.

Each open stream polls the store (:mod:`.store`, and the challenges' named read
:func:`~meeple.server.features.challenges.store.open_challenges`) every ``MEEPLE_EVENTS_POLL``
seconds and tells what changed since its last look. Built from stored state alone, it sees
what any server process of the same database did, and a stream opened again after a restart
starts from the account's state as it is. It holds no queue: what it has not yet sent is the
difference between two looks, bounded by the seats and challenges an account has.

A stream ends by itself when its token or session is no longer live (revoked, expired, the
account deleted), when the server begins to stop (the edge's :data:`~meeple.server.edge.STOP_HOOK`)
and when its client goes away."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

from meeple.server.features.accounts.sessions import AccountService
from meeple.server.features.challenges.store import challenge_json, open_challenges
from meeple.server.features.events.settings import EventSettings
from meeple.server.features.events.store import HeldSeat, seats_in_play, seats_now
from meeple.store.store import Store

#: The line sent after ``MEEPLE_EVENTS_KEEPALIVE`` seconds without an event.
KEEPALIVE = b"\n"


def line(event: dict[str, Any]) -> bytes:
    """One event as its NDJSON line."""
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


@dataclass
class Known:
    """What one stream has told its client so far: the seats in play and the open
    challenges."""

    seats: dict[tuple[str, int], HeldSeat] = field(default_factory=dict)
    challenges: set[str] = field(default_factory=set)


@dataclass
class EventStreams:
    """The event streams of one server process (the feature's service)."""

    store: Store
    settings: EventSettings
    accounts: AccountService
    #: open streams by account, for ``MEEPLE_EVENTS_PER_ACCOUNT``
    open: dict[str, int] = field(default_factory=dict)

    def admit(self, account_id: str) -> bool:
        """Count a new stream of ``account_id``; False (nothing counted) at the cap."""
        held = self.open.get(account_id, 0)
        if held >= self.settings.per_account:
            return False
        self.open[account_id] = held + 1
        return True

    def release(self, account_id: str) -> None:
        left = self.open.get(account_id, 0) - 1
        if left > 0:
            self.open[account_id] = left
        else:
            self.open.pop(account_id, None)

    def still_live(self, session_id: str) -> bool:
        """Whether the token (``token:<id>``) or session a stream was opened with still lives
        (neither revoked nor expired, its account not deleted). Reads the store."""
        if session_id.startswith("token:"):
            return self.accounts.tokens.live(session_id.removeprefix("token:")) is not None
        return self.accounts.accounts.session(session_id) is not None

    def changes(self, account_id: str, known: Known) -> list[bytes]:
        """The events since ``known`` (which it brings up to date): seats that came into play
        (``gameStart``), seats that left it (``gameFinish``, with how the table stands),
        challenges that opened (``challenge``) and closed (``challengeGone``). Reads the
        store."""
        out: list[bytes] = []
        now_seats = seats_in_play(self.store, account_id)
        for key, held in now_seats.items():
            if key not in known.seats:
                out.append(line({"type": "gameStart", "game": held.json()}))
        gone = [key for key in known.seats if key not in now_seats]
        if gone:
            after = seats_now(self.store, account_id, gone)
            for key in gone:
                held = after.get(key, known.seats[key])
                game = held.json()
                if key not in after:  # the seat was left, or its table is gone
                    game["status"] = "gone"
                out.append(line({"type": "gameFinish", "game": game}))
        known.seats = now_seats
        challenges = open_challenges(self.store, account_id)
        ids = {c.id for c in challenges}
        for c in challenges:
            if c.id not in known.challenges:
                out.append(line({"type": "challenge",
                                 "challenge": challenge_json(self.store, c)}))
        for gone_id in sorted(known.challenges - ids):
            out.append(line({"type": "challengeGone", "id": gone_id}))
        known.challenges = ids
        return out

    def look(self, account_id: str, session_id: str, known: Known) -> list[bytes] | None:
        """One poll: the events since ``known``, or None when the stream must end (its token
        or session no longer lives)."""
        if not self.still_live(session_id):
            return None
        return self.changes(account_id, known)

    async def stream(self, account_id: str, session_id: str, stop: asyncio.Event
                     ) -> AsyncGenerator[bytes, None]:
        """The lines of one stream (counted by :meth:`admit` before; its response gives the
        place back) until it must end or ``stop`` is set."""
        known = Known()
        poll, keepalive = self.settings.poll, self.settings.keepalive
        last = time.monotonic()
        while not stop.is_set():
            lines = await asyncio.to_thread(self.look, account_id, session_id, known)
            if lines is None:
                return
            now = time.monotonic()
            if lines:
                yield b"".join(lines)
                last = now
            elif now - last >= keepalive:
                yield KEEPALIVE
                last = now
            wait = min(poll, max(0.05, keepalive - (time.monotonic() - last)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)


__all__ = ["KEEPALIVE", "EventStreams", "Known", "line"]
