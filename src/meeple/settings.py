"""Every ``MEEPLE_*`` setting of meeple: one typed model, read once when a process starts.

:class:`Settings` has a section (a nested model) per part of the server: ``server`` (the edge),
``store``, ``bots``, ``bot_shares``, ``hints`` (the hint lane), ``quotas``, ``accounts``,
``chat``, ``mail``, ``play_now``, ``testing``, and ``client`` (the terminal client's). Each field
keeps the flat environment variable it has always had (``MEEPLE_HINT_WORKERS`` is
``hints.workers``), its default and its meaning; its ``validation_alias`` names the variable
and a :class:`FlatEnvSource` (a pydantic-settings source) puts each variable under its section.

This is the only module that reads the environment for a setting. ``meeple serve`` builds a
:class:`Settings` (:meth:`Settings.from_env`) and passes it down: a bad value stops it with
exit code 2 and a message naming the variable and what it may be (:class:`SettingsError`);
nothing is written back to the environment. ``create_app(store)`` without settings reads
them at that moment (in-process tests patch ``os.environ``).

``python -m meeple.settings`` writes ``docs/settings.md``, the table of every setting
(:func:`settings_doc`); ``meeple serve --print-settings`` shows the values in force, secrets
masked (:func:`settings_report`).
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, ClassVar
from urllib.parse import parse_qs, unquote, urlsplit

from limits import RateLimitItem, parse_many
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

#: Seconds a bot may think a decision unless ``MEEPLE_BOT_DEADLINE`` says otherwise.
BOT_DEADLINE = 10.0
#: Seconds a hint may take, from the request, unless ``MEEPLE_HINT_DEADLINE`` says otherwise.
HINT_DEADLINE = 30.0
#: Seconds before an SMTP server must answer, unless the URL's ``timeout`` says otherwise.
SMTP_TIMEOUT = 30.0
#: The longest wait between two tries of one mail (seconds).
RETRY_MAX = 3600.0
#: What a masked secret is shown as.
HIDDEN = "(hidden)"


class SettingsError(ValueError):
    """One or more settings are bad: the message has a line for each, naming its variable
    and what it may be (never a secret's value)."""


# ------------------------------------------------------------------------------ the checks
def origin_of(url: str) -> str:
    """``url`` as a browser writes an ``Origin``: ``scheme://host[:port]`` in lower case, the
    scheme's default port left out; :class:`ValueError` for anything else (a path, another
    scheme, no host)."""
    text = url.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or \
            parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{url[:100]!r} is not an origin; give scheme and host (and port), "
                         f"e.g. https://meeple.example.org or http://192.0.2.7:8000")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url[:100]!r} has a port that is not a number from 0 to "
                         f"65535") from None
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def is_address(host: str) -> bool:
    """Whether ``host`` is an IP address (``[::1]`` too)."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


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


def masked_url(url: str) -> str:
    """A URL as it may be shown: its password replaced by ``(hidden)``, at most 200
    characters."""
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    if password:
        url = url.replace(f":{password}@", f":{HIDDEN}@")
    return url[:200]


def rate(text: str) -> list[RateLimitItem]:
    """The rate items of a setting (``5/10 seconds;60/hour`` as the ``limits`` library writes
    one); none for ``off`` or empty."""
    if text.lower() in ("", "off", "none", "0"):
        return []
    return list(parse_many(text))


def _rate(text: str) -> str:
    rate(text)
    return text


def _at_least(low: float, *, above: bool = False, high: float = math.inf
              ) -> Callable[[float], float]:
    """A check of a number: finite, at least ``low`` (above it with ``above``), at most
    ``high``."""
    def check(value: float) -> float:
        if not math.isfinite(value) or value < low or (above and value == low) or value > high:
            raise ValueError(value)
        return value
    return check


def _listed(value: Any) -> Any:
    """A comma-separated list (the variable's text) as a tuple of its non-empty items."""
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return value


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


def _fault(value: str) -> str:
    if value and not re.fullmatch(r"crash-after-commit:(create|join|finish)", value):
        raise ValueError(value)
    return value


Rate = Annotated[str, AfterValidator(_rate)]
Count = Annotated[int, AfterValidator(_at_least(0))]
Positive = Annotated[int, AfterValidator(_at_least(1))]
Seconds = Annotated[float, AfterValidator(_at_least(0))]
PositiveSeconds = Annotated[float, AfterValidator(_at_least(0, above=True))]
Listed = Annotated[tuple[str, ...], BeforeValidator(_listed)]

#: What each kind of value may be, for a refusal's sentence.
A_RATE = "a rate such as 30/minute or 5/10 seconds;60/hour (or off)"
A_COUNT = "a whole number, 0 or more (0: no cap)"
A_POSITIVE = "a whole number, 1 or more"
SOME_SECONDS = "a number of seconds, 0 or more"
SOME_POSITIVE = "a positive number"
A_LIST = "names separated by commas"


def setting(var: str, default: Any, what: str, allowed: str, *, secret: bool = False,
            empty_unset: bool = False) -> Any:
    """A field of a section: its environment variable, default, one line on what it does,
    what a value may be (for a refusal), whether it is a secret (masked when shown), and
    whether the variable set empty counts as unset (those read as "if set" before)."""
    return Field(default, validation_alias=var, description=what,
                 json_schema_extra={"allowed": allowed, "secret": secret,
                                    "empty_unset": empty_unset})


class Section(BaseModel):
    """A section of the settings: made from its variables (by alias) or in Python by field
    name (tests); never changed once made."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    #: the section's title in docs/settings.md and --print-settings
    title: ClassVar[str] = ""

    @classmethod
    def variable(cls, name: str) -> str:
        """The environment variable of the field ``name`` (what a refusal names)."""
        return str(cls.model_fields[name].validation_alias)


# ------------------------------------------------------------------------------ the sections
class ServerSettings(Section):
    title = "the edge: Hosts, origins, proxies, timeouts (meeple serve)"

    allowed_hosts: Listed = setting(
        "MEEPLE_ALLOWED_HOSTS", (), "Host names answered besides the loopback ones and --host "
        "(*.example.org for its subdomains, * for any); --allowed-host replaces them", A_LIST)
    allowed_origins: Listed = setting(
        "MEEPLE_ALLOWED_ORIGINS", (), "origins whose pages may open a WebSocket besides the "
        "server's own; --allowed-origin replaces them", "origins separated by commas")
    trusted_proxies: Listed = setting(
        "MEEPLE_TRUSTED_PROXIES", (), "reverse proxies (addresses or networks) whose "
        "X-Forwarded-For and -Proto are believed; --trusted-proxy replaces them",
        "addresses or networks separated by commas")
    api_docs: bool = setting("MEEPLE_API_DOCS", False, "serve Swagger UI at /docs",
                             "true or false (1 or 0)")
    head_timeout: Annotated[float, AfterValidator(_at_least(0.1, high=600))] = setting(
        "MEEPLE_HEAD_TIMEOUT", 10.0, "seconds a request's head may take to arrive",
        "a number of seconds from 0.1 to 600")
    body_timeout: Annotated[float, AfterValidator(_at_least(0.1, high=3600))] = setting(
        "MEEPLE_BODY_TIMEOUT", 30.0, "seconds a request's body may take after its head",
        "a number of seconds from 0.1 to 3600")
    http_per_client: Count = setting(
        "MEEPLE_HTTP_PER_CLIENT", 64, "HTTP connections one client may hold open at once "
        "(0: no cap)", A_COUNT)
    table_seeds: int | None = setting(
        "MEEPLE_TABLE_SEEDS", None, "tests and demos only: new tables' seeds follow from this "
        "number (unset: random)", "a whole number", empty_unset=True)


class StoreSettings(Section):
    title = "the database"

    database_url: str = setting(
        "MEEPLE_DATABASE_URL", "", "the database (sqlite:///FILE or "
        "postgresql+psycopg://user@host/db); unset: meeple.db in the user's data folder",
        "a database URL", secret=True)


class BotSettings(Section):
    title = "the bots' workers"

    workers: Count = setting("MEEPLE_BOT_WORKERS", 0, "processes for bot decisions (0: the "
                             "core count); --bot-workers replaces it", A_COUNT,
                             empty_unset=True)
    deadline: PositiveSeconds = setting(
        "MEEPLE_BOT_DEADLINE", BOT_DEADLINE, "seconds a bot may think a decision", SOME_POSITIVE,
        empty_unset=True)


class ShareSettings(Section):
    """How the bot workers are shared."""

    title = "the bots' fairness between clients"

    background: Positive = setting(
        "MEEPLE_BOT_BACKGROUND", 1, "worker processes of the bot-only tables (at a lower "
        "priority), all clients together", A_POSITIVE)
    per_client: Count = setting(
        "MEEPLE_BOT_PER_CLIENT", 0, "decisions of one client's tables running at once (0: "
        "every worker but one, at least one)", A_COUNT)
    bot_only_seconds: Seconds = setting(
        "MEEPLE_BOT_ONLY_SECONDS", 3.0, "the longest a bot of a bot-only table may think a "
        "decision (0: no cap)", SOME_SECONDS)


class LaneSettings(Section):
    """The hint lane's size, budgets and deadlines."""

    title = "the hint lane (hints and analyses)"

    workers: Count = setting("MEEPLE_HINT_WORKERS", 1, "worker processes (0: none, jobs run "
                             "in threads)", "a whole number, 0 or more")
    queue: Positive = setting("MEEPLE_HINT_QUEUE", 8, "jobs running or waiting in the lane at "
                              "once, from all clients", A_POSITIVE)
    per_client: Positive = setting("MEEPLE_HINT_PER_CLIENT", 2, "jobs running or waiting from "
                                   "one client", A_POSITIVE)
    cpu_per_minute: Seconds = setting(
        "MEEPLE_HINT_CPU", 30.0, "worker CPU seconds a client's jobs may take in any minute "
        "(0: no budget)", SOME_SECONDS)
    hint_deadline: Annotated[float | None, AfterValidator(
        lambda v: None if v is None else _at_least(0, above=True)(v))] = setting(
        "MEEPLE_HINT_DEADLINE", None, f"seconds a hint may take from the request (unset: "
        f"{HINT_DEADLINE:g}, or the bots' deadline if longer)", SOME_POSITIVE, empty_unset=True)
    analysis_deadline: PositiveSeconds = setting(
        "MEEPLE_ANALYSIS_DEADLINE", 120.0, "seconds the analysis of a whole game may take from "
        "the request", SOME_POSITIVE, empty_unset=True)

    def hint_seconds(self, bot_deadline: float) -> float:
        """A hint's deadline: ``hint_deadline`` if set, else the larger of the default and
        the bots' deadline (a hint is a bot's decision)."""
        if self.hint_deadline is not None:
            return self.hint_deadline
        return max(HINT_DEADLINE, bot_deadline)


class QuotaSettings(Section):
    """The per-client limits."""

    title = "per-client limits"

    create: Rate = setting("MEEPLE_RATE_CREATE", "30/minute", "tables a client may create",
                           A_RATE)
    join: Rate = setting("MEEPLE_RATE_JOIN", "60/minute", "seats a client may join", A_RATE)
    hint: Rate = setting("MEEPLE_RATE_HINT", "120/minute", "hints a client may ask", A_RATE)
    analysis: Rate = setting("MEEPLE_RATE_ANALYSIS", "10/minute", "analyses a client may ask",
                             A_RATE)
    frames: Rate = setting("MEEPLE_RATE_FRAMES", "20/second", "WebSocket frames a connection "
                           "may send", A_RATE)
    client_frames: Rate = setting("MEEPLE_RATE_CLIENT_FRAMES", "200/second", "WebSocket frames "
                                  "all of a client's connections may send", A_RATE)
    frames_refused: Rate = setting(
        "MEEPLE_RATE_FRAMES_REFUSED", "100/10 seconds", "frames over their rate a connection "
        "may send before it is closed (1008)", A_RATE)
    open_tables: Count = setting("MEEPLE_OPEN_TABLES", 20, "open (waiting or running) tables "
                                 "a client may have created (0: no cap)", A_COUNT)
    sockets: Count = setting("MEEPLE_WS_PER_CLIENT", 64, "WebSocket connections a client may "
                             "hold at once (0: no cap)", A_COUNT)
    stale_waiting: Seconds = setting(
        "MEEPLE_STALE_WAITING", 3600.0, "seconds a waiting table may go without a seat taken "
        "or left before it is closed (0: never)", SOME_SECONDS)
    abandoned: Seconds = setting(
        "MEEPLE_ABANDONED", 7200.0, "seconds a running table with no turn clock may go with no "
        "move and nobody connected before it ends as abandoned (0: never)", SOME_SECONDS)


class AccountSettings(Section):
    """The accounts' settings: sessions, sign-ins and passkeys."""

    title = "accounts, sessions and passkeys"

    secret_key: Annotated[str, AfterValidator(_secret_key)] = setting(
        "MEEPLE_SECRET_KEY", "", "the key of CSRF tokens and mail links; unset: one made once "
        "and kept in the database", "at least 32 characters (or unset)", secret=True)
    session_days: Annotated[float, AfterValidator(_at_least(0, above=True, high=3650))] = \
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


class ChatSettings(Section):
    """The chat's rates: messages an author may post, an address (every author there, a
    household or many fresh accounts alike) and a table (all its authors together); reports a
    client may make."""

    title = "the tables' chat"

    chat: Rate = setting("MEEPLE_RATE_CHAT", "5/10 seconds;60/hour", "messages one author may "
                         "post", A_RATE)
    chat_client: Rate = setting("MEEPLE_RATE_CHAT_CLIENT", "10/10 seconds;120/hour", "messages "
                                "from one address (all its authors)", A_RATE)
    chat_table: Rate = setting("MEEPLE_RATE_CHAT_TABLE", "20/10 seconds;60/minute", "messages "
                               "at one table (all its authors)", A_RATE)
    report: Rate = setting("MEEPLE_RATE_REPORT", "10/minute;30/hour", "reports a client may "
                           "make", A_RATE)


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
    retry: Annotated[float, AfterValidator(_at_least(0, above=True, high=RETRY_MAX))] = setting(
        "MEEPLE_MAIL_RETRY", 30.0, "seconds before a failed mail's first retry (doubled at "
        "each, at most an hour)", "a number of seconds above 0, at most 3600")
    tries: Annotated[int, AfterValidator(_at_least(1, high=100))] = setting(
        "MEEPLE_MAIL_TRIES", 10, "times a mail is tried", "a whole number from 1 to 100")

    @property
    def smtp(self) -> SmtpTarget | None:
        """Where mail goes (None: no mail is sent)."""
        return parse_smtp_url(self.smtp_url) if self.smtp_url else None

    @property
    def enabled(self) -> bool:
        return bool(self.smtp_url)


class PlayNowSettings(Section):
    """How Play now seats people."""

    title = "Play now's matching"

    window: PositiveSeconds = setting("MEEPLE_PLAY_NOW_WINDOW", 100.0, "rating points either "
                                      "side a new wait accepts", SOME_POSITIVE)
    widen: PositiveSeconds = setting("MEEPLE_PLAY_NOW_WIDEN", 10.0, "rating points the window "
                                     "widens by each second of waiting", SOME_POSITIVE)
    anyone_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_ANYONE_AFTER", 90.0, "seconds after which anyone of the same wish "
        "will do", SOME_POSITIVE)
    bots_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_BOTS_AFTER", 20.0, "seconds after which bots fill the table of "
        "someone who said they may", SOME_POSITIVE)
    gone_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_GONE_AFTER", 15.0, "seconds without their page asking after which a "
        "waiting person is taken as gone", SOME_POSITIVE)
    every: PositiveSeconds = setting("MEEPLE_PLAY_NOW_EVERY", 1.0, "seconds between two looks "
                                     "at the queue", SOME_POSITIVE)

    def window_after(self, waited: float) -> float:
        """Rating points either side someone who has waited ``waited`` seconds accepts."""
        if waited >= self.anyone_after:
            return math.inf
        return self.window + self.widen * max(0.0, waited)


