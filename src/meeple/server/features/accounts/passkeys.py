"""Passkeys on the server: the WebAuthn ceremonies, checked with the ``webauthn``
package (py_webauthn), on the store's passkeys and challenges
(:mod:`meeple.server.features.accounts.passkey_store`).

- **The relying party.** A passkey is bound to a relying party id (a host name). It is
  ``MEEPLE_RP_ID`` if set, else the host of the first ``MEEPLE_RP_ORIGIN``, else the name of the
  ``Host`` the request came with (the edge answers only the Hosts it allows). The origins a
  ceremony may come from are ``MEEPLE_RP_ORIGIN``'s, else the request's own (its scheme, as a
  trusted proxy says it, and its Host). Browsers take no IP address as a relying party and run
  WebAuthn only in a secure context (https, or http://localhost): a request that came to an
  address is refused with a sentence saying to use a name.
- **Challenges.** 32 random bytes, kept in the store for :data:`CEREMONY` with the ceremony's
  purpose (and account), answered once: the answer's ``clientDataJSON`` names its challenge,
  which is taken (deleted) before anything else is checked, so a replayed answer finds none.
- **Credentials.** Discoverable (resident keys: sign-in asks no username), user verification
  preferred, attestation ``none`` (the authenticator's make is not asked for). Every field a
  client sends is bounded (:class:`Credential`).
"""

from __future__ import annotations

import asyncio
import binascii
import functools
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from meeple.server.edge import host_name, origin_of
from meeple.server.features.accounts.passkey_store import NewCredential
from meeple.server.features.accounts.sessions import AccountService, AccountSettings
from meeple.server.features.accounts.settings import is_address
from meeple.server.features.accounts.store import Account
from meeple.server.table.checks import BadInput, loads_strict
from meeple.store.models import now

if TYPE_CHECKING:
    from webauthn.helpers.structs import PublicKeyCredentialDescriptor

# The webauthn library (and the cryptography it loads) is imported by the functions that use
# it, at the first passkey ceremony: it was a tenth of every server process's start
# (benchmarks/README.md, "The test suite's time"), and most processes never see a passkey.

#: The relying party's name, shown by the browser when a passkey is made.
RP_NAME = "meeple"
#: How long a ceremony's challenge may be answered.
CEREMONY = timedelta(minutes=5)
#: What the browser is told to give the person (milliseconds): a little less than the above.
TIMEOUT_MS = 240_000
#: A challenge's bytes.
CHALLENGE_BYTES = 32
#: Bounds of what a client sends (base64url characters): a credential id is at most 1023
#: bytes (WebAuthn), clientDataJSON a few hundred, an attestation object a few KiB (with
#: attestation "none", a few hundred bytes), an assertion's authenticator data a few dozen
#: (more with extensions), a signature at most 512 bytes (RSA-4096), a user handle 64 bytes.
MAX_ID, MAX_CLIENT_DATA, MAX_ATTESTATION = 1400, 4096, 65_536
MAX_AUTH_DATA, MAX_SIGNATURE, MAX_USER_HANDLE = 4096, 1024, 88
#: The longest public key kept (a COSE key: EC2 ~77 bytes, RSA-4096 ~550).
MAX_PUBLIC_KEY = 2048


@functools.cache
def known_transports() -> frozenset[str]:
    """The transports the browser may name (others are dropped)."""
    from webauthn.helpers.structs import AuthenticatorTransport

    return frozenset(t.value for t in AuthenticatorTransport)

_B64URL = r"^[A-Za-z0-9_-]*$"


def _b64(most: int, optional: bool = False) -> Any:
    """A base64url field (no padding) of at most ``most`` characters."""
    return Field(None if optional else ..., min_length=1, max_length=most, pattern=_B64URL,
                 description=f"base64url without padding, at most {most} characters")


