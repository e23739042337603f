"""The browser front end: static pages and ES modules served by the meeple server.

Plain ES modules, no build step and no Node: the files under ``static/`` are served as they are
(``docs/web.md`` says why). ``create_web_app(store)`` is the server app with the pages mounted:
``/`` the lobby, ``/t/{table}`` a table (play, watch or replay; a table that does not exist is a
404 page with the way back to the lobby), ``/solo/{player}`` a player's Pergola solo achievement
table (``/solo/`` without a name: a page to pick a player), ``/account`` sign up, sign in
and the signed-in account, ``/u/{username}`` a player's public profile (an unknown username: a
404 with the page saying so; ``/u/``: the signed-in account's own), ``/leaderboard/{game}`` a
game's leaderboard (``/leaderboard``: the first game's), ``/rules/{game}`` how to play a
game, with its sheet drawn (``/rules`` every game's; a game that is not there: the 404 page),
``/ratings`` how ratings work, in players' words, ``/tournaments/{id}`` a tournament (its
standings, pairings and games),
``/mail/verify`` and
``/mail/unsubscribe`` the pages a mail's links open (a button does what they say),
``/games/{game}/drawing.js`` a game's drawing module (:func:`game_drawing`),
``/static/...`` the assets.
Nothing is loaded from outside: every script, style and font is here.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

import meeple
from meeple.core.registry import game_text
from meeple.server.app import create_app
from meeple.server.features.accounts.sessions import AccountService, username_key
from meeple.server.features.ratings.routes import known_games, unknown_game
from meeple.server.features.rules.routes import NoRules, rules_game, rules_html
from meeple.server.features.tournaments.store import Tournaments
from meeple.server.site import site_in
from meeple.store import NotFound, Store

STATIC = Path(str(resources.files("meeple.web") / "static"))


#: The pages: path under ``static/pages/`` -> (title after "meeple: ", extra style sheets).
#: Each page file is the body; :data:`FRAME` (``static/frame.html``) is the head they share.
#: A style sheet is named by its path under ``static/``: the shared ones in ``css/``, a
#: feature's own in its folder (the ``STATIC`` its package under ``server/features/`` names).
PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "lobby": ("lobby", ("sheets/upload.css", "css/lobby.css", "tournaments/tournaments.css")),
    "table": ("table", ("css/table-ux.css", "css/drawings.css", "css/hint.css", "chat/chat.css")),
    "solo": ("Pergola solo achievements", ("css/lobby.css", "profiles/profile.css")),
    "missing": ("not found", ("css/lobby.css",)),
    "account": ("your account", ("accounts/account.css",)),
    "profile": ("player profile",
                ("css/lobby.css", "profiles/profile.css", "ratings/leaderboard.css")),
    "leaderboard": ("leaderboard", ("ratings/leaderboard.css",)),
    "rules-index": ("how to play", ("rules/rules.css",)),
    "mail": ("mail", ("accounts/account.css",)),
    "ratings": ("how ratings work", ("rules/rules.css",)),
    "tournament": ("tournament", ("css/lobby.css", "tournaments/tournaments.css")),
}

#: A game's rules page (:func:`rules_page`): its title and style sheets (the drawings' too).
RULES_STYLES = ("rules/rules.css", "sheets/upload.css", "css/drawings.css")


def page_html(name: str) -> str:
    """Page ``name`` of :data:`PAGES` as served: its body in the shared frame."""
    title, styles = PAGES[name]
    body = (STATIC / "pages" / f"{name}.html").read_text(encoding="utf-8")
    return framed(title, styles, body)


def framed(title: str, styles: tuple[str, ...], body: str) -> str:
    """``body`` in the shared frame (:data:`FRAME`'s head) with ``title`` and ``styles``."""
    frame = Template((STATIC / "frame.html").read_text(encoding="utf-8"))
    links = "".join(f'<link rel="stylesheet" href="/static/{css}">\n' for css in styles)
    return frame.substitute(title=html.escape(title), styles=links, body=body)


def rules_page(game: str) -> str:
    """The how-to-play page of ``game`` (a name the registry knows, with a how-to-play page):
    its text rendered on the server (raw HTML in it escaped), and where ``rules.js`` draws the
    sheet of a new game."""
    info = rules_game(game)
    body = Template((STATIC / "pages" / "rules.html").read_text(encoding="utf-8"))
    return framed(f"how to play {info.title}", RULES_STYLES, body.safe_substitute(
        title=html.escape(info.title), game=html.escape(info.name), html=rules_html(info.name)))


def rules_index() -> str:
    """``/rules``: every game with a how-to-play page, each linked."""
    items = "".join(
        f'      <li><a href="/rules/{html.escape(g.name)}">{html.escape(g.title)}</a><br>'
        f'<span class="small muted">{html.escape(g.summary)}</span></li>\n'
        for g in meeple.games() if game_text(g.name) is not None)
    return Template(page_html("rules-index")).safe_substitute(games=items)


#: The drawing module a game package may ship beside its modules (an ES module exporting
#: ``draw(container, ctx)``, as ``static/js/games/index.js`` describes).
DRAWING = "drawing.js"


def game_drawing(game: str) -> Response:
    """Game ``game``'s drawing module, which the page imports from the URL ``/api/games`` gives:
    the ``drawing.js`` its package ships, else the site's own ``static/js/games/<game>.js`` (a
    redirect, so the module's relative imports resolve there). A game with neither, or no game
    of that name, is a 404 (the page then shows the terminal drawing). The name is looked up in
    the registry; the file served is never one the client named."""
    try:
        name = meeple.game_info(game).name
    except meeple.MeepleError as exc:
        raise StarletteHTTPException(404, str(exc)) from None
    own = game_text(name, DRAWING)
    if own is not None:
        return Response(own, media_type="text/javascript", headers={"Cache-Control": "no-cache"})
    if (STATIC / "js" / "games" / f"{name}.js").is_file():
        return RedirectResponse(f"/static/js/games/{name}.js", status_code=307)
    raise StarletteHTTPException(404, f"{name} has no drawing module: it is shown as its "
                                      "terminal drawing")


def create_web_app(store: Store, **kw: Any) -> FastAPI:
    """The server app (:func:`meeple.server.app.create_app`) with the web pages mounted."""
    app = create_app(store, **kw)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    pages = {name: page_html(name) for name in PAGES}
    pages["rules-index"] = rules_index()

    def serve(name: str) -> HTMLResponse:
        return HTMLResponse(pages[name], headers={"Cache-Control": "no-cache"})

    def missing(heading: str, explain: str, detail: str) -> HTMLResponse:
        """The site's 404 page: what is not there, why it may be, the way back."""
        body = Template(pages["missing"]).safe_substitute(  # one pass: no $ re-read
            heading=html.escape(heading), explain=html.escape(explain),
            detail=html.escape(detail))
        return HTMLResponse(body, status_code=404, headers={"Cache-Control": "no-cache"})

    app.get("/games/{game}/drawing.js", include_in_schema=False)(game_drawing)

    @app.get("/", include_in_schema=False)
    def lobby() -> HTMLResponse:
        return serve("lobby")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        try:
            await asyncio.to_thread(store.table, table_id)
        except NotFound as exc:  # a mistyped or old link: say so, and the way back
            return missing(f"There is no table “{table_id[:40]}”",
                           "No table on this server has that address: the link may be "
                           "mistyped or cut short, or the table was made on another server.",
                           str(exc))
        return serve("table")

    @app.get("/rules", include_in_schema=False)
    @app.get("/rules/", include_in_schema=False)
    def rules_list_page() -> HTMLResponse:
        return serve("rules-index")

    @app.get("/rules/{game}", include_in_schema=False)
    def rules_game_page(game: str) -> HTMLResponse:
        # the name is looked up in the registry; a page is never a file the client named
        try:
            return HTMLResponse(rules_page(game), headers={"Cache-Control": "no-cache"})
        except NoRules as exc:
            return missing(f"There are no rules for “{game[:40]}”",
                           "meeple has no game of that name: the link may be mistyped. The "
                           "rules of every game are at /rules.", str(exc.detail))

    @app.get("/account", include_in_schema=False)
    def account_page() -> HTMLResponse:
        return serve("account")  # sign up, sign in, the signed-in account (docs/web.md)

    @app.get("/u", include_in_schema=False)
    def profile_index() -> RedirectResponse:
        return RedirectResponse("/u/")

    @app.get("/u/", include_in_schema=False)
    def own_profile() -> HTMLResponse:
        return serve("profile")  # the page opens the signed-in account's own, or asks

    @app.get("/u/{username}", include_in_schema=False)
    async def profile_page(username: str) -> HTMLResponse:
        # a player's profile; an unknown (or deleted) username is a 404, its page saying so
        accounts: AccountService = site_in(app).accounts
        found = None
        if 0 < len(username) <= 120:
            found = await asyncio.to_thread(accounts.accounts.by_username,
                                            username_key(username))
        return HTMLResponse(pages["profile"], status_code=200 if found else 404,
                            headers={"Cache-Control": "no-cache"})

    @app.get("/leaderboard", include_in_schema=False)
    def leaderboard_index() -> RedirectResponse:
        return RedirectResponse(f"/leaderboard/{meeple.games()[0].name}")

    @app.get("/leaderboard/{game}", include_in_schema=False)
    def leaderboard_page(game: str) -> HTMLResponse:
        # a game's leaderboard, by page (docs/web.md); a game that is not there: the 404 page
        if game not in known_games():
            return missing(f"There is no leaderboard for “{game[:40]}”",
                           "meeple has no game of that name: the link may be mistyped. "
                           "Each game's leaderboard is at /leaderboard/ and its name below.",
                           unknown_game(game))
        return serve("leaderboard")

    @app.get("/tournaments", include_in_schema=False)
    def tournaments_index() -> RedirectResponse:
        return RedirectResponse("/#tournaments-card")  # the lobby lists them

    @app.get("/tournaments/{tournament_id}", include_in_schema=False)
    async def tournament_page(tournament_id: str) -> HTMLResponse:
        # a tournament's page (standings, pairings, games; it stays once finished)
        if not await asyncio.to_thread(Tournaments(store).exists, tournament_id):
            return missing(f"There is no tournament “{tournament_id[:40]}”",
                           "No tournament on this server has that address: the link may be "
                           "mistyped or cut short. The lobby lists them.", "not found")
        return serve("tournament")

    @app.get("/ratings", include_in_schema=False)
    def ratings_page() -> HTMLResponse:
        return serve("ratings")  # how ratings work, in players' words (the profile links it)

    @app.get("/mail/verify", include_in_schema=False)
    def mail_verify() -> HTMLResponse:
        return serve("mail")  # a mail's link: a button confirms the address

    @app.get("/mail/unsubscribe", include_in_schema=False)
    def mail_unsubscribe() -> HTMLResponse:
        return serve("mail")  # a mail's link: a button turns that kind of mail off

    @app.exception_handler(StarletteHTTPException)
    async def page_not_found(request: Request, exc: StarletteHTTPException) -> Response:
        return await not_found_page(request, exc, missing)

    @app.get("/solo", include_in_schema=False)
    def solo_index() -> RedirectResponse:
        return RedirectResponse("/solo/")

    @app.get("/solo/{player:path}", include_in_schema=False)
    def solo_page(player: str) -> HTMLResponse:
        return serve("solo")  # no name (``/solo/``): the page asks for one

    return app


#: Paths whose answers are the API's (JSON, also when nothing is there), not pages.
API_PATHS = ("/api/", "/ws/", "/openapi.json", "/docs")


async def not_found_page(request: Request, exc: StarletteHTTPException,
                         missing: Callable[[str, str, str], HTMLResponse]) -> Response:
    """Every HTTP error raised outside a page's own handling: a 404 for a page (any path but
    the API's, :data:`API_PATHS`) is the site's 404 page, in HTML, with the way back; the
    API's errors, and other statuses, stay JSON (FastAPI's own answer)."""
    path = request.url.path
    if exc.status_code == 404 and not path.startswith(API_PATHS):
        return missing(f"There is no page “{path[:60]}”",
                       "Nothing on this site has that address: the link may be mistyped or "
                       "cut short.", "not found")
    return await http_exception_handler(request, exc)


__all__ = ["API_PATHS", "PAGES", "STATIC", "create_web_app", "page_html", "rules_page"]
