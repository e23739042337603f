"""What every settings section is made of: the :class:`Section` base, :func:`setting` (a field
with its ``MEEPLE_*`` variable), the kinds of value they share (:data:`Rate`, :data:`Count`,
...) and their checks.

Each section is defined by the package that reads it (``meeple.store.settings``,
``meeple.server.edge_settings``, ``meeple.server.table.settings``, each feature's
``settings`` module) and put together with the others in :mod:`meeple.settings`, the one
model that reads the environment. This module sits outside the layers (docs/settings.md)
and imports nothing of meeple, so the store, the table core and every feature may import it
without importing one another (an import-linter contract keeps it so).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any, ClassVar
from urllib.parse import urlsplit

from limits import RateLimitItem, parse_many
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

#: What a masked secret is shown as.
HIDDEN = "(hidden)"


class Section(BaseModel):
    """A section of the settings: made from its variables (by alias) or in Python by field
    name (tests); never changed once made."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    #: the section's title in docs/settings.md and --print-settings
    title: ClassVar[str] = ""

    @classmethod
    def variable(cls, name: str) -> str:
        """The environment variable of the field ``name`` (what a refusal names)."""
        return str(cls.model_fields[name].validation_alias)


def setting(var: str, default: Any, what: str, allowed: str, *, secret: bool = False,
            empty_unset: bool = False) -> Any:
    """A field of a section: its environment variable, default, one line on what it does,
    what a value may be (for a refusal), whether it is a secret (masked when shown), and
    whether the variable set empty counts as unset (those read as "if set" before)."""
    return Field(default, validation_alias=var, description=what,
                 json_schema_extra={"allowed": allowed, "secret": secret,
                                    "empty_unset": empty_unset})


# ------------------------------------------------------------------------------ the checks
def origin_of(url: str) -> str:
    """``url`` as a browser writes an ``Origin``: ``scheme://host[:port]`` in lower case, the
    scheme's default port left out; :class:`ValueError` for anything else (a path, another
    scheme, no host)."""
    text = url.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or \
            parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{url[:100]!r} is not an origin; give scheme and host (and port), "
                         f"e.g. https://meeple.example.org or http://192.0.2.7:8000")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url[:100]!r} has a port that is not a number from 0 to "
                         f"65535") from None
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def masked_url(url: str) -> str:
    """A URL as it may be shown: its password replaced by ``(hidden)``, at most 200
    characters."""
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    if password:
        url = url.replace(f":{password}@", f":{HIDDEN}@")
    return url[:200]


def rate(text: str) -> list[RateLimitItem]:
    """The rate items of a setting (``5/10 seconds;60/hour`` as the ``limits`` library writes
    one); none for ``off`` or empty."""
    if text.lower() in ("", "off", "none", "0"):
        return []
    return list(parse_many(text))


def _rate(text: str) -> str:
    rate(text)
    return text


def at_least(low: float, *, above: bool = False, high: float = math.inf
             ) -> Callable[[float], float]:
    """A check of a number: finite, at least ``low`` (above it with ``above``), at most
    ``high``."""
    def check(value: float) -> float:
        if not math.isfinite(value) or value < low or (above and value == low) or value > high:
            raise ValueError(value)
        return value
    return check


def _listed(value: Any) -> Any:
    """A comma-separated list (the variable's text) as a tuple of its non-empty items."""
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return value


Rate = Annotated[str, AfterValidator(_rate)]
Count = Annotated[int, AfterValidator(at_least(0))]
Positive = Annotated[int, AfterValidator(at_least(1))]
Seconds = Annotated[float, AfterValidator(at_least(0))]
PositiveSeconds = Annotated[float, AfterValidator(at_least(0, above=True))]
Listed = Annotated[tuple[str, ...], BeforeValidator(_listed)]

#: What each kind of value may be, for a refusal's sentence.
A_RATE = "a rate such as 30/minute or 5/10 seconds;60/hour (or off)"
A_COUNT = "a whole number, 0 or more (0: no cap)"
A_POSITIVE = "a whole number, 1 or more"
SOME_SECONDS = "a number of seconds, 0 or more"
SOME_POSITIVE = "a positive number"
A_LIST = "names separated by commas"

__all__ = ["A_COUNT", "A_LIST", "A_POSITIVE", "A_RATE", "HIDDEN", "SOME_POSITIVE",
           "SOME_SECONDS", "Count", "Listed", "Positive", "PositiveSeconds", "Rate", "Seconds",
           "Section", "at_least", "masked_url", "origin_of", "rate", "setting"]
