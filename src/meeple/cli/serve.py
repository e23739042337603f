"""``meeple serve`` (the online server) and ``meeple schema`` (the JSON Schema of the per-seat
view, or of the WebSocket protocol's frames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import app, check_game, console, fail, refuse
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
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="a Host name the server answers to besides 127.0.0.1, "
        "localhost, [::1] and --host (repeatable; *.example.org for its subdomains, * for "
        "any; default: MEEPLE_ALLOWED_HOSTS, comma separated); others get 400")] = None,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        "--allowed-origin", help="an origin (scheme://host[:port]) whose pages may open a "
        "WebSocket besides the server's own (repeatable; default: MEEPLE_ALLOWED_ORIGINS, "
        "comma separated)")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", help="the address or network of a reverse proxy whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (repeatable; default: "
        "MEEPLE_TRUSTED_PROXIES, comma separated; none: the client is who connected)")] = None,
    api_docs: Annotated[bool, typer.Option(
        "--api-docs", envvar="MEEPLE_API_DOCS",
        help="serve interactive API docs at /docs (Swagger UI, its files from the server "
             "itself)")] = False,
    head_timeout: Annotated[float, typer.Option(
        envvar="MEEPLE_HEAD_TIMEOUT", min=0.1, max=600,
        help="seconds a request's head may take to arrive (slower clients are closed)")
    ] = 10.0,
    body_timeout: Annotated[float, typer.Option(
        envvar="MEEPLE_BODY_TIMEOUT", min=0.1, max=3600,
        help="seconds a request's body may take to arrive after its head (slower clients get "
             "408 and are closed)")] = 30.0,
    http_per_client: Annotated[int, typer.Option(
        envvar="MEEPLE_HTTP_PER_CLIENT", min=0,
        help="HTTP connections one client (address, IPv6 /64) may hold open at once; one more "
             "gets 429 and is closed (0: no cap)")] = 64,
) -> None:
    """Run meeple online: the web app (lobby, tables, replays) and its API, at the printed URL."""
    import os

    import uvicorn

    from meeple.server.edge import LOOPBACK_HOSTS, EdgeConfig, settings_from, uvicorn_settings
    from meeple.server.features.accounts.sessions import AccountSettings
    from meeple.server.features.chat.service import ChatSettings
    from meeple.server.features.mail.mailer import MailSettings
    from meeple.store import Store, default_url, display_url, sqlite_url
    from meeple.web import create_web_app

    try:
        edge = EdgeConfig.for_serve(
            host, settings_from(os.environ, "MEEPLE_ALLOWED_HOSTS", allowed_host),
            settings_from(os.environ, "MEEPLE_ALLOWED_ORIGINS", allowed_origin),
            api_docs=api_docs, head_timeout=head_timeout, body_timeout=body_timeout,
            per_client=http_per_client)
        proxies = settings_from(os.environ, "MEEPLE_TRUSTED_PROXIES", trusted_proxy)
        edge_settings = uvicorn_settings(edge, proxies)
        AccountSettings.from_env()  # MEEPLE_SECRET_KEY, the sessions' and sign-ins' settings
        ChatSettings.from_env()  # MEEPLE_RATE_CHAT(_CLIENT, _TABLE), MEEPLE_RATE_REPORT
        bracketed = f"[{host}]" if ":" in host else host  # (the links in mails)
        os.environ.setdefault("MEEPLE_PUBLIC_URL", f"http://{bracketed}:{port}")
        MailSettings.from_env()  # MEEPLE_SMTP_URL, MEEPLE_MAIL_FROM, MEEPLE_PUBLIC_URL
    except ValueError as exc:
        raise refuse(str(exc)) from None
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
    shown = f"[{host}]" if ":" in host else host
    docs = f"  (API docs: http://{shown}:{port}/docs)" if api_docs else ""
    console.print(f"meeple server at [bold]http://{shown}:{port}/[/]{docs}")
    console.print(f"database: {display_url(url)}")
    console.print(f"answers to Host: {edge.describe_hosts()}"
                  + (f"; WebSocket origins besides its own: "
                     f"{', '.join(sorted(edge.allowed_origins))}" if edge.allowed_origins else "")
                  + (f"; trusted proxies: {', '.join(proxies)}" if proxies else ""))
    if host in ("0.0.0.0", "::") and edge.allowed_hosts is not None and \
            edge.allowed_hosts <= set(LOOPBACK_HOSTS):
        console.print("listening on every address: give --allowed-host (MEEPLE_ALLOWED_HOSTS) "
                      "the names and addresses it is reached at, or other hosts get 400")
    uvicorn.run(create_web_app(store, bot_workers=bot_workers, edge=edge), host=host, port=port,
                ws_max_size=1 << 20, ws_per_message_deflate=False,
                log_level="warning", **edge_settings)


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
        from meeple.server.table.protocol import protocol_schema

        if game is not None:
            raise fail("give a GAME or --protocol, not both")
        console.print_json(json.dumps(protocol_schema()))
        return
    if game is None:
        raise fail("give a GAME (e.g. gardens), or --protocol for the WebSocket frames")
    check_game(game)
    console.print_json(json.dumps(view_schema(game)))
