"""Passkeys: add one to a signed-in account, sign in with one (no username asked),
sign up with one (no password), list, rename and remove them, and confirm a passkey-only
account's deletion. The ceremonies are :mod:`meeple.server.features.accounts.passkeys`'s;
``src/meeple/server/features/accounts/README.md``, *Passkeys*, says what each route does."""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from meeple.server.features.accounts.passkey_store import (
    MAX_PASSKEYS,
    Passkey,
    TooManyChallenges,
    TooManyPasskeys,
)
from meeple.server.features.accounts.passkeys import (
    Credential,
    authentication_options,
    check_new,
    expires,
    new_challenge,
    registration_options,
    relying_party,
    take_challenge,
    verify_assertion,
    verify_new,
)
from meeple.server.features.accounts.routes import PageSettings, SignedOut, _signed_out
from meeple.server.features.accounts.sessions import AccountsDep, AccountService, checked_username
from meeple.server.features.accounts.store import UsernameTaken
from meeple.server.quotas import ThrottledRoute, client_of
from meeple.server.table.checks import checked_name

router = APIRouter(route_class=ThrottledRoute)

#: A passkey's id in a path: what the list gives.
PasskeyId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$",
                                description="the passkey's id, as the list gives it")]


def _username(value: str) -> str:
    return checked_username(value)[0]


def _display(value: str) -> str:
    return checked_name(value, "the display name", 60)


def _passkey_name(value: str) -> str:
    return checked_name(value, "the passkey's name", 60)


PasskeyName = Annotated[str, AfterValidator(_passkey_name)]


class Options(BaseModel):
    """A ceremony's options: pass ``publicKey`` (its byte fields base64url, to decode) to
    ``navigator.credentials.create()`` or ``.get()``."""

    publicKey: dict[str, Any]  # (the browser's name)


class NewPasskey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credential: Credential = Field(description="the answer of navigator.credentials.create()")
    name: PasskeyName | None = Field(None, max_length=240, description="a name for it (1 to 60 "
                                                                       "characters); default "
                                                                       "'Passkey N'")


class PasskeySignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, AfterValidator(_username)] = Field(
        max_length=120, description="3 to 30 letters, digits, '_', '-' and '.'; unique "
                                    "whatever its case")
    display_name: Annotated[str, AfterValidator(_display)] | None = Field(
        None, max_length=240, description="the name shown; default: the username")


class Assertion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credential: Credential = Field(description="the answer of navigator.credentials.get()")


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: PasskeyName = Field(max_length=240, description="1 to 60 characters")


class PasskeyOut(BaseModel):
    id: str
    name: str
    created: str
    last_used: str | None
    transports: list[str]


class MyPasskeys(BaseModel):
    passkeys: list[PasskeyOut]
    password: bool = Field(description="whether the account has a password as well")
    most: int = Field(description="the most passkeys an account may have")


async def keep(accounts: AccountService, challenge: bytes, purpose: str,
               account_id: str | None = None, data: dict[str, Any] | None = None) -> None:
    """Keep a ceremony's challenge; 503 (with Retry-After) when too many are under way."""
    try:
        await asyncio.to_thread(accounts.passkeys.new_challenge, challenge, purpose, expires(),
                                account_id, data)
    except TooManyChallenges as exc:
        raise HTTPException(503, str(exc), headers={"Retry-After": "60"}) from None


def passkey_out(p: Passkey) -> PasskeyOut:
    return PasskeyOut(id=p.id, name=p.name, created=p.created.isoformat(),
                      last_used=p.last_used.isoformat() if p.last_used else None,
                      transports=list(p.transports))


# ------------------------------------------------------------------------------ add one
@router.post("/api/passkeys/register/options")
async def register_options(request: Request, accounts: AccountsDep) -> Options:
    """The options to make a passkey for the signed-in account (its own passkeys excluded);
    409 when it has the most it may. At most ``MEEPLE_RATE_CEREMONY`` an account and a client
    (429); an account has at most 5 ceremonies under way (a new one replaces its oldest)."""
    signed = await accounts.require(request)
    account = signed.account
    accounts.ceremony_allowed(account.id, client_of(request))
    rp = relying_party(request, accounts.settings)
    mine = await asyncio.to_thread(accounts.passkeys.credential_ids, account.id)
    if len(mine) >= MAX_PASSKEYS:
        raise TooManyPasskeys(f"this account has {len(mine)} passkeys, the most it may have; "
                              f"remove one first")
    challenge = new_challenge()
    options = registration_options(rp, account.id, account.username, account.display_name,
                                   challenge, mine)
    await keep(accounts, challenge, "register", account.id)
    return Options(publicKey=options)


@router.post("/api/passkeys/register", status_code=201)
async def register(body: NewPasskey, request: Request, accounts: AccountsDep) -> PasskeyOut:
    """Keep the passkey the browser made with the options: 201 with it; 400 if the answer
    does not verify (or its challenge is unknown), 409 if the passkey is registered already."""
    signed = await accounts.require(request)
    rp = relying_party(request, accounts.settings)
    check_new(body.credential)
    challenge, _, _ = await take_challenge(accounts, body.credential, "register",
                                           signed.account.id)
    made = verify_new(body.credential, challenge, rp)
    passkey = await asyncio.to_thread(accounts.passkeys.add, signed.account.id, made, body.name)
    return passkey_out(passkey)


