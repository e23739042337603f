"""The mail's settings section (``mail`` in :mod:`meeple.settings`): where mail is handed
over (:func:`parse_smtp_url`), its sender, the links' address and the retries, read by
:mod:`.mailer` and :mod:`.notices`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import AfterValidator

from meeple.sections import Section, at_least, masked_url, setting

#: Seconds before an SMTP server must answer, unless the URL's ``timeout`` says otherwise.
SMTP_TIMEOUT = 30.0
#: The longest wait between two tries of one mail (seconds).
RETRY_MAX = 3600.0


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
        raise ValueError(f"{shape}; not {masked_url(url)!r}")
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


def _public_url(value: str) -> str:
    public = value.rstrip("/")
    if urlsplit(public).scheme not in ("http", "https") or not urlsplit(public).hostname:
        raise ValueError(value)
    return public


def _one_line(value: str) -> str:
    if not value or any(ch in value for ch in "\r\n"):
        raise ValueError("not one line")
    return value


def _smtp_url(value: str) -> str:
    if value:
        parse_smtp_url(value)
    return value


class MailSettings(Section):
    """The mail settings (mail is sent only with ``smtp_url``)."""

    title = "mail and turn-based notices"

    smtp_url: Annotated[str, AfterValidator(_smtp_url)] = setting(
        "MEEPLE_SMTP_URL", "", "where mail is handed over; unset: no mail is sent",
        "smtp://[user:password@]host[:port][?starttls=1] or smtps://[user:password@]host[:port]",
        secret=True)
    mail_from: Annotated[str, AfterValidator(_one_line)] = setting(
        "MEEPLE_MAIL_FROM", "meeple <meeple@localhost>", "the sender of the mails",
        "one line such as 'meeple <meeple@example.org>'")
    public_url: Annotated[str, AfterValidator(_public_url)] = setting(
        "MEEPLE_PUBLIC_URL", "http://127.0.0.1:8000", "the server's address as people reach it "
        "(the links in mails); meeple serve's default: http://HOST:PORT it listens on",
        "the server's address, such as https://meeple.example.org")
    retry: Annotated[float, AfterValidator(at_least(0, above=True, high=RETRY_MAX))] = setting(
        "MEEPLE_MAIL_RETRY", 30.0, "seconds before a failed mail's first retry (doubled at "
        "each, at most an hour)", "a number of seconds above 0, at most 3600")
    tries: Annotated[int, AfterValidator(at_least(1, high=100))] = setting(
        "MEEPLE_MAIL_TRIES", 10, "times a mail is tried", "a whole number from 1 to 100")

    @property
    def smtp(self) -> SmtpTarget | None:
        """Where mail goes (None: no mail is sent)."""
        return parse_smtp_url(self.smtp_url) if self.smtp_url else None

    @property
    def enabled(self) -> bool:
        return bool(self.smtp_url)


__all__ = ["RETRY_MAX", "SMTP_TIMEOUT", "MailSettings", "SmtpTarget", "parse_smtp_url"]
