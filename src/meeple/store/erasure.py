"""What erasing an account does to the rows of the features that keep its data.

Deleting an account (the accounts feature's ``Accounts.delete``) is one transaction. Its own
rows (the account, its sessions, passkeys and held seats) are its own to change; every other
owner of rows that name an account (chat's messages, mail's outbox, Play now's queue, the
ratings) registers a hook here when its store module is imported, and the deletion runs them
all in its transaction. So accounts reaches no other feature's rows, and a feature that keeps
an account's data says what becomes of it beside its queries.

A hook not registered would leave its rows behind: the server imports every feature's store
module when it starts (``meeple.server.features.load_stores``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

#: The name a deleted account's seats and chat messages take (its records keep their moves).
DELETED_PLAYER = "deleted player"

#: A hook: given the deletion's open session, the account's id and the seats it held
#: (table id, seat index), it removes or anonymises its owner's rows of that account.
AccountErased = Callable[[Session, str, Sequence[tuple[str, int]]], None]

_HOOKS: dict[str, AccountErased] = {}


def on_account_erased(hook: AccountErased) -> AccountErased:
    """Register ``hook`` (a decorator) to run in every account deletion's transaction. A hook
    is known by its module and name, so importing its module again does not run it twice."""
    _HOOKS[f"{hook.__module__}.{hook.__qualname__}"] = hook
    return hook


def account_erased_hooks() -> tuple[str, ...]:
    """The registered hooks' names (module and function), in the order they run."""
    return tuple(_HOOKS)


def run_account_erased(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """Run every registered hook in the deletion's transaction ``s``."""
    for hook in _HOOKS.values():
        hook(s, account_id, seats)
