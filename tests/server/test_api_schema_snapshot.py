"""The API as clients see it does not change by accident: the OpenAPI document the server
serves and the WebSocket frames' JSON Schema (``meeple schema --protocol``) are compared with
the copies kept in ``api_schema.json``. A refactor keeps them equal; a change meant to alter
the API writes the file anew (``uv run python -m tests.server.test_api_schema_snapshot``) and
says why in its commit."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from meeple.server import create_app
from meeple.server.table.protocol import protocol_schema
from meeple.store import Store, sqlite_url

KEPT = Path(__file__).with_name("api_schema.json")


def current() -> dict[str, Any]:
    """The OpenAPI document of an app on a fresh store, and the protocol's schema."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(sqlite_url(Path(tmp) / "schema.db"))
        store.migrate()
        try:
            openapi = create_app(store, bots=False).openapi()
        finally:
            store.close()
    # through JSON, as a client reads them (tuples become lists, keys strings)
    loaded: dict[str, Any] = json.loads(json.dumps(
        {"openapi": openapi, "protocol": protocol_schema()}, sort_keys=True))
    return loaded


def test_the_openapi_document_and_the_protocol_schema_are_the_kept_ones() -> None:
    kept = json.loads(KEPT.read_text())
    now = current()
    for part in ("openapi", "protocol"):
        assert now[part] == kept[part], (
            f"the {part} schema differs from tests/server/api_schema.json; if the change is "
            "meant, write it anew with `uv run python -m tests.server.test_api_schema_snapshot`")


if __name__ == "__main__":
    KEPT.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n")
    sys.stdout.write(f"wrote {KEPT}\n")
