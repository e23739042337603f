"""Players' public profiles: ``/api/users/{username}`` (the games an account played
per game and variant, its wins and its recent games), its Pergola solo achievement table by
account, and the one-time claim of the solo games a guest kept under a seat name.
``src/meeple/server/features/profiles/README.md`` says what each route does and what was chosen."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

import meeple
from meeple.core.state import places_by_total
from meeple.server.deps import CachesDep, StoreDep
from meeple.server.features.accounts.sessions import USERNAME_RULE, AccountsDep, AccountService, username_key
from meeple.server.features.accounts.store import (
    DELETED_PLAYER,
    Account,
    PlayedSeat,
    PlayedTable,
    claimable_name,
)
from meeple.server.features.solo.routes import solo_game, solo_table, utc
from meeple.server.quotas import ThrottledRoute
from meeple.server.table.checks import MAX_PARAM, BadInput, checked_name
from meeple.store import BOT

router = APIRouter(route_class=ThrottledRoute)

#: Recent games a page of the profile lists at most, and by default.
RECENT_MAX, RECENT_DEFAULT = 50, 10
#: The newest finished games an account's numbers are counted over (a profile is one cheap
#: request for anyone, so its work is bounded).
STATS_SCAN = 10_000
#: What a private (unlisted) table's other people are called on a profile.
UNLISTED = "unlisted player"


# ------------------------------------------------------------------------------ models
class GameStats(BaseModel):
    game: str
    title: str
    variant: dict[str, Any]
    solo: bool = Field(description="one seat: a solo game (no wins counted; see the "
                                   "achievement table)")
    played: int = Field(description="finished games played to their end")
    wins: int | None = Field(description="first places played to the end (a shared first "
                                         "place included; a seat that conceded or left never "
                                         "wins); null "
                                         "for solo games")
    win_rate: float | None = Field(description="wins / played (0 to 1); null for solo games")
    best: int = Field(description="the best score")


class Player(BaseModel):
    seat: int
    name: str = Field(description="the account's display name where an account holds the "
                                  "seat, else the seat's name ('deleted player' for a deleted "
                                  "account; 'unlisted player' for another person at a private "
                                  "table)")
    username: str | None = Field(description="the account holding the seat (its profile), "
                                             "or null")
    bot: bool = Field(description="a bot's seat")
    place: int = Field(description="1 for first; seats with equal scores share a place, and "
                                   "a seat that conceded or left the game is placed below "
                                   "every seat that played on (the first to forfeit last)")
    score: int
    this: bool = Field(description="a seat of the profile's account")


class RecentGame(BaseModel):
    table: str | None = Field(description="the table id (its replay: /t/<id>?replay); null "
                                          "for a private table")
    game: str
    title: str
    variant: dict[str, Any]
    solo: bool
    players: list[Player]
    seat: int = Field(description="the (first) seat the account held")
    place: int
    score: int
    won: bool | None = Field(description="first place (shared or not) and played to the end "
                                         "(a seat that conceded or left never wins); null for "
                                         "a solo game")
    finished: str


class Profile(BaseModel):
    username: str
    display_name: str
    bot_account: bool = Field(False, description="a bot account (a program that plays through "
                                                 "the API): shown BOT")
    member_since: str
    played: int
    wins: int
    stats: list[GameStats] = Field(description="per game and variant, most played first")
    recent: list[RecentGame] = Field(description="a page of the finished games, newest first")
    recent_total: int
    limit: int
    offset: int


class NameClaimBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=240,
                      description="the seat name the solo games were played under, exactly")
    game: str | None = Field(None, max_length=40, description="the game (by default the one "
                                                              "game keeping solo tables)")


class NameClaimOut(BaseModel):
    name: str
    game: str
    claimed: int = Field(description="how many tables are the account's now")
    tables: list[str]


# ------------------------------------------------------------------------------ answers
async def account_of(accounts: AccountService, username: str) -> Account:
    """The live account of ``username`` (any case); 404 for none or a deleted one."""
    if not 0 < len(username) <= 120:
        raise BadInput(f"the username in the address has {len(username)} characters; "
                       f"{USERNAME_RULE}")
    checked_name(username, "the username in the address", 120)  # (control characters,
    # invisible ones, lone surrogates: 422)
    found = await asyncio.to_thread(accounts.accounts.by_username, username_key(username))
    if found is None:
        raise HTTPException(404, f"no player has the username {username[:40]!r} (nobody "
                                 "signed up under it, or the account was deleted)")
    return found


def won(place: int, forfeited: bool) -> bool:
    """Whether a seat's game counts as a win on its profile: first place (shared or not),
    played to the end. A seat that conceded or left is never a win: it is placed below the
    seats that played on, and when all gave up, the last to go is first in the ratings
    without winning a game it did not finish."""
    return place == 1 and not forfeited


def _total(score: Any) -> int:
    if isinstance(score, dict) and isinstance(score.get("total"), int):
        return int(score["total"])
    return 0


def stats(seats: list[PlayedSeat]) -> tuple[list[GameStats], int, int]:
    """The numbers per game and variant (solo games apart) over the account's seats, and the
    games and wins in all. A table where the account held several seats counts once, at its
    best place."""
    best_seat: dict[str, PlayedSeat] = {}
    for s in seats:
        if not 0 <= s.seat < len(s.result):
            continue
        held = best_seat.get(s.table_id)
        if held is None or s.places()[s.seat] < held.places()[held.seat]:
            best_seat[s.table_id] = s
    rows: dict[tuple[str, str, bool], dict[str, Any]] = {}
    for s in best_seat.values():
        solo = s.players == 1
        key = (s.game, json.dumps(s.variant, sort_keys=True), solo)
        row = rows.setdefault(key, {"game": s.game, "variant": s.variant, "solo": solo,
                                    "played": 0, "wins": 0, "best": None})
        row["played"] += 1
        score = _total(s.result[s.seat])
        row["best"] = score if row["best"] is None else max(row["best"], score)
        gave_up = s.seat < len(s.forfeits) and s.forfeits[s.seat] is not None
        if not solo and won(s.places()[s.seat], gave_up):
            row["wins"] += 1
    out = []
    for row in rows.values():
        solo = row["solo"]
        out.append(GameStats(
            game=row["game"], title=_title(row["game"]), variant=row["variant"], solo=solo,
            played=row["played"], wins=None if solo else row["wins"],
            win_rate=None if solo else round(row["wins"] / row["played"], 3),
            best=row["best"]))
    out.sort(key=lambda r: (-r.played, r.game, json.dumps(r.variant, sort_keys=True), r.solo))
    return (out, len(best_seat),
            sum(r.wins or 0 for r in out))


def _title(game: str) -> str:
    try:
        return meeple.game_info(game).title
    except Exception:  # a game no longer installed: its name
        return game


def recent(played: PlayedTable, account: Account) -> RecentGame:
    """One finished game of the account as its profile lists it."""
    t = played.table
    result = t.result or []
    place = t.places() or places_by_total([_total(r) for r in result])
    public = t.public
    players = []
    for s in t.seats:
        mine = s.index in played.seats
        holder = played.holders.get(s.index)
        if s.kind == BOT:
            name, username = s.name, None
        elif mine:
            name, username = account.display_name, account.username
        elif not public:
            name, username = UNLISTED, None
        elif holder is not None:
            username, name = holder
        else:
            name, username = s.name, None  # a guest's seat name ('deleted player' included)
        players.append(Player(seat=s.index, name=name or DELETED_PLAYER, username=username,
                              bot=s.kind == BOT,
                              place=place[s.index] if s.index < len(place) else len(place),
                              score=_total(result[s.index]) if s.index < len(result) else 0,
                              this=mine))
    own = [p for p in players if p.this] or players[:1]
    me = min(own, key=lambda p: p.place)
    gave_up = me.seat < len(t.seats) and t.seats[me.seat].forfeit
    solo = t.players == 1
    return RecentGame(table=t.id if public else None, game=t.game, title=_title(t.game),
                      variant=t.variant, solo=solo, players=players, seat=me.seat,
                      place=me.place, score=me.score,
                      won=None if solo else won(me.place, gave_up),
                      finished=utc(t.updated).isoformat())


# ------------------------------------------------------------------------------ routes
@router.get("/api/users/{username}")
async def profile(username: str, accounts: AccountsDep,
                  limit: int = Query(RECENT_DEFAULT, ge=1, le=RECENT_MAX,
                                     description="recent games on this page"),
                  offset: int = Query(0, ge=0, le=MAX_PARAM,
                                      description="recent games of the pages before, skipped")
                  ) -> Profile:
    """A player's public profile: display name, member since, per game and variant the
    finished games played and won (a shared first place is a win; solo games are counted,
    without wins), and a page of the recent games with each player's place and score. A
    private table counts, without its id and without the other people's names. 404 for no
    such account, or a deleted one."""
    account = await account_of(accounts, username)
    seats = await asyncio.to_thread(accounts.accounts.played_seats, account.id, STATS_SCAN)
    rows, played, wins = stats(seats)
    page, total = await asyncio.to_thread(accounts.accounts.played_page, account.id, limit,
                                          offset)
    return Profile(username=account.username, display_name=account.display_name,
                   bot_account=account.bot, member_since=account.created.isoformat(),
                   played=played, wins=wins,
                   stats=rows, recent=[recent(p, account) for p in page],
                   recent_total=total, limit=limit, offset=offset)


@router.get("/api/users/{username}/solo")
async def user_solo(username: str, accounts: AccountsDep, store: StoreDep, caches: CachesDep,
                    game: str | None = Query(
                        None, max_length=40,
                        description="the game (by default the one game keeping such tables)")
                    ) -> dict[str, Any]:
    """A player's solo achievement table by account: as ``GET /api/solo/{player}``, over the
    finished solo tables whose seat the account holds (``player`` is its display name,
    ``username`` its username)."""
    account = await account_of(accounts, username)
    game = solo_game(game)
    tables = await asyncio.to_thread(accounts.accounts.held_finished, account.id, game, 1)
    table = await asyncio.to_thread(solo_table, store, game, account.display_name, tables,
                                    caches.reports)
    return {**table, "username": account.username}


@router.post("/api/me/solo/claim")
async def claim_name(body: NameClaimBody, request: Request, accounts: AccountsDep
                     ) -> NameClaimOut:
    """Claim, once, the finished solo games a guest kept under a seat name: every listed
    solo table whose person's seat bears exactly ``name`` and that no account holds (up to
    1000) becomes the account's. Each name is claimed once, by the first account that asks,
    and an account claims one name (409 after). A private table, or one with a seat secret
    in this browser, is claimed by its secret (``POST /api/me/claim``). 404 when no game is
    free to claim (nothing is recorded then)."""
    signed = await accounts.require(request)
    name = checked_name(body.name, "the name", 60)  # as seat names are kept
    if not claimable_name(name):
        raise BadInput(f"{name!r} is nobody's name in particular (a seat nobody named, the "
                       "lobby's default, a deleted account's): its games cannot be claimed "
                       "by name")
    game = solo_game(body.game)
    ids = await asyncio.to_thread(accounts.accounts.claim_name, signed.account.id, game, name)
    return NameClaimOut(name=name, game=game, claimed=len(ids), tables=ids)


__all__ = ["router"]
