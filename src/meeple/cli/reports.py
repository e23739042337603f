"""``meeple reports``: the chat messages players reported, for the moderators, and
hiding one from everyone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from meeple.cli.common import app, console, fail, refuse


@app.command("reports")
def reports_cmd(
    db: Annotated[Path | None, typer.Option(
        help="the server's SQLite file (default: MEEPLE_DATABASE_URL, else meeple.db in your "
             "data folder)")] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="the server's database URL instead, e.g. "
        "postgresql+psycopg://user@host/db (default: MEEPLE_DATABASE_URL)")] = None,
    limit: Annotated[int, typer.Option(min=1, max=500,
                                       help="how many reported messages to list")] = 20,
    hidden: Annotated[bool, typer.Option(
        "--hidden", help="list the messages hidden already too")] = False,
    hide: Annotated[int | None, typer.Option(
        "--hide", min=1, metavar="ID", help="hide message ID from everyone (history, and the "
        "pages open on a PostgreSQL server)")] = None,
    unhide: Annotated[int | None, typer.Option(
        "--unhide", min=1, metavar="ID", help="show message ID again")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")
                       ] = False,
    ratings: Annotated[bool, typer.Option(
        "--ratings", help="list instead the pairs of accounts one of which gave the other "
        "rated results (conceded or left, 3 times or more in 30 days: docs/ratings.md)")
                       ] = False,
) -> None:
    """List the chat messages players reported, the most recently reported first: the
    message, its author, its table, how many reported it and why. --hide ID removes a message
    from the chat for everyone (it is kept, hidden; --unhide ID shows it again). --ratings
    lists the pairs of accounts that look like rating farming instead."""
    from meeple.cli.serve import database_of
    from meeple.settings import Settings, SettingsError

    try:
        from_env = Settings.from_env().store.database_url
    except SettingsError as exc:
        raise refuse(str(exc)) from None
    url = database_of(db, database_url, from_env)
    if hide is not None and unhide is not None:
        raise fail("give --hide or --unhide, not both")
    store = _open_store(db, url)
    if ratings:
        try:
            _given(store, as_json)
        finally:
            store.close()
        return
    try:
        which = hide if hide is not None else unhide
        if which is not None:
            _hide(store, which, hidden=hide is not None)
            return
        from meeple.server.features.chat.store import Chat

        found = Chat(store).reports(limit, hidden=hidden)
    finally:
        store.close()
    _print_reports(found, hidden, as_json)


def _open_store(db: Path | None, url: str) -> Any:
    """The server's store at ``url`` (``db``'s SQLite file when given), migrated; refused
    when it cannot be opened."""
    from meeple.store import Store, display_url

    if db is not None and not db.is_file():
        raise refuse(f"--db {db} is not a file; give the SQLite file the server uses")
    try:
        store = Store(url)
        store.migrate()
    except Exception as exc:  # a database that cannot be reached or written
        raise refuse(f"cannot open the database {display_url(url)}: {exc}") from None
    return store


def _hide(store: Any, which: int, hidden: bool) -> None:
    """Hide chat message ``which`` from everyone (``hidden``), or show it again."""
    from meeple.server.features.chat.store import Chat
    from meeple.store import NotFound

    try:
        done = Chat(store).hide(which, hidden=hidden)
    except NotFound:
        raise refuse(f"there is no chat message {which}") from None
    said = "hidden from everyone" if done.hidden else "shown again"
    console.print(Text(f"message {done.id} at table {done.table_id} by {done.name}: "
                       f"{said}"))


def _print_reports(found: list[Any], hidden: bool, as_json: bool) -> None:
    """The reported messages as JSON or a table (the hidden ones marked)."""
    if as_json:
        console.print_json(json.dumps([_row(r) for r in found]))
        return
    if not found:
        console.print("no reported messages" + ("" if hidden else " (not hidden)"))
        return
    out = Table(title="reported chat messages, most recently reported first")
    for column in ("id", "table", "posted", "author", "message", "reports", "reasons"):
        out.add_column(column, overflow="fold")
    for r in found:
        m = r.message
        who = f"{m.name} ({'spectator' if m.seat is None else f'seat {m.seat + 1}'}"
        who += f", account {r.username})" if r.username else ")"
        text = m.text + (" [hidden]" if m.hidden else "")
        out.add_row(str(m.id), m.table_id, m.at.strftime("%Y-%m-%d %H:%M"), Text(who),
                    Text(text), str(r.reporters), Text("\n".join(f"- {x}" for x in r.reasons)))
    console.print(out)
    console.print("hide one from everyone: meeple reports --hide ID")


def _given(store: Any, as_json: bool) -> None:
    """Print the pairs of accounts one of which kept giving the other rated results."""
    from meeple.store.ratings import GIVEN_LEAST, GIVEN_WITHIN, given_results

    found = given_results(store)
    if as_json:
        console.print_json(json.dumps([
            {"taker": f.taker, "giver": f.giver, "games": f.games, "tables": list(f.tables),
             "last": f.last.isoformat()} for f in found]))
        return
    days = GIVEN_WITHIN.days
    if not found:
        console.print(f"no pair of accounts with {GIVEN_LEAST} or more results given in "
                      f"{days} days")
        return
    out = Table(title=f"rated results given: one account conceded or left {GIVEN_LEAST} "
                      f"times or more in {days} days with the other placed above it")
    for column in ("placed above", "gave up", "games", "tables", "last"):
        out.add_column(column, overflow="fold")
    for f in found:
        out.add_row(Text(f.taker), Text(f.giver), str(f.games), " ".join(f.tables),
                    f.last.strftime("%Y-%m-%d %H:%M"))
    console.print(out)


def _row(r: Any) -> dict[str, Any]:
    m = r.message
    return {"id": m.id, "table": m.table_id, "at": m.at.isoformat(), "seat": m.seat,
            "name": m.name, "username": r.username, "text": m.text, "hidden": m.hidden,
            "reporters": r.reporters, "reasons": list(r.reasons), "last": r.last.isoformat()}
