"""Sheet and board files: TOML validated by pydantic models, with line-precise errors.

Every game keeps its printed (or reconstructed) layouts in TOML files under
``meeple/games/<game>/sheets``. :func:`load_sheet` accepts a shipped sheet name, a path to a
user's file, or the plain data stored in a game record, and always returns a validated model.
Errors name the file, the line and the field, and say what is allowed.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from meeple.core.errors import SheetError
from meeple.core.records import FileProblem, read_text
from meeple.core.tomlguard import check_toml_text, data_problem

T = TypeVar("T", bound=BaseModel)

#: The most problems of one sheet listed, each with its line (locating one scans the text, so
#: a file of thousands of wrong keys must not cost thousands of scans); the rest are counted.
MAX_PROBLEMS = 20


class SheetModel(BaseModel):
    """Base for sheet models: unknown keys are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _is_header(line: str, dotted: str, array: bool) -> bool:
    text = line.strip()
    if array:
        if not (text.startswith("[[") and "]]" in text):
            return False
        inner = text[2:text.index("]]")]
    else:
        if not text.startswith("[") or text.startswith("[[") or "]" not in text:
            return False
        inner = text[1:text.index("]")]
    return ".".join(p.strip().strip('"') for p in inner.split(".")) == dotted


def _locate(text: str, loc: tuple[int | str, ...]) -> int | None:
    """Best-effort 1-based line of a pydantic error location inside TOML ``text``.

    Understands tables (``[a]``, dotted ``[a.b]``), arrays of tables (``[[a]]``), keys and
    arrays of inline tables written one element per line.
    """
    lines = text.splitlines()
    pos = 0
    found: int | None = None
    path: list[str] = []
    i = 0
    while i < len(loc):
        part = loc[i]
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        if isinstance(part, int):
            i += 1
            continue
        path.append(part)
        dotted = ".".join(path)
        if isinstance(nxt, int):
            hits = [j for j in range(pos, len(lines)) if _is_header(lines[j], dotted, True)]
            if len(hits) > nxt:
                pos = hits[nxt]
                found = pos + 1
                i += 2
                continue
        hit = next((j for j in range(pos, len(lines)) if _is_header(lines[j], dotted, False)), None)
        if hit is None:  # an array of tables named without an index (e.g. an unknown key)
            hit = next((j for j in range(pos, len(lines)) if _is_header(lines[j], dotted, True)),
                       None)
        if hit is not None:
            pos, found = hit, hit + 1
            i += 1
            continue
        assign = re.compile(r"^\s*(?:" + re.escape(part) + r'|"' + re.escape(part) + r'")\s*=')
        hit = next((j for j in range(pos, len(lines)) if assign.match(lines[j])), None)
        if hit is not None:
            pos, found = hit, hit + 1
            if isinstance(nxt, int):
                return _inline_element(lines, hit, nxt)
        i += 1
    return found


def _inline_element(lines: list[str], start: int, index: int) -> int:
    """The line of element ``index`` of an array assigned at line ``start`` (one per line)."""
    head = lines[start].split("=", 1)[1]
    if head.count("[") <= head.count("]"):  # the whole array is on one line
        return start + 1
    count = -1
    for j in range(start + 1, len(lines)):
        text = lines[j].strip()
        if not text or text.startswith("#"):
            continue
        if text.startswith("]"):
            break
        count += 1
        if count == index:
            return j + 1
    return start + 1


def _format_loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


class SheetProblems(SheetError):
    """A sheet with one or more invalid fields: ``problems`` lists ``(line, field, message)``
    for every one (``line`` is None where unknown); ``line`` is the first problem's line."""

    def __init__(self, problems: list[tuple[int | None, str, str]], path: str | None = None
                 ) -> None:
        if len(problems) == 1:
            line, where, msg = problems[0]
            super().__init__(f"{where}: {msg}", path=path, line=line)
        else:
            listed = "\n".join(f"  {'' if ln is None else f'line {ln}: '}{where}: {msg}"
                               for ln, where, msg in problems)
            super().__init__(f"{len(problems)} problems:\n{listed}", path=path)
            self.line = problems[0][0]
        self.problems = problems


def _problem_text(err: Any) -> str:
    kind = err.get("type")
    if kind == "missing":
        return "Field required (this field is missing)"
    if kind == "extra_forbidden":
        return "Extra inputs are not permitted (an unknown field: check its spelling and table)"
    msg = str(err.get("msg", "invalid value"))
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return msg


