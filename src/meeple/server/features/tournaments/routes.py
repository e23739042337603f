"""Tournaments' routes: list, create, read, join, withdraw, cancel. A signed-in account (a
cookie session with its CSRF token, or a bearer token with the ``tournament`` scope) makes and
enters them; anyone reads them. The scheduler (:mod:`.service`) runs them."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictBool, StrictInt

import meeple
from meeple.server.features.accounts.sessions import AccountsDep, Signed
from meeple.server.features.tournaments.store import TournamentError, Tournaments
from meeple.server.site import site_of
from meeple.server.table.checks import checked_variant
from meeple.server.table.pace import MOVE_DEFAULT, MOVE_MAX, MOVE_MIN
from meeple.store import Store
from meeple.store.ratings import Ratings

router = APIRouter()

#: Bounds of what a tournament may ask for (each refusal names them).
MOST_ROUNDS = 20
#: An Arena's window: 30 seconds (short ones are for trying it) to a day.
SHORTEST_ARENA, LONGEST_ARENA = 30, 86_400
#: How far ahead a tournament may start.
FURTHEST_START = timedelta(days=30)
#: A live tournament's turn clock: 5 s to an hour a decision; 60 s if none is given.
LIVE_CLOCK_MIN, LIVE_CLOCK_MAX, LIVE_CLOCK_DEFAULT = 5, 3600, 60
#: Entrants of one tournament at most (a round of 64 at two seats pairs in under a second).
MOST_ENTRANTS = 64
#: Upcoming tournaments one account may have made at once.
MOST_UPCOMING = 5
#: Finished tournaments the lobby's list shows.
FINISHED_LISTED = 20


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=80, description="what the lobby calls it")
    kind: Literal["swiss", "arena", "round-robin"]
    game: str = Field(min_length=1, max_length=40, description="a game name, GET /api/games")
    variant: dict[str, Any] = Field(default_factory=dict, description="the game's options")
    seats: StrictInt = Field(2, description="seats at every table: 2 to 4, as the game allows")
    pace: Literal["live", "turn-based"] = "live"
    clock: StrictInt | None = Field(None, description=(
        f"live: seconds a decision, {LIVE_CLOCK_MIN} to {LIVE_CLOCK_MAX} (default "
        f"{LIVE_CLOCK_DEFAULT}); turn-based: seconds a move, {MOVE_MIN} to {MOVE_MAX} "
        f"(default a day)"))
    rated: StrictBool = True
    bots: StrictBool = Field(False, description="whether bot accounts may enter")
    starts: AwareDatetime = Field(description="when it starts (ISO 8601 with its time zone; "
                                              "now to 30 days ahead)")
    rounds: StrictInt | None = Field(None, description=f"a Swiss's rounds, 1 to {MOST_ROUNDS}")
    duration: StrictInt | None = Field(None, description=(
        f"an Arena's window in seconds, {SHORTEST_ARENA} to {LONGEST_ARENA}"))


def _tournament_id(tournament_id: str) -> str:
    """A tournament's id from the path, checked before any query: the store makes them of
    hex digits, so anything else (a NUL, a megabyte) is a tournament that does not exist,
    404, and never reaches the database."""
    if len(tournament_id) > 32 or not re.fullmatch(r"[0-9a-f]+", tournament_id):
        raise HTTPException(404, f"no tournament {tournament_id[:40]!r}: ids are hex digits, "
                                 "as GET /api/tournaments lists them")
    return tournament_id


TournamentId = Annotated[str, Depends(_tournament_id)]

def _tournaments(request: Request) -> Tournaments:
    return Tournaments(site_of(request).store)


def checked(body: CreateTournament, when: datetime) -> dict[str, Any]:
    """The row's fields of a tournament asked for, or 422 naming the field and what it may
    be. The variant is checked against the game's registry (never a path)."""
    name = " ".join(body.name.split())
    if not name or not name.isprintable():
        raise HTTPException(422, "name: 1 to 80 printable characters, not only spaces")
    try:
        info = meeple.game_info(body.game)
    except meeple.MeepleError:
        raise HTTPException(422, f"game: no game {body.game[:40]!r}; games: "
                                 f"{', '.join(g.name for g in meeple.games())}") from None
    low, high = max(2, info.min_players), min(4, info.max_players)
    if not low <= body.seats <= high:
        raise HTTPException(422, f"seats: a {info.title} tournament table has {low} to {high} "
                                 f"seats, not {body.seats}")
    variant = checked_variant(info.name, body.variant)
    meeple.new_game(info.name, players=body.seats, **variant)  # refuses a bad variant (422)
    clock = _checked_clock(body.pace, body.clock)
    starts = _checked_start(body.starts, when)
    _check_length(body.kind, body.rounds, body.duration)
    return {"name": name, "kind": body.kind, "game": info.name, "variant": variant,
            "seats": body.seats, "pace": body.pace, "clock": clock, "rated": body.rated,
            "bots": body.bots, "starts": starts, "rounds": body.rounds, "duration": body.duration}


