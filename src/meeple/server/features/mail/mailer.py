"""E-mail notifications: handing a mail over by SMTP (where to: :mod:`.settings`), the signed
links in a mail, what each mail says, and the process's sender of the outbox
(:class:`meeple.server.features.mail.store.Mailbox`).

Mail is sent only when ``MEEPLE_SMTP_URL`` is set. A mail is queued in the database (never sent
on the move path) and sent by a background task of each server process, in a thread, with the
standard library's :mod:`smtplib`: a row is claimed first (one process sends it), and a mail
the server could not hand over (down, a 4xx answer) is tried again with backoff. Nothing but
an address's verification is sent to an address not verified yet; a mail never carries a
seat's secret: its links open the table (signed in, the page plays the account's seat) and
turn that kind of mail off.

Links are signed with an HMAC-SHA256 of the server's key (``MEEPLE_SECRET_KEY``, else a key
made once and kept in the database) and carry nothing secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.policy
import hashlib
import hmac
import logging
import re
import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import urlencode

from meeple.server.features.mail.settings import (
    RETRY_MAX,
    MailSettings,
    SmtpTarget,
    parse_smtp_url,
)
from meeple.server.features.mail.store import Mail, Mailbox
from meeple.store import Store

log = logging.getLogger("meeple.server")

#: How long a claimed mail is this process's before another may take it (seconds): well past
#: an SMTP conversation's time limit.
LEASE = 300.0
#: How long a verification link holds (seconds), and how many verification mails an account
#: may have sent a day.
VERIFY_TTL, VERIFY_PER_DAY = 7 * 86400, 5
#: An address as kept: at most 254 characters, one ``@``, no spaces or control characters,
#: a domain with a dot (what the mail server is asked for; the link proves the rest).
EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f<>\"(),;:\\\[\]]{1,64}@[A-Za-z0-9-]{1,63}"
                   r"(\.[A-Za-z0-9-]{1,63})+")


def valid_email(value: str) -> str:
    """An address as kept (the domain lower-cased), or :class:`ValueError` saying what one
    is."""
    text = value.strip()
    if len(text) > 254 or not EMAIL.fullmatch(text) or not text.isascii():
        raise ValueError("an e-mail address is name@example.org: at most 254 characters, "
                         "one @, no spaces, a domain with a dot")
    local, _, domain = text.rpartition("@")
    return f"{local}@{domain.lower()}"


def email_digest(email: str) -> str:
    """What a verification link names the address by (it never carries the address)."""
    return hashlib.sha256(email.encode("utf-8")).hexdigest()[:24]


# ------------------------------------------------------------------------------ signed links
class Signer:
    """Signs and checks the links in mails with an HMAC-SHA256 of the server's key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def sign(self, *parts: str) -> str:
        return hmac.new(self._key, "\0".join(("meeple-mail", *parts)).encode("utf-8"),
                        hashlib.sha256).hexdigest()

    def good(self, signature: str, *parts: str) -> bool:
        return hmac.compare_digest(signature.encode("ascii", "replace"),
                                   self.sign(*parts).encode("ascii"))

    def verify_query(self, account: str, email: str, expires: int) -> dict[str, str]:
        digest = email_digest(email)
        return {"a": account, "e": digest, "x": str(expires),
                "s": self.sign("verify", account, digest, str(expires))}

    def unsubscribe_query(self, account: str, kind: str) -> dict[str, str]:
        return {"a": account, "k": kind, "s": self.sign("unsubscribe", account, kind)}


# ------------------------------------------------------------------------------ what mails say
@dataclass(frozen=True)
class Letter:
    """A mail to queue: its subject, its text and its extra headers."""

    subject: str
    body: str
    headers: dict[str, str]


