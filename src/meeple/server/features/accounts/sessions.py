"""Accounts on the server: passwords, sessions, their cookie and CSRF protection.

Accounts are optional: a seat is played by its secret with or without one. A signed-in browser
holds a **session**: a random 256-bit token in the cookie :data:`COOKIE` (HttpOnly,
SameSite=Lax, Path=/, Secure when the request came over https, a trusted proxy's
``X-Forwarded-Proto`` included), of which the store keeps only the SHA-256. A session expires
:attr:`AccountSettings.session_days` after it was last seen (sliding; ``MEEPLE_SESSION_DAYS``).

Every state change (POST, PUT, PATCH, DELETE under ``/api/``) that comes with a live session's
cookie must carry the session's CSRF token in ``X-CSRF-Token`` (double submit: ``GET /api/me``
and sign-in give it; it is an HMAC of the session id with the server's secret), or it is
refused with 403 by :class:`SessionGuard` before any route runs. A request without the cookie
(playing by link with a seat's secret) needs none: it carries no cookie authority. Sign-up and
sign-in need none (they make a new session) and neither does a sheet's check (it changes
nothing).

Passwords are hashed with argon2id (``pwdlib``), at most :data:`HASHERS` at a time, off the
event loop. A sign-in for an unknown username verifies against a dummy hash, so it answers
as late and as alike as a wrong password. Sign-ins are within rates per client and per
username (failures), sign-ups per client (:class:`AccountSettings`; 429 with Retry-After as
:mod:`meeple.server.quotas` answers).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import math
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, HTTPException
from limits import RateLimitItem
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.sections import rate
from meeple.server.features.accounts.passkey_store import Passkeys
from meeple.server.features.accounts.settings import AccountSettings
from meeple.server.features.accounts.store import Account, Accounts, SessionInfo, session_id
from meeple.server.features.accounts.token_store import USED_EVERY, ApiTokens, TokenInfo
from meeple.server.features.accounts.tokens import (
    TokenRefused,
    bearer_secret,
    bot_cookie_refusal,
    refuse_token,
    token_refusal,
)
from meeple.server.identity import SocketCloser
from meeple.server.quotas import Throttled
from meeple.server.site import site_of
from meeple.server.table.checks import BadInput, checked_name
from meeple.store import Store, StoreUnavailable
from meeple.store.models import now

log = logging.getLogger("meeple.server")

#: The session cookie's name.
COOKIE = "meeple_session"
#: The header a cookie-authenticated change carries its CSRF token in.
CSRF_HEADER = "x-csrf-token"
#: Password hashes made or checked at once (argon2id takes 64 MiB and ~0.15 s each); more
#: wait their turn.
HASHERS = 2
#: The username rule, said in every refusal of one.
USERNAME_RULE = ("a username is 3 to 30 letters, digits, '_', '-' and '.', beginning with a "
                 "letter or a digit (no spaces), unique whatever its case")
#: Password lengths (characters).
PASSWORD_MIN, PASSWORD_MAX = 10, 200
#: The characters of a session token (URL-safe base64 of 32 bytes: 43 of them).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
#: The methods that change something.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: State changes that need no CSRF token: they make a new session (sign-up, sign-in, with a
#: password or a passkey), or whose authority is a mail link's signature.
CSRF_EXEMPT = frozenset({("POST", "/api/accounts"), ("POST", "/api/session"),
                         ("POST", "/api/passkeys/signin/options"),
                         ("POST", "/api/passkeys/signin"),
                         ("POST", "/api/passkeys/signup/options"),
                         ("POST", "/api/passkeys/signup"),
                         # a mail's signed links: the signature is their authority
                         ("POST", "/api/mail/verify"), ("POST", "/api/mail/unsubscribe"),
                         ("POST", "/api/mail/one-click")})
#: The requests after which a signed-in client holds the seat it took: create with
#: ``join_as``, join.
_SEAT_TAKING = re.compile(r"/api/tables(/[A-Za-z0-9]{1,32}/(join|rematch))?")


# ------------------------------------------------------------------------------ input
def checked_username(value: str) -> tuple[str, str]:
    """A username as it is kept, and its key (case-folded: unique), or :class:`BadInput`
    naming what was wrong: NFKC-normalised and checked as every name is
    (:func:`~meeple.server.table.checks.checked_name`), then :data:`USERNAME_RULE`."""
    name = checked_name(value, "the username", 30)
    for ch in name:
        if ch not in "_-." and unicodedata.category(ch)[0] not in "LM" and \
                unicodedata.category(ch) != "Nd":
            shown = "a space" if ch == " " else f"U+{ord(ch):04X} {ch!r}"
            raise BadInput(f"the username holds {shown}; {USERNAME_RULE}")
    if not 3 <= len(name) <= 30:
        raise BadInput(f"the username has {len(name)} characters; {USERNAME_RULE}")
    if not (name[0].isalpha() or unicodedata.category(name[0]) == "Nd"):
        raise BadInput(f"the username begins with {name[0]!r}; {USERNAME_RULE}")
    return name, username_key(name)


def username_key(name: str) -> str:
    """What makes two usernames the same: NFKC, case-folded (``Ann``, ``ANN``, ``Ａｎｎ``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def checked_password(password: str, username: str | None = None) -> str:
    """A new password as it is hashed (NFKC-normalised, so the same characters typed on
    another keyboard still match), or :class:`BadInput`: 10 to 200 characters, no control
    characters, not the username."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadInput(f"the password has {len(password)} characters; a password is "
                       f"{PASSWORD_MIN} to {PASSWORD_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in password):
        raise BadInput("the password holds a control character (such as a newline or a tab); "
                       "a password is printable text")
    normal = unicodedata.normalize("NFKC", password)
    if username is not None and username_key(normal) == username_key(username):
        raise BadInput("the password is the username; choose a password nobody could guess "
                       "from your name")
    return normal


def bounded_agent(value: str | None) -> str | None:
    """A User-Agent as a session keeps it: printable, at most 200 characters."""
    if not value:
        return None
    text = "".join(ch for ch in value if ch.isprintable())[:200]
    return text or None


# ------------------------------------------------------------------------------ the service
@dataclass(frozen=True)
class Signed:
    """A request's live session and its account (a :class:`~meeple.server.identity.SignedIn`
    to the table core)."""

    session: SessionInfo
    account: Account
    #: the API token the request came with (None: a cookie session); its session's id is
    #: ``token:<the token's id>``
    token: TokenInfo | None = None

    @property
    def plays(self) -> bool:
        """Whether this may act for the account's seats: a token with the ``play`` scope, or
        a person's session (a bot account plays only with a token)."""
        if self.token is not None:
            return "play" in self.token.scopes
        return not self.account.bot

    @property
    def account_id(self) -> str:
        return self.account.id

    @property
    def session_id(self) -> str:
        return self.session.id

