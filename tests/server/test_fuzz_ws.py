"""Fuzzing the WebSocket of a real ``meeple serve`` (issue 35; docs/fuzzing.md).

Frames of every type (hello, move, undo, preview, back, ping and unknown ones) go over a real
WebSocket (the ``websockets`` sync client, as ``tests/server/client.py``) to a running table of
two people, sent before any hello, as a spectator, as the seat to move and as the other seat,
with hostile field values: wrong types, NaN and Infinity literals, 1e999, lone surrogates,
integers beyond 64 bits, deep nesting, frames over the 16 KiB limit, binary frames and text
frames that are not UTF-8. Hypothesis draws them on a fixed seed and a bounded budget; a list of
explicit frames covers each hostile kind for certain.

For every frame: the server answers it with a frame (error, refused, ...; a seat's ``back``
needs none) and the connection stays open, which a ping then answered by a pong shows. The
server may close a connection only where the WebSocket protocol says so (a text frame that is
not UTF-8: 1007; a frame over the server's 1 MiB limit: 1009), and then with a close frame: a
connection dropped without one, or closed with 1011 (the server failed), is a failure. A frame
that got no ``ack`` must leave the table's stored log (and seats, status) as it was.

Every failure is collected, with the server log's traceback line, and listed at the end.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import SQLITE_ONLY, TLS, Server
from tests.server.fuzzing import (
    SEED,
    LogReader,
    Raw,
    budget,
    dumps,
    join,
    nested,
    snapshot,
    summarize,
)
from tests.server.fuzzing import create as fz_create

#: The server's own limits (meeple.server.table.protocol.MAX_FRAME; uvicorn's ws_max_size).
MAX_FRAME = 16 * 1024
WS_MAX_SIZE = 1 << 20
#: How long an answer (and the pong after it) may take.
ANSWER_TIMEOUT = 30


# ---------------------------------------------------------------------- one table, one socket
@dataclass
class Game:
    """A running table of two people whose secrets we hold: nothing moves by itself."""

    server: Server
    table: str
    secrets: dict[int, str]
    http: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.http = httpx.Client(base_url=self.server.base, timeout=120, verify=TLS)

    def state(self) -> dict[str, Any]:
        try:
            return snapshot(self.server, self.table, self.http)
        except httpx.HTTPError:  # a connection the server closed after an error of its own
            self.http.close()
            self.http = httpx.Client(base_url=self.server.base, timeout=120, verify=TLS)
            return snapshot(self.server, self.table, self.http)

    def seat_view(self, seat: int) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{self.table}/view", params={"seat": seat},
                          headers={"x-seat-secret": self.secrets[seat]})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def to_move(self) -> int:
        to_move = self.http.get(f"/api/tables/{self.table}/view").json()["view"]["to_move"]
        return int(to_move) if isinstance(to_move, int) and to_move >= 0 else 0


def new_game(server: Server) -> Game:
    made = fz_create(server, {"game": "gardens", "variant": {"level": 1}, "join_as": "Ann",
                              "seats": [{"kind": "human"}, {"kind": "human"}]})
    table = made["table"]["id"]
    seat, secret = join(server, table, "Bob")
    game = Game(server, table, {0: made["secret"], seat: secret})
    deadline = time.monotonic() + 60
    while game.server.api("GET", f"/api/tables/{table}/view").json()["view"]["to_move"] not in (0, 1):
        assert time.monotonic() < deadline, "the game never came to a seat"
        time.sleep(0.05)
    return game


@dataclass
class Outcome:
    """What the server did with one frame."""

    answers: list[dict[str, Any]] = field(default_factory=list)
    #: the close code and reason if the server closed, with whether a close frame came
    closed: tuple[int | None, str, bool] | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def acked(self) -> bool:
        return any(a.get("type") == "ack" for a in self.answers)


class Socket:
    """A connection to the game's table, opened again after the server closed it, in one of
    four roles: ``none`` (no hello yet), ``spectator``, ``seat`` (the seat to move) and
    ``other`` (the seat not to move)."""

    def __init__(self, game: Game, path: str | None = None) -> None:
        self.game = game
        self.path = path or f"/ws/tables/{game.table}"
        self.ws: ClientConnection | None = None
        self.role = "none"
        self.seat: int | None = None

    def open(self) -> ClientConnection:
        self.close()
        # entered as client.py does: the connection object is its own context manager
        self.ws = connect(self.game.server.ws_base + self.path, open_timeout=60, max_size=None,
                          ping_interval=None, close_timeout=10).__enter__()
        self.role, self.seat = "none", None
        return self.ws

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):  # already closed by the server
                self.ws.close()
            self.ws = None

    def be(self, role: str) -> None:
        """Say the hello the role needs (a new connection for ``none``)."""
        to_move = self.game.to_move()
        seat = {"seat": to_move, "other": 1 - to_move}.get(role)
        if self.ws is not None and role == self.role and seat == self.seat:
            return
        ws = self.open()
        if role == "none":
            return
        hello: dict[str, Any] = {"type": "hello"}
        if seat is not None:
            hello.update(seat=seat, secret=self.game.secrets[seat])
        ws.send(json.dumps(hello))
        kinds = []
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while "view" not in kinds:
            frame = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            kinds.append(frame["type"])
            assert frame["type"] in ("welcome", "view"), frame
        self.role, self.seat = role, seat

    def exchange(self, payload: str | bytes, text: bool | None = None,
                 closing: bool = False) -> Outcome:
        """Send one frame (``payload``; ``text=True`` sends bytes as a text frame as they are,
        which is how a frame that is not UTF-8 goes), then a ping; gather what comes back until
        the pong. With ``closing`` (a frame the server may close on) no ping is sent until the
        server has not closed for a while: a ping it has not read when it closes would make its
        kernel reset the connection, and the reset can destroy its close frame."""
        assert self.ws is not None
        out = Outcome()
        try:
            self.ws.send(payload, text=text)
            if closing:
                with contextlib.suppress(TimeoutError):
                    while True:
                        out.answers.append(_parse(self.ws.recv(timeout=3), out))
            self.ws.send('{"type": "ping"}')
            pongs = 1 + (b"ping" in (payload if isinstance(payload, bytes) else
                                    payload.encode("utf-8", "surrogatepass")))
            got = 0
            answered = False  # the frame got an answer of its own (not a pong) before any pong
            deadline = time.monotonic() + ANSWER_TIMEOUT
            while got < pongs:
                # a frame that looked like a ping may have been answered with a pong of its own:
                # the second pong comes at once if so, and is not waited for long otherwise.
                # The server answers in order, so a frame answered by an error (or anything
                # but a pong) before the first pong gets no pong of its own: no wait then
                if got == 1 and answered:
                    break
                wait = deadline - time.monotonic() if got == 0 else 1.0
                try:
                    raw = self.ws.recv(timeout=max(0.1, wait))
                except TimeoutError:
                    if got == 0:
                        out.problems.append(f"no pong within {ANSWER_TIMEOUT} s")
                    break
                frame = _parse(raw, out)
                if frame.get("type") == "pong":
                    got += 1
                    if got == 2:  # two pongs: the first answered the frame itself
                        out.answers.append(frame)
                    continue
                if got == 0 and frame.get("type") not in ("view", "update", "presence", "clock"):
                    answered = True
                out.answers.append(frame)
        except ConnectionClosed as exc:
            close = exc.rcvd
            out.closed = (close.code, close.reason, True) if close is not None else \
                (None, "", False)
            self.ws = None
            self.role = "none"
        return out


def _parse(raw: str | bytes, out: Outcome) -> dict[str, Any]:
    try:
        frame = json.loads(raw)
    except ValueError:
        out.problems.append(f"the server sent a frame that is not JSON: {raw[:100]!r}")
        return {}
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        out.problems.append(f"the server sent a frame without a type: {raw[:100]!r}")
        return {}
    if frame["type"] in ("error", "refused") and not isinstance(frame.get("reason"), str):
        out.problems.append(f"an {frame['type']} frame without a reason: {raw[:200]!r}")
    return frame


# ---------------------------------------------------------------------- judging
def _looks(payload: str | bytes) -> Any:
    """The frame as the server should read it, or None if it is not a JSON object."""
    raw = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    try:
        frame = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return frame if isinstance(frame, dict) else None


def may_close(payload: str | bytes, text: bool | None) -> int | None:
    """The close code the WebSocket protocol lets the server answer this frame with: 1009 for a
    frame over its 1 MiB limit, 1007 for a text frame that is not UTF-8; else None (the frame
    gets an error frame and the connection stays usable)."""
    data = payload if isinstance(payload, bytes) else payload.encode("utf-8", "surrogatepass")
    if len(data) > WS_MAX_SIZE:
        return 1009
    if text or isinstance(payload, str):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return 1007
    return None


#: A frame over the server's 1 MiB limit: uvicorn sends its 1009 close frame and closes the
#: socket at once, with the rest of the frame unread, so the kernel resets the connection and
#: the close frame may be lost on the way. That is uvicorn's doing, not meeple's: such a frame
#: may end in either a 1009 close or a reset (any other close code is still a failure).
OVERSIZE = WS_MAX_SIZE


def needs_answer(payload: str | bytes, role: str) -> bool:
    """Every frame gets a frame back, but a seat's ``back`` (it only takes the seat back)."""
    frame = _looks(payload)
    return not (frame is not None and frame.get("type") == "back" and role in ("seat", "other"))


