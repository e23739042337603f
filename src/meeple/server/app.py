"""The FastAPI app: the REST lobby under ``/api`` and one WebSocket per client.

``create_app(store)`` builds it; ``meeple serve`` runs it with uvicorn. The protocol is in
:mod:`meeple.server.protocol` and ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from fastapi import FastAPI, Header, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.requests import Request

import meeple
from meeple.bots import BOTS
from meeple.bots.hint import DEFAULT_LEVEL, level_spec
from meeple.bots.limits import MAX_SPEC_LENGTH, client_spec
from meeple.core.errors import MeepleError
from meeple.core.present import presentation
from meeple.core.state import CHANCE
from meeple.core.view import seat_view, view_schema
from meeple.server import uploads
from meeple.server.botpool import deadline_from_env, kill_pool, make_pool
from meeple.server.checks import (
    MAX_PARAM,
    BadInput,
    StrictJsonBodies,
    checked_text,
    checked_variant,
    loads_strict,
)
from meeple.server.hints import HintFailed, HintJob, run_analysis, run_hint
from meeple.server.protocol import (
    MAX_FRAME,
    CreateTable,
    Joined,
    JoinTable,
    Leave,
    SeatOut,
    TableOut,
)
from meeple.server.reports import solo_games, solo_reports
from meeple.server.service import AlreadyPlayed, Client, Refused, Service, new_state
from meeple.store import (
    BOT,
    FINISHED,
    RUNNING,
    Idempotency,
    KeyReused,
    NotFound,
    SeatSpec,
    Store,
    StoreError,
    StoreUnavailable,
    Table,
    Taken,
    effective_moves,
)

log = logging.getLogger("meeple.server")

T = TypeVar("T")


def table_out(t: Table) -> TableOut:
    return TableOut(
        id=t.id, game=t.game, title=meeple.game_info(t.game).title, variant=t.variant,
        players=t.players, status=t.status, version=t.version, public=t.public, clock=t.clock,
        seats=[SeatOut(index=s.index, kind=s.kind, name=s.name, bot=s.bot, taken=s.taken,
                       absent=s.absent) for s in t.seats],
        open_seats=t.open_seats, created=t.created.isoformat(), updated=t.updated.isoformat(),
        result=t.result, own_sheet=uploads.sheet_name(t.sheet),
    )


def create_app(store: Store, *, bot_workers: int | None = None, bots: bool = True,
               bot_deadline: float | None = None) -> FastAPI:
    """The server app on ``store`` (already migrated)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = make_pool(bot_workers) if bots else None
        service = Service(store, pool, bots=bots, new_pool=lambda: make_pool(bot_workers),
                          bot_deadline=bot_deadline or deadline_from_env())
        app.state.service = service
        fanout = None
        if store.dialect == "postgresql":
            from meeple.server.fanout import PgListener

            fanout = PgListener(store.url, service, asyncio.get_running_loop())
            fanout.start()
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            if fanout is not None:
                fanout.stop()
            if service.pool is not None:
                kill_pool(service.pool)

    app = FastAPI(title="meeple", version=meeple.__version__, lifespan=lifespan,
                  description="Play Pick a Pen: Gardens, Pick a Pen: Reefs, Takenokolor and "
                              "Pergola online: a lobby of tables and a WebSocket per client. "
                              "See docs/server.md.")

    app.add_middleware(StrictJsonBodies)

    def service() -> Service:
        svc: Service = app.state.service
        return svc

    @app.exception_handler(StoreError)
    async def _store_error(_: Any, exc: StoreError) -> JSONResponse:
        code = 404 if isinstance(exc, NotFound) else 422 if isinstance(exc, KeyReused) else 409
        return JSONResponse({"detail": str(exc)}, status_code=code)

    @app.exception_handler(StoreUnavailable)
    async def _store_unavailable(_: Any, exc: StoreUnavailable) -> JSONResponse:
        return _unavailable_response(exc)

    @app.exception_handler(BadInput)
    async def _bad_input(_: Any, exc: BadInput) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Any, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(_validation_body(exc), status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "the server failed on this request (a defect: it is "
                                       "logged); nothing was changed by it"}, status_code=500)

    @app.exception_handler(MeepleError)
    async def _meeple_error(_: Any, exc: MeepleError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(uploads.SheetRejected)
    async def _sheet_rejected(_: Any, exc: uploads.SheetRejected) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    # ------------------------------------------------------------------ lobby
    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        """Every game with its players, options, variants and the bots a seat can have."""
        return [{"name": g.name, "title": g.title, "min_players": g.min_players,
                 "max_players": g.max_players, "default_players": g.default_players,
                 "options": {k: list(v) for k, v in g.options.items()},
                 "variants": [dict(v) for v in g.variants], "summary": g.summary}
                for g in meeple.games()]

    @app.get("/api/bots")
    def bots_list() -> list[str]:
        return sorted(BOTS)

    @app.get("/api/schema/{game}")
    def schema(game: str) -> dict[str, Any]:
        """The JSON Schema of the per-seat view (the same for every game; ``board`` is the
        game's own part)."""
        meeple.game_info(game)
        return view_schema(game)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, idempotency_key: str | None = Header(
            None, description=IDEMPOTENCY_HELP)) -> Joined | TableOut:
        """Create a table; with ``join_as`` its creator takes the first open seat at once (in
        the same transaction). With an ``Idempotency-Key``, a retry gets the same answer."""
        idem = _idempotency(idempotency_key, "create", body.model_dump_json())
        if idem is not None and (done := await asyncio.to_thread(store.recall, idem)):
            return await asyncio.to_thread(_answer, store, done)
        info = meeple.game_info(body.game)
        seats = []
        for i, s in enumerate(body.seats):
            if s.kind == BOT and not s.bot:
                raise HTTPException(422, f"seat {i} is a bot seat and needs a bot spec "
                                         f"(bots: {', '.join(sorted(BOTS))})")
            if s.bot is not None:  # a bot seat's, or a person's stand-in when their clock runs out
                client_spec(s.bot)  # a bad or unbounded spec is refused before the table exists
            seats.append(SeatSpec(kind=s.kind, bot=s.bot, name=s.name))
        variant, sheet = body.variant, None
        if body.sheet is None:
            variant = checked_variant(info.name, variant)  # a shipped sheet only, by name
            meeple.new_game(info.name, players=len(seats), **variant)  # refuses bad variants
        else:  # a sheet of their own: checked again, kept as data (never a variant's sheet)
            own = await asyncio.to_thread(uploads.build, info.name, body.sheet, len(seats),
                                          body.variant)
            variant, sheet = own.variant(), own.sheet_data()
        taken = await asyncio.to_thread(
            store.create_table, info.name, variant, len(seats), seats, sheet=sheet,
            public=body.public, clock=body.clock, join_as=body.join_as, idempotency=idem)
        _fault_point("create")
        await service().seats_changed(taken.table_id)
        return await asyncio.to_thread(_answer, store, taken)

    # ------------------------------------------------------------------ own sheets
    @app.get("/api/sheets/{game}")
    def sheets_of(game: str) -> dict[str, Any]:
        """The shipped sheets of a game that takes a player's own sheet, and the size limit."""
        name = uploads.upload_game(game)
        return {"game": name, "shipped": uploads.shipped_sheets(name),
                "max_bytes": uploads.MAX_SHEET_BYTES}

    @app.get("/api/sheets/{game}/{name}", response_class=PlainTextResponse, responses={
        200: {"description": "the sheet's TOML file, as a download",
              "content": {"application/toml": {"schema": {"type": "string"}}}}})
    def shipped_sheet(game: str, name: str) -> PlainTextResponse:
        """A shipped sheet's TOML file, as a starting point for one's own."""
        text = uploads.shipped_text(game, name)
        file = f"{game}-{name.removesuffix('.toml')}.toml"
        return PlainTextResponse(text, media_type="application/toml; charset=utf-8",
                                 headers={"content-disposition": f'attachment; filename="{file}"'})

    @app.post("/api/sheets/{game}/check", openapi_extra={"requestBody": {
        "required": True, "content": {"application/toml": {"schema": {"type": "string"}}}}})
    async def check_sheet(game: str, request: Request) -> dict[str, Any]:
        """Check a sheet file (the request body is the file itself): the sheet as data, the
        variant it plays, and its layout and a fresh view for a preview; or 422 with every
        problem (line, field, message)."""
        name = uploads.upload_game(game)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > uploads.MAX_SHEET_BYTES:
                break
        text = uploads.decode_upload(name, bytes(raw))
        return await asyncio.to_thread(uploads.check, name, text)

    @app.get("/api/tables")
    async def list_tables(status: str | None = Query(None, pattern="^(waiting|running|finished)$"),
                          game: str | None = None) -> list[TableOut]:
        """Public tables, newest first: waiting, running or finished; filter by game."""
        if game is not None:
            meeple.game_info(game)
        tables = await asyncio.to_thread(store.tables, status, game)
        return [table_out(t) for t in tables]

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> TableOut:
        return table_out(await asyncio.to_thread(store.table, table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, idempotency_key: str | None = Header(
            None, description=IDEMPOTENCY_HELP)) -> Joined:
        """Take an open seat; the response carries that seat's secret (shown only here, and
        to a retry with the same ``Idempotency-Key``)."""
        idem = _idempotency(idempotency_key, "join", table_id, body.model_dump_json())
        taken = await asyncio.to_thread(store.join, table_id, body.seat, body.name, idem)
        _fault_point("join")
        if not taken.replayed:
            await service().seats_changed(table_id)
        answer = await asyncio.to_thread(_answer, store, taken)
        assert isinstance(answer, Joined)
        return answer

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: Leave, idempotency_key: str | None = Header(
            None, description=IDEMPOTENCY_HELP)) -> TableOut:
        """Leave a seat: before the game it opens again; during it a bot plays for it. With
        an ``Idempotency-Key``, a retry (whose secret no longer holds) gets the same answer."""
        idem = _idempotency(idempotency_key, "leave", table_id, body.model_dump_json())
        await asyncio.to_thread(store.table, table_id)  # an unknown table: 404
        if idem is None or not await asyncio.to_thread(store.recall, idem):
            if not await asyncio.to_thread(store.check_secret, table_id, body.seat,
                                           body.secret):
                raise HTTPException(403, "that is not the secret of this seat")
            await asyncio.to_thread(store.leave, table_id, body.seat, idem)
            await service().seats_changed(table_id)
        return table_out(await asyncio.to_thread(store.table, table_id))

    @app.get("/api/tables/{table_id}/view")
    async def get_view(table_id: str, seat: int | None = Query(None, ge=0, le=MAX_PARAM),
                       text: bool = False,
                       at: int | None = Query(None, ge=0, le=MAX_PARAM,
                                              description="the position after this many "
                                              "moves (a replay; spectator's view)"),
                       x_seat_secret: str | None = Header(None)) -> dict[str, Any]:
        """The table's view as ``seat`` (with its secret in the X-Seat-Secret header) or, with
        no seat, as a spectator; ``at=K`` gives the position after the first K moves as a
        spectator sees it (the replay viewer)."""
        rt = await service().runtime(table_id)
        if at is not None:
            total = len(rt.state.history)
            if at > total:
                raise HTTPException(422, f"at={at}: the game has {total} moves so far")
            past = await asyncio.to_thread(_position, rt.state, at)
            view = seat_view(past, None, rt.lines[:at], text=text)
            return {"type": "view", "version": rt.version, "at": at, "moves": total,
                    "view": view.model_dump(mode="json", by_alias=True)}
        if seat is not None and not store.check_secret(table_id, seat, x_seat_secret):
            raise HTTPException(403, "a seat's view needs that seat's secret (X-Seat-Secret)")
        return service().view_frame(rt, seat, text)

    @app.get("/api/tables/{table_id}/hint")
    async def get_hint(table_id: str, seat: int | None = Query(None, ge=0, le=MAX_PARAM),
                       level: str = Query(DEFAULT_LEVEL, max_length=MAX_SPEC_LENGTH),
                       x_seat_secret: str | None = Header(None)) -> dict[str, Any]:
        """A suggested turn for ``seat`` (to move; its secret in X-Seat-Secret) at ``level``
        (easy, medium, hard or a bot spec), from that seat's view only, computed in the bot
        workers within the bots' deadline (:mod:`meeple.server.hints`)."""
        rt = await service().runtime(table_id)
        if seat is None:
            raise HTTPException(403, "hints are for the seat to move: give seat=N and that "
                                     "seat's secret (X-Seat-Secret); spectators get none")
        if not store.check_secret(table_id, seat, x_seat_secret):
            raise HTTPException(403, "a hint needs that seat's secret (X-Seat-Secret)")
        client_spec(level_spec(level))  # an unknown or unbounded level: 422, no worker asked
        state, t = rt.state, rt.table
        if t.status != RUNNING or state.to_move != seat:
            who = ("the game is over" if state.is_over else
                   "the game has not started" if t.status != RUNNING else
                   "a draw is pending" if state.to_move == CHANCE else
                   f"seat {state.to_move} is to move")
            raise HTTPException(409, f"no hint for seat {seat}: it is not to move ({who})")
        version = rt.version
        job = HintJob(t.game, t.players, t.variant, t.sheet, t.seed,
                      tuple(str(m) for m in state.history), seat, level,
                      (t.seed * 1_000_003 + version) % (1 << 62), tuple(state.seats), t.id)
        try:
            found = await run_hint(service(), job)
        except HintFailed as exc:
            raise HTTPException(503, str(exc)) from None
        return {"type": "hint", "version": version, "seat": seat, "hint": found}

    analyses: dict[str, dict[str, Any]] = {}  # finished tables do not change: kept

    @app.get("/api/tables/{table_id}/analysis")
    async def analysis(table_id: str) -> dict[str, Any]:
        """A finished game analysed turn by turn (``meeple analyse``): for every decision of
        every seat the turn played, the judge's best turn from that seat's position, and the
        points lost by the game's evaluation; with each seat's totals. 409 while the game
        runs (its analysis would advise the players)."""
        rt = await service().runtime(table_id)
        if rt.table.status != FINISHED or not rt.state.is_over:
            raise HTTPException(409, "only a finished game is analysed (while it runs the "
                                     "analysis would advise its players)")
        found = analyses.get(table_id)
        if found is None:
            rec = rt.state.record()
            try:
                found = await run_analysis(service(), rec)
            except HintFailed as exc:
                raise HTTPException(503, f"no analysis: {exc}") from None
            analyses[table_id] = found
            if len(analyses) > CACHED:  # the oldest goes: memory stays bounded
                analyses.pop(next(iter(analyses)))
        return {"type": "analysis", "table": table_id, "analysis": found}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The game record (the engine's format; ``meeple replay`` reads it). While the game
        runs, the seed is withheld (0) so that no future roll can be foreseen."""
        rt = await service().runtime(table_id)
        rec = rt.state.record()
        if rt.table.status != FINISHED:
            rec["seed"] = 0
        rec["table"] = rt.table.id
        return rec

    @app.get("/api/tables/{table_id}/layout")
    async def layout(table_id: str) -> dict[str, Any]:
        """What never changes at this table: the sheet or board geometry to draw, from the
        game's ``view_layout``."""
        rt = await service().runtime(table_id)
        return {"game": rt.table.game, "layout": presentation(rt.table.game).view_layout(rt.state)}

    @app.get("/api/tables/{table_id}/log")
    async def table_log(table_id: str, after: int = Query(0, ge=0, le=MAX_PARAM)
                        ) -> list[dict[str, Any]]:
        """The stored log entries numbered above ``after``: moves, chance outcomes already
        drawn and undos, each with its number (the table version it made)."""
        await asyncio.to_thread(store.table, table_id)
        entries = await asyncio.to_thread(store.log, table_id, after)
        return [{"number": e.number, "kind": e.kind, "seat": e.seat, "text": e.text}
                for e in entries]

    # ------------------------------------------------------------------ solo results
    reports: dict[str, dict[str, Any] | None] = {}  # finished tables never change

    @app.get("/api/solo/{player:path}")
    async def solo(player: str, game: str | None = Query(
            None, description="the game (by default the one game keeping such tables)")
    ) -> dict[str, Any]:
        """``player``'s Pergola solo achievement table (P10): every finished solo game under
        that seat name, the best score in each of the ten spaces (a failed challenge counts in
        the Free game space), the total, the spaces still missing and the 1000 club. A name
        that never finished a solo game gets an empty table."""
        checked_text(player, "the player's name", 60)
        keeping = solo_games()
        if game is None and keeping:
            game = keeping[0]
        if game not in keeping:
            raise HTTPException(404, f"game {game!r} keeps no solo achievement table; games "
                                     f"that do: {', '.join(keeping) or 'none'}")
        tables = await asyncio.to_thread(store.finished_with_seat, player, game, 1)
        return await asyncio.to_thread(_solo_table, store, game, player, tables, reports)

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        svc = service()
        try:
            rt = await svc.runtime(table_id)
        except NotFound as exc:
            await ws.send_json({"type": "error", "reason": str(exc)})
            await ws.close(code=4404)
            return
        except StoreUnavailable as exc:  # the table cannot be read now: come back later
            await ws.send_json(_unavailable_frame(exc))
            await ws.close(code=1013)
            return
        client: Client | None = None
        send_lock = asyncio.Lock()
        svc.connections[table_id] = svc.connections.get(table_id, 0) + 1

        async def send(frame: dict[str, Any] | str) -> None:
            async with send_lock:
                if isinstance(frame, str):  # already JSON (a view frame)
                    await ws.send_text(frame)
                else:
                    await ws.send_json(frame)

        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = await _read_frame(message, send)
                if frame is None:
                    continue
                try:
                    client = await _handle(svc, rt, table_id, client, frame, send)
                except WebSocketDisconnect:
                    raise
                except Exception:  # a defect: logged, answered, and the connection kept
                    log.exception("unexpected error on a %s frame at table %s",
                                  frame.get("type"), table_id)
                    await send(_error("the server failed on this frame (a defect: it is "
                                      "logged); nothing was changed by it"))
        except WebSocketDisconnect:
            pass
        finally:
            if client is not None:
                rt.clients.discard(client)
            left = svc.connections.pop(table_id, 1) - 1
            if left > 0:
                svc.connections[table_id] = left

    return app


#: How many finished tables' analyses and solo reports are kept in memory.
CACHED = 512

#: A fault to inject, for the reliability tests only (docs/reliability.md): with
#: ``MEEPLE_FAULT=crash-after-commit:join`` (or ``:create``) the process dies as a kill -9
#: would, right after that request's commit and before its reply.
FAULT_ENV = "MEEPLE_FAULT"


def _fault_point(name: str) -> None:
    if os.environ.get(FAULT_ENV) == f"crash-after-commit:{name}":
        log.warning("%s: dying after the commit of a %s request", FAULT_ENV, name)
        os._exit(137)


#: What the ``Idempotency-Key`` header is, for the API docs.
IDEMPOTENCY_HELP = ("a key of your own for this request (16 to 200 printable ASCII characters, "
                    "unguessable: e.g. a random UUID), so that a retry after a lost reply gets "
                    "the same answer instead of doing it again; a retry must repeat the "
                    "request exactly")


def _idempotency(header: str | None, scope: str, *request: str) -> Idempotency | None:
    """The request's idempotency key from its header (None without one); a key that is too
    short to be unguessable, too long or not printable ASCII is refused (422)."""
    if header is None:
        return None
    if not 16 <= len(header) <= 200 or not header.isascii() or not header.isprintable():
        raise BadInput("Idempotency-Key must be 16 to 200 printable ASCII characters (an "
                       "unguessable key of your own, e.g. a random UUID)")
    digest = hashlib.sha256("\0".join(request).encode("utf-8")).hexdigest()
    return Idempotency(header, scope, digest)


def _answer(store: Store, taken: Taken) -> Joined | TableOut:
    """The answer to a create or join: the table as it is now, with the seat taken and its
    secret when one was taken."""
    table = table_out(store.table(taken.table_id))
    if taken.seat is None or taken.secret is None:
        return table
    return Joined(table=table, seat=taken.seat, secret=taken.secret)


def _validation_body(exc: RequestValidationError) -> dict[str, Any]:
    """A refused request's body in the error format of every error (``detail``, a sentence),
    with each problem's place and message (never the input itself, which may be anything)."""
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "(request)"
        message = str(err.get("msg", "invalid"))
        if isinstance(err.get("ctx"), dict) and "error" in err["ctx"]:
            message = str(err["ctx"]["error"])
        problems.append({"field": where, "message": message.encode("utf-8", "replace")
                         .decode("utf-8")})
    shown = "; ".join(f"{p['field']}: {p['message']}" for p in problems[:5])
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return {"detail": f"the request is not valid: {shown}{more}", "problems": problems}


async def _read_frame(message: Mapping[str, Any], send: Any) -> dict[str, Any] | None:
    """The frame a WebSocket message holds, strictly parsed (:func:`loads_strict`); None after
    telling the client what was wrong with it."""
    raw: str | bytes | None = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    if len(raw) > MAX_FRAME:
        await send(_error(f"frame too large ({len(raw)} bytes; at most {MAX_FRAME})"))
        return None
    try:
        frame = loads_strict(raw, "the frame")
    except BadInput as exc:
        await send(_error(str(exc)))
        return None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        await send(_error('a frame is a JSON object with a "type"'))
        return None
    return frame


async def _handle(svc: Service, rt: Any, table_id: str, client: Client | None,
                  frame: dict[str, Any], send: Any) -> Client | None:
    """Answer one frame; returns the connection's client (a hello makes a new one)."""
    kind = frame["type"]
    if kind == "ping":
        await send({"type": "pong"})
    elif kind == "hello":
        return await _unless_unavailable(_hello(svc, rt, frame, send, client), send, client)
    elif client is None:
        await send(_error('say hello first: {"type": "hello", "seat": N, '
                          '"secret": "..."} or {"type": "hello"} to watch'))
    elif kind in ("move", "undo"):
        await _move(svc, table_id, client, frame, send)
    elif kind == "preview":
        await _preview(svc, table_id, client, frame, send)
    elif kind == "back":
        if client.viewer is None:
            await send(_error("a spectator has no seat to take back"))
        else:
            await _unless_unavailable(svc.set_absent(table_id, client.viewer, False), send, None)
    else:
        await send(_error(f"unknown frame type {kind[:40]!r}; types: hello, move, undo, "
                          "preview, back, ping"))
    return client


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


def _solo_table(store: Store, game: str, player: str, tables: list[Table],
                cache: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """``player``'s achievement table of ``game`` (its ``SOLO.table``) over their finished
    solo tables."""
    solo = solo_reports(game)
    assert solo is not None
    games = []
    for t in tables:
        if t.id not in cache:
            cache[t.id] = _solo_report(store, t)
            if len(cache) > CACHED:
                cache.pop(next(iter(cache)))
        rep = cache[t.id]
        if rep is None:
            continue
        games.append({**rep, "table": t.id if t.public else None,
                      "finished": t.updated.isoformat()})
    return {"player": player, "game": game, **solo.table(games)}


def _position(state: Any, at: int) -> Any:
    """The position after the first ``at`` moves of ``state``'s game."""
    return state.replay_moves(state.history[:at])


def _moves_of(frame: dict[str, Any]) -> list[str] | None:
    """The move texts of a move frame: ``move`` (one) or ``moves`` (a list, at most 64)."""
    raw = frame.get("moves", [frame.get("move")] if "move" in frame else None)
    if not isinstance(raw, list) or not 0 < len(raw) <= 64:
        return None
    if not all(isinstance(m, str) and m.strip() and len(m) <= 200 for m in raw):
        return None
    return raw


async def _preview(svc: Service, table_id: str, client: Client, frame: dict[str, Any],
                   send: Any) -> None:
    raw = frame.get("moves")
    moves = [] if raw == [] else _moves_of(frame)
    if moves is None:
        await send(_error("preview needs moves: a list of move texts (may be empty)"))
        return
    if client.viewer is None:
        await send({"type": "refused", "reason": "spectators cannot move"})
        return
    try:
        view, played, complete = await svc.preview(table_id, client.viewer, moves,
                                                    client.text, draft=client.draft)
    except Refused as exc:
        await send({"type": "refused", "preview": True, "reason": exc.reason,
                    "version": exc.version})
        return
    head = json.dumps({"type": "preview", "moves": played, "complete": complete},
                      ensure_ascii=False, separators=(",", ":"))
    await send(f'{head[:-1]},"view":{view.model_dump_json(by_alias=True)}}}')


def _error(reason: str) -> dict[str, Any]:
    return {"type": "error", "reason": reason}


async def _hello(svc: Service, rt: Any, frame: dict[str, Any], send: Any,
                 old: Client | None) -> Client | None:
    seat = frame.get("seat")
    if seat is not None:
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 0 <= seat < rt.table.players:
            await send(_error(f"seat must be a number 0..{rt.table.players - 1}"))
            return old
        secret = frame.get("secret")
        ok = await asyncio.to_thread(svc.store.check_secret, rt.table.id, seat,
                                     secret if isinstance(secret, str) else None)
        if not ok:
            await send(_error(f"that is not the secret of seat {seat}"))
            return old
    if old is not None:
        rt.clients.discard(old)
    client = Client(viewer=seat, send=send, text=frame.get("text") is True)
    rt.clients.add(client)
    try:
        await svc.refresh(rt)
    except StoreUnavailable:
        rt.clients.discard(client)
        raise
    await send({"type": "welcome", "table": rt.table.id, "seat": seat})
    await send(svc.view_frame_json(rt, seat, client.text))
    return client


async def _move(svc: Service, table_id: str, client: Client, frame: dict[str, Any],
                send: Any) -> None:
    move_id = frame.get("id")
    if move_id is not None and (not isinstance(move_id, str) or not 0 < len(move_id) <= 64
                                or not move_id.isprintable()):
        await send(_error("id must be printable text of 1 to 64 characters"))
        return
    version = frame.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        await send(_error("version must be the table version you last saw (a number)"))
        return
    if client.viewer is None:
        await send({"type": "refused", "id": move_id, "reason": "spectators cannot move",
                    "version": version})
        return
    try:
        if frame["type"] == "undo":
            new = await svc.undo(table_id, client.viewer, version, move_id)
        else:
            moves = _moves_of(frame)
            if moves is None:
                await send(_error('move must be the move\'s text, e.g. "take O", or moves a '
                                  'list of such texts (a whole turn at once)'))
                return
            new = await svc.play(table_id, client.viewer, moves, version, move_id)
    except AlreadyPlayed as exc:
        # the same id again (the connection dropped before the ack): played once, acked again
        await send({"type": "ack", "id": move_id, "version": exc.version, "resent": True})
        return
    except Refused as exc:
        await send({"type": "refused", "id": move_id, "reason": exc.reason,
                    "version": exc.version})
        return
    except StoreUnavailable as exc:
        await send(_unavailable_frame(exc, "refused", id=move_id, version=version))
        return
    await send({"type": "ack", "id": move_id, "version": new})


# ---------------------------------------------------------------------- the store unavailable
def _unavailable_response(exc: StoreUnavailable) -> JSONResponse:
    """A REST request the store could not serve now (its database down, its disk full or
    read-only): 503, saying so and to try again."""
    return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "2"})


def _unavailable_frame(exc: StoreUnavailable, kind: str = "error", **fields: Any
                       ) -> dict[str, Any]:
    """A WebSocket frame for a request the store could not serve now: ``refused`` for a move
    (with its id and version; send it again, with the same id, in a moment), else ``error``;
    ``retry`` says it is worth trying again. The connection stays open."""
    return {"type": kind, **fields, "reason": str(exc), "retry": True}


async def _unless_unavailable(step: Awaitable[T], send: Any, otherwise: T) -> T:
    """``step``'s result; if the store is unavailable, an ``error`` frame saying so is sent
    instead and ``otherwise`` returned (the connection stays open)."""
    try:
        return await step
    except StoreUnavailable as exc:
        await send(_unavailable_frame(exc))
        return otherwise


__all__ = ["create_app"]
