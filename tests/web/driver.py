"""Playing a table page by clicks, as a person would: lit choices, then Confirm turn."""

from __future__ import annotations

import re
from typing import Any

from meeple.core.rng import Rng


def phase(page: Any, timeout: float = 60_000) -> str:
    page.wait_for_function(
        "() => ['my-turn', 'complete', 'over', 'waiting', 'watching', 'replay']"
        ".includes(document.body.dataset.phase)", timeout=timeout)
    return str(page.evaluate("document.body.dataset.phase"))


def click_through(page: Any, rng: Rng, limit: int = 5000) -> int:
    """Play this page's seat until the game is over; returns the clicks made."""
    clicks = 0
    for _ in range(limit):
        now = phase(page)
        if now == "over":
            return clicks
        if now == "complete":
            page.click("#confirm")
        elif now == "my-turn":
            buttons = page.locator("#choices button.choice")
            n = buttons.count()
            if n == 0:
                page.wait_for_timeout(50)
                continue
            buttons.nth(rng.choice(list(range(n)))).click()
        else:
            page.wait_for_function("() => document.body.dataset.phase !== 'waiting'",
                                   timeout=120_000)
            continue
        clicks += 1
        page.wait_for_function("() => document.body.dataset.phase !== 'pending'", timeout=60_000)
    raise AssertionError("the game did not end")


def pad_from_page(page: Any) -> list[dict[str, int]]:
    """The score pad as the page shows it: per seat, every row and the total."""
    rows = page.eval_on_selector_all(
        "#pad-table tbody tr",
        "trs => trs.map(tr => [...tr.children].map(td => td.textContent.trim()))")
    seats = len(rows[0]) - 1
    out: list[dict[str, int]] = [{} for _ in range(seats)]
    for cells in rows:
        name = cells[0]
        for i in range(seats):
            out[i][name] = int(re.sub(r"[^\d-]", "", cells[i + 1]) or 0)
    return out