#: What :meth:`AccountService.signed` keeps on a request once it has looked (None: no session).
_STATE = "meeple_signed"


@dataclass
class AccountService:
    """Accounts, sessions and their limits for one server process (the site's ``accounts``,
    and its ``identity``: it implements :class:`~meeple.server.identity.Identity`)."""

    store: Store
    settings: AccountSettings = field(default_factory=AccountSettings)

    def __post_init__(self) -> None:
        self.accounts = Accounts(self.store)
        self.passkeys = Passkeys(self.store)
        self.tokens = ApiTokens(self.store)
        self._key: bytes | None = self.settings.secret_key.encode() or None
        self._hasher = PasswordHash((Argon2Hasher(),))
        self._dummy: str | None = None
        self._hashing: asyncio.Semaphore | None = None
        self._limiter = FixedWindowRateLimiter(MemoryStorage())
        self._rates: dict[str, list[RateLimitItem]] = {
            name: rate(getattr(self.settings, name)) for name in ("signin", "signin_user",
                                                                  "signup", "password",
                                                                  "ceremony", "token")}
        #: password hashes each client has waiting or running (:meth:`_hash_work`)
        self._hashing_by: dict[str, int] = {}
        #: this process's WebSockets that act for a seat by a session, by account: (the
        #: session's id, a function that closes the socket with a reason)
        self._sockets: dict[str, set[tuple[str, SocketCloser]]] = {}

    # -------------------------------------------------------------- passwords
    async def _hash_work(self, work: Any, *args: Any, client: str | None = None) -> Any:
        """Run a password hash in one of the :data:`HASHERS` slots. A ``client`` that has
        :attr:`AccountSettings.hash_per_client` waiting or running already is refused
        (:meth:`hashing_full`) rather than queued: one client's requests cannot fill the queue
        everyone's sign-ins wait in."""
        if client is not None:
            held = self._hashing_by.get(client, 0)
            cap = self.settings.hash_per_client
            if cap and held >= cap:
                raise self.hashing_full()
            self._hashing_by[client] = held + 1
        try:
            if self._hashing is None:
                self._hashing = asyncio.Semaphore(HASHERS)
            async with self._hashing:
                return await asyncio.to_thread(work, *args)
        finally:
            if client is not None:
                left = self._hashing_by.get(client, 1) - 1
                if left > 0:
                    self._hashing_by[client] = left
                else:
                    self._hashing_by.pop(client, None)

    def hashing_full(self) -> Throttled:
        var = AccountSettings.variable("hash_per_client")
        return Throttled(429, f"too many password checks under way from your address (at "
                              f"most {self.settings.hash_per_client} at once, {var}): wait "
                              f"for the answers to those first, then try again", var, 1)

    async def hash(self, password: str, client: str | None = None) -> str:
        """The argon2id hash of a password (:func:`checked_password` already), counted for
        ``client`` (:meth:`_hash_work`)."""
        made: str = await self._hash_work(self._hasher.hash, password, client=client)
        return made

    async def verify(self, password: str, stored: str | None, client: str | None = None
                     ) -> bool:
        """Whether ``password`` is the one hashed in ``stored``; with no hash (an unknown
        user), a dummy one is checked, taking as long, and the answer is False. Counted for
        ``client`` (:meth:`_hash_work`)."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        normal = unicodedata.normalize("NFKC", password)
        try:
            ok: bool = await self._hash_work(self._hasher.verify, normal,
                                             stored if stored is not None else self._dummy,
                                             client=client)
        except Throttled:
            raise
        except Exception:  # a stored hash pwdlib cannot read: no sign-in with it
            return False
        return ok and stored is not None

    # -------------------------------------------------------------- CSRF
    async def csrf(self, session: str) -> str:
        """The CSRF token of session id ``session``: an HMAC of it with the server's key."""
        if self._key is None:
            self._key = (await asyncio.to_thread(self.accounts.server_secret, "csrf")).encode()
        return hmac.new(self._key, f"meeple-csrf:{session}".encode(), hashlib.sha256).hexdigest()

    # -------------------------------------------------------------- sessions
    async def signed(self, conn: HTTPConnection) -> Signed | None:
        """The request's live session (from its cookie) and account, or None; looked up once
        a request. A session last seen over a 100th of its lifetime ago (at most an hour) is
        seen again: its expiry slides."""
        if _STATE in conn.scope.get("state", {}):
            found: Signed | None = conn.scope["state"][_STATE]
            return found
        signed = None
        token = conn.cookies.get(COOKIE)
        if token is not None and _TOKEN.fullmatch(token):
            got = await asyncio.to_thread(self.accounts.session, session_id(token))
            if got is not None:
                session, account = got
                when = now()
                life = self.settings.lifetime
                if when - session.last_seen > min(timedelta(hours=1), life / 100):
                    await asyncio.to_thread(self.accounts.slide, session.id, when, when + life)
                    session = SessionInfo(session.id, session.account_id, session.created, when,
                                          when + life, session.user_agent)
                signed = Signed(session, account)
        conn.scope.setdefault("state", {})[_STATE] = signed
        return signed

    async def bearer(self, conn: HTTPConnection, secret: str) -> Signed:
        """The request's token (``secret``, of :data:`~.tokens.TOKEN_SHAPE`) and account, kept
        on the request as its signed-in identity (:meth:`signed` gives it), counted against
        ``MEEPLE_RATE_TOKEN``; its ``last_used`` written at most once a minute.
        :class:`TokenRefused`: 401 naming why it is no good (unknown, revoked, expired), 429
        over its rate."""
        got = await asyncio.to_thread(self.tokens.find, secret)
        if got is None:
            raise TokenRefused(401, "this bearer token is not one of this server's (never made "
                                    "here, or its account was deleted); make one on /account")
        token, account = got
        when = now()
        if token.revoked:
            raise TokenRefused(401, f"this bearer token ({token.name!r}) was revoked; make a "
                                    f"new one on /account")
        if token.expired(when):
            assert token.expires is not None
            raise TokenRefused(401, f"this bearer token ({token.name!r}) expired at "
                                    f"{token.expires.isoformat(timespec='seconds')}; make a "
                                    f"new one on /account")
        wait = self._wait("token", token.id)
        if wait is not None:
            var, value = AccountSettings.variable("token"), self.settings.token
            after = max(1, math.ceil(wait))
            raise TokenRefused(429, f"too many requests with this token (at most {value}, "
                                    f"{var}); try again in {after} s",
                               (("retry-after", str(after)),))
        if token.last_used is None or when - token.last_used >= USED_EVERY:
            await asyncio.to_thread(self.tokens.used, token.id, when)
        far = token.expires if token.expires is not None else when + timedelta(days=36500)
        signed = Signed(SessionInfo(f"token:{token.id}", account.id, token.created, when, far,
                                    None), account, token)
        conn.scope.setdefault("state", {})[_STATE] = signed
        return signed

    async def require(self, conn: HTTPConnection) -> Signed:
        """The request's session, or 401 saying to sign in."""
        signed = await self.signed(conn)
        if signed is None:
            raise HTTPException(401, "not signed in (no live session): sign in with POST "
                                     "/api/session")
        return signed

    async def open(self, request: Request, response: Response, account: Account) -> Signed:
        """A new session for ``account`` on this browser, its cookie set on ``response``; the
        session the browser had is revoked (a fresh id at every sign-in: no session
        fixation)."""
        token = secrets.token_urlsafe(32)
        sid = session_id(token)
        old = request.cookies.get(COOKIE)
        replaces = session_id(old) if old is not None and _TOKEN.fullmatch(old) else None
        when = now()
        expires = when + self.settings.lifetime
        agent = bounded_agent(request.headers.get("user-agent"))
        await asyncio.to_thread(self.accounts.open_session, sid, account.id, expires, agent,
                                self.settings.sessions_per_account, replaces)
        self.set_cookie(request, response, token)
        signed = Signed(SessionInfo(sid, account.id, when, when, expires, agent), account)
        request.scope.setdefault("state", {})[_STATE] = signed
        return signed

    def set_cookie(self, request: Request, response: Response, token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=int(self.settings.lifetime.total_seconds()),
                            path="/", httponly=True, samesite="lax",
                            secure=request.url.scheme in ("https", "wss"))

    @staticmethod
    def clear_cookie(request: Request, response: Response) -> None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=request.url.scheme in ("https", "wss"))

    async def holds(self, conn: HTTPConnection, table_id: str, seat: int) -> bool:
        """Whether the request's session or token (if any) is of an account that holds the
        seat and may play it (:attr:`Signed.plays`)."""
        if COOKIE not in conn.cookies and _STATE not in conn.scope.get("state", {}):
            return False
        signed = await self.signed(conn)
        return signed is not None and signed.plays and await asyncio.to_thread(
            self.accounts.holds, signed.account.id, table_id, seat)

    # -------------------------------------------------------------- sockets
    def watch(self, account_id: str, session_id: str, close: SocketCloser
              ) -> Callable[[], None]:
        """Keep a WebSocket that acts for a seat by session ``session_id``, to close it
        when the session is revoked here (:meth:`signed_out`); the function returned
        forgets it (call it when the socket ends)."""
        entry = (session_id, close)
        self._sockets.setdefault(account_id, set()).add(entry)

        def forget() -> None:
            kept = self._sockets.get(account_id)
            if kept is not None:
                kept.discard(entry)
                if not kept:
                    del self._sockets[account_id]
        return forget

    async def signed_out(self, account_id: str, session_id: str | None = None) -> int:
        """Close this process's WebSockets that act for a seat by a session of the
        account (only by ``session_id`` if given) after those sessions were revoked: how
        many. Another process's sockets find out at their next move
        (:meth:`still_holds`)."""
        closing = [(sid, close) for sid, close in self._sockets.get(account_id, set())
                   if session_id is None or sid == session_id]
        for _, close in closing:
            try:
                await close("signed out: this session no longer acts for the seat; sign in "
                            "again to play it")
            except Exception:  # already gone
                log.debug("a signed-out socket was already closed", exc_info=True)
        return len(closing)

    def seat_held(self, session_id: str, table_id: str, seat: int) -> bool | None:
        """Whether session ``session_id``'s account holds the seat; None when the session
        is no longer live (a socket that said hello by session looks again now and then, and
        every socket of a table whose seats changed hands). Reads the store: call it in a
        thread. A token's (``token:<id>``) looks whether the token is still live."""
        if session_id.startswith("token:"):
            token = self.tokens.live(session_id.removeprefix("token:"))
            if token is None:
                return None
            return "play" in token.scopes and self.accounts.holds(token.account_id, table_id,
                                                                  seat)
        got = self.accounts.session(session_id)
        if got is None:
            return None
        return Signed(*got).plays and self.accounts.holds(got[1].id, table_id, seat)

    # -------------------------------------------------------------- limits
    def _wait(self, name: str, key: str, count: bool = True, cost: int = 1) -> float | None:
        """Seconds to wait if ``key`` is over rate ``name`` (hit once if ``count``; else
        only looked at: whether ``cost`` more would be over), else None."""
        wait = None
        for item in self._rates[name]:
            ok = (self._limiter.hit(item, name, key) if count
                  else self._limiter.test(item, name, key, cost=cost))
            if not ok:
                reset = self._limiter.get_window_stats(item, name, key).reset_time
                wait = max(wait or 0.0, reset - time.time())
        return wait

    def signin_allowed(self, client: str, key: str) -> None:
        """Count a sign-in of ``client`` for username ``key``; :class:`Throttled` (429) over
        the client's rate or the username's failures."""
        for name, who, count in (("signin", client, True), ("signin_user", key, False)):
            wait = self._wait(name, who, count)
            if wait is not None:
                var, value = AccountSettings.variable(name), getattr(self.settings, name)
                whose = "from your address" if name == "signin" else "for this username"
                raise Throttled(429, f"too many sign-ins {whose} (at most {value}, {var}); try "
                                     f"again in {max(1, math.ceil(wait))} s", var, wait)

    def failed(self, key: str) -> None:
        """Count a failed password check for username ``key``."""
        self._wait("signin_user", key)

    def password_allowed(self, key: str) -> None:
        """:class:`Throttled` while username ``key`` is over its failed checks."""
        wait = self._wait("signin_user", key, count=False)
        if wait is not None:
            var = AccountSettings.variable("signin_user")
            raise Throttled(429, f"too many wrong passwords for this account (at most "
                                 f"{self.settings.signin_user}, {var}); try again in "
                                 f"{max(1, math.ceil(wait))} s", var, wait)

    def password_change_allowed(self, account_id: str, client: str) -> None:
        """Count a password change or confirmation (right or wrong) for the account and for
        ``client``; :class:`Throttled` (429) over either's rate."""
        for who, whose in ((f"account:{account_id}", "for this account"),
                           (client, "from your address")):
            wait = self._wait("password", who)
            if wait is not None:
                var = AccountSettings.variable("password")
                raise Throttled(429, f"too many password changes or checks {whose} (at most "
                                     f"{self.settings.password}, {var}); try again in "
                                     f"{max(1, math.ceil(wait))} s", var, wait)

    def ceremony_allowed(self, account_id: str, client: str) -> None:
        """Count a signed-in account's new passkey ceremony (the options to add a passkey or
        to confirm with one) for the account and for ``client``; :class:`Throttled` (429)
        over either's rate."""
        for who, whose in ((f"account:{account_id}", "for this account"),
                           (client, "from your address")):
            wait = self._wait("ceremony", who)
            if wait is not None:
                var = AccountSettings.variable("ceremony")
                raise Throttled(429, f"too many passkey ceremonies {whose} (at most "
                                     f"{self.settings.ceremony}, {var}); try again in "
                                     f"{max(1, math.ceil(wait))} s", var, wait)

    def passkey_allowed(self, client: str, count: bool = True) -> None:
        """Count a passkey sign-in step of ``client`` (asking for a ceremony's options, or an
        answer that failed) with its sign-ins; :class:`Throttled` (429) over the rate
        (``count=False``: only whether it went over already)."""
        wait = self._wait("signin", client, count, cost=0)
        if wait is not None:
            var = AccountSettings.variable("signin")
            raise Throttled(429, f"too many sign-ins from your address (at most "
                                 f"{self.settings.signin}, {var}; a passkey's counts as "
                                 f"one, and a refused answer as another); try again in "
                                 f"{max(1, math.ceil(wait))} s", var, wait)

    def signup_allowed(self, client: str) -> None:
        wait = self._wait("signup", client)
        if wait is not None:
            var = AccountSettings.variable("signup")
            raise Throttled(429, f"too many accounts made from your address (at most "
                                 f"{self.settings.signup}, {var}); try again in "
                                 f"{max(1, math.ceil(wait))} s", var, wait)


