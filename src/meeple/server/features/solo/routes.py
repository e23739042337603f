"""Solo results: a player's achievement table over their finished solo games (Pergola's)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Query

from meeple.server.deps import CachesDep, StoreDep, keep
from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.table.checks import checked_name
from meeple.server.table.positions import new_state
from meeple.server.table.reports import solo_games, solo_reports
from meeple.store import Store, Table, effective_moves

router = APIRouter()


@router.get("/api/solo/{player:path}")
async def solo(player: str, store: StoreDep, caches: CachesDep, accounts: AccountsDep,
               game: str | None = Query(
                   None, max_length=40,
                   description="the game (by default the one game keeping such tables)")
               ) -> dict[str, Any]:
    """``player``'s Pergola solo achievement table (P10): every finished solo game under
    that seat name, the best score in each of the ten spaces (a failed challenge counts in
    the Free game space), the total, the spaces still missing and the 1000 club. A name
    that never finished a solo game gets an empty table. ``claimed``: whether an account
    claimed the games under this name (``claimed_by``: its username and display name, null
    once it was deleted); the table is still the name's."""
    player = checked_name(player, "the player's name", 60)  # as names are kept
    game = solo_game(game)
    tables = await asyncio.to_thread(store.finished_with_seat, player, game, 1)
    table = await asyncio.to_thread(solo_table, store, game, player, tables, caches.reports)
    claim = await asyncio.to_thread(accounts.accounts.name_claim, game, player)
    return {**table, "claimed": claim is not None,
            "claimed_by": None if claim is None or claim.username is None else
            {"username": claim.username, "display_name": claim.display_name}}


def utc(when: datetime) -> datetime:
    """``when`` with its time zone (SQLite gives back naive UTC times, which a browser would
    read as its own local time)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def solo_game(game: str | None) -> str:
    """The game whose solo achievement table is asked for (by default the one game keeping
    such tables); 404 naming the games that keep one for any other."""
    keeping = solo_games()
    if game is None and keeping:
        game = keeping[0]
    if game not in keeping:
        raise HTTPException(404, f"game {game!r} keeps no solo achievement table; games "
                                 f"that do: {', '.join(keeping) or 'none'}")
    return game


def _solo_report(store: Store, table: Table) -> dict[str, Any] | None:
    """The solo result of a finished table (its game's ``SOLO.report``), or None if its game
    is not over (an abandoned table)."""
    solo = solo_reports(table.game)
    assert solo is not None
    state = new_state(table)
    for e in effective_moves(store.log(table.id)):
        state.play(e.text)
    if not state.is_over:
        return None
    return solo.report(state)


def solo_table(store: Store, game: str, player: str, tables: list[Table],
               cache: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """``player``'s achievement table of ``game`` (its ``SOLO.table``) over their finished
    solo tables."""
    solo = solo_reports(game)
    assert solo is not None
    games = []
    for t in tables:
        rep = cache[t.id] if t.id in cache else keep(cache, t.id, _solo_report(store, t))
        if rep is None:
            continue
        games.append({**rep, "table": t.id if t.public else None,
                      "finished": utc(t.updated).isoformat()})
    return {"player": player, "game": game, **solo.table(games)}
