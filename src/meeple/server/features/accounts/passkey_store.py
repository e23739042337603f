"""Passkeys: the WebAuthn credentials accounts sign in with, and the challenges of the
ceremonies under way, on the :class:`Store`'s engine.

A passkey keeps what checking a signature needs and nothing secret: the credential id (under
its SHA-256, the unique key), the public key as the authenticator gave it, the signature
counter, the transports, the name its person gave it, when it was added and last used. A
challenge is kept under the SHA-256 of its purpose and bytes until it is answered, once (it
is deleted in the same transaction that reads it, so of two answers only one finds it), or
until it expires; any server process of the database may answer it. The server checks the
ceremonies (:mod:`meeple.server.features.accounts.passkey_routes`); the store only keeps. Every method is one
short transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.server.features.accounts.rows import PasskeyChallengeRow, PasskeyRow
from meeple.server.features.accounts.store import Account, UsernameTaken, _account, name_clash
from meeple.store.lookalike import username_skeleton
from meeple.store.models import AccountRow, aware, now
from meeple.store.store import NotFound, Store, StoreError

#: The most passkeys one account may have.
MAX_PASSKEYS = 20
#: The most ceremonies under way at once in the whole database (their challenges not yet
#: answered nor expired); a new one beyond is refused until some end.
MAX_CHALLENGES = 10_000
#: The most ceremonies under way for one account (a person with a few tabs open); a new one
#: beyond replaces its oldest, so no account holds more of the shared :data:`MAX_CHALLENGES`.
MAX_ACCOUNT_CHALLENGES = 5
#: The purposes a challenge may have.
PURPOSES = ("register", "signup", "signin", "confirm")


class PasskeyTaken(StoreError):
    """A credential registered already (to this account or another)."""


class TooManyPasskeys(StoreError):
    """An account that has :data:`MAX_PASSKEYS` passkeys asked for another."""


class LastSignInMethod(StoreError):
    """Removing the passkey would leave the account without a way to sign in."""


class TooManyChallenges(StoreError):
    """Too many ceremonies under way in the database; try again when some have ended."""


@dataclass(frozen=True)
class Passkey:
    """A passkey as it is listed (no key material)."""

    id: str
    account_id: str
    credential_id: str
    name: str
    transports: tuple[str, ...]
    sign_count: int
    created: datetime
    last_used: datetime | None


@dataclass(frozen=True)
class Challenge:
    """A challenge taken (answered): what it was for."""

    purpose: str
    account_id: str | None
    data: dict[str, Any]


@dataclass(frozen=True)
class NewCredential:
    """A credential a registration ceremony verified, to keep."""

    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]


def credential_hash(credential_id: str) -> str:
    """What a passkey is found by: the SHA-256 (hex) of its credential id (base64url)."""
    return hashlib.sha256(credential_id.encode("ascii")).hexdigest()


def challenge_key(purpose: str, challenge: bytes) -> str:
    """What a challenge is kept under: the SHA-256 of its purpose and bytes (a challenge
    given for one purpose is unknown to the others)."""
    return hashlib.sha256(purpose.encode("ascii") + b"\0" + challenge).hexdigest()


def _passkey(row: PasskeyRow) -> Passkey:
    return Passkey(row.id, row.account_id, row.credential_id, row.name,
                   tuple(row.transports or ()), int(row.sign_count), aware(row.created),
                   aware(row.last_used) if row.last_used is not None else None)


class Passkeys:
    """The passkeys and ceremony challenges of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ challenges
    def new_challenge(self, challenge: bytes, purpose: str, expires: datetime,
                      account_id: str | None = None, data: dict[str, Any] | None = None,
                      cap: int = MAX_CHALLENGES,
                      account_cap: int = MAX_ACCOUNT_CHALLENGES) -> None:
        """Keep a challenge until ``expires`` (expired ones are dropped first, and the
        account's oldest beyond ``account_cap`` - 1: :meth:`_replace_oldest`);
        :class:`TooManyChallenges` if ``cap`` are under way."""
        if purpose not in PURPOSES:
            raise ValueError(f"no challenge purpose {purpose!r}")
        with self.store.writing() as s:
            s.execute(delete(PasskeyChallengeRow).where(PasskeyChallengeRow.expires <= now()))
            if account_id is not None:
                self._replace_oldest(s, account_id, account_cap)
            live = int(s.scalar(select(func.count()).select_from(PasskeyChallengeRow)) or 0)
            if live >= cap:
                raise TooManyChallenges(f"{live} passkey ceremonies are under way on this "
                                        f"server (at most {cap}); try again in a minute")
            s.add(PasskeyChallengeRow(id=challenge_key(purpose, challenge), purpose=purpose,
                                      account_id=account_id, data=data, expires=expires))

    @staticmethod
    def _replace_oldest(s: Session, account_id: str, account_cap: int) -> None:
        """Drop the account's ceremonies but its newest ``account_cap`` - 1 (those that
        expire last): the one about to be kept makes ``account_cap``."""
        kept = select(PasskeyChallengeRow.id).where(
            PasskeyChallengeRow.account_id == account_id).order_by(
            PasskeyChallengeRow.expires.desc(), PasskeyChallengeRow.id).limit(
            max(0, account_cap - 1))
        s.execute(delete(PasskeyChallengeRow).where(
            PasskeyChallengeRow.account_id == account_id,
            PasskeyChallengeRow.id.not_in(kept)))

    def take_challenge(self, challenge: bytes, purpose: str) -> Challenge | None:
        """The challenge, deleted as it is read (single use); None if it is unknown for
        ``purpose``, taken already or expired."""
        key = challenge_key(purpose, challenge)
        with self.store.writing() as s:
            row = s.get(PasskeyChallengeRow, key)
            if row is None:
                return None
            found = Challenge(row.purpose, row.account_id, dict(row.data or {}))
            live = aware(row.expires) > now()
            gone = s.execute(delete(PasskeyChallengeRow).where(PasskeyChallengeRow.id == key))
            if int(gone.rowcount) != 1 or not live:  # type: ignore[attr-defined]
                return None  # another request took it first, or too late
            return found

    # ------------------------------------------------------------------ passkeys
    def add(self, account_id: str, credential: NewCredential, name: str | None,
            cap: int = MAX_PASSKEYS) -> Passkey:
        """A new passkey of the account (named ``Passkey N`` without a name);
        :class:`PasskeyTaken` if the credential is registered already,
        :class:`TooManyPasskeys` beyond ``cap``."""
        try:
            with self.store.writing() as s:
                account = s.scalar(select(AccountRow).where(AccountRow.id == account_id)
                                   .with_for_update())
                if account is None or account.deleted:
                    raise StoreError("this account was deleted")
                count = self._count(s, account_id)
                if count >= cap:
                    raise TooManyPasskeys(f"this account has {count} passkeys, the most it may "
                                          f"have; remove one first")
                row = self._row(s, account_id, credential, name or f"Passkey {count + 1}")
                s.flush()
                return _passkey(row)
        except IntegrityError:  # the same credential registered at the same time
            raise PasskeyTaken(_TAKEN) from None

    def create_account(self, account_id: str, username: str, key: str, display_name: str,
                       settings: dict[str, Any], credential: NewCredential, name: str | None
                       ) -> tuple[Account, Passkey]:
        """A new account with a passkey and no password, in one transaction;
        :class:`UsernameTaken` or :class:`PasskeyTaken` (nothing made)."""
        try:
            with self.store.writing() as s:
                clash = name_clash(s, username, key)
                if clash is not None:
                    raise UsernameTaken(clash)
                account = AccountRow(id=account_id, username=username, username_key=key,
                                     username_skeleton=username_skeleton(key),
                                     display_name=display_name, password_hash=None,
                                     created=now(), settings=dict(settings), deleted=False)
                s.add(account)
                s.flush()
                row = self._row(s, account_id, credential, name or "Passkey 1")
                s.flush()
                return _account(account), _passkey(row)
        except IntegrityError:  # the username or the credential taken at the same time
            with self.store.session() as s:
                clash = name_clash(s, username, key)
            if clash is not None:
                raise UsernameTaken(clash) from None
            raise PasskeyTaken(_TAKEN) from None

    @staticmethod
    def _count(s: Session, account_id: str) -> int:
        return int(s.scalar(select(func.count()).select_from(PasskeyRow)
                            .where(PasskeyRow.account_id == account_id)) or 0)

    @staticmethod
    def _row(s: Session, account_id: str, credential: NewCredential, name: str) -> PasskeyRow:
        digest = credential_hash(credential.credential_id)
        if s.scalar(select(PasskeyRow.id).where(PasskeyRow.credential_hash == digest)):
            raise PasskeyTaken(_TAKEN)
        row = PasskeyRow(id=secrets.token_hex(8), credential_hash=digest,
                         credential_id=credential.credential_id, account_id=account_id,
                         public_key=credential.public_key, sign_count=credential.sign_count,
                         transports=list(credential.transports), name=name, created=now(),
                         last_used=None)
        s.add(row)
        return row

    def username_taken(self, username: str, key: str) -> str | None:
        """Why ``username`` (case-folded ``key``) is taken: an account has it or one that
        looks the same (:func:`~meeple.server.features.accounts.store.name_clash`); None if it is free."""
        with self.store.session() as s:
            return name_clash(s, username, key)

    def find(self, credential_id: str) -> tuple[Passkey, bytes, Account] | None:
        """The passkey of this credential id, its public key and its account (not deleted);
        None if there is none."""
        with self.store.session() as s:
            found = s.execute(select(PasskeyRow, AccountRow)
                              .join(AccountRow, AccountRow.id == PasskeyRow.account_id)
                              .where(PasskeyRow.credential_hash == credential_hash(credential_id))
                              ).first()
            if found is None or found[1].deleted:
                return None
            row, account = found
            return _passkey(row), bytes(row.public_key), _account(account)

    def used(self, passkey_id: str, old_count: int, new_count: int) -> bool:
        """Record a sign-in with the passkey: its counter moves from ``old_count`` to
        ``new_count`` and it was used now. False (nothing changed) if its counter is no longer
        ``old_count``: another sign-in with it was recorded in between."""
        with self.store.writing() as s:
            done = s.execute(update(PasskeyRow).where(PasskeyRow.id == passkey_id,
                                                      PasskeyRow.sign_count == old_count)
                             .values(sign_count=new_count, last_used=now()))
            return int(done.rowcount) == 1  # type: ignore[attr-defined]

    def of(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        with self.store.session() as s:
            return [_passkey(r) for r in s.scalars(
                select(PasskeyRow).where(PasskeyRow.account_id == account_id)
                .order_by(PasskeyRow.created, PasskeyRow.id))]

    def credential_ids(self, account_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """The account's credential ids and their transports (to exclude or allow them)."""
        return [(p.credential_id, p.transports) for p in self.of(account_id)]

    def rename(self, account_id: str, passkey_id: str, name: str) -> Passkey:
        """A new name for one of the account's passkeys; :class:`NotFound` otherwise."""
        with self.store.writing() as s:
            row = s.scalar(select(PasskeyRow).where(PasskeyRow.id == passkey_id,
                                                    PasskeyRow.account_id == account_id))
            if row is None:
                raise NotFound(_NO_SUCH)
            row.name = name
            s.flush()
            return _passkey(row)

    def remove(self, account_id: str, passkey_id: str) -> None:
        """Remove one of the account's passkeys; :class:`NotFound` if it has no such passkey,
        :class:`LastSignInMethod` if it is the last one of an account without a password
        (the account's row is locked meanwhile, so two removals cannot both pass)."""
        with self.store.writing() as s:
            account = s.scalar(select(AccountRow).where(AccountRow.id == account_id)
                               .with_for_update())
            row = s.scalar(select(PasskeyRow).where(PasskeyRow.id == passkey_id,
                                                    PasskeyRow.account_id == account_id))
            if account is None or row is None:
                raise NotFound(_NO_SUCH)
            if account.password_hash is None and self._count(s, account_id) <= 1:
                raise LastSignInMethod(
                    "this passkey is the only way to sign in to your account: set a password "
                    "or add another passkey first; nothing was removed")
            s.execute(delete(PasskeyRow).where(PasskeyRow.id == passkey_id))


_TAKEN = "this passkey is registered already (to this account or another); nothing was added"
_NO_SUCH = "no such passkey of this account"


__all__ = ["MAX_CHALLENGES", "MAX_PASSKEYS", "PURPOSES", "Challenge", "LastSignInMethod",
           "NewCredential", "Passkey", "PasskeyTaken", "Passkeys", "TooManyChallenges",
           "TooManyPasskeys", "challenge_key", "credential_hash"]
