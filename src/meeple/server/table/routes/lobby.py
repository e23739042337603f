"""The lobby: the games and bots, the tables to list (by page), create and join. Leaving a
seat, conceding and the rematch are table life's (:mod:`meeple.server.features.tablelife`),
which answers with this module's :func:`table_with_ratings`, :func:`idempotency` and
:func:`joined_answer`.

Creating and joining are within their client's rates, and the open tables a client created
within its cap (:mod:`meeple.server.quotas`); an ``Idempotency-Key`` is its client's own (a key
sent again from another address is another request); a waiting table nobody joined for
``MEEPLE_STALE_WAITING`` seconds is closed (:func:`close_stale`)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response

import meeple
from meeple.bots import BOTS
from meeple.bots.limits import client_spec
from meeple.bots.ratings import change_note, provisional, shown
from meeple.core.view import view_schema
from meeple.server.deps import ServiceDep, StoreDep
from meeple.server.identity import signed_in
from meeple.server.quotas import QuotasDep, ThrottledRoute, client_hash, client_of
from meeple.server.table import uploads
from meeple.server.table.authority import fault_point
from meeple.server.table.checks import MAX_PARAM, BadInput, checked_variant
from meeple.server.table.protocol import (
    CreateTable,
    Joined,
    JoinTable,
    SeatOut,
    TableOut,
)
from meeple.server.table.reports import solo_reports
from meeple.server.table.service import Service
from meeple.store import (
    BOT,
    FINISHED,
    Idempotency,
    SeatSpec,
    Store,
    Table,
    Taken,
    TooManyOpen,
)
from meeple.store.ratings import Ratings, SeatRating, rated_problem

log = logging.getLogger("meeple.server")

router = APIRouter(route_class=ThrottledRoute)

#: Tables a page of the lobby lists at most (``limit``), and by default (as many: the list
#: before it had pages).
PAGE_MAX, PAGE_DEFAULT = 200, 200

#: What the ``Idempotency-Key`` header is, for the API docs.
IDEMPOTENCY_HELP = ("a key of your own for this request (16 to 200 printable ASCII characters, "
                    "unguessable: e.g. a random UUID), so that a retry after a lost reply gets "
                    "the same answer instead of doing it again; a retry must repeat the "
                    "request exactly")


def table_out(t: Table, ratings: Mapping[tuple[str, int], SeatRating] | None = None
              ) -> TableOut:
    """A table as the API shows it, with its seats' ratings from ``ratings``
    (:func:`table_outs`)."""
    ratings = ratings or {}
    seats = []
    places = t.places() if t.status == FINISHED else []
    for s in t.seats:
        r = ratings.get((t.id, s.index))
        now = shown(*r.rating) if r is not None else None
        change = note = None
        place = places[s.index] if s.index < len(places) else None
        if r is not None and r.before is not None and now is not None:
            change = now - shown(*r.before)
            gave_up = ("conceded" if s.conceded else "left") if s.forfeit else None
            note = change_note(r.before, r.rating, place or 0, len(t.seats), gave_up)
        seats.append(SeatOut(index=s.index, kind=s.kind, name=s.name, bot=s.bot, taken=s.taken,
                             absent=s.absent, conceded=s.conceded, forfeit=s.forfeit,
                             rating=now,
                             provisional=r is not None and provisional(r.rating[1]),
                             rating_change=change, rating_note=note, place=place,
                             bot_account=r is not None and r.bot_account))
    return TableOut(
        id=t.id, game=t.game, title=meeple.game_info(t.game).title, variant=t.variant,
        players=t.players, status=t.status, version=t.version, public=t.public, clock=t.clock,
        rated=t.rated, seats=seats,
        open_seats=t.open_seats, created=t.created.isoformat(), updated=t.updated.isoformat(),
        result=t.result, own_sheet=uploads.sheet_name(t.sheet), rematch=t.rematch,
        ended=t.ended, pace=t.pace, bank=t.bank,
    )


def table_outs(store: Store, tables: Sequence[Table]) -> list[TableOut]:
    """The tables as the API shows them, their seats' ratings read at once (in a thread: it
    reads the store)."""
    found = Ratings(store).for_tables([
        (t.id, t.game, t.rated and t.status == FINISHED, [(s.kind, s.bot) for s in t.seats])
        for t in tables])
    return [table_out(t, found) for t in tables]


def table_with_ratings(store: Store, table_id: str) -> TableOut:
    return table_outs(store, [store.table(table_id)])[0]


@router.get("/api/games")
def games() -> list[dict[str, Any]]:
    """Every game with its players, options, variants and the bots a seat can have;
    ``own_sheet``: whether it takes a sheet of a player's own (``/api/sheets/{game}``);
    ``challenges``: a game with solo challenges names each (number, title, goal), else []."""
    # ``drawing``: the URL of the game's drawing module, which the page imports (the web app
    # serves it from the game's package or the site's own, ``meeple.web.game_drawing``); said
    # here, not in the docstring, which is the kept API schema's description
    return [{"name": g.name, "title": g.title, "min_players": g.min_players,
             "max_players": g.max_players, "default_players": g.default_players,
             "options": {k: list(v) for k, v in g.options.items()},
             "variants": [dict(v) for v in g.variants], "summary": g.summary,
             "own_sheet": g.own_sheets, "challenges": _challenges(g.name),
             "drawing": f"/games/{g.name}/drawing.js"}
            for g in meeple.games()]


def _challenges(game: str) -> list[dict[str, Any]]:
    """The solo challenges of ``game`` as its achievement table names them (the spaces of an
    empty table), or [] for a game that keeps none."""
    solo = solo_reports(game)
    if solo is None:
        return []
    return [{k: space[k] for k in ("number", "title", "goal")}
            for space in solo.table([]).get("spaces", [])]


@router.get("/api/bots")
def bots_list() -> list[str]:
    return sorted(BOTS)


@router.get("/api/schema/{game}")
def schema(game: str) -> dict[str, Any]:
    """The JSON Schema of the per-seat view (the same for every game; ``board`` is the
    game's own part)."""
    meeple.game_info(game)
    return view_schema(game)


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, store: StoreDep, svc: ServiceDep,
                       quotas: QuotasDep,
                       idempotency_key: str | None = Header(None, description=IDEMPOTENCY_HELP)
                       ) -> Joined | TableOut:
    """Create a table; with ``join_as`` its creator takes the first open seat at once (in
    the same transaction; held by the signed-in account, if any). With an
    ``Idempotency-Key``, a retry gets the same answer. At most ``MEEPLE_RATE_CREATE`` tables
    a client, and ``MEEPLE_OPEN_TABLES`` of its tables waiting or running at once (429
    beyond). A ``rated`` table is created by a signed-in account only (403), and its seats
    must make one (422, docs/ratings.md)."""
    signed = await signed_in(request)
    if body.rated:
        if signed is None:
            raise HTTPException(403, "only a signed-in account can create a rated table (sign "
                                     "in with POST /api/session, or create a casual table)")
        problem = rated_problem(body.seats)
        if problem is not None:
            raise BadInput(problem)
    client = client_of(request)
    idem = idempotency(idempotency_key, client, "create", body.model_dump_json())
    if idem is not None and (done := await asyncio.to_thread(store.recall, idem)):
        return await asyncio.to_thread(joined_answer, store, done)
    quotas.hit("create", client)
    info = meeple.game_info(body.game)
    seats = _seats(body)
    variant, sheet = body.variant, None
    if body.sheet is None:
        variant = checked_variant(info.name, variant)  # a shipped sheet only, by name
        meeple.new_game(info.name, players=len(seats), **variant)  # refuses bad variants
    else:  # a sheet of their own: checked again, kept as data (never a variant's sheet)
        own = await asyncio.to_thread(uploads.build, info.name, body.sheet, len(seats),
                                      body.variant)
        variant, sheet = own.variant(), own.sheet_data()
    try:
        taken = await asyncio.to_thread(
            store.create_table, info.name, variant, len(seats), seats, sheet=sheet,
            public=body.public, clock=body.clock, join_as=body.join_as, idempotency=idem,
            creator=client_hash(client), max_open=quotas.settings.open_tables,
            rated=body.rated, account=signed.account_id if signed is not None else None,
            pace=body.pace, bank=body.bank)
    except TooManyOpen as exc:
        raise quotas.too_many_open(exc.held) from None
    fault_point("create", svc.authority.fault)
    await svc.seats_changed(taken.table_id)
    return await asyncio.to_thread(joined_answer, store, taken)


