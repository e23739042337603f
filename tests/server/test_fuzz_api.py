"""Fuzzing the REST lobby of a real ``meeple serve`` (issue 35; docs/fuzzing.md).

Two parts, both against a server process on 127.0.0.1 (SQLite, and PostgreSQL when
``MEEPLE_TEST_POSTGRES`` is set) seeded with real tables (waiting, running, a person against a
bot, finished, a finished Pergola solo game):

- schemathesis (its command line, ``schemathesis run``) reads the server's own
  ``/openapi.json`` and tests every operation with data that fits the schema and data that
  does not (its examples, coverage, fuzzing and stateful phases), on a fixed seed and a bounded
  budget; hooks (``schemathesis_hooks.py``) aim a case at one of the real tables most of the
  time, with a real seat secret now and then, so requests get past the 404s;
- hand-written hostile requests on every endpoint: numbers JSON does not allow (NaN,
  Infinity, 1e999), strings that are not Unicode (lone surrogates escaped in JSON, raw invalid
  UTF-8), integers beyond 64 bits in paths, queries and bodies, binary bodies, wrong content
  types, JSON nested 100000 levels deep and huge bodies; and Hypothesis mixing such values into
  otherwise valid bodies and queries.

Every answer must be below 500; every 4xx must be JSON ``{"detail": "..."}``
(src/meeple/server/table/README.md);
and a refused request must leave the table (its stored log, seats and status) as it was. The
hand-written parts collect every failure before failing, so one run lists them all, each with
the server log's traceback line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import sqlalchemy
import sqlalchemy.pool
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from tests.server.conftest import SQLITE_ONLY, TLS, Server
from tests.server.fuzzing import (
    SEED,
    LogReader,
    Raw,
    Seeded,
    budget,
    dumps,
    error_shape_problem,
    nested,
    quiet,
    seed_tables,
    snapshot,
    summarize,
)
from tests.server.fuzzing import create as fz_create

ROOT = Path(__file__).resolve().parents[2]
#: Examples per operation in schemathesis's fuzzing phase (its coverage, examples and
#: stateful phases add their own, bounded numbers). 10 in CI (it was 25: the fuzzing phase was
#: half of the test's minute; issue 36); ``benchmarks/fuzz_long.py`` multiplies it.
API_EXAMPLES = budget(10)


@pytest.fixture(scope="module")
def seeded(server: Server) -> Seeded:
    return seed_tables(server)


@pytest.fixture(scope="module")
def log_reader(server: Server) -> LogReader:
    reader = LogReader(server.log)
    reader.skip()
    return reader


# ====================================================================== schemathesis
HOOKS = Path(__file__).with_name("schemathesis_hooks.py")
#: The checks schemathesis runs besides its own defaults, from schemathesis_hooks.py:
#: no_server_error, error_is_detail, success_conforms and refusal_changes_nothing. Its own left
#: out: status_code_conformance (FastAPI documents 200 and 422 only, not the 403, 404 and 409
#: that docs/server.md promises), response_schema_conformance (FastAPI documents a 422 as a list
#: of validation errors, the docs as {"detail": str}: success_conforms checks every 2xx and
#: error_is_detail every 4xx instead), positive_data_acceptance (a valid request for an unknown
#: table is rightly a 404), negative_data_rejection (pydantic's lax mode takes 0 for false and
#: "1" for 1, by design) and allow_header_conformance (Starlette's 405 for a path two routes
#: share, e.g. OPTIONS /api/tables, lists the methods of one of them only).
EXCLUDED_CHECKS = ("status_code_conformance,response_schema_conformance,positive_data_acceptance,"
                   "negative_data_rejection,allow_header_conformance")


def schemathesis_command(server: Server, examples: int, seed: int, *more: str) -> list[str]:
    """``schemathesis run`` against ``server``'s own /openapi.json: every operation, the
    examples, coverage, fuzzing and stateful phases, one worker, a fixed seed."""
    return [sys.executable, "-m", "schemathesis.cli", "run", f"{server.base}/openapi.json",
            "--workers", "1", "--phases", "examples,coverage,fuzzing,stateful",
            "--max-examples", str(examples), "--seed", str(seed), "--no-color",
            "--continue-on-failure", "--request-timeout", "120",
            "--exclude-checks", EXCLUDED_CHECKS, "--suppress-health-check", "all", *more]


def schemathesis_env(server: Server, seeded: Seeded) -> dict[str, str]:
    secrets: dict[str, list[str]] = {}
    for (table, _), secret in seeded.secrets.items():
        secrets.setdefault(table, []).append(secret)
    target = {"base": server.base, "tables": seeded.ids, "secrets": secrets,
              "log": str(server.log)}
    return {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS),
            "MEEPLE_FUZZ_TARGET": json.dumps(target), "PYTHONPATH": str(ROOT)}


#: schemathesis on SQLite only: what a store may refuse (NUL in text, integers past 64 bits,
#: deep or huge values) is sent to every field, path and query on both stores by the explicit
#: tests below.
@SQLITE_ONLY
def test_schemathesis_every_operation_of_the_openapi_schema(
        server: Server, seeded: Seeded, tmp_path: Path) -> None:
    """schemathesis on every operation the server documents, on a fixed seed and a bounded
    budget: no 5xx (with the server's traceback line), every 4xx {"detail": str}, every 2xx as
    documented, no refusal changing a table, and schemathesis's own checks on content types,
    response headers, missing required headers and unsupported methods. (Why schemathesis's
    command line and not its pytest plugin: the plugin does not run on pytest 9.2, which this
    project locks; it reads a node attribute pytest renamed.)"""
    documented = server.api("GET", "/openapi.json").json()["paths"]
    assert len(documented) >= 15, sorted(documented)
    cmd = schemathesis_command(server, API_EXAMPLES, SEED)
    done = subprocess.run(cmd, env=schemathesis_env(server, seeded), cwd=tmp_path,
                          capture_output=True, text=True, timeout=1800)
    out = done.stdout + done.stderr
    tested = re.search(r"Tested: (\d+)", out)
    assert tested is not None and int(tested.group(1)) == sum(
        len(ops) for ops in documented.values()), out[-3000:]
    if done.returncode != 0:
        cut = out.find("=== ERRORS ===") if "=== ERRORS ===" in out else out.find("=== FAILURES")
        pytest.fail(f"schemathesis found failures (exit {done.returncode}):\n"
                    f"{_shorten(out[max(0, cut - 40):], 30000)}", pytrace=False)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit // 2] + "\n[...]\n" + text[-limit // 2:]


# ====================================================================== hostile requests
@dataclass
class Req:
    """One hostile request: ``path`` is sent as written (percent escapes and all)."""

    method: str
    path: str
    what: str
    content: bytes | None = None
    headers: dict[str, str | bytes] = field(default_factory=dict)
    #: the table a refusal must leave as it was
    table: str | None = None


@dataclass
class Findings:
    """The failures of one test, listed all at once at its end (deduplicated by what failed
    and the server's traceback line, with a count and the first request of each)."""

    seen: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    requests: int = 0

    def add(self, req: Req, problem: str, tracebacks: list[str]) -> None:
        kind = re.sub(r"\d{6,}", "N", problem.split(":")[0])
        key = (f"{req.method} {_endpoint(req.path)}: {kind}", "; ".join(sorted(set(tracebacks))))
        self.seen.setdefault(key, []).append(f"{req.what}: {problem[:300]}")

    def check(self) -> None:
        if not self.seen:
            return
        lines = [f"{len(self.seen)} distinct failures in {self.requests} hostile requests:"]
        for (what, tb), examples in self.seen.items():
            lines.append(f"- {what} (x{len(examples)}) e.g. {examples[0]}")
            lines.append(f"    server log: {tb or '(no traceback)'}")
        pytest.fail("\n".join(lines), pytrace=False)


def _endpoint(path: str) -> str:
    """The route a path is of: a table id, game or name shown as {...}."""
    path = path.split("?")[0]
    for pattern, route in _ROUTES:
        found = re.fullmatch(pattern, path)
        if found:
            return found.expand(route)
    return path[:80]


_ROUTES = [
    (r"/api/tables/[^/]*/(\w+)", r"/api/tables/{id}/\1"), (r"/api/tables/[^/]+", "/api/tables/{id}"),
    (r"/api/schema/.*", "/api/schema/{game}"), (r"/api/sheets/[^/]*/check", "/api/sheets/{game}/check"),
    (r"/api/sheets/[^/]*/.*", "/api/sheets/{game}/{name}"), (r"/api/sheets/[^/]*", "/api/sheets/{game}"),
    (r"/api/solo/.*", "/api/solo/{player}"), (r"/api/users/[^/]*/solo", "/api/users/{username}/solo"),
    (r"/api/users/[^/]*/ratings", "/api/users/{username}/ratings"),
    (r"/api/users/[^/]*", "/api/users/{username}"),
    (r"/api/leaderboard/.*", "/api/leaderboard/{game}"),
    (r"/api/rules/.*", "/api/rules/{game}")]


class Prober:
    """Sends hostile requests and judges each answer: below 500, a 4xx as {"detail": str}, and
    a refusal leaving its table (stored log, seats, status) as it was.

    A POST is judged on its own: the table before and after it. A GET may never change a table,
    accepted or not, so GETs are judged together: the tables they were sent to are compared at
    the end of the test with the first look at them."""

    def __init__(self, server: Server, log_reader: LogReader) -> None:
        self.server, self.log = server, log_reader
        self.http = httpx.Client(base_url=server.base, timeout=120, verify=TLS)
        self.db = sqlalchemy.create_engine(server.db_url, poolclass=sqlalchemy.pool.NullPool)
        self.findings = Findings()
        self.watched: dict[str, tuple[Req, dict[str, Any] | None]] = {}

    def close(self) -> None:
        self.http.close()
        self.db.dispose()

    def table_count(self) -> int:
        """How many tables the database holds (listed or not)."""
        with self.db.connect() as conn:
            return int(conn.execute(sqlalchemy.text("SELECT count(*) FROM game_tables"))
                       .scalar_one())

    def _quiet_snapshot(self, table: str) -> dict[str, Any] | None:
        try:
            snap = snapshot(self.server, table, self.http)
        except AssertionError:
            return None
        return snap if quiet(self.server, snap, table, self.http) else None

    def send(self, req: Req) -> httpx.Response | None:
        self.findings.requests += 1
        before = None
        if req.table is not None and req.method != "GET":
            before = self._quiet_snapshot(req.table)
        elif req.table is not None and req.table not in self.watched:
            self.watched[req.table] = (req, self._quiet_snapshot(req.table))
        counted = self.table_count() if req.path.startswith("/api/tables") and \
            req.method == "POST" and req.table is None else None
        self.log.skip()
        try:
            headers = {k.encode(): v if isinstance(v, bytes) else v.encode()
                       for k, v in req.headers.items()}
            r = self.http.request(req.method, req.path, content=req.content, headers=headers)
        except httpx.LocalProtocolError:
            raise  # the request is no HTTP: the test's own mistake, not the server's
        except httpx.HTTPError as exc:
            self.findings.add(req, f"no answer: the connection was dropped ({exc!r})",
                              self._tracebacks(wait=True))
            self._reconnect()
            return None
        if r.status_code >= 500:
            # the server closes a connection after an unhandled exception: start a new one, so
            # that the next request is not blamed for it
            self._reconnect()
        problems = []
        if r.status_code >= 500:
            problems.append(f"{r.status_code}: {r.text[:100]!r}")
        shape = error_shape_problem(r.status_code, r.headers.get("content-type", ""), r.content)
        if shape is not None:
            problems.append(shape)
        if 400 <= r.status_code < 500 and before is not None and req.table is not None:
            after = snapshot(self.server, req.table, self.http)
            if after != before:
                problems.append(f"refused with {r.status_code}, yet the table changed (version "
                                f"{before['version']} -> {after['version']}, status "
                                f"{before['status']} -> {after['status']})")
        if 400 <= r.status_code < 500 and counted is not None and self.table_count() != counted:
            problems.append(f"refused with {r.status_code}, yet a table was created")
        tracebacks = self._tracebacks(wait=r.status_code >= 500)
        for p in problems:
            self.findings.add(req, p, tracebacks)
        return r

    def _reconnect(self) -> None:
        self.http.close()
        self.http = httpx.Client(base_url=self.server.base, timeout=120, verify=TLS)

    def _tracebacks(self, wait: bool) -> list[str]:
        """The server's new tracebacks; after a 5xx or a drop, waiting (up to 2 s) for the one
        it writes just after answering."""
        found = self.log.tracebacks()
        deadline = time.monotonic() + (2 if wait else 0)
        while not found and time.monotonic() < deadline:
            time.sleep(0.01)
            found = self.log.tracebacks()
        return found

    def check(self) -> None:
        """Fail with every failure found (and any table a GET changed)."""
        for table, (first, before) in self.watched.items():
            if before is not None and snapshot(self.server, table, self.http) != before:
                self.findings.add(first, f"GET requests changed table {table}", [])
        self.findings.check()


@pytest.fixture(scope="module")
def tables(server: Server) -> Seeded:
    """Tables of the hand-written tests' own (schemathesis may have joined the others)."""
    return seed_tables(server)


@pytest.fixture
def prober(server: Server, log_reader: LogReader) -> Iterator[Prober]:
    p = Prober(server, log_reader)
    yield p
    p.close()


def waiting_table(server: Server) -> tuple[str, str]:
    made = fz_create(server, {"game": "gardens", "variant": {"level": 1}, "join_as": "Ann",
                              "seats": [{"kind": "human"}, {"kind": "human"}]})
    return made["table"]["id"], made["secret"]


# ---------------------------------------------------------------------- the hostile values
#: Path segments and query values as sent (already percent-encoded where they must be).
WIRE_VALUES = [
    "99999999999999999999999", "-99999999999999999999999", "18446744073709551616",
    "9223372036854775808", "-9223372036854775809", "1" + "0" * 400,
    "NaN", "nan", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "0x10", "1_0",
    "%EF%BC%91",  # a fullwidth digit one (int() reads it)
    "%ED%A0%80", "%ED%B0%80x",  # lone surrogates, UTF-8-encoded (not valid UTF-8)
    "%FF%FE", "%C0%AF", "%80", "%00", "%0A", "%F0%9F%8E%B2", "", "%20", "true", "[]", "{}",
    "x" * 5000,
]

#: Values put in a field of an otherwise valid JSON body.
FIELD_VALUES: list[Any] = [
    float("nan"), float("inf"), float("-inf"), Raw(b"1e999"), Raw(b"-1e999"), Raw(b"1e-999"),
    10**23, -(10**23), 2**63, 2**64, -(2**63) - 1, Raw(b"1" + b"0" * 5000),
    "\ud800", "\udfff", "a\ud800b", "\udbff\udbff",
    Raw(b'"\xff\xfe"'), Raw(b'"\xed\xa0\x80"'), Raw(b'"\xc0\xaf"'),
    nested(100000), nested(100000, b'{"a":', b"}", b"1"), nested(3000),
    "x" * 200_000, "\x00", "", True, None, [], {}, [1] * 10_000, {"$ne": None},
]

#: Whole bodies any endpoint gets (with a JSON content type unless said otherwise).
BODIES: list[tuple[str, bytes]] = [
    ("empty", b""), ("null", b"null"), ("a list", b"[]"), ("a string", b'"x"'),
    ("NaN", b"NaN"), ("Infinity", b"Infinity"), ("-Infinity", b"-Infinity"), ("1e999", b"1e999"),
    ("a huge int", b"9" * 5000), ("binary", bytes(range(256)) * 8),
    ("a NUL and invalid UTF-8", b"\x00\xff\xfe\xfd"), ("a lone surrogate as UTF-8", b"\xed\xa0\x80"),
    ("an escaped lone surrogate key", b'{"\\ud800": 1}'),
    ("a UTF-8 BOM", b'\xef\xbb\xbf{"name": "x"}'), ("truncated", b'{"name": "x'),
    ("[ 100000 deep", b"[" * 100_000), ("[[...]] 100000 deep", nested(100_000).data),
    ('{"a": 100000 deep', nested(100_000, b'{"a":', b"}", b"1").data),
    ("8 MB string", b'{"name": "' + b"a" * 8_000_000 + b'"}'),
    ("a 300000-item array", b"[" + b"1," * 300_000 + b"1]"),
    ("duplicate keys", b'{"seat": 0, "seat": "x", "name": "a", "name": 1}'),
]

CONTENT_TYPES: list[tuple[str, str, bytes]] = [
    ("text/plain", "text/plain", b'{"name": "x"}'),
    ("form", "application/x-www-form-urlencoded", b"seat=0&name=x&game=gardens"),
    ("multipart", "multipart/form-data; boundary=zz", b'--zz\r\nContent-Disposition: form-data; '
                                                     b'name="name"\r\n\r\nx\r\n--zz--\r\n'),
    ("xml", "application/xml", b"<name>x</name>"),
    ("json as UTF-16", "application/json; charset=utf-16", '{"name": "x"}'.encode("utf-16")),
    ("json as latin-1", "application/json; charset=latin-1", b'{"name": "\xe9"}'),
    ("octet-stream", "application/octet-stream", bytes(range(256))),
    ("an unknown charset", "application/json; charset=no-such-codec", b'{"name": "x"}'),
    ("a broken content type", "application/json; ;;=;", b'{"name": "x"}'),
    ("no content type", "", b'{"name": "x"}'),
]


# ---------------------------------------------------------------------- the endpoints
@dataclass(frozen=True)
class Endpoint:
    method: str
    route: str  # {table} {game} {name} {player} {username} {passkey_id} {message_id}
    # {token_id} {challenge_id} {tournament_id}: filled in
    query: tuple[str, ...] = ()
    #: a valid JSON body (its fields get hostile values), or None
    body: dict[str, Any] | None = None
    #: whether an accepted request changes the table (then the next request gets a new one)
    changes: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.route}"


#: A passkey answer's shape (navigator.credentials.get()'s, with create()'s field too).
CREDENTIAL = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
              "response": {"clientDataJSON": "eyJjaGFsbGVuZ2UiOiAiQUFBQSJ9",
                           "attestationObject": "oA", "authenticatorData": "AAAA",
                           "signature": "AAAA", "userHandle": "AAAA", "transports": ["usb"]},
              "authenticatorAttachment": "platform", "clientExtensionResults": {}}
