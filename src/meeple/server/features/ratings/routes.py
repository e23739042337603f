"""Ratings: a game's leaderboard by page, with the bots' ratings beside it as
reference lines, and a player's ratings with their history. docs/ratings.md explains the
numbers to players; src/meeple/server/features/ratings/README.md, the endpoints."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

import meeple
from meeple.bots.ratings import level, provisional, shown
from meeple.server.deps import StoreDep
from meeple.server.features.accounts.sessions import AccountsDep, username_key
from meeple.server.quotas import ThrottledRoute
from meeple.server.table.checks import MAX_PARAM
from meeple.store import Store
from meeple.store.ratings import Rating, Ratings

router = APIRouter(route_class=ThrottledRoute)

#: Players a page of a leaderboard lists at most, and by default.
PAGE_MAX, PAGE_DEFAULT = 100, 50
#: History points a player's ratings give per game at most, and by default.
HISTORY_MAX, HISTORY_DEFAULT = 500, 100
#: A username in a path: longer is no account's (usernames are 3 to 30 characters).
NAME_MAX = 120


class BotLine(BaseModel):
    """A bot difficulty's rating in the game: a reference line on the leaderboard."""

    difficulty: str
    rating: int
    mu: float
    sigma: float
    games: int = Field(description="its rated games against people (0: its seed, from "
                                   "meeple calibrate-bots)")


class Ranked(BaseModel):
    rank: int = Field(description="the place on the leaderboard (1 first)")
    username: str
    display_name: str
    bot_account: bool = Field(False, description="a bot account (a program that plays through "
                                                 "the API): shown BOT")
    rating: int
    mu: float
    sigma: float
    provisional: bool = Field(description="a new rating (its sigma still 5 or more): shown "
                                          "with a '?', it moves fast (docs/ratings.md)")
    games: int
    level: str | None = Field(description="which bot this player plays like, to follow \"plays\""
                                          ": \"at about medium's level\", \"above hard's "
                                          "level\", \"below easy's level\"")


class Leaderboard(BaseModel):
    game: str
    title: str
    total: int = Field(description="players with a rated game of this game, in all")
    limit: int
    offset: int
    players: list[Ranked]
    bots: list[BotLine]


class HistoryPoint(BaseModel):
    table: str | None = Field(description="the table (its replay: /t/<id>?replay); null for an "
                                          "unlisted table, except to the player themselves")
    at: str
    rating: int = Field(description="the rating after this game")
    change: int = Field(description="what this game changed it by")
    place: int = Field(description="the place it counted (1 first; a player who conceded or "
                                   "left is below those who played on, the first to go last)")
    players: int


class GameRating(BaseModel):
    game: str
    title: str
    rating: int
    mu: float
    sigma: float
    provisional: bool = Field(description="a new rating (its sigma still 5 or more): shown "
                                          "with a '?', it moves fast (docs/ratings.md)")
    games: int
    updated: str | None
    level: str | None = Field(description="\"you play at about medium's level\": the bot this "
                                          "player's skill is nearest to in this game (as in "
                                          "the leaderboard)")
    history: list[HistoryPoint] = Field(description="the last rated games, oldest first")


class PlayerRatings(BaseModel):
    username: str
    display_name: str
    ratings: list[GameRating]


def known_games() -> list[str]:
    """The names of the games this server plays."""
    return [g.name for g in meeple.games()]


def unknown_game(game: str) -> str:
    """What the API and the pages say of a game name that is none of :func:`known_games`."""
    return f"there is no game {game[:40]!r}; the games are {', '.join(known_games())}"


def _bot_lines(found: dict[str, Rating]) -> list[BotLine]:
    return [BotLine(difficulty=d, rating=shown(r.mu, r.sigma), mu=round(r.mu, 4),
                    sigma=round(r.sigma, 4), games=r.games) for d, r in found.items()]


