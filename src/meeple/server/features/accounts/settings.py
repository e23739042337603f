"""The accounts' settings section (``accounts`` in :mod:`meeple.settings`): the key of the
CSRF tokens and mail links, sessions, the sign-in and sign-up rates, and the passkeys' relying
party (:mod:`.sessions`, :mod:`.passkeys`)."""

from __future__ import annotations

import ipaddress
import re
from datetime import timedelta
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, model_validator

from meeple.sections import (
    A_COUNT,
    A_POSITIVE,
    A_RATE,
    Count,
    Positive,
    Rate,
    Section,
    at_least,
    origin_of,
    setting,
)


def is_address(host: str) -> bool:
    """Whether ``host`` is an IP address (``[::1]`` too)."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _secret_key(value: str) -> str:
    if value and len(value) < 32:
        raise ValueError("too short")
    return value


#: A relying party id: a host name (never an address), as browsers take one.
_RP_ID = re.compile(r"(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
                    r"(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")


def _rp_id(value: str) -> str:
    name = value.lower()
    if name and (not _RP_ID.fullmatch(name) or is_address(name)):
        raise ValueError(value)
    return name


def _rp_origin(value: str) -> str:
    return ",".join(origin_of(o) for o in value.split(",") if o.strip())


class AccountSettings(Section):
    """The accounts' settings: sessions, sign-ins and passkeys."""

    title = "accounts, sessions and passkeys"

    secret_key: Annotated[str, AfterValidator(_secret_key)] = setting(
        "MEEPLE_SECRET_KEY", "", "the key of CSRF tokens and mail links; unset: one made once "
        "and kept in the database", "at least 32 characters (or unset)", secret=True)
    session_days: Annotated[float, AfterValidator(at_least(0, above=True, high=3650))] = \
        setting("MEEPLE_SESSION_DAYS", 30.0, "a session ends this many days after it was last "
                "seen", "a number of days above 0 (at most 3650)")
    sessions_per_account: Positive = setting(
        "MEEPLE_SESSIONS_PER_ACCOUNT", 50, "live sessions an account may have (a new one beyond "
        "revokes the oldest)", A_POSITIVE)
    signin: Rate = setting("MEEPLE_RATE_SIGNIN", "20/minute;200/hour", "sign-ins a client may "
                           "try", A_RATE)
    signin_user: Rate = setting("MEEPLE_RATE_SIGNIN_USER", "10/minute;50/hour", "failed "
                                "sign-ins (and password checks) a username may have", A_RATE)
    signup: Rate = setting("MEEPLE_RATE_SIGNUP", "20/hour", "sign-ups a client may make",
                           A_RATE)
    password: Rate = setting("MEEPLE_RATE_PASSWORD", "5/minute;20/hour", "password changes "
                             "and confirmations an account, and a client, may ask", A_RATE)
    ceremony: Rate = setting("MEEPLE_RATE_CEREMONY", "10/minute;60/hour", "passkey ceremonies "
                             "an account, and a client, may ask for", A_RATE)
    token: Rate = setting("MEEPLE_RATE_TOKEN", "300/minute;5000/hour", "requests (and "
                          "WebSocket handshakes) one API token may make", A_RATE)
    hash_per_client: Count = setting(
        "MEEPLE_HASH_PER_CLIENT", 1, "password hashes one client may have under way at once "
        "(0: no cap)", A_COUNT)
    rp_id: Annotated[str, AfterValidator(_rp_id)] = setting(
        "MEEPLE_RP_ID", "", "the passkeys' relying party id; unset: the request's Host name, "
        "or the first MEEPLE_RP_ORIGIN's", "a host name such as meeple.example.org (not an IP "
        "address: browsers take none as a passkey's relying party)")
    rp_origin: Annotated[str, AfterValidator(_rp_origin)] = setting(
        "MEEPLE_RP_ORIGIN", "", "the origins a passkey ceremony may come from; unset: the "
        "request's own", "origins (scheme://host[:port]) separated by commas, such as "
        "https://meeple.example.org")

    @model_validator(mode="after")
    def _origins_on_the_relying_party(self) -> AccountSettings:
        """Each origin is on the relying party id (its host or a subdomain), and without an
        id none names an address (browsers take no address as a relying party)."""
        for origin in self.rp_origins:
            host = urlsplit(origin).hostname or ""
            if self.rp_id and host != self.rp_id and not host.endswith("." + self.rp_id):
                raise ValueError(f"MEEPLE_RP_ORIGIN={origin!r} is not on MEEPLE_RP_ID="
                                 f"{self.rp_id!r}: a passkey's origin must be its relying "
                                 f"party's host or a subdomain of it")
            if not self.rp_id and is_address(host):
                raise ValueError(f"MEEPLE_RP_ORIGIN={origin!r} names an IP address; passkeys "
                                 f"need a host name (browsers take no address as a relying "
                                 f"party): give a name, or MEEPLE_RP_ID")
        return self

    @property
    def rp_origins(self) -> tuple[str, ...]:
        """:attr:`rp_origin` as a tuple (empty: the request's own origin)."""
        return tuple(o for o in self.rp_origin.split(",") if o)

    @property
    def lifetime(self) -> timedelta:
        return timedelta(days=self.session_days)


__all__ = ["AccountSettings", "is_address"]
