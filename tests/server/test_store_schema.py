"""The store's schema head: the constant the fast start path compares with is Alembic's head,
and a database already at it is left as it is."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from meeple.store import BOT, SeatSpec, Store, sqlite_url
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


def test_table_seeds_give_the_same_tables_on_every_run_and_random_ones_unset(
        tmp_path: Path) -> None:
    """``meeple serve --table-seeds N`` (MEEPLE_TABLE_SEEDS; the tests' servers set it, issue
    36): new tables' seeds follow from N in the order they are made; unset they are random."""
    def seeds(store: Store, n: int) -> list[int]:
        store.migrate()
        spec = [SeatSpec(kind=BOT, bot="random")] * 2
        made = [store.create_table("gardens", {"level": 1}, 2, spec) for _ in range(n)]
        return [store.table(t.table_id).seed for t in made]

    a = seeds(Store(sqlite_url(tmp_path / "a.db"), table_seeds=36), 4)
    b = seeds(Store(sqlite_url(tmp_path / "b.db"), table_seeds=36), 4)
    c = seeds(Store(sqlite_url(tmp_path / "c.db"), table_seeds=37), 4)
    assert a == b and len(set(a)) == 4 and not set(a) & set(c)
    assert all(0 <= s < 1 << 63 for s in a + c)
    d = seeds(Store(sqlite_url(tmp_path / "d.db")), 2)
    e = seeds(Store(sqlite_url(tmp_path / "e.db")), 2)
    assert d != e and not set(d) & set(a)
    # a seed given (a solo challenge's, a test's) is kept as it is
    store = Store(sqlite_url(tmp_path / "f.db"), table_seeds=36)
    store.migrate()
    given = store.create_table("gardens", {"level": 1}, 2, [SeatSpec(kind=BOT, bot="random")] * 2,
                               seed=5)
    assert store.table(given.table_id).seed == 5


def test_the_migrations_build_exactly_the_rows_of_the_store_and_every_feature(
        db_url: str) -> None:
    """The rows live in the store's base and in each feature's package (``rows.py``), on one
    metadata; the hand-written migrations must build that schema, no more and no less: alembic's
    autogenerate finds nothing to change between a migrated database and all the rows."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from meeple.server.features import load_stores

    metadata = load_stores()
    assert {"sessions", "passkeys", "passkey_challenges", "server_secrets", "solo_claims",
            "chat_messages", "chat_reports", "mail_outbox", "play_queue"} <= set(metadata.tables)
    store = Store(db_url)
    store.migrate()
    try:
        with store.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True,
                                                             "compare_server_default": True})
            diff = compare_metadata(context, metadata)
        # and as autogenerate sees it through the migrations' env.py, given the metadata
        # (alembic check raises if autogenerate would write a migration)
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("meeple.store") / "migrations"))
        with store.engine.begin() as conn:
            cfg.attributes.update(connection=conn, target_metadata=metadata)
            command.check(cfg)
    finally:
        store.close()
    # The one difference, and why it is meant: migration 0007 added game_tables.rated and
    # seats.forfeit with a server default (false) to fill the rows already there; the rows
    # give their default on the Python side. Nothing else may differ.
    changes = [change for group in diff
               for change in (group if isinstance(group, list) else [group])]
    found = sorted((c[0], c[2], c[3]) if c[0] == "modify_default" else (c[0], repr(c[1:]), "")
                   for c in changes)
    assert found == [("modify_default", "game_tables", "rated"),
                     ("modify_default", "seats", "forfeit")], diff
