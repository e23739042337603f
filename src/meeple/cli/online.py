"""``meeple join``: play or watch a table of a meeple server from the terminal.

The terminal is then one more client of the server's per-seat view (src/meeple/server/table/README.md):
it draws what the view holds with the game's own terminal drawing of a view (the same screen as ``meeple
play``: :func:`meeple.core.present.draw_view` on the view and the table's layout, fetched once
from ``GET .../layout``), then the log in words, the totals and the legal moves, and sends moves
over the table's WebSocket, exactly as the browser does. A game this copy of meeple cannot
draw (a newer server's) is shown by the view's own ``text``, which the server then sends.
Seat secrets are kept in the user's data folder, so running the same command again takes the
seat back (after a dropped connection, a server restart or a closed terminal).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import typer

from meeple.cli.common import app, console, fail, refuse
from meeple.core.delta import PatchError, apply_patch
from meeple.core.errors import MeepleError
from meeple.core.present import draw_view, presentation
from meeple.core.viewmodel import View

_TABLE_URL = re.compile(r"^(?P<base>https?://[^/?#]+)/(?:t|api/tables)/(?P<id>[A-Za-z0-9_-]+)")
#: Moves listed one per line at most; past that the count and the first ones are shown.
_LIST = 40


def parse_table_url(url: str) -> tuple[str, str]:
    """``(base URL, table id)`` of a table link such as ``http://127.0.0.1:8000/t/ab12``."""
    m = _TABLE_URL.match(url.strip())
    if m is None:
        raise fail(f"{url!r} is not a table link; give the link the lobby shows, e.g. "
                   "http://127.0.0.1:8000/t/TABLE-ID")
    return m["base"], m["id"]


def seats_file() -> Path:
    """Where the secrets of the seats this user took are kept (``MEEPLE_SEATS_FILE`` to move)."""
    from meeple.settings import Settings, SettingsError

    try:
        return Settings.from_env().client.seats_path()
    except SettingsError as exc:
        raise refuse(str(exc)) from None


def _load_seats() -> dict[str, Any]:
    try:
        data = json.loads(seats_file().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_seat(key: str, seat: int, secret: str) -> None:
    data = _load_seats()
    data[key] = {"seat": seat, "secret": secret}
    path = seats_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), "utf-8")
        os.chmod(tmp, 0o600)
        tmp.replace(path)
    except OSError as exc:  # the seat still works now; it cannot be resumed later
        console.print(f"[yellow]warning:[/] cannot keep the seat's secret in {path} ({exc}); "
                      f"to come back later you will need it: {secret}")