TABLE_BODY = {"game": "gardens", "variant": {"level": 1}, "clock": None, "public": True,
              "pace": "live", "bank": None,
              "seats": [{"kind": "human", "bot": None, "name": "A"}, {"kind": "human"}],
              "join_as": "Ann", "sheet": None, "rated": False}
ENDPOINTS = [
    Endpoint("GET", "/api/games"), Endpoint("GET", "/api/bots"),
    Endpoint("GET", "/api/schema/{game}"),
    Endpoint("POST", "/api/tables", body=TABLE_BODY),
    Endpoint("GET", "/api/tables", ("status", "game")),
    Endpoint("GET", "/api/sheets/{game}"), Endpoint("GET", "/api/sheets/{game}/{name}"),
    Endpoint("POST", "/api/sheets/{game}/check"),
    Endpoint("GET", "/api/tables/{table}"),
    Endpoint("POST", "/api/tables/{table}/join", body={"seat": 1, "name": "Bob"}, changes=True),
    Endpoint("POST", "/api/tables/{table}/leave", body={"seat": 0, "secret": "{secret}"},
             changes=True),
    # issue 54: the table is waiting, so these are 409s past their bodies' checks
    Endpoint("POST", "/api/tables/{table}/concede", body={"seat": 0, "secret": "{secret}"}),
    Endpoint("POST", "/api/tables/{table}/rematch", body={"seat": 0, "secret": "{secret}"}),
    Endpoint("GET", "/api/tables/{table}/view", ("seat", "text", "at")),
    Endpoint("GET", "/api/tables/{table}/hint", ("seat", "level")),
    Endpoint("GET", "/api/tables/{table}/analysis"), Endpoint("GET", "/api/tables/{table}/record"),
    Endpoint("GET", "/api/tables/{table}/layout"), Endpoint("GET", "/api/tables/{table}/log", ("after",)),
    Endpoint("GET", "/api/solo/{player}", ("game",)),
    Endpoint("GET", "/api/rules"), Endpoint("GET", "/api/rules/{game}"),  # issue 54
    # accounts (issue 52): without a session these are 401s, but for sign-up and sign-in
    Endpoint("POST", "/api/accounts", body={"username": "fuzzer", "password": "a long password",
                                            "display_name": "F"}),
    Endpoint("POST", "/api/session", body={"username": "fuzzer", "password": "a long password"}),
    Endpoint("DELETE", "/api/session"), Endpoint("POST", "/api/session/revoke-all"),
    Endpoint("GET", "/api/me"), Endpoint("GET", "/api/session"),
    Endpoint("PATCH", "/api/me", body={"display_name": "F", "settings": {"colour_blind": True}}),
    Endpoint("DELETE", "/api/me", body={"password": "a long password"}),
    Endpoint("POST", "/api/me/password", body={"old_password": "a long password",
                                               "new_password": "another long one"}),
    Endpoint("POST", "/api/me/claim", body={"seats": [{"table": "abc", "seat": 0,
                                                       "secret": "{secret}"}]}),
    Endpoint("GET", "/api/me/games", ("limit", "offset", "sort")),
    Endpoint("GET", "/api/me/tables/{table}/seats"),
    # Play now (issue 53): without a session, 401s past their bodies' checks
    Endpoint("POST", "/api/play-now", body={"game": "gardens", "variant": {"level": 1},
                                            "players": 2}),
    Endpoint("GET", "/api/play-now"), Endpoint("DELETE", "/api/play-now"),
    Endpoint("GET", "/api/me/export"),
    # profiles (issue 52): a username that does not exist is a 404, a signed-out claim a 401
    Endpoint("GET", "/api/users/{username}", ("limit", "offset")),
    Endpoint("GET", "/api/users/{username}/solo", ("game",)),
    Endpoint("POST", "/api/me/solo/claim", body={"name": "Ann", "game": "pergola"}),
    # passkeys (issue 52): at 127.0.0.1 (no name to be a relying party) and without a session
    # these are 400s and 401s, past their bodies' checks
    Endpoint("POST", "/api/passkeys/register/options"),
    Endpoint("POST", "/api/passkeys/register", body={"credential": CREDENTIAL, "name": "K"}),
    Endpoint("POST", "/api/passkeys/signin/options"),
    Endpoint("POST", "/api/passkeys/signin", body={"credential": CREDENTIAL}),
    Endpoint("POST", "/api/passkeys/signup/options", body={"username": "fuzzer2",
                                                           "display_name": "F"}),
    Endpoint("POST", "/api/passkeys/signup", body={"credential": CREDENTIAL, "name": "K"}),
    Endpoint("POST", "/api/passkeys/confirm/options"),
    Endpoint("GET", "/api/me/passkeys"),
    Endpoint("PATCH", "/api/me/passkeys/{passkey_id}", body={"name": "K"}),
    Endpoint("DELETE", "/api/me/passkeys/{passkey_id}"),
    # issue 60: API tokens and bot accounts (401 signed out, as every /api/me change)
    Endpoint("GET", "/api/me/tokens"),
    Endpoint("POST", "/api/me/tokens", body={"name": "bot", "scopes": ["play"],
                                             "expires_days": 30}),
    Endpoint("DELETE", "/api/me/tokens/{token_id}"),
    Endpoint("POST", "/api/me/bot"),
    # issue 60: the account event stream (401 signed out; never a stream here)
    Endpoint("GET", "/api/stream/event"),
    # issue 54: the chat's history and reports
    Endpoint("GET", "/api/tables/{table}/chat", ("after", "before", "limit")),
    Endpoint("POST", "/api/tables/{table}/chat/{message_id}/report", body={"reason": "rude"}),
    # ratings (issue 53)
    Endpoint("GET", "/api/leaderboard/{game}", ("limit", "offset", "bot_accounts")),
    Endpoint("GET", "/api/users/{username}/ratings", ("history",)),
    # turn-based tables' mail (issue 54): an account's address and preferences (401 signed
    # out), and the signed links (a bad signature: 403)
    Endpoint("GET", "/api/me/mail"),
    Endpoint("PUT", "/api/me/email", body={"email": "ann@example.org"}),
    Endpoint("PATCH", "/api/me/notify", body={"turn": False, "ended": True}),
    Endpoint("POST", "/api/mail/verify", body={"a": "0123456789abcdef", "e": "ab" * 12,
                                               "x": 2_000_000_000, "s": "0" * 64}),
    Endpoint("POST", "/api/mail/unsubscribe", body={"a": "0123456789abcdef", "k": "turn",
                                                    "s": "0" * 64}),
    Endpoint("POST", "/api/mail/one-click", ("a", "k", "s")),
    # issue 60: challenges (401 signed out, past their bodies' checks); a table's accounts
    Endpoint("POST", "/api/challenges", body={
        "to": "fuzzer", "game": "gardens", "variant": {"level": 1}, "seats": 2,
        "challenger_seat": None, "others": [], "pace": "live", "clock": None, "rated": False}),
    Endpoint("GET", "/api/challenges"),
    Endpoint("GET", "/api/challenges/{challenge_id}"),
    Endpoint("POST", "/api/challenges/{challenge_id}/accept"),
    Endpoint("POST", "/api/challenges/{challenge_id}/decline", body={"reason": "later"}),
    Endpoint("POST", "/api/challenges/{challenge_id}/cancel"),
    Endpoint("GET", "/api/challenges/players/{table}"),
    # issue 60: tournaments (made and entered by accounts: 401 signed out)
    Endpoint("GET", "/api/tournaments"),
    Endpoint("POST", "/api/tournaments", body={
        "name": "Fuzz Swiss", "kind": "swiss", "game": "takenokolor", "variant": {}, "seats": 2,
        "pace": "live", "clock": 60, "rated": False, "bots": True,
        "starts": "2030-01-01T00:00:00+00:00", "rounds": 3, "duration": None}),
    Endpoint("GET", "/api/tournaments/{tournament_id}"),
    Endpoint("POST", "/api/tournaments/{tournament_id}/join"),
    Endpoint("POST", "/api/tournaments/{tournament_id}/withdraw"),
    Endpoint("POST", "/api/tournaments/{tournament_id}/cancel"),
]
IDS = [e.label for e in ENDPOINTS]


