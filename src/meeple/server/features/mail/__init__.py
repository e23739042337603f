"""Mail: an account's address and its notices (a turn to play, a game ended, a rematch),
queued by the notifier and sent by the mailer; its store part keeps the queue."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from meeple.server.site import Site


#: The folder under ``meeple/web/static/`` with this feature's page code:
#: mail.js (the mail page).
STATIC = "mail"


def wire(app: FastAPI, site: Site) -> None:
    """Mail on ``app``: the notifier and its mailer (mail is sent only with
    ``MEEPLE_SMTP_URL``; the mailer starts with the app), links signed with the accounts'
    secret key, and the routes. Needs the site's accounts."""
    from meeple.server.features.mail import routes
    from meeple.server.features.mail.mailer import Mailer
    from meeple.server.features.mail.notices import Notifier

    settings = site.settings.mail
    site.notifier = Notifier(site.store, settings, Mailer(site.store, settings, site.store.origin),
                             site.accounts.settings.secret_key.encode() or None)
    app.include_router(routes.router)