class CredentialResponse(BaseModel):
    """The authenticator's response, as the browser's ``PublicKeyCredential.toJSON()`` writes
    it: ``clientDataJSON`` always, ``attestationObject`` (and ``transports``) when a passkey
    is made, ``authenticatorData``, ``signature`` and ``userHandle`` when one signs in."""

    model_config = ConfigDict(extra="forbid")

    clientDataJSON: str = _b64(MAX_CLIENT_DATA)  # (the browser's names)
    attestationObject: str | None = _b64(MAX_ATTESTATION, True)
    authenticatorData: str | None = _b64(MAX_AUTH_DATA, True)
    signature: str | None = _b64(MAX_SIGNATURE, True)
    userHandle: str | None = Field(None, max_length=MAX_USER_HANDLE,
                                   pattern=_B64URL)
    transports: list[Annotated[str, Field(max_length=20)]] | None = Field(None, max_length=10)
    publicKey: str | None = _b64(MAX_ATTESTATION, True)  # (toJSON's; not read)
    publicKeyAlgorithm: int | None = None  # (toJSON's; not read)


class Credential(BaseModel):
    """A ``PublicKeyCredential`` as JSON (what ``toJSON()`` gives, or the same built by a
    page)."""

    model_config = ConfigDict(extra="forbid")

    id: str = _b64(MAX_ID)
    rawId: str = _b64(MAX_ID)
    type: Literal["public-key"]
    response: CredentialResponse
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = None
    clientExtensionResults: dict[str, Any] = Field(default_factory=dict,
                                                   max_length=16)


@dataclass(frozen=True)
class RelyingParty:
    """The relying party id and the origins a ceremony of this request may come from."""

    id: str
    origins: tuple[str, ...]


def relying_party(conn: HTTPConnection, settings: AccountSettings) -> RelyingParty:
    """This request's relying party (see the module's doc), or 400 saying why passkeys cannot
    work at the address the request came to."""
    origins = settings.rp_origins
    host = conn.headers.get("host", "")
    if settings.rp_id:
        rp_id = settings.rp_id
    elif origins:
        rp_id = urlsplit(origins[0]).hostname or ""
    else:
        rp_id = host_name(host)
    if not origins:
        try:
            origins = (origin_of(f"{conn.url.scheme}://{host}"),)
        except ValueError:
            raise HTTPException(400, "passkeys need the Host the server was reached at; this "
                                     "request's cannot be an origin") from None
    if is_address(rp_id):
        raise HTTPException(400, f"passkeys need this server to be reached at a name, not the "
                                 f"address {rp_id} (browsers take no IP address as a passkey's "
                                 f"site): open it at http://localhost or its host name, or set "
                                 f"MEEPLE_RP_ID")
    for origin in origins:
        name = urlsplit(origin).hostname or ""
        if name != rp_id and not name.endswith("." + rp_id):
            raise HTTPException(400, f"this server's passkeys are for {rp_id} (MEEPLE_RP_ID), "
                                     f"but this request came to {name}: open the server at "
                                     f"{rp_id} to use passkeys")
    return RelyingParty(rp_id, origins)


def decode(value: str, what: str) -> bytes:
    """Base64url ``value`` as bytes, or 400 naming ``what``."""
    from webauthn import base64url_to_bytes

    try:
        return base64url_to_bytes(value)
    except (binascii.Error, ValueError):
        raise HTTPException(400, f"{what} is not base64url") from None


def challenge_of(credential: Credential) -> bytes:
    """The challenge the answer's ``clientDataJSON`` names, or 400 saying what is wrong."""
    raw = decode(credential.response.clientDataJSON, "response.clientDataJSON")
    try:
        data = loads_strict(raw, "response.clientDataJSON")
    except BadInput as exc:
        raise HTTPException(400, str(exc)) from None
    challenge = data.get("challenge") if isinstance(data, dict) else None
    if not isinstance(challenge, str) or not 1 <= len(challenge) <= 200:
        raise HTTPException(400, "response.clientDataJSON names no challenge: it is not a "
                                 "WebAuthn client data object")
    return decode(challenge, "the challenge of response.clientDataJSON")


