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

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from meeple.core.errors import SheetError
from meeple.core.records import FileProblem, read_text
from meeple.core.tomlguard import check_toml_text, data_problem

T = TypeVar("T", bound=BaseModel)

#: The most problems of one sheet listed, each with its line (locating one scans the text, so
#: a file of thousands of wrong keys must not cost thousands of scans); the rest are counted.
MAX_PROBLEMS = 20


#: Where a problem is inside a sheet's data: keys and list indices, e.g. ``("fields", 3, "id")``.
Loc = tuple[int | str, ...]
#: A problem found by a sheet model's own checks: where, and what is wrong and allowed.
Found = tuple[Loc, str]

#: The pydantic error type of a problem found by :meth:`SheetModel.sheet_checks`.
CHECK_ERROR = "sheet_check"


def _carry(err: Any) -> InitErrorDetails:
    """A pydantic error as it was (type, field, message and context), to raise again."""
    ctx = {k: v for k, v in (err.get("ctx") or {}).items() if k != "error"}
    ctx["message"] = str(err.get("msg", "invalid value"))
    return InitErrorDetails(type=PydanticCustomError(str(err.get("type", "value_error")),
                                                     "{message}", ctx),
                            loc=tuple(err.get("loc", ())), input=err.get("input"))


def _found(loc: Loc, message: str) -> InitErrorDetails:
    return InitErrorDetails(type=PydanticCustomError(CHECK_ERROR, "{message}",
                                                     {"message": message}),
                            loc=loc, input=None)


def entries(data: Any, key: str) -> list[tuple[int, Mapping[str, Any]]]:
    """``(index, table)`` of each table in the list ``data[key]`` as written (for
    :meth:`SheetModel.sheet_checks`; anything else is skipped)."""
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, list | tuple):
        return []
    return [(i, v) for i, v in enumerate(value) if isinstance(v, Mapping)]


def listed(data: Any, key: str) -> list[tuple[int, Any]]:
    """``(index, value)`` of each element of the list ``data[key]`` as written (none if it is
    not a list)."""
    value = data.get(key) if isinstance(data, Mapping) else None
    return list(enumerate(value)) if isinstance(value, list | tuple) else []


def as_int(value: Any) -> int | None:
    """``value`` if it is an integer as a sheet writes one (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_str(value: Any) -> str | None:
    """``value`` if it is a string, else None."""
    return value if isinstance(value, str) else None


def problems_error(title: str, found: list[Found]) -> ValidationError:
    """A pydantic error listing each ``(loc, message)`` of ``found`` at its own field (raised
    from a validator, its fields are taken as inside the model being validated)."""
    return ValidationError.from_exception_data(title, [_found(loc, msg) for loc, msg in found])


def _own_checks(cls: type[Any]) -> Any:
    """The :meth:`SheetModel.sheet_checks` of ``cls`` if it (or a base below SheetModel) gives
    one, else None (most models have none: their validation is pydantic's alone)."""
    func = getattr(cls.sheet_checks, "__func__", None)
    return None if func is getattr(SheetModel.sheet_checks, "__func__", None) else func


class SheetModel(BaseModel):
    """Base for sheet models: unknown keys are errors (a typo must not pass silently).

    A model whose rules span several fields (ids unique across a list, a list as long as
    another, references to ids given elsewhere) gives them in :meth:`sheet_checks`, which sees
    the data as written and runs whether or not the fields themselves are valid: every problem
    of a file is listed at once, each at its own field, never one stage after another."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def sheet_checks(cls, data: Mapping[str, Any]) -> list[Found]:
        """The problems across this model's fields in ``data`` (the input as written, not yet
        validated: a check skips what is not of the right type, which the fields' own
        validation reports). Each is ``(loc, message)``, ``loc`` relative to this model."""
        return []

    @model_validator(mode="wrap")
    @classmethod
    def _every_problem(cls, data: Any, handler: Any) -> Any:
        if not isinstance(data, Mapping) or _own_checks(cls) is None:
            return handler(data)
        try:
            model = handler(data)
        except ValidationError as exc:
            failed: ValidationError | None = exc
            model = None
        else:
            failed = None
        found = cls.sheet_checks(data)
        if not found:
            if failed is not None:
                raise failed
            return model
        errors = [_carry(e) for e in failed.errors(include_url=False)] if failed else []
        errors += [_found(loc, msg) for loc, msg in found]
        raise ValidationError.from_exception_data(cls.__name__, errors)


_HEADER = re.compile(r"""^\s*\[\[?\s*[A-Za-z0-9_\-."' ]+\]\]?\s*(?:#.*)?$""")


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


def _next_header(lines: list[str], start: int) -> int:
    """The index of the first table header after line ``start`` (or the number of lines): a
    table's keys are written before it."""
    return next((j for j in range(start + 1, len(lines)) if _HEADER.match(lines[j])), len(lines))


def _locate(text: str, loc: tuple[int | str, ...]) -> int | None:
    """Best-effort 1-based line of a pydantic error location inside TOML ``text``: the line of
    the field itself where it is written, else of the nearest table or key holding it.

    Understands tables (``[a]``, dotted ``[a.b]``), arrays of tables (``[[a]]``), keys (looked
    for inside their own table only) and arrays of inline tables written one element per line.
    """
    lines = text.splitlines()
    pos = 0
    limit = _next_header(lines, -1)  # the top-level keys come before the first header
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
                limit = _next_header(lines, pos)
                i += 2
                continue
        hit = next((j for j in range(pos, len(lines)) if _is_header(lines[j], dotted, False)), None)
        if hit is None:  # an array of tables named without an index (e.g. an unknown key)
            hit = next((j for j in range(pos, len(lines)) if _is_header(lines[j], dotted, True)),
                       None)
        if hit is not None:
            pos, found = hit, hit + 1
            limit = _next_header(lines, pos)
            i += 1
            continue
        assign = re.compile(r"^\s*(?:" + re.escape(part) + r'|"' + re.escape(part) + r'")\s*=')
        hit = next((j for j in range(pos, limit) if assign.match(lines[j])), None)
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
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return "Field required (this field is missing)"
    if kind == "extra_forbidden":
        return "Extra inputs are not permitted (an unknown field: check its spelling and table)"
    bound = {"greater_than_equal": ("ge", "{} or more"), "less_than_equal": ("le", "{} or less"),
             "greater_than": ("gt", "more than {}"), "less_than": ("lt", "less than {}")}
    if kind in bound and bound[kind][0] in ctx:
        key, allowed = bound[kind]
        return f"must be {allowed.format(ctx[key])}; got {err.get('input')!r}"
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
        seen: set[tuple[str, str]] = set()
        for err in errors[:MAX_PROBLEMS]:
            loc = (*prefix, *tuple(err.get("loc", ())))
            where, message = _format_loc(loc), _problem_text(err)
            if (where, message) in seen:
                continue
            seen.add((where, message))
            line = _locate(text, loc) if text is not None else None
            problems.append((line, where, message))
        # in the order of the file (problems without a line last), as a reader goes through it
        problems.sort(key=lambda p: (p[0] is None, p[0] or 0))
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
