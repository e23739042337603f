"""API tokens and bot accounts on the :class:`Store`'s engine: an account's personal tokens
(kept by the SHA-256 of their secret, never the secret), and the one-way change of an account
with no games into a bot account. The server checks what a token may do
(:mod:`meeple.server.features.accounts.tokens`); the store only keeps. Every method is one
short transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from meeple.server.features.accounts.rows import ApiTokenRow
from meeple.server.features.accounts.store import Account, _account
from meeple.store.models import BOT_ACCOUNT, AccountRow, AccountSeatRow, aware, now
from meeple.store.store import Store, StoreError

#: What every token's secret begins with (a scanner of leaked secrets, or a person reading a
#: config file, knows it for a meeple token).
PREFIX = "mpl_"
#: The live (not revoked) tokens one account may have.
MAX_TOKENS = 20
#: A token's ``last_used`` is written at most this often (a bot's every request does not
#: write to the store).
USED_EVERY = timedelta(minutes=1)


class TooManyTokens(StoreError):
    """An account with :data:`MAX_TOKENS` live tokens asked for another."""


class HasGames(StoreError):
    """An account that holds seats asked to become a bot account."""


@dataclass(frozen=True)
class TokenInfo:
    """A personal API token as its owner sees it listed (its secret is nowhere)."""

    id: str
    account_id: str
    name: str
    scopes: tuple[str, ...]
    created: datetime
    expires: datetime | None
    last_used: datetime | None
    revoked: bool = False

    def expired(self, when: datetime) -> bool:
        return self.expires is not None and self.expires <= when


def token_digest(secret: str) -> str:
    """What the store keeps of a token's secret: its SHA-256 (hex)."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def _token(row: ApiTokenRow) -> TokenInfo:
    return TokenInfo(row.id, row.account_id, row.name, tuple(row.scopes or ()),
                     aware(row.created), aware(row.expires) if row.expires else None,
                     aware(row.last_used) if row.last_used else None, bool(row.revoked))


class ApiTokens:
    """The API tokens of ``store``'s accounts, and their kind (person or bot)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def make(self, account_id: str, name: str, scopes: tuple[str, ...],
             expires: datetime | None) -> tuple[TokenInfo, str]:
        """A new token of the account and its secret (to be shown once);
        :class:`TooManyTokens` at :data:`MAX_TOKENS` live ones."""
        secret = PREFIX + secrets.token_urlsafe(32)
        with self.store.writing() as s:
            live = s.scalar(select(func.count()).select_from(ApiTokenRow).where(
                ApiTokenRow.account_id == account_id, ApiTokenRow.revoked.is_(False)))
            if (live or 0) >= MAX_TOKENS:
                raise TooManyTokens(f"this account has {live} live tokens, the most it may "
                                    f"have ({MAX_TOKENS}); revoke one first")
            row = ApiTokenRow(id=secrets.token_hex(8), digest=token_digest(secret),
                              account_id=account_id, name=name, scopes=list(scopes),
                              created=now(), expires=expires, last_used=None, revoked=False)
            s.add(row)
            s.flush()
            return _token(row), secret

    def of(self, account_id: str) -> list[TokenInfo]:
        """The account's tokens not revoked (expired ones too), newest first."""
        with self.store.session() as s:
            rows = s.scalars(select(ApiTokenRow).where(ApiTokenRow.account_id == account_id,
                                                       ApiTokenRow.revoked.is_(False))
                             .order_by(ApiTokenRow.created.desc(), ApiTokenRow.id))
            return [_token(r) for r in rows]

    def revoke(self, account_id: str, token_id: str) -> bool:
        """Revoke one of the account's tokens; False when it has no such live token."""
        with self.store.writing() as s:
            done = s.execute(update(ApiTokenRow).where(
                ApiTokenRow.id == token_id, ApiTokenRow.account_id == account_id,
                ApiTokenRow.revoked.is_(False)).values(revoked=True))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def find(self, secret: str) -> tuple[TokenInfo, Account] | None:
        """The token whose secret is ``secret`` (revoked and expired ones too: the caller
        says which) and its account; None for no such token or a deleted account."""
        with self.store.session() as s:
            found = s.execute(select(ApiTokenRow, AccountRow)
                              .join(AccountRow, AccountRow.id == ApiTokenRow.account_id)
                              .where(ApiTokenRow.digest == token_digest(secret))).first()
            if found is None or found[1].deleted:
                return None
            return _token(found[0]), _account(found[1])

    def live(self, token_id: str) -> TokenInfo | None:
        """Token ``token_id`` if it is live (not revoked, not expired, of an account not
        deleted)."""
        with self.store.session() as s:
            found = s.execute(select(ApiTokenRow, AccountRow.deleted)
                              .join(AccountRow, AccountRow.id == ApiTokenRow.account_id)
                              .where(ApiTokenRow.id == token_id)).first()
            if found is None or found[1]:
                return None
            token = _token(found[0])
            return None if token.revoked or token.expired(now()) else token

    def used(self, token_id: str, when: datetime) -> None:
        """A request came with the token at ``when``: its ``last_used``, written only when
        the one kept is older than :data:`USED_EVERY`."""
        with self.store.writing() as s:
            s.execute(update(ApiTokenRow).where(
                ApiTokenRow.id == token_id,
                (ApiTokenRow.last_used.is_(None)) | (ApiTokenRow.last_used < when - USED_EVERY))
                .values(last_used=when))

    # ------------------------------------------------------------------ bot accounts
    def make_bot(self, account_id: str) -> bool:
        """Make the account a bot account, for good; False if it was one already.
        :class:`HasGames` when it holds a seat at any table (it has played, or is
        playing or waiting, as a person)."""
        with self.store.writing() as s:
            row = s.get(AccountRow, account_id, with_for_update=True)
            if row is None or row.deleted:
                raise StoreError("this account was deleted")
            if row.kind == BOT_ACCOUNT:
                return False
            games = _seats_held(s, account_id)
            if games:
                raise HasGames(f"this account holds {games} seat(s) at tables (games played, "
                               f"running or waiting); only an account with no games yet can "
                               f"become a bot account (make a new account for the bot)")
            row.kind = BOT_ACCOUNT
            return True

    def bots_among(self, account_ids: list[str]) -> set[str]:
        """Which of the accounts are bot accounts."""
        if not account_ids:
            return set()
        with self.store.session() as s:
            return set(s.scalars(select(AccountRow.id).where(
                AccountRow.id.in_(account_ids), AccountRow.kind == BOT_ACCOUNT)))


def _seats_held(s: Session, account_id: str) -> int:
    return int(s.scalar(select(func.count()).select_from(AccountSeatRow)
                        .where(AccountSeatRow.account_id == account_id)) or 0)


__all__ = ["MAX_TOKENS", "PREFIX", "USED_EVERY", "ApiTokens",
           "HasGames", "TokenInfo", "TooManyTokens", "token_digest"]