def new_challenge() -> bytes:
    return secrets.token_bytes(CHALLENGE_BYTES)


def expires() -> Any:
    return now() + CEREMONY


def options_json(options: Any) -> dict[str, Any]:
    """WebAuthn options as the JSON a page turns into ``publicKey`` (base64url bytes)."""
    from webauthn import options_to_json

    out: dict[str, Any] = json.loads(options_to_json(options))
    return out


def _descriptors(credentials: list[tuple[str, tuple[str, ...]]]
                 ) -> list[PublicKeyCredentialDescriptor]:
    from webauthn import base64url_to_bytes
    from webauthn.helpers.structs import AuthenticatorTransport, PublicKeyCredentialDescriptor

    allowed = known_transports()
    return [PublicKeyCredentialDescriptor(
        id=base64url_to_bytes(cid),
        transports=[AuthenticatorTransport(t) for t in named if t in allowed] or None)
        for cid, named in credentials]


def registration_options(rp: RelyingParty, user_id: str, username: str, display_name: str,
                         challenge: bytes, exclude: list[tuple[str, tuple[str, ...]]]
                         ) -> dict[str, Any]:
    """The options of ``navigator.credentials.create()`` for a discoverable passkey of the
    account ``user_id`` (its user handle: the account id, no personal data), none of the
    credentials in ``exclude`` (the account's own) made again."""
    from webauthn import generate_registration_options
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    return options_json(generate_registration_options(
        rp_id=rp.id, rp_name=RP_NAME, user_id=user_id.encode("ascii"), user_name=username,
        user_display_name=display_name, challenge=challenge, timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=_descriptors(exclude)))


def authentication_options(rp: RelyingParty, challenge: bytes,
                           allow: list[tuple[str, tuple[str, ...]]] | None = None
                           ) -> dict[str, Any]:
    """The options of ``navigator.credentials.get()``: any discoverable passkey of this site
    (``allow``: only these)."""
    from webauthn import generate_authentication_options
    from webauthn.helpers.structs import UserVerificationRequirement

    return options_json(generate_authentication_options(
        rp_id=rp.id, challenge=challenge, timeout=TIMEOUT_MS,
        allow_credentials=_descriptors(allow or []),
        user_verification=UserVerificationRequirement.PREFERRED))


