"""One seat played by ``meeple agent``: the table's WebSocket with the token (the hello needs
no secret: the account holds the seat), and at each view where the seat is to move, its
position rebuilt and the policy's move sent.

**How the position is rebuilt.** The view a seat is sent is for drawing, not a game state; the
policies need a :class:`meeple.State` (the RL observation is built from one,
:mod:`meeple.rl.spaces`). So the agent asks the table's record once (``GET .../record``: every
move and chance outcome drawn so far, the seed withheld), replays it with the engine
(:func:`meeple.replay`), and then plays on it the moves each view's log adds (:class:`Position`:
no request a move, which a token's rate would soon refuse); a policy sees only
``seen_by(seat)`` of it, the seat's own
information, as the server's bot seats do. The move it picks is checked against the view's
``legal_moves`` (the server's own list) before it is sent with the view's version: a position
that moved on meanwhile is waited out, never played into."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple import replay
from meeple.agent.http import Api, Unreachable
from meeple.agent.policies import Policy, Seat
from meeple.core.errors import IllegalMove

#: What play_seat ends with.
FINISHED, STOPPED, REFUSED = "finished", "stopped", "refused"
#: The longest wait between two tries to reach a table again (seconds).
MOST_BACKOFF = 10.0


@dataclass
class SeatStats:
    """What one seat's play did: moves sent, moves refused, connections made."""

    moves: int = 0
    refused: int = 0
    connections: int = 0


@dataclass
class Position:
    """The table's position as the agent keeps it between views: replayed from the record
    once, then brought up to date from each view's log (its last lines carry every move's
    number and text, chance outcomes too), so a move costs no request. A view whose log does
    not reach back to the position kept (a reconnect after many moves, an undo) is answered
    by the record again."""

    state: Any = None

    def at(self, api: Api, table: str, view: dict[str, Any]) -> Any:
        """The position of ``view`` (its ``moves_played`` and ``log``). Blocking."""
        wanted = int(view.get("moves_played", -1))
        if self.state is not None and self._follow(view, wanted):
            return self.state
        self.state = replay(api.call("GET", f"/api/tables/{table}/record"))
        return self.state

    def _follow(self, view: dict[str, Any], wanted: int) -> bool:
        state = self.state
        have = len(state.history)
        lines = {int(line["number"]): str(line["move"]) for line in view.get("log") or []
                 if isinstance(line, dict) and "number" in line and "move" in line}
        if have > wanted or any(n not in lines for n in range(have + 1, wanted + 1)):
            return False
        if have and have in lines and lines[have] != str(state.history[-1]):
            return False  # an undo and other moves since: not the line kept
        try:
            for n in range(have + 1, wanted + 1):
                state.play(lines[n])
        except IllegalMove:
            return False
        return True


def decide(api: Api, policy: Policy, where: Seat, view: dict[str, Any],
           position: Position) -> str | None:
    """The policy's move at the view's position, or None when the seat is not to move there
    or the move is not one the view lists. Blocking: run it in a thread."""
    state = position.at(api, where.table, view)
    if state.is_over or state.to_move != where.seat:
        return None
    move = policy.move(state, where)
    return move if move in (view.get("legal_moves") or []) else None


async def play_seat(api: Api, policy: Policy, where: Seat, stop: asyncio.Event,
                    say: Callable[[str], None], stats: SeatStats | None = None) -> str:
    """Play ``where`` until its game is over (:data:`FINISHED`), ``stop`` is set
    (:data:`STOPPED`: the socket closed with a close frame) or the server refuses the seat
    (:data:`REFUSED`: the token no longer holds it). A dropped connection (a server restart,
    the network) is tried again with a growing wait."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    stats = stats or SeatStats()
    url = f"{api.ws_base}/ws/tables/{where.table}"
    wait = 0.5
    while not stop.is_set():
        try:
            async with connect(url, additional_headers=api.auth, max_size=None,
                               open_timeout=30, ping_interval=20, ping_timeout=60,
                               close_timeout=5) as ws:
                stats.connections += 1
                wait = 0.5
                result = await _play(ws, api, policy, where, stop, say, stats)
                if result is not None:
                    return result
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (401, 403, 404):
                say(f"table {where.table}: the server refused the seat ({status})")
                return REFUSED
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code in (4401, 4403):
                say(f"table {where.table}: the server closed the seat ({code}: "
                    f"{exc.rcvd.reason if exc.rcvd else ''})")
                return REFUSED
        except (OSError, TimeoutError, Unreachable):
            pass
        if stop.is_set():
            break
        say(f"table {where.table}: connection lost; again in {wait:.1f} s")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait)
        wait = min(MOST_BACKOFF, wait * 2)
    return STOPPED


async def _play(ws: Any, api: Api, policy: Policy, where: Seat, stop: asyncio.Event,
                say: Callable[[str], None], stats: SeatStats) -> str | None:
    """One connection: hello, then a move at each view where the seat is to move. None: the
    connection ended without the game's end (connect again)."""
    await ws.send(json.dumps({"type": "hello", "seat": where.seat}))
    stopping = asyncio.ensure_future(stop.wait())
    welcomed = False
    position = Position()
    try:
        while True:
            recv = asyncio.ensure_future(ws.recv())
            done, _ = await asyncio.wait({recv, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                recv.cancel()
                return STOPPED
            frame = json.loads(recv.result())
            kind = frame.get("type")
            if kind == "welcome":
                welcomed = True
            elif kind == "error":
                say(f"table {where.table}: {frame.get('reason')}")
                if not welcomed:  # the hello was refused: the seat is not the account's
                    return REFUSED
            elif kind == "refused":
                stats.refused += 1
                say(f"table {where.table}: move refused: {frame.get('reason')}")
            elif kind == "view":
                view = frame["view"]
                if view.get("over"):
                    return FINISHED
                legal = view.get("legal_moves") or []
                if view.get("to_move") == where.seat and legal:
                    try:
                        move = await asyncio.to_thread(decide, api, policy, where, view,
                                                       position)
                    except Unreachable:
                        return None
                    if move is not None:
                        await ws.send(json.dumps({"type": "move", "move": move,
                                                  "version": frame["version"]}))
                        stats.moves += 1
    finally:
        stopping.cancel()


__all__ = ["FINISHED", "REFUSED", "STOPPED", "SeatStats", "decide", "play_seat"]