class TestingSettings(Section):
    """For tests only."""

    title = "for tests only"

    turn_based_scale: PositiveSeconds = setting(
        "MEEPLE_TURN_BASED_SCALE", 1.0, "turn-based time runs this many times faster (a 1-hour "
        "move lasts 1 s at 3600)", SOME_POSITIVE, empty_unset=True)
    fault: Annotated[str, AfterValidator(_fault)] = setting(
        "MEEPLE_FAULT", "", "the reliability tests' fault: the process dies right after the "
        "commit of a create, join or finish (docs/reliability.md)",
        "crash-after-commit:create, crash-after-commit:join or crash-after-commit:finish")


class ClientSettings(Section):
    title = "the terminal client (meeple online)"

    seats_file: str = setting(
        "MEEPLE_SEATS_FILE", "", "where the secrets of the seats this user took are kept; "
        "unset: seats.json in the user's data folder", "a file's path")

    def seats_path(self) -> Path:
        """:attr:`seats_file`, else ``seats.json`` in the user's data folder."""
        if self.seats_file:
            return Path(self.seats_file)
        from platformdirs import user_data_dir

        return Path(user_data_dir("meeple", appauthor=False)) / "seats.json"


# ------------------------------------------------------------------------------ the model
#: The environment a :class:`FlatEnvSource` reads (None: the process's), set by
#: :meth:`Settings.from_env` for the one model it builds.
_ENVIRON: ContextVar[Mapping[str, str] | None] = ContextVar("meeple_settings_env",
                                                            default=None)