def _reason(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    cause = exc.__cause__
    if "__cause__" in text and cause is not None:
        text = text.split(". See __cause__")[0] + f" ({str(cause)[:200] or type(cause).__name__})"
    return text[:300]


def check_new(credential: Credential) -> None:
    """400 unless ``credential`` is shaped as a ``navigator.credentials.create()`` answer."""
    if credential.response.attestationObject is None:
        raise HTTPException(400, "the credential has no response.attestationObject: send the "
                                 "answer of navigator.credentials.create(); nothing was added")


def verify_new(credential: Credential, challenge: bytes, rp: RelyingParty) -> NewCredential:
    """The passkey a ``navigator.credentials.create()`` answer made, checked against the
    challenge and the relying party; 400 saying what is wrong."""
    from webauthn import verify_registration_response
    from webauthn.helpers import bytes_to_base64url

    check_new(credential)
    try:
        verified = verify_registration_response(
            credential=credential.model_dump(exclude_none=True), expected_challenge=challenge,
            expected_rp_id=rp.id, expected_origin=list(rp.origins))
    except Exception as exc:  # any answer that does not verify (its parsers' errors too)
        raise HTTPException(400, f"the passkey was not accepted: {_reason(exc)}; nothing was "
                                 f"added") from None
    if verified.credential_id != decode(credential.rawId, "rawId"):
        raise HTTPException(400, "the credential's rawId is not the id its authenticator "
                                 "data gives; nothing was added")
    if len(verified.credential_id) > 1023 or len(verified.credential_public_key) > MAX_PUBLIC_KEY:
        raise HTTPException(400, f"the credential's id (at most 1023 bytes) or its public key "
                                 f"(at most {MAX_PUBLIC_KEY} bytes) is too long; nothing was "
                                 f"added")
    transports = tuple(dict.fromkeys(t for t in credential.response.transports or ()
                                     if t in known_transports()))
    return NewCredential(bytes_to_base64url(verified.credential_id),
                         verified.credential_public_key, verified.sign_count, transports)


#: The refusal of an answer to a challenge that is not known (never given, answered already,
#: expired, or given for another ceremony or account).
UNKNOWN_CHALLENGE = ("this passkey answer's challenge is unknown, answered already or expired "
                     "(a challenge is good for one answer within 5 minutes): ask for new "
                     "options and try again")


async def take_challenge(accounts: AccountService, credential: Credential, purpose: str,
                         account_id: str | None = None) -> tuple[bytes, dict[str, Any],
                                                                 str | None]:
    """The challenge the answer names, taken (single use): its bytes, its data and its
    account; 400 if it is unknown for ``purpose`` (and ``account_id``)."""
    challenge = challenge_of(credential)
    taken = await asyncio.to_thread(accounts.passkeys.take_challenge, challenge, purpose)
    if taken is None or (account_id is not None and taken.account_id != account_id):
        raise HTTPException(400, UNKNOWN_CHALLENGE)
    return challenge, taken.data, taken.account_id


async def verify_assertion(accounts: AccountService, conn: HTTPConnection,
                           credential: Credential, purpose: str,
                           account_id: str | None = None) -> Account:
    """The account a ``navigator.credentials.get()`` answer signs in (``purpose`` signin) or
    confirms (``confirm``, for ``account_id``), once its challenge is taken, its passkey
    found, its signature checked and its signature counter moved forward (recorded, with the
    passkey's last use). 400 for an unknown challenge, 401 for an answer that does not
    verify; nothing is changed then."""
    from webauthn import verify_authentication_response

    rp = relying_party(conn, accounts.settings)
    response = credential.response
    if response.authenticatorData is None or response.signature is None:
        raise HTTPException(400, "the credential has no response.authenticatorData or "
                                 "response.signature: send the answer of "
                                 "navigator.credentials.get()")
    challenge, _, _ = await take_challenge(accounts, credential, purpose, account_id)
    found = await asyncio.to_thread(accounts.passkeys.find, credential.id)
    if found is None:
        raise HTTPException(401, "this passkey is not registered here (it may have been "
                                 "removed, or its account deleted): sign in another way")
    passkey, public_key, account = found
    if account_id is not None and account.id != account_id:
        raise HTTPException(401, "this passkey is not one of this account's")
    if response.userHandle and decode(response.userHandle, "response.userHandle") != \
            account.id.encode("ascii"):
        raise HTTPException(401, "the passkey's user handle is not its account's: it was not "
                                 "accepted")
    try:
        verified = verify_authentication_response(
            credential=credential.model_dump(exclude_none=True), expected_challenge=challenge,
            expected_rp_id=rp.id, expected_origin=list(rp.origins),
            credential_public_key=public_key, credential_current_sign_count=0)
    except Exception as exc:  # any answer that does not verify (its parsers' errors too)
        raise HTTPException(401, f"the passkey was not accepted: {_reason(exc)}") from None
    old, new = passkey.sign_count, verified.new_sign_count
    if (old or new) and new <= old:
        raise HTTPException(401, f"the passkey's signature counter went back or stood still "
                                 f"({new} after {old}): it may have been copied, so it was "
                                 f"not accepted; use another way to sign in and remove it")
    if not await asyncio.to_thread(accounts.passkeys.used, passkey.id, old, new):
        raise HTTPException(401, "this passkey was used by another sign-in at the same moment; "
                                 "try again")
    return account


__all__ = [
    "CEREMONY",
    "Credential",
    "RelyingParty",
    "authentication_options",
    "challenge_of",
    "check_new",
    "registration_options",
    "relying_party",
    "take_challenge",
    "verify_assertion",
    "verify_new",
]
