"""``meeple serve`` (the online server) and ``meeple schema`` (the JSON Schema of the per-seat
view, or of the WebSocket protocol's frames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import app, check_game, console, fail
from meeple.core.view import view_schema


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[Path | None, typer.Option(
        help="SQLite file for the tables (default: MEEPLE_DATABASE_URL, else meeple.db in "
             "your data folder)")] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="a database URL instead, e.g. postgresql+psycopg://user@host/db",
        envvar="MEEPLE_DATABASE_URL")] = None,
    bot_workers: Annotated[int | None, typer.Option(
        help="processes for bot decisions (default: the core count)")] = None,
    table_seeds: Annotated[int | None, typer.Option(
        envvar="MEEPLE_TABLE_SEEDS",
        help="for tests and demos only: new tables' seeds follow from this number, the same "
             "on every run (anyone who knows it can work out the draws)")] = None,
) -> None:
    """Run meeple online: the web app (lobby, tables, replays) and its API, at the printed URL."""
    import uvicorn

    from meeple.store import Store, default_url, display_url, sqlite_url
    from meeple.web import create_web_app

    if db is not None and database_url is not None:
        raise fail("give --db or --database-url (MEEPLE_DATABASE_URL), not both")
    if db is not None and db.is_dir():
        raise fail(f"--db {db} is a directory; give the path of an SQLite file, e.g. {db}/meeple.db")
    url = sqlite_url(db) if db is not None else (database_url or default_url())
    try:
        store = Store(url, table_seeds=table_seeds)
        store.migrate()
    except Exception as exc:  # a database that cannot be reached or written
        raise fail(f"cannot open the database {display_url(url)}: {exc}") from None
    console.print(f"meeple server at [bold]http://{host}:{port}/[/]  (API docs: "
                  f"http://{host}:{port}/docs)")
    console.print(f"database: {display_url(url)}")
    uvicorn.run(create_web_app(store, bot_workers=bot_workers), host=host, port=port,
                ws_max_size=1 << 20, ws_per_message_deflate=False,
                log_level="warning")


@app.command("schema")
def schema_cmd(
    game: Annotated[str | None, typer.Argument(help="a game name")] = None,
    protocol: Annotated[bool, typer.Option(
        "--protocol", help="the WebSocket protocol's frames (client and server) instead")
    ] = False,
) -> None:
    """Print the JSON Schema of the per-seat view the server sends for GAME, or with
    --protocol of every WebSocket frame a client may send and the server sends."""
    if protocol:
        from meeple.server.protocol import protocol_schema

        if game is not None:
            raise fail("give a GAME or --protocol, not both")
        console.print_json(json.dumps(protocol_schema()))
        return
    if game is None:
        raise fail("give a GAME (e.g. gardens), or --protocol for the WebSocket frames")
    check_game(game)
    console.print_json(json.dumps(view_schema(game)))
