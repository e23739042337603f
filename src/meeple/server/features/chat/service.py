"""A table's chat on the server: who may post, what a message may be, how often, and
who is told.

A seat's client posts under the seat's name; a signed-in spectator under the account's display
name, marked as a spectator; an anonymous spectator only reads. A message is NFKC-normalised,
its newlines and runs of spaces made one space, then 1 to :data:`MAX_TEXT` characters of
printable text (:func:`checked_message`); each author (an account, else a seat) posts within
``MEEPLE_RATE_CHAT``, each address (all its authors) within ``MEEPLE_RATE_CHAT_CLIENT`` and
each table (all its authors) within ``MEEPLE_RATE_CHAT_TABLE`` (:meth:`ChatHub.chat_allowed`).
A table with no human seat has no chat. A refused message is an ``error`` frame with
``chat: true`` naming the rule, and nothing is kept.

One :class:`ChatHub` per server process keeps, for each table, the connections that asked for
the chat (hello ``chat: true``) and the messages they were sent last; a message posted here is
sent to them at once, one posted through another process of the same PostgreSQL database
comes as a notice (:data:`~meeple.server.features.chat.store.CHAT_NOTICE`, through
:class:`~meeple.server.table.fanout.PgListener`, which hands it to :meth:`ChatHub.remote` as
registered by the feature's ``wire``) and is read from the store. Reports are kept for the
moderators (``meeple reports``), within ``MEEPLE_RATE_REPORT`` a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

from limits import RateLimitItem
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.requests import HTTPConnection

from meeple.sections import rate
from meeple.server.features.accounts.sessions import COOKIE, AccountService
from meeple.server.features.accounts.store import Account, session_id
from meeple.server.features.chat.settings import ChatSettings
from meeple.server.features.chat.store import (
    CHAT_NOTICE,
    HIDDEN_NOTICE,
    RECENT,
    Chat,
    ChatMessage,
    author_key,
)
from meeple.server.quotas import Throttled, client_of
from meeple.server.site import site_of
from meeple.server.table.checks import INVISIBLE, MAX_MARKS, BadInput
from meeple.server.table.protocol import Chat as ChatPost
from meeple.server.table.protocol import ChatFrame, ChatLine, ClientFrame, ErrorFrame, Hello
from meeple.server.table.runtime import Client
from meeple.server.table.sockets import Socket
from meeple.store import HUMAN, StoreUnavailable, Table

log = logging.getLogger("meeple.server")

#: The longest message, in characters (after normalising and trimming).
MAX_TEXT = 500
#: The longest reason of a report.
MAX_REASON = 300
#: The rule a message keeps, said in every refusal of one.
TEXT_RULE = (f"a chat message is 1 to {MAX_TEXT} characters of printable text on one line "
             "(newlines become spaces)")
#: Why a table of bots only has no chat.
BOTS_ONLY = "no chat at a table of bots only: nobody is there to read it"
#: What an anonymous spectator is told when it would post.
SIGN_IN = "sign in to chat as a spectator (spectators who are not signed in can read only)"
#: Invisible characters a message may hold: the zero-width joiner and non-joiner (emoji
#: sequences, Persian and the Indic scripts need them). Every other formatting character
#: (bidi controls, zero-width spaces) is refused.
JOINERS = frozenset("\u200c\u200d")
#: Messages of a table kept in memory to tell which were sent (per table with listeners).
KEPT = 2 * RECENT

#: Whose messages each chat rate counts, for the refusal's sentence.
CHAT_RATES = {"chat": "by you", "chat_client": "from your address",
              "chat_table": "at this table"}


def _code(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def checked_message(value: str, what: str = "a chat message", max_length: int = MAX_TEXT,
                    rule: str = TEXT_RULE) -> str:
    """A message as it is kept: NFKC-normalised, every newline, tab and other space made a
    space, runs of spaces made one and the ends trimmed; or :class:`BadInput` naming what
    was wrong and ``rule``. Refused: nothing left, over ``max_length`` characters, control
    characters (NUL, escape, ...), invisible and formatting characters (bidi controls such as
    U+202E, zero-width spaces; the joiners U+200C and U+200D are kept for emoji and scripts
    that need them), private-use and unassigned code points, lone surrogates and more than
    :data:`~meeple.server.table.checks.MAX_MARKS` combining marks on one letter."""
    if len(value) > 4 * max_length:  # (bounds the work below; the exact count comes after)
        raise BadInput(f"{what} has {len(value)} characters; {rule}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} holds a lone surrogate; {rule}") from None
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFKC", value):
        cat = unicodedata.category(ch)
        if ch in "\n\r\t\v\f\x85" or cat in ("Zs", "Zl", "Zp"):
            out.append(" ")
            marks = 0
            continue
        if cat == "Cc":
            raise BadInput(f"{what} holds a control character ({_code(ch)}); {rule}")
        if (cat == "Cf" and ch not in JOINERS) or ch in INVISIBLE:
            raise BadInput(f"{what} holds an invisible or formatting character ({_code(ch)}: "
                           f"bidi controls and zero-width spaces are not allowed); {rule}")
        if cat in ("Co", "Cn", "Cs"):
            raise BadInput(f"{what} holds a private-use or unassigned code point "
                           f"(U+{ord(ch):04X}); {rule}")
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                raise BadInput(f"{what} stacks more than {MAX_MARKS} combining marks on one "
                               f"letter; {rule}")
        else:
            marks = 0
        out.append(ch)
    text = " ".join(part for part in "".join(out).split(" ") if part)
    if not text:
        raise BadInput(f"{what} is empty; {rule}")
    if len(text) > max_length:
        raise BadInput(f"{what} has {len(text)} characters; {rule}")
    return text


def checked_reason(value: str) -> str:
    """A report's reason as it is kept (as a message is, at most :data:`MAX_REASON`)."""
    return checked_message(value, "the reason", MAX_REASON,
                           f"a reason is 1 to {MAX_REASON} characters of printable text")