def test_the_endpoints_here_are_every_operation_the_server_documents(server: Server) -> None:
    documented = server.api("GET", "/openapi.json").json()["paths"]
    ours = {(e.method, e.route.replace("{table}", "{table_id}")) for e in ENDPOINTS}
    theirs = {(m.upper(), p) for p, ops in documented.items() for m in ops}
    assert ours == theirs


class Target:
    """The real table (and seat secret) an endpoint's requests go to; a new one after a request
    that changed it, for endpoints that change tables."""

    def __init__(self, server: Server, endpoint: Endpoint, tables: Seeded) -> None:
        self.server, self.endpoint, self.tables = server, endpoint, tables
        self.table, self.secret = "", ""
        self.renew()

    def renew(self) -> None:
        if self.endpoint.changes:
            self.table, self.secret = waiting_table(self.server)
        else:
            self.table = self.tables.versus
            self.secret = self.tables.secrets[self.table, 0]

    def after(self, response: httpx.Response | None) -> None:
        if self.endpoint.changes and response is not None and response.status_code < 300:
            self.renew()

    def path(self, **given: str) -> str:
        values = {"table": self.table, "game": "gardens", "name": "level-1", "player": "Ann",
                  "username": "fuzzer", "passkey_id": "0123456789abcdef", "message_id": "1",
                  "token_id": "0123456789abcdef", "challenge_id": "0123456789abcdef",
                  "tournament_id": "0123456789abcdef",
                  **given}
        return self.endpoint.route.format(**values)

    def body(self) -> dict[str, Any] | None:
        if self.endpoint.body is None:
            return None
        body: dict[str, Any] = json.loads(json.dumps(self.endpoint.body)
                                          .replace("{secret}", self.secret))
        return body

    def json_headers(self) -> dict[str, str | bytes]:
        return {"content-type": "application/json"}