class Judge:
    """Sends frames through a :class:`Socket` and collects every failure."""

    def __init__(self, game: Game, log: LogReader) -> None:
        self.game, self.log = game, log
        self.socket = Socket(game)
        self.baseline = game.state()
        self.failures: dict[str, list[str]] = {}
        self.frames = 0

    def send(self, what: str, payload: str | bytes, role: str, text: bool | None = None,
             kind: str | None = None) -> Outcome:
        """Send one frame in ``role`` and judge what came of it; failures are grouped by
        ``kind`` (default ``what``), the role, the problem and the server's traceback."""
        self.frames += 1
        self.socket.be(role)
        self.log.skip()
        allowed = may_close(payload, text)
        out = self.socket.exchange(payload, text, closing=allowed is not None)
        problems = list(out.problems)
        if out.closed is not None:
            code, reason, clean = out.closed
            if not clean and allowed == 1009:
                pass  # a frame over 1 MiB may end in a reset: see OVERSIZE
            elif not clean:
                problems.append("the connection was dropped without a close frame")
            elif code == 1011:
                problems.append(f"closed with 1011 (the server failed): {reason!r}")
            elif allowed is None:
                problems.append(f"closed ({code} {reason!r}) on a frame that should get an "
                                f"error frame and leave the connection usable")
            elif code != allowed:
                problems.append(f"closed with {code} {reason!r}, not {allowed}")
        elif not problems and needs_answer(payload, role) and not any(
                a.get("type") != "view" for a in out.answers):
            problems.append("no answer (only the pong came back)")
        after = self.game.state()
        if out.acked:
            self.baseline = after
        elif after != self.baseline:
            problems.append(f"not acked, yet the table changed (version "
                            f"{self.baseline['version']} -> {after['version']})")
            self.baseline = after
        tracebacks = self._tracebacks(wait=bool(problems))
        for p in problems:
            key = f"{kind or what} as {role}: {re.sub(r'[0-9]{3,}', 'N', p)[:90]} | " \
                  f"{'; '.join(sorted(set(tracebacks))) or '(no traceback)'}"
            self.failures.setdefault(key, []).append(f"{what}: {p}")
        return out

    def _tracebacks(self, wait: bool) -> list[str]:
        found = self.log.tracebacks()
        deadline = time.monotonic() + (2 if wait else 0)
        while not found and time.monotonic() < deadline:
            time.sleep(0.02)
            found = self.log.tracebacks()
        return found

    def check(self) -> None:
        self.socket.close()
        if not self.failures:
            return
        lines = [f"{len(self.failures)} distinct failures in {self.frames} frames:"]
        for key, examples in self.failures.items():
            what, _, tb = key.partition(" | ")
            lines.append(f"- {what} (x{len(examples)}) e.g. {examples[0][:300]}")
            lines.append(f"    server log: {tb}")
        pytest.fail("\n".join(lines), pytrace=False)