def has_people(table: Table) -> bool:
    """Whether the table has a human seat (else it has no chat)."""
    return any(seat.kind == HUMAN for seat in table.seats)


def line(message: ChatMessage) -> ChatLine:
    """A message as clients are sent it."""
    return ChatLine(id=message.id, at=message.at.isoformat(), seat=message.seat,
                    name=message.name, spectator=message.seat is None, author=message.author,
                    text=message.text)


class Listener(Protocol):
    """A connection that gets the chat: its frames are queued by ``send``."""

    async def send(self, frame: dict[str, Any] | str) -> None: ...


@dataclass
class _Room:
    """A table's chat in this process: who listens, and the messages they were sent last."""

    listeners: set[Listener] = field(default_factory=set)
    #: the messages known to be sent (or in the history the listeners got), by id
    known: dict[int, ChatMessage] = field(default_factory=dict)

    def remember(self, messages: list[ChatMessage]) -> None:
        for m in messages:
            self.known[m.id] = m
        if len(self.known) > KEPT:
            for key in sorted(self.known)[:len(self.known) - KEPT]:
                del self.known[key]


async def _send_all(listeners: list[Listener], text: str) -> None:
    """Queue a frame to each listener; one closed (or too far behind) is skipped: it leaves
    when its connection ends."""
    for who in listeners:
        with contextlib.suppress(ConnectionError):
            await who.send(text)


