"""Shared parts of the fuzz tests (``test_fuzz_api.py``, ``test_fuzz_ws.py``; docs/fuzzing.md).

Issue 35: no input may ever give a 5xx or close a connection without a close frame, every error
is JSON ``{"detail": "..."}`` (src/meeple/server/table/README.md), and every refusal leaves the table's log
unchanged. This module seeds a server with real tables, takes snapshots of a table (its log and
its seats) to compare around a refused request, writes JSON the standard library refuses to
write (``NaN``, ``1e999``, raw invalid UTF-8) and reads the server log's tracebacks, so that a
failure names the line of the server that raised.

Budgets: ``MEEPLE_FUZZ_SCALE`` multiplies every example count (1 in CI; docs/fuzzing.md and
``benchmarks/fuzz_long.py`` run with more) and ``MEEPLE_FUZZ_SEED`` changes the fixed seed.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import Server

#: Every example count is multiplied by this (a longer run outside CI raises it).
SCALE = max(1, int(os.environ.get("MEEPLE_FUZZ_SCALE", "1")))
#: The fixed seed of every generator (Hypothesis and schemathesis).
SEED = int(os.environ.get("MEEPLE_FUZZ_SEED", "3535"))


def budget(examples: int) -> int:
    return examples * SCALE


# ---------------------------------------------------------------------- JSON no encoder writes
@dataclass(frozen=True)
class Raw:
    """Bytes written into a JSON text as they are: ``1e999``, ``NaN``, a deep ``[[[...]]]``,
    invalid UTF-8 inside a string (``Raw(b'"\\xff"')``)."""

    data: bytes

    def __repr__(self) -> str:
        text = self.data if len(self.data) <= 60 else self.data[:40] + b"..." + self.data[-10:]
        return f"Raw({text!r}, {len(self.data)} bytes)"


def dumps(value: Any) -> bytes:
    """``value`` as JSON bytes, the way a hostile client may write it: floats NaN and Infinity
    as the literals Python's json accepts, strings with lone surrogates as ``\\ud800`` escapes
    (what ``json.dumps`` writes), :class:`Raw` parts verbatim."""
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, dict):
        return b"{" + b",".join(dumps(str(k)) + b":" + dumps(v) for k, v in value.items()) + b"}"
    if isinstance(value, list | tuple):
        return b"[" + b",".join(dumps(v) for v in value) + b"]"
    if isinstance(value, float) and not math.isfinite(value):
        return b"NaN" if math.isnan(value) else b"Infinity" if value > 0 else b"-Infinity"
    return json.dumps(value).encode("ascii")


def nested(depth: int, opener: bytes = b"[", closer: bytes = b"]", core: bytes = b"") -> Raw:
    """JSON nested ``depth`` levels deep (``[[[...]]]``, or ``{"a":{"a":...}}``)."""
    return Raw(opener * depth + core + closer * depth)


# ---------------------------------------------------------------------- the seeded server
@dataclass
class Seeded:
    """Real tables on the server: ids and the secrets of their taken seats."""

    waiting: str = ""   # two human seats, seat 0 taken (Ann)
    running: str = ""   # two human seats, both taken: runs, and nothing moves by itself
    versus: str = ""    # a human (seat 0, Ann) against a bot, the human to move
    finished: str = ""  # two random bots, played out
    solo: str = ""      # a finished one-seat Pergola game under the name Ann
    secrets: dict[tuple[str, int], str] = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        return [self.waiting, self.running, self.versus, self.finished, self.solo]


def create(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    r = server.api("POST", "/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(server: Server, table: str, name: str) -> tuple[int, str]:
    r = server.api("POST", f"/api/tables/{table}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return int(r.json()["seat"]), str(r.json()["secret"])


def wait_for(server: Server, table: str, ok: Any, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = server.api("GET", f"/api/tables/{table}/view")
        if r.status_code == 200 and ok(r.json()):
            return
        time.sleep(0.05)
    raise AssertionError(f"table {table} never got {what}")


def seed_tables(server: Server) -> Seeded:
    s = Seeded()
    humans = [{"kind": "human"}, {"kind": "human"}]
    gardens = {"game": "gardens", "variant": {"level": 1}}
    made = create(server, {**gardens, "seats": humans, "join_as": "Ann"})
    s.waiting = made["table"]["id"]
    s.secrets[s.waiting, 0] = made["secret"]

    made = create(server, {**gardens, "seats": humans, "join_as": "Ann"})
    s.running = made["table"]["id"]
    s.secrets[s.running, 0] = made["secret"]
    seat, secret = join(server, s.running, "Bob")
    s.secrets[s.running, seat] = secret

    made = create(server, {**gardens, "join_as": "Ann",
                           "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    s.versus = made["table"]["id"]
    s.secrets[s.versus, 0] = made["secret"]

    s.finished = create(server, {**gardens, "seats": [{"kind": "bot", "bot": "random"}] * 2})["id"]
    s.solo = create(server, {"game": "pergola", "variant": {"challenge": 3},
                             "seats": [{"kind": "bot", "bot": "random", "name": "Ann"}]})["id"]
    wait_for(server, s.running, lambda f: f["view"]["to_move"] in (0, 1), "a seat to move")
    wait_for(server, s.versus, lambda f: f["view"]["to_move"] == 0, "Ann to move")
    for t in (s.finished, s.solo):
        wait_for(server, t, lambda f: f["view"]["over"], "the end of the game")
    return s


# ---------------------------------------------------------------------- snapshots
def snapshot(server: Server, table: str, client: httpx.Client | None = None) -> dict[str, Any]:
    """What a refusal must leave as it was: the whole stored log, the status, version, seats
    (taken, absent, names), open seats and result (``updated`` is left out)."""
    get = client.get if client is not None else (lambda p: server.api("GET", p))
    r = get(f"/api/tables/{table}")
    assert r.status_code == 200, f"GET /api/tables/{table}: {r.status_code} {r.text[:300]}"
    t = r.json()
    r = get(f"/api/tables/{table}/log")
    assert r.status_code == 200, f"GET /api/tables/{table}/log: {r.status_code} {r.text[:300]}"
    return {"log": r.json(), **{k: t[k] for k in ("status", "version", "seats", "open_seats",
                                                  "result", "clock")}}


def quiet(server: Server, snap: dict[str, Any], table: str,
          client: httpx.Client | None = None) -> bool:
    """Whether nothing can change ``table`` by itself from ``snap`` on: finished or waiting, or
    running with no clock, no stand-in bot playing and a person to move (so the log may change
    only through a request)."""
    if snap["status"] in ("finished", "waiting"):
        return True
    seats = snap["seats"]
    if snap["clock"] is not None or any(s["absent"] for s in seats):
        return False
    get = client.get if client is not None else (lambda p: server.api("GET", p))
    view = get(f"/api/tables/{table}/view").json()
    if view.get("version") != snap["version"]:
        return False
    to_move = view["view"]["to_move"]
    return isinstance(to_move, int) and 0 <= to_move < len(seats) and \
        seats[to_move]["kind"] == "human"


# ---------------------------------------------------------------------- the error format
def error_shape_problem(status: int, content_type: str, body: bytes) -> str | None:
    """Why a 4xx answer breaks the docs' error format (JSON ``{"detail": "..."}``), or None."""
    if not 400 <= status < 500:
        return None
    if not content_type.startswith("application/json"):
        return f"{status} is not JSON (content-type {content_type!r}): {body[:120]!r}"
    try:
        got = json.loads(body)
    except ValueError:
        return f"{status} body is not JSON: {body[:120]!r}"
    if not isinstance(got, dict) or not isinstance(got.get("detail"), str):
        return f'{status} body is not {{"detail": str}}: {json.dumps(got)[:200]}'
    return None