def get_accounts(conn: HTTPConnection) -> AccountService:
    """The app's :class:`AccountService`."""
    return site_of(conn).accounts


AccountsDep = Annotated[AccountService, Depends(get_accounts)]


# ------------------------------------------------------------------------------ the guard
def _json(status: int, body: dict[str, Any]) -> tuple[Message, Message]:
    payload = json.dumps(body).encode()
    return ({"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(payload)).encode())]},
            {"type": "http.response.body", "body": payload})


class SessionGuard:
    """ASGI middleware: a state change under ``/api/`` with a live session's cookie needs the
    session's CSRF token in ``X-CSRF-Token`` (403 without: nothing runs); after such a
    request took a seat (create with ``join_as``, join), the seat is the account's
    (``account_seats``) before the answer is sent."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            try:
                secret = bearer_secret(scope)
            except TokenRefused as exc:
                await refuse_token(scope, receive, send, exc)
                return
            if secret is not None:
                await self.by_token(scope, receive, send, secret)
                return
        if not _csrf_guarded(scope):
            await self.app(scope, receive, send)
            return
        await self.by_cookie(scope, receive, send)

    async def by_cookie(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A state change under ``/api/``: with a live session's cookie it needs that
        session's CSRF token, and a bot account's session may not play."""
        request = Request(scope)
        if COOKIE not in request.cookies:
            await self.app(scope, receive, send)
            return
        service = site_of(request).accounts
        try:
            signed = await service.signed(request)
            expected = await service.csrf(signed.session.id) if signed is not None else ""
        except StoreUnavailable as exc:
            for message in _json(503, {"detail": str(exc)}):
                await send(message)
            return
        if signed is None:  # a cookie of no live session: no authority, nothing to guard
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        why = _cookie_refusal(request.headers.get(CSRF_HEADER, ""), expected,
                              signed.account.bot, str(scope.get("method")), path)
        if why is not None:
            for message in _json(403, {"detail": why}):
                await send(message)
            return
        if scope.get("method") == "POST" and _SEAT_TAKING.fullmatch(path):
            await self.app(scope, receive, _holding(send, service, signed.account.id))
            return
        await self.app(scope, receive, send)

    async def by_token(self, scope: Scope, receive: Receive, send: Send, secret: str) -> None:
        """A request (or WebSocket) with a bearer token: its cookies dropped (a token never
        falls back to a session), the token checked (:meth:`AccountService.bearer`) and its
        scopes (:func:`token_refusal`), no CSRF token asked."""
        scope["headers"] = [(n, v) for n, v in scope["headers"] if n != b"cookie"]
        method = str(scope.get("method", "GET"))
        path = str(scope.get("path", ""))
        conn = HTTPConnection(scope)
        try:
            signed = await site_of(conn).accounts.bearer(conn, secret)
            assert signed.token is not None
            why = token_refusal(method, path, signed.token.scopes)
            if why is not None:
                raise TokenRefused(403, why)
        except TokenRefused as exc:
            await refuse_token(scope, receive, send, exc)
            return
        except StoreUnavailable as exc:
            await refuse_token(scope, receive, send, TokenRefused(503, str(exc)))
            return
        if scope["type"] == "http" and method == "POST" and _SEAT_TAKING.fullmatch(path):
            await self.app(scope, receive,
                           _holding(send, site_of(conn).accounts, signed.account.id))
            return
        await self.app(scope, receive, send)


def _csrf_guarded(scope: Scope) -> bool:
    """Whether a request without a token is a state change the CSRF check guards: an unsafe
    method under ``/api/`` but the exempt ones (signing in, the name checks)."""
    path = str(scope.get("path", ""))
    return (scope["type"] == "http" and scope.get("method") in UNSAFE
            and path.startswith("/api/") and (scope.get("method"), path) not in CSRF_EXEMPT
            and not path.endswith("/check"))


def _cookie_refusal(given: str, expected: str, bot: bool, method: str, path: str
                    ) -> str | None:
    """Why a live session's state change is refused (a 403's detail): no or a wrong CSRF
    token, or a bot account's page playing; None: it goes on."""
    if not hmac.compare_digest(given.encode("latin-1", "replace"), expected.encode()):
        what = "carries no X-CSRF-Token header" if not given else \
            "carries an X-CSRF-Token that is not this session's"
        return (f"this request comes with a session cookie but {what}: a signed-in "
                "client sends the csrf of GET /api/me (or of its sign-in) in X-CSRF-Token "
                "with every change (a page of another site cannot read it)")
    return bot_cookie_refusal(method, path) if bot else None


def _holding(send: Send, service: AccountService, account_id: str) -> Send:
    """``send`` that holds back the answer to a create or join until the seat it took (if
    any) is recorded as the account's."""
    start: Message | None = None
    body = bytearray()

    async def held(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
            return
        if message["type"] != "http.response.body" or start is None:
            await send(message)
            return
        body.extend(message.get("body", b""))
        if message.get("more_body"):
            return
        if start["status"] in (200, 201):
            try:
                answer = json.loads(bytes(body))
                table, seat = answer["table"]["id"], answer["seat"]
            except (ValueError, KeyError, TypeError):
                table = seat = None
            if isinstance(table, str) and isinstance(seat, int):
                try:
                    await asyncio.to_thread(service.accounts.hold, account_id, table, seat)
                except Exception:  # the seat is taken all the same: its secret still opens it
                    log.warning("table %s: seat %s could not be recorded for its account",
                                table, seat, exc_info=True)
        await send(start)
        await send({"type": "http.response.body", "body": bytes(body)})

    return held


__all__ = ["COOKIE", "CSRF_HEADER", "USERNAME_RULE", "AccountService", "AccountSettings",
           "AccountsDep", "SessionGuard", "Signed", "checked_password", "checked_username",
           "get_accounts", "username_key"]
