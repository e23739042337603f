"""Accounts: sign up, sign in, sessions (cookies and CSRF), passkeys and the signed-in
account's own pages; its store part keeps accounts, sessions and passkeys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: account.js, passkeys.js, account.css (the mail page uses account.css too).
STATIC = "accounts"


def wire(app: FastAPI, site: Site) -> None:
    """Accounts on ``app``: the account service (its section of the site's settings), also
    the site's identity (:mod:`meeple.server.identity`: who the table core asks who is signed
    in), the session guard (a cookie-authenticated change needs its CSRF token) and the
    routes."""
    # (imported here: a package that loads accounts' store or sessions loads no routes)
    from meeple.server.features.accounts import passkey_routes, routes, token_routes
    from meeple.server.features.accounts.sessions import (
        AccountService,
        SessionGuard,
    )

    site.accounts = site.identity = AccountService(site.store, site.settings.accounts)
    app.add_middleware(SessionGuard)
    app.include_router(routes.router)
    app.include_router(passkey_routes.router)
    app.include_router(token_routes.router)
