"""The games. Each package exposes ``GAME`` (a :class:`meeple.core.registry.GameInfo`).

``meeple.games`` is both this package and the public ``meeple.games()`` listing: once a game
package is imported, Python binds the attribute ``meeple.games`` to this module, so the module
itself is made callable and returns the registry listing.
"""

import sys
import types
from typing import Any

GAME_PACKAGES: tuple[str, ...] = ("gardens", "reefs", "takenokolor", "pergola")


class _CallableGamesModule(types.ModuleType):
    def __call__(self) -> Any:
        from meeple.core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallableGamesModule
