"""Each game's rules for players: its how-to-play page and a start position to draw.

A game package ships its how-to-play page as Markdown in the project's own words
(``how-to-play.md``, found through the registry: :func:`meeple.core.registry.game_text`); it is
rendered here with markdown-it-py, raw HTML in it shown as text (never markup, never a script),
and served as JSON (``GET /api/rules/{game}``) and inside the page ``/rules/<game>``
(:mod:`meeple.web`). A client names a game, never a file: the name is looked up in the
registry, and an unknown one is a 404.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, HTTPException
from markdown_it import MarkdownIt

import meeple
from meeple.core.errors import UnknownGame
from meeple.core.present import presentation
from meeple.core.registry import GameInfo, game_text
from meeple.core.state import CHANCE
from meeple.core.view import seat_view
from meeple.server.table.reports import solo_reports

router = APIRouter()

#: The seed of the start position a rules page draws (the same drawing on every visit).
START_SEED = 1

#: Longest game name a 404 repeats back.
SHOWN_NAME = 40

#: CommonMark with tables; ``html: False`` escapes any raw HTML in the text (shown as text).
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


class NoRules(HTTPException):
    """404: no game of that name, or one without a how-to-play page."""

    def __init__(self, detail: str) -> None:
        super().__init__(404, detail)


def rules_game(name: str) -> GameInfo:
    """The game ``name`` names (as the registry has it), if it has a how-to-play page; else
    :class:`NoRules` saying which games have one."""
    try:
        info = meeple.game_info(name)
    except UnknownGame:
        info = None
    if info is None or game_text(info.name) is None:
        known = ", ".join(g.name for g in meeple.games() if game_text(g.name) is not None)
        raise NoRules(f"no rules for a game named {name[:SHOWN_NAME]!r}; rules are here for: "
                      f"{known}")
    return info


def render_markdown(text: str) -> str:
    """``text`` (CommonMark with tables) as HTML: raw HTML in it is shown as text, and a link
    to a ``javascript:`` or ``data:`` address is not made."""
    return str(_MARKDOWN.render(text))


@lru_cache(maxsize=32)
def rules_html(name: str) -> str:
    """Game ``name``'s how-to-play page as HTML (raw HTML in its text escaped)."""
    info = rules_game(name)
    return render_markdown(game_text(info.name) or "")


@lru_cache(maxsize=32)
def start_position(name: str) -> dict[str, Any]:
    """A new game of ``name``'s first variant, its opening chance played (the pencils rolled,
    the tools drawn), as the lobby's preview shows a sheet: the layout, and a spectator's view
    with the first seat called "you". One player, whose sheet is the game's; two where one
    player is a solo game of its own (a game that keeps solo reports: Pergola), so the page
    shows the game most tables play; never fewer than the game takes."""
    info = rules_game(name)
    variant = dict(info.variants[0]) if info.variants else {}
    players = max(info.min_players, 1 if solo_reports(info.name) is None else 2)
    state = meeple.new_game(info.name, players=players, seed=START_SEED, **variant)
    for _ in range(100):
        if state.to_move != CHANCE:
            break
        state.sample_chance()
    state.seats = ["you", *(f"player {i + 1}" for i in range(1, players))]
    return {"variant": state.variant(), "layout": presentation(info.name).view_layout(state),
            "view": seat_view(state, None, []).model_dump(mode="json", by_alias=True)}


@router.get("/api/rules")
def rules_list() -> list[dict[str, Any]]:
    """Every game that has a how-to-play page: its name, title, summary and the page's path."""
    return [{"game": g.name, "title": g.title, "summary": g.summary, "page": f"/rules/{g.name}"}
            for g in meeple.games() if game_text(g.name) is not None]


@router.get("/api/rules/{game}")
def rules_of(game: str) -> dict[str, Any]:
    """Game ``game``'s rules for players: its how-to-play page (``markdown`` as written,
    ``html`` rendered with raw HTML escaped), its players and a start position to draw its
    sheet with (``layout`` and ``view``, as the table page has them). 404 for a game that is
    not there."""
    info = rules_game(game)
    return {"game": info.name, "title": info.title, "summary": info.summary,
            "min_players": info.min_players, "max_players": info.max_players,
            "page": f"/rules/{info.name}", "markdown": game_text(info.name),
            "html": rules_html(info.name), **start_position(info.name)}


__all__ = ["NoRules", "render_markdown", "router", "rules_game", "rules_html", "start_position"]