class FlatEnvSource(PydanticBaseSettingsSource):
    """The flat ``MEEPLE_*`` variables put under their sections: each section field's
    ``validation_alias`` names its variable; its value is taken with the spaces around it
    stripped. An unset variable leaves the field's default."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # (every value comes from __call__)

    def __call__(self) -> dict[str, Any]:
        env = _ENVIRON.get()
        env = os.environ if env is None else env
        found: dict[str, Any] = {}
        for name, section in sections().items():
            values = {}
            for field in section.model_fields.values():
                var = str(field.validation_alias)
                extra = field.json_schema_extra
                assert isinstance(extra, dict)
                if var in env and (env[var].strip() or not extra["empty_unset"]):
                    values[var] = env[var].strip()
            if values:
                found[name] = values
        return found


class Settings(BaseSettings):
    """Every setting, by section (module docstring)."""

    model_config = SettingsConfigDict(frozen=True, extra="forbid")

    server: ServerSettings = Field(default_factory=ServerSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    bots: BotSettings = Field(default_factory=BotSettings)
    bot_shares: ShareSettings = Field(default_factory=ShareSettings)
    hints: LaneSettings = Field(default_factory=LaneSettings)
    quotas: QuotaSettings = Field(default_factory=QuotaSettings)
    accounts: AccountSettings = Field(default_factory=AccountSettings)
    chat: ChatSettings = Field(default_factory=ChatSettings)
    mail: MailSettings = Field(default_factory=MailSettings)
    play_now: PlayNowSettings = Field(default_factory=PlayNowSettings)
    testing: TestingSettings = Field(default_factory=TestingSettings)
    client: ClientSettings = Field(default_factory=ClientSettings)

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments first, then the flat variables; no .env file, no secrets folder."""
        return init_settings, FlatEnvSource(settings_cls)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings from ``env`` (default: the process's environment), defaults where a
        variable is unset; :class:`SettingsError` naming every bad variable."""
        token = _ENVIRON.set(env)
        try:
            return cls()
        except ValidationError as exc:
            raise SettingsError("\n".join(_refusals(exc))) from None
        finally:
            _ENVIRON.reset(token)


def sections() -> dict[str, type[Section]]:
    """Each section's name and model, in order."""
    out: dict[str, type[Section]] = {}
    for name, field in Settings.model_fields.items():
        kind = field.annotation
        assert isinstance(kind, type) and issubclass(kind, Section)
        out[name] = kind
    return out


def _refusals(exc: ValidationError) -> Iterator[str]:
    """A line for each bad setting: ``VAR='value' is not ALLOWED`` (a secret's value hidden),
    or a check across settings' own sentence."""
    kinds = sections()
    seen = set()
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        section = kinds.get(loc[0]) if loc else None
        field = _field(section, loc[1]) if section is not None and len(loc) > 1 else None
        if field is None:  # a check across a section's settings: its sentence as it is
            cause = error.get("ctx", {}).get("error")
            line = str(cause) if cause is not None else error["msg"]
        else:
            var = str(field.validation_alias)
            extra = field.json_schema_extra
            assert isinstance(extra, dict)
            raw = error.get("input")
            shown = HIDDEN if extra["secret"] else repr(raw if isinstance(raw, str) else
                                                        str(raw))
            line = f"{var}={shown} is not {extra['allowed']}"
            if var == "MEEPLE_SMTP_URL" and "ctx" in error:  # its own sentence says more
                line = str(error["ctx"]["error"])
        if line not in seen:
            seen.add(line)
            yield line


def _field(section: type[Section], key: str) -> FieldInfo | None:
    """A section's field by its name or its variable."""
    for name, field in section.model_fields.items():
        if key in (name, field.validation_alias):
            return field
    return None


# ------------------------------------------------------------------------------ showing them
def shown_value(field: FieldInfo, value: Any) -> str:
    """A value as --print-settings and docs/settings.md show it: a secret masked (a URL keeps
    all but its password), a list with commas."""
    extra = field.json_schema_extra
    assert isinstance(extra, dict)
    if isinstance(value, tuple):
        value = ",".join(value)
    if value is None:
        return "(unset)"
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if extra["secret"] and text:
        return masked_url(text) if "://" in text else HIDDEN
    return text if text else "(unset)"


def settings_report(settings: Settings) -> str:
    """The values in force, by section, secrets masked (``meeple serve --print-settings``)."""
    lines = []
    for name, section in sections().items():
        part = getattr(settings, name)
        lines.append(f"[{name}]  {section.title}")
        for key, field in section.model_fields.items():
            lines.append(f"  {field.validation_alias} = {shown_value(field, getattr(part, key))}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _type_name(field: FieldInfo) -> str:
    kind = field.annotation
    names = {int: "whole number", float: "number", bool: "true/false", str: "text"}
    if kind in names:
        return names[kind]
    text = str(kind)
    if "tuple" in text:
        return "comma list"
    return "whole number or unset" if "int" in text else \
        "number or unset" if "float" in text else text


DOC_HEAD = """\
# Settings

Every setting of `meeple serve` (and `meeple online`'s one) is an environment variable
`MEEPLE_*`, read once when the process starts into one typed model, `meeple.settings.Settings`,
with a section per part of the server. A bad value stops `meeple serve` with exit code 2 and a
message naming the variable and what it may be. `meeple serve --print-settings` prints the values
in force (secrets masked) and exits. A command-line option of `meeple serve` (`--bot-workers`,
`--allowed-host` ...) takes the place of its variable.

This page is generated from the model (`python -m meeple.settings` writes it); a test fails
when the two differ.

A variable set to spaces only counts as set to nothing; for a number read "if set" (the bots'
workers and deadline, the hint and analysis deadlines, the table seeds, the turn-based scale)
that is unset. A secret is shown as `(hidden)`, a URL's password likewise. The variables of the
tests' own harness (`MEEPLE_TEST_*`, `MEEPLE_WHOLE_GAMES`, ...) are the tests', not the
server's, and are not here.

| variable | section | type | default | what it does | allowed |
| --- | --- | --- | --- | --- | --- |
"""


def settings_doc() -> str:
    """docs/settings.md: a row for each setting (variable, section, type, default, what it
    does, what a value may be)."""
    rows = []
    for name, section in sections().items():
        for field in section.model_fields.values():
            extra = field.json_schema_extra
            assert isinstance(extra, dict)
            default = shown_value(field, field.get_default(call_default_factory=True))
            cells = [f"`{field.validation_alias}`", name, _type_name(field), f"`{default}`",
                     str(field.description), str(extra["allowed"])]
            rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return DOC_HEAD + "\n".join(rows) + "\n"


#: Where the settings' page is kept, from the repository's root.
DOC_PATH = Path("docs") / "settings.md"


def main(argv: list[str]) -> int:
    """``python -m meeple.settings [PATH]``: write the settings' page (default
    docs/settings.md)."""
    path = Path(argv[0]) if argv else DOC_PATH
    path.write_text(settings_doc(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
