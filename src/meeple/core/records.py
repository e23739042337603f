"""Reading and checking meeple's files: text files (sheets, records) and game records.

Every command that takes a file goes through here, so a folder, a missing file, a missing
folder, an unreadable file, an empty or cut-off file, a file that is not UTF-8 text and a file
of the wrong kind each give the same kind of clear error (:class:`FileProblem`, or
:class:`~meeple.core.errors.BadRecord` for records): the path, what is wrong with it, and what
is allowed.

Record files come in the layouts meeple writes:

* **one game** as a JSON document: ``meeple play --record`` (indented) or compact JSON;
* **JSON lines**, one game per line: ``meeple simulate --out`` and ``meeple tournament
  --records``.

Either may be gzip-compressed (``.jsonl.gz``, as docs/records keeps them) for reading.

:func:`read_record_file` reads either and says which it found; a file of JSON lines whose last
line was cut off by an interrupted write can be read with ``torn_tail_ok`` (the cut line is left
out and reported), which is how ``simulate --out`` resumes after a kill.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from meeple.core.errors import BadRecord, MeepleError

#: The entries every game record has (``State.record()``).
RECORD_KEYS = ("game", "players", "moves")

#: What a record file may be, for error messages.
RECORD_FORMATS = ("meeple reads game records: one game as JSON (meeple play --record) or "
                  "JSON lines, one game a line (meeple simulate --out, tournament --records)")


class FileProblem(MeepleError, ValueError):
    """A file or folder argument that cannot be used. ``path`` is the path as given,
    ``problem`` what is wrong with it, ``allowed`` what would do instead."""

    def __init__(self, path: str | Path, problem: str, allowed: str = "") -> None:
        self.path = str(path)
        self.problem = problem
        self.allowed = allowed
        super().__init__(f"{self.path}: {problem}" + (f"; {allowed}" if allowed else ""))


class BadRecordFile(BadRecord, FileProblem):
    """A record file that cannot be read as game records (a :class:`BadRecord` too)."""

    def __init__(self, path: str | Path, problem: str, allowed: str = RECORD_FORMATS) -> None:
        FileProblem.__init__(self, path, problem, allowed)


def _missing(path: Path) -> str:
    parent = path.parent
    if str(parent) not in ("", ".") and not parent.exists():
        return f"no such file (the folder {parent} does not exist)"
    return "no such file"


def check_input_file(path: str | Path, allowed: str = "", *, folder_ok: bool = False,
                     error: type[FileProblem] = FileProblem) -> Path:
    """``path`` as a :class:`Path` if it names a readable regular file (or, with
    ``folder_ok``, a folder); else raise ``error`` saying what is wrong and what is allowed."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise error(p, _missing(p), allowed) from None
    except NotADirectoryError:
        raise error(p, "no such file (a part of the path is a file, not a folder)",
                    allowed) from None
    except OSError as exc:
        raise error(p, f"cannot be read: {exc.strerror or exc}", allowed) from None
    if stat.S_ISDIR(st.st_mode):
        if folder_ok:
            return p
        raise error(p, "is a folder, not a file", allowed)
    if not stat.S_ISREG(st.st_mode):
        raise error(p, "is not a regular file (a pipe, socket or device)", allowed)
    return p


GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: str | Path) -> bool:
    """Whether the file at ``path`` is gzip-compressed (False if it cannot be read)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == GZIP_MAGIC
    except OSError:
        return False


def read_text(path: str | Path, allowed: str = "", *, error: type[FileProblem] = FileProblem,
              empty_ok: bool = False, gzip_ok: bool = False) -> str:
    """The text of a UTF-8 file (a leading byte-order mark is dropped; with ``gzip_ok`` a
    gzip-compressed file is uncompressed first).

    Raises ``error`` (a :class:`FileProblem`) for a missing file or folder, a folder, a pipe or
    device, a file that cannot be read, a file that is not UTF-8 text, and (unless
    ``empty_ok``) an empty file.
    """
    p = check_input_file(path, allowed, error=error)
    try:
        data = p.read_bytes()
    except PermissionError:
        raise error(p, "cannot be read: permission denied", allowed) from None
    except OSError as exc:
        raise error(p, f"cannot be read: {exc.strerror or exc}", allowed) from None
    if gzip_ok and data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise error(p, f"is a damaged or cut-off gzip file ({exc})", allowed) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise error(p, f"is not UTF-8 text (byte 0x{bad:02x} at offset {exc.start}; a binary "
                       "file, or text saved in another encoding)", allowed) from None
    if not empty_ok and not text.strip():
        raise error(p, "is empty", allowed)
    return text


def check_output_file(path: str | Path, allowed: str = "", *, error: type[FileProblem] = FileProblem
                      ) -> Path:
    """``path`` as a :class:`Path` if a file can be written there: not a folder, not a pipe or
    device, in a folder that exists, writable. Raise ``error`` otherwise. Nothing is created."""
    p = Path(path)
    if p.is_dir():
        raise error(p, "is a folder, not a file", allowed)
    if p.exists() and not p.is_file():
        raise error(p, "is not a regular file (a pipe, socket or device)", allowed)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise error(p, f"the folder {parent} does not exist (create it first)", allowed)
    if not parent.is_dir():
        raise error(p, f"{parent} is a file, not a folder", allowed)
    if p.exists() and not os.access(p, os.W_OK):
        raise error(p, "cannot be written: permission denied", allowed)
    if not p.exists() and not os.access(parent, os.W_OK):
        raise error(p, f"cannot be written: the folder {parent} is not writable", allowed)
    return p


def check_output_folder(path: str | Path, allowed: str = "", *,
                        error: type[FileProblem] = FileProblem) -> Path:
    """``path`` as a :class:`Path` if it is a writable folder or can be made one (its parent
    folder exists); raise ``error`` otherwise. Nothing is created."""
    p = Path(path)
    if p.exists():
        if not p.is_dir():
            raise error(p, "is a file, not a folder", allowed)
        if not os.access(p, os.W_OK):
            raise error(p, "cannot be written: permission denied", allowed)
        return p
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise error(p, f"the folder {parent} does not exist (create it first)", allowed)
    if not os.access(parent, os.W_OK):
        raise error(p, f"cannot be created: the folder {parent} is not writable", allowed)
    return p


Layout = Literal["empty", "one game", "JSON lines"]


@dataclass
class RecordFile:
    """What :func:`read_record_file` found: the records, the layout (``"one game"`` JSON
    document, ``"JSON lines"`` or ``"empty"``), and ``torn_line``: the 1-based number of a cut-off
    last line left out (only with ``torn_tail_ok``)."""

    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    layout: Layout = "empty"
    torn_line: int | None = None


def _check_record(path: Path, data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        kind = "a JSON list" if isinstance(data, list) else f"the JSON value {json.dumps(data)[:40]}"
        raise BadRecordFile(path, f"{where}holds {kind}, not a game record (a JSON object)")
    missing = [k for k in RECORD_KEYS if k not in data]
    if missing:
        raise BadRecordFile(path, f"{where}is a JSON object but not a game record (no "
                                  f"{', '.join(repr(k) for k in missing)} entry)")
    return data


def _json_problem(exc: json.JSONDecodeError, text: str) -> str:
    if exc.pos >= len(text.rstrip()):
        return f"is cut off: the JSON ends early (line {exc.lineno}: {exc.msg})"
    return (f"is not a JSON game record: invalid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg})")


def parse_records(text: str, path: str | Path, *, torn_tail_ok: bool = False) -> RecordFile:
    """The game records in ``text`` (the contents of ``path``), in either layout."""
    p = Path(path)
    if not text.strip():
        return RecordFile(p)
    stripped = text.strip()
    lines = text.splitlines()
    numbered = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip()]
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError as exc:
        whole_error = exc
    else:  # one JSON document (or a JSON-lines file of one line)
        return RecordFile(p, [_check_record(p, whole, "")], "one game")
    if len(numbered) > 1:
        try:
            json.loads(numbered[0][1])
        except json.JSONDecodeError:
            # The first line is no JSON value of its own: one JSON document, damaged or cut off.
            if stripped.startswith("{"):
                raise BadRecordFile(p, _json_problem(whole_error, stripped)) from None
            raise BadRecordFile(p, f"is not a JSON game record: it is not JSON at all (line 1: "
                                   f"{whole_error.msg})") from None
    out: list[dict[str, Any]] = []
    for k, (number, line) in enumerate(numbered):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            last = k == len(numbered) - 1
            ends_early = exc.pos >= len(line.rstrip()) or exc.msg.startswith("Unterminated")
            if last and ends_early and not text.endswith("\n") and line.lstrip().startswith("{"):
                if torn_tail_ok:
                    return RecordFile(p, out, "JSON lines", torn_line=number)
                raise BadRecordFile(p, f"is cut off: its last line ({number}) is an incomplete "
                                       "record (an interrupted write? `meeple simulate --out` "
                                       "onto this file removes that line and plays its game "
                                       "again)") from None
            raise BadRecordFile(p, f"is not a JSON game record: line {number} is not valid JSON "
                                   f"(column {exc.colno}: {exc.msg})") from None
        out.append(_check_record(p, data, f"line {number} "))
    return RecordFile(p, out, "JSON lines")


def read_record_file(path: str | Path, *, missing_ok: bool = False, empty_ok: bool = False,
                     torn_tail_ok: bool = False) -> RecordFile:
    """Read a record file in either layout (see the module docstring), checking every line.

    Raises :class:`BadRecordFile` (a :class:`~meeple.core.errors.BadRecord`) naming the path
    and the problem. ``missing_ok``: a missing file reads as empty (its folder must exist);
    ``empty_ok``: an empty file is allowed; ``torn_tail_ok``: a cut-off last JSON line is left
    out and reported in ``torn_line`` instead of refused.
    """
    p = Path(path)
    if missing_ok and not p.exists() and not p.is_symlink():
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.is_dir():
            raise BadRecordFile(p, _missing(p))
        return RecordFile(p)
    text = read_text(p, RECORD_FORMATS, error=BadRecordFile, empty_ok=True, gzip_ok=True)
    if not text.strip() and not empty_ok:
        raise BadRecordFile(p, "is empty: it holds no game record")
    return parse_records(text, p, torn_tail_ok=torn_tail_ok)


def read_records(path: str | Path, **kwargs: Any) -> list[dict[str, Any]]:
    """Every game record in a record file (see :func:`read_record_file` for the options)."""
    return read_record_file(path, **kwargs).records


def load_record(path: str | Path, index: int = 0) -> dict[str, Any]:
    """One game record from a record file: the game of a one-game file, or record ``index``
    (0 = first) of a JSON-lines file. Raises :class:`BadRecord` with a clear message."""
    found = read_record_file(path)
    n = len(found.records)
    if not 0 <= index < n:
        if n == 1:
            raise BadRecordFile(path, f"holds one game record; there is no record {index} "
                                      "(the only index is 0)", "")
        raise BadRecordFile(path, f"holds {n} game records; there is no record {index} "
                                  f"(indexes go from 0 to {n - 1})", "")
    return found.records[index]


__all__ = [
    "RECORD_FORMATS", "RECORD_KEYS", "BadRecordFile", "FileProblem", "RecordFile",
    "check_input_file", "check_output_file", "check_output_folder", "is_gzip", "load_record",
    "parse_records", "read_record_file", "read_records", "read_text",
]
