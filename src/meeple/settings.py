"""Every ``MEEPLE_*`` setting of meeple: one typed model, read once when a process starts.

:class:`Settings` has a section (a nested model) per part of the server: ``server`` (the edge),
``store``, ``bots``, ``bot_shares``, ``hints`` (the hint lane), ``quotas``, ``accounts``,
``chat``, ``mail``, ``play_now``, ``events``, ``testing``, and ``client`` (the terminal client's). Each field
keeps the flat environment variable it has always had (``MEEPLE_HINT_WORKERS`` is
``hints.workers``), its default and its meaning; its ``validation_alias`` names the variable
and a :class:`FlatEnvSource` (a pydantic-settings source) puts each variable under its section.

Each section's class lives with the part that reads it, on the base in :mod:`meeple.sections`:
``store`` in :mod:`meeple.store.settings`; ``server``, ``quotas`` and ``hints`` (the edge's) in
:mod:`meeple.server.edge_settings`; ``bots``, ``bot_shares`` and ``testing`` (the table
core's) in :mod:`meeple.server.table.settings`; ``accounts``, ``chat``, ``mail``,
``play_now`` and ``events`` in their feature's ``settings`` module; ``client`` here, as only
the ``meeple`` command reads it. This module puts them together and is the composition root: only it, the
commands (:mod:`meeple.cli`) and the server's :mod:`~meeple.server.app` and
:mod:`~meeple.server.site` import it; every other module imports its own section's class
(``tests/core/test_settings_reads.py`` checks it).

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

import os
import sys
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from meeple.sections import HIDDEN, Section, masked_url, setting
from meeple.server.edge_settings import LaneSettings, QuotaSettings, ServerSettings
from meeple.server.features.accounts.settings import AccountSettings
from meeple.server.features.chat.settings import ChatSettings
from meeple.server.features.events.settings import EventSettings
from meeple.server.features.mail.settings import MailSettings
from meeple.server.features.playnow.settings import PlayNowSettings
from meeple.server.table.settings import BotSettings, ShareSettings, TestingSettings
from meeple.store.settings import StoreSettings


class SettingsError(ValueError):
    """One or more settings are bad: the message has a line for each, naming its variable
    and what it may be (never a secret's value)."""


# ------------------------------------------------------------------------------ the sections
class ClientSettings(Section):
    title = "the terminal clients (meeple join, meeple agent)"

    seats_file: str = setting(
        "MEEPLE_SEATS_FILE", "", "where the secrets of the seats this user took are kept; "
        "unset: seats.json in the user's data folder", "a file's path")

    token: str = setting(
        "MEEPLE_TOKEN", "", "the bot account's API token meeple agent plays with when "
        "--token-file is not given", "a token made on /account (mpl_...)", secret=True)

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
    events: EventSettings = Field(default_factory=EventSettings)
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
    return DOC_HEAD + "\n".join(rows) + "\n" + _classes_doc()


def _module_of(section: type[Section]) -> str:
    """The module a section's class is imported from (``python -m meeple.settings`` runs
    this module as ``__main__``)."""
    if section.__module__ == "__main__" and __spec__ is not None:
        return __spec__.name
    return section.__module__


def _classes_doc() -> str:
    """The map of docs/settings.md's end: each section's class, where it is defined (the
    package that reads it) and its title."""
    rows = [f"| {name} | `{_module_of(section)}.{section.__qualname__}` | {section.title} |"
            for name, section in sections().items()]
    return ("\n## Where each section is defined\n\nEach section's class lives with the part of "
            "meeple that reads it; `meeple.settings`\nputs them together (docs/layers.md).\n\n"
            "| section | class | what it covers |\n| --- | --- | --- |\n" + "\n".join(rows)
            + "\n")


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
