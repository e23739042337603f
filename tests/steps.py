"""Counting engine steps in tests: how many moves a client's request made the engine apply."""

from __future__ import annotations

from typing import Any

import pytest


class EngineSteps:
    """Counts the engine steps (``_apply`` calls) of one game's State class ``cls`` while the
    test runs; :meth:`take` gives the count since the last take."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type[Any]) -> None:
        self.calls = 0
        original = cls._apply

        def counted(state: Any, move: Any) -> None:
            self.calls += 1
            original(state, move)

        monkeypatch.setattr(cls, "_apply", counted)

    def take(self) -> int:
        n, self.calls = self.calls, 0
        return n