def _valid_content(target: Target) -> bytes | None:
    body = target.body()
    return dumps(body) if body is not None else None


WITH_PATH_PARAMS = [e for e in ENDPOINTS if re.search(r"\{\w+\}", e.route)]


@pytest.mark.parametrize("endpoint", WITH_PATH_PARAMS,
                         ids=[IDS[ENDPOINTS.index(e)] for e in WITH_PATH_PARAMS])
def test_hostile_path_segments(endpoint: Endpoint, prober: Prober, tables: Seeded,
                               server: Server) -> None:
    """Every path parameter of every endpoint: integers beyond 64 bits, NaN, 1e999, percent
    escapes of bytes that are not UTF-8 (a lone surrogate among them), NUL, 5000 characters."""
    names = re.findall(r"\{(\w+)\}", endpoint.route)
    target = Target(server, endpoint, tables)
    for name in names:
        for value in WIRE_VALUES:
            req = Req(endpoint.method, target.path(**{name: value}), f"{name}={value[:40]!r}",
                      _valid_content(target), target.json_headers())
            target.after(prober.send(req))
    prober.check()


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=IDS)
def test_hostile_queries_and_headers(endpoint: Endpoint, prober: Prober, tables: Seeded,
                                     server: Server) -> None:
    """Every query parameter (and one the endpoint does not take) with every hostile value,
    alone and repeated, on a real table; the seat secret header as bytes that are not UTF-8,
    empty, 8000 characters long, or real with a hostile seat."""
    target = Target(server, endpoint, tables)
    tables_to_try: list[str | None] = [None]
    if "{table}" in endpoint.route and not endpoint.changes:
        tables_to_try = [tables.versus, tables.finished]
    for table in tables_to_try:
        if table is not None:
            target.table = table
            target.secret = tables.secrets.get((table, 0), "")
        # a parameter the endpoint does not take is ignored: a few values suffice for it
        unknown = "seat" if "seat" not in endpoint.query else "x"
        for name in (*endpoint.query, unknown):
            for value in WIRE_VALUES if name != unknown else WIRE_VALUES[::6]:
                for query in (f"{name}={value}", f"{name}=0&{name}={value}"):
                    req = Req(endpoint.method, f"{target.path()}?{query}", f"{query[:60]!r}",
                              _valid_content(target),
                              {**target.json_headers(), "x-seat-secret": target.secret},
                              table=target.table if "{table}" in endpoint.route else None)
                    target.after(prober.send(req))
        if endpoint.query[:1] != ("seat",):
            continue  # the endpoints that read X-Seat-Secret take seat first
        for secret in (b"\xff\xfe", b"\xed\xa0\x80", b"", b"x" * 8000, target.secret.encode()):
            for seat in ("0", "1", "99999999999999999999999", "-1"):
                req = Req(endpoint.method, f"{target.path()}?seat={seat}",
                          f"seat={seat} x-seat-secret={secret[:20]!r}", _valid_content(target),
                          {**target.json_headers(), "x-seat-secret": secret},
                          table=target.table if "{table}" in endpoint.route else None)
                target.after(prober.send(req))
    prober.check()


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=IDS)
def test_hostile_bodies_and_content_types(endpoint: Endpoint, prober: Prober, tables: Seeded,
                                          server: Server) -> None:
    """Whole hostile bodies on every endpoint (NaN, 1e999, binary, invalid UTF-8, 100000 levels
    of [, 8 MB, ...) and valid JSON under wrong content types."""
    target = Target(server, endpoint, tables)
    table = target.table if "{table}" in endpoint.route else None
    for what, content in BODIES:
        req = Req(endpoint.method, target.path(), what, content,
                  {"content-type": "application/json"}, table=table)
        target.after(prober.send(req))
        table = target.table if "{table}" in endpoint.route else None
    for what, ctype, content in CONTENT_TYPES:
        req = Req(endpoint.method, target.path(), what, content,
                  {"content-type": ctype} if ctype else {}, table=table)
        target.after(prober.send(req))
        table = target.table if "{table}" in endpoint.route else None
    prober.check()


