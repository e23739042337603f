"""The agent's main loop: the account's event stream, the challenges it accepts or declines,
Play now and tournaments it joins, and one task per seat it holds (:func:`.seat.play_seat`),
until it is stopped (SIGINT, SIGTERM) or has finished the games it was asked for.

The stream (``GET /api/stream/event``) is read in a thread (urllib) into a bounded queue; a
dropped stream (a server restart, the network) is opened again with a growing wait, and since
the server sends every seat the account holds at a game not finished when a stream opens,
the agent resumes the seats it was playing (each seat's task reconnects by itself too)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import meeple
from meeple.agent.http import Api, Refused, Unreachable
from meeple.agent.policies import AgentError, Policy, Seat
from meeple.agent.seat import FINISHED, MOST_BACKOFF, SeatStats, play_seat

#: A meeple token's shape (``mpl_`` and 43 URL-safe characters).
TOKEN_SHAPE = re.compile(r"mpl_[A-Za-z0-9_-]{43}")
#: The most lines of the event stream waiting to be handled (the reader waits past it).
QUEUE = 256
#: Seconds without a line (the server sends a keep-alive every few) before the stream is
#: taken for dead and opened again.
STREAM_SILENCE = 60.0
#: How often (seconds) a Play now wait is asked after (the server gives it up after 15 s).
PLAY_NOW_EVERY = 5.0


# ------------------------------------------------------------------------------ the input
def checked_url(url: str) -> str:
    """The server's address as ``http(s)://host[:port]``; :class:`AgentError` otherwise."""
    text = url.strip().rstrip("/")
    if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", text):
        raise AgentError(f"--server {url!r} is not a server address; give http(s)://host:port, "
                         "e.g. http://127.0.0.1:8000")
    return text


def read_token(token_file: Path | None, env_token: str | None) -> str:
    """The token from ``--token-file`` or ``MEEPLE_TOKEN``; :class:`AgentError` when there is
    none or it is not a meeple token's shape."""
    if token_file is not None:
        try:
            token = token_file.read_text("utf-8").strip()
        except OSError as exc:
            raise AgentError(f"--token-file {token_file}: cannot read it ({exc.strerror})"
                             ) from None
        where = f"--token-file {token_file}"
    elif env_token:
        token, where = env_token.strip(), "MEEPLE_TOKEN"
    else:
        raise AgentError("no token: give --token-file FILE or set MEEPLE_TOKEN to a token "
                         "made on the bot account's /account page")
    if not TOKEN_SHAPE.fullmatch(token):
        raise AgentError(f"{where} does not hold a meeple token ('mpl_' and 43 letters, digits, "
                         "'-' or '_', as /account showed it)")
    return token


@dataclass(frozen=True)
class ChallengeFilter:
    """Which challenges to accept: ``game=gardens|reefs,pace=live,rated=any,seats=2`` (each
    key at most once; a value ``any`` or a key left out accepts all)."""

    games: frozenset[str] | None = None
    pace: str | None = None
    rated: bool | None = None
    seats: frozenset[int] | None = None

    @classmethod
    def parse(cls, text: str) -> ChallengeFilter:
        if text.strip().lower() in ("any", "all", ""):
            return cls()
        values: dict[str, Any] = {}
        for part in text.split(","):
            key, sep, value = part.strip().partition("=")
            key, value = key.strip().lower(), value.strip().lower()
            if not sep or not value or key in values:
                raise AgentError(f"--accept {text!r}: {part.strip()!r} is not key=value (each "
                                 "key once), e.g. game=gardens,pace=live,rated=any")
            if value == "any":
                values[key] = None
            elif key == "game":
                values[key] = frozenset(v.strip() for v in value.split("|"))
            elif key == "pace" and value in ("live", "turn-based"):
                values[key] = value
            elif key == "rated" and value in ("true", "false", "yes", "no"):
                values[key] = value in ("true", "yes")
            elif key == "seats" and all(v.strip().isdigit() for v in value.split("|")):
                values[key] = frozenset(int(v) for v in value.split("|"))
            else:
                raise AgentError(f"--accept {text!r}: {key}={value} is not taken; keys: game "
                                 "(names, | between), pace (live, turn-based), rated (true, "
                                 "false), seats (2|3|4), each also 'any'")
        return cls(values.get("game"), values.get("pace"), values.get("rated"),
                   values.get("seats"))

    def refusal(self, challenge: dict[str, Any]) -> str | None:
        """Why ``challenge`` is declined (the decline's reason), or None: accept it."""
        if self.games is not None and challenge.get("game") not in self.games:
            return "variant"
        if self.pace is not None and challenge.get("pace") != self.pace:
            return "timeControl"
        if self.rated is not None and bool(challenge.get("rated")) != self.rated:
            return "casual" if self.rated else "rated"
        if self.seats is not None and challenge.get("seats") not in self.seats:
            return "generic"
        return None


