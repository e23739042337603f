"""What the features keep of an account: its sections of the account's export, and what its
deletion does to their rows.

An account's export and its deletion belong to the accounts feature, but the data are spread
over the features that keep them (chat's messages, mail's address and outbox, Play now's
queue, the ratings). Each of those registers here, when its store module is imported, a
function that writes its section of the export and a hook that forgets the account in the
deletion's transaction; accounts runs them all and reaches no other feature's rows.

A hook not registered would leave its rows behind: the server imports every feature's store
module when it starts (``meeple.server.features.load_stores``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session

#: The name a deleted account's seats and chat messages take (its records keep their moves).
DELETED_PLAYER = "deleted player"

#: A hook: given the deletion's open session, the account's id and the seats it held
#: (table id, seat index), it removes or anonymises its owner's rows of that account.
AccountErased = Callable[[Session, str, Sequence[tuple[str, int]]], None]
#: A section of the export: given an open session and the account's id, what its owner keeps
#: of the account, as JSON values.
AccountExported = Callable[[Session, str], Any]

_ERASED: dict[str, AccountErased] = {}
_EXPORTED: dict[str, AccountExported] = {}


def on_account_erased(hook: AccountErased) -> AccountErased:
    """Register ``hook`` (a decorator) to run in every account deletion's transaction. A hook
    is known by its module and name, so importing its module again does not run it twice."""
    _ERASED[f"{hook.__module__}.{hook.__qualname__}"] = hook
    return hook


def account_erased_hooks() -> tuple[str, ...]:
    """The registered hooks' names (module and function), in the order they run."""
    return tuple(_ERASED)


def run_account_erased(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """Run every registered hook in the deletion's transaction ``s``."""
    for hook in _ERASED.values():
        hook(s, account_id, seats)


def on_account_exported(section: str) -> Callable[[AccountExported], AccountExported]:
    """Register the decorated function as the export's ``section`` (one function a
    section)."""
    def register(fn: AccountExported) -> AccountExported:
        _EXPORTED[section] = fn
        return fn
    return register


def account_exported(s: Session, account_id: str) -> dict[str, Any]:
    """Every registered section of the account's export, in the order of their names."""
    return {section: _EXPORTED[section](s, account_id) for section in sorted(_EXPORTED)}