def _fields(body: Any, prefix: str = "") -> Iterator[str]:
    """Every field path of a JSON body: ``seats``, ``seats.0``, ``seats.0.kind``, ..."""
    items = body.items() if isinstance(body, dict) else enumerate(body) if isinstance(body, list) \
        else []
    for key, value in items:
        here = f"{prefix}{key}"
        yield here
        if isinstance(value, dict | list):
            yield from _fields(value, here + ".")


def _put(body: Any, path: str, value: Any) -> Any:
    body = json.loads(json.dumps(body))
    *parents, last = path.split(".")
    here = body
    for p in parents:
        here = here[int(p)] if isinstance(here, list) else here[p]
    here[int(last) if isinstance(here, list) else last] = value
    return body


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if e.body is not None],
                         ids=[e.label for e in ENDPOINTS if e.body is not None])
def test_hostile_values_in_every_field_of_every_body(endpoint: Endpoint, prober: Prober,
                                                     tables: Seeded, server: Server) -> None:
    """Each field of a valid body in turn given NaN, Infinity, 1e999, an integer beyond 64
    bits, a lone surrogate (escaped, or as raw bytes), 100000 levels of nesting, 200 KB, ..."""
    target = Target(server, endpoint, tables)
    base = target.body()
    for name in _fields(base):
        for value in FIELD_VALUES:
            body = _put(target.body(), name, value)
            req = Req(endpoint.method, target.path(), f"{name}={value!r:.60}", dumps(body),
                      target.json_headers(),
                      table=target.table if "{table}" in endpoint.route else None)
            target.after(prober.send(req))
    prober.check()


