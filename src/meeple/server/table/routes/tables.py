"""One table over REST: its view (live, or at a past move for replays), a hint for the seat to
move, the analysis of a finished game, its record, layout and stored log.

Hints and analyses run in the hint lane (:mod:`meeple.server.lanes`), never in the table bots'
pool, within their client's rate (:mod:`meeple.server.quotas`) and the lane's budgets: a refusal
is a 429 or 503 with ``Retry-After`` naming the limit."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response

from meeple.bots.hint import DEFAULT_LEVEL, level_spec
from meeple.bots.limits import MAX_SPEC_LENGTH, client_spec
from meeple.core.present import presentation
from meeple.core.state import CHANCE
from meeple.core.view import seat_view
from meeple.server.deps import CachesDep, ServiceDep, StoreDep, keep
from meeple.server.identity import may_act
from meeple.server.lanes import LaneDep
from meeple.server.quotas import QuotasDep, Throttled, ThrottledRoute, client_of
from meeple.server.table.checks import MAX_PARAM
from meeple.server.table.hints import (
    HintFailed,
    HintJob,
    analysis_job,
    hint_job,
)
from meeple.server.table.service import Runtime
from meeple.store import FINISHED, RUNNING

router = APIRouter(route_class=ThrottledRoute)


@router.get("/api/tables/{table_id}/view", response_model=dict[str, Any])
async def get_view(table_id: str, request: Request, svc: ServiceDep,
                   seat: int | None = Query(None, ge=0, le=MAX_PARAM),
                   text: bool = False,
                   at: int | None = Query(None, ge=0, le=MAX_PARAM,
                                          description="the position after this many "
                                          "moves (a replay; spectator's view)"),
                   x_seat_secret: str | None = Header(None)) -> Any:
    """The table's view as ``seat`` (with its secret in the X-Seat-Secret header) or, with
    no seat, as a spectator; ``at=K`` gives the position after the first K moves as a
    spectator sees it (the replay viewer)."""
    rt = await svc.authority.runtime(table_id)
    if at is not None:
        total = len(rt.state.history)
        if at > total:
            raise HTTPException(422, f"at={at}: the game has {total} moves so far")
        past = await asyncio.to_thread(_position, rt.state, at)
        view = seat_view(past, None, rt.lines[:at], text=text)
        return {"type": "view", "version": rt.version, "at": at, "moves": total,
                "view": view.model_dump(mode="json", by_alias=True)}
    if seat is not None and not await may_act(request, table_id, seat, x_seat_secret):
        raise HTTPException(403, "a seat's view needs that seat's secret (X-Seat-Secret) or "
                                 "a session whose account holds the seat")
    # the frame's JSON text as the WebSocket clients get it, made once per version: sent as
    # it is (parsed and written again by FastAPI it would cost more than making it)
    return Response(svc.broadcaster.view_frame_json(rt, seat, text),
                    media_type="application/json")


@router.get("/api/tables/{table_id}/hint")
async def get_hint(table_id: str, request: Request, svc: ServiceDep,
                   lane: LaneDep, quotas: QuotasDep,
                   seat: int | None = Query(None, ge=0, le=MAX_PARAM),
                   level: str = Query(DEFAULT_LEVEL, max_length=MAX_SPEC_LENGTH),
                   x_seat_secret: str | None = Header(None)) -> dict[str, Any]:
    """A suggested turn for ``seat`` (to move; its secret in X-Seat-Secret) at ``level``
    (easy, medium, hard, expert or a bot spec), from that seat's view only, computed in the hint
    lane's workers within the hint deadline (:mod:`meeple.server.lanes`)."""
    rt = await svc.authority.runtime(table_id)
    if seat is None:
        raise HTTPException(403, "hints are for the seat to move: give seat=N and that "
                                 "seat's secret (X-Seat-Secret); spectators get none")
    if not await may_act(request, table_id, seat, x_seat_secret):
        raise HTTPException(403, "a hint needs that seat's secret (X-Seat-Secret) or a "
                                 "session whose account holds the seat")
    # an unknown or unbounded level, or nets the game lacks: 422, no worker asked
    client_spec(level_spec(level), rt.table.game)
    _check_to_move(rt, seat)
    client = client_of(request)
    quotas.hit("hint", client)
    state, t, version = rt.state, rt.table, rt.version
    job = HintJob(t.game, t.players, t.variant, t.sheet, t.seed,
                  tuple(str(m) for m in state.history), seat, level,
                  (t.seed * 1_000_003 + version) % (1 << 62), tuple(state.seats), t.id)
    deadline = lane.settings.hint_seconds(svc.bots.deadline)
    try:
        found = await lane.run(client, hint_job, job, deadline,
                               f"the hint took longer than {deadline:g} s; try an easier level "
                               "(easy, or greedy)")
    except HintFailed as exc:
        raise Throttled(503, str(exc), "MEEPLE_HINT_DEADLINE", exc.retry_after) from None
    return {"type": "hint", "version": version, "seat": seat, "hint": found}