# ------------------------------------------------------------------------------ sign in
@router.post("/api/passkeys/signin/options")
async def signin_options(request: Request, accounts: AccountsDep) -> Options:
    """The options to sign in with any passkey of this site (no username: the browser offers
    the person's passkeys). Counts as a sign-in of the client (``MEEPLE_RATE_SIGNIN``)."""
    accounts.passkey_allowed(client_of(request))
    rp = relying_party(request, accounts.settings)
    challenge = new_challenge()
    await keep(accounts, challenge, "signin")
    return Options(publicKey=authentication_options(rp, challenge))


@router.post("/api/passkeys/signin")
async def signin(body: Assertion, request: Request, response: Response,
                 accounts: AccountsDep) -> SignedOut:
    """Sign in with a passkey: as ``POST /api/session`` does (a new session, its cookie,
    its CSRF token). 400 for an unknown challenge, 401 for an answer that does not verify
    (each counts as a sign-in of the client)."""
    client = client_of(request)
    accounts.passkey_allowed(client, count=False)
    try:
        account = await verify_assertion(accounts, request, body.credential, "signin")
    except HTTPException:
        accounts.passkey_allowed(client)
        raise
    return await _signed_out(accounts, await accounts.open(request, response, account))


# ------------------------------------------------------------------------------ sign up
@router.post("/api/passkeys/signup/options")
async def signup_options(body: PasskeySignUp, request: Request, accounts: AccountsDep
                         ) -> Options:
    """The options to make an account with a passkey and no password: 409 if the username
    is taken (whatever its case). Counts as a sign-up of the client (``MEEPLE_RATE_SIGNUP``)."""
    accounts.signup_allowed(client_of(request))
    name, key = checked_username(body.username)
    rp = relying_party(request, accounts.settings)
    clash = await asyncio.to_thread(accounts.passkeys.username_taken, name, key)
    if clash is not None:
        raise UsernameTaken(clash)
    account_id = secrets.token_hex(8)
    display = body.display_name or name
    challenge = new_challenge()
    options = registration_options(rp, account_id, name, display, challenge, [])
    await keep(accounts, challenge, "signup", account_id,
               {"username": name, "key": key, "display_name": display})
    return Options(publicKey=options)


@router.post("/api/passkeys/signup", status_code=201)
async def signup(body: NewPasskey, request: Request, response: Response,
                 accounts: AccountsDep) -> SignedOut:
    """Make the account with the passkey the browser made and sign in (as ``POST
    /api/accounts`` answers). 409 if the username was taken meanwhile."""
    rp = relying_party(request, accounts.settings)
    check_new(body.credential)
    challenge, data, account_id = await take_challenge(accounts, body.credential, "signup")
    made = verify_new(body.credential, challenge, rp)
    if account_id is None:  # (a signup challenge always has one)
        raise HTTPException(400, "this passkey answer's challenge is not a sign-up's")
    account, _ = await asyncio.to_thread(
        accounts.passkeys.create_account, account_id, str(data["username"]), str(data["key"]),
        str(data["display_name"]), PageSettings().model_dump(), made, body.name)
    return await _signed_out(accounts, await accounts.open(request, response, account))


# ------------------------------------------------------------------------------ mine
@router.get("/api/me/passkeys")
async def my_passkeys(request: Request, accounts: AccountsDep) -> MyPasskeys:
    """The account's passkeys (oldest first; no key material) and whether it has a
    password."""
    signed = await accounts.require(request)
    aid = signed.account.id
    passkeys = await asyncio.to_thread(accounts.passkeys.of, aid)
    password = await asyncio.to_thread(accounts.accounts.password_hash, aid)
    return MyPasskeys(passkeys=[passkey_out(p) for p in passkeys], password=password is not None,
                      most=MAX_PASSKEYS)


@router.patch("/api/me/passkeys/{passkey_id}")
async def rename(passkey_id: PasskeyId, body: Rename, request: Request,
                 accounts: AccountsDep) -> PasskeyOut:
    """A new name for one of the account's passkeys (404 for another's)."""
    signed = await accounts.require(request)
    return passkey_out(await asyncio.to_thread(accounts.passkeys.rename, signed.account.id,
                                               passkey_id, body.name))


@router.delete("/api/me/passkeys/{passkey_id}")
async def remove(passkey_id: PasskeyId, request: Request, accounts: AccountsDep
                 ) -> dict[str, bool]:
    """Remove one of the account's passkeys (404 for another's); 409 if it is the only way
    left to sign in (no password, no other passkey)."""
    signed = await accounts.require(request)
    await asyncio.to_thread(accounts.passkeys.remove, signed.account.id, passkey_id)
    return {"removed": True}


@router.post("/api/passkeys/confirm/options")
async def confirm_options(request: Request, accounts: AccountsDep) -> Options:
    """The options to confirm who you are with one of the account's passkeys (what ``DELETE
    /api/me`` takes instead of the password); 409 for an account without passkeys. Limited
    as the register options are."""
    signed = await accounts.require(request)
    accounts.ceremony_allowed(signed.account.id, client_of(request))
    rp = relying_party(request, accounts.settings)
    mine = await asyncio.to_thread(accounts.passkeys.credential_ids, signed.account.id)
    if not mine:
        raise HTTPException(409, "this account has no passkey to confirm with; give its "
                                 "password")
    challenge = new_challenge()
    await keep(accounts, challenge, "confirm", signed.account.id)
    return Options(publicKey=authentication_options(rp, challenge, mine))


__all__ = ["router", "verify_assertion"]