def letter(settings: MailSettings, signer: Signer, account: str, kind: str, subject: str,
           lines: list[str], table: str | None = None) -> Letter:
    """A notification of ``kind``: ``lines``, the table's link, the link that turns this
    kind of mail off (a page with a button) and the RFC 8058 one-click headers."""
    base = settings.public_url
    query = urlencode(signer.unsubscribe_query(account, kind))
    when = {"turn": "it is your turn at a turn-based table",
            "ended": "a turn-based game of yours ends",
            "rematch": "someone invites you to a rematch",
            "challenge": "someone challenges you to a turn-based game"}[kind]
    text = list(lines)
    if table is not None:
        text += ["", f"Open the table: {base}/t/{table}"]
    text += ["", "--", f"You get this mail because you asked meeple to write to you when "
             f"{when}.",
             f"To stop these mails, open this link and press the button: "
             f"{base}/mail/unsubscribe?{query}",
             f"All your mail settings: {base}/account"]
    return Letter(subject, "\n".join(text) + "\n", {
        "List-Unsubscribe": f"<{base}/api/mail/one-click?{query}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})


def verify_letter(settings: MailSettings, signer: Signer, account: str, display: str,
                  email: str, expires: int) -> Letter:
    query = urlencode(signer.verify_query(account, email, expires))
    link = f"{settings.public_url}/mail/verify?{query}"
    return Letter("Confirm your e-mail address for meeple", "\n".join([
        f"Hello {display},", "",
        "Someone, we hope you, gave this address to a meeple account. Before meeple",
        "writes to it (when it is your turn at a turn-based table, when a game ends,",
        "when someone invites you to a rematch), please confirm that it is yours: open",
        "this link and press the button.", "",
        link, "",
        "The link works for 7 days. If it was not you, ignore this mail: nothing else is",
        "sent to this address unless it is confirmed."]) + "\n", {})


# ------------------------------------------------------------------------------ sending
class Permanent(Exception):
    """The mail server refused a mail for good (a 5xx answer): it is not tried again."""


#: How a mail is written: the default policy, but a header set raw (the extra headers: our
#: own ASCII) goes out as written. The default refolds a line over 78 characters, and
#: List-Unsubscribe's ``<URL>`` (RFC 2369, 8058) has no space to fold at, so it was written as
#: RFC 2047 encoded-words, which no mail program reads as a link to offer unsubscribing by.
SENT = email.policy.default.clone(refold_source="none")


def deliver(target: SmtpTarget, mail_from: str, mail: Mail) -> None:
    """Hand ``mail`` to the SMTP server (in a thread: it blocks). Raises :class:`Permanent`
    for a refusal for good, another exception for one to try again."""
    msg = EmailMessage(policy=SENT)
    msg["From"] = mail_from
    msg["To"] = mail.to
    msg["Subject"] = mail.subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=mail_from.rpartition("@")[2].strip(" >") or None)
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(mail.body)
    for name, value in mail.headers.items():
        msg.set_raw(name, value)  # as written (see SENT)
    smtp: smtplib.SMTP
    try:
        if target.tls == "ssl":
            smtp = smtplib.SMTP_SSL(target.host, target.port, timeout=target.timeout,
                                    context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(target.host, target.port, timeout=target.timeout)
        with smtp:
            if target.tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if target.user:
                smtp.login(target.user, target.password or "")
            smtp.send_message(msg)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        if all(code >= 500 for code in codes):
            raise Permanent(f"the mail server refused the address: {codes}") from None
        raise
    except smtplib.SMTPResponseException as exc:
        if exc.smtp_code >= 500 and not isinstance(exc, smtplib.SMTPAuthenticationError):
            raise Permanent(f"the mail server refused the mail: {exc.smtp_code}") from None
        raise


def backoff(settings: MailSettings, tries: int) -> float:
    """Seconds before the next try of a mail tried ``tries`` times: the first retry after
    ``MEEPLE_MAIL_RETRY``, each later one twice as late, at most an hour."""
    return float(min(RETRY_MAX, settings.retry * 2 ** max(0, tries - 1)))


class Mailer:
    """This process's sender: sends the outbox's due mails, each claimed first, in a thread;
    woken when a mail is queued here, else it looks every few seconds."""

    def __init__(self, store: Store, settings: MailSettings, who: str) -> None:
        self.box = Mailbox(store)
        self.settings = settings
        self.who = who
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.settings.enabled and self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        every = min(5.0, self.settings.retry)
        while True:
            sent = 0
            try:
                sent = await self.send_due()
            except Exception:  # the store unavailable, say: next time
                log.warning("the mail outbox could not be read; trying again in %g s", every,
                            exc_info=True)
            if sent:
                continue
            assert self._wake is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), every)
            self._wake.clear()

    async def send_due(self) -> int:
        """Send the mails due now (claimed first): how many were handed over."""
        mails = await asyncio.to_thread(self.box.claim, self.who, 20, LEASE)
        sent = 0
        for mail in mails:
            sent += await asyncio.to_thread(self._send, mail)
        return sent

    def _send(self, mail: Mail) -> int:
        target = self.settings.smtp
        assert target is not None
        try:
            deliver(target, self.settings.mail_from, mail)
        except Permanent as exc:
            log.warning("mail %s (%s) refused for good: %s", mail.id, mail.kind, exc)
            self.box.failed(mail.id, self.who, str(exc))
            return 0
        except (TimeoutError, OSError, smtplib.SMTPException) as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
            if mail.tries >= self.settings.tries:
                log.warning("mail %s (%s) given up after %d tries: %s", mail.id, mail.kind,
                            mail.tries, why)
                self.box.failed(mail.id, self.who, why)
            else:
                after = backoff(self.settings, mail.tries)
                log.info("mail %s (%s) not sent (%s); trying again in %g s", mail.id,
                         mail.kind, why, after)
                self.box.again(mail.id, self.who, why, after)
            return 0
        self.box.sent(mail.id, self.who)
        return 1


def expires_in(seconds: float) -> int:
    return int(time.time() + seconds)


__all__ = [
    "EMAIL",
    "LEASE",
    "VERIFY_PER_DAY",
    "VERIFY_TTL",
    "Letter",
    "MailSettings",
    "Mailer",
    "Permanent",
    "Signer",
    "SmtpTarget",
    "backoff",
    "deliver",
    "email_digest",
    "expires_in",
    "letter",
    "parse_smtp_url",
    "valid_email",
    "verify_letter",
]


