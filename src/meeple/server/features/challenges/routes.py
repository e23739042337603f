"""Challenges: one account asks another (a person or a bot account) to a game; an accept
makes the table with both accounts seated (:mod:`meeple.server.features.challenges.store`).
A signed-in page acts with its session and CSRF token, a program with a bearer token that has
the ``challenge`` scope (the edge checks the scope); a bot account acts only with its token."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

import meeple
from meeple.bots.limits import client_spec
from meeple.bots.ratings import RATED_BOTS, rated_bot
from meeple.server.features.accounts.sessions import AccountsDep, Signed, username_key
from meeple.server.features.challenges import store as challenges
from meeple.server.features.challenges.store import (
    CANCELED,
    DECLINED,
    Challenge,
    NotOpen,
    TooManyOpen,
    challenge_json,
)
from meeple.server.site import site_of
from meeple.server.table.checks import BadInput, checked_text, checked_variant
from meeple.server.table.pace import MOVE_DEFAULT, MOVE_MAX, MOVE_MIN
from meeple.server.table.protocol import LIVE_MAX

router = APIRouter()

#: How long a challenge waits for its answer: a live game's people are at their screens, a
#: turn-based game's answer may come days later (as Lichess's correspondence challenges).
LASTS = {"live": timedelta(minutes=15), "turn-based": timedelta(days=7)}
#: The most open challenges an account may have made at once.
MAX_OPEN = 10
#: Why a challenge may be declined (the page says each in words).
REASONS = ("generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual",
           "variant", "noBot", "onlyBot")
#: The shortest live clock, in seconds a decision (as a table's).
LIVE_MIN = 5


class ChallengeAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: str = Field(min_length=1, max_length=120, description="the challenged account's username")
    game: str = Field(min_length=1, max_length=40, description="a game name, see GET /api/games")
    variant: dict[str, Any] = Field(default_factory=dict, description="the game's options")
    seats: int = Field(2, ge=2, le=8, description="the table's seats (the variant's count)")
    challenger_seat: int | None = Field(None, ge=0, le=7, description=(
        "the seat the challenger takes (0-based); null: drawn when the table is made"))
    others: list[str | None] = Field(default_factory=list, max_length=6, description=(
        "who fills each seat beyond the two accounts, in seat order: a bot spec, or null for a "
        "seat left open to anyone"))
    pace: Literal["live", "turn-based"] = Field("live", description=(
        "live: played at one sitting; turn-based: each move may take hours or days"))
    clock: int | None = Field(None, description=(
        "live: seconds per decision (5 to 86400; null: no clock); turn-based: seconds per "
        "move (3600 to 604800; null: a day)"))
    rated: StrictBool = Field(False, description="a rated game (docs/ratings.md)")


class DeclineAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field("generic", max_length=40, description=f"one of {', '.join(REASONS)}")


def _checked_clock(pace: str, clock: int | None) -> int | None:
    """A live challenge's clock (5 s to a day a decision, or none), a turn-based one's (an
    hour to 7 days a move, a day by default), as a table's; else 422 saying what is allowed."""
    if pace == "live":
        if clock is not None and not LIVE_MIN <= clock <= LIVE_MAX:
            raise BadInput(f"clock: a live game's clock is {LIVE_MIN} to {LIVE_MAX} seconds a "
                           f"decision, or null for none; not {clock}")
        return clock
    clock = MOVE_DEFAULT if clock is None else clock
    if not MOVE_MIN <= clock <= MOVE_MAX:
        raise BadInput(f"clock: a turn-based game gives each move {MOVE_MIN} to {MOVE_MAX} "
                       f"seconds (an hour to 7 days), not {clock}")
    return clock


def _checked_table(body: ChallengeAsk) -> tuple[str, dict[str, Any], list[str | None]]:
    """The game (as the registry names it), the variant and the extra seats' specs, each
    checked as a new table's: a game of the registry, its offered variant values, the
    variant's seat count, known bots within the server's limits; 404/422 otherwise."""
    try:
        info = meeple.game_info(body.game)
    except Exception:
        raise HTTPException(404, f"no game {body.game!r}; games: "
                                 f"{', '.join(g.name for g in meeple.games())}") from None
    if not max(2, info.min_players) <= body.seats <= info.max_players:
        raise BadInput(f"seats: {info.title} is played by {max(2, info.min_players)} to "
                       f"{info.max_players} at a challenge's table, not {body.seats}")
    variant = checked_variant(info.name, body.variant)
    if variant.get("challenge") is not None:
        raise BadInput("variant: a solo challenge is played alone, not at a challenge's table")
    try:
        meeple.new_game(info.name, players=body.seats, **variant)
    except Exception as exc:
        raise BadInput(f"variant: {info.title} with {json.dumps(variant)[:200]} cannot be "
                       f"played by {body.seats}: {exc}") from None
    if len(body.others) != body.seats - 2:
        raise BadInput(f"others: a table of {body.seats} seats has {body.seats - 2} beyond "
                       f"the two accounts, so others lists {body.seats - 2} (a bot spec or "
                       f"null each), not {len(body.others)}")
    if body.challenger_seat is not None and body.challenger_seat >= body.seats:
        raise BadInput(f"challenger_seat: 0 to {body.seats - 1} (or null: drawn), not "
                       f"{body.challenger_seat}")
    others: list[str | None] = []
    for i, spec in enumerate(body.others):
        if spec is None:
            others.append(None)
            continue
        try:
            others.append(client_spec(spec, info.name))
        except Exception as exc:
            raise BadInput(f"others[{i}]: {exc}") from None
    return info.name, variant, others


