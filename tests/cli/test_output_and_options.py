"""Piped output in full, sheets validate/list, and options that are refused or contradict."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core import registry
from meeple.core.errors import BadVariant

runner = CliRunner()

GARDENS_SHEET = Path(meeple.__file__).parent / "games" / "gardens" / "sheets" / "level-1.toml"


def _meeple(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command with its output going into a pipe (not a terminal)."""
    code = "import sys; from meeple.cli import main; sys.argv[0] = 'meeple'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "COLUMNS": "80"})


def test_piped_output_is_not_cut_to_80_columns() -> None:
    res = _meeple("games")
    assert res.returncode == 0, res.stderr
    assert "…" not in res.stdout
    # the whole variant list of Pergola on its one table row
    row = next(line for line in res.stdout.splitlines() if "challenge=10" in line)
    assert "standard; challenge=1;" in row and len(row) > 80
    res = _meeple("sheets", "list", "pergola")
    first = res.stdout.splitlines()[0]
    assert first.startswith("pergola: one data bundle") and first.rstrip().endswith("[pergola]")


def test_sheets_validate_lists_every_problem_with_line_and_field_and_exits_2(tmp_path: Path) -> None:
    text = GARDENS_SHEET.read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('{ id = "A2", q = 1', '{ id = "A2", q = "one"', 1)
                   .replace('{ id = "B1", q = -1, r = -3, garden = "g1" }',
                            '{ id = "B1", q = -1, r = -3, garden = "g1", colour = 3 }', 1)
                   .replace('{ id = "C1", q = -2', '{ id = "C1", q = -2, shade = 1', 1))
    res = runner.invoke(app, ["sheets", "validate", str(bad), "--game", "gardens"])
    assert res.exit_code == 2, res.output
    out = res.output
    assert "3 problems" in out and "more problems" not in out
    lines = text.splitlines()
    for field, key in (("fields[1].q", '"A2"'), ("fields[5].colour", '"B1"'),
                       ("fields[11].shade", '"C1"')):
        number = next(i + 1 for i, ln in enumerate(lines) if f"id = {key}" in ln)
        assert f"line {number}: {field}:" in out, out
    res = runner.invoke(app, ["sheets", "validate", str(bad)])  # without --game: the closest
    assert res.exit_code == 2 and "invalid Pick a Pen: Gardens sheet" in res.output
    assert "give --game to choose" in " ".join(res.output.split())


def test_sheets_validate_knows_pergola_bundles() -> None:
    from meeple.games.pergola.sheet import SHEETS_DIR

    res = runner.invoke(app, ["sheets", "validate", str(SHEETS_DIR)])
    assert res.exit_code == 0 and "valid Pergola data bundle" in res.output
    res = runner.invoke(app, ["sheets", "validate", str(SHEETS_DIR / "pond.toml")])
    assert res.exit_code == 2
    assert "one part of a Pergola data bundle" in " ".join(res.output.split())


def test_sheets_list_pergola_shows_one_bundle_not_five_sheets() -> None:
    res = runner.invoke(app, ["sheets", "list", "pergola"])
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert "one data bundle, 'standard'" in text
    assert "made of 5 parts: cascade, leaves, pergola, pond, tools" in text
    assert "not sheets of their own" in text
    assert not text.startswith("pergola: cascade")  # the old listing
    res = runner.invoke(app, ["sheets", "list", "gardens"])
    assert "gardens: level-1, level-2, level-3" in " ".join(res.output.split())


COMMANDS = {
    "play": ["play", "gardens", "--seats", "random,random"],
    "simulate": ["simulate", "gardens", "-n", "1"],
    "tournament": ["tournament", "gardens", "-n", "1", "--bots", "random,random"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--option", "level=7"], "level=7 is not offered by Pick a Pen: Gardens; level can be 1, 2, 3"),
        (["--option", "colour=2"], "has no option 'colour' (Pick a Pen: Gardens options: level: 1, 2, 3)"),
        (["--option", "level"], "must be written key=value"),
        (["--level", "2", "--option", "level=3"], "--level 2 and --option level=3 contradict"),
        (["--challenge", "2"], "no option 'challenge'"),
    ],
)
def test_options_not_offered_or_given_twice_are_refused(command: str, extra: list[str],
                                                         message: str) -> None:
    res = runner.invoke(app, [*COMMANDS[command], *extra])
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())
    assert "games/s" not in res.output  # refused before any game


@pytest.mark.parametrize("command", COMMANDS)
def test_a_contradiction_the_game_refuses_reaches_the_user_as_exit_2(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The games refuse contradicting options (e.g. --level 2 with --sheet level-1) in their
    factories; whatever they say reaches the user as a clear error, not a traceback."""
    info = meeple.game_info("gardens")

    def refusing(**kwargs: Any) -> Any:
        if kwargs.get("sheet") is not None and kwargs.get("level") is not None:
            raise BadVariant(f"--level {kwargs['level']} contradicts --sheet {kwargs['sheet']}")
        return info.factory(**kwargs)

    monkeypatch.setitem(registry._REGISTRY, "gardens", dataclasses.replace(info, factory=refusing))
    res = runner.invoke(app, [*COMMANDS[command], "--level", "2", "--sheet", "level-1"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "--level 2 contradicts --sheet level-1" in " ".join(res.output.split())


def test_sheets_validate_gives_lines_inside_a_one_file_pergola_bundle(tmp_path: Path) -> None:
    from meeple.games.pergola.sheet import PARTS, SHEETS_DIR

    text = ""
    for p in PARTS:
        lines = []
        for line in (SHEETS_DIR / f"{p}.toml").read_text(encoding="utf-8").splitlines():
            if line.startswith("[["):
                line = f"[[{p}.{line[2:]}"
            elif line.startswith("["):
                line = f"[{p}.{line[1:]}"
            lines.append(line)
        first = next((i for i, ln in enumerate(lines) if ln.startswith("[")), len(lines))
        text += f"[{p}]\n" + "\n".join(lines[:first]) + "\n" + "\n".join(lines[first:]) + "\n"
    lines = text.splitlines()
    lily = [i for i, ln in enumerate(lines) if ln.startswith("[[pond.lily]]")][2]
    lines.insert(lily + 1, "colour = 'pink'")
    one = tmp_path / "bundle.toml"
    one.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["sheets", "validate", str(one), "--game", "pergola"])
    assert res.exit_code == 2, res.output
    where = f"{one}:{lily + 2}: pond.lily[2].colour: Extra inputs are not permitted"
    assert where in " ".join(res.output.split())


def test_sheets_validate_refuses_broken_toml_once_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "syntax.toml"
    bad.write_text('name = "x"\nlevel = [1,\n')
    res = runner.invoke(app, ["sheets", "validate", str(bad)])
    assert res.exit_code == 2
    assert f"{bad}: not valid TOML" in " ".join(res.output.split())
    assert "not of that shape" not in res.output  # not blamed on every game in turn
