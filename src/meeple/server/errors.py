"""How the REST API answers what went wrong: every error is ``{"detail": "..."}`` with its
status (403 a rated table's seat without an account, 404 unknown, 409 conflict, 422 invalid,
503 store unavailable, 500 a defect)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.requests import Request

from meeple.core.errors import MeepleError
from meeple.server.table import uploads
from meeple.server.table.checks import BadInput
from meeple.store import (
    AccountNeeded,
    KeyReused,
    NotFound,
    NotRated,
    StoreError,
    StoreUnavailable,
)

log = logging.getLogger("meeple.server")


async def _store_error(_: Any, exc: Exception) -> JSONResponse:
    code = (404 if isinstance(exc, NotFound) else 422 if isinstance(exc, KeyReused | NotRated)
            else 403 if isinstance(exc, AccountNeeded) else 409)
    return JSONResponse({"detail": str(exc)}, status_code=code)


async def _store_unavailable(_: Any, exc: Exception) -> JSONResponse:
    """A REST request the store could not serve now (its database down, its disk full or
    read-only): 503, saying so and to try again."""
    return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "2"})


async def _unprocessable(_: Any, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=422)


async def _invalid(_: Any, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(validation_body(exc), status_code=422)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse({"detail": "the server failed on this request (a defect: it is "
                                   "logged); nothing was changed by it"}, status_code=500)


async def _sheet_rejected(_: Any, exc: Exception) -> JSONResponse:
    assert isinstance(exc, uploads.SheetRejected)
    return JSONResponse(exc.body(), status_code=exc.status)


def install(app: FastAPI) -> None:
    """Register the API's exception handlers on ``app``."""
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(StoreUnavailable, _store_unavailable)
    app.add_exception_handler(BadInput, _unprocessable)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(Exception, _unexpected)
    app.add_exception_handler(MeepleError, _unprocessable)
    app.add_exception_handler(uploads.SheetRejected, _sheet_rejected)


def validation_body(exc: RequestValidationError) -> dict[str, Any]:
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
