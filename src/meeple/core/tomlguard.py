"""Limits on sheet input, checked before any parser runs on it.

Python's ``tomllib`` is not safe on hostile text: a key of thousands of dotted parts
(``a.a.a.a... = 1``) costs it time and memory that grow with the square of the key's length
(a 40 KB line: tens of seconds and more than a gigabyte), and arrays or inline tables nested
some thousand levels deep end in a ``RecursionError``. Sheets come from players (the server
takes uploads), so every sheet's text goes through :func:`check_toml_text` first: one linear
pass that refuses, with a :class:`~meeple.core.errors.SheetError` naming the line, what is
wrong and what is allowed, any text beyond the limits below. Sheet data given as plain data
(JSON to the server, a record's sheet) goes through :func:`data_problem` before validation: its
nesting depth and size are measured by an explicit stack, never by recursion
(:func:`meeple.core.sheets.validate_data` refuses data beyond them).

The limits are far above what a real sheet needs: the shipped sheets (all four games) have at
most 349 lines, 8,472 bytes, lines of 466 characters, keys of 23 characters and no dotted
key, 4 levels of arrays and inline tables, 685 values, and as data (a game's sheet data,
Pergola's whole bundle included) 7 levels and 914 items; ``tests/core/test_tomlguard.py``
checks that they keep a wide margin.

The scan follows TOML 1.0 as ``tomllib`` reads it where it matters for the limits: strings of
all four kinds (so brackets, dots, ``=`` or ``#`` inside a string count for nothing), comments,
keys (bare, quoted, dotted), table headers and nested values. Text whose structure it cannot
follow is not valid TOML; it is refused too (``not valid TOML: ...``, with the line), so no
part of a text reaches ``tomllib`` unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from meeple.core.errors import SheetError

#: The largest sheet text, in bytes of UTF-8 (the server's upload limit too).
MAX_TEXT_BYTES = 64 * 1024
#: The most lines a sheet text may have.
MAX_LINES = 5_000
#: The longest line, in characters (lines inside multi-line strings count too).
MAX_LINE_CHARS = 4_000
#: The longest key or part of a dotted key, in characters (inside the quotes if quoted).
MAX_KEY_CHARS = 128
#: The most parts of a dotted key (``a.b.c`` has 3), in key/value pairs and table headers.
MAX_KEY_PARTS = 16
#: The deepest nesting of arrays and inline tables inside one value.
MAX_NESTING = 32
#: The most values in a text (every value, array element and inline table, and every table
#: header, counts one).
MAX_VALUES = 20_000
#: The deepest nesting of sheet data (tables and arrays, the top level being depth 1).
MAX_DATA_DEPTH = 64
#: The most items in sheet data (every table, array, key's value and array element).
MAX_DATA_ITEMS = 50_000

_WS = re.compile(r"[ \t\r]*+")
_GAP = re.compile(r"(?:[ \t\r\n]++|#[^\n]*+)*+")  # what may stand between array elements
_COMMENT = re.compile(r"#[^\n]*+")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]++")
_BASIC = re.compile(r'"(?:[^"\\\n]|\\[^\n])*+"')
_LITERAL = re.compile(r"'[^'\n]*+'")
_ML_BASIC = re.compile(r'"""(?:[^"\\]|\\.|""?(?!"))*+"""(?:""?)?+', re.S)
_ML_LITERAL = re.compile(r"'''(?:[^']|''?(?!'))*+'''(?:''?)?+")
#: The four kinds of string, by how each opens (the longer openings first), and what is said
#: when one is not closed.
_STRINGS = (
    ('"""', _ML_BASIC, 'a multi-line string (""") is not closed'),
    ("'''", _ML_LITERAL, "a multi-line string (''') is not closed"),
    ('"', _BASIC, "a string is not closed on its line"),
    ("'", _LITERAL, "a string is not closed on its line"),
)
_SCALAR = re.compile(r"""[^,\]}#\n"'\[{]++""")

_ARRAY = "["


