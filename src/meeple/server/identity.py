"""Who acts: the named interface between the accounts feature and every part that asks who
is signed in or who may act for a seat (the table core's routes and WebSocket, the features).

The table core owns none of accounts: it calls an :class:`Identity` (the site's ``identity``,
put there by the accounts feature's ``wire``; :class:`AccountService
<meeple.server.features.accounts.sessions.AccountService>` implements it) and reads a signed-in
request as a :class:`SignedIn` (its account's and its session's ids). What is a pure function
of a request, a seat and its secret is here: :func:`seat_proof`, :func:`may_act`. A site
without an identity (no accounts wired) has nobody signed in: a seat is played by its secret.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from starlette.requests import HTTPConnection

from meeple.server.site import site_of

#: How often (seconds) a WebSocket acting for a seat by a session looks again whether the
#: session lives (a revocation in another server process is seen then).
SOCKET_RECHECK = 10.0

#: Closes a WebSocket with the reason given (code 4401).
SocketCloser = Callable[[str], Awaitable[None]]


class SignedIn(Protocol):
    """A request's live session, as the table core reads it: whose, and which."""

    @property
    def account_id(self) -> str: ...

    @property
    def session_id(self) -> str: ...


class Identity(Protocol):
    """What the table core asks of the accounts feature (the site's ``identity``)."""

    async def signed(self, conn: HTTPConnection) -> SignedIn | None:
        """The request's live session (from its cookie), or None."""

    async def holds(self, conn: HTTPConnection, table_id: str, seat: int) -> bool:
        """Whether the request's session (if any) is of an account that holds the seat."""

    def seat_held(self, session_id: str, table_id: str, seat: int) -> bool | None:
        """Whether session ``session_id``'s account holds the seat; None when the session
        is no longer live (revoked or expired). Reads the store: call it in a thread."""

    def watch(self, account_id: str, session_id: str, close: SocketCloser
              ) -> Callable[[], None]:
        """Keep a WebSocket that acts for a seat by session ``session_id``, to be closed
        (``close``) when the session is revoked in this process; the function returned
        forgets it."""


def identity_of(conn: HTTPConnection) -> Identity | None:
    """The identity of the app a request or WebSocket came to (None: no accounts)."""
    return site_of(conn).identity


async def signed_in(conn: HTTPConnection) -> SignedIn | None:
    """The request's live session, or None (not signed in, or no accounts)."""
    identity = identity_of(conn)
    return None if identity is None else await identity.signed(conn)


async def may_act(conn: HTTPConnection, table_id: str, seat: int, secret: str | None) -> bool:
    """Whether a request may act for ``seat``: it shows the seat's secret, or its session's
    account holds the seat."""
    return (await seat_proof(conn, table_id, seat, secret)) is not None


async def seat_proof(conn: HTTPConnection, table_id: str, seat: int, secret: str | None
                     ) -> SignedIn | bool | None:
    """What lets a request act for ``seat``: True for the seat's secret, the session
    (:class:`SignedIn`) whose account holds the seat, or None: nothing does."""
    site = site_of(conn)
    if secret is not None and await asyncio.to_thread(site.store.check_secret, table_id, seat,
                                                      secret):
        return True
    identity = site.identity
    if identity is None or not await identity.holds(conn, table_id, seat):
        return None
    return await identity.signed(conn)


__all__ = ["SOCKET_RECHECK", "Identity", "SignedIn", "SocketCloser", "identity_of", "may_act",
           "seat_proof", "signed_in"]
