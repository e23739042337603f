"""Plain text from the Rich markup the terminal renderers write (no Rich import in core)."""

from __future__ import annotations

import re

_TAG = re.compile(r"(\\*)\[([a-z#/@][^\[\]]*?)\]")


def strip_markup(markup: str) -> str:
    """``"[bold]A1[/] \\[x]"`` -> ``"A1 [x]"``: style tags dropped, escaped brackets kept."""

    def repl(m: re.Match[str]) -> str:
        slashes = m.group(1)
        if len(slashes) % 2:  # an escaped bracket: keep it, less one backslash
            return slashes[:-1] + "[" + m.group(2) + "]"
        return slashes

    return _TAG.sub(repl, markup)
