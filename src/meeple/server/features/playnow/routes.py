"""Play now: ask to play a game, wait while close ratings are found, and be seated
(``meeple.server.features.playnow.service`` decides who with whom)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

import meeple
from meeple.bots.ratings import SCALE, shown
from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.features.playnow.service import bucket_of
from meeple.server.features.playnow.store import GONE, MATCHED, Entry, PlayQueue
from meeple.server.site import site_of
from meeple.server.table.checks import checked_variant
from meeple.store import Store
from meeple.store.models import now
from meeple.store.ratings import Ratings, start_of

router = APIRouter()


class PlayNowAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=40)
    variant: dict[str, Any] = Field(default_factory=dict, description="the game's options")
    players: int = Field(2, ge=2, le=8, description="seats at the table, 2 or more")
    bots: StrictBool = Field(False, description="bots of a close rating may fill the seats "
                                                "nobody came for, after a short wait")


class PlayNowState(BaseModel):
    state: str = Field(description="waiting, seated (then table and seat), gone (your page "
                                   "stopped asking; ask again) or none (not in the queue)")
    game: str | None = None
    variant: dict[str, Any] | None = None
    players: int | None = None
    bots: bool | None = None
    rating: int | None = Field(default=None, description="your rating in the game, as it is matched")
    waited: float | None = Field(default=None, description="seconds waited")
    window: float | None = Field(default=None, description="rating points either side accepted now "
                                                   "(null: anyone)")
    table: str | None = None
    seat: int | None = None


def match_rating(store: Store, account_id: str, game: str) -> float:
    """What Play now matches by: the account's skill estimate in the game (``mu``, on the
    shown ratings' scale; a new player's is the start); its uncertainty is left out, so two
    players of equal skill meet whoever has played more."""
    for r in Ratings(store).of(account_id):
        if r.game == game:
            return SCALE * r.mu
    return SCALE * start_of(account_id, game)[0]


def shown_rating(store: Store, account_id: str, game: str) -> float:
    """The rating the account sees in the game (1500 for a new player): what the bots that
    fill its table are chosen by."""
    return Ratings(store).shown_in(account_id, game)


def bot_shown_ratings(store: Store, game: str) -> dict[str, float]:
    """Each rated bot difficulty's rating in ``game`` as players see it (the leaderboard's
    reference rows)."""
    return {d: float(shown(r.mu, r.sigma)) for d, r in Ratings(store).bots(game).items()}


def _queue(request: Request) -> PlayQueue:
    return site_of(request).play_queue


def _state(entry: Entry | None, request: Request) -> PlayNowState:
    if entry is None:
        return PlayNowState(state="none")
    waited = (now() - entry.since).total_seconds()
    matcher = site_of(request).matcher
    wide = matcher.settings.window_after(waited)
    state = {MATCHED: "seated", GONE: "gone"}.get(entry.state, "waiting")
    return PlayNowState(state=state, game=entry.game, variant=entry.variant,
                        players=entry.players, bots=entry.bots, rating=round(entry.rating),
                        waited=round(waited, 1),
                        window=None if wide == float("inf") else round(wide),
                        table=entry.table_id, seat=entry.seat)


@router.post("/api/play-now", status_code=202)
async def play_now(body: PlayNowAsk, request: Request, accounts: AccountsDep) -> PlayNowState:
    """Wait to be seated at a rated table of ``game`` (its ``variant``, ``players`` seats)
    with people of close ratings (signed in only: every seat of a rated table is an
    account's). Ask ``GET /api/play-now`` every few seconds: it says when you are seated, and
    a wait whose page stopped asking for 15 s is given up. Asking again replaces the wish."""
    signed = await accounts.require(request)
    try:
        info = meeple.game_info(body.game)
    except Exception:
        raise HTTPException(404, f"no game {body.game!r}; games: "
                                 f"{', '.join(g.name for g in meeple.games())}") from None
    if not info.min_players <= body.players <= info.max_players or body.players < 2:
        raise HTTPException(422, f"{info.title} is played by {max(2, info.min_players)} to "
                                 f"{info.max_players} at a Play now table, not {body.players}")
    variant = checked_variant(body.game, body.variant)
    offered = [dict(v) for v in info.variants if v.get("challenge") is None]
    if variant not in offered:
        raise HTTPException(422, f"Play now seats {info.title}'s listed variants: "
                                 f"{'; '.join(json.dumps(v) for v in offered)}; not "
                                 f"{json.dumps(variant)[:200]}")
    store = site_of(request).store
    rating = await asyncio.to_thread(match_rating, store, signed.account.id, body.game)
    entry = await asyncio.to_thread(
        _queue(request).enter, signed.account.id, body.game, variant, body.players,
        bucket_of(body.game, variant, body.players), rating, body.bots)
    site_of(request).matcher.kick()
    return _state(entry, request)


@router.get("/api/play-now")
async def play_now_state(request: Request, accounts: AccountsDep) -> PlayNowState:
    """How your Play now wait stands (asking keeps it alive): ``waiting`` (how long, and the
    rating window now), ``seated`` (the table and seat: your session plays it), ``gone`` or
    ``none``."""
    signed = await accounts.require(request)
    entry = await asyncio.to_thread(_queue(request).status, signed.account.id)
    return _state(entry, request)


@router.delete("/api/play-now")
async def leave_play_now(request: Request, accounts: AccountsDep) -> dict[str, bool]:
    """Stop waiting (a seat already given stays yours)."""
    signed = await accounts.require(request)
    return {"left": await asyncio.to_thread(_queue(request).leave, signed.account.id)}
