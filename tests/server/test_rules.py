"""Each game's rules for players (issue 54), asked of a real server process: ``GET /api/rules``
lists the games with a how-to-play page, ``GET /api/rules/{game}`` gives its text (as written
and rendered, raw HTML escaped) with a start position to draw, ``/rules/<game>`` is the page
with the text rendered in it; an unknown game is a 404 (JSON for the API, the site's 404 page
for a page), and no client's name ever reaches the file system."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.registry import game_text
from meeple.server.features.rules.routes import render_markdown
from tests.server.conftest import SQLITE_ONLY, Server

pytestmark = SQLITE_ONLY

GAMES = ["gardens", "reefs", "takenokolor", "pergola"]


def test_every_game_has_its_rules_listed(server: Server) -> None:
    listed = server.api("GET", "/api/rules").json()
    assert [r["game"] for r in listed] == [g.name for g in meeple.games()]
    assert sorted(r["game"] for r in listed) == sorted(GAMES)
    for r in listed:
        assert r["page"] == f"/rules/{r['game']}" and r["title"] and r["summary"]


@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_are_its_text_and_a_start_position(server: Server, game: str) -> None:
    r = server.api("GET", f"/api/rules/{game}")
    assert r.status_code == 200, r.text
    got = r.json()
    info = meeple.game_info(game)
    assert got["title"] == info.title and got["markdown"] == game_text(game)
    assert got["html"].startswith(f"<h1>How to play {info.title}</h1>")
    assert "<h2>The end</h2>" in got["html"]
    # the ruling ids a refusal cites are there, in our words
    letter = {"gardens": "G", "reefs": "R", "takenokolor": "T", "pergola": "P"}[game]
    assert f"({letter}" in got["html"] and "(A4)" in got["html"]
    # a position to draw: the layout and a spectator's view of a new game, nothing played by
    # a seat yet, its opening chance drawn (the pencils rolled, the tools on the board)
    view = got["view"]
    assert view["game"] == game and view["viewer"] is None and view["seats"][0]["name"] == "you"
    assert not view["over"] and not view["chance_pending"] and view["moves_played"] > 0
    assert view["log"] == [] and view["legal_moves"] == []
    assert got["layout"] and view["board"]
    # the page has the same text, rendered on the server, and where the sheet is drawn
    page = server.api("GET", f"/rules/{game}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert got["html"].strip() in page.text
    assert f'data-game="{game}"' in page.text and 'src="/static/rules/rules.js"' in page.text


def test_the_rules_pages_are_linked_from_the_index(server: Server) -> None:
    for path in ("/rules", "/rules/"):
        page = server.api("GET", path)
        assert page.status_code == 200
        for game in GAMES:
            assert f'href="/rules/{game}"' in page.text


@pytest.mark.parametrize("name", ["nosuchgame", "GARDENS2", "...", "how-to-play.md", "x" * 300,
                                  "gardens.md", "%00", "%2e%2e%2fpyproject.toml",
                                  "..%2f..%2fpyproject.toml"])
def test_an_unknown_game_is_a_404_and_never_a_file(server: Server, name: str) -> None:
    api = server.api("GET", f"/api/rules/{name}")
    assert api.status_code == 404, api.text
    assert "[project]" not in api.text and "How to play" not in api.text
    if "%2f" not in name:  # a name of one path segment reaches the rules, which say so
        detail = api.json()["detail"]
        assert detail.startswith("no rules for a game named") and "gardens, " in detail
        assert "x" * 41 not in detail  # a long name is cut short
    page = server.api("GET", f"/rules/{name}")
    assert page.status_code == 404
    assert "[project]" not in page.text and "How to play" not in page.text
    if "%2f" not in name:
        assert page.headers["content-type"].startswith("text/html")
        assert "There are no rules for" in page.text and 'href="/"' in page.text
        assert "<script" not in page.text.split("<main>")[1]  # the 404 page, no rules page


def test_a_name_with_markup_is_escaped_on_the_404_page(server: Server) -> None:
    page = server.api("GET", "/rules/<img src=x onerror=alert(1)>")
    assert page.status_code == 404
    assert "<img" not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text


def test_raw_html_in_a_rules_text_is_shown_as_text() -> None:
    html = render_markdown("# Title\n\n<script>alert(1)</script>\n\nA <b>bold</b> word and "
                           "[a link](javascript:alert(1)).\n")
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert 'href="javascript' not in html
    assert "<h1>Title</h1>" in html
