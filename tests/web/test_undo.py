"""Undo on the table page after a step whose forced decisions the server played for the
player: it takes back the forced steps and the step the player chose (the page sends the
steps before them, whose own forced decisions come back with them), so the turn is as it was
before that click. Before, it dropped only the last forced step, which the server's preview
added again: the click on Undo changed nothing."""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, fast_forward, phase, play_turn, settle

CHOICES = "() => [...document.querySelectorAll('#choices button.choice')].map(b => b.dataset.move)"
PENDING = "() => [...document.querySelectorAll('#log li.pending')].map(li => li.textContent)"


def test_undo_takes_back_the_forced_steps_with_the_choice(page: Any, web: Server) -> None:
    create_from_lobby(page, web, "reefs", {}, 1)
    rng = Rng(5)
    for _ in range(300):
        now = phase(page)
        assert now != "over", "no step with forced decisions after it in a whole game"
        if now == "complete":
            page.click("#confirm")
            page.wait_for_function("() => document.body.dataset.phase !== 'complete'")
            continue
        buttons = page.locator("#choices button.choice")
        if buttons.count() == 0:
            page.wait_for_timeout(50)
            continue
        before = page.evaluate(PENDING)
        offered = page.evaluate(CHOICES)
        buttons.nth(rng.choice(list(range(buttons.count())))).click()
        settle(page)
        after = page.evaluate(PENDING)
        if len(after) >= len(before) + 2 and before:  # the click's step and forced ones after it
            page.click("#undo")
            settle(page)
            assert page.evaluate(PENDING) == before
            # the turn goes on from there: the choices offered before that click are back
            assert phase(page) == "my-turn"
            assert page.evaluate(CHOICES) == offered
            return
    raise AssertionError("no step with forced decisions after it in 300 clicks")


BUFFER = "() => document.getElementById('buffer').textContent"
UNDO_SHOWN = "() => !document.getElementById('undo').classList.contains('hidden')"


def test_a_turn_opening_with_a_forced_decision_shows_it_made_with_nothing_to_undo(
        page: Any, web: Server) -> None:
    """Gardens: the last pencil left is the only one to take. The server names that decision
    in its view frame; the page shows it made ("this turn: take X") before any click, offers
    no undo for it, and the turn goes on from there."""
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    fast_forward(page, web, table, Rng(3), left=6)
    rng = Rng(7)
    for _ in range(12):  # turns of this seat, until one opens with the last pencil
        now = phase(page)
        if now == "over":
            break
        if now == "complete":  # every decision of this turn was forced: confirm it
            play_turn(page, rng)
            continue
        if now != "my-turn":
            page.wait_for_timeout(50)
            continue
        shown = page.evaluate(BUFFER)
        if shown.startswith("This turn: take "):  # made for the player, before any click
            assert not page.evaluate(UNDO_SHOWN)
            assert page.locator("#choices button.choice").count() >= 1
            play_turn(page, rng)
            return
        assert shown == ""
        play_turn(page, rng)
    raise AssertionError("no turn of this seat opened with the last pencil")
