"""schemathesis hooks and checks for the meeple server (``SCHEMATHESIS_HOOKS`` names this file).

``tests/server/test_fuzz_api.py`` and ``benchmarks/fuzz_long.py`` run ``schemathesis run``
against a real ``meeple serve`` seeded with real tables and pass them in the environment:
``MEEPLE_FUZZ_TARGET`` is JSON ``{"base": URL, "tables": [ids], "secrets": {id: [secret]},
"log": server log path}``. Here:

- ``before_call`` points a case at one of the real tables most of the time (schemathesis cannot
  guess a table id) and gives it a real seat secret now and then, chosen from the generated
  value itself so that a run is the same each time; and it takes a snapshot of that table;
- ``no_server_error`` fails on any 5xx with the server log's traceback line;
- ``error_is_detail``: every 4xx is JSON ``{"detail": "..."}`` (src/meeple/server/table/README.md, *Errors*);
- ``success_conforms``: a 2xx matches its documented schema (the schema FastAPI documents for
  a 422, a list of validation errors, is not the docs' error format, so errors are held to
  ``error_is_detail`` instead);
- ``refusal_changes_nothing``: a 4xx on a seeded table that could not change by itself left its
  stored log, seats and status as they were.
"""

from __future__ import annotations

import json
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from schemathesis.specs.openapi.checks import response_schema_conformance

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.server.fuzzing import LogReader, error_shape_problem

TARGET: dict[str, Any] = json.loads(os.environ.get("MEEPLE_FUZZ_TARGET", "{}"))
TABLES: list[str] = TARGET.get("tables", [])
SECRETS: dict[str, list[str]] = TARGET.get("secrets", {})
_client = httpx.Client(base_url=TARGET.get("base", "http://127.0.0.1:8000"), timeout=120)
GAMES = ["gardens", "reefs", "takenokolor", "pergola"]
#: The shipped sheets (names and texts) of the games that take a sheet of one's own.
SHEETS: dict[str, dict[str, str]] = {}
for _game in GAMES[:3]:
    _names = _client.get(f"/api/sheets/{_game}").json().get("shipped", []) if TABLES else []
    SHEETS[_game] = {n: _client.get(f"/api/sheets/{_game}/{n}").text for n in _names}
#: Sheet files to check now and then instead of a generated string: shipped ones, and shipped
#: ones made hostile (a number TOML allows but no sheet does, an integer beyond 64 bits, an
#: array nested deeper than any parser's stack, an escaped lone surrogate).
_TEXTS = [t for names in SHEETS.values() for t in names.values()]
SHEET_FILES: list[Any] = _TEXTS[:3] + [t.replace("= 1\n", "= nan\n", 1) for t in _TEXTS[:1]] + \
    [t.replace("= 1\n", "= 99999999999999999999999\n", 1) for t in _TEXTS[:1]] + \
    ["x = " + "[" * 50000 + "]" * 50000 + "\n", "name = \"\\ud800\"\n"]
# (bytes that are not UTF-8 are sent by test_fuzz_api.py's own sheet tests: schemathesis
# validates every case it sends against the schema, and a value that is not text stops it)
#: Snapshots taken before a call, by the case object's id, with the table they are of.
_before: dict[int, tuple[str, dict[str, Any]]] = {}
#: The size of the server log before a call, by the case object's id.
_log_at: dict[int, int] = {}


def _pick(value: Any, choices: list[Any]) -> Any:
    """One of ``choices`` or ``value`` itself, chosen by the value (the same case is aimed the
    same way on every run)."""
    slot = zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % (len(choices) + 1)
    return choices[slot] if slot < len(choices) else value


def _snapshot(table: str, *, if_quiet: bool) -> dict[str, Any] | None:
    """The table as a refusal must leave it (its stored log, status, version, seats, result);
    with ``if_quiet``, None if it could change by itself (a bot, a draw or a clock to come)."""
    t = _client.get(f"/api/tables/{table}")
    entries = _client.get(f"/api/tables/{table}/log")
    if t.status_code != 200 or entries.status_code != 200:
        return None
    info = t.json()
    snap = {"log": entries.json(), **{k: info[k] for k in ("status", "version", "seats",
                                                           "open_seats", "result")}}
    if not if_quiet or info["status"] in ("waiting", "finished"):
        return snap
    if info["clock"] is not None or any(s["absent"] for s in info["seats"]):
        return None
    view = _client.get(f"/api/tables/{table}/view").json()
    to_move = view["view"]["to_move"]
    if view["version"] != info["version"] or not isinstance(to_move, int) or \
            not 0 <= to_move < len(info["seats"]) or info["seats"][to_move]["kind"] != "human":
        return None  # a bot or a draw is to move: the table changes by itself
    return snap


