"""meeple.core.tomlguard: sheet text and sheet data are bounded before any parser runs.

The attacks of issue 35 (a dotted-key bomb, arrays and inline tables nested thousands deep, a
huge key, a flood of lines, deep or huge JSON data) are refused with a SheetError naming the
line (or field) and the limit, and ``tomllib`` is never called on them: the tests replace
``tomllib.loads`` by a function that fails the test. No timing is asserted.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.errors import SheetError
from meeple.core.sheets import (
    MAX_PROBLEMS,
    SheetModel,
    SheetProblems,
    check_sheet_data,
    load_sheet,
    parse_sheet_text,
    validate_data,
)
from meeple.core.tomlguard import (
    MAX_DATA_DEPTH,
    MAX_DATA_ITEMS,
    MAX_KEY_CHARS,
    MAX_KEY_PARTS,
    MAX_LINE_CHARS,
    MAX_LINES,
    MAX_NESTING,
    MAX_TEXT_BYTES,
    MAX_VALUES,
    check_toml_text,
    data_measures,
    data_problem,
    toml_measures,
)

SHIPPED = sorted(Path(str(resources.files("meeple.games"))).glob("*/sheets/*.toml"))
UPLOAD_GAMES = ("gardens", "reefs", "takenokolor")


class Anything(SheetModel):
    """A model taking any one table ``x`` (so the tests reach the parser, not the fields)."""

    model_config = SheetModel.model_config | {"extra": "allow"}


@pytest.fixture
def no_tomllib(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """``tomllib.loads`` fails the test if called; the texts it was called on are kept."""
    calls: list[str] = []

    def refuse(text: str, **_: Any) -> dict[str, Any]:
        calls.append(text)
        raise AssertionError("tomllib.loads was called on a text the guard should refuse")

    monkeypatch.setattr(tomllib, "loads", refuse)
    yield calls


# ------------------------------------------------------------------ the attack inputs
HEAD = 'name = "bomb"\nlevel = 1\n'   # two harmless lines first: the bomb is on line 3


def _deep_multiline(levels: int, per_line: int, opener: str, closer: str) -> str:
    """``x = `` and ``levels`` openers, ``per_line`` to a line (so no line is too long)."""
    lines = [opener * per_line for _ in range(levels // per_line)]
    ends = [closer * per_line for _ in range(levels // per_line)]
    return "x = " + "\n".join(lines) + "\n" + "\n".join(ends) + "\n"


BOMBS: dict[str, tuple[str, int | None, str]] = {
    # name: (text, the line named, words the message must carry)
    "dotted-key bomb, 40 KB on one line": (
        HEAD + "a" + ".a" * 20_000 + " = 1\n", 3, f"at most {MAX_LINE_CHARS} characters"),
    "dotted-key bomb under the line limit": (
        HEAD + "a" + ".a" * 1_900 + " = 1\n", 3, f"at most {MAX_KEY_PARTS} parts"),
    "dotted-key bomb, 40 KB over 20 lines": (
        HEAD + "".join(f"k{i}" + ".a" * 1_000 + " = 1\n" for i in range(20)), 3,
        f"at most {MAX_KEY_PARTS} parts"),
    "quoted dotted-key bomb": (
        HEAD + ".".join(['"a"'] * 900) + " = 1\n", 3, f"at most {MAX_KEY_PARTS} parts"),
    "dotted table header": (
        HEAD + "[" + ".".join(["t"] * 1_500) + "]\n", 3, f"at most {MAX_KEY_PARTS} parts"),
    "dotted array-of-tables header": (
        HEAD + "[[" + " . ".join(["t"] * 900) + "]]\n", 3, f"at most {MAX_KEY_PARTS} parts"),
    "dotted key inside an inline table": (
        HEAD + "x = { " + ".".join(["a"] * 1_000) + " = 1 }\n", 3,
        f"at most {MAX_KEY_PARTS} parts"),
    "10,000-deep arrays on one line": (
        HEAD + "x = " + "[" * 10_000 + "]" * 10_000 + "\n", 3,
        f"at most {MAX_LINE_CHARS} characters"),
    "10,000-deep arrays over lines": (
        HEAD + _deep_multiline(10_000, 1_000, "[", "]"), 3, f"at most {MAX_NESTING} levels"),
    "10,000-deep inline tables on one line": (
        HEAD + "x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", 3,
        f"at most {MAX_LINE_CHARS} characters"),
    "deep inline tables under the line limit": (
        HEAD + "x = " + "{a=" * 900 + "1" + "}" * 900 + "\n", 3,
        f"at most {MAX_NESTING} levels"),
    "10,000-deep inline tables and arrays over lines": (
        HEAD + _deep_multiline(5_000, 250, "{a = [", "]}"), 3, f"at most {MAX_NESTING} levels"),
    "huge bare key": (HEAD + "k" * 3_000 + " = 1\n", 3, f"at most {MAX_KEY_CHARS} characters"),
    "huge quoted key": (HEAD + '"' + "k" * 3_000 + '" = 1\n', 3,
                        f"at most {MAX_KEY_CHARS} characters"),
    "huge literal key in a header": (HEAD + "['" + "k" * 3_000 + "']\n", 3,
                                     f"at most {MAX_KEY_CHARS} characters"),
    "huge key on a huge line": (HEAD + "k" * 50_000 + " = 1\n", 3,
                                f"at most {MAX_LINE_CHARS} characters"),
    "many lines": (HEAD + "# a comment\n" * 5_000, MAX_LINES + 1, f"at most {MAX_LINES} lines"),
    "many empty lines": ("\n" * 60_000, MAX_LINES + 1, f"at most {MAX_LINES} lines"),
    "many values": (HEAD + "x = [\n" + "1," * 1_000 + "\n" + ("1," * 1_999 + "\n") * 10 + "]\n",
                    14, f"at most {MAX_VALUES} values"),
    "too many bytes": (HEAD + "# " + "é" * 40_000 + "\n", None, f"at most {MAX_TEXT_BYTES} bytes"),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_bomb_is_refused_with_its_line_and_the_limit_before_tomllib_runs(
        name: str, no_tomllib: list[str]) -> None:
    text, line, words = BOMBS[name]
    with pytest.raises(SheetError) as err:
        parse_sheet_text(Anything, text, "bomb.toml")
    assert err.value.line == line, str(err.value)
    assert words in err.value.message, err.value.message
    assert err.value.path == "bomb.toml"
    assert str(err.value).startswith("bomb.toml:" + ("" if line is None else f"{line}:"))
    assert no_tomllib == []


@pytest.mark.parametrize("game", UPLOAD_GAMES)
@pytest.mark.parametrize("name", ["dotted-key bomb, 40 KB over 20 lines",
                                  "10,000-deep arrays over lines",
                                  "10,000-deep inline tables on one line", "huge quoted key"])
def test_a_bomb_given_to_new_game_as_a_file_is_refused(game: str, name: str, tmp_path: Path,
                                                       no_tomllib: list[str]) -> None:
    """The path every sheet file takes (``meeple sheets validate``, the server's uploads)."""
    text, line, words = BOMBS[name]
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SheetError) as err:
        meeple.new_game(game, players=1, sheet=str(path))
    assert err.value.line == line
    assert words in err.value.message
    assert no_tomllib == []