def parse_play_now(text: str) -> tuple[str, int, dict[str, Any]]:
    """``GAME[:SEATS]`` as (game, seats, variant): two seats unless said, and the game's first
    listed variant (Play now seats the listed variants only)."""
    game, sep, seats = text.partition(":")
    game = game.strip()
    if not game or (sep and not seats.strip().isdigit()):
        raise AgentError(f"--play-now {text!r}: give GAME or GAME:SEATS, e.g. gardens:2")
    try:
        info = meeple.game_info(game)
    except meeple.MeepleError as exc:
        raise AgentError(f"--play-now {text!r}: {exc}") from None
    return game, int(seats) if sep else 2, dict(info.variants[0]) if info.variants else {}


@dataclass
class Options:
    """What ``meeple agent`` was asked to do."""

    policy: Policy
    accept: ChallengeFilter | None = None
    play_now: tuple[str, int, dict[str, Any]] | None = None
    tournaments: tuple[str, ...] = ()
    games: int | None = None
    quiet: bool = False


# ------------------------------------------------------------------------------ the agent
@dataclass
class Agent:
    """One agent run (:meth:`run`)."""

    api: Api
    options: Options
    name: str = ""
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    seats: dict[tuple[str, int], asyncio.Task[str]] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)
    stats: dict[tuple[str, int], SeatStats] = field(default_factory=dict)
    error: str | None = None
    waiting_play_now: bool = False

    def say(self, text: str, always: bool = False) -> None:
        if always or not self.options.quiet:
            print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await asyncio.to_thread(self.api.call, method, path, body)

    async def run(self) -> int:
        """Run until stopped or done: 0; 2 when the server refuses the token."""
        try:
            me = await self.call("GET", "/api/me")
        except Refused as exc:
            raise AgentError(f"the server refused the token: {exc.detail}") from None
        except Unreachable as exc:
            raise AgentError(f"cannot reach the server at {self.api.base} ({exc})") from None
        account = (me or {}).get("account") or {}
        self.name = str(account.get("username", ""))
        if not account.get("bot_account"):
            self.say(f"note: {self.name} is not a bot account (POST /api/me/bot makes it one)")
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stop.set)
        self.say(f"meeple agent: {self.name} on {self.api.base} with {self.options.policy.name}")
        for tournament in self.options.tournaments:
            await self.join_tournament(tournament)
        events = asyncio.ensure_future(self.events())
        play_now = asyncio.ensure_future(self.play_now()) if self.options.play_now else None
        await self.stop.wait()
        for task in (events, play_now):
            if task is not None:
                task.cancel()
        if self.waiting_play_now:
            with contextlib.suppress(Refused, Unreachable):
                await self.call("DELETE", "/api/play-now")
        # each seat closes its socket with a close frame
        running = [t for t in self.seats.values() if not t.done()]
        if running:
            await asyncio.wait(running, timeout=10)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        if self.error is not None:
            raise AgentError(self.error)
        self.say(f"stopped after {len(self.finished)} finished game(s)")
        return 0

    # -------------------------------------------------------------- the event stream
    async def events(self) -> None:
        """Read the event stream, again after each drop, until stopped."""
        wait = 0.5
        while not self.stop.is_set():
            try:
                await self.read_stream()
                wait = 0.5
            except Refused as exc:
                if exc.status in (401, 403):
                    self.error = f"the server refused the token: {exc.detail}"
                    self.stop.set()
                    return
                self.say(f"event stream: {exc}")
            except (Unreachable, OSError, TimeoutError) as exc:
                self.say(f"event stream lost ({exc}); again in {wait:.1f} s")
            await asyncio.sleep(wait)
            wait = min(MOST_BACKOFF, wait * 2)

    async def read_stream(self) -> None:
        loop = asyncio.get_running_loop()
        response = await asyncio.to_thread(self.api.stream, STREAM_SILENCE)
        lines: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE)

        def reader() -> None:
            try:
                for raw in response:
                    asyncio.run_coroutine_threadsafe(lines.put(raw), loop).result()
            except Exception:  # closed under it (the agent stops), or the connection dropped
                pass
            finally:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(lines.put_nowait, None)

        threading.Thread(target=reader, daemon=True, name="meeple-agent-events").start()
        try:
            while True:
                raw = await lines.get()
                if raw is None:
                    raise Unreachable("the server closed the event stream")
                if raw.strip():
                    await self.on_event(json.loads(raw))
        finally:
            with contextlib.suppress(Exception):
                response.close()

    async def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "gameStart":
            game = event.get("game") or {}
            self.start_seat(Seat(str(game["table"]), int(game["seat"]), str(game["game"]),
                                 dict(game.get("variant") or {})))
        elif kind == "challenge":
            await self.on_challenge(event.get("challenge") or {})

    # -------------------------------------------------------------- challenges
    async def on_challenge(self, challenge: dict[str, Any]) -> None:
        ident = str(challenge.get("id"))
        challenged = (challenge.get("challenged") or {}).get("name")
        if ident in self.answered or challenged != self.name or challenge.get("state") != "open":
            return
        self.answered.add(ident)
        who = (challenge.get("challenger") or {}).get("name")
        reason = "generic" if self.options.accept is None else \
            self.options.accept.refusal(challenge)
        try:
            if reason is None:
                got = await self.call("POST", f"/api/challenges/{ident}/accept")
                self.say(f"accepted {who}'s challenge {ident} ({challenge.get('game')})")
                if got and got.get("table") is not None and got.get("seat") is not None:
                    table = got["table"]
                    table_id = table["id"] if isinstance(table, dict) else str(table)
                    self.start_seat(Seat(table_id, int(got["seat"]), str(challenge["game"]),
                                         dict(challenge.get("variant") or {})))
            else:
                try:
                    await self.call("POST", f"/api/challenges/{ident}/decline",
                                    {"reason": reason})
                except Refused as exc:  # a reason the server does not list: none
                    if exc.status != 422:
                        raise
                    await self.call("POST", f"/api/challenges/{ident}/decline", {})
                self.say(f"declined {who}'s challenge {ident} ({reason})")
        except (Refused, Unreachable) as exc:
            self.say(f"challenge {ident}: {exc}")

    # -------------------------------------------------------------- Play now, tournaments
    async def play_now(self) -> None:
        """Wait in Play now (bots may fill the table) whenever no seat is being played and
        more games are wanted; ask after the wait every few seconds, as its page does."""
        assert self.options.play_now is not None
        game, seats, variant = self.options.play_now
        while not self.stop.is_set():
            busy = any(not t.done() for t in self.seats.values())
            if not busy and not self.done_enough():
                try:
                    if not self.waiting_play_now:
                        await self.call("POST", "/api/play-now",
                                        {"game": game, "variant": variant,
                                         "players": seats, "bots": True})
                        self.waiting_play_now = True
                        self.say(f"waiting in Play now for {game} ({seats} seats)")
                    state = await self.call("GET", "/api/play-now")
                    if state.get("state") == "seated":
                        self.waiting_play_now = False
                        self.start_seat(Seat(str(state["table"]), int(state["seat"]), game))
                    elif state.get("state") in ("gone", "none"):
                        self.waiting_play_now = False
                except Refused as exc:  # the server will not seat this wish: stop, saying why
                    self.error = f"Play now: {exc}"
                    self.stop.set()
                    return
                except Unreachable as exc:
                    self.say(f"Play now: {exc}")
            await asyncio.sleep(PLAY_NOW_EVERY)

    async def join_tournament(self, ident: str) -> None:
        try:
            await self.call("POST", f"/api/tournaments/{ident}/join")
            self.say(f"joined tournament {ident}")
        except (Refused, Unreachable) as exc:
            self.say(f"tournament {ident}: {exc}", always=True)

    # -------------------------------------------------------------- seats
    def start_seat(self, where: Seat) -> None:
        key = (where.table, where.seat)
        if key in self.seats or where.table in self.finished or self.stop.is_set():
            return
        self.say(f"playing table {where.table} seat {where.seat} ({where.game})")
        stats = self.stats[key] = SeatStats()
        task = asyncio.ensure_future(play_seat(self.api, self.options.policy, where,
                                               self.stop, self.say, stats))
        self.seats[key] = task
        task.add_done_callback(lambda t: self.seat_done(where, t))

    def seat_done(self, where: Seat, task: asyncio.Task[str]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            self.say(f"table {where.table}: {type(exc).__name__}: {exc}", always=True)
            if isinstance(exc, AgentError):
                self.error = str(exc)
                self.stop.set()
            return
        stats = self.stats.get((where.table, where.seat), SeatStats())
        if task.result() == FINISHED:
            self.finished.add(where.table)
            self.say(f"finished table {where.table} ({stats.moves} moves sent, "
                     f"{stats.refused} refused)", always=True)
            if self.done_enough():
                self.stop.set()

    def done_enough(self) -> bool:
        return self.options.games is not None and len(self.finished) >= self.options.games


def run_agent(api: Api, options: Options) -> int:
    """Run an agent to its end; its exit code."""
    return asyncio.run(Agent(api, options).run())


__all__ = ["Agent", "ChallengeFilter", "Options", "checked_url", "parse_play_now",
           "read_token", "run_agent"]