@schemathesis.serializer("application/toml")
def toml_file(ctx: Any, value: Any) -> bytes:
    """A sheet file as sent: text as UTF-8 (a lone surrogate as the bytes it would have, which
    are not UTF-8), bytes as they are, anything else as its JSON."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return json.dumps(value).encode("utf-8", "surrogatepass")


def _aim_names(case: Any) -> None:
    """Real game and sheet names now and then, so requests get past the 404s."""
    params = case.path_parameters or {}
    if "game" in params:
        params["game"] = _pick(params["game"], GAMES)
        if "name" in params and params["game"] in SHEETS:
            params["name"] = _pick(params["name"], list(SHEETS[params["game"]]))
    if "player" in params:
        params["player"] = _pick(params["player"], ["Ann"])
    if isinstance(case.query, dict) and "game" in case.query:
        case.query["game"] = _pick(case.query["game"], GAMES)
    if isinstance(case.body, dict) and "game" in case.body:
        case.body["game"] = _pick(case.body["game"], GAMES)
    if case.operation.path.endswith("/check") and case.method.upper() == "POST":
        case.body = _pick(case.body, SHEET_FILES)


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    params = case.path_parameters
    _before.pop(id(case), None)
    if TARGET.get("log") and Path(TARGET["log"]).exists():
        _log_at[id(case)] = Path(TARGET["log"]).stat().st_size
    _aim_names(case)
    if not params or "table_id" not in params or not TABLES:
        return
    params["table_id"] = table = _pick(params["table_id"], TABLES * 3)
    if table not in TABLES:
        return
    if case.headers and "x-seat-secret" in case.headers and SECRETS.get(table):
        case.headers["x-seat-secret"] = _pick(case.headers["x-seat-secret"], SECRETS[table])
    snap = _snapshot(table, if_quiet=True)
    if snap is not None:
        _before[id(case)] = (table, snap)


def _traceback_line(case: Any) -> str:
    """The traceback the server logged for ``case`` (it writes it just after answering)."""
    log = Path(TARGET.get("log", ""))
    if not TARGET.get("log") or not log.exists():
        return "(no server log)"
    reader = LogReader(log, _log_at.get(id(case), max(0, log.stat().st_size - 30000)))
    deadline = time.monotonic() + 2
    found = reader.tracebacks()
    while not found and time.monotonic() < deadline:
        time.sleep(0.02)
        found = reader.tracebacks()
    return found[-1] if found else "(no traceback in the server log)"


def _content_type(response: Any) -> str:
    value = response.headers.get("content-type", "")
    return str(value[0] if isinstance(value, list) and value else value)


@schemathesis.check
def no_server_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """No answer is a 5xx; the failure names the server's traceback line."""
    if response.status_code >= 500:
        raise AssertionError(f"{response.status_code} from the server; server log: "
                             f"{_traceback_line(case)}")
    return None


@schemathesis.check
def error_is_detail(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx is JSON {"detail": "..."} (src/meeple/server/table/README.md, *Errors*)."""
    problem = error_shape_problem(response.status_code, _content_type(response), response.content)
    if problem is not None:
        raise AssertionError(problem)
    return None


@schemathesis.check
def success_conforms(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 2xx answer matches the response schema the server documents for it."""
    if response.status_code < 300:
        return response_schema_conformance(ctx, response, case)
    return None


@schemathesis.check
def refusal_changes_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
    """A refused request (4xx) left the seeded table it was aimed at as it was."""
    found = _before.get(id(case))
    if found is None or not 400 <= response.status_code < 500:
        return None
    table, before = found
    after = _snapshot(table, if_quiet=False)
    if after is not None and after != before:
        raise AssertionError(f"refused with {response.status_code}, yet table {table} changed: "
                             f"version {before['version']} -> {after['version']}, status "
                             f"{before['status']} -> {after['status']}")
    return None