# ---------------------------------------------------------------------- the server log
_FRAME = re.compile(r'File "[^"]*/(src/meeple/[^"]+)", line (\d+), in (\S+)')
#: A library's frame (for a traceback with none of meeple's).
_LIB_FRAME = re.compile(r'File "[^"]*/site-packages/([^"]+)", line (\d+), in (\S+)')


@dataclass
class LogReader:
    """Reads the tracebacks a server wrote to its log since the last look."""

    path: Path
    offset: int = 0

    def skip(self) -> None:
        self.offset = self.path.stat().st_size if self.path.exists() else 0

    def tracebacks(self) -> list[str]:
        """Each new traceback as one line: the deepest meeple frame and the exception. A
        traceback being written is waited for (until the log stops growing, 1 s at most)."""
        if not self.path.exists():
            return []
        size, deadline = -1, time.monotonic() + 1
        while True:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                data = f.read()
            if b"Traceback" not in data or len(data) == size or time.monotonic() > deadline:
                break
            size = len(data)
            time.sleep(0.05)
        self.offset += len(data)
        return summarize(data.decode("utf-8", "replace"))


def summarize(text: str) -> list[str]:
    """Each traceback in ``text`` (a chain of them, "During handling ..." or "The above
    exception ...", counts as one) as ``path:line in function: Exception: message``: the
    deepest frame in meeple's source (else in a library), the first exception of the chain
    and, if another, the last one (the one that escaped)."""
    chains: list[list[str]] = []
    inside = False  # in a traceback's frames
    linked = False  # just past "During handling ..." or "The above exception ...": same chain
    ended = False  # just past a traceback's exception line
    for line in text.splitlines():
        if line.startswith("Traceback (most recent call last):"):
            if not (chains and linked):
                chains.append([])
            chains[-1].append(line)
            inside, linked, ended = True, False, False
        elif inside:
            chains[-1].append(line)
            if line.strip() and not line.startswith((" ", "\t")) and _looks_like_exception(line):
                inside, ended = False, True
        elif ended and line.startswith(("During handling", "The above exception")):
            linked = True
        elif _LOG_LINE.match(line):  # the exception's message (any lines) ends at a log line
            linked = ended = False
    out = []
    for chain in chains:
        block = "\n".join(chain)
        frames = _FRAME.findall(block) or _LIB_FRAME.findall(block)
        where = f"{frames[-1][0]}:{frames[-1][1]} in {frames[-1][2]}" if frames else \
            "(no frame)"
        errors = [ln.strip()[:160] for ln in chain if _looks_like_exception(ln)]
        said = errors[0] if errors else "?"
        if len(errors) > 1 and errors[-1] != errors[0]:
            said += f" (then {errors[-1]})"
        out.append(f"{where}: {said}")
    return out


#: A line the server's logging writes ("ERROR:    Exception in ASGI application").
_LOG_LINE = re.compile(r"^(CRITICAL|ERROR|WARNING|INFO|DEBUG|TRACE):")
#: An exception line: a (dotted) class name with a lower-case letter, then ":" or nothing
#: ("RecursionError: ...", "meeple.server.table.service.Refused: ..."; not "ERROR: ..." log lines).
_EXC = re.compile(r"^([A-Za-z_]\w*\.)*[A-Z]\w*[a-z]\w*(:|$)")


def _looks_like_exception(line: str) -> bool:
    return bool(_EXC.match(line))
