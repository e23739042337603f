"""The store's schema head: the constant the fast start path compares with is Alembic's head,
and a database already at it is left as it is."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory

from meeple.store import Store
from meeple.store.store import SCHEMA_HEAD


def test_the_schema_head_constant_is_alembics_head(tmp_path: Path) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("meeple.store") / "migrations"))
    assert ScriptDirectory.from_config(cfg).get_current_head() == SCHEMA_HEAD
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    assert store.schema_version() is None
    store.migrate()
    assert store.schema_version() == SCHEMA_HEAD
    store.migrate()  # at the head already: nothing to do, nothing broken
    assert store.schema_version() == SCHEMA_HEAD
    store.close()