def _checked_clock(pace: str, clock: int | None) -> int:
    """The clock of a tournament's tables: a live one's seconds a decision, a turn-based
    one's seconds a move (the default when none is given), or 422 naming the range."""
    if pace == "live":
        clock = LIVE_CLOCK_DEFAULT if clock is None else clock
        if not LIVE_CLOCK_MIN <= clock <= LIVE_CLOCK_MAX:
            raise HTTPException(422, f"clock: a live tournament gives {LIVE_CLOCK_MIN} to "
                                     f"{LIVE_CLOCK_MAX} seconds a decision, not {clock}")
        return clock
    clock = MOVE_DEFAULT if clock is None else clock
    if not MOVE_MIN <= clock <= MOVE_MAX:
        raise HTTPException(422, f"clock: a turn-based tournament gives {MOVE_MIN} to "
                                 f"{MOVE_MAX} seconds a move, not {clock}")
    return clock


def _checked_start(asked: datetime, when: datetime) -> datetime:
    """The start in UTC, from now (a few seconds of clock skew allowed) to 30 days ahead, or
    422."""
    try:
        starts = asked.astimezone(UTC)
    except (OverflowError, ValueError):
        raise HTTPException(422, "starts: a time from now to 30 days ahead") from None
    if starts < when - timedelta(seconds=5):
        raise HTTPException(422, f"starts: {starts.isoformat()} is in the past; a tournament "
                                 "starts from now to 30 days ahead")
    if starts > when + FURTHEST_START:
        raise HTTPException(422, "starts: at most 30 days ahead")
    return starts


def _check_length(kind: str, rounds: int | None, duration: int | None) -> None:
    """A Swiss has rounds, an Arena a duration, a round robin neither; 422 otherwise."""
    if kind == "swiss":
        if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
            raise HTTPException(422, f"rounds: a Swiss has 1 to {MOST_ROUNDS} rounds, not "
                                     f"{rounds}")
        if duration is not None:
            raise HTTPException(422, "duration: only an Arena has one (a Swiss has rounds)")
    elif kind == "arena":
        if duration is None or not SHORTEST_ARENA <= duration <= LONGEST_ARENA:
            raise HTTPException(422, f"duration: an Arena lasts {SHORTEST_ARENA} to "
                                     f"{LONGEST_ARENA} seconds, not {duration}")
        if rounds is not None:
            raise HTTPException(422, "rounds: only a Swiss has them (an Arena has a duration)")
    elif rounds is not None or duration is not None:
        raise HTTPException(422, "rounds, duration: a round robin has neither (everyone "
                                 "meets everyone)")


def entry_rating(store: Store, account_id: str, game: str) -> float:
    """The account's rating in the game as players see it (1500 for a new player): what a
    tournament pairs by and breaks its last tie with."""
    return Ratings(store).shown_in(account_id, game)


def _refused(exc: TournamentError) -> HTTPException:
    return HTTPException(exc.status, exc.detail)


async def _acting(request: Request, accounts: AccountsDep) -> Signed:
    """The signed-in account; a bot account acts only with its token (never a cookie)."""
    signed = await accounts.require(request)
    if signed.account.bot and signed.token is None:
        raise HTTPException(403, "a bot account acts only through the API with a token, "
                                 "not with the pages' session")
    return signed