def sheet_files() -> list[tuple[str, bytes]]:
    text = (ROOT / "src/meeple/games/gardens/sheets/level-1.toml").read_bytes()
    first_int = re.search(rb"= (\d+)\n", text)
    assert first_int is not None
    a, b = first_int.span(1)

    def with_value(v: bytes) -> bytes:
        return text[:a] + v + text[b:]

    return [
        ("the shipped file", text), ("nan", with_value(b"nan")), ("inf", with_value(b"-inf")),
        ("1e999", with_value(b"1e999")), ("an int beyond 64 bits", with_value(b"9" * 30)),
        ("a 5000-digit int", with_value(b"9" * 5000)),
        ("an escaped lone surrogate", with_value(b'"\\ud800"')),
        ("a lone surrogate as UTF-8", with_value(b'"\xed\xa0\x80"')),
        ("invalid UTF-8", text.replace(b"=", b"=\xff", 1)), ("a NUL", text + b"\x00"),
        ("an array 50000 deep", b"x = " + b"[" * 50000 + b"]" * 50000 + b"\n"),
        ("an inline table 50000 deep", b"x = " + b"{a = " * 50000 + b"1" + b"}" * 50000 + b"\n"),
        ("unclosed 50000 deep", b"x = " + b"[" * 50000),
        ("64 KiB exactly", (text + b"#" * 65536)[:65536]), ("64 KiB + 1", b"#" * 65537),
        ("8 MB", b"#" * 8_000_000), ("binary", bytes(range(256)) * 16),
        ("a huge array", b"x = [" + b"1," * 30000 + b"1]\n"),
        ("JSON", b'{"name": NaN}'), ("empty", b""), ("a BOM only", b"\xef\xbb\xbf"),
    ]