def test_without_the_guard_these_inputs_do_break_tomllib() -> None:
    """What the guard stands in front of (small enough to be quick): a RecursionError on
    deep nesting, which is no TOMLDecodeError and was a server error."""
    with pytest.raises(RecursionError):
        tomllib.loads("x = " + "[" * 10_000 + "]" * 10_000)
    with pytest.raises(RecursionError):
        tomllib.loads("x = " + "{a=" * 10_000 + "1" + "}" * 10_000)


# ------------------------------------------------------------------ the limits' edges
def _nested(levels: int) -> str:
    return "x = " + "[" * levels + "]" * levels + "\n"


@pytest.mark.parametrize(("ok", "too_much", "words"), [
    (_nested(MAX_NESTING), _nested(MAX_NESTING + 1), "nested more than"),
    ("x = " + "{a = " * MAX_NESTING + "1" + "}" * MAX_NESTING + "\n",
     "x = " + "{a = " * (MAX_NESTING + 1) + "1" + "}" * (MAX_NESTING + 1) + "\n",
     "nested more than"),
    (".".join(["a"] * MAX_KEY_PARTS) + " = 1\n", ".".join(["a"] * (MAX_KEY_PARTS + 1)) + " = 1\n",
     "dotted key of more than"),
    ("[" + ".".join(["a"] * MAX_KEY_PARTS) + "]\n", "[" + ".".join(["a"] * (MAX_KEY_PARTS + 1))
     + "]\n", "dotted key of more than"),
    ("k" * MAX_KEY_CHARS + " = 1\n", "k" * (MAX_KEY_CHARS + 1) + " = 1\n", "a key of"),
    ("'" + "k" * MAX_KEY_CHARS + "' = 1\n", "'" + "k" * (MAX_KEY_CHARS + 1) + "' = 1\n",
     "a key of"),
    ('x = "' + "s" * (MAX_LINE_CHARS - 6) + '"\n', 'x = "' + "s" * (MAX_LINE_CHARS - 5) + '"\n',
     "a line of"),
    ("#\n" * MAX_LINES, "#\n" * MAX_LINES + "#", "lines; a sheet has at most"),
    (("#" * 1023 + "\n") * (MAX_TEXT_BYTES // 1024), ("#" * 1023 + "\n") * (MAX_TEXT_BYTES // 1024)
     + "#", "bytes"),
])
def test_a_text_at_a_limit_passes_and_one_past_it_is_refused(ok: str, too_much: str,
                                                             words: str) -> None:
    check_toml_text(ok)
    tomllib.loads(ok)
    with pytest.raises(SheetError) as err:
        check_toml_text(too_much)
    assert words in err.value.message


def test_values_are_counted_to_the_limit() -> None:
    row = "1," * 1_000
    rows = (MAX_VALUES - 1) // 1_000
    fits = "x = [\n" + (row + "\n") * rows + "]\n"
    assert toml_measures(fits)["values"] == 1 + 1_000 * rows  # the array and its elements
    over = "x = [\n" + (row + "\n") * (MAX_VALUES // 1_000) + "1]\n"
    with pytest.raises(SheetError, match=f"more than {MAX_VALUES} values"):
        check_toml_text(over)


# ------------------------------------------------------------------ strings and comments
TRICKY = '''\
# a comment with [[[[ {{{{ a.b.c.d = and "quotes and 'apostrophes
basic = "[[[[{{{{ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r # not a comment ]] \\" still ["
literal = '[[[[ \\ {{{{ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r = "'
multi = """
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t = 1
{{{{ \\""" "" ' # no comment
ends with quotes"""""
multi_literal = \'\'\'
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ \\
it's '' fine\'\'\'\'
"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s" = "a quoted key with dots is one part"
'[[[[' = 'a literal key of brackets'
array = [ "]", '[', """]]""", { k = "}" }, [ "{" ], # a comment ] ] ]
  "# not a comment", ]
date = 1979-05-27 07:32:00Z
inline = { "}" = "{", a.b = [ "]]]]" ] }

["table . with [brackets]".'and dots']
x = 1
'''


def test_brackets_dots_and_hashes_inside_strings_and_comments_count_for_nothing() -> None:
    data = tomllib.loads(TRICKY)
    assert data["multi"].startswith("[[[[") and data["multi"].endswith('quotes""')
    assert data["multi_literal"].endswith("'' fine'")
    assert data["array"][-1] == "# not a comment"
    assert data["table . with [brackets]"]["and dots"] == {"x": 1}
    m = toml_measures(TRICKY)
    assert m["nesting"] == 2      # array > inline table / array, inline > array
    assert m["key_parts"] == 2    # inline.a.b (inline's own key is counted alone)
    assert m["key_chars"] == len("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s")
    parse_sheet_text(Anything, TRICKY, "tricky.toml")


@pytest.mark.parametrize("before", [
    's = "a \\" [[[[ \\\\"\n', "s = 'a \\'\n", 's = """ \\""" [[[ """""\n',
    "s = '''it's '' [[[ ''''\n", "s = [\"]\", '[', # ]]]\n]\n", "# \"\"\" not a string\n",
    "s = { a = \"}\", b = '{' }\n", '"\\"" = 1\n',
])
def test_a_bomb_after_a_tricky_string_is_still_found_on_its_line(before: str,
                                                                 no_tomllib: list[str]) -> None:
    text = before + "ok = 1\n" + "x = " + "[" * 40 + "]" * 40 + "\n"
    with pytest.raises(SheetError) as err:
        parse_sheet_text(Anything, text, "t.toml")
    assert err.value.line == before.count("\n") + 2
    assert f"at most {MAX_NESTING} levels" in err.value.message


@pytest.mark.parametrize(("text", "line", "words"), [
    ('a = 1\nb = "not closed\nc = 2\n', 2, "string is not closed"),
    ('a = """\nnever\nclosed\n', 1, 'multi-line string (""") is not closed'),
    ("a = 1\nb = 'not closed\nc = 2\n", 2, "string is not closed on its line"),
    ("a = 2\nb = '''\nnever\nclosed\n", 2, "multi-line string (''') is not closed"),
    ("a = 1\nb 2\n", 2, "expected '='"),
    ("[t\nx = 1\n", 1, "to close the table header"),
    ('x = [1 "a"]\n', 1, "expected ',' or ']'"),
    ("x = { a = 1\n, b = 2 }\n", 1, "an inline table is written on one line"),
    ("x = \n", 1, "expected a value"),
    ("x = 1 y = 2\n", None, ""),   # one scalar for the guard: tomllib refuses it
])
def test_text_whose_structure_cannot_be_followed_is_not_toml(text: str, line: int | None,
                                                             words: str) -> None:
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    if line is None:
        check_toml_text(text)
        with pytest.raises(SheetError, match="not valid TOML"):
            parse_sheet_text(Anything, text, "t.toml")
        return
    with pytest.raises(SheetError) as err:
        check_toml_text(text)
    assert err.value.line == line
    assert err.value.message.startswith("not valid TOML: ")
    assert words in err.value.message


# ------------------------------------------------------------------ the shipped sheets pass
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_shipped_sheet_keeps_a_wide_margin_to_every_limit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    m = toml_measures(text, str(path))
    assert m["bytes"] * 4 <= MAX_TEXT_BYTES
    assert m["lines"] * 10 <= MAX_LINES
    assert m["line_chars"] * 5 <= MAX_LINE_CHARS
    assert m["key_chars"] * 4 <= MAX_KEY_CHARS
    assert m["key_parts"] * 8 <= MAX_KEY_PARTS
    assert m["nesting"] * 8 <= MAX_NESTING
    assert m["values"] * 20 <= MAX_VALUES
    depth, items = data_measures(tomllib.loads(text))
    assert depth * 8 <= MAX_DATA_DEPTH and items * 50 <= MAX_DATA_ITEMS


def test_the_documented_maxima_of_the_shipped_sheets_are_true() -> None:
    """The module docstring gives the shipped sheets' maxima; they must stay true."""
    most: dict[str, int] = {}
    for path in SHIPPED:
        for k, v in toml_measures(path.read_text(encoding="utf-8")).items():
            most[k] = max(most.get(k, 0), v)
    assert most == {"bytes": 8472, "lines": 349, "line_chars": 466, "key_chars": 23,
                    "key_parts": 1, "nesting": 4, "values": 685}
    data = [meeple.new_game(g.name, players=g.min_players).sheet_data() for g in meeple.games()]
    data += [meeple.new_game(game, sheet=p.stem).sheet_data() for game in UPLOAD_GAMES
             for p in SHIPPED if p.parent.parent.name == game]
    assert max(data_measures(d)[0] for d in data) == 7
    assert max(data_measures(d)[1] for d in data) == 914


@pytest.mark.parametrize("game", UPLOAD_GAMES)
def test_every_shipped_sheet_still_builds_its_game_and_its_data_rebuilds_it(game: str) -> None:
    for path in SHIPPED:
        if path.parent.parent.name != game:
            continue
        state = meeple.new_game(game, players=1, sheet=str(path))  # read as a user's file
        again = meeple.new_game(game, players=1, sheet=state.sheet_data())
        assert again.sheet_data() == state.sheet_data()
    assert meeple.new_game("pergola", players=2).sheet_data()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.integers(0, 10**6), st.integers(0, 4),
       st.lists(st.sampled_from(['"', "'", '"""', "'''", "[", "]", "{", "}", ",", ".", "=", "#",
                                 "\n", " ", "\\", "a", "1", '"x"', "'y'", "[[", "]]"]),
                min_size=1, max_size=4))
def test_the_guard_never_refuses_what_tomllib_reads(path: Path, at: int, cut: int,
                                                    insert: list[str]) -> None:
    """A shipped sheet with a few characters changed anywhere: if tomllib reads it, the guard
    passes it (the guard's own reading of TOML refuses nothing valid)."""
    text = path.read_text(encoding="utf-8")
    at %= len(text)
    changed = text[:at] + "".join(insert) + text[at + cut:]
    try:
        tomllib.loads(changed)
    except tomllib.TOMLDecodeError:
        return
    check_toml_text(changed)


# ------------------------------------------------------------------ sheet data (JSON)
def _deep_dict(levels: int) -> dict[str, Any]:
    data: dict[str, Any] = {"leaf": 1}
    for _ in range(levels - 1):
        data = {"a": data}
    return data


def _deep_list(levels: int) -> list[Any]:
    data: list[Any] = []
    for _ in range(levels - 1):
        data = [data]
    return data


def test_data_at_the_depth_limit_passes_and_one_level_more_is_refused() -> None:
    assert data_measures(_deep_dict(MAX_DATA_DEPTH)) == (MAX_DATA_DEPTH, MAX_DATA_DEPTH + 1)
    assert data_problem(_deep_dict(MAX_DATA_DEPTH)) is None
    problem = data_problem(_deep_dict(MAX_DATA_DEPTH + 1))
    assert problem is not None
    assert problem[0] == ["a"] * MAX_DATA_DEPTH
    assert f"nested at most {MAX_DATA_DEPTH} levels" in problem[1]


def test_data_at_the_item_limit_passes_and_one_more_is_refused() -> None:
    assert data_problem({"x": [0] * (MAX_DATA_ITEMS - 2)}) is None
    problem = data_problem({"x": [0] * (MAX_DATA_ITEMS - 1)})
    assert problem is not None and problem[0] == ["x"]
    assert f"at most {MAX_DATA_ITEMS} items" in problem[1]


DEEP = {"dict 100,000 deep": {"fields": [_deep_dict(100_000)]},
        "list 100,000 deep": {"fields": _deep_list(100_000)},
        "mixed": {"scoring": {"a": [[{"b": _deep_list(10_000)}]]}}}


def _models() -> dict[str, tuple[type[SheetModel], Path]]:
    from meeple.games.gardens.sheet import SHEETS_DIR, GardensSheet
    from meeple.games.reefs.sheet import SHIPPED_DIR, ReefsSheet
    from meeple.games.takenokolor.sheet import SHIPPED_DIR as TK_DIR
    from meeple.games.takenokolor.sheet import Sheet

    return {"gardens": (GardensSheet, SHEETS_DIR), "reefs": (ReefsSheet, SHIPPED_DIR),
            "takenokolor": (Sheet, TK_DIR)}


@pytest.mark.parametrize("kind", list(DEEP))
@pytest.mark.parametrize("game", UPLOAD_GAMES)
def test_deep_sheet_data_is_refused_naming_the_field_without_recursion(game: str,
                                                                       kind: str) -> None:
    model, folder = _models()[game]
    with pytest.raises(SheetProblems) as err:
        load_sheet(model, DEEP[kind], folder)
    [(line, where, message)] = err.value.problems
    assert line is None
    assert where.startswith(("fields[0].a.a", "fields[0][0][0]", "scoring.a[0][0]"))
    assert "..." in where and len(where) < 80
    assert f"nested at most {MAX_DATA_DEPTH} levels" in message


@pytest.mark.parametrize("game", UPLOAD_GAMES)
def test_deep_sheet_data_given_to_new_game(game: str) -> None:
    with pytest.raises(SheetError):
        meeple.new_game(game, players=1, sheet=DEEP["list 100,000 deep"])


def test_huge_or_cyclic_sheet_data_is_refused() -> None:
    with pytest.raises(SheetProblems, match=f"at most {MAX_DATA_ITEMS} items"):
        meeple.new_game("gardens", sheet={"fields": [{"id": "A1"}] * 30_000})
    with pytest.raises(SheetProblems, match=f"at most {MAX_DATA_ITEMS} items"):
        meeple.new_game("takenokolor", sheet={"areas": [[0] * 1_000] * 100})
    loop: dict[str, Any] = {"fields": []}
    loop["fields"].append(loop)
    with pytest.raises(SheetProblems, match="nested at most"):
        check_sheet_data(loop, path="<sheet data>")


def test_data_is_refused_before_pydantic_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("pydantic was called on data the guard should refuse")

    monkeypatch.setattr(Anything, "model_validate", refuse)
    with pytest.raises(SheetProblems) as err:
        validate_data(Anything, {"x": _deep_list(5_000)}, path="<sheet data>")
    assert err.value.problems[0][1].startswith("x[0][0]")


def test_deep_data_read_from_toml_is_refused_with_its_line() -> None:
    """The TOML limits together let a text's data just pass depth 64 (an array of tables of 16
    parts, a key of 16, 32 arrays): the data check names the field and the line of its table."""
    header = "[[" + ".".join(["t"] * MAX_KEY_PARTS) + "]]\n"
    key = ".".join(["k"] * MAX_KEY_PARTS)
    text = "a = 1\n" + header + key + " = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n"
    check_toml_text(text)
    with pytest.raises(SheetProblems) as err:
        parse_sheet_text(Anything, text, "deep.toml")
    [(line, where, message)] = err.value.problems
    assert line == 2 and where.startswith("t.t.t.t....") and "nested at most" in message


# ------------------------------------------------------------------ many problems
def test_the_problems_listed_are_bounded_and_the_rest_counted(tmp_path: Path) -> None:
    text = (resources.files("meeple.games") / "gardens" / "sheets" / "level-1.toml").read_text(
        "utf-8")
    text = "".join(f"unknown{i} = {i}\n" for i in range(300)) + text
    path = tmp_path / "many.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SheetProblems) as err:
        meeple.new_game("gardens", sheet=str(path))
    problems = err.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert [(ln, w) for ln, w, _ in problems[:3]] == [(1, "unknown0"), (2, "unknown1"),
                                                     (3, "unknown2")]
    assert problems[-1] == (None, "(sheet)", f"and {300 - MAX_PROBLEMS} more problems (the "
                                             f"first {MAX_PROBLEMS} are listed)")

