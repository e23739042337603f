"""Every error meeple raises on bad input derives from :class:`MeepleError`.

Messages name what was wrong and what is allowed, so that the CLI and the server can show them
to a user as they are.
"""

from __future__ import annotations

from typing import Any


class MeepleError(Exception):
    """Base class of meeple's user-facing errors."""


class IllegalMove(MeepleError, ValueError):
    """A move (or move text) the state refuses. The state is left exactly as it was."""

    def __init__(self, reason: str, move: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


class UnknownGame(MeepleError, KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class BadVariant(MeepleError, ValueError):
    """Unknown option, bad player count, or an option value the game does not offer."""


class SheetError(MeepleError, ValueError):
    """A sheet or data file that does not validate. ``line`` is 1-based where known."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)
        self.path = path
        self.line = line
        self.message = message


class BadRecord(MeepleError, ValueError):
    """A game record that cannot be read or replayed."""


class IncompleteGame(MeepleError, LookupError):
    """A game package that lacks what a layer needs of it (its ``PRESENTATION`` or ``BOTS``
    record, see ``docs/layers.md``)."""
