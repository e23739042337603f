"""The agent's REST calls to the server: JSON with the bearer token, in a thread (urllib, no
dependency), each a clear :class:`~meeple.agent.policies.AgentError` or :class:`Unreachable`."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from meeple.agent.policies import AgentError


class Unreachable(OSError):
    """The server did not answer (down, restarting, a dropped connection): try again later."""


class Refused(AgentError):
    """The server answered with an error status: ``status`` and its ``detail``."""

    def __init__(self, status: int, detail: str, method: str, path: str) -> None:
        super().__init__(f"{method} {path}: {status} {detail}")
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Api:
    """The server's address (``http(s)://host:port``) and the token."""

    base: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def ws_base(self) -> str:
        return "ws" + self.base.removeprefix("http")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             timeout: float = 30) -> Any:
        """One request; its JSON answer. A POST carries an ``Idempotency-Key``."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json", **self.auth}
        if method == "POST":
            headers["Idempotency-Key"] = secrets.token_hex(16)
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            try:
                detail = str(json.loads(exc.read()).get("detail", exc.reason))
            except (ValueError, AttributeError, OSError):
                detail = str(exc.reason)
            if exc.code in (429, 502, 503, 504):  # over a rate, or the server not ready: later
                raise Unreachable(f"{method} {path}: {exc.code} {detail}") from None
            raise Refused(exc.code, detail, method, path) from None
        except (urllib.error.URLError, OSError) as exc:
            raise Unreachable(f"{method} {path}: {getattr(exc, 'reason', exc)}") from None
        return json.loads(raw) if raw else None

    def stream(self, timeout: float) -> Any:
        """The open account event stream (an HTTP response to read lines from)."""
        req = urllib.request.Request(self.base + "/api/stream/event", headers=self.auth)
        try:
            return urllib.request.urlopen(req, timeout=timeout)
        except urllib.error.HTTPError as exc:
            try:
                detail = str(json.loads(exc.read()).get("detail", exc.reason))
            except (ValueError, AttributeError, OSError):
                detail = str(exc.reason)
            if exc.code in (429, 502, 503, 504):
                raise Unreachable(f"GET /api/stream/event: {exc.code} {detail}") from None
            raise Refused(exc.code, detail, "GET", "/api/stream/event") from None
        except (urllib.error.URLError, OSError) as exc:
            raise Unreachable(f"GET /api/stream/event: {getattr(exc, 'reason', exc)}"
                              ) from None


__all__ = ["Api", "Refused", "Unreachable"]