def rated_challenge_problem(others: list[str | None]) -> str | None:
    """Why a challenge cannot be rated, as the ratings say of a table (docs/ratings.md): its
    two accounts are people's seats; every extra seat is a rated difficulty's bot or left
    open (then only a signed-in account can take it); None when it can."""
    for i, spec in enumerate(others):
        if spec is not None and not rated_bot(spec):
            return (f"others[{i}]: a rated table's bots are the named difficulties "
                    f"({', '.join(RATED_BOTS)}), not {spec!r}; or make it casual (rated: false)")
    return None


def _acting(signed: Signed) -> None:
    """A bot account acts on challenges through its token only (as it plays)."""
    if signed.token is None and signed.account.bot:
        raise HTTPException(403, "this is a bot account: it makes and answers challenges only "
                                 "through the API, with a token that has the 'challenge' scope "
                                 "(Authorization: Bearer mpl_...), never from a signed-in page")


async def _challenge(request: Request, challenge_id: str) -> Challenge:
    checked_text(challenge_id, "challenge id", 32)
    found = await asyncio.to_thread(challenges.find_challenge, site_of(request).store,
                                    challenge_id)
    if found is None:
        raise HTTPException(404, f"no challenge {challenge_id!r}")
    return found


def _party(c: Challenge, signed: Signed) -> None:
    if signed.account.id not in (c.challenger_id, c.challenged_id):
        raise HTTPException(404, f"no challenge {c.id!r} to or from you")


async def _json(request: Request, c: Challenge) -> dict[str, Any]:
    return await asyncio.to_thread(challenge_json, site_of(request).store, c)


async def _answering(request: Request, accounts: AccountsDep, challenge_id: str,
                     challenger: bool, doing: str) -> tuple[Signed, Challenge]:
    """The signed-in account and the challenge it may act on: made by it (``challenger``:
    cancel) or made to it (accept, decline); 403 for the other side, 404 for anyone else."""
    signed = await accounts.require(request)
    _acting(signed)
    c = await _challenge(request, challenge_id)
    _party(c, signed)
    if challenger and c.challenger_id != signed.account.id:
        raise HTTPException(403, f"challenge {c.id} was made to you: only its challenger can "
                                 f"{doing} it (you may decline it)")
    if not challenger and c.challenged_id != signed.account.id:
        raise HTTPException(403, f"challenge {c.id} is yours: only the account it was made to "
                                 f"can {doing} it (you may cancel it)")
    return signed, c


def _not_open(c: Challenge, doing: str) -> HTTPException:
    why = {"accepted": "it was accepted already", "declined": f"it was declined ({c.reason})",
           "canceled": "its challenger canceled it", "expired": "it expired unanswered at "
           f"{c.expires.isoformat(timespec='seconds')}"}.get(c.state, c.state)
    return HTTPException(409, f"challenge {c.id} is {c.state}: {why}; only an open challenge "
                              f"can be {doing}")


@router.post("/api/challenges", status_code=201)
async def make_challenge(body: ChallengeAsk, request: Request, accounts: AccountsDep
                         ) -> dict[str, Any]:
    """Challenge an account (a person or a bot account) to a game: it stays open until the
    challenged account accepts or declines it, the challenger cancels it, or it expires
    (15 minutes live, 7 days turn-based). At most 10 open challenges made an account."""
    signed = await accounts.require(request)
    _acting(signed)
    game, variant, others = _checked_table(body)
    clock = _checked_clock(body.pace, body.clock)
    if body.rated and (problem := rated_challenge_problem(others)) is not None:
        raise BadInput(problem)
    checked_text(body.to, "to (a username)", 120)
    to = await asyncio.to_thread(accounts.accounts.by_username, username_key(body.to))
    if to is None:
        raise HTTPException(404, f"no account {body.to[:60]!r} (a deleted account cannot be "
                                 "challenged)")
    if to.id == signed.account.id:
        raise BadInput("to: you cannot challenge yourself; name another account")
    store = site_of(request).store
    try:
        made = await asyncio.to_thread(
            challenges.make_challenge, store, signed.account.id, to.id, game, variant,
            body.seats, body.challenger_seat, others, body.pace, clock, body.rated,
            LASTS[body.pace], MAX_OPEN)
    except TooManyOpen as exc:
        raise HTTPException(429, f"you have {exc.held} open challenges, the most an account "
                                 f"may ({MAX_OPEN}): cancel one or wait for answers") from None
    if body.pace == "turn-based":  # its account may not be there: told by mail, if it asks
        title = meeple.game_info(game).title
        site_of(request).notifier.challenge_made(
            made.id, to.id, signed.account.username,
            f"{title} ({', '.join(f'{k} {v}' for k, v in variant.items()) or 'standard'}), "
            f"{body.seats} seats, {'rated' if body.rated else 'casual'}")
    return {"challenge": await _json(request, made)}


