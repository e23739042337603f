"""The store's settings section (``store`` in :mod:`meeple.settings`): which database.

``meeple serve`` and ``meeple reports`` read it to choose the database they open
(:func:`meeple.cli.serve.database_of`); the store itself takes the URL it is given."""

from __future__ import annotations

from meeple.sections import Section, setting


class StoreSettings(Section):
    title = "the database"

    database_url: str = setting(
        "MEEPLE_DATABASE_URL", "", "the database (sqlite:///FILE or "
        "postgresql+psycopg://user@host/db); unset: meeple.db in the user's data folder",
        "a database URL", secret=True)


__all__ = ["StoreSettings"]
