"""API tokens and bot accounts: an account's personal tokens (made, listed and revoked by its
signed-in page, never with a token), and its one-way change into a bot account.
``src/meeple/server/features/accounts/README.md`` says what each route does."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from meeple.server.features.accounts.routes import AccountOut, account_out
from meeple.server.features.accounts.sessions import AccountsDep, Signed
from meeple.server.features.accounts.token_store import MAX_TOKENS, TokenInfo
from meeple.server.features.accounts.tokens import SCOPES
from meeple.server.quotas import ThrottledRoute
from meeple.server.table.checks import BadInput, checked_name
from meeple.store.models import now

router = APIRouter(route_class=ThrottledRoute)

#: The longest a token may be made to live (days); no expiry is allowed too.
MAX_DAYS = 3650

TokenId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$",
                              description="a token's id, as GET /api/me/tokens lists it")]


def _token_name(value: str) -> str:
    return checked_name(value, "the token's name", 60)


def _scopes(value: list[str]) -> list[str]:
    allowed = ", ".join(SCOPES)
    if not value:
        raise BadInput(f"a token needs at least one scope; the scopes are {allowed}")
    for scope in value:
        if scope not in SCOPES:
            raise BadInput(f"{scope[:30]!r} is not a scope; the scopes are {allowed}")
    if len(set(value)) != len(value):
        raise BadInput(f"a scope is named twice; name each once, of {allowed}")
    return [s for s in SCOPES if s in value]


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, AfterValidator(_token_name)] = Field(
        max_length=240, description="what the token is for (1 to 60 characters)")
    scopes: Annotated[list[str], AfterValidator(_scopes)] = Field(
        max_length=len(SCOPES), description="what it may do: some of " + ", ".join(SCOPES))
    expires_days: int | None = Field(None, ge=1, le=MAX_DAYS, description=(
        f"days until it stops working (1 to {MAX_DAYS}); null: never"))


class TokenOut(BaseModel):
    id: str
    name: str
    scopes: list[str]
    created: str
    expires: str | None = Field(description="when it stops working; null: never")
    last_used: str | None = Field(description="when a request last came with it (to the "
                                              "minute); null: never")
    expired: bool


class MadeToken(BaseModel):
    token: TokenOut
    secret: str = Field(description="the token itself (Authorization: Bearer ...): shown "
                                    "this once, kept nowhere")


class MyTokens(BaseModel):
    tokens: list[TokenOut]
    scopes: dict[str, str] = Field(description="every scope and what it lets a token do")
    most: int = Field(description="the most live tokens an account may have")
    bot_account: bool


class BotAccount(BaseModel):
    account: AccountOut
    changed: bool = Field(description="false: it was a bot account already")


def token_out(t: TokenInfo) -> TokenOut:
    return TokenOut(id=t.id, name=t.name, scopes=list(t.scopes), created=t.created.isoformat(),
                    expires=t.expires.isoformat() if t.expires else None,
                    last_used=t.last_used.isoformat() if t.last_used else None,
                    expired=t.expired(now()))


@router.get("/api/me/tokens")
async def my_tokens(request: Request, accounts: AccountsDep) -> MyTokens:
    """The account's API tokens not revoked (expired ones too, marked), newest first; never
    their secrets. A signed-in page's (a token may not list tokens: 403)."""
    signed = await accounts.require(request)
    tokens = await asyncio.to_thread(accounts.tokens.of, signed.account.id)
    return MyTokens(tokens=[token_out(t) for t in tokens], scopes=SCOPES, most=MAX_TOKENS,
                    bot_account=signed.account.bot)


@router.post("/api/me/tokens", status_code=201)
async def make_token(body: NewToken, request: Request, accounts: AccountsDep) -> MadeToken:
    """A new API token: its secret is in this answer and nowhere else, ever. With the
    session's CSRF token; 409 at the most live tokens (``most``). A retry after a lost
    answer makes a second token (the first is listed, to revoke)."""
    signed = await accounts.require(request)
    expires = now() + timedelta(days=body.expires_days) if body.expires_days else None
    made, secret = await asyncio.to_thread(accounts.tokens.make, signed.account.id, body.name,
                                           tuple(body.scopes), expires)
    return MadeToken(token=token_out(made), secret=secret)


@router.delete("/api/me/tokens/{token_id}")
async def revoke_token(token_id: TokenId, request: Request, accounts: AccountsDep
                       ) -> dict[str, bool]:
    """Revoke one of the account's tokens: every request with it is refused (401) from now
    on; its sockets close (4401): at once in this process, in another at their next look
    (within ten seconds). 404 for no such
    live token of this account."""
    signed = await accounts.require(request)
    if not await asyncio.to_thread(accounts.tokens.revoke, signed.account.id, token_id):
        raise HTTPException(404, f"this account has no live token {token_id!r}; GET "
                                 f"/api/me/tokens lists them")
    # this process's sockets that play by it close now; another's at their next look
    await accounts.signed_out(signed.account.id, f"token:{token_id}")
    return {"revoked": True}


@router.post("/api/me/bot")
async def become_bot(request: Request, accounts: AccountsDep) -> BotAccount:
    """Make the account a bot account, for good: with a token that has the ``play`` scope
    (as Lichess's ``/api/bot/account/upgrade``) or from the signed-in page. 409 naming why
    when it holds any seat (an account with games cannot become a bot); asking again of a
    bot account changes nothing (``changed: false``)."""
    signed: Signed = await accounts.require(request)
    changed = await asyncio.to_thread(accounts.tokens.make_bot, signed.account.id)
    account = await asyncio.to_thread(accounts.accounts.get, signed.account.id)
    if account is None:
        raise HTTPException(404, "this account was deleted")
    return BotAccount(account=account_out(account), changed=changed)


__all__ = ["router"]