@router.get("/api/challenges")
async def list_challenges(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """Your open challenges: ``incoming`` (to you) and ``outgoing`` (yours), oldest first."""
    signed = await accounts.require(request)
    store = site_of(request).store
    mine = await asyncio.to_thread(challenges.open_challenges, store, signed.account.id)
    shown = [await _json(request, c) for c in mine]
    return {"incoming": [j for c, j in zip(mine, shown, strict=True)
                         if c.challenged_id == signed.account.id],
            "outgoing": [j for c, j in zip(mine, shown, strict=True)
                         if c.challenger_id == signed.account.id]}


@router.get("/api/challenges/players/{table_id}")
async def table_players(table_id: str, request: Request) -> dict[str, Any]:
    """The accounts seated at a table, to challenge from its page: ``players``, each with
    ``seat``, ``name`` (the seat's), ``username`` and ``bot_account`` (a guest's or a bot
    difficulty's seat is not listed). Anyone may ask, as a profile's games are public."""
    checked_text(table_id, "table id", 32)
    players = await asyncio.to_thread(challenges.seated_accounts, site_of(request).store,
                                      table_id)
    return {"table": table_id, "players": players}


@router.get("/api/challenges/{challenge_id}")
async def get_challenge(challenge_id: str, request: Request, accounts: AccountsDep
                        ) -> dict[str, Any]:
    """One challenge to or from you, in any state (the challenger's page watches it turn
    ``accepted``, then follows ``url``)."""
    signed = await accounts.require(request)
    c = await _challenge(request, challenge_id)
    _party(c, signed)
    return {"challenge": await _json(request, c)}


@router.post("/api/challenges/{challenge_id}/accept")
async def accept_challenge(challenge_id: str, request: Request, accounts: AccountsDep
                           ) -> dict[str, Any]:
    """Accept a challenge made to you: the table is made and both accounts hold their seats
    (their sessions or tokens play them). A retried accept answers the same table."""
    signed, c = await _answering(request, accounts, challenge_id, False, "accept")
    site = site_of(request)
    if c.state != challenges.ACCEPTED:
        if c.state != challenges.OPEN:
            raise _not_open(c, "accepted")
        try:
            c, made = await asyncio.to_thread(challenges.accept_challenge, site.store, c)
        except NotOpen as exc:
            raise _not_open(exc.challenge, "accepted") from None
        if made and c.table_id is not None:
            await site.service.seats_changed(c.table_id)
    assert c.table_id is not None
    seat = await asyncio.to_thread(challenges.seat_of, site.store, c.table_id, signed.account.id)
    return {"challenge": await _json(request, c), "table": c.table_id, "seat": seat,
            "url": f"/t/{c.table_id}"}


@router.post("/api/challenges/{challenge_id}/decline")
async def decline_challenge(challenge_id: str, request: Request, accounts: AccountsDep,
                            body: DeclineAsk | None = None) -> dict[str, Any]:
    """Decline a challenge made to you, with a reason (one of a fixed list; default
    ``generic``) its challenger is shown."""
    reason = body.reason if body is not None else "generic"
    if reason not in REASONS:
        raise BadInput(f"reason: one of {', '.join(REASONS)}; not {reason[:40]!r}")
    _, c = await _answering(request, accounts, challenge_id, False, "decline")
    try:
        c = await asyncio.to_thread(challenges.close_challenge, site_of(request).store, c.id,
                                    DECLINED, reason)
    except NotOpen as exc:
        raise _not_open(exc.challenge, "declined") from None
    return {"challenge": await _json(request, c)}


@router.post("/api/challenges/{challenge_id}/cancel")
async def cancel_challenge(challenge_id: str, request: Request, accounts: AccountsDep
                           ) -> dict[str, Any]:
    """Take back a challenge you made, while it is open."""
    _, c = await _answering(request, accounts, challenge_id, True, "cancel")
    try:
        c = await asyncio.to_thread(challenges.close_challenge, site_of(request).store, c.id,
                                    CANCELED)
    except NotOpen as exc:
        raise _not_open(exc.challenge, "canceled") from None
    return {"challenge": await _json(request, c)}
