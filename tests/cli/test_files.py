"""Every file and folder argument of every command, against every kind of bad path: each gives
a clear error (exit code 2, the path, what is wrong, what is allowed) and never a traceback; a
game record is never lost; report, replay and simulate --out read every record meeple writes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import meeple
from meeple.cli import app

runner = CliRunner()

GARDENS_SHEET = Path(meeple.__file__).parent / "games" / "gardens" / "sheets" / "level-1.toml"


def _finished_record(seed: int = 3) -> dict[str, object]:
    from meeple.sim.runner import play_game

    rec = play_game("gardens", {"level": 1}, ["random", "random"], seed=seed)
    return rec


def _run(args: list[str], **kwargs: object) -> Result:
    res = runner.invoke(app, args, **kwargs)  # type: ignore[arg-type]
    # a refusal is a clean exit with a message, never an exception escaping the command
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output
    return res


def _text(res: Result) -> str:
    return " ".join(res.output.split())


# -- bad input files: a class each ------------------------------------------------------------

def _folder(tmp: Path) -> Path:
    (tmp / "folder").mkdir()
    return tmp / "folder"


def _missing(tmp: Path) -> Path:
    return tmp / "missing.json"


def _missing_folder(tmp: Path) -> Path:
    return tmp / "nofolder" / "x.toml"


def _empty(tmp: Path) -> Path:
    (tmp / "empty.json").write_text("")
    return tmp / "empty.json"


def _not_utf8(tmp: Path) -> Path:
    (tmp / "latin1.toml").write_bytes("name = 'Été'\n".encode("latin-1"))
    return tmp / "latin1.toml"


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe")
    return tmp / "pipe"


INPUT_CLASSES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "folder": (_folder, "is a folder"),
    "missing": (_missing, "no such file"),
    "missing folder": (_missing_folder, "does not exist"),
    "empty": (_empty, "is empty"),
    "not UTF-8": (_not_utf8, "is not UTF-8 text"),
    "pipe": (_fifo, "is not a regular file"),
}

#: Each command with a file argument, as a function of that file. Records first, then sheets.
RECORD_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "replay": lambda p: ["replay", str(p), "--at", "0"],
    "report": lambda p: ["report", str(p), "--no-plots"],
}
SHEET_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "sheets validate": lambda p: ["sheets", "validate", str(p), "--game", "gardens"],
    "play --sheet": lambda p: ["play", "gardens", "--seats", "random,random", "--sheet", str(p)],
    "simulate --sheet": lambda p: ["simulate", "gardens", "-n", "1", "--sheet", str(p)],
    "tournament --sheet": lambda p: ["tournament", "gardens", "-n", "1", "--bots",
                                     "random,random", "--sheet", str(p)],
}


@pytest.mark.parametrize("kind", INPUT_CLASSES)
@pytest.mark.parametrize("command", [*RECORD_COMMANDS, *SHEET_COMMANDS])
def test_every_file_argument_refuses_every_bad_file_clearly(
        tmp_path: Path, command: str, kind: str) -> None:
    make, message = INPUT_CLASSES[kind]
    if command == "sheets validate" and kind == "folder":
        message = "is a folder; a Pick a Pen: Gardens sheet is one UTF-8 TOML file"
    if kind == "empty" and command in SHEET_COMMANDS:
        message = "is empty"
    path = make(tmp_path)
    args = {**RECORD_COMMANDS, **SHEET_COMMANDS}[command](path)
    res = _run(args)
    assert res.exit_code == 2, res.output
    text = _text(res)
    assert str(path) in text and message in text
    allowed = "meeple reads game records" if command in RECORD_COMMANDS else "TOML"
    assert allowed in text


@pytest.mark.parametrize("command", [*RECORD_COMMANDS, *SHEET_COMMANDS])
def test_every_file_argument_refuses_an_unreadable_file(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """chmod 000 does not stop root, who runs the tests: the refusal is simulated."""
    path = tmp_path / "locked.toml"
    path.write_text(GARDENS_SHEET.read_text() if command in SHEET_COMMANDS
                    else json.dumps(_finished_record()))
    real = Path.read_bytes

    def denied(self: Path) -> bytes:
        if self.name == "locked.toml":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    res = _run({**RECORD_COMMANDS, **SHEET_COMMANDS}[command](path))
    assert res.exit_code == 2
    assert "locked.toml: cannot" in _text(res) and "permission denied" in _text(res)


@pytest.mark.parametrize("command", RECORD_COMMANDS)
def test_record_commands_refuse_cut_off_and_wrong_format_files(tmp_path: Path, command: str) -> None:
    pretty = json.dumps(_finished_record(), indent=1)
    cases = {
        "cut.json": (pretty[: len(pretty) // 2], "is cut off"),
        "sheet.toml": (GARDENS_SHEET.read_text(), "is not JSON at all"),
        "list.json": ("[1, 2]", "holds a JSON list, not a game record"),
        "other.json": ('{"results": []}', "not a game record (no 'game'"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        res = _run(RECORD_COMMANDS[command](path))
        assert res.exit_code == 2, (name, res.output)
        assert f"{path}: " in _text(res) and message in _text(res), name


@pytest.mark.parametrize("command", SHEET_COMMANDS)
def test_sheet_arguments_refuse_cut_off_and_wrong_format_files(tmp_path: Path, command: str) -> None:
    sheet = GARDENS_SHEET.read_text()
    cases = {
        "cut.toml": (sheet[: len(sheet) // 2], ("not valid TOML", "problem")),
        # refused by the TOML reader, or by its bounds before it runs (a JSON record is one
        # long line)
        "record.toml": (json.dumps(_finished_record()), ("not valid TOML", "at most")),
    }
    for name, (content, messages) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        res = _run(SHEET_COMMANDS[command](path))
        assert res.exit_code == 2, (name, res.output)
        assert str(path) in _text(res) and any(m in _text(res) for m in messages), res.output


# -- output paths -------------------------------------------------------------------------------

OUTPUT_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "simulate --out": lambda p: ["simulate", "gardens", "-n", "1", "--out", str(p)],
    "tournament --records": lambda p: ["tournament", "gardens", "-n", "1", "--bots",
                                       "random,random", "--records", str(p)],
    "tournament --out": lambda p: ["tournament", "gardens", "-n", "1", "--bots",
                                   "random,random", "--out", str(p)],
}


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_output_files_refuse_folders_missing_folders_and_unwritable_paths_before_playing(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    make = OUTPUT_COMMANDS[command]
    for path, message in ((_folder(tmp_path), "is a folder"),
                          (tmp_path / "nofolder" / "r.jsonl", "does not exist")):
        res = _run(make(path))
        assert res.exit_code == 2, res.output
        assert str(path) in _text(res) and message in _text(res)
        assert "games/s" not in res.output  # refused before any game was played
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)
    res = _run(make(tmp_path / "r.jsonl"))
    assert res.exit_code == 2 and "cannot be written" in _text(res)


@pytest.mark.parametrize("command", ["simulate --out", "tournament --records"])
def test_appending_refuses_files_that_are_not_records(tmp_path: Path, command: str) -> None:
    cases = {
        "latin1.jsonl": ("Été".encode("latin-1"), "is not UTF-8 text"),
        "sheet.jsonl": (GARDENS_SHEET.read_bytes(), "is not JSON at all"),
        "list.jsonl": (b"[1, 2]\n", "not a game record"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        res = _run(OUTPUT_COMMANDS[command](path))
        assert res.exit_code == 2, res.output
        assert message in _text(res) and str(path) in _text(res)
        assert path.read_bytes() == content  # a refusal changes nothing


def test_simulate_out_resumes_after_a_cut_off_last_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["simulate", "gardens", "-n", "3", "--bots", "random,random", "--out", str(out)]
    assert _run(args).exit_code == 0
    whole = out.read_text()
    lines = whole.splitlines(keepends=True)
    out.write_text("".join(lines[:2]) + lines[2][:40])  # killed while writing game 3
    res = _run(args)
    assert res.exit_code == 0, res.output
    assert "line 3 was cut off" in _text(res) and "2 of 3 games already there" in _text(res)
    from meeple.sim.runner import read_records, strip_timings

    again = [strip_timings(r) for r in read_records(out)]
    assert again == [strip_timings(json.loads(line)) for line in lines]  # game 3 played again


def test_simulate_out_onto_an_empty_file_and_onto_a_play_record(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert _run(["simulate", "gardens", "-n", "1", "--out", str(empty)]).exit_code == 0
    assert len(meeple.core.records.read_records(empty)) == 1
    played = tmp_path / "played.json"
    rec = _finished_record()
    played.write_text(json.dumps(rec, indent=1))  # the layout meeple play writes
    res = _run(["simulate", "gardens", "-n", "2", "--out", str(played)])
    assert res.exit_code == 0, res.output
    assert "held one game as a JSON document" in _text(res)
    found = meeple.core.records.read_record_file(played)
    assert found.layout == "JSON lines" and len(found.records) == 3
    assert found.records[0] == rec  # the played game is kept


def test_report_out_must_be_a_folder_that_can_be_made(tmp_path: Path) -> None:
    data = tmp_path / "r.jsonl"
    data.write_text(json.dumps(_finished_record()) + "\n")
    res = _run(["report", str(data), "--out", str(data), "--no-plots"])
    assert res.exit_code == 2 and "is a file, not a folder" in _text(res)
    res = _run(["report", str(data), "--out", str(tmp_path / "no" / "rep"), "--no-plots"])
    assert res.exit_code == 2 and "does not exist" in _text(res)
    res = _run(["report", str(data), "--out", str(tmp_path / "rep"), "--no-plots"])
    assert res.exit_code == 0 and (tmp_path / "rep" / "report.md").exists()


# -- record layouts -------------------------------------------------------------------------------

def test_report_and_replay_read_a_record_written_by_meeple_play(tmp_path: Path) -> None:
    """`meeple report` on a `meeple play` record used to crash with a TypeError."""
    path = tmp_path / "game.json"
    res = _run(["play", "gardens", "--seats", "random,random", "--seed", "4",
                "--record", str(path)])
    assert res.exit_code == 0, res.output
    assert path.read_text().startswith("{\n")  # indented JSON, one game
    res = _run(["report", str(path), "--no-plots"])
    assert res.exit_code == 0, res.output
    assert "1 games" in _text(res) and "random" in _text(res)
    res = _run(["replay", str(path), "--at", "3"])
    assert res.exit_code == 0 and "move 3/" in res.output


@pytest.mark.parametrize("layout", ["pretty", "compact", "lines"])
def test_report_and_replay_read_every_layout(tmp_path: Path, layout: str) -> None:
    recs = [_finished_record(1), _finished_record(2)]
    path = tmp_path / "recs"
    if layout == "pretty":
        path.write_text(json.dumps(recs[0], indent=1))
    elif layout == "compact":
        path.write_text(json.dumps(recs[0]))
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    res = _run(["report", str(path), "--no-plots"])
    assert res.exit_code == 0, res.output
    assert f"{2 if layout == 'lines' else 1} games" in _text(res)
    res = _run(["replay", str(path), "--at", "2", "--index", "1" if layout == "lines" else "0"])
    assert res.exit_code == 0, res.output


def test_report_refuses_a_file_of_unfinished_games_clearly(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    res = _run(["play", "gardens", "--seats", "me,random", "--seed", "2", "--record", str(path)],
               input="quit\ny\n")
    assert path.exists(), res.output
    res = _run(["report", str(path)])
    assert res.exit_code == 2 and "is finished" in _text(res)


# -- play --record: never lost -------------------------------------------------------------------

def test_play_record_into_a_folder_saves_inside_it_and_says_so_first(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    res = _run(["play", "gardens", "--seats", "random,random", "--seed", "6", "--record",
                str(folder)])
    assert res.exit_code == 0, res.output
    saved = list(folder.glob("gardens-seed6-*.json"))
    assert len(saved) == 1 and meeple.replay(saved[0]).is_over
    text = _text(res)
    assert text.index("is a folder") < text.index("Game over")  # said at the start
    assert f"record saved to {saved[0]}" in text


@pytest.mark.parametrize("bad", ["missing folder", "unwritable", "a pipe"])
def test_play_record_to_an_unusable_path_falls_back_and_prints_where(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.chdir(tmp_path)
    if bad == "missing folder":
        target = tmp_path / "nofolder" / "game.json"
    elif bad == "unwritable":
        target = tmp_path / "locked.json"
        target.write_text("old")
        real = os.access
        monkeypatch.setattr(os, "access",
                            lambda p, m, **k: not (Path(p) == target and m & os.W_OK) and real(p, m))
    else:
        target = _fifo(tmp_path)
    res = _run(["play", "gardens", "--seats", "random,random", "--seed", "8", "--record",
                str(target)])
    assert res.exit_code == 0, res.output
    saved = list((tmp_path / "meeple-records").glob("gardens-seed8-*.json"))
    assert len(saved) == 1 and meeple.replay(saved[0]).is_over
    text = _text(res)
    assert f"--record {target}" in text and text.index("note") < text.index("Game over")
    assert "saved to meeple-records/gardens-seed8-" in text


def test_a_failing_write_falls_back_and_as_a_last_resort_prints_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import meeple.cli.common as common

    monkeypatch.chdir(tmp_path)
    real = common._write_atomically
    failures: list[Path] = []

    def disk_full(path: Path, text: str) -> None:
        if path.name == "game.json":
            failures.append(path)
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(common, "_write_atomically", disk_full)
    res = _run(["play", "gardens", "--seats", "random,random", "--seed", "8", "--record",
                str(tmp_path / "game.json")])
    assert res.exit_code == 0 and failures
    assert "No space left on device" in _text(res)
    assert len(list((tmp_path / "meeple-records").glob("*.json"))) == 1

    def nowhere(path: Path, text: str) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(common, "_write_atomically", nowhere)
    res = _run(["play", "gardens", "--seats", "random,random", "--seed", "8", "--record",
                str(tmp_path / "game.json")])
    assert res.exit_code == 2
    assert "could not be saved anywhere" in _text(res)
    printed = res.output[res.output.index("{\n"):]
    assert meeple.replay(json.loads(printed[: printed.rindex("}") + 1])).is_over