def _seats(body: CreateTable) -> list[SeatSpec]:
    """The new table's seats; a bot seat without a bot, or a bad or unbounded bot spec, is
    refused (422) before the table exists."""
    seats = []
    for i, s in enumerate(body.seats):
        if s.kind == BOT and not s.bot:
            raise HTTPException(422, f"seat {i} is a bot seat and needs a bot spec "
                                     f"(bots: {', '.join(sorted(BOTS))})")
        if s.bot is not None:  # a bot seat's, or a person's stand-in when their clock runs out
            client_spec(s.bot, body.game)
        seats.append(SeatSpec(kind=s.kind, bot=s.bot, name=s.name))
    return seats


@router.get("/api/tables")
async def list_tables(store: StoreDep, response: Response,
                      status: str | None = Query(None, pattern="^(waiting|running|finished)$"),
                      game: str | None = None,
                      limit: int = Query(PAGE_DEFAULT, ge=1, le=PAGE_MAX,
                                         description="tables on this page"),
                      offset: int = Query(0, ge=0, le=MAX_PARAM,
                                          description="tables of the newer pages, skipped")
                      ) -> list[TableOut]:
    """Public tables, newest first (by their last change): waiting, running or finished;
    filter by game; a page of ``limit`` tables after the first ``offset``. The
    ``X-Total-Count`` header says how many match in all, so a client can page to the
    last."""
    if game is not None:
        meeple.game_info(game)
    tables, total = await asyncio.to_thread(store.tables_page, status, game, limit, offset)
    response.headers["X-Total-Count"] = str(total)
    return await asyncio.to_thread(table_outs, store, tables)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, store: StoreDep) -> TableOut:
    """A table, its seats with their ratings (``rating``; at a finished rated table also
    ``rating_change``)."""
    return await asyncio.to_thread(table_with_ratings, store, table_id)


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinTable, request: Request, store: StoreDep,
               svc: ServiceDep, quotas: QuotasDep,
               idempotency_key: str | None = Header(None, description=IDEMPOTENCY_HELP)
               ) -> Joined:
    """Take an open seat; the response carries that seat's secret (shown only here, and
    to a retry from the same address with the same ``Idempotency-Key``). At most
    ``MEEPLE_RATE_JOIN`` joins a client (429 beyond). Signed in, the account holds the seat
    from the same transaction on; a rated table's seat needs an account (403) and seats an
    account once (409)."""
    client = client_of(request)
    idem = idempotency(idempotency_key, client, "join", table_id, body.model_dump_json())
    if idem is None or not await asyncio.to_thread(store.recall, idem):
        await _not_a_rematch(store, table_id)
        quotas.hit("join", client)
    signed = await signed_in(request)
    taken = await asyncio.to_thread(store.join, table_id, body.seat, body.name, idem,
                                    signed.account_id if signed is not None else None)
    fault_point("join", svc.authority.fault)
    if not taken.replayed:
        await svc.seats_changed(table_id)
    answer = await asyncio.to_thread(joined_answer, store, taken)
    assert isinstance(answer, Joined)
    return answer


