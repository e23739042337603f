"""Accounts' own rows on the store's base (:class:`meeple.store.models.Base`): the signed-in
browsers, the passkeys and their ceremonies' challenges, the secrets the server processes share,
and the solo names claimed. The accounts themselves and the seats they hold are the store's
base's (:mod:`meeple.store.models`): the table core reads them. The migrations in
``meeple/store/migrations`` build these tables with the rest."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.expression import false

from meeple.store.models import Base, now


class SessionRow(Base):
    """A signed-in browser: ``id`` is the SHA-256 of the random token in its cookie (the token
    itself is kept nowhere)."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class ServerSecretRow(Base):
    """A secret the server processes of one database share (the CSRF key when
    ``MEEPLE_SECRET_KEY`` is unset): made once by the first process that needs it."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SoloClaimRow(Base):
    """A name whose finished solo games an account claimed: once per name and game,
    by one account ever, and one name per account and game. The tables it moved are held by
    the account (``account_seats``)."""

    __tablename__ = "solo_claims"
    __table_args__ = (UniqueConstraint("game", "account_id"),)

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    #: the seat name, exactly as the tables keep it
    name: Mapped[str] = mapped_column(String(60), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    #: how many tables the claim moved
    tables: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PasskeyRow(Base):
    """A passkey (a WebAuthn credential) an account signs in with: its public key (COSE), never
    a secret. ``credential_hash`` (the SHA-256 of the credential id) is the unique key; the id
    itself is kept to list it to the browser."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    credential_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: the credential id as the browser gives it (base64url, at most 1023 bytes: 1364 characters)
    credential_id: Mapped[str] = mapped_column(String(1400))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: the credential's public key as the authenticator gave it (a COSE key)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    #: the authenticator's signature counter at its last use (0: it keeps none)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    #: how the browser may reach the authenticator (``internal``, ``usb``, ``hybrid``, ...)
    transports: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: the name the person gave it
    name: Mapped[str] = mapped_column(String(60))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallengeRow(Base):
    """A challenge of a WebAuthn ceremony under way, kept by the SHA-256 of its purpose and
    bytes until it is answered (once: it is deleted then) or expires. Every server process of
    one database finds it."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``register`` (a signed-in account adds a passkey), ``signup`` (a new account with a
    #: passkey only), ``signin``, ``confirm`` (a passkey-only account confirms its deletion)
    purpose: Mapped[str] = mapped_column(String(12))
    #: the account it is for (register, confirm; for signup the id the new account will take)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: what a signup keeps until it is answered: the username, its key, the display name
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class ApiTokenRow(Base):
    """A personal API token of an account (``Authorization: Bearer mpl_...``): ``digest`` is
    the SHA-256 of its secret (the secret itself is shown once, when it is made, and kept
    nowhere)."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: the name its owner gave it
    name: Mapped[str] = mapped_column(String(60))
    #: what it may do: some of ``play``, ``challenge``, ``tournament``, ``read``
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: when it stops working (None: never)
    expires: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: when a request last came with it (written at most once a minute)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