def validate_data(model: type[T], data: Mapping[str, Any], path: str | None = None,
                  text: str | None = None, prefix: tuple[str, ...] = ()) -> T:
    """Validate ``data`` against ``model``; raise :class:`SheetError` listing every problem
    (the first :data:`MAX_PROBLEMS`, then how many more), each with its line (where ``text``,
    the file's TOML, is given) and field.

    ``prefix`` is where ``data`` sits inside ``text`` (e.g. ``("pond",)`` for the ``[pond]``
    table of a one-file bundle). The error's ``problems`` holds ``(line, field, message)`` for
    each problem and ``line`` the first one's line.

    Data nested deeper or larger than :mod:`meeple.core.tomlguard` allows is refused first,
    before pydantic sees it (see :func:`check_sheet_data`).
    """
    check_sheet_data(data, path=path, text=text, prefix=prefix)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems: list[tuple[int | None, str, str]] = []
        errors = exc.errors(include_url=False)
        for err in errors[:MAX_PROBLEMS]:
            loc = (*prefix, *tuple(err.get("loc", ())))
            line = _locate(text, loc) if text is not None else None
            problems.append((line, _format_loc(loc), _problem_text(err)))
        if len(errors) > MAX_PROBLEMS:
            problems.append((None, "(sheet)", f"and {len(errors) - MAX_PROBLEMS} more problems "
                                              f"(the first {MAX_PROBLEMS} are listed)"))
        raise SheetProblems(problems, path=path) from None


def check_sheet_data(data: Any, path: str | None = None, text: str | None = None,
                     prefix: tuple[str, ...] = ()) -> None:
    """Refuse plain sheet data nested deeper than
    :data:`~meeple.core.tomlguard.MAX_DATA_DEPTH` levels or of more than
    :data:`~meeple.core.tomlguard.MAX_DATA_ITEMS` items with :class:`SheetProblems` naming the
    field (and its line, where ``text`` is given). Walked without recursion, in time linear in
    the data up to the limit, so it is safe on any JSON a client sends."""
    problem = data_problem(data)
    if problem is None:
        return
    where, message = problem
    loc = (*prefix, *where)
    line = _locate(text, loc) if text is not None else None
    shown = loc if len(loc) <= 8 else (*loc[:4], "...", *loc[-3:])
    raise SheetProblems([(line, _format_loc(shown), message)], path=path)


def read_sheet_text(path: str | Path, kind: str = "sheet") -> str:
    """The text of a sheet file, or :class:`SheetError` naming the path and what is wrong
    (missing, a folder, unreadable, empty, not UTF-8; see :func:`meeple.core.records.read_text`)."""
    try:
        return read_text(path, f"a {kind} is a UTF-8 TOML file")
    except FileProblem as exc:
        problem = exc.problem.removeprefix("cannot be read: ")
        if problem.startswith("is "):
            problem = "it " + problem
        raise SheetError(f"cannot read {kind} file: {problem}; a {kind} is a UTF-8 TOML file",
                         path=exc.path) from None


def load_sheet(model: type[T], source: str | Path | Mapping[str, Any],
               shipped_dir: Path, kind: str = "sheet") -> T:
    """A validated sheet from a shipped name, a TOML file path, or plain data."""
    if isinstance(source, Mapping):
        return validate_data(model, source, path=f"<{kind} data>")
    src = str(source)
    candidate = shipped_dir / f"{src}.toml"
    if "/" not in src and "\\" not in src and not src.endswith(".toml") and not (
            not candidate.exists() and Path(src).exists()):  # an existing file is a path
        if not candidate.exists():
            names = ", ".join(sorted(p.stem for p in shipped_dir.glob("*.toml")))
            raise SheetError(f"no shipped {kind} named {src!r}; shipped: {names}; "
                             f"or give the path of a .toml file")
        path = candidate
    else:
        path = Path(src)
    return parse_sheet_text(model, read_sheet_text(path, kind), str(path))


def parse_sheet_text(model: type[T], text: str, path: str) -> T:
    """A validated sheet from TOML ``text`` (read from ``path``): the text is checked against
    the limits of :mod:`meeple.core.tomlguard` before ``tomllib`` reads it, then validated."""
    check_toml_text(text, path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise SheetError(f"not valid TOML: {exc}", path=path,
                         line=int(m.group(1)) if m else None) from None
    return validate_data(model, data, path=path, text=text)