async def _not_a_rematch(store: Store, table_id: str) -> None:
    """403 if ``table_id`` is a finished table's rematch: its seats belong to that table's
    people, who take them (each their own seat number) by ``POST .../rematch`` with their
    seat's secret or account at the finished table; a stranger who learnt its id takes
    none."""
    finished = await asyncio.to_thread(store.rematch_of, table_id)
    if finished is not None:
        raise HTTPException(403, f"this table is the rematch of table {finished}: its seats "
                                 f"are for the people of that game only, each taking their "
                                 f"own seat from that game (POST /api/tables/{finished}/"
                                 f"rematch with their seat's secret there, or their account); "
                                 f"anyone may watch it")


def idempotency(header: str | None, client: str, scope: str, *request: str
                ) -> Idempotency | None:
    """The request's idempotency key from its header (None without one), bound to the
    ``client`` that sent it: the same key from another address is another request, so a
    guessed key never gives back another client's answer (its seat secret). A key that is
    too short to be unguessable, too long or not printable ASCII is refused (422)."""
    if header is None:
        return None
    if not 16 <= len(header) <= 200 or not header.isascii() or not header.isprintable():
        raise BadInput("Idempotency-Key must be 16 to 200 printable ASCII characters (an "
                       "unguessable key of your own, e.g. a random UUID)")
    digest = hashlib.sha256("\0".join(request).encode("utf-8")).hexdigest()
    return Idempotency(header, scope, digest, client=client_hash(client))