@pytest.mark.parametrize("game", ["gardens", "reefs", "takenokolor", "pergola", "%ED%A0%80"])
def test_hostile_sheet_files(game: str, prober: Prober) -> None:
    """POST /api/sheets/{game}/check with sheet files no sheet is: numbers TOML allows but no
    sheet does, integers beyond 64 bits, nesting deeper than any parser's stack, bytes that are
    not UTF-8, 64 KiB + 1, 8 MB, binary."""
    for what, content in sheet_files():
        for ctype in ("application/toml", "application/octet-stream"):
            prober.send(Req("POST", f"/api/sheets/{game}/check", f"{what} as {ctype}", content,
                            {"content-type": ctype}))
    prober.check()


# ---------------------------------------------------------------------- Hypothesis
def _wire(value: str) -> str:
    return quote(value, safe="", encoding="utf-8", errors="surrogatepass")


wire_values = st.one_of(
    st.sampled_from(WIRE_VALUES),
    st.integers(min_value=-(2**100), max_value=2**100).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(st.characters(codec=None), max_size=12).map(_wire),
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=2).map(_wire),
    st.binary(min_size=1, max_size=8).map(lambda b: quote(b, safe="")),
)
hostile_leaves = st.one_of(
    st.integers(min_value=-(2**100), max_value=2**100),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([Raw(b"1e999"), Raw(b"-1e999"), Raw(b'"\xff"'), Raw(b'"\xed\xa0\x80"'),
                     nested(100_000), nested(2000, b'{"a":', b"}", b"1")]),
    st.text(st.characters(codec=None), max_size=12),
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3),
    st.booleans(), st.none(),
)
json_values = st.recursive(
    hostile_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(st.characters(codec=None), max_size=6), inner, max_size=3),
    max_leaves=6)


