"""The envs' ``render()``: the terminal drawing of the table as plain text."""

from __future__ import annotations

from typing import Any

from meeple.core.markup import strip_markup
from meeple.core.state import State
from meeple.core.view import terminal_text


def render_text(state: State[Any], viewer: int | None) -> str:
    """The table as ``viewer`` (a seat, or None: a spectator) sees it, every sheet drawn."""
    return strip_markup(terminal_text(state, viewer, None))
