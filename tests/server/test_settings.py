"""The settings model from outside: ``meeple serve`` as a process, its exit code and what it
prints (docs/settings.md). A bad value of any section stops it with exit code 2 and a message
naming the variable and what it may be; ``--print-settings`` shows the values in force with
the secrets masked; docs/settings.md is the model's own table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.settings import DOC_PATH, Settings, SettingsError, sections, settings_doc
from tests.server.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
#: Long enough for a process to start and refuse; a server that started instead would run
#: until this ends it (the test then fails on the timeout, not on a measured time).
PATIENCE = 120


def serve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``meeple serve`` on a free port with ``env`` in place of every MEEPLE_* variable of
    this process, its database in a file of its own."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
    return subprocess.run(
        [sys.executable, "-m", "meeple", "serve", "--host", "127.0.0.1", "--port",
         str(free_port()), *args], env={**clean, **env}, capture_output=True, text=True,
        timeout=PATIENCE, cwd=ROOT)


@pytest.mark.parametrize(("var", "value", "allowed"), [
    ("MEEPLE_HINT_QUEUE", "0", "a whole number, 1 or more"),
    ("MEEPLE_RATE_CREATE", "lots", "a rate"),
    ("MEEPLE_SESSION_DAYS", "nan", "a number of days above 0"),
    ("MEEPLE_RATE_CHAT", "often", "a rate"),
    ("MEEPLE_MAIL_TRIES", "0", "a whole number from 1 to 100"),
    ("MEEPLE_PLAY_NOW_WINDOW", "-5", "a positive number"),
    ("MEEPLE_BOT_BACKGROUND", "0", "a whole number, 1 or more"),
    ("MEEPLE_HEAD_TIMEOUT", "0", "a number of seconds from 0.1 to 600"),
    ("MEEPLE_HTTP_PER_CLIENT", "many", "a whole number, 0 or more"),
    ("MEEPLE_API_DOCS", "perhaps", "true or false"),
    # read only when first needed before: a bad value let the server start (a hint's 500,
    # a turn-based clock at its real speed, a fault never injected)
    ("MEEPLE_HINT_DEADLINE", "soon", "a positive number"),
    ("MEEPLE_ANALYSIS_DEADLINE", "-1", "a positive number"),
    ("MEEPLE_BOT_DEADLINE", "0", "a positive number"),
    ("MEEPLE_BOT_WORKERS", "two", "a whole number, 0 or more"),
    ("MEEPLE_TURN_BASED_SCALE", "fast", "a positive number"),
    ("MEEPLE_FAULT", "crash-somewhere", "crash-after-commit:create"),
])
def test_a_bad_setting_stops_serve_with_exit_2_naming_it(var: str, value: str,
                                                           allowed: str) -> None:
    done = serve({var: value})
    assert done.returncode == 2, done.stdout + done.stderr
    said = " ".join((done.stdout + done.stderr).split())
    assert var in said and allowed in said and "Traceback" not in said, said


def test_every_bad_setting_is_named_at_once_and_a_secret_is_never_shown() -> None:
    done = serve({"MEEPLE_SECRET_KEY": "short-secret", "MEEPLE_OPEN_TABLES": "-1",
                  "MEEPLE_SMTP_URL": "http://ann:pw-of-ann@mail.example"})
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2
    for var in ("MEEPLE_SECRET_KEY", "MEEPLE_OPEN_TABLES", "MEEPLE_SMTP_URL"):
        assert var in said, said
    assert "short-secret" not in said and "pw-of-ann" not in said


def test_print_settings_shows_the_values_in_force_by_section_secrets_masked() -> None:
    done = serve({"MEEPLE_SECRET_KEY": "k" * 40, "MEEPLE_HINT_WORKERS": " 3 ",
                  "MEEPLE_SMTP_URL": "smtp://ann:pw-of-ann@mail.example:2525",
                  "MEEPLE_DATABASE_URL": "postgresql+psycopg://meeple:db-pw@db.example/m",
                  "MEEPLE_ALLOWED_HOSTS": "a.example, b.example"},
                 "--print-settings", "--bot-workers", "5", "--http-per-client", "0")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for section in sections():
        assert f"[{section}]" in out
    lines = {line.split(" = ")[0].strip(): line.split(" = ", 1)[1]
             for line in out.splitlines() if " = " in line}
    assert lines["MEEPLE_HINT_WORKERS"] == "3"
    assert lines["MEEPLE_BOT_WORKERS"] == "5"  # an option in place of its variable
    assert lines["MEEPLE_HTTP_PER_CLIENT"] == "0"
    assert lines["MEEPLE_ALLOWED_HOSTS"] == "a.example,b.example"
    assert lines["MEEPLE_RATE_CREATE"] == "30/minute"  # a default
    assert lines["MEEPLE_PUBLIC_URL"].startswith("http://127.0.0.1:")  # where it listens
    assert lines["MEEPLE_SECRET_KEY"] == "(hidden)"
    assert lines["MEEPLE_SMTP_URL"] == "smtp://ann:(hidden)@mail.example:2525"
    assert lines["MEEPLE_DATABASE_URL"] == "postgresql+psycopg://meeple:(hidden)@db.example/m"
    assert "k" * 40 not in out and "pw-of-ann" not in out and "db-pw" not in out
    assert len(lines) == sum(len(s.model_fields) for s in sections().values())


def test_the_settings_page_is_the_models_table() -> None:
    """docs/settings.md is written by ``python -m meeple.settings``; a setting added, renamed
    or given another default in the model and not in the page fails here."""
    assert (ROOT / DOC_PATH).read_text("utf-8") == settings_doc(), \
        "docs/settings.md differs from the model: run `uv run python -m meeple.settings`"
    for section in sections().values():
        for field in section.model_fields.values():
            assert f"`{field.validation_alias}`" in settings_doc()


def test_each_variable_lands_in_its_section_and_unknown_ones_are_left_alone() -> None:
    got = Settings.from_env({"MEEPLE_HINT_WORKERS": "0", "MEEPLE_RATE_CHAT": "off",
                             "MEEPLE_PLAY_NOW_EVERY": "2.5", "MEEPLE_NOT_A_SETTING": "x",
                             "MEEPLE_TABLE_SEEDS": "", "MEEPLE_RP_ID": "Example.ORG"})
    assert got.hints.workers == 0 and got.chat.chat == "off" and got.play_now.every == 2.5
    assert got.server.table_seeds is None and got.accounts.rp_id == "example.org"
    assert Settings.from_env({}) == Settings.from_env({"PATH": "/bin"})
    variables = [f.validation_alias for s in sections().values() for f in s.model_fields.values()]
    assert len(variables) == len(set(variables))  # one field a variable
    with pytest.raises(SettingsError, match="MEEPLE_HINT_CPU='-3' is not"):
        Settings.from_env({"MEEPLE_HINT_CPU": "-3"})