def _skip(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """The end of ``pattern`` (one that may match nothing) at ``pos``."""
    m = pattern.match(text, pos)
    return pos if m is None else m.end()


class _Scan:
    """One pass over a TOML text; :meth:`run` raises :class:`SheetError` at the first
    problem."""

    def __init__(self, text: str, path: str | None) -> None:
        self.text = text
        self.path = path
        self.pos = 0
        self.values = 0
        # what was seen, for the limits' documentation and tests
        self.max_key_chars = 0
        self.max_key_parts = 0
        self.max_nesting = 0

    # ---------------------------------------------------------------- helpers
    def fail(self, message: str, pos: int | None = None) -> SheetError:
        at = self.pos if pos is None else pos
        return SheetError(message, path=self.path, line=self.text.count("\n", 0, at) + 1)

    def invalid(self, what: str, pos: int | None = None) -> SheetError:
        return self.fail(f"not valid TOML: {what}", pos)

    def ws(self) -> None:
        self.pos = _skip(_WS, self.text, self.pos)

    def comment(self) -> None:
        m = _COMMENT.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def count_value(self, pos: int) -> None:
        self.values += 1
        if self.values > MAX_VALUES:
            raise self.fail(f"more than {MAX_VALUES} values; a sheet has at most {MAX_VALUES} "
                            f"values (array elements and table headers included)", pos)

    # ---------------------------------------------------------------- keys
    def key(self) -> None:
        """A key, bare, quoted or dotted, starting at ``pos``."""
        text = self.text
        start = self.pos
        parts = 0
        while True:
            self.ws()
            c = self.peek()
            at = self.pos
            if c == '"':
                m = _BASIC.match(text, at)
                if m is None:
                    raise self.invalid("a quoted key is not closed on its line")
                length = m.end() - at - 2
            elif c == "'":
                m = _LITERAL.match(text, at)
                if m is None:
                    raise self.invalid("a quoted key is not closed on its line")
                length = m.end() - at - 2
            else:
                m = _BARE_KEY.match(text, at)
                if m is None:
                    got = repr(c) if c else "the end of the text"
                    raise self.invalid(f"expected a key (letters, digits, _ and -, or a quoted "
                                       f"key), found {got}")
                length = m.end() - at
            parts += 1
            if length > MAX_KEY_CHARS:
                raise self.fail(f"a key of {length} characters; a key (or each part of a "
                                f"dotted key) has at most {MAX_KEY_CHARS} characters", at)
            if parts > MAX_KEY_PARTS:
                raise self.fail(f"a dotted key of more than {MAX_KEY_PARTS} parts "
                                f"({text[start:at].strip()[:40]}...); a key has at most "
                                f"{MAX_KEY_PARTS} parts", at)
            self.max_key_chars = max(self.max_key_chars, length)
            self.max_key_parts = max(self.max_key_parts, parts)
            self.pos = m.end()
            self.ws()
            if self.peek() != ".":
                return
            self.pos += 1

    def equals(self) -> None:
        self.ws()
        if self.peek() != "=":
            raise self.invalid("expected '=' after a key")
        self.pos += 1

    # ---------------------------------------------------------------- values
    def string(self) -> bool:
        """A string at ``pos``, if there is one (then consumed)."""
        text, at = self.text, self.pos
        for opening, pattern, what in _STRINGS:
            if text.startswith(opening, at):
                m = pattern.match(text, at)
                if m is None:
                    raise self.invalid(what)
                self.pos = m.end()
                return True
        return False

    def value(self) -> None:
        """One value at ``pos`` (after ``=``), nested arrays and inline tables included,
        walked with an explicit stack."""
        text, n = self.text, len(self.text)
        stack: list[str] = []
        pos = self.pos
        expect_value = True
        while True:
            if expect_value:
                pos = _skip(_WS, text, pos)
                c = text[pos] if pos < n else ""
                self.count_value(pos)
                if c == "[" or c == "{":
                    pos, expect_value = self.open_nested(c, stack, pos)
                else:
                    pos = self.plain_value(c, pos)
                    expect_value = False
                continue
            # after a value
            if not stack:
                self.pos = pos
                return
            if stack[-1] == _ARRAY:
                pos, expect_value = self.after_array_element(stack, pos)
            else:
                pos, expect_value = self.after_table_value(stack, pos)

    def open_nested(self, c: str, stack: list[str], pos: int) -> tuple[int, bool]:
        """An array or inline table opening at ``pos`` (``c``: its bracket), pushed on
        ``stack``: the position after it (an inline table's first key and ``=`` included) and
        whether a value follows (not after an empty one)."""
        text = self.text
        stack.append(c)
        if len(stack) > MAX_NESTING:
            raise self.fail(f"arrays and inline tables nested more than "
                            f"{MAX_NESTING} deep; at most {MAX_NESTING} levels "
                            f"are allowed", pos)
        self.max_nesting = max(self.max_nesting, len(stack))
        if c == "[":
            return self.next_array_element(stack, pos + 1)  # or an empty array
        pos = _skip(_WS, text, pos + 1)
        if text.startswith("}", pos):  # an empty inline table
            stack.pop()
            return pos + 1, False
        self.pos = pos
        self.key()
        self.equals()
        return self.pos, True

    def plain_value(self, c: str, pos: int) -> int:
        """A string or a scalar (number, boolean, date) at ``pos`` (``c``: its first character):
        the position after it."""
        self.pos = pos
        if self.string():
            return self.pos
        m = _SCALAR.match(self.text, pos)
        if m is None:
            got = repr(c) if c and c != "\n" else "the end of the line"
            raise self.invalid(f"expected a value, found {got}")
        return m.end()

    def after_array_element(self, stack: list[str], pos: int) -> tuple[int, bool]:
        """After an array's element: ``,`` and another element (or a trailing comma), or the
        closing ``]`` (popped from ``stack``); the position and whether a value follows."""
        text = self.text
        pos = _skip(_GAP, text, pos)
        c = text[pos] if pos < len(text) else ""
        if c == ",":
            return self.next_array_element(stack, pos + 1)  # or a trailing comma
        if c == "]":
            stack.pop()
            return pos + 1, False
        raise self.invalid("expected ',' or ']' after an array element", pos)

    def next_array_element(self, stack: list[str], pos: int) -> tuple[int, bool]:
        """After an array's ``[`` or an element's ``,``: the gap (comments and line breaks
        included), then the next element, or the closing ``]`` (popped from ``stack``); the
        position and whether a value follows."""
        pos = _skip(_GAP, self.text, pos)
        if self.text.startswith("]", pos):
            stack.pop()
            return pos + 1, False
        return pos, True

    def after_table_value(self, stack: list[str], pos: int) -> tuple[int, bool]:
        """After a value of an inline table: ``,`` and the next key and ``=``, or the closing
        ``}`` (popped from ``stack``); the position and whether a value follows."""
        text = self.text
        pos = _skip(_WS, text, pos)
        c = text[pos] if pos < len(text) else ""
        if c == ",":
            self.pos = pos + 1
            self.key()
            self.equals()
            return self.pos, True
        if c == "}":
            stack.pop()
            return pos + 1, False
        raise self.invalid("expected ',' or '}' after a value of an inline table "
                           "(an inline table is written on one line)", pos)

    # ---------------------------------------------------------------- statements
    def end_of_line(self) -> None:
        self.ws()
        c = self.peek()
        if c == "#":
            self.comment()
            c = self.peek()
        if c == "\n":
            self.pos += 1
        elif c:
            raise self.invalid(f"expected the end of the line, found {c!r}")

    def run(self) -> None:
        text = self.text
        while True:
            self.ws()
            c = self.peek()
            if not c:
                return
            if c == "\n":
                self.pos += 1
            elif c == "#":
                self.comment()
            elif c == "[":
                close = "]]" if text.startswith("[[", self.pos) else "]"
                self.count_value(self.pos)
                self.pos += len(close)
                self.key()
                if not text.startswith(close, self.pos):
                    raise self.invalid(f"expected {close!r} to close the table header")
                self.pos += len(close)
                self.end_of_line()
            else:
                self.key()
                self.equals()
                self.value()
                self.end_of_line()


def _check_size(text: str, path: str | None) -> int:
    """Bytes, lines and line lengths; the number of lines (a last line without a newline
    counts, the empty rest after a final newline does not)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT_BYTES:
        raise SheetError(f"the sheet is {size} bytes; a sheet has at most {MAX_TEXT_BYTES} "
                         f"bytes ({MAX_TEXT_BYTES // 1024} KB)", path=path)
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if lines > MAX_LINES:
        raise SheetError(f"{lines} lines; a sheet has at most {MAX_LINES} lines",
                         path=path, line=MAX_LINES + 1)
    start = 0
    for number in range(1, lines + 1):
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE_CHARS:
            raise SheetError(f"a line of {stop - start} characters; a line has at most "
                             f"{MAX_LINE_CHARS} characters", path=path, line=number)
        start = stop + 1
    return lines


def toml_measures(text: str, path: str | None = None) -> dict[str, int]:
    """Check ``text`` as :func:`check_toml_text` does and return what it measured: bytes,
    lines, the longest line, key and dotted key, the deepest nesting and the values."""
    lines = _check_size(text, path)
    scan = _Scan(text, path)
    scan.run()
    return {"bytes": len(text.encode("utf-8", "surrogatepass")), "lines": lines,
            "line_chars": max(len(ln) for ln in text.split("\n")),
            "key_chars": scan.max_key_chars, "key_parts": scan.max_key_parts,
            "nesting": scan.max_nesting, "values": scan.values}


def check_toml_text(text: str, path: str | None = None) -> None:
    """Refuse TOML ``text`` beyond the module's limits (or whose structure cannot be followed)
    with a :class:`SheetError` naming ``path``, the line, what is wrong and what is allowed.
    Linear in the text's length; nothing is parsed."""
    _check_size(text, path)
    _Scan(text, path).run()


_Loc = tuple[int | str, Any] | None  # (key, parent's _Loc): a path without copying it


def _path(loc: _Loc) -> list[int | str]:
    out: list[int | str] = []
    while loc is not None:
        out.append(loc[0])
        loc = loc[1]
    return out[::-1]


def data_measures(data: Any) -> tuple[int, int]:
    """``(depth, items)`` of plain data (see :data:`MAX_DATA_DEPTH`, :data:`MAX_DATA_ITEMS`);
    the walk stops where a limit is passed."""
    _, depth, items = _walk(data)
    return depth, items


def _walk(data: Any) -> tuple[tuple[list[int | str], str] | None, int, int]:
    """The first limit ``data`` passes as ``(path, problem)`` (or None), its depth and items,
    walked with an explicit stack."""
    stack: list[tuple[Any, int, _Loc]] = [(data, 1, None)]
    items = 0
    deepest = 0
    while stack:
        node, depth, loc = stack.pop()
        items += 1
        if isinstance(node, Mapping):
            children: list[tuple[int | str, Any]] = [(str(k), v) for k, v in node.items()]
        elif isinstance(node, list | tuple):
            children = list(enumerate(node))
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_DATA_DEPTH:
            where = _path(loc)
            return (where, f"nested more than {MAX_DATA_DEPTH} levels deep; sheet data is "
                           f"nested at most {MAX_DATA_DEPTH} levels (tables and arrays)"
                    ), deepest, items
        if items + len(stack) + len(children) > MAX_DATA_ITEMS:
            return (_path(loc), f"the data passes {MAX_DATA_ITEMS} items here; sheet data "
                                f"has at most {MAX_DATA_ITEMS} items (tables, arrays and "
                                f"values, all counted)"
                    ), deepest, items + len(stack) + len(children)
        stack.extend((child, depth + 1, (key, loc)) for key, child in reversed(children))
    return None, deepest, items


def data_problem(data: Any) -> tuple[list[int | str], str] | None:
    """``(where, message)`` if plain ``data`` passes :data:`MAX_DATA_DEPTH` or
    :data:`MAX_DATA_ITEMS` (``where`` is the path of the table or array that passes it, e.g.
    ``["fields", 0, "a"]``); None if it keeps to them. Linear in the data's size (the walk
    stops at the limit); no recursion."""
    problem, _, _ = _walk(data)
    return problem


__all__ = ["MAX_DATA_DEPTH", "MAX_DATA_ITEMS", "MAX_KEY_CHARS", "MAX_KEY_PARTS", "MAX_LINES",
           "MAX_LINE_CHARS", "MAX_NESTING", "MAX_TEXT_BYTES", "MAX_VALUES", "check_toml_text",
           "data_measures", "data_problem", "toml_measures"]