@pytest.fixture(scope="module")
def log_reader(server: Server) -> LogReader:
    reader = LogReader(server.log)
    reader.skip()
    return reader


@pytest.fixture
def judge(server: Server, log_reader: LogReader) -> Iterator[Judge]:
    j = Judge(new_game(server), log_reader)
    yield j
    j.socket.close()
    j.game.http.close()


# ---------------------------------------------------------------------- explicit frames
def _frames() -> list[tuple[str, Any]]:
    """(name, frame) pairs; a frame is a str or bytes sent as it is, ``("text", bytes)`` sent
    as a text frame as they are (so not UTF-8), or a value written by :func:`dumps`; a frame
    mentioning ``{V}`` gets the table's version."""
    nan, inf = float("nan"), float("inf")
    huge, huger = 99999999999999999999999, 2**64
    frames: list[tuple[str, Any]] = []
    for kind in ("move", "undo"):
        for name, version in (("NaN", nan), ("Infinity", inf), ("-Infinity", -inf),
                              ("1e999", Raw(b"1e999")), ("-1e999", Raw(b"-1e999")),
                              ("huge", huge), ("-huge", -huge), ("2**64", huger),
                              ("-2**63-1", -(2**63) - 1), ("a string", "5"), ("true", True),
                              ("a list", [1]), ("null", None)):
            frames.append((f"{kind} version={name}", {"type": kind, "move": "take O",
                                                      "version": version, "id": "v1"}))
    for name, value in (("\\ud800", "\ud800"), ("\\udfff", "\udfff"), ("a\\ud800b", "a\ud800b"),
                        ("NaN", nan), ("huge", huge), ("1e999", Raw(b"1e999")),
                        ("a dict", {"a": 1}), ("nested 3000", nested(3000)), ("201 chars", "m" * 201),
                        ("empty", ""), ("a NUL", "\x00")):
        frames.append((f"move move={name}", {"type": "move", "move": value, "version": "{V}",
                                             "id": "m1"}))
        frames.append((f"move id={name}", {"type": "move", "move": "take O", "version": "{V}",
                                           "id": value}))
        frames.append((f"move moves=[{name}]", {"type": "move", "moves": [value],
                                                "version": "{V}"}))
        frames.append((f"preview moves=[{name}]", {"type": "preview", "moves": [value]}))
        frames.append((f"hello seat={name}", {"type": "hello", "seat": value, "secret": "x"}))
        frames.append((f"hello secret={name}", {"type": "hello", "seat": 0, "secret": value}))
        frames.append((f"hello text={name}", {"type": "hello", "text": value}))
        frames.append((f"back x={name}", {"type": "back", "x": value}))
        frames.append((f"ping x={name}", {"type": "ping", "x": value}))
        frames.append((f"chat text={name}", {"type": "chat", "text": value}))
        frames.append((f"type={name}", {"type": value}))
    frames += [
        ("hello seat=huge", {"type": "hello", "seat": huge, "secret": "x"}),
        ("hello seat=-huge", {"type": "hello", "seat": -huge, "secret": "x"}),
        ("hello seat=2**63", {"type": "hello", "seat": 2**63, "secret": "x"}),
        ("hello seat=1.0", {"type": "hello", "seat": 1.0, "secret": "x"}),
        ("hello seat=true", {"type": "hello", "seat": True, "secret": "x"}),
        ("move moves: 65", {"type": "move", "moves": ["take O"] * 65, "version": "{V}"}),
        ("move moves: 5000", {"type": "move", "moves": ["x"] * 5000, "version": "{V}"}),
        ("move moves: none", {"type": "move", "moves": [], "version": "{V}"}),
        ("move id: 65 chars", {"type": "move", "move": "take O", "version": "{V}", "id": "i" * 65}),
        ("preview moves=NaN", {"type": "preview", "moves": nan}),
        ("preview moves: 5000", {"type": "preview", "moves": ["x"] * 5000}),
        ("unknown type", {"type": "dance"}), ("a 10000-char type", {"type": "t" * 10000}),
        ("no type", {"move": "take O"}), ("type=1", {"type": 1}), ("type=null", {"type": None}),
        ("an escaped surrogate key", '{"type": "ping", "\\ud800": 1}'),
        ("duplicate types", '{"type": "ping", "type": "move", "version": 0}'),
        ("NaN literal", "NaN"), ("Infinity literal", "Infinity"), ("1e999 literal", "1e999"),
        ("a huge int literal", "9" * 5000), ("null", "null"), ("a list", "[]"), ("a number", "1"),
        ("a string", '"ping"'), ("{}", "{}"), ("empty text", ""), ("not JSON", "hello"),
        ("truncated", '{"type": "ping"'), ("a BOM", "\ufeff{\"type\": \"ping\"}"),
        ("[ 5000 deep", "[" * 5000), ("[[...]] 5000 deep", nested(5000).data.decode()),
        ('{"a": 3000 deep', nested(3000, b'{"a":', b"}", b"1").data.decode()),
        ("move with 3000-deep moves", '{"type": "move", "version": 0, "moves": '
         + "[" * 3000 + "]" * 3000 + "}"),
        ("[ 100000 deep (over 16 KiB)", "[" * 100_000),
        ("over 16 KiB", json.dumps({"type": "ping", "pad": "x" * 17000})),
        ("16 KiB exactly", json.dumps({"type": "ping", "pad": ""})[:-2]
         + "x" * (MAX_FRAME - len(json.dumps({"type": "ping", "pad": ""}))) + '"}'),
        ("over 1 MiB", json.dumps({"type": "ping", "pad": "x" * (WS_MAX_SIZE + 10)})),
        ("binary ping", b'{"type": "ping"}'), ("binary move", b'{"type": "move", "move": "x", '
                                                            b'"version": 0}'),
        ("binary, not UTF-8", b'{"type": "ping", "x": "\xff\xfe"}'),
        ("binary surrogate bytes", b'{"type": "\xed\xa0\x80"}'),
        ("binary noise", bytes(range(256)) * 4), ("binary over 16 KiB", b"[" * 20000),
        ("empty binary", b""),
        ("text, not UTF-8", ("text", b'{"type": "ping", "x": "\xff"}')),
        ("text, surrogate bytes", ("text", b'{"type": "\xed\xa0\x80"}')),
    ]
    return frames