def _request(method: str, url: str, body: dict[str, Any] | None = None, tries: int = 4) -> Any:
    """One request; one whose reply is lost (no connection, a server restart) is sent again,
    ``tries`` times in all, with the same Idempotency-Key on a POST, so a retried join gets
    the same seat and secret (src/meeple/server/table/README.md, *Retrying a request*)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = secrets.token_hex(16)
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    for attempt in range(1, tries + 1):
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            try:
                detail = json.loads(exc.read()).get("detail", exc.reason)
            except ValueError:
                detail = exc.reason
            raise fail(f"{method} {url}: {exc.code} {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            if attempt == tries:
                reason = getattr(exc, "reason", exc)
                raise fail(f"cannot reach the server at {url}: {reason}") from None
            time.sleep(0.5 * attempt)
    raise AssertionError("unreachable")


def take_seat(base: str, table: str, name: str, seat: int | None, watch: bool
              ) -> tuple[int | None, str | None]:
    """The seat to play (with its secret) or ``(None, None)`` to watch."""
    info = _request("GET", f"{base}/api/tables/{table}")
    if watch:
        return None, None
    key = f"{base}/t/{table}"
    kept = _load_seats().get(key)
    if isinstance(kept, dict) and (seat is None or kept.get("seat") == seat):
        console.print(f"taking back seat {kept['seat']} of table {table}")
        return int(kept["seat"]), str(kept["secret"])
    open_seats = [s["index"] for s in info.get("seats", []) if s.get("kind") == "human"
                  and not s.get("taken")]
    if not open_seats or (seat is not None and seat not in open_seats):
        which = f"seat {seat} is not open" if seat is not None and open_seats else \
            "no seat is open"
        console.print(f"{which} at table {table}: watching as a spectator")
        return None, None
    joined = _request("POST", f"{base}/api/tables/{table}/join", {"seat": seat, "name": name})
    _save_seat(key, int(joined["seat"]), str(joined["secret"]))
    console.print(f"you took seat {joined['seat']} as {name}")
    return int(joined["seat"]), str(joined["secret"])


def table_layout(base: str, table: str) -> dict[str, Any] | None:
    """The table's layout (``GET .../layout``) if this copy of meeple draws its game, else
    None (the view's ``text`` is shown instead)."""
    got = _request("GET", f"{base}/api/tables/{table}/layout")
    try:
        if presentation(str(got.get("game"))).draw is None:
            return None
    except MeepleError:
        return None
    layout = got.get("layout")
    return layout if isinstance(layout, dict) else None


def draw_screen(view: dict[str, Any], seat: int | None, layout: dict[str, Any] | None) -> None:
    """The position: the game's drawing of the view on the layout, or the view's ``text``."""
    if layout is not None:
        try:
            console.print(draw_view(layout, View.model_validate(view), seat), highlight=False)
            return
        except (MeepleError, ValueError) as exc:  # a view this copy cannot read
            console.print(f"[yellow]cannot draw this view here ({exc})[/]", highlight=False)
    text = view.get("text") or ""
    if text:
        console.print(text, markup=False, highlight=False)


def draw(view: dict[str, Any], seat: int | None, shown_log: int,
         layout: dict[str, Any] | None = None) -> int:
    """Print the view as the terminal shows a game; returns how many log lines are shown."""
    draw_screen(view, seat, layout)
    newest = _print_log(view, shown_log)
    pads = view.get("scores") or []
    names = [s["name"] for s in view.get("seats") or []]
    console.print("  " + "   ".join(f"{n}: {p['total']}" for n, p in zip(names, pads, strict=False)),
                  markup=False, highlight=False)
    if view.get("over"):
        _print_game_over(view, names, pads)
    elif seat is not None and view.get("to_move") == seat:
        _print_your_move(view)
    elif view.get("to_move") is not None:
        console.print(f"waiting for {names[view['to_move']]}...", style="dim")
    return newest


def _print_log(view: dict[str, Any], shown_log: int) -> int:
    """Print the log lines after the first ``shown_log``; the number of the newest."""
    lines = view.get("log") or []
    for line in lines:
        if line["number"] <= shown_log:
            continue
        said = "; ".join(line.get("said") or [])
        console.print(f"  {line['number']:>3}. {line['who']}: {line['move']}"
                      + (f"  ({said})" if said else ""), markup=False, highlight=False)
    return max([shown_log, *(int(line["number"]) for line in lines)])


def _print_game_over(view: dict[str, Any], names: list[str], pads: list[Any]) -> None:
    """Each seat's total with its score rows, and the winners."""
    console.print("[bold]Game over.[/]")
    for n, p in zip(names, pads, strict=False):
        rows = ", ".join(f"{k} {v}" for k, v in p["rows"].items())
        console.print(f"  {n}: {p['total']} ({rows})", markup=False, highlight=False)
    winners = [names[w] for w in view.get("winners") or []]
    if winners:
        console.print(f"  winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}",
                      markup=False, highlight=False)


def _print_your_move(view: dict[str, Any]) -> None:
    """The legal moves, numbered (the first ``_LIST``), and what may be typed."""
    legal = view.get("legal_moves") or []
    console.print(f"[bold]Your move[/] ({len(legal)} legal):")
    for i, move in enumerate(legal[:_LIST], start=1):
        console.print(f"  {i:>2}. {move}", markup=False, highlight=False)
    if len(legal) > _LIST:
        console.print(f"  ... and {len(legal) - _LIST} more (type a move, or 'moves')")
    console.print("type a move or its number; 'undo', 'moves', 'quit'", style="dim")


def read_line() -> asyncio.Future[str | None]:
    """The next line typed (None at the end of input), read by a daemon thread so that
    leaving never waits for the keyboard. A line is read only when one is wanted (on this
    seat's turn): lines typed or piped earlier wait for it."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[str | None] = loop.create_future()

    def reader() -> None:
        line = sys.stdin.readline()
        result = line if line else None

        def deliver() -> None:
            if not fut.done():
                fut.set_result(result)

        loop.call_soon_threadsafe(deliver)

    threading.Thread(target=reader, name="meeple-stdin", daemon=True).start()
    return fut


async def play_online(base: str, table: str, seat: int | None, secret: str | None) -> int:
    """Play (or watch) until the game is over or the player quits; the exit code."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws_url = re.sub(r"^http", "ws", base) + f"/ws/tables/{table}"
    play = _Play(base, table, seat, table_layout(base, table))
    for attempt in range(30):  # a dropped connection or a server restart: connect again
        try:
            async with connect(ws_url, max_size=None, open_timeout=30) as ws:
                code = await play.connected(ws, secret)
                if code is not None:
                    return code
        except (ConnectionClosed, OSError) as exc:
            play.sent = False
            if attempt == 29:
                raise fail(f"lost the connection to {ws_url} ({exc})") from None
            console.print("[yellow]connection lost; reconnecting...[/]")
            await asyncio.sleep(min(5.0, 0.5 * (attempt + 1)))
    return 1


class _Play:
    """A seat (or a spectator) at a server's table from the terminal: the view held, and the
    line being read and the move sent, both kept across connections."""

    def __init__(self, base: str, table: str, seat: int | None,
                 layout: dict[str, Any] | None) -> None:
        self.base, self.table, self.seat, self.layout = base, table, seat, layout
        self.view: dict[str, Any] = {}
        self.version, self.shown = -1, 0
        self.pending: asyncio.Future[str | None] | None = None  # a line being read
        self.sent = False  # a move is on its way: wait for its answer before reading the next

    async def connected(self, ws: Any, secret: str | None) -> int | None:
        """Say hello, then draw each view and send each move typed, until the game is over
        (0), the player quits (0) or the secret is refused (2); None: connect again for a
        whole view."""
        # updates: each new version as what changed since the last (JSON Patch)
        hello: dict[str, Any] = {"type": "hello", "text": self.layout is None, "updates": True}
        if self.seat is not None:
            hello |= {"seat": self.seat, "secret": secret}
        await ws.send(json.dumps(hello))
        recv: asyncio.Task[Any] = asyncio.ensure_future(ws.recv())
        while True:
            waits: set[asyncio.Future[Any]] = {recv}
            if self._wants_line():
                self.pending = self.pending or read_line()
                waits.add(self.pending)
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if recv in done:
                frame = json.loads(recv.result())
                recv = asyncio.ensure_future(ws.recv())
                code = self._on_frame(frame)
                if code == _AGAIN:
                    return None
                if code is not None:
                    return code
            if self.pending is not None and self.pending in done:
                line = self.pending.result()
                self.pending = None
                if line is None or line.strip().lower() in ("quit", "exit", "q"):
                    console.print(f"left the table; come back with: meeple join "
                                  f"{self.base}/t/{self.table}")
                    return 0
                frame_out = _move_frame(line.strip(), self.view, self.seat, self.version)
                if frame_out is not None:
                    self.sent = True
                    await ws.send(json.dumps(frame_out))

    def _wants_line(self) -> bool:
        """This seat is to move, the game goes on and no move of it is on its way."""
        return (self.seat is not None and not self.view.get("over") and not self.sent
                and self.view.get("to_move") == self.seat)

    def _on_frame(self, frame: dict[str, Any]) -> int | None:
        """A frame from the server: a view drawn, a move answered; an exit code when the game
        is over (0) or the secret is refused (2), ``_AGAIN`` when an update does not fit."""
        kind = frame.get("type")
        if kind == "update":
            frame = _updated(frame, self.version, self.view)
            kind = frame.get("type")
            if kind is None:  # does not fit the view held: a whole one again
                return _AGAIN
        if kind == "view" and frame["version"] >= self.version:
            self.version, self.view = frame["version"], frame["view"]
            self.shown = draw(self.view, self.seat, self.shown, self.layout)
            if self.view.get("over"):
                return 0
        elif kind in ("ack", "refused", "error"):
            self.sent = False
            if kind != "ack":
                console.print(f"[red]refused:[/] {frame['reason']}", highlight=False)
            if kind == "error" and "secret" in frame["reason"]:
                return 2
        return None


#: :meth:`_Play._on_frame`: connect again for a whole view
_AGAIN = -1


def _updated(frame: dict[str, Any], version: int, view: dict[str, Any]) -> dict[str, Any]:
    """The whole view frame an ``update`` frame makes of the view held (at ``version``), or
    ``{}`` when it does not fit (then the client connects again for a whole view)."""
    if frame.get("base") != version:
        return {}
    try:
        new = apply_patch(view, frame.get("patch") or [])
    except PatchError:
        return {}
    return {"type": "view", "version": frame["version"], "view": new}


def _move_frame(line: str, view: dict[str, Any], seat: int | None, version: int
                ) -> dict[str, Any] | None:
    if not line:
        return None
    legal = view.get("legal_moves") or []
    if line == "moves":
        console.print("  " + "  ".join(legal) if legal else "  no moves now", markup=False)
        return None
    if view.get("to_move") != seat:
        console.print("it is not your turn", style="dim")
        return None
    if line == "undo":
        return {"type": "undo", "version": version, "id": secrets.token_hex(8)}
    if line.isdigit():
        n = int(line)
        if not 1 <= n <= len(legal):
            console.print(f"[red]no choice {n}:[/] give 1 to {len(legal)}, or a move")
            return None
        line = legal[n - 1]
    return {"type": "move", "move": line, "version": version, "id": secrets.token_hex(8)}


@app.command("join")
def join_cmd(
    table_url: Annotated[str, typer.Argument(
        help="the table's link, e.g. http://127.0.0.1:8000/t/TABLE-ID")],
    name: Annotated[str, typer.Option(help="your name at the table")] = "you",
    seat: Annotated[int | None, typer.Option(help="the open seat to take (default: the "
                                                  "first)")] = None,
    watch: Annotated[bool, typer.Option(help="watch as a spectator")] = False,
) -> None:
    """Play (or watch) a table of a meeple server from the terminal."""
    base, table = parse_table_url(table_url)
    my_seat, secret = take_seat(base, table, name, seat, watch)

    try:
        code = asyncio.run(play_online(base, table, my_seat, secret))
    except KeyboardInterrupt:
        console.print(f"\nleft the table; come back with: meeple join {base}/t/{table}")
        code = 0
    raise typer.Exit(code)