def _leaderboard(store: Store, game: str, limit: int, offset: int,
                 bot_accounts: bool = True) -> Leaderboard:
    ratings = Ratings(store)
    rows, total = ratings.leaderboard(game, limit, offset, bot_accounts)
    bots = ratings.bots(game)
    skills = {d: shown(r.mu, r.sigma) for d, r in bots.items()}
    return Leaderboard(
        game=game, title=meeple.game_info(game).title, total=total, limit=limit, offset=offset,
        players=[Ranked(rank=offset + k + 1, username=r.username, display_name=r.display_name,
                        bot_account=r.bot_account,
                        rating=shown(r.rating.mu, r.rating.sigma), mu=round(r.rating.mu, 4),
                        sigma=round(r.rating.sigma, 4), games=r.rating.games,
                        provisional=provisional(r.rating.sigma),
                        level=level(shown(r.rating.mu, r.rating.sigma), skills))
                 for k, r in enumerate(rows)],
        bots=_bot_lines(bots))


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, store: StoreDep, response: Response,
                      limit: int = Query(PAGE_DEFAULT, ge=1, le=PAGE_MAX,
                                         description="players on this page"),
                      offset: int = Query(0, ge=0, le=MAX_PARAM,
                                          description="players of the pages before, skipped"),
                      bot_accounts: Literal["show", "hide"] = Query(
                          "show", description="show bot accounts (programs playing through "
                                              "the API) among the players, or hide them")
                      ) -> Leaderboard:
    """A game's leaderboard: accounts with at least one rated game of it, highest rating
    first (the rating is ``1500 + 30 (mu - 3 sigma)``, docs/ratings.md), a page of ``limit``
    after the first ``offset``; and every bot difficulty's rating in the game, as reference
    lines; ``bot_accounts=hide`` leaves bot accounts out (the ranks and the total are then
    of the others). ``X-Total-Count``: players in all. 404 for a game that is not there, naming
    the games."""
    if game not in known_games():
        raise HTTPException(404, unknown_game(game))
    board = await asyncio.to_thread(_leaderboard, store, game, limit, offset,
                                    bot_accounts == "show")
    response.headers["X-Total-Count"] = str(board.total)
    return board


def _player(store: Store, username: str, history: int, viewer: str | None = None
            ) -> PlayerRatings | None:
    """The ratings of ``username`` as ``viewer`` (an account id, or None) may read them: an
    unlisted table's id only to the player themselves, as their profile shows it."""
    ratings = Ratings(store)
    found = ratings.account(username_key(username))
    if found is None:
        return None
    account_id, name, display = found
    own = viewer == account_id
    out = []
    for r in ratings.of(account_id):
        skills = {d: shown(b.mu, b.sigma) for d, b in ratings.bots(r.game).items()}
        points = ratings.history(account_id, r.game, history) if history else []
        out.append(GameRating(
            game=r.game, title=_title(r.game), rating=shown(r.mu, r.sigma), mu=round(r.mu, 4),
            sigma=round(r.sigma, 4), provisional=provisional(r.sigma), games=r.games,
            updated=_iso(r.updated),
            level=level(shown(r.mu, r.sigma), skills),
            history=[HistoryPoint(table=p.table_id if p.public or own else None,
                                  at=p.at.isoformat(),
                                  rating=shown(*p.after),
                                  change=shown(*p.after) - shown(*p.before),
                                  place=p.place, players=p.players) for p in points]))
    return PlayerRatings(username=name, display_name=display, ratings=out)


def _title(game: str) -> str:
    try:
        return meeple.game_info(game).title
    except meeple.UnknownGame:  # a game no longer installed: its name
        return game


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


@router.get("/api/users/{username}/ratings")
async def player_ratings(username: str, store: StoreDep, request: Request,
                         accounts: AccountsDep,
                         history: int = Query(HISTORY_DEFAULT, ge=0, le=HISTORY_MAX,
                                              description="history points per game (the "
                                                          "last ones)")) -> PlayerRatings:
    """A player's rating in each game they played rated, with the bot they play like and
    their last rated games (rating after each, the change, the place). Any visitor may
    read it, as the leaderboard shows it (404 for no such account); the id of an unlisted
    table (its replay) only the player themselves."""
    if not 0 < len(username) <= NAME_MAX or not username.isprintable():
        raise HTTPException(404, f"no player {username[:40]!r}: usernames are 3 to 30 "
                                 "letters, digits, '_', '-' and '.'")
    signed = await accounts.signed(request)
    viewer = signed.account.id if signed is not None else None
    found = await asyncio.to_thread(_player, store, username, history, viewer)
    if found is None:
        raise HTTPException(404, f"no player {username[:40]!r}")
    return found
