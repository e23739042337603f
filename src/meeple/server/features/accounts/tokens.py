"""API tokens: how a program (a bot, ``meeple agent``, a script) acts for an account.

A request with ``Authorization: Bearer mpl_...`` (REST, or a WebSocket's upgrade request) is
the token's account, and only that: its cookies are dropped before anything reads them (a
request with a token never falls back to a session), and a token that is malformed, unknown,
revoked or expired is refused 401 naming which, cookie or not. CSRF does not apply (a page of
another site cannot make a browser send the header). What a token may do is its scopes'
(:func:`token_refusal`); every request with it is counted against ``MEEPLE_RATE_TOKEN`` (429
beyond, per token, as a client's limits are). There is no query-string form for a WebSocket:
a URL is written to logs and histories, a header is not.

A bot account's cookie session (its owner's page) may look and manage the account but not
play (:func:`bot_cookie_refusal`): a bot account plays only through the API.
"""

from __future__ import annotations

import re

from starlette.types import Receive, Scope, Send

from meeple.server.edge import refuse_request

#: The scopes a token may be given, and what each lets it do.
SCOPES: dict[str, str] = {
    "play": "take seats and play them (tables, Play now), and make its account a bot account",
    "challenge": "make, accept and decline challenges",
    "tournament": "join and withdraw from tournaments",
    "read": "read the account's own records (its games, seats, export)",
}
#: A token's secret as it is made: ``mpl_`` and 43 URL-safe base64 characters (32 bytes).
TOKEN_SHAPE = re.compile(r"mpl_[A-Za-z0-9_-]{43}")
#: The methods that change something.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The paths (prefixes) where a change is playing, with the scope it needs.
_PLAY = ("/api/tables", "/api/play-now")
#: The account's own records a ``read`` token may GET.
_READ = "/api/me/"


class TokenRefused(Exception):
    """A request whose token does not let it through: 401 (no good token) or 403 (a good
    token without the scope), or 429 (over its rate), with what was wrong."""

    def __init__(self, status: int, detail: str, headers: tuple[tuple[str, str], ...] = ()
                 ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers


def bearer_secret(scope: Scope) -> str | None:
    """The token a request or WebSocket upgrade carries in ``Authorization: Bearer``; None
    when it has no ``Authorization`` header. :class:`TokenRefused` (401) for another scheme or
    a value that is not a meeple token's shape."""
    values: list[bytes] = [v for n, v in scope.get("headers") or () if n == b"authorization"]
    if not values:
        return None
    if len(values) > 1:
        raise TokenRefused(401, "the request has several Authorization headers; send one: "
                                "Authorization: Bearer mpl_...")
    scheme, _, value = values[0].decode("latin-1").strip().partition(" ")
    if scheme.lower() != "bearer":
        raise TokenRefused(401, f"the Authorization scheme {scheme[:20]!r} is not taken; "
                                "send Authorization: Bearer mpl_... with a token made on "
                                "/account")
    value = value.strip()
    if not TOKEN_SHAPE.fullmatch(value):
        raise TokenRefused(401, "the bearer token is malformed: a meeple token is 'mpl_' and "
                                "43 letters, digits, '-' or '_' (as /account showed it once)")
    return value


def scope_needed(method: str, path: str) -> str | None:
    """The scope a token needs for ``method path``; None when any live token may (reading
    what anyone may read, or ``GET /api/me``: whose token it is)."""
    if path == "/api/me/bot":
        return "play"
    if path.startswith("/api/challenges"):
        return "challenge"
    if path.startswith("/api/tournaments"):
        return "tournament" if method in UNSAFE else None
    if method in UNSAFE and path.startswith(_PLAY):
        return "play"
    if method not in UNSAFE and path.startswith(_READ):
        return "read"
    return None


def token_refusal(method: str, path: str, scopes: tuple[str, ...]) -> str | None:
    """Why a live token with ``scopes`` may not do ``method path`` (a 403's detail), or
    None: it may. A token never makes, lists or revokes tokens, and changes nothing of its
    account but making it a bot account: the rest is its signed-in page's."""
    if path == "/api/me/tokens" or path.startswith("/api/me/tokens/"):
        return ("tokens are made, listed and revoked on the signed-in /account page (a "
                "session and its CSRF token), never with a token")
    need = scope_needed(method, path)
    if need is None:
        if method in UNSAFE and path.startswith("/api/"):
            return (f"a token cannot {method} {path[:80]}: it plays (tables, Play now, POST "
                    f"/api/me/bot), challenges and enters tournaments as its scopes allow; "
                    f"the account itself is changed on its signed-in page")
        return None
    if need not in scopes:
        has = ", ".join(scopes) or "none"
        return (f"this token has no '{need}' scope (it has: {has}); {need} lets a token "
                f"{SCOPES[need]}: make a token with it on /account")
    return None


def bot_cookie_refusal(method: str, path: str) -> str | None:
    """Why a bot account's cookie session may not do ``method path`` (a 403's detail), or
    None: a bot account plays only through the API, with a token."""
    if method in UNSAFE and path.startswith(_PLAY):
        return ("this is a bot account: it plays only through the API, with a token that "
                "has the 'play' scope (Authorization: Bearer mpl_...), never from a signed-in "
                "page")
    return None


async def refuse_token(scope: Scope, receive: Receive, send: Send, exc: TokenRefused) -> None:
    """Answer a refused request (a WebSocket's upgrade too) with ``exc``'s status and
    detail."""
    extra = [(n.encode(), v.encode()) for n, v in exc.headers]
    if exc.status == 401:
        extra.append((b"www-authenticate", b'Bearer realm="meeple"'))
    await refuse_request(scope, receive, send, exc.status, exc.detail, extra)


__all__ = ["SCOPES", "TOKEN_SHAPE", "TokenRefused", "bearer_secret", "bot_cookie_refusal",
           "refuse_token", "scope_needed", "token_refusal"]