def _check_to_move(rt: Runtime, seat: int) -> None:
    """409 unless ``seat`` is to move at this running table."""
    state, t = rt.state, rt.table
    if t.status != RUNNING or state.to_move != seat:
        who = ("the game is over" if state.is_over else
               "the game has not started" if t.status != RUNNING else
               "a draw is pending" if state.to_move == CHANCE else
               f"seat {state.to_move} is to move")
        raise HTTPException(409, f"no hint for seat {seat}: it is not to move ({who})")


@router.get("/api/tables/{table_id}/analysis")
async def analysis(table_id: str, request: Request, svc: ServiceDep, caches: CachesDep,
                   lane: LaneDep, quotas: QuotasDep) -> dict[str, Any]:
    """A finished game analysed turn by turn (``meeple analyse``): for every decision of
    every seat the turn played, the judge's best turn from that seat's position, and the
    points lost by the game's evaluation; with each seat's totals. 409 while the game
    runs (its analysis would advise the players). Computed once in the hint lane (asked
    again meanwhile, it is waited for) and kept."""
    rt = await svc.authority.runtime(table_id)
    if rt.table.status != FINISHED or not rt.state.is_over:
        raise HTTPException(409, "only a finished game is analysed (while it runs the "
                                 "analysis would advise its players)")
    found = caches.analyses.get(table_id)
    if found is None:
        client = client_of(request)
        quotas.hit("analysis", client)
        rec, deadline = rt.state.record(), lane.settings.analysis_deadline
        try:
            found = await lane.run(client, analysis_job, rec, deadline,
                                   f"the analysis took longer than {deadline:g} s",
                                   share=table_id)
        except HintFailed as exc:
            raise Throttled(503, f"no analysis: {exc}", "MEEPLE_ANALYSIS_DEADLINE",
                            exc.retry_after) from None
        keep(caches.analyses, table_id, found)  # finished tables do not change: kept
    return {"type": "analysis", "table": table_id, "analysis": found}


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, svc: ServiceDep) -> dict[str, Any]:
    """The game record (the engine's format; ``meeple replay`` reads it). While the game
    runs, the seed is withheld (0) so that no future roll can be foreseen. Once it is over,
    the table's places too (``places``: the seats that gave up below the others) and each
    seat's forfeit order (``forfeits``: 1 for the first to give up, null for a seat that
    played on)."""
    rt = await svc.authority.runtime(table_id)
    rec = rt.state.record()
    if rt.table.status != FINISHED:
        rec["seed"] = 0
    elif rt.table.result:
        rec["places"] = rt.table.places()
        rec["forfeits"] = [s.forfeit_order for s in rt.table.seats]
    rec["table"] = rt.table.id
    return rec


@router.get("/api/tables/{table_id}/layout")
async def layout(table_id: str, svc: ServiceDep) -> dict[str, Any]:
    """What never changes at this table: the sheet or board geometry to draw, from the
    game's ``view_layout``."""
    rt = await svc.authority.runtime(table_id)
    return {"game": rt.table.game, "layout": presentation(rt.table.game).view_layout(rt.state)}


@router.get("/api/tables/{table_id}/log")
async def table_log(table_id: str, store: StoreDep,
                    after: int = Query(0, ge=0, le=MAX_PARAM)) -> list[dict[str, Any]]:
    """The stored log entries numbered above ``after``: moves, chance outcomes already
    drawn and undos, each with its number (the table version it made)."""
    await asyncio.to_thread(store.table, table_id)
    entries = await asyncio.to_thread(store.log, table_id, after)
    return [{"number": e.number, "kind": e.kind, "seat": e.seat, "text": e.text}
            for e in entries]


def _position(state: Any, at: int) -> Any:
    """The position after the first ``at`` moves of ``state``'s game."""
    return state.replay_moves(state.history[:at])
