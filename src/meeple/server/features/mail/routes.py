"""E-mail: an account's address (verified by a signed link before anything else is
sent to it) and its mail preferences, and the signed links of a mail: the address's
verification and one-click unsubscribing (a page with a button, or the RFC 8058 one-click POST
a mail program sends). ``src/meeple/server/features/mail/README.md`` says what each does."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.requests import HTTPConnection

from meeple.server.features.accounts.sessions import AccountsDep
from meeple.server.features.mail.mailer import (
    VERIFY_PER_DAY,
    VERIFY_TTL,
    email_digest,
    expires_in,
    valid_email,
    verify_letter,
)
from meeple.server.features.mail.notices import Notifier
from meeple.server.features.mail.store import KINDS, Mailbox
from meeple.server.quotas import ThrottledRoute
from meeple.server.site import site_of
from meeple.store.models import now

router = APIRouter(route_class=ThrottledRoute)

#: An account id and a signature as links carry them.
_ID = re.compile(r"[0-9a-f]{16}")
_SIG = re.compile(r"[0-9a-f]{64}")


def get_notifier(conn: HTTPConnection) -> Notifier:
    return site_of(conn).notifier


NotifierDep = Annotated[Notifier, Depends(get_notifier)]


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str | None = Field(max_length=400, description=(
        "the address (name@example.org, at most 254 characters), or null to remove it"))


class NotifyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: StrictBool | None = Field(None, description="your turn at a turn-based table")
    ended: StrictBool | None = Field(None, description="a turn-based game of yours ended")
    rematch: StrictBool | None = Field(None, description="a rematch invitation")
    challenge: StrictBool | None = Field(None, description="a challenge to a turn-based game")


class VerifyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: str = Field(max_length=64, description="the account (from the link)")
    e: str = Field(max_length=64, description="the address's digest (from the link)")
    x: int = Field(ge=0, le=1 << 40, description="when the link ends (from the link)")
    s: str = Field(max_length=128, description="the link's signature")


class UnsubscribeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: str = Field(max_length=64, description="the account (from the link)")
    k: str = Field(max_length=16, description="the kind of mail: turn, ended or rematch")
    s: str = Field(max_length=128, description="the link's signature")


class MailOut(BaseModel):
    email: str | None
    email_verified: bool
    notify: dict[str, bool]
    mail: bool = Field(description="whether this server sends mail at all (MEEPLE_SMTP_URL)")


def _bad_link(what: str) -> HTTPException:
    return HTTPException(403, f"this {what} link is not one this server signed (it was "
                              "changed or cut short): nothing was changed; open the link "
                              "from the mail whole, or change your mail settings at /account")


async def _mail_out(request: Request, accounts: AccountsDep, notifier: Notifier
                    ) -> MailOut:
    signed = await accounts.require(request)
    got = await asyncio.to_thread(Mailbox(notifier.store).contact, signed.account.id)
    if got is None:
        raise HTTPException(401, "this account was deleted")
    email, verified, notify = got
    return MailOut(email=email, email_verified=verified, notify=notify,
                   mail=notifier.settings.enabled)


@router.get("/api/me/mail")
async def my_mail(request: Request, accounts: AccountsDep, notifier: NotifierDep) -> MailOut:
    """The account's address, whether it is verified, its mail preferences, and whether
    this server sends mail at all."""
    return await _mail_out(request, accounts, notifier)


@router.put("/api/me/email")
async def set_email(body: EmailIn, request: Request, accounts: AccountsDep,
                    notifier: NotifierDep) -> MailOut:
    """Give the account an address (or none: null): it is kept unverified and a mail with a
    signed link to verify it is sent to it; nothing else is sent to it until then. At most
    5 verification mails an account a day (429 beyond); 409 if this server sends no mail."""
    signed = await accounts.require(request)
    aid = signed.account.id
    box = Mailbox(notifier.store)
    if body.email is None:
        await asyncio.to_thread(box.set_email, aid, None)
        return await _mail_out(request, accounts, notifier)
    if not notifier.settings.enabled:
        raise HTTPException(409, "this server sends no e-mail (its MEEPLE_SMTP_URL is not "
                                 "set), so it keeps no address")
    try:
        email = valid_email(body.email)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    sent = await asyncio.to_thread(box.queued_since, aid, "verify", now() - timedelta(days=1))
    if sent >= VERIFY_PER_DAY:
        raise HTTPException(429, f"{sent} verification mails were sent for this account in "
                                 f"the last day (at most {VERIFY_PER_DAY}); try again "
                                 "tomorrow", headers={"Retry-After": "86400"})
    await asyncio.to_thread(box.set_email, aid, email)
    mail = verify_letter(notifier.settings, await notifier.signer(), aid,
                         signed.account.display_name, email, expires_in(VERIFY_TTL))
    key = f"verify:{aid}:{email_digest(email)}:{time.time_ns()}"
    if await asyncio.to_thread(box.enqueue, key, aid, "verify", email, mail.subject, mail.body,
                               mail.headers):
        notifier.mailer.wake()
    return await _mail_out(request, accounts, notifier)


@router.patch("/api/me/notify")
async def set_notify(body: NotifyIn, request: Request, accounts: AccountsDep,
                     notifier: NotifierDep) -> MailOut:
    """Turn kinds of mail on or off (the others kept)."""
    signed = await accounts.require(request)
    changes = {k: v for k, v in body.model_dump().items() if v is not None}
    await asyncio.to_thread(Mailbox(notifier.store).set_notify, signed.account.id, changes)
    return await _mail_out(request, accounts, notifier)


@router.post("/api/mail/verify")
async def verify(body: VerifyIn, notifier: NotifierDep) -> dict[str, Any]:
    """The verification link's button: the account's address is verified if the link is
    signed by this server, has not ended and names the address the account has now."""
    signer = await notifier.signer()
    if not (_ID.fullmatch(body.a) and _SIG.fullmatch(body.s)) or \
            not signer.good(body.s, "verify", body.a, body.e, str(body.x)):
        raise _bad_link("verification")
    if body.x < time.time():
        raise HTTPException(410, "this verification link has ended (it holds for 7 days): "
                                 "give the address again at /account for a new one")
    box = Mailbox(notifier.store)
    got = await asyncio.to_thread(box.contact, body.a)
    email = got[0] if got is not None else None
    if email is None or email_digest(email) != body.e:
        raise HTTPException(409, "this link is for an address the account no longer has: "
                                 "nothing was changed")
    await asyncio.to_thread(box.verify, body.a, email)
    return {"verified": True, "email": email}


async def _unsubscribe(a: str, k: str, s: str, notifier: Notifier) -> dict[str, Any]:
    signer = await notifier.signer()
    if k not in KINDS:
        raise HTTPException(400, f"{k[:16]!r} is no kind of mail here: {', '.join(KINDS)}")
    if not (_ID.fullmatch(a) and _SIG.fullmatch(s)) or not signer.good(s, "unsubscribe", a, k):
        raise _bad_link("unsubscribe")
    box = Mailbox(notifier.store)
    if await asyncio.to_thread(box.contact, a) is None:
        raise HTTPException(404, "this account was deleted: it gets no mail")
    prefs = await asyncio.to_thread(box.set_notify, a, {k: False})
    return {"unsubscribed": k, "notify": prefs}


@router.post("/api/mail/unsubscribe")
async def unsubscribe(body: UnsubscribeIn, notifier: NotifierDep) -> dict[str, Any]:
    """The unsubscribe page's button: that kind of mail is turned off for the account."""
    return await _unsubscribe(body.a, body.k, body.s, notifier)


@router.post("/api/mail/one-click")
async def one_click(request: Request, notifier: NotifierDep, a: str = "", k: str = "",
                    s: str = "") -> dict[str, Any]:
    """RFC 8058 one-click unsubscribing: the POST a mail program sends to the mail's
    ``List-Unsubscribe`` address with the body ``List-Unsubscribe=One-Click``."""
    body = (await request.body())[:1000]
    if b"List-Unsubscribe=One-Click" not in body:
        raise HTTPException(400, "a one-click unsubscribe is a POST whose body is "
                                 "List-Unsubscribe=One-Click (RFC 8058)")
    return await _unsubscribe(a[:64], k[:16], s[:128], notifier)


__all__ = ["router"]
