"""The hint on the drawing (issue 39 #10), in Chromium: a hint lights its next step on the
game's drawing in a look of its own (a violet ring tagged "★ hint", with a tooltip "the hint:
..."), and the step's choice button too; it stays lit step by step while the player follows
it and goes when they choose otherwise (the panel says the turn differs); "Play this" puts the
whole hinted turn into the turn being built (a preview), confirmed with the usual Confirm turn.
Every game, a variant each, against a random bot; Pergola goes on for a few turns until a
hinted step leaves from somewhere (a flutter or a drip), whose place to leave from is lit
first. The module's fallbacks (a place to leave from, a step only on a button in a closed
list) are also checked on a drawing made for the test.

``MEEPLE_SCREENSHOTS=1`` writes docs/screenshots/<game>-hint-lit.png (the hint asked at the
start of a turn), gardens-hint-next.png (its next step, a field, after the pencil is taken),
gardens-hint-played.png (after Play this) and, when the game comes to one,
pergola-hint-source.png (a place to leave from lit)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, phase, settle, shoot, turn_moves, version

GAMES: list[tuple[str, dict[str, str]]] = [
    ("gardens", {"level": "1"}), ("reefs", {"level": "1"}), ("takenokolor", {}), ("pergola", {})]

#: Pergola: how many of the person's turns to play (by Play this) looking for a hinted step
#: that leaves from somewhere, before checking a turn without one
PERGOLA_TURNS = 8

LIT = """() => ({
  board: [...document.querySelectorAll('#board .hint-lit')].map(n => ({
    move: n.dataset.move || null, source: n.dataset.source || null,
    tip: ([...n.children].find(c => c.tagName === 'title') || {}).textContent || '',
    lit: n.classList.contains('lit')})),
  rings: document.querySelectorAll('#board svg .hint-ring').length,
  buttons: [...document.querySelectorAll('#choices .choice.hint-lit')].map(b => b.dataset.move),
})"""


def buffer_of(page: Any) -> list[str]:
    """The turn being built, in notation (the page says it in words)."""
    return turn_moves(page)


def ask_hint(page: Any) -> list[str]:
    """Ask the easy hint on this page; its moves (the whole turn, forced decisions included)."""
    page.select_option("#hint-box .hint-level", "easy")
    page.click("#hint")
    panel = page.locator("#hint-box .hint-panel[data-moves]")
    panel.wait_for(timeout=120_000)
    moves = json.loads(panel.get_attribute("data-moves"))
    assert moves and isinstance(moves, list)
    text = panel.inner_text()
    # in words first, the notation after it
    assert text.index("What it brings:") < text.index("In notation:"), text
    assert ", ".join(moves) in panel.locator(".hint-moves").first.inner_text()
    return [str(m) for m in moves]


def my_decision(page: Any) -> None:
    """Wait until this page's seat has a decision to make (a turn whose every decision was
    forced opens complete: it is confirmed as it is)."""
    for _ in range(30):
        now = phase(page, timeout=120_000)
        if now == "my-turn":
            return
        assert now != "over", "the game ended"
        if now == "complete":
            confirm(page)
        else:
            page.wait_for_function(
                "() => ['my-turn', 'complete', 'over'].includes(document.body.dataset.phase)",
                timeout=120_000)
    raise AssertionError("no decision of this seat came")


def confirm(page: Any) -> None:
    """Confirm turn, and wait until the table has moved on past it."""
    before = version(page)
    page.click("#confirm")
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) > {before}"
        " && !['pending', 'complete'].includes(document.body.dataset.phase)", timeout=120_000)


def persons_moves(page: Any) -> list[str]:
    """The moves of Ann (this page's seat 0) in the game log, confirmed ones only, in notation
    (each line says its move in words and keeps the notation in ``data-move``)."""
    return list(page.eval_on_selector_all("#log li:not(.pending)[data-seat='0']",
                                          "lis => lis.map(li => li.dataset.move)"))


DRAWN = """(move) => [...document.querySelectorAll('#board [data-move]')]
  .filter(n => n.dataset.move === move).length"""


def check_next_lit(page: Any, moves: list[str], game: str, *, on_drawing: bool = False) -> str:
    """The turn being built is a beginning of the hinted turn and the hinted next step is lit:
    on the drawing (with the hint's ring and tooltip) or, for a step leaving from somewhere,
    its place to leave from; and its choice button. A step with nothing on the drawing (stop,
    skip) has its button lit only (``on_drawing``: that is not allowed). Returns where it is
    lit: "board", "source" or "button"."""
    buf = buffer_of(page)
    assert moves[:len(buf)] == buf, (buf, moves)
    nxt = moves[len(buf)]
    lit = page.evaluate(LIT)
    assert lit["buttons"] == [nxt], (lit, nxt)
    on_board = [n for n in lit["board"] if n["move"] == nxt]
    sources = [n for n in lit["board"] if n["source"]]
    follow = page.inner_text("#hint-box .hint-follow")
    assert follow.startswith(f"Next step ({len(buf) + 1} of {len(moves)})"), follow
    if not on_board and not sources and not on_drawing and not page.evaluate(DRAWN, nxt):
        # nothing of the drawing takes this step: the button is the way, and the panel says so
        assert lit["board"] == [] and lit["rings"] == 0, lit
        assert "It is the ringed button among your choices" in follow, follow
        return "button"
    if game == "pergola" and not on_board and sources:
        assert len(sources) == 1 and ">" in nxt, (lit, nxt)
        assert "It leaves from the ringed place" in follow, follow
    else:
        assert on_board, f"the hinted step {nxt!r} is not lit on the drawing: {lit}"
        assert "It is ringed on the drawing" in follow, follow
    assert len(lit["board"]) == len(on_board + sources), lit  # nothing else
    for n in on_board + sources:
        assert n["lit"], n  # a lit choice still: clickable as before
        assert n["tip"].startswith("the hint: "), n
    assert lit["rings"] == len(on_board + sources) >= 1, lit
    return "board" if on_board else "source"


def follow_by_clicks(page: Any, moves: list[str], game: str) -> int:
    """Click the hinted next step, step by step (a place to leave from, then where to), until
    the turn is complete; returns how many steps left from a lit place."""
    from_source = 0
    for step in range(len(moves) + 5):
        if phase(page) == "complete":
            break
        if step == 1 and game == "gardens":
            shoot(page, game, "hint-next")  # a field to colour, among the 61 lit ones
        where = check_next_lit(page, moves, game)
        nxt = moves[len(buffer_of(page))]
        if where == "board":
            page.locator("#board .hint-lit[data-move]").first.click()
        elif where == "button":
            fold = page.locator("#choices details.choice-fold:not([open]) > summary")
            if fold.count():
                fold.click()
            page.locator("#choices .choice.hint-lit").click()
        else:
            from_source += 1
            if from_source == 1 and game == "pergola":
                shoot(page, game, "hint-source")
            page.locator("#board .hint-lit[data-source]").click()
            # where it goes is lit now, with the hint's ring
            page.wait_for_selector("#board .hint-lit[data-move]", timeout=10_000)
            assert page.locator("#board .hint-lit[data-move]").get_attribute("data-move") == nxt
            page.locator("#board .hint-lit[data-move]").click()
        settle(page)
    assert phase(page) == "complete"
    assert buffer_of(page) == moves
    assert page.evaluate(LIT)["board"] == []  # nothing more to light
    assert page.get_attribute("#hint-box .hint-panel", "data-follow") == "made"
    assert "Your turn is the hinted turn" in page.inner_text("#hint-box .hint-follow")
    assert page.locator("#hint-play").is_disabled()
    return from_source


def take_back(page: Any) -> None:
    """Reset the turn being built (Undo when it has one step of the player's)."""
    button = "#reset" if page.locator("#reset").is_visible() else "#undo"
    page.click(button)
    settle(page)
    assert phase(page) == "my-turn"


def deviate(page: Any, moves: list[str]) -> bool:
    """Choose another first step than the hint's; the lighting goes and the panel says the
    turn differs. False when there is no other choice."""
    buf = buffer_of(page)
    nxt = moves[len(buf)]
    others = page.eval_on_selector_all("#choices .choice[data-move]",
                                       "bs => bs.map(b => b.dataset.move)")
    other = next((m for m in others if m != nxt), None)
    if other is None:
        return False
    fold = page.locator("#choices details.choice-fold:not([open]) > summary")
    if fold.count():
        fold.click()
    page.locator("#choices .choice[data-move]").nth(others.index(other)).click()
    settle(page)
    assert buffer_of(page)[len(buf)] == other
    lit = page.evaluate(LIT)
    assert lit["board"] == [] and lit["buttons"] == [] and lit["rings"] == 0, lit
    assert page.get_attribute("#hint-box .hint-panel", "data-follow") == "differs"
    assert "differs from the hint" in page.inner_text("#hint-box .hint-follow")
    return True


def play_this(page: Any, moves: list[str]) -> None:
    """Play this: the preview shows the whole hinted turn made, waiting for the confirm."""
    assert page.locator("#hint-play").is_enabled()
    page.click("#hint-play")
    settle(page)
    assert buffer_of(page) == moves
    # the bot's turn is a whole turn: the preview is complete, and nothing is confirmed yet
    assert phase(page) == "complete"
    assert page.locator("#confirm").is_visible()
    assert page.get_attribute("#hint-box .hint-panel", "data-follow") == "made"


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_the_hint_is_lit_on_the_drawing_and_played_by_one_click(
        page: Any, web: Server, game: str, options: dict[str, str]) -> None:
    create_from_lobby(page, web, game, options, 2)
    my_decision(page)
    moves = ask_hint(page)
    shoot(page, game, "hint-lit")
    check_next_lit(page, moves, game, on_drawing=True)
    if game == "pergola":
        # turns played by Play this until a hinted step leaves from somewhere
        for _ in range(PERGOLA_TURNS):
            if any(">" in m for m in moves):
                break
            play_this(page, moves)
            confirm(page)
            my_decision(page)
            moves = ask_hint(page)
    # followed step by step, the next step stays lit
    follow_by_clicks(page, moves, game)
    take_back(page)
    check_next_lit(page, moves, game, on_drawing=True)
    # another step than the hint's: nothing is lit any more, the panel says so
    if deviate(page, moves):
        assert page.locator("#hint-play").is_enabled()
    # Play this: the whole hinted turn at once, confirmed as any turn
    play_this(page, moves)
    if game == "gardens":
        shoot(page, game, "hint-played")
    confirm(page)
    assert persons_moves(page)[-len(moves):] == moves
    # the hint was for the position before: it is gone
    assert page.locator("#hint-box .hint-panel[data-version]").count() == 0
    assert page.evaluate(LIT)["board"] == []


MADE_UP = """async () => {
  const m = await import('/static/js/hint.js');
  const board = document.createElement('div');
  board.id = 'test-board';
  const drawing = `<svg viewBox="0 0 200 100" width="400" height="200">
    <g class="lit" data-source="stone:a"><rect class="hit" x="10" y="40" width="20" height="20"/></g>
    <g class="lit" data-source="stone:b"><rect class="hit" x="60" y="40" width="20" height="20"/></g>
    <g class="lit" data-move="pick 1"><rect class="hit" x="120" y="40" width="20" height="20"/></g>
  </svg>`;
  board.innerHTML = drawing;
  const choices = document.createElement('div');
  choices.innerHTML = `<details class="choice-fold"><summary>the 3 choices as a list</summary>
    <button class="choice" data-move="drip b>e">drip b>e</button>
    <button class="choice" data-move="stop">stop</button>
    <button class="choice" data-move="pick 1">pick 1</button></details>`;
  const panel = document.createElement('div');
  panel.innerHTML = '<section class="hint-panel" data-version="1"><p class="hint-follow"></p>' +
    '<button class="hint-play">Play this</button></section>';
  document.body.append(board, choices, panel);
  const view = { board: { choices: [{ move: 'drip b>e', target: 'stone:e', source: 'stone:b' }] } };
  const roots = { board, choices, panel };
  const lit = () => ({
    board: [...board.querySelectorAll('.hint-lit')].map(n => n.dataset.move || n.dataset.source),
    buttons: [...choices.querySelectorAll('.hint-lit')].map(n => n.dataset.move || n.tagName),
    rings: board.querySelectorAll('.hint-ring').length,
    follow: panel.querySelector('.hint-follow').textContent,
    note: (choices.querySelector('.hint-note') || {}).textContent || '',
  });
  const out = {};
  const hint = { moves: ['drip b>e', 'stop'], steps: ['drop from stone b to stone e', 'stop'] };
  m.lightHint(hint, { buffer: [], complete: false, view }, roots);
  out.source = lit();
  m.lightHint(hint, { buffer: ['drip b>e'], complete: false, view }, roots);
  out.buttonOnly = lit();
  // the drawing drawn again by its own module (as Pergola does): lit again
  m.lightHint(hint, { buffer: [], complete: false, view }, roots);
  board.innerHTML = drawing;
  await new Promise((done) => setTimeout(done, 0));
  out.redrawn = lit();
  m.lightHint(hint, { buffer: ['stop'], complete: false, view }, roots);
  out.differs = lit();
  m.lightHint(null, { buffer: [], complete: false, view }, roots);
  out.none = lit();
  board.remove(); choices.remove(); panel.remove();
  return out;
}"""


def test_a_step_that_leaves_from_somewhere_or_has_only_a_button_is_lit_there(
        web: Server, page: Any) -> None:
    t = web.api("POST", "/api/tables", json={
        "game": "reefs", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    ).json()["id"]
    page.goto(f"{web.base}/t/{t}")
    phase(page)
    out = page.evaluate(MADE_UP)
    # a step that leaves from somewhere: the place it leaves from, and its button
    assert out["source"]["board"] == ["stone:b"] and out["source"]["rings"] == 1, out
    assert out["source"]["buttons"] == ["drip b>e"], out
    assert "It leaves from the ringed place" in out["source"]["follow"], out
    # a step with nothing on the drawing: its button, and the closed list says it holds it
    assert out["buttonOnly"]["board"] == [] and out["buttonOnly"]["rings"] == 0, out
    assert out["buttonOnly"]["buttons"] == ["SUMMARY", "stop"], out
    assert "the hint's next step is in it: stop" in out["buttonOnly"]["note"], out
    assert out["buttonOnly"]["follow"].startswith("Next step (2 of 2): Stop."), out
    assert out["redrawn"]["board"] == ["stone:b"] and out["redrawn"]["rings"] == 1, out
    assert out["differs"]["board"] == [] and out["differs"]["buttons"] == [], out
    assert "differs from the hint from step 1" in out["differs"]["follow"], out
    assert out["none"] == {"board": [], "buttons": [], "rings": 0, "follow": "", "note": ""}, out
