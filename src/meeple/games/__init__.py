"""The games. Each package exposes ``GAME`` (a :class:`meeple.core.registry.GameInfo`) and is
announced as an entry point of the ``meeple.games`` group in ``pyproject.toml``; the registry in
``meeple.core`` finds them there (it never imports a game by name).

``meeple.games`` is both this package and the public ``meeple.games()`` listing: once a game
package is imported, Python binds the attribute ``meeple.games`` to this module, so the module
itself is made callable and returns the registry listing.
"""

import sys
import types
from typing import Any

from meeple.core import registry as _registry


class _CallableGamesModule(types.ModuleType):
    def __call__(self) -> Any:
        return _registry.games()


sys.modules[__name__].__class__ = _CallableGamesModule
