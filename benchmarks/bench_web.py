"""What the web app costs a player: first complete view, click -> page updated, code size.

A real ``meeple serve`` on 127.0.0.1 (a temporary SQLite file) and Debian's Chromium driven by
Playwright (``--no-sandbox --disable-gpu``; never ``playwright install``). Per game, one table
is made in the lobby (this browser in seat 0, a ``random`` bot in the other), then:

* first view: ``--loads`` navigations to the table page, each in a new browser context (an
  empty HTTP cache, as a first visit; the seat kept in localStorage). Timed in the page, from
  navigation start (``performance.timeOrigin``) to the first animation frame after the view is
  complete: ``body[data-phase]`` set to a settled phase and the game's SVG drawn in ``#board``.
* click -> update: ``--clicks`` clicks on lit choices (a lit element of the drawing, else a
  choice button), each timed in the page from the click to the first animation frame after the
  preview reply is drawn (``data-phase`` no longer ``pending``), split into the wait for the
  reply (the server's preview and the loopback) and the page's drawing of it (from the frame's
  arrival to the next animation frame). Turns are confirmed between
  clicks (not timed); the bot's turns are waited for (not timed).
* code size: the bytes of the page's own HTML, CSS and JavaScript as loaded (every response
  from this server except the API and WebSocket), raw and gzip-compressed (level 6), for the
  lobby and for each game's table page.

Targets (issue 29): first view <= 1 s, click -> update <= 100 ms (p95 reported beside p50).
Bounded: every wait has a timeout, every loop a limit, the server and browser are stopped.

    uv run python benchmarks/bench_web.py [--games gardens,reefs,takenokolor,pergola]
                                          [--loads 5] [--clicks 40]
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.conftest import Server, free_port  # noqa: E402
from tests.web.driver import create_from_lobby, phase  # noqa: E402

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")
VARIANTS: dict[str, dict[str, str]] = {
    "gardens": {"level": "2"}, "reefs": {"level": "2"},
    "takenokolor": {"sheet": "4-pandas-dragon"}, "pergola": {},
}
SETTLED = ["my-turn", "complete", "over", "waiting", "watching", "replay"]

# Recorded in the page from the first script on: when the view is first complete (the phase
# set and the SVG drawn), and the animation frame after it (the view on screen).
FIRST_VIEW = """
(() => {
  const settled = SETTLED;
  const done = () => settled.includes(document.body && document.body.dataset.phase)
    && document.querySelector('#board svg') !== null;
  const watch = () => {
    const obs = new MutationObserver(() => {
      if (!done()) return;
      obs.disconnect();
      window.__complete = performance.now();
      requestAnimationFrame(() => { window.__drawn = performance.now(); });
    });
    obs.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  };
  if (document.documentElement) watch(); else addEventListener('DOMContentLoaded', watch);
  // when the last frame came from the server (this listener runs before the page's onmessage)
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', () => { window.__frameAt = performance.now(); });
    }
  };
})();
""".replace("SETTLED", repr(SETTLED))

# Click a lit choice and resolve with the ms until the frame after the preview reply is drawn.
CLICK = """
(sel) => new Promise((resolve, reject) => {
  const node = document.querySelector(sel);
  if (!node) { reject(new Error('nothing lit to click: ' + sel)); return; }
  const t0 = performance.now();
  let seenPending = false;
  const check = () => {
    const ph = document.body.dataset.phase;
    if (ph === 'pending') { seenPending = true; return false; }
    if (!seenPending) return false;
    obs.disconnect();
    clearTimeout(timer);
    const at = window.__frameAt;
    requestAnimationFrame(() => resolve([performance.now() - t0, at - t0]));
    return true;
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, { attributes: true, attributeFilter: ['data-phase'] });
  const timer = setTimeout(() => { obs.disconnect(); reject(new Error('no reply in 60 s')); },
                           60000);
  node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  if (!check() && document.body.dataset.phase !== 'pending') {
    // the click made no request (e.g. a source picked locally): no reply to wait for
    obs.disconnect(); clearTimeout(timer); resolve(null);
  }
})
"""

LIT = "#board .lit[data-move]"
BUTTON = "#choices button.choice"


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def own_code(responses: list[Any], base: str) -> dict[str, int]:
    """Raw and gzip bytes of the page's HTML, CSS and JS (not the API, not the data)."""
    raw = gz = files = 0
    seen: set[str] = set()
    for r in responses:
        url = r.url
        if not url.startswith(base) or "/api/" in url or "/ws/" in url or url in seen:
            continue
        kind = r.headers.get("content-type", "")
        if not any(k in kind for k in ("html", "css", "javascript")):
            continue
        seen.add(url)
        try:
            body = r.body()
        except Exception:  # a response without a body (a redirect)
            continue
        files += 1
        raw += len(body)
        gz += len(gzip.compress(body, compresslevel=6))
    return {"files": files, "raw": raw, "gzip": gz}


def first_views(browser: Any, base: str, url: str, state: Any, loads: int) -> tuple[
        list[float], dict[str, int]]:
    times: list[float] = []
    code: dict[str, int] = {}
    for _ in range(loads):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, storage_state=state)
        try:
            page = ctx.new_page()
            responses: list[Any] = []
            page.on("response", lambda r, got=responses: got.append(r))
            page.add_init_script(FIRST_VIEW)
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_function("() => window.__drawn !== undefined", timeout=60_000)
            times.append(float(page.evaluate("window.__drawn")))
            page.wait_for_load_state("networkidle", timeout=60_000)
            code = own_code(responses, base)
        finally:
            ctx.close()
    return times, code


def clicks(page: Any, n: int, limit: int = 3000) -> list[tuple[float, float]]:
    """(click -> reply drawn, click -> reply received) in ms, for ``n`` clicks."""
    times: list[tuple[float, float]] = []
    for _ in range(limit):
        if len(times) >= n:
            break
        now = phase(page, timeout=120_000)
        if now == "over":
            break
        if now == "complete":
            page.click("#confirm")
            page.wait_for_function("() => document.body.dataset.phase !== 'pending'",
                                   timeout=60_000)
            continue
        if now != "my-turn":
            page.wait_for_function(
                "() => !['waiting', 'watching'].includes(document.body.dataset.phase)",
                timeout=120_000)
            continue
        sel = LIT if page.locator(LIT).count() else BUTTON
        if not page.locator(sel).count():
            page.wait_for_timeout(20)
            continue
        ms = page.evaluate(CLICK, sel)
        if ms is not None:
            times.append((float(ms[0]), float(ms[1])))
    return times


def lobby_code(browser: Any, base: str) -> dict[str, int]:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        responses: list[Any] = []
        page.on("response", lambda r: responses.append(r))
        page.goto(base + "/", wait_until="networkidle", timeout=60_000)
        return own_code(responses, base)
    finally:
        ctx.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(VARIANTS))
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--clicks", type=int, default=40)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{Path(tmp) / 'bench.db'}", free_port(), Path(tmp) / "server.log")
        srv.start()
        rows: list[tuple[str, list[float], list[tuple[float, float]], dict[str, int]]] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM,
                                            args=["--no-sandbox", "--disable-gpu"])
                try:
                    lobby = lobby_code(browser, srv.base)
                    for game in args.games.split(","):
                        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                        try:
                            page = ctx.new_page()
                            create_from_lobby(page, srv, game, VARIANTS[game], 2)
                            phase(page, timeout=120_000)
                            url, state = page.url, ctx.storage_state()
                            loads, code = first_views(browser, srv.base, url, state, args.loads)
                            page.add_init_script(FIRST_VIEW)
                            page.reload()
                            taps = clicks(page, args.clicks)
                        finally:
                            ctx.close()
                        rows.append((game, loads, taps, code))
                finally:
                    browser.close()
        finally:
            srv.stop()
    print()
    print("| game | first view p50 ms | first view max ms | loads | click -> update p50 ms | "
          "p95 ms | max ms | of which reply p50 ms | of which drawing p50 ms | clicks |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game, loads, pairs, _ in rows:
        total = [t for t, _ in pairs]
        wire = [w for _, w in pairs]
        draw = [t - w for t, w in pairs]
        tap = (f"{statistics.median(total):.0f} | {pct(total, 0.95):.0f} | {max(total):.0f} | "
               f"{statistics.median(wire):.0f} | {statistics.median(draw):.0f}"
               if pairs else "- | - | - | - | -")
        print(f"| {game} | {statistics.median(loads):.0f} | {max(loads):.0f} | {len(loads)} | "
              f"{tap} | {len(pairs)} |")
    print()
    print("| page | files | HTML+CSS+JS bytes | gzip bytes |")
    print("|---|---:|---:|---:|")
    print(f"| lobby | {lobby['files']} | {lobby['raw']:,} | {lobby['gzip']:,} |")
    for game, _, _, code in rows:
        print(f"| table, {game} | {code['files']} | {code['raw']:,} | {code['gzip']:,} |")


if __name__ == "__main__":
    main()
