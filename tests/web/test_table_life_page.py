"""Life at a table in the page (issue 54): Concede (with its confirmation; the others see it on
the seat chip), the rematch every person of the finished table is invited to (the first press
makes it, the other browser is shown "Join the rematch" and lands at the same table), and Leave
at a waiting table (the seat opens again). Two browser contexts against a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TWO = [{"kind": "human", "bot": "random"}, {"kind": "human", "bot": "random"}]


@pytest.fixture
def bea(browser: Any) -> Iterator[Any]:
    """A second person's browser (its own localStorage)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def _hold(page: Any, web: Server, table: str, seat: int, secret: str, name: str) -> None:
    """This browser holds the seat (as the lobby's join leaves it), then opens the table."""
    page.goto(web.base + "/missing-page-for-storage")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  ["meeple.seats", json.dumps({table: {"seat": seat, "secret": secret,
                                                       "name": name}})])
    page.goto(f"{web.base}/t/{table}")


def _two_people(web: Server) -> tuple[str, list[str]]:
    r = web.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                             "seats": TWO, "join_as": "Ann"})
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    r2 = web.api("POST", f"/api/tables/{table}/join", json={"name": "Bea", "seat": 1})
    assert r2.status_code == 200, r2.text
    return table, [r.json()["secret"], r2.json()["secret"]]


def test_concede_then_a_rematch_for_both(page: Any, bea: Any, web: Server) -> None:
    table, secrets = _two_people(web)
    _hold(page, web, table, 0, secrets[0], "Ann")
    _hold(bea, web, table, 1, secrets[1], "Bea")
    for p in (page, bea):
        p.wait_for_selector("#concede", state="visible", timeout=60_000)
    page.click("#concede")
    page.wait_for_selector("#concede-confirm", state="visible")
    assert "placed below everyone who plays on" in page.text_content("#concede-confirm")
    page.screenshot(path=str(SHOTS / "table-concede-confirm.png"))
    page.click("#concede-no")  # cancel: nothing happens
    assert page.is_visible("#concede") and not page.is_visible("#concede-confirm")
    assert web.api("GET", f"/api/tables/{table}").json()["seats"][0]["conceded"] is False
    page.click("#concede")
    page.click("#concede-yes")
    page.wait_for_selector("#conceded-note", state="visible")
    # the other person sees it on Ann's chip
    bea.wait_for_function("() => document.querySelector('.seat-chip[data-seat=\"0\"]')"
                          "?.textContent.includes('conceded')", timeout=60_000)
    bea.click("#concede")
    bea.click("#concede-yes")
    # both stand-ins play to the end; both pages offer a rematch
    for p in (page, bea):
        p.wait_for_selector("#end-again", state="visible", timeout=180_000)
        assert p.text_content("#end-again") == "Rematch"
    page.click("#end-again")
    page.wait_for_url(lambda url: "/t/" in url and table not in url)
    new = page.url.rsplit("/", 1)[1].split("?")[0]
    assert new != table
    # Bea's page is told: "Join the rematch"
    bea.wait_for_selector("#rematch-ready", state="visible", timeout=60_000)
    assert bea.text_content("#end-again") == "Join the rematch"
    bea.screenshot(path=str(SHOTS / "end-rematch-ready.png"))
    bea.click("#end-again")
    bea.wait_for_url(f"{web.base}/t/{new}")
    got = web.api("GET", f"/api/tables/{new}").json()
    assert got["status"] == "running" and [s["name"] for s in got["seats"]] == ["Ann", "Bea"]
    for p in (page, bea):
        p.wait_for_selector("#concede", state="visible", timeout=60_000)


def test_leaving_a_waiting_table_opens_the_seat(page: Any, web: Server) -> None:
    r = web.api("POST", "/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                             "seats": TWO, "join_as": "Ann"})
    table, secret = r.json()["table"]["id"], r.json()["secret"]
    _hold(page, web, table, 0, secret, "Ann")
    page.wait_for_selector("#leave-seat", state="visible", timeout=60_000)
    page.click("#leave-seat")
    page.wait_for_url(f"{web.base}/")
    assert web.api("GET", f"/api/tables/{table}").json()["open_seats"] == [0, 1]
    assert page.evaluate("localStorage.getItem('meeple.seats')") == "{}"
