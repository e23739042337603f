"""``meeple serve`` (the online server) and ``meeple schema`` (the JSON Schema of the per-seat
view, or of the WebSocket protocol's frames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meeple.cli.common import (
    GamesHelpCommand,
    app,
    check_game,
    console,
    fail,
    game_names,
    refuse,
)
from meeple.core.view import view_schema

if TYPE_CHECKING:
    from meeple.web.serving import ServeSpec, WorkerApp

#: The most processes ``--workers`` starts: each holds its own bot pool and database
#: connections, and more processes than cores only share the same cores.
MAX_WORKERS = 32


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[Path | None, typer.Option(
        help="SQLite file for the tables (default: MEEPLE_DATABASE_URL, else meeple.db in "
             "your data folder)")] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="a database URL instead, e.g. postgresql+psycopg://user@host/db "
        "(default: MEEPLE_DATABASE_URL)")] = None,
    bot_workers: Annotated[int | None, typer.Option(
        help="processes for bot decisions (default: MEEPLE_BOT_WORKERS, else the core "
             "count)")] = None,
    table_seeds: Annotated[int | None, typer.Option(
        help="for tests and demos only: new tables' seeds follow from this number, the same "
             "on every run (anyone who knows it can work out the draws; default: "
             "MEEPLE_TABLE_SEEDS)")] = None,
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
        "--api-docs", help="serve interactive API docs at /docs (Swagger UI, its files from "
        "the server itself; default: MEEPLE_API_DOCS)")] = False,
    head_timeout: Annotated[float | None, typer.Option(
        min=0.1, max=600, help="seconds a request's head may take to arrive (slower clients "
        "are closed; default: MEEPLE_HEAD_TIMEOUT, else 10)")] = None,
    body_timeout: Annotated[float | None, typer.Option(
        min=0.1, max=3600, help="seconds a request's body may take to arrive after its head "
        "(slower clients get 408 and are closed; default: MEEPLE_BODY_TIMEOUT, else 30)")
    ] = None,
    http_per_client: Annotated[int | None, typer.Option(
        min=0, help="HTTP connections one client (address, IPv6 /64) may hold open at once; "
        "one more gets 429 and is closed (0: no cap; default: MEEPLE_HTTP_PER_CLIENT, else "
        "64)")] = None,
    workers: Annotated[int, typer.Option(
        help="server processes on --host:--port sharing the tables of "
        "one PostgreSQL database (one that dies is started again; each has its own bot pool: "
        "--bot-workers each, else the cores divided among them; 1 to 32). SQLite: 1 only "
        "(its processes cannot tell each other's clients of a move)")] = 1,
    print_settings: Annotated[bool, typer.Option(
        "--print-settings", help="print the settings in force (every MEEPLE_* variable, "
        "secrets masked; docs/settings.md) and exit")] = False,
) -> None:
    """Run meeple online: the web app (lobby, tables, replays) and its API, at the printed URL.
    Its settings are MEEPLE_* variables (docs/settings.md); an option takes the place of its
    variable."""
    if not 1 <= workers <= MAX_WORKERS:
        raise refuse(f"--workers {workers}: give a number of server processes from 1 to "
                     f"{MAX_WORKERS}")
    import uvicorn

    from meeple.server.edge import LOOPBACK_HOSTS
    from meeple.settings import SettingsError, settings_report
    from meeple.store import Store, display_url
    from meeple.web import create_web_app
    from meeple.web.serving import UVICORN, ServeSpec, WorkerApp

    options = {"allowed_hosts": allowed_host, "allowed_origins": allowed_origin,
               "trusted_proxies": trusted_proxy, "api_docs": api_docs or None,
               "head_timeout": head_timeout, "body_timeout": body_timeout,
               "http_per_client": http_per_client, "table_seeds": table_seeds}
    spec = ServeSpec(host, port, options, bot_workers, workers)
    try:
        settings, edge, proxies, edge_settings = spec.plan()
    except (SettingsError, ValueError) as exc:
        raise refuse(str(exc)) from None
    if print_settings:
        console.out(settings_report(settings), end="")
        return
    url = database_of(db, database_url, settings.store.database_url)
    if db is not None and db.is_dir():
        raise fail(f"--db {db} is a directory; give the path of an SQLite file, e.g. {db}/meeple.db")
    check_workers(workers, port, url)
    try:
        store = Store(url, table_seeds=settings.server.table_seeds)
        store.migrate()
    except Exception as exc:  # a database that cannot be reached or written
        raise fail(f"cannot open the database {display_url(url)}: {exc}") from None
    shown = f"[{host}]" if ":" in host else host
    docs = f"  (API docs: http://{shown}:{port}/docs)" if edge.api_docs else ""
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
    if workers == 1:
        uvicorn.run(create_web_app(store, edge=edge, settings=settings), host=host, port=port,
                    **UVICORN, **edge_settings)
        return
    store.close()  # (each process opens its own)
    console.print(f"{workers} processes, {settings.bots.workers} bot workers each")
    serve_processes(WorkerApp(spec, url), spec, edge_settings)


def check_workers(workers: int, port: int, url: str) -> None:
    """Refuse a ``--workers`` count above one that cannot work here: on port 0 (each process
    would get another port) or on SQLite (no LISTEN/NOTIFY between its processes)."""
    from meeple.store import display_url

    if workers > 1 and port == 0:
        raise refuse(f"--workers {workers} needs a --port (0, any free port, would give each "
                     "process another one)")
    if workers > 1 and not url.startswith("postgresql"):
        raise refuse(
            f"--workers {workers} needs PostgreSQL (--database-url or MEEPLE_DATABASE_URL "
            f"postgresql+psycopg://...), not {display_url(url)}: processes on one SQLite file "
            "would store every move safely but could not tell each other's clients of it "
            "(SQLite has no LISTEN/NOTIFY), so a player would not see the moves made through "
            "another process. On SQLite, serve with one process (--workers 1).")


def serve_processes(app: WorkerApp, spec: ServeSpec, edge_settings: dict[str, Any]) -> None:
    """``spec.workers`` server processes on one address under uvicorn's supervisor (one
    that dies is started again); exit 1 when a process could not start its app."""
    from meeple.server.workers import WorkersConfig, run_workers
    from meeple.web.serving import UVICORN

    shown = f"[{spec.host}]" if ":" in spec.host else spec.host
    try:
        served = run_workers(WorkersConfig(
            app, spec.http_protocol, host=spec.host, port=spec.port, workers=spec.workers,
            **UVICORN, **{k: v for k, v in edge_settings.items() if k != "http"}))
    except OSError as exc:  # the address is taken, or not this machine's
        raise refuse(f"cannot listen on {shown}:{spec.port}: {exc.strerror or exc}") from None
    if not served:
        raise fail("a server process could not start (its error is above): all were stopped",
                   code=1)


def database_of(db: Path | None, database_url: str | None, from_env: str) -> str:
    """The database a command opens: ``--db``'s SQLite file, else ``--database-url``, else
    ``MEEPLE_DATABASE_URL`` (``from_env``), else meeple.db in the user's data folder. Both
    ``--db`` and a URL (given or set): refused, as it is unclear which was meant."""
    from meeple.store import default_url, sqlite_url

    url = database_url or from_env
    if db is not None and url:
        raise fail("give --db or --database-url (MEEPLE_DATABASE_URL), not both")
    return sqlite_url(db) if db is not None else (url or default_url())


@app.command("schema", cls=GamesHelpCommand)
def schema_cmd(
    game: Annotated[str | None, typer.Argument(help="the game: {games}")] = None,
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
        raise fail(f"give a GAME ({game_names()}), or --protocol for the WebSocket frames")
    check_game(game)
    console.print_json(json.dumps(view_schema(game)))