FRAMES = _frames()


def _encode(frame: Any, version: int) -> tuple[str | bytes, bool | None]:
    if isinstance(frame, tuple):
        return frame[1], True
    if isinstance(frame, str | bytes):
        return frame, None
    if isinstance(frame, dict):
        frame = {k: (version if v == "{V}" else v) for k, v in frame.items()}
    data = dumps(frame)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data, True  # raw invalid UTF-8 inside: a text frame as it is


@SQLITE_ONLY
@pytest.mark.parametrize("role", ["none", "spectator", "seat", "other"])
def test_explicit_hostile_frames(role: str, judge: Judge) -> None:
    """Each hostile frame of the list, in each role: answered, connection kept, log kept."""
    for name, frame in FRAMES:
        payload, text = _encode(frame, judge.baseline["version"])
        judge.send(name, payload, role, text)
    judge.check()


def test_hostile_table_ids_in_the_websocket_path(server: Server) -> None:
    """A table id that is no table (beyond 64 bits, NaN, escapes of bytes that are not UTF-8,
    5000 characters): an error frame, then a close frame; never a failed handshake with a 5xx
    or a dropped connection."""
    problems = []
    for tid in ("99999999999999999999999", "NaN", "1e999", "%ED%A0%80", "%FF%FE", "%00", "%0A",
                "x" * 5000, "%F0%9F%8E%B2"):
        try:
            with connect(f"{server.ws_base}/ws/tables/{tid}", open_timeout=60,
                         ping_interval=None, close_timeout=10) as ws:
                first = json.loads(ws.recv(timeout=ANSWER_TIMEOUT))
                if first.get("type") != "error":
                    problems.append(f"{tid[:30]}: first frame {first}")
                try:
                    ws.recv(timeout=ANSWER_TIMEOUT)
                    problems.append(f"{tid[:30]}: no close after the error")
                except ConnectionClosed as exc:
                    if exc.rcvd is None:
                        problems.append(f"{tid[:30]}: dropped without a close frame")
        except InvalidHandshake as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if status is None or status >= 500:
                problems.append(f"{tid[:30]}: handshake failed: {exc!r}")
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            problems.append(f"{tid[:30]}: {exc!r}")
    assert not problems, problems


