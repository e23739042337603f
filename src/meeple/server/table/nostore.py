"""``Cache-Control: no-store`` on the API's answers.

The API's answers carry what no cache may keep: the signed-in account and its CSRF token
(``/api/me``, ``/api/session``), the export, a passkey ceremony's options, a seat's secret
(creating, joining, a rematch) and the seat's own view of hidden information; the rest
(a table's state, a leaderboard) changes by the move. So every ``/api/`` answer says
``no-store`` (a browser, a proxy or a CDN keeps no copy, on disk or in memory), unless it
set its own ``Cache-Control``. The pages say ``no-cache`` (kept, but asked for again) and
``/static`` is left to the static files' own validators.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Where answers get ``no-store``: the REST API's paths.
API_PREFIX = "/api/"
NO_STORE = (b"cache-control", b"no-store")


class NoStore:
    """Pure ASGI middleware: ``Cache-Control: no-store`` on every HTTP answer under
    :data:`API_PREFIX` that has no ``Cache-Control`` of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_no_store)


__all__ = ["API_PREFIX", "NoStore"]
