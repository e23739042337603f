"""The site's features, one package each (accounts, profiles, ratings, play now, chat, mail,
rules, sheets, solo): each holds its routes, its service, its store's queries and its rows
(``rows.py``, on the store's one metadata). A feature depends on the table core
(:mod:`meeple.server.table`), the edge and the store's base, never on another feature except
through the named interfaces the import-linter contracts list."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import MetaData


def load_stores() -> MetaData:
    """Import every feature's store module, and with it its rows and its account-erased hook
    (:mod:`meeple.store.account_data`): an account deleted before a hook was registered would keep
    that feature's rows. ``create_app`` calls it; so does the test that compares the schema the
    migrations build with the rows. Returns the one metadata all rows share."""
    from meeple.server.features.accounts import passkey_store
    from meeple.server.features.accounts import store as accounts_store
    from meeple.server.features.challenges import rows as challenge_rows
    from meeple.server.features.challenges import store as challenge_store
    from meeple.server.features.chat import store as chat_store
    from meeple.server.features.mail import store as mail_store
    from meeple.server.features.playnow import store as playnow_store
    from meeple.server.features.tournaments import store as tournament_store
    from meeple.store.models import Base

    del challenge_rows, passkey_store, accounts_store, chat_store, mail_store, playnow_store
    del tournament_store, challenge_store
    return Base.metadata
