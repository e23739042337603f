"""Accounts: sign up, sign in and out, the signed-in account (its settings, password,
seats, games, export and deletion). Sessions, cookies and CSRF are
:mod:`meeple.server.features.accounts.sessions`'s;
``src/meeple/server/features/accounts/README.md`` says what each route does."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Iterable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, model_validator

import meeple
from meeple.bots.ratings import shown
from meeple.core.state import CHANCE
from meeple.server.deps import ServiceDep, StoreDep
from meeple.server.features.accounts.passkeys import Credential, verify_assertion
from meeple.server.features.accounts.sessions import (
    AccountsDep,
    AccountService,
    Signed,
    checked_password,
    checked_username,
    username_key,
)
from meeple.server.features.accounts.store import Account, Claim, HeldTable
from meeple.server.quotas import ThrottledRoute, client_of
from meeple.server.table.checks import MAX_PARAM, checked_name, checked_text
from meeple.server.table.protocol import SeatNumber
from meeple.server.table.routes import tables as table_routes
from meeple.server.table.service import Service
from meeple.store import FINISHED, RUNNING
from meeple.store.account_data import account_exported
from meeple.store.models import now
from meeple.store.ratings import Ratings

router = APIRouter(route_class=ThrottledRoute)

#: The one answer to a sign-in that failed, whether the username is unknown or the password
#: wrong (no user enumeration).
WRONG = "wrong username or password"
#: Tables a page of ``GET /api/me/games`` lists at most, and by default.
PAGE_MAX, PAGE_DEFAULT = 100, 20
#: The running tables looked at to put the account's turns first (``sort=turn``).
TURN_SCAN = 500


# ------------------------------------------------------------------------------ models
def _username(value: str) -> str:
    return checked_username(value)[0]


def _display(value: str) -> str:
    return checked_name(value, "the display name", 60)


def _signin_name(value: str) -> str:
    return checked_text(value, "the username", 200)


class PageSettings(BaseModel):
    """The page preferences an account keeps (what the browser keeps in localStorage for a
    guest): only these, each of its type."""

    model_config = ConfigDict(extra="forbid")

    colour_blind: StrictBool = Field(
        default=False, description="colour-blind mode: a letter or pattern for every colour")
    auto_confirm: StrictBool = Field(
        default=False, description="confirm a turn as soon as it is complete")
    hint_level: Literal["easy", "medium", "hard", "expert"] = Field(
        default="medium", description="the level the Hint button asks for")


class SettingsPatch(BaseModel):
    """Some of :class:`PageSettings` to change (the others are kept)."""

    model_config = ConfigDict(extra="forbid")

    colour_blind: StrictBool | None = None
    auto_confirm: StrictBool | None = None
    hint_level: Literal["easy", "medium", "hard", "expert"] | None = None


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, AfterValidator(_username)] = Field(
        max_length=120, description="3 to 30 letters, digits, '_', '-' and '.'; unique "
                                    "whatever its case")
    password: str = Field(max_length=400, description="10 to 200 characters, not the username")
    display_name: Annotated[str, AfterValidator(_display)] | None = Field(
        None, max_length=240, description="the name shown (1 to 60 characters); default: the "
                                          "username")

    @model_validator(mode="after")
    def _password(self) -> SignUp:
        self.password = checked_password(self.password, self.username)
        return self


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, AfterValidator(_signin_name)] = Field(max_length=200)
    password: str = Field(min_length=1, max_length=400)


class MePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    display_name: Annotated[str, AfterValidator(_display)] | None = Field(None, max_length=240)
    settings: SettingsPatch | None = None


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old_password: str | None = Field(None, min_length=1, max_length=400,
                                     description="the password now (an account that has none, "
                                                 "signing in with passkeys only, sets one "
                                                 "without)")
    new_password: str = Field(max_length=400, description="10 to 200 characters, not the "
                                                          "username")


class DeleteMe(BaseModel):
    """Who you are, again: the password, or for an account with passkeys an answer of one
    (``POST /api/passkeys/confirm/options`` gives the options)."""

    model_config = ConfigDict(extra="forbid")

    password: str | None = Field(None, min_length=1, max_length=400)
    passkey: Credential | None = Field(None, description="the answer of "
                                                         "navigator.credentials.get()")

    @model_validator(mode="after")
    def _one(self) -> DeleteMe:
        if (self.password is None) == (self.passkey is None):
            raise ValueError("give the account's password or a passkey's answer (one of them)")
        return self


class SeatClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str = Field(min_length=1, max_length=32)
    seat: SeatNumber
    secret: str = Field(min_length=1, max_length=200)


class ClaimSeats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[SeatClaim] = Field(max_length=100, description="the seats a guest holds, with "
                                                               "their secrets (at most 100)")


class AccountOut(BaseModel):
    id: str
    username: str
    display_name: str
    created: str
    settings: PageSettings
    bot_account: bool = Field(False, description="a bot account: it plays only through the "
                                                 "API with a token, and shows as BOT")


class SignedOut(BaseModel):
    """The signed-in account, the session's CSRF token (send it in X-CSRF-Token with every
    change) and when the session ends unless seen again."""

    account: AccountOut
    csrf: str
    expires: str


class SeatRef(BaseModel):
    table: str
    seat: int


class SeatRefused(SeatRef):
    reason: str


class Claimed(BaseModel):
    claimed: list[SeatRef]
    refused: list[SeatRefused]


class Turn(BaseModel):
    seat: int
    name: str


class MyGame(BaseModel):
    table: str
    game: str
    title: str
    variant: dict[str, Any]
    status: str
    players: int
    seats: list[str] = Field(description="every seat's name")
    my_seat: int = Field(description="the (first) seat this account holds")
    my_seats: list[int]
    turn: Turn | None = Field(description="the seat to move and its name; null while the "
                                          "table waits, during a draw, once finished")
    my_turn: bool
    version: int
    created: str
    updated: str
    result: list[Any] | None
    pace: str = Field("live", description="live or turn-based")
    clock: int | None = Field(None, description="seconds a decision (live) or a move "
                                                "(turn-based); null: no clock")
    left: float | None = Field(None, description=(
        "seconds the seat to move has left before its stand-in plays (turn-based: the "
        "move's time, then its bank); null when no clock runs"))


# ------------------------------------------------------------------------------ answers
def _settings(stored: dict[str, Any]) -> PageSettings:
    known = {k: v for k, v in stored.items() if k in PageSettings.model_fields}
    try:
        return PageSettings(**known)
    except ValueError:
        return PageSettings()


def account_out(a: Account) -> AccountOut:
    return AccountOut(id=a.id, username=a.username, display_name=a.display_name,
                      created=a.created.isoformat(), settings=_settings(a.settings),
                      bot_account=a.bot)


async def _signed_out(accounts: AccountService, signed: Signed) -> SignedOut:
    if signed.token is not None:  # a token needs no CSRF token, and has no session to end
        return SignedOut(account=account_out(signed.account), csrf="",
                         expires=signed.session.expires.isoformat())
    return SignedOut(account=account_out(signed.account),
                     csrf=await accounts.csrf(signed.session.id),
                     expires=signed.session.expires.isoformat())


# ------------------------------------------------------------------------------ routes
@router.post("/api/accounts", status_code=201)
async def sign_up(body: SignUp, request: Request, response: Response,
                  accounts: AccountsDep) -> SignedOut:
    """Make an account and sign in: its answer carries the CSRF token and sets the session
    cookie. At most ``MEEPLE_RATE_SIGNUP`` a client (429 beyond); 409 for a username taken
    (whatever its case)."""
    accounts.signup_allowed(client_of(request))
    name, key = checked_username(body.username)
    hashed = await accounts.hash(body.password, client_of(request))
    account = await asyncio.to_thread(accounts.accounts.create, name, key,
                                      body.display_name or name, hashed,
                                      PageSettings().model_dump())
    return await _signed_out(accounts, await accounts.open(request, response, account))


@router.post("/api/session")
async def sign_in(body: SignIn, request: Request, response: Response,
                  accounts: AccountsDep) -> SignedOut:
    """Sign in: a new session (its cookie set; the browser's old session revoked) and its
    CSRF token. An unknown username and a wrong password get the same 401, after the same
    work. At most ``MEEPLE_RATE_SIGNIN`` tries a client and ``MEEPLE_RATE_SIGNIN_USER``
    failures a username (429 with Retry-After)."""
    key = username_key(body.username)
    accounts.signin_allowed(client_of(request), key)
    found = await asyncio.to_thread(accounts.accounts.find, key)
    if not await accounts.verify(body.password, found[1] if found is not None else None,
                                 client_of(request)) or found is None:
        accounts.failed(key)
        raise HTTPException(401, WRONG)
    return await _signed_out(accounts, await accounts.open(request, response, found[0]))


@router.delete("/api/session")
async def sign_out(request: Request, response: Response, accounts: AccountsDep
                   ) -> dict[str, bool]:
    """Sign out: this session is revoked and its cookie cleared (also without one); its
    sockets close (4401), in every server process (the account's tables are announced)."""
    signed = await accounts.signed(request)
    if signed is not None:
        await asyncio.to_thread(accounts.accounts.revoke, signed.session.id)
        await accounts.signed_out(signed.account.id, signed.session.id)
        await asyncio.to_thread(accounts.accounts.tell_seats, signed.account.id)
    accounts.clear_cookie(request, response)
    return {"signed_out": True}


@router.post("/api/session/revoke-all")
async def sign_out_everywhere(request: Request, response: Response, accounts: AccountsDep,
                              svc: ServiceDep) -> dict[str, int]:
    """Sign out everywhere: every session of the account is revoked, this one too, and the
    secrets of the seats it holds at tables not finished (a secret kept on any device no
    longer opens them); every socket acting for those seats closes, in every process."""
    signed = await accounts.require(request)
    revoked = await asyncio.to_thread(accounts.accounts.revoke_all, signed.account.id)
    await accounts.signed_out(signed.account.id)
    tables = await asyncio.to_thread(accounts.accounts.revoke_seat_secrets, signed.account.id)
    for table_id in tables:
        await svc.holders_changed(table_id)
    accounts.clear_cookie(request, response)
    return {"revoked": revoked}


@router.get("/api/me")
async def me(request: Request, response: Response, accounts: AccountsDep) -> SignedOut:
    """The signed-in account, its settings and the session's CSRF token; 401 without a live
    session (its stale cookie cleared). The cookie's lifetime starts again."""
    got = await _session_now(request, response, accounts)
    if got is None:
        raise HTTPException(401, "not signed in (no live session): sign in with POST "
                                 "/api/session", headers=_cleared(response))
    return got


@router.get("/api/session")
async def session_now(request: Request, response: Response, accounts: AccountsDep
                      ) -> SignedOut | None:
    """What ``GET /api/me`` gives when signed in, and ``null`` (200) for a guest: what a page
    asks to know whether it is signed in, so a guest's page sees no refusal (a stale cookie
    is cleared)."""
    return await _session_now(request, response, accounts)


async def _session_now(request: Request, response: Response, accounts: AccountService
                       ) -> SignedOut | None:
    signed = await accounts.signed(request)
    if signed is None:
        if "meeple_session" in request.cookies:
            accounts.clear_cookie(request, response)
        return None
    if signed.token is None:
        accounts.set_cookie(request, response, request.cookies["meeple_session"])
    return await _signed_out(accounts, signed)


def _cleared(response: Response) -> dict[str, str]:
    """The cookie-clearing header ``response`` holds, if any (for an HTTPException, which
    does not send ``response``'s own headers)."""
    cookie = response.headers.get("set-cookie")
    return {"set-cookie": cookie} if cookie else {}


@router.patch("/api/me")
async def change_me(body: MePatch, request: Request, accounts: AccountsDep,
                    svc: ServiceDep) -> SignedOut:
    """Change the display name and some page settings (the others kept). The seats the
    account holds take the new name (docs/server.md, *Seat names*)."""
    signed = await accounts.require(request)
    settings = None
    if body.settings is not None:
        merged = _settings(signed.account.settings).model_dump()
        merged.update(body.settings.model_dump(exclude_none=True))
        settings = PageSettings(**merged).model_dump()
    account, renamed = await asyncio.to_thread(accounts.accounts.update, signed.account.id,
                                               body.display_name, settings)
    await _tell_renamed(svc, renamed)
    return await _signed_out(accounts, Signed(signed.session, account))


async def _tell_renamed(svc: Service, tables: Iterable[str]) -> None:
    """The clients of the tables where the account's seats were renamed (a new display name,
    or seats claimed into it) are sent the new names; a table nobody watches reads them from
    the store when it is opened."""
    for table_id in dict.fromkeys(tables):
        if table_id in svc.authority.runtimes:
            await svc.seats_changed(table_id)


async def _check_password(accounts: AccountService, signed: Signed, password: str,
                          client: str) -> None:
    """403 unless ``password`` is the account's (failures count as sign-ins' do)."""
    key = username_key(signed.account.username)
    accounts.password_allowed(key)
    stored = await asyncio.to_thread(accounts.accounts.password_hash, signed.account.id)
    if not await accounts.verify(password, stored, client):
        accounts.failed(key)
        raise HTTPException(403, "the password is not this account's; nothing was changed")


@router.post("/api/me/password")
async def change_password(body: PasswordChange, request: Request, response: Response,
                          accounts: AccountsDep) -> SignedOut:
    """Change the password (the old one first), or set one for an account that has none
    (it signs in with passkeys): every session of the account is revoked, and this browser
    gets a new one (its cookie and CSRF token in the answer). Every try counts under
    ``MEEPLE_RATE_PASSWORD`` for the account and for the client, and a client has at most
    ``MEEPLE_HASH_PER_CLIENT`` password hashes under way (429 with Retry-After beyond)."""
    signed = await accounts.require(request)
    new = checked_password(body.new_password, signed.account.username)
    client = client_of(request)
    accounts.password_change_allowed(signed.account.id, client)
    stored = await asyncio.to_thread(accounts.accounts.password_hash, signed.account.id)
    if stored is not None:
        if body.old_password is None:
            raise HTTPException(403, "give the password you have now (old_password) to change "
                                     "it; nothing was changed")
        await _check_password(accounts, signed, body.old_password, client)
    hashed = await accounts.hash(new, client)
    await asyncio.to_thread(accounts.accounts.set_password, signed.account.id, hashed)
    await accounts.signed_out(signed.account.id)
    return await _signed_out(accounts, await accounts.open(request, response, signed.account))


@router.post("/api/me/claim")
async def claim(body: ClaimSeats, request: Request, accounts: AccountsDep,
                svc: ServiceDep) -> Claimed:
    """Claim seats taken as a guest (the browser's localStorage keeps their secrets) into
    the account: each whose secret is right is the account's from now on and its secret is
    revoked (sockets that showed it close with 4403; the session plays it); the others are
    listed as refused, with why, and nothing is changed for them. A retry claims the seats
    this account holds already again."""
    signed = await accounts.require(request)
    done, refused = await asyncio.to_thread(
        accounts.accounts.claim, signed.account.id,
        [Claim(c.table, c.seat, c.secret) for c in body.seats])
    for table_id in sorted({t for t, _ in done}):
        await svc.holders_changed(table_id)
    await _tell_renamed(svc, [t for t, _ in done])  # a claimed seat bears the account's name
    return Claimed(claimed=[SeatRef(table=t, seat=s) for t, s in done],
                   refused=[SeatRefused(table=t, seat=s, reason=r) for t, s, r in refused])


class SeatsHeld(BaseModel):
    table: str
    seats: list[int] = Field(description="the seats the account holds at the table, in order")


@router.get("/api/me/tables/{table_id}/seats")
async def seats_at(table_id: str, request: Request, accounts: AccountsDep,
                   store: StoreDep) -> SeatsHeld:
    """The seats the signed-in account holds at one table (none: an empty list), so a page
    on another device plays the account's seat with no secret in its storage: the
    WebSocket hello then names the seat alone and the session is its proof."""
    signed = await accounts.require(request)
    await asyncio.to_thread(store.table, table_id)  # an unknown table: 404
    seats = await asyncio.to_thread(accounts.accounts.seats_at, signed.account.id, table_id)
    return SeatsHeld(table=table_id, seats=seats)


async def _turn(svc: Service, held: HeldTable) -> tuple[Turn | None, int, float | None]:
    """Whose turn it is at a table (a running one's position), its version, and the seconds
    the seat to move has left on its clock (None: none runs)."""
    t = held.table
    if t.status != RUNNING:
        return None, t.version, None
    rt = await svc.authority.runtime(t.id)
    seat = rt.state.to_move
    if seat is None or seat == CHANCE or not 0 <= seat < len(rt.table.seats):
        return None, rt.version, None
    left = rt.clock_left()
    return (Turn(seat=seat, name=rt.table.seats[seat].name), rt.version,
            None if left is None else round(left, 1))


async def _my_game(svc: Service, held: HeldTable) -> MyGame:
    t = held.table
    turn, version, left = await _turn(svc, held)
    return MyGame(table=t.id, game=t.game, title=meeple.game_info(t.game).title,
                  variant=t.variant, status=t.status, players=t.players,
                  seats=[s.name for s in t.seats], my_seat=held.seats[0] if held.seats else -1,
                  my_seats=list(held.seats), turn=turn,
                  my_turn=turn is not None and turn.seat in held.seats, version=version,
                  created=t.created.isoformat(), updated=t.updated.isoformat(), result=t.result,
                  pace=t.pace, clock=t.clock, left=left)


@router.get("/api/me/games")
async def my_games(request: Request, response: Response, accounts: AccountsDep,
                   svc: ServiceDep,
                   limit: int = Query(PAGE_DEFAULT, ge=1, le=PAGE_MAX,
                                      description="tables on this page"),
                   offset: int = Query(0, ge=0, le=MAX_PARAM,
                                       description="tables of the pages before, skipped"),
                   sort: Literal["updated", "turn"] = Query(
                       "updated", description="updated: newest change first; turn: the "
                       "tables where it is this account's turn first, then the others")
                   ) -> list[MyGame]:
    """Every table where the account holds a seat, newest change first (``sort=turn``: the
    account's turns first), a page of ``limit`` after the first ``offset``; the
    ``X-Total-Count`` header says how many in all."""
    signed = await accounts.require(request)
    aid = signed.account.id
    first: list[str] = []
    if sort == "turn":
        running, _ = await asyncio.to_thread(accounts.accounts.tables, aid, TURN_SCAN, 0,
                                             status=RUNNING)
        urgent: list[tuple[float, int, str]] = []
        for k, held in enumerate(running):  # (newest change first)
            turn, _, left = await _turn(svc, held)
            if turn is not None and turn.seat in held.seats:
                urgent.append((math.inf if left is None else left, k, held.table.id))
        # the account's turns with the least time left first (a clock's before none)
        first = [table for _, _, table in sorted(urgent)]
    page, total = await asyncio.to_thread(accounts.accounts.tables, aid, limit, offset, first)
    response.headers["X-Total-Count"] = str(total)
    return [await _my_game(svc, held) for held in page]


#: Tables read at a time while an export is written (its memory stays this size).
EXPORT_PAGE = 50


@router.get("/api/me/export", response_class=StreamingResponse, responses={
    200: {"content": {"application/json": {}}, "description": "the account's records"}})
async def export(request: Request, accounts: AccountsDep, svc: ServiceDep
                 ) -> StreamingResponse:
    """Everything kept about the account, as JSON: the account and its settings, its live
    sessions (when, and the browser's User-Agent), its passkeys (names and when; no key
    material), its e-mail address (whether verified, and which mails it asks for), its
    rating in each game it played rated with every rated game's change (the whole history),
    the seats it holds, each finished game's record (as ``GET
    /api/tables/{id}/record`` gives it) and its chat messages. Written as it is read,
    :data:`EXPORT_PAGE` tables at a time, so an account of any size exports in bounded
    memory; one export of an account at a time (429 while one is under way)."""
    signed = await accounts.require(request)
    aid = signed.account.id
    if aid in _exporting:
        raise HTTPException(429, "an export of this account is under way; wait for it to end")
    sessions = await asyncio.to_thread(accounts.accounts.sessions, aid)
    passkeys = await asyncio.to_thread(accounts.passkeys.of, aid)
    tokens = await asyncio.to_thread(accounts.tokens.of, aid)
    elsewhere = await asyncio.to_thread(_kept_elsewhere, accounts, aid)
    head = {
        "exported": now().isoformat(),
        "account": account_out(signed.account).model_dump(),
        "sessions": [{"created": x.created.isoformat(), "last_seen": x.last_seen.isoformat(),
                      "expires": x.expires.isoformat(), "user_agent": x.user_agent,
                      "this": x.id == signed.session.id} for x in sessions],
        "passkeys": [{"name": p.name, "created": p.created.isoformat(),
                      "last_used": p.last_used.isoformat() if p.last_used else None}
                     for p in passkeys],
        # the API tokens: names, scopes and dates, never a secret (none is kept)
        "tokens": [{"name": t.name, "scopes": list(t.scopes), "created": t.created.isoformat(),
                    "expires": t.expires.isoformat() if t.expires else None,
                    "last_used": t.last_used.isoformat() if t.last_used else None}
                   for t in tokens],
        **elsewhere,
        "ratings": await asyncio.to_thread(_ratings_kept, accounts, aid),
    }

    async def pages() -> AsyncIterator[list[HeldTable]]:
        offset = 0
        while True:
            page, _ = await asyncio.to_thread(accounts.accounts.tables, aid, EXPORT_PAGE,
                                              offset)
            if not page:
                return
            yield page
            offset += len(page)

    async def written() -> AsyncIterator[str]:
        _exporting.add(aid)
        try:
            yield json.dumps(head)[:-1] + ', "seats": ['
            sep = ""
            async for page in pages():
                for h in page:
                    for seat in h.seats:
                        yield sep + json.dumps({
                            "table": h.table.id, "seat": seat,
                            "name": h.table.seats[seat].name, "game": h.table.game,
                            "status": h.table.status, "updated": h.table.updated.isoformat()})
                        sep = ", "
            yield '], "games": ['
            sep = ""
            async for page in pages():
                for h in page:
                    if h.table.status == FINISHED:
                        record = await table_routes.record(h.table.id, svc)
                        yield sep + json.dumps(record)
                        sep = ", "
            yield "]}"
        finally:
            _exporting.discard(aid)

    return StreamingResponse(written(), media_type="application/json")


def _kept_elsewhere(accounts: AccountService, aid: str) -> dict[str, Any]:
    """The export's sections the other features write (``chat``: its messages, ``mail``: its
    address and preferences), as they registered them (:mod:`meeple.store.account_data`)."""
    with accounts.store.session() as s:
        return account_exported(s, aid)


def _ratings_kept(accounts: AccountService, aid: str) -> list[dict[str, Any]]:
    """The export's ``ratings``: per game played rated, the rating as shown and as kept
    (mu, sigma), and every rated game's before and after, oldest first."""
    ratings = Ratings(accounts.store)
    return [{"game": r.game, "rating": shown(r.mu, r.sigma), "mu": r.mu, "sigma": r.sigma,
             "games": r.games, "updated": r.updated.isoformat() if r.updated else None,
             "history": [{"table": p.table_id, "at": p.at.isoformat(), "place": p.place,
                          "players": p.players, "rating_before": shown(*p.before),
                          "rating_after": shown(*p.after), "mu_before": p.before[0],
                          "sigma_before": p.before[1], "mu_after": p.after[0],
                          "sigma_after": p.after[1]}
                         for p in ratings.history(aid, r.game, EXPORT_HISTORY)]}
            for r in ratings.of(aid)]


#: Rated games per game the export lists at most: every one an account can have played.
EXPORT_HISTORY = 10**9

#: The accounts whose export is being written by this process.
_exporting: set[str] = set()


@router.delete("/api/me")
async def delete_me(body: DeleteMe, request: Request, response: Response,
                    accounts: AccountsDep, svc: ServiceDep) -> dict[str, Any]:
    """Delete the account (its password first, or a passkey's answer): its seats at finished
    tables become "deleted player" (the records keep their moves); at a waiting table its
    seat opens again, at a running one its stand-in bot plays on under that name; its
    sessions, passkeys and held seats go; the username is free again. The cookie is
    cleared."""
    signed = await accounts.require(request)
    if body.passkey is not None:
        await verify_assertion(accounts, request, body.passkey, "confirm", signed.account.id)
    else:
        client = client_of(request)
        accounts.password_change_allowed(signed.account.id, client)
        await _check_password(accounts, signed, body.password or "", client)
    changed = await asyncio.to_thread(accounts.accounts.delete, signed.account.id)
    await accounts.signed_out(signed.account.id)
    for table_id in changed:
        if table_id in svc.authority.runtimes or (await asyncio.to_thread(svc.store.table, table_id)
                                        ).status == RUNNING:
            await svc.seats_changed(table_id)  # its clients told; a stand-in plays on
    accounts.clear_cookie(request, response)
    return {"deleted": True, "tables": len(changed)}


__all__ = ["PageSettings", "router"]

