"""E-mail notifications: the SMTP settings, the signed links in a mail, what each
mail says, and the process's sender of the outbox (:class:`meeple.server.features.mail.store.Mailbox`).

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
import math
import os
import re
import smtplib
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from meeple.server.features.mail.store import Mail, Mailbox
from meeple.store import Store

log = logging.getLogger("meeple.server")

#: The settings: (environment variable, default).
ENV: dict[str, tuple[str, str]] = {
    "smtp_url": ("MEEPLE_SMTP_URL", ""),
    "mail_from": ("MEEPLE_MAIL_FROM", "meeple <meeple@localhost>"),
    "public_url": ("MEEPLE_PUBLIC_URL", "http://127.0.0.1:8000"),
    "retry": ("MEEPLE_MAIL_RETRY", "30"),
    "tries": ("MEEPLE_MAIL_TRIES", "10"),
}
#: The longest wait between two tries of one mail (seconds).
RETRY_MAX = 3600.0
#: How long a claimed mail is this process's before another may take it (seconds): well past
#: an SMTP conversation's time limit.
LEASE = 300.0
#: Seconds an SMTP connection may take to answer.
SMTP_TIMEOUT = 30.0
#: How long a verification link holds (seconds), and how many verification mails an account
#: may have sent a day.
VERIFY_TTL, VERIFY_PER_DAY = 7 * 86400, 5
#: An address as kept: at most 254 characters, one ``@``, no spaces or control characters,
#: a domain with a dot (what the mail server is asked for; the link proves the rest).
EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f<>\"(),;:\\\[\]]{1,64}@[A-Za-z0-9-]{1,63}"
                   r"(\.[A-Za-z0-9-]{1,63})+")


@dataclass(frozen=True)
class SmtpTarget:
    """Where mail is handed over: ``tls`` is ``ssl`` (smtps://, TLS from the first byte),
    ``starttls`` (``?starttls=1``) or none."""

    host: str
    port: int
    tls: str
    user: str | None
    password: str | None
    timeout: float = SMTP_TIMEOUT

    def describe(self) -> str:
        who = f"{self.user}@" if self.user else ""
        return f"{'smtps' if self.tls == 'ssl' else 'smtp'}://{who}{self.host}:{self.port}" + \
            ("?starttls=1" if self.tls == "starttls" else "")


def parse_smtp_url(url: str) -> SmtpTarget:
    """``smtp://[user:password@]host[:port][?starttls=1&timeout=S]`` or ``smtps://...``; a
    bad URL raises :class:`ValueError` saying what one looks like."""
    shape = ("MEEPLE_SMTP_URL is smtp://[user:password@]host[:port][?starttls=1] or "
             "smtps://[user:password@]host[:port] (user and password URL-encoded)")
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"{shape}; not {_shown(url)}")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    unknown = set(query) - {"starttls", "timeout"}
    if unknown:
        raise ValueError(f"{shape}; {', '.join(sorted(unknown))} is not a setting of it "
                         "(starttls, timeout)")
    starttls = query.get("starttls", "0").lower() in ("1", "true", "yes")
    tls = "ssl" if parts.scheme == "smtps" else "starttls" if starttls else "none"
    try:
        port = parts.port or (465 if tls == "ssl" else 587 if starttls else 25)
        timeout = float(query.get("timeout", SMTP_TIMEOUT))
    except ValueError:
        raise ValueError(f"{shape}; its port or timeout is not a number") from None
    if not (0 < timeout <= 300 and math.isfinite(timeout)):
        raise ValueError(f"{shape}; timeout is 1 to 300 seconds")
    return SmtpTarget(parts.hostname, port, tls,
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None, timeout)


def _shown(url: str) -> str:
    """A URL as an error shows it: without its password."""
    parts = urlsplit(url)
    if parts.password:
        url = url.replace(f":{parts.password}@", ":(hidden)@")
    return repr(url[:200])


@dataclass(frozen=True)
class MailSettings:
    """The mail settings (see :data:`ENV`)."""

    smtp: SmtpTarget | None = None
    mail_from: str = ENV["mail_from"][1]
    public_url: str = ENV["public_url"][1]
    #: seconds before a failed mail's first retry (doubled at each, at most an hour)
    retry: float = 30.0
    tries: int = 10

    @property
    def enabled(self) -> bool:
        return self.smtp is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings:
        """The settings from the environment; a bad value raises :class:`ValueError` naming
        its variable and what it may be."""
        env = os.environ if env is None else env
        raw = {name: env.get(var, default).strip() for name, (var, default) in ENV.items()}
        smtp = parse_smtp_url(raw["smtp_url"]) if raw["smtp_url"] else None
        public = raw["public_url"].rstrip("/")
        if urlsplit(public).scheme not in ("http", "https") or not urlsplit(public).hostname:
            raise ValueError(f"MEEPLE_PUBLIC_URL={public!r} is not the server's address as "
                             "people reach it, such as https://meeple.example.org")
        if not raw["mail_from"] or any(ch in raw["mail_from"] for ch in "\r\n"):
            raise ValueError("MEEPLE_MAIL_FROM is the sender of the mails, such as "
                             "'meeple <meeple@example.org>' (one line)")
        try:
            retry, tries = float(raw["retry"]), int(raw["tries"])
            if not (0 < retry <= RETRY_MAX and math.isfinite(retry)) or not 1 <= tries <= 100:
                raise ValueError
        except ValueError:
            raise ValueError("MEEPLE_MAIL_RETRY is the seconds before a failed mail is tried "
                             "again (above 0, at most 3600) and MEEPLE_MAIL_TRIES how many "
                             "times a mail is tried (1 to 100)") from None
        return cls(smtp, raw["mail_from"], public, retry, tries)


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
            "rematch": "someone invites you to a rematch"}[kind]
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
    "ENV",
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