# ---------------------------------------------------------------------- Hypothesis
hostile = st.one_of(
    st.integers(min_value=-(2**100), max_value=2**100),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([Raw(b"1e999"), Raw(b"-1e999"), Raw(b'"\xff"'), Raw(b'"\xed\xa0\x80"'),
                     nested(2000), nested(1500, b'{"a":', b"}", b"1"), "\ud800", "x" * 300]),
    st.text(st.characters(codec=None), max_size=10),
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3),
    st.booleans(), st.none(),
)
values = st.recursive(hostile, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=5), inner, max_size=3), max_leaves=5)
TYPES = ["hello", "move", "undo", "preview", "back", "ping", "chat"]


@st.composite
def frames(draw: st.DrawFn, version: int, legal: list[str], secrets: dict[int, str]
           ) -> tuple[str | bytes, bool | None]:
    """A frame of any type, its fields mostly hostile (a legal move, the current version or a
    real secret now and then), sent as text, as binary, or padded past the limits."""
    kind = draw(st.sampled_from(TYPES) | st.sampled_from(["dance", "", "PING"]) | values,
                label="type")
    frame: dict[str, Any] = {"type": kind}
    real_version = st.just(version)
    move_text = st.sampled_from(legal) if legal else st.just("take O")
    fields: dict[str, st.SearchStrategy[Any]] = {
        "seat": st.sampled_from([0, 1]) | values,
        "secret": st.sampled_from(sorted(secrets.values())) | values,
        "text": st.booleans() | values,
        "move": move_text | values,
        "moves": st.lists(move_text | values, max_size=4) | values,
        "version": real_version | st.integers(version - 2, version + 2) | values,
        "id": st.text(min_size=1, max_size=8) | values,
    }
    wanted = {"hello": ["seat", "secret", "text"], "move": ["move", "moves", "version", "id"],
              "undo": ["version", "id"], "preview": ["moves"], "chat": ["text"]
              }.get(kind if isinstance(kind, str) else "", [])
    for name in wanted:
        if draw(st.integers(0, 3), label=f"has {name}"):
            frame[name] = draw(fields[name], label=name)
    if draw(st.integers(0, 4)) == 0:
        frame[draw(st.text(max_size=6), label="extra key")] = draw(values, label="extra")
    if draw(st.integers(0, 9)) == 0:
        del frame["type"]
    data = dumps(frame)
    how = draw(st.sampled_from(["text"] * 6 + ["binary", "padded", "deep"]), label="as")
    if how == "padded":
        data = data[:-1] + b', "pad": "' + b"x" * draw(st.sampled_from([MAX_FRAME, 40000])) + b'"}'
    elif how == "deep":
        data = nested(draw(st.integers(1000, 6000)), core=data).data
    if how == "binary":
        return data, False
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data, True


