"""Table life's routes: leave a seat, concede a running game, and the rematch of a finished
one. They answer as the lobby does (the table with its ratings, a join's answer) through the
table core's named functions in :mod:`meeple.server.table.routes.lobby`, and the rematch's
mail invitation goes through the site's notifier."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Header, HTTPException, Request

from meeple.server.deps import ServiceDep, StoreDep
from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.identity import may_act
from meeple.server.quotas import QuotasDep, ThrottledRoute, client_hash, client_of
from meeple.server.site import site_of
from meeple.server.table.checks import BadInput
from meeple.server.table.protocol import Joined, Leave, Rematch, SeatAct, TableOut
from meeple.server.table.routes.lobby import (
    IDEMPOTENCY_HELP,
    idempotency,
    joined_answer,
    table_with_ratings,
)
from meeple.store import FINISHED, HUMAN, RUNNING, Table

router = APIRouter(route_class=ThrottledRoute)


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, body: Leave, request: Request, store: StoreDep,
                svc: ServiceDep,
                idempotency_key: str | None = Header(None, description=IDEMPOTENCY_HELP)
                ) -> TableOut:
    """Leave a seat: before the game it opens again; during it a bot plays for it, and at a
    rated table the seat is placed last when the game ends (docs/ratings.md). With an
    ``Idempotency-Key``, a retry (whose secret no longer holds) gets the same answer."""
    idem = idempotency(idempotency_key, client_of(request), "leave", table_id,
                        body.model_dump_json())
    await asyncio.to_thread(store.table, table_id)  # an unknown table: 404
    if idem is None or not await asyncio.to_thread(store.recall, idem):
        if not await may_act(request, table_id, body.seat, body.secret):
            raise HTTPException(403, "that is not the secret of this seat" if body.secret
                                else "leaving a seat needs its secret, or a signed-in "
                                     "session whose account holds it")
        await asyncio.to_thread(store.leave, table_id, body.seat, idem)
        await svc.seats_changed(table_id)
    return await asyncio.to_thread(table_with_ratings, store, table_id)


def _human_seat(t: Table, seat: int, what: str) -> None:
    """422 unless ``seat`` is one of ``t``'s people's seats."""
    people = [s.index for s in t.seats if s.kind == HUMAN]
    if seat not in people:
        raise BadInput(f"seat {seat} is not a person's seat at this table; {what} is for a "
                       f"person's seat: {', '.join(map(str, people)) or 'none here'}")


@router.post("/api/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, body: Rematch, request: Request, store: StoreDep,
                  svc: ServiceDep, quotas: QuotasDep, accounts: AccountsDep,
                  idempotency_key: str | None = Header(None, description=IDEMPOTENCY_HELP)
                  ) -> Joined:
    """A finished table's rematch: the first of its people to ask makes it (the
    same game, variant, sheet, clock and bots; not listed in the lobby) and everyone after
    joins that one table, each at their own seat number; the table's clients are told in
    their ``presence`` frame. The seat is shown by its secret or a session that holds it.
    The answer is a join's: the new table, the seat and its secret (and the seat is the
    signed-in account's, as a join's)."""
    client = client_of(request)
    idem = idempotency(idempotency_key, client, "rematch", table_id, body.model_dump_json())
    old = await asyncio.to_thread(store.table, table_id)  # an unknown table: 404
    if idem is None or not await asyncio.to_thread(store.recall, idem):
        if old.status != FINISHED:
            raise HTTPException(409, f"a rematch follows a finished game; this table is "
                                     f"{old.status}")
        _human_seat(old, body.seat, "a rematch")
        if not await may_act(request, table_id, body.seat, body.secret):
            raise HTTPException(403, "a rematch needs your seat's secret at the finished "
                                     "table, or a signed-in session whose account holds it")
        quotas.hit("join", client)
    name = body.name or old.seats[body.seat].name
    signed = await accounts.signed(request)
    taken = await asyncio.to_thread(store.rematch, table_id, body.seat, name, idem,
                                    client_hash(client),
                                    signed.account.id if signed is not None else None)
    if not taken.replayed:
        await svc.seats_changed(taken.table_id)
        await svc.seats_changed(table_id)  # its people are told of the rematch
        if old.rematch is None:  # this request made it: the others are invited by mail
            site_of(request).notifier.rematch_made(old, taken.table_id, body.seat)
    answer = await asyncio.to_thread(joined_answer, store, taken)
    assert isinstance(answer, Joined)
    return answer


@router.post("/api/tables/{table_id}/concede")
async def concede(table_id: str, body: SeatAct, request: Request, store: StoreDep,
                  svc: ServiceDep) -> TableOut:
    """Concede a running game: the seat's stand-in bot plays it to the end, for
    good (the person can no longer move, nor take it back), and it is placed below every
    seat that plays on, the first to give up last (docs/ratings.md). Conceding again
    changes nothing."""
    t = await asyncio.to_thread(store.table, table_id)
    if t.status != RUNNING:
        raise HTTPException(409, f"only a game under way can be conceded; this table is "
                                 f"{t.status}")
    _human_seat(t, body.seat, "conceding")
    if not await may_act(request, table_id, body.seat, body.secret):
        raise HTTPException(403, "conceding needs the seat's secret, or a signed-in session "
                                 "whose account holds it")
    if not t.seats[body.seat].conceded:
        await asyncio.to_thread(store.concede, table_id, body.seat)
        await svc.seats_changed(table_id)
    return await asyncio.to_thread(table_with_ratings, store, table_id)
