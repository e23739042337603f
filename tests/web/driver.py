"""Playing a table page by clicks, as a person would: lit choices, then Confirm turn; and what
the page tests share (creating a table from the lobby, the pad against the engine's scores,
the layout, screenshots)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import meeple
from meeple.core.rng import Rng
from meeple.core.state import State
from tests.server.client import Player
from tests.server.conftest import Server

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

#: ``MEEPLE_WHOLE_GAMES=1``: :func:`fast_forward` skips nothing, so every game test that starts
#: late plays its whole game by clicks (the long version of the browser tests, by hand)
WHOLE_GAMES = os.environ.get("MEEPLE_WHOLE_GAMES") == "1"

#: the phases in which the page waits for nothing (``pending``: a reply is on its way)
SETTLED = ("my-turn", "complete", "over", "waiting", "watching", "replay")

#: one click of a turn: (page, rng, counts) -> whether something was clicked (False: nothing
#: to click yet). It adds to ``counts`` what it clicked.
Step = Callable[[Any, Rng, dict[str, int]], bool]


def turn_moves(page: Any) -> list[str]:
    """The turn being built, in notation: the page says it in words ("This turn: take the
    orange pencil (4 fields), then ..."), and keeps the moves in ``#buffer``'s ``data-moves``."""
    return [str(m) for m in json.loads(page.get_attribute("#buffer", "data-moves") or "[]")]


def phase(page: Any, timeout: float = 60_000) -> str:
    """The page's phase once it is not waiting for a reply."""
    page.wait_for_function(f"() => {list(SETTLED)!r}.includes(document.body.dataset.phase)",
                           timeout=timeout)
    return str(page.evaluate("document.body.dataset.phase"))


def settle(page: Any, timeout: float = 60_000) -> None:
    """Wait for the reply to the last click (a preview, or the ack of a confirmed turn)."""
    page.wait_for_function("() => document.body.dataset.phase !== 'pending'", timeout=timeout)


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def create_from_lobby(page: Any, web: Server, game: str, options: dict[str, str],
                      players: int, bot: str = "random") -> str:
    """A table made in the lobby with this page's person in seat 0 and bots in the others;
    the page is left on the table. Returns the table id."""
    page.goto(web.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    for key, value in options.items():
        page.select_option(f"#opt-{key}", value)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#seat-{i}", f"bot:{bot}")
    if page.is_visible("#my-name"):  # a guest; signed in, the account's name is the seat's
        page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/t/**")
    return str(page.url.rsplit("/", 1)[1])


def click_a_button(page: Any, rng: Rng, counts: dict[str, int]) -> bool:
    """A step: one of the choice buttons, at random (a long list folded away is opened first,
    as a person would)."""
    buttons = page.locator("#choices button.choice")
    n = buttons.count()
    if n == 0:
        return False
    fold = page.locator("#choices details.choice-fold:not([open]) > summary")
    if fold.count():
        fold.click()
    try:
        buttons.nth(rng.choice(list(range(n)))).click(timeout=10_000)
    except PlaywrightTimeout:
        # the choices went away between counting and clicking: the turn ended without this
        # seat (its clock ran out, the game was conceded or adjourned). The caller reads the
        # phase again; a page still asking for this click is a real failure.
        if page.evaluate("document.body.dataset.phase") == "my-turn" and buttons.count() >= n:
            raise
        return False
    counts["button"] = counts.get("button", 0) + 1
    return True


def scroll_to(page: Any, selector: str, tries: int = 5) -> None:
    """Scroll ``selector``'s element into view, again if the page drew it anew meanwhile (the
    end panel is drawn again when the table's places arrive after the last move)."""
    for _ in range(tries - 1):
        try:
            page.locator(selector).scroll_into_view_if_needed()
            return
        except PlaywrightError as exc:
            if "not attached" not in str(exc):
                raise
    page.locator(selector).scroll_into_view_if_needed()


def play_by_clicks(page: Any, rng: Rng, step: Step = click_a_button, *,
                   stop: Callable[[dict[str, int], str], bool] | None = None,
                   limit: int = 5000) -> dict[str, int]:
    """Play this page's seat until the game is over (or ``stop(counts, phase)`` says so at the
    start of a step): ``step`` makes each click of a turn, Confirm turn ends it. Returns the
    counts: ``clicks`` (every click, confirms too), ``turns`` (confirms) and what ``step``
    counted."""
    counts = {"clicks": 0, "turns": 0}
    for _ in range(limit):
        now = phase(page)
        if now == "over" or (stop is not None and stop(counts, now)):
            return counts
        if now == "complete":
            page.click("#confirm")
            counts["turns"] += 1
        elif now == "my-turn":
            if not step(page, rng, counts):
                page.wait_for_timeout(50)
                continue
        else:
            page.wait_for_function(
                "() => !['waiting', 'watching'].includes(document.body.dataset.phase)",
                timeout=120_000)
            continue
        counts["clicks"] += 1
        settle(page)
    raise AssertionError(f"the game did not end in {limit} steps")


def click_through(page: Any, rng: Rng, limit: int = 5000) -> int:
    """Play this page's seat with the choice buttons until the game is over; returns the
    clicks made."""
    return play_by_clicks(page, rng, limit=limit)["clicks"]


def after_turns(n: int) -> Callable[[dict[str, int], str], bool]:
    """A ``stop`` for :func:`play_by_clicks`: once ``n`` turns are confirmed."""
    return lambda counts, _now: counts["turns"] >= n


def play_turn(page: Any, rng: Rng) -> None:
    """Play this page's whole turn with the choice buttons, confirm it, and wait until the
    table has moved on (its version is past the one the turn was made at). A turn whose every
    decision was forced opens ``complete``: it only needs the confirm."""
    assert phase(page) in ("my-turn", "complete")
    before = version(page)
    for _ in range(200):
        if phase(page) != "my-turn":
            break
        assert click_a_button(page, rng, {}), "my turn, but no choice to click"
        settle(page, timeout=120_000)
    else:
        raise AssertionError("the turn did not complete in 200 clicks")
    if phase(page) == "complete":
        page.click("#confirm")
    # not a phase: after the confirm the page may be back at "my-turn" (the bots were quick)
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) > {before}"
        " && !['pending', 'complete'].includes(document.body.dataset.phase)", timeout=120_000)


def pad_from_page(page: Any) -> list[dict[str, int]]:
    """The score pad as the page shows it: per seat, every row and the total."""
    rows = page.eval_on_selector_all(
        "#pad-table tbody tr",
        "trs => trs.map(tr => [tr.dataset.row, ...[...tr.children].map(td => td.textContent.trim())])")
    seats = len(rows[0]) - 2
    out: list[dict[str, int]] = [{} for _ in range(seats)]
    for key, label, *cells in rows:
        assert label and label != "undefined", f"a pad row without a label: {key}"
        for i in range(seats):
            out[i][key] = int(re.sub(r"[^\d-]", "", cells[i]) or 0)
    return out


def assert_pad_is_engines(page: Any, web: Server, table: str) -> list[Any]:
    """The pad on the page equals the engine's scores of the table's record, row by row and
    in total. Returns the engine's scores."""
    rec = web.api("GET", f"/api/tables/{table}/record").json()
    engine = meeple.replay(rec).scores()
    shown = pad_from_page(page)
    assert [s["total"] for s in shown] == [s.total for s in engine]
    for seat, score in enumerate(engine):
        for row, value in score.breakdown.items():
            assert shown[seat][row] == value, (seat, row)
    return list(engine)


def held_seat(page: Any, table: str) -> tuple[int, str]:
    """The seat and its secret that this page's browser holds at ``table`` (kept in
    localStorage by the lobby or the join form)."""
    held = page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats') || '{{}}')[{table!r}]")
    assert held, f"this browser holds no seat at {table}"
    return int(held["seat"]), str(held["secret"])


def turns_left(state: State[Any], seat: int, rng: Rng, playouts: int = 20) -> int:
    """How many more turns ``seat`` starts before the end (this one included, if it is to
    move), by random playouts from ``state`` (random legal moves, chance drawn from ``rng``):
    a low estimate, the soonest end among the playouts, so that the game is still on when the
    page takes over (the fifth soonest, as before, let a game end while it was skipped)."""
    counts = []
    for _ in range(playouts):
        s = state.clone()
        n, last = 0, None
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                s.sample_chance(rng)
                continue
            if s.to_move == seat and s.turn != last:
                n, last = n + 1, s.turn
            s.play(rng.choice(s.legal_moves()), check=False)
        counts.append(n)
    return min(counts)


def fast_forward(page: Any, web: Server, table: str, rng: Rng, *, left: int = 3) -> int:
    """Bring the table to a late position without clicks: this page's seat plays random legal
    moves over the table's WebSocket (as any client of the server's API may), until its turn
    starts with about ``left`` of its turns to go (:func:`turns_left` from the table's record;
    at least this one), then the page opens the table again there. The page shows none of
    the skipped moves (it is on about:blank meanwhile), so a game finished by clicks from here
    costs a fraction of a whole one. Returns the moves played (none with
    ``MEEPLE_WHOLE_GAMES=1``: the game is then played by clicks from where it is)."""
    if WHOLE_GAMES:
        return 0
    seat, secret = held_seat(page, table)
    page.goto("about:blank")
    player = Player(web.ws_base, table, seat, secret)
    played, checked, skip = 0, None, 0
    try:
        while player.wait_turn(180):
            turn = player.view["turn"]
            if turn != checked:  # a new turn of this seat: is the end near enough?
                checked = turn
                if skip:
                    skip -= 1
                else:
                    rec = web.api("GET", f"/api/tables/{table}/record").json()
                    estimate = turns_left(meeple.replay(rec), seat, rng)
                    if estimate <= left:
                        break
                    # half the way to the end before the next estimate (the playouts are
                    # whole games early on: one estimate per turn cost more than the clicks)
                    skip = max(0, (estimate - left) // 2 - 1)
            got = player.move(rng.choice(player.view["legal_moves"]), f"ff-{played}")
            if got["type"] == "refused" and "moved on" in got["reason"]:
                continue  # a turn clock's stand-in played meanwhile: look again
            assert got["type"] == "ack", got
            played += 1
        assert not player.view.get("over"), "the game ended before the page could finish it"
    finally:
        player.close()
    page.goto(f"{web.base}/t/{table}")
    return played


def layout_of(web: Server, table: str) -> dict[str, Any]:
    return dict(web.api("GET", f"/api/tables/{table}/layout").json()["layout"])


def shoot(page: Any, game: str, name: str) -> None:
    """With ``MEEPLE_SCREENSHOTS=1``: docs/screenshots/<game>-<name>.png of the whole page,
    with a palette of 256 colours when Pillow is there (run ``uv run --with pillow``), under
    300 KB."""
    if os.environ.get("MEEPLE_SCREENSHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{game}-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    try:  # a palette of 256 colours keeps the committed PNGs small
        from PIL import Image

        with Image.open(path) as img:
            img.convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass
    assert path.stat().st_size < 300_000, f"{path.name} is {path.stat().st_size} bytes"