class ChatHub:
    """The chat of this server process's tables (the site's ``chat``)."""

    def __init__(self, chat: Chat, settings: ChatSettings | None = None,
                 accounts: AccountService | None = None) -> None:
        self.chat = chat
        self.settings = settings or ChatSettings()
        self.accounts = accounts
        self._limiter = FixedWindowRateLimiter(MemoryStorage())
        self._rates: dict[str, list[RateLimitItem]] = {
            name: rate(getattr(self.settings, name)) for name in ChatSettings.model_fields}
        self._rooms: dict[str, _Room] = {}

    # ------------------------------------------------------------------ who is told
    async def join(self, table: Table, who: Listener, seat: int | None,
                   conn: HTTPConnection) -> bool:
        """A connection asked for the chat: its history frame (the last messages, whether it
        may post), then every new message. False (nothing sent but an error) when the store
        could not be read."""
        if not has_people(table):
            await who.send(ChatFrame(messages=[], history=True, post=False,
                                     reason=BOTS_ONLY).dump())
            return True
        try:
            recent = await asyncio.to_thread(self.chat.recent, table.id)
            you, why = await self._author(table, seat, conn)
        except StoreUnavailable as exc:
            await who.send(ErrorFrame(reason=f"the chat cannot be read now: {exc}", retry=True,
                                      chat=True).dump())
            return False
        room = self._rooms.setdefault(table.id, _Room())
        room.listeners.add(who)
        # (nothing awaits from here to the send: a message told meanwhile is in ``known``)
        newest = recent[-1].id if recent else 0
        later = [m for i, m in sorted(room.known.items()) if i > newest]
        room.remember(recent)
        shown = (recent + later)[-RECENT:]
        extra: dict[str, Any] = {} if why is None else {"reason": why}
        await who.send(ChatFrame(
            messages=[line(m) for m in shown], history=True, post=why is None,
            you=None if you is None else author_key(table.id, you[2], you[0]), **extra).dump())
        return True

    def leave(self, table_id: str, who: Listener) -> None:
        """The connection no longer gets the chat (it closed, or said hello without it)."""
        room = self._rooms.get(table_id)
        if room is not None:
            room.listeners.discard(who)
            if not room.listeners:
                del self._rooms[table_id]

    async def _tell(self, table_id: str, messages: list[ChatMessage],
                    poster: Listener | None = None) -> None:
        """Send new messages to the table's listeners (the poster's copy says ``posted``)."""
        room = self._rooms.get(table_id)
        listeners = list(room.listeners) if room is not None else []
        if room is not None:
            room.remember(messages)
        lines = [line(m) for m in messages]
        await _send_all([w for w in listeners if w is not poster],
                        ChatFrame(messages=lines).dump())
        if poster is not None:
            with contextlib.suppress(ConnectionError):  # (it went away meanwhile)
                await poster.send(ChatFrame(messages=lines, posted=True).dump())

    async def remote(self, table_id: str, code: int) -> None:
        """A notice from another server process: a new message at the table
        (:data:`CHAT_NOTICE`), read from the store and sent to its listeners here; or a
        message hidden (:data:`HIDDEN_NOTICE`), named to them."""
        room = self._rooms.get(table_id)
        if room is None:
            return
        try:
            if code == CHAT_NOTICE:
                recent = await asyncio.to_thread(self.chat.recent, table_id, 20)
                fresh = [m for m in recent if m.id not in room.known]
                if fresh:
                    await self._tell(table_id, fresh)
            elif code == HIDDEN_NOTICE:
                await self.hidden(table_id)
        except StoreUnavailable:
            log.warning("table %s: the chat notice could not be read (store unavailable)",
                        table_id)

    async def hidden(self, table_id: str) -> None:
        """Tell the table's listeners which of its messages are hidden."""
        room = self._rooms.get(table_id)
        if room is None:
            return
        ids = await asyncio.to_thread(self.chat.hidden_ids, table_id)
        for i in ids:
            room.known.pop(i, None)
        await _send_all(list(room.listeners), ChatFrame(messages=[], hidden=ids).dump())

    # ------------------------------------------------------------------ on the table's socket
    async def on_hello(self, socket: Socket, frame: Hello, seat: int | None) -> None:
        """After a hello: the table's chat for a connection that asked for it (its history
        frame, then every message), none for one that did not."""
        self.leave(socket.table_id, socket)
        if frame.chat is True:
            await self.join(socket.rt.table, socket, seat, socket.ws)

    async def on_frame(self, socket: Socket, client: Client, frame: ClientFrame) -> None:
        """A ``chat`` frame: a message from the connection's seat, or its signed-in
        spectator."""
        assert isinstance(frame, ChatPost)
        await self.post(socket.rt.table, client.viewer, socket.ws, frame.text, socket)

    def on_close(self, socket: Socket) -> None:
        """The connection ended: it gets the chat no more."""
        self.leave(socket.table_id, socket)

    # ------------------------------------------------------------------ posting
    async def _author(self, table: Table, seat: int | None, conn: HTTPConnection
                      ) -> tuple[tuple[str | None, str, int | None] | None, str | None]:
        """Who posts from this connection: (the account if any, the name, the seat), or None
        and why it may not post. A seat left since the hello (open again) posts no more as
        that seat: its connection is a spectator's for the chat."""
        if seat is not None and table.seats[seat].taken:
            account = await asyncio.to_thread(self.chat.holder, table.id, seat)
            return (account, table.seats[seat].name, seat), None
        signed = await self.signed_in(conn)
        if signed is None:
            return None, SIGN_IN
        return (signed.id, signed.display_name, None), None

    async def signed_in(self, conn: HTTPConnection) -> Account | None:
        """The account of the connection's session cookie, looked up now (a session signed
        out since the connection opened no longer counts)."""
        token = conn.cookies.get(COOKIE)
        if self.accounts is None or not token or len(token) > 100 or not token.isascii():
            return None
        got = await asyncio.to_thread(self.accounts.accounts.session, session_id(token))
        return None if got is None else got[1]

    async def post(self, table: Table, seat: int | None, conn: HTTPConnection, text: str,
                   poster: Listener) -> None:
        """Post a message from a connection (a seat's, or a spectator's): kept, then sent to
        the table's listeners and back to the poster (``posted``); or refused with an
        ``error`` frame (``chat: true``) naming the rule, and nothing kept."""
        try:
            await self._post(table, seat, conn, text, poster)
        except StoreUnavailable as exc:
            await poster.send(ErrorFrame(reason=str(exc), retry=True, chat=True).dump())

    async def _post(self, table: Table, seat: int | None, conn: HTTPConnection, text: str,
                    poster: Listener) -> None:
        async def refuse(reason: str, retry: bool = False) -> None:
            extra: dict[str, Any] = {"retry": True} if retry else {}
            await poster.send(ErrorFrame(reason=reason, chat=True, **extra).dump())

        if not has_people(table):
            await refuse(BOTS_ONLY)
            return
        try:
            checked = checked_message(text)
        except BadInput as exc:
            await refuse(str(exc))
            return
        author, why = await self._author(table, seat, conn)
        if author is None:
            await refuse(why or SIGN_IN)
            return
        account, name, seat = author
        over = self.chat_allowed(account or f"{table.id}:{seat}", client_of(conn), table.id)
        if over is not None:
            rate_name, wait = over
            await refuse(f"too many chat messages {CHAT_RATES[rate_name]} (at most "
                         f"{getattr(self.settings, rate_name)}, "
                         f"{ChatSettings.variable(rate_name)}): this one "
                         f"was not posted; send it again in {max(1, math.ceil(wait))} s",
                         retry=True)
            return
        message = await asyncio.to_thread(self.chat.post, table.id, seat, account, name,
                                          checked)
        await self._tell(table.id, [message], poster)

    # ------------------------------------------------------------------ rates
    def chat_allowed(self, author: str, client: str, table_id: str) -> tuple[str, float] | None:
        """Count a message of ``author`` from ``client`` at table ``table_id`` under the
        author's, the address's and the table's rates, or (counting nothing) the first rate
        it would break and the seconds until it may go: a message refused by one rate uses
        up none of the others."""
        keys = (("chat", author), ("chat_client", client), ("chat_table", table_id))
        for name, key in keys:
            for item in self._rates[name]:
                if not self._limiter.test(item, name, key):
                    reset = self._limiter.get_window_stats(item, name, key).reset_time
                    return name, max(0.0, reset - time.time())
        for name, key in keys:
            for item in self._rates[name]:
                self._limiter.hit(item, name, key)
        return None

    def _wait(self, name: str, key: str) -> float | None:
        """Count one under rate ``name`` for ``key``: None within it, else the seconds until
        it may go again."""
        wait = None
        for item in self._rates[name]:
            if not self._limiter.hit(item, name, key):
                reset = self._limiter.get_window_stats(item, name, key).reset_time
                wait = max(wait or 0.0, reset - time.time())
        return wait

    def report_allowed(self, client: str) -> None:
        """Count a report of ``client``; :class:`Throttled` (429) over its rate."""
        wait = self._wait("report", client)
        if wait is not None:
            var = ChatSettings.variable("report")
            raise Throttled(429, f"too many reports from your address (at most "
                                 f"{self.settings.report}, {var}); try again in "
                                 f"{max(1, math.ceil(wait))} s", var, wait)


def get_chat(conn: HTTPConnection) -> ChatHub:
    """The app's :class:`ChatHub`."""
    return site_of(conn).chat


__all__ = ["BOTS_ONLY", "MAX_REASON", "MAX_TEXT", "SIGN_IN", "TEXT_RULE", "ChatHub",
           "ChatSettings", "checked_message", "checked_reason", "get_chat", "has_people",
           "line"]