@router.get("/api/tournaments")
async def list_tournaments(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """The lobby's lists: ``upcoming`` (soonest first, taking entries), ``running``, and the
    last 20 ``finished`` (a cancelled one says why in ``cancelled``); signed in, ``mine``:
    the ids of those not over that the account is in."""
    t = _tournaments(request)
    out: dict[str, Any] = await asyncio.to_thread(t.listing, FINISHED_LISTED)
    signed = await accounts.signed(request)
    out["mine"] = ([] if signed is None
                   else await asyncio.to_thread(t.entered, signed.account.id))
    return out


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: CreateTournament, request: Request,
                            accounts: AccountsDep) -> dict[str, Any]:
    """Make a tournament (signed in): ``{name, kind: swiss|arena|round-robin, game, variant,
    seats, pace, clock?, rated, bots, starts, rounds (Swiss) | duration (Arena)}``. 201 with
    it as ``GET /api/tournaments/{id}`` answers. Its creator does not enter by making it."""
    signed = await _acting(request, accounts)
    fields = checked(body, datetime.now(UTC))
    try:
        made = await asyncio.to_thread(_tournaments(request).create, signed.account.id,
                                       MOST_UPCOMING, **fields)
        return await asyncio.to_thread(_tournaments(request).detail, made)
    except TournamentError as exc:
        raise _refused(exc) from None


@router.get("/api/tournaments/{tournament_id}")
async def get_tournament(tournament_id: TournamentId, request: Request,
                         accounts: AccountsDep) -> dict[str, Any]:
    """A tournament: ``tournament`` (its settings and state), ``entries`` (BOT-marked,
    withdrawn or not), ``rounds`` (each with its ``pairings``: a table with its players and
    their places once finished, or a ``bye``) and ``standings`` from the stored games;
    signed in, ``me``: whether the reader is in, withdrew, made it."""
    try:
        out = await asyncio.to_thread(_tournaments(request).detail, tournament_id)
    except TournamentError as exc:
        raise _refused(exc) from None
    signed = await accounts.signed(request)
    if signed is not None:  # the page's buttons: whether the reader is in, and its creator
        mine = [e for e in out["entries"] if e["name"] == signed.account.username]
        creator = out["tournament"]["creator"]
        out["me"] = {"name": signed.account.username, "entered": bool(mine),
                     "withdrawn": bool(mine) and mine[0]["withdrawn"],
                     "creator": creator is not None
                     and creator["name"] == signed.account.username}
    return out


@router.post("/api/tournaments/{tournament_id}/join")
async def join_tournament(tournament_id: TournamentId, request: Request,
                          accounts: AccountsDep) -> dict[str, Any]:
    """Enter (until it starts; an Arena until its window closes; a bot account where bots
    are allowed). Entering twice changes nothing (``joined: false``)."""
    signed = await _acting(request, accounts)
    t = _tournaments(request)
    try:
        game = (await asyncio.to_thread(t.detail, tournament_id))["tournament"]["game"]
        rating = await asyncio.to_thread(entry_rating, t.store, signed.account.id, game)
        joined = await asyncio.to_thread(t.join, tournament_id, signed.account.id,
                                         signed.account.bot, rating, MOST_ENTRANTS)
    except TournamentError as exc:
        raise _refused(exc) from None
    return {"joined": joined, "rating": round(rating)}


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw_tournament(tournament_id: TournamentId, request: Request,
                              accounts: AccountsDep) -> dict[str, bool]:
    """Leave: before the start the entry goes; once running the account is paired no more
    (its games, and any it is playing, stay). ``withdrawn: false`` if it was not in."""
    signed = await _acting(request, accounts)
    try:
        done = await asyncio.to_thread(_tournaments(request).withdraw, tournament_id,
                                       signed.account.id)
    except TournamentError as exc:
        raise _refused(exc) from None
    return {"withdrawn": done}


@router.post("/api/tournaments/{tournament_id}/cancel")
async def cancel_tournament(tournament_id: TournamentId, request: Request,
                            accounts: AccountsDep) -> dict[str, bool]:
    """Its creator calls it off before it starts (it is listed as finished, cancelled)."""
    signed = await _acting(request, accounts)
    try:
        await asyncio.to_thread(_tournaments(request).cancel, tournament_id, signed.account.id)
    except TournamentError as exc:
        raise _refused(exc) from None
    return {"cancelled": True}