#: Header values as HTTP allows them (visible ASCII, bytes 0x80-0xff, inner spaces and tabs):
#: a control character makes the request no HTTP at all, which uvicorn refuses before the app
#: sees it (with its own text/plain 400).
_FIELD_BYTES = bytes([*range(0x21, 0x7F), *range(0x80, 0x100)])
header_values = st.builds(
    lambda first, inner, last: bytes([first]) + inner + bytes([last]),
    st.sampled_from(_FIELD_BYTES),
    st.lists(st.sampled_from(_FIELD_BYTES + b" \t"), max_size=38).map(bytes),
    st.sampled_from(_FIELD_BYTES)) | st.just(b"")


def _body_strategy(valid: Any) -> st.SearchStrategy[Any]:
    """``valid`` with any of its fields (at any depth) kept or made hostile."""
    if isinstance(valid, dict):
        return st.fixed_dictionaries({k: _body_strategy(v) for k, v in valid.items()},
                                     optional={"extra": json_values}) | json_values
    if isinstance(valid, list):
        return st.lists(st.one_of(*(_body_strategy(v) for v in valid)), max_size=9) | json_values
    return st.just(valid) | json_values


def test_hypothesis_hostile_requests_on_every_endpoint(prober: Prober, tables: Seeded,
                                                       server: Server) -> None:
    """Hypothesis draws an endpoint, a real table or a hostile id, hostile query values, a seat
    secret (real, or bytes that are not UTF-8) and a body made of the endpoint's valid body
    with some fields hostile; fixed seed, bounded."""
    targets = {e.label: Target(server, e, tables) for e in ENDPOINTS}
    secrets = sorted(set(tables.secrets.values()))

    @seed(SEED)
    @settings(max_examples=budget(200), derandomize=False, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        endpoint = data.draw(st.sampled_from(ENDPOINTS), label="endpoint")
        target = targets[endpoint.label]
        if "{table}" in endpoint.route and not endpoint.changes:
            target.table = data.draw(st.sampled_from(tables.ids) | wire_values, label="table")
        params = data.draw(st.lists(st.tuples(st.sampled_from((*endpoint.query, "seat", "x")),
                                              wire_values), max_size=3), label="query")
        query = "&".join(f"{k}={v}" for k, v in params)
        secret = data.draw(st.sampled_from(secrets) | header_values, label="secret")
        body = target.body()
        content = dumps(data.draw(_body_strategy(body), label="body")) if body is not None \
            else data.draw(st.none() | st.binary(max_size=64), label="raw body")
        path = target.path() + (f"?{query}" if query else "")
        req = Req(endpoint.method, path, f"{path[:80]} body={(content or b'')[:60]!r}", content,
                  {"content-type": "application/json", "x-seat-secret": secret},
                  table=target.table if "{table}" in endpoint.route and (
                      endpoint.changes or target.table in tables.ids) else None)
        target.after(prober.send(req))

    run()
    prober.check()


def test_the_server_logged_no_traceback(server: Server) -> None:
    """Last in the module: every traceback the server logged while it was fuzzed (an error
    that gave no 5xx, e.g. in a background task, shows here too), one line each."""
    found = summarize(server.log.read_text(encoding="utf-8", errors="replace"))
    counts: dict[str, int] = {}
    for line in found:
        counts[line] = counts.get(line, 0) + 1
    assert not counts, f"{len(counts)} distinct tracebacks in the server log:\n" + "\n".join(
        f"- (x{n}) {line}" for line, n in sorted(counts.items()))