@SQLITE_ONLY
def test_hypothesis_frames_of_every_type_in_every_role(judge: Judge) -> None:
    """Hypothesis: a role, then a frame of any type with hostile fields (fixed seed, bounded)."""
    game = judge.game

    @seed(SEED)
    @settings(max_examples=budget(250), derandomize=False, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        role = data.draw(st.sampled_from(["seat"] * 3 + ["other", "spectator", "none"]),
                         label="role")
        to_move = game.to_move()
        legal = game.seat_view(to_move)["view"]["legal_moves"] if role == "seat" else []
        payload, text = data.draw(frames(judge.baseline["version"], legal, game.secrets),
                                  label="frame")
        shown = repr(payload) if len(payload) < 120 else \
            f"{payload[:100]!r}...{payload[-10:]!r}"
        frame = _looks(payload)
        kind = (f"type {frame.get('type', '(none)')!r:.24}" if frame is not None else
                "not a JSON object") + (" (binary)" if text is False else "") + \
            (f" ({len(payload)} bytes)" if len(payload) > MAX_FRAME else "")
        judge.send(f"frame {shown}", payload, role, text, kind=kind)

    run()
    judge.check()


def test_the_server_logged_no_traceback(server: Server) -> None:
    """Last in the module: every traceback the server logged while it was fuzzed (one that
    closed no connection shows here too), one line each."""
    found = summarize(server.log.read_text(encoding="utf-8", errors="replace"))
    counts: dict[str, int] = {}
    for line in found:
        if UVICORN_UTF8.search(line):
            continue  # uvicorn logs the text frame that is not UTF-8 it closed with 1007
        counts[line] = counts.get(line, 0) + 1
    assert not counts, f"{len(counts)} distinct tracebacks in the server log:\n" + "\n".join(
        f"- (x{n}) {line}" for line, n in sorted(counts.items()))


#: Where uvicorn logs a text frame that is not UTF-8 (it then closes with 1007, as it must).
UVICORN_UTF8 = re.compile(r"websockets_sansio_impl\.py:\d+ in send_receive_event_to_app: "
                          r"UnicodeDecodeError")