def joined_answer(store: Store, taken: Taken) -> Joined | TableOut:
    """The answer to a create, a join or a rematch: the table as it is now, with the seat taken and its
    secret when one was taken."""
    table = table_with_ratings(store, taken.table_id)
    if taken.seat is None or taken.secret is None:
        return table
    return Joined(table=table, seat=taken.seat, secret=taken.secret)


async def close_stale(store: Store, svc: Service, older: float) -> list[str]:
    """Close the waiting tables nobody took or left a seat at for ``older`` seconds (a
    lobby flooded with tables nobody plays must not hide the real ones): each is finished
    without a result (abandoned) and leaves the lobby's waiting list; clients still there
    are told. A table with a client connected to this process is left waiting."""
    closed = await asyncio.to_thread(store.close_stale, older, set(svc.authority.connections))
    for table_id in closed:
        if table_id not in svc.authority.runtimes:  # nobody holds it here: nothing to tell
            continue
        try:
            await svc.seats_changed(table_id)
        except Exception:  # one table must not stop the others being told
            log.exception("table %s: closed as stale, its clients could not be told", table_id)
    if closed:
        log.info("closed %d waiting tables nobody joined for %g s", len(closed), older)
    return closed


async def close_abandoned(store: Store, svc: Service, older: float) -> list[str]:
    """End the running tables with no turn clock that nobody has moved at for ``older``
    seconds and that have no client connected to this process (a game its people
    walked away from): each is finished without a result (``ended``: abandoned) and
    leaves the lobby's running list."""
    closed = await asyncio.to_thread(store.close_abandoned, older, set(svc.authority.connections))
    for table_id in closed:
        if table_id in svc.authority.runtimes:
            try:
                await svc.seats_changed(table_id)
            except Exception:
                log.exception("table %s: ended as abandoned, its clients could not be told",
                              table_id)
    if closed:
        log.info("ended %d running tables nobody moved at for %g s", len(closed), older)
    return closed


async def sweep_stale(store: Store, svc: Service, older: float, abandoned: float = 0) -> None:
    """For ever, every quarter of the shorter setting (at most a minute): :func:`close_stale`
    (``older``; 0: never) and :func:`close_abandoned` (``abandoned``; 0: never)."""
    every = min(60.0, max(0.5, min(x for x in (older, abandoned) if x) / 4))
    while True:
        await asyncio.sleep(every)
        try:
            if older:
                await close_stale(store, svc, older)
            if abandoned:
                await close_abandoned(store, svc, abandoned)
        except Exception:  # the store unavailable, say: next time
            log.warning("closing stale tables failed; trying again in %g s", every,
                        exc_info=True)
