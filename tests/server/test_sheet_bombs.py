"""Hostile sheets over the API (issue 35): a dotted-key bomb, arrays and inline tables nested
thousands deep, a huge key, a flood of lines, deep or huge JSON sheet data. Each is refused
with a 4xx whose body names the problem (line or field, and the limit), never a server error,
and the server goes on answering (a real ``meeple serve`` process, see conftest.py)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import httpx
import pytest

from meeple.core.tomlguard import (
    MAX_DATA_ITEMS,
    MAX_KEY_CHARS,
    MAX_KEY_PARTS,
    MAX_LINE_CHARS,
    MAX_LINES,
    MAX_NESTING,
    MAX_TEXT_BYTES,
)
from meeple.server.table.uploads import MAX_SHEET_BYTES, SheetRejected, build
from tests.server.conftest import SQLITE_ONLY, Server

#: The parsers' bounds are the same on either store (nothing a bomb sends is stored): SQLite only.
pytestmark = SQLITE_ONLY

HEAD = 'name = "bomb"\nlevel = 1\n'  # the bomb is on line 3


def _over_lines(levels: int, per_line: int, opener: str, closer: str) -> str:
    rows = levels // per_line
    return "x = " + "\n".join([opener * per_line] * rows) + "\n" + "\n".join(
        [closer * per_line] * rows) + "\n"


BOMBS: dict[str, tuple[str, int, str]] = {
    "dotted key, 40 KB on one line": (HEAD + "a" + ".a" * 20_000 + " = 1\n", 3,
                                      f"at most {MAX_LINE_CHARS} characters"),
    "dotted keys, 40 KB over 20 lines": (
        HEAD + "".join(f"k{i}" + ".a" * 1_000 + " = 1\n" for i in range(20)), 3,
        f"at most {MAX_KEY_PARTS} parts"),
    "dotted table header": (HEAD + "[" + ".".join(["t"] * 1_500) + "]\n", 3,
                            f"at most {MAX_KEY_PARTS} parts"),
    "10,000-deep arrays": (HEAD + _over_lines(10_000, 1_000, "[", "]"), 3,
                           f"at most {MAX_NESTING} levels"),
    "10,000-deep inline tables": (HEAD + "x = " + "{a=" * 10_000 + "1" + "}" * 10_000 + "\n", 3,
                                  f"at most {MAX_LINE_CHARS} characters"),
    "deep inline tables and arrays": (HEAD + _over_lines(5_000, 250, "{a = [", "]}"), 3,
                                      f"at most {MAX_NESTING} levels"),
    "huge quoted key": (HEAD + '"' + "k" * 3_000 + '" = 1\n', 3,
                        f"at most {MAX_KEY_CHARS} characters"),
    "many lines": (HEAD + "#\n" * 20_000, MAX_LINES + 1, f"at most {MAX_LINES} lines"),
}


def check(server: Server, game: str, text: str) -> httpx.Response:
    return server.api("POST", f"/api/sheets/{game}/check", content=text.encode("utf-8"),
                      headers={"content-type": "application/toml"})


def tables(server: Server) -> set[str]:
    return {t["id"] for status in ("waiting", "running", "finished")
            for t in server.api("GET", f"/api/tables?status={status}").json()}


def create(server: Server, game: str, sheet: Any) -> httpx.Response:
    return server.api("POST", "/api/tables", json={
        "game": game, "sheet": sheet, "seats": [{"kind": "bot", "bot": "random"}] * 2})


def assert_refused(r: httpx.Response, line: int | None, words: str, field: str = "(file)"
                   ) -> None:
    assert r.status_code == 422, r.text
    out = r.json()
    assert out["detail"].startswith("not a valid ") and "1 problem" in out["detail"]
    [problem] = out["problems"]
    assert problem["line"] == line
    assert problem["field"].startswith(field)
    assert words in problem["message"]
    assert "/tmp" not in r.text and "meeple-sheet-" not in r.text


def alive(server: Server) -> None:
    assert server.proc is not None and server.proc.poll() is None
    assert server.api("GET", "/api/games").status_code == 200


def test_the_server_limit_and_the_parser_limit_agree() -> None:
    assert MAX_SHEET_BYTES == MAX_TEXT_BYTES
    assert all(len(text.encode()) <= MAX_SHEET_BYTES for text, _, _ in BOMBS.values())


@pytest.mark.parametrize("name", list(BOMBS))
@pytest.mark.parametrize("game", ["gardens", "takenokolor"])
def test_a_bomb_sent_to_the_check_is_refused_with_its_line(server: Server, game: str,
                                                          name: str) -> None:
    text, line, words = BOMBS[name]
    assert_refused(check(server, game, text), line, words)
    alive(server)


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_bomb_given_as_a_table_sheet_creates_nothing(server: Server, name: str) -> None:
    text, line, words = BOMBS[name]
    before = tables(server)
    assert_refused(create(server, "reefs", text), line, words)
    assert tables(server) == before
    alive(server)


def test_sheet_text_with_a_lone_surrogate_is_refused_with_its_line(server: Server) -> None:
    """JSON can carry what no UTF-8 file holds ("\\ud800"): refused, not a server error."""
    body = ('{"game": "gardens", "seats": [{"kind": "bot", "bot": "random"}], '
            '"sheet": "level = 1\\nname = \\"\\ud800\\"\\n"}')
    r = server.api("POST", "/api/tables", content=body.encode(),
                   headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    # the server's strict JSON reading refuses it before the sheet is looked at (the sheet
    # reader's own check, with the line, is tested in tests/core/test_tomlguard.py)
    assert "lone surrogate" in r.json()["detail"]
    alive(server)


def _deep(levels: int, leaf: Any) -> Any:
    data = leaf
    for i in range(levels):
        data = {"a": data} if i % 2 else [data]
    return data


@pytest.mark.parametrize("game", ["gardens", "reefs", "takenokolor"])
def test_deep_sheet_data_is_refused_naming_the_field(server: Server, game: str) -> None:
    before = tables(server)
    r = create(server, game, {"fields": _deep(500, 1)})  # deep, and still JSON a parser takes
    # refused by the server's strict JSON reading (at most 32 levels) before the sheet reader
    # (at most MAX_DATA_DEPTH, tested in tests/core/test_tomlguard.py) sees it
    assert r.status_code == 422, r.text
    assert "nested more than 32 levels" in r.json()["detail"]
    assert tables(server) == before
    alive(server)


def test_sheet_data_too_deep_for_the_json_parser_is_a_client_error(server: Server) -> None:
    body = ('{"game": "gardens", "seats": [{"kind": "bot", "bot": "random"}], "sheet": '
            + '{"a": [' * 50_000 + "1" + "]}" * 50_000 + "}")
    r = server.api("POST", "/api/tables", content=body.encode(),
                   headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["detail"]
    alive(server)


def test_huge_sheet_data_is_refused_with_the_item_limit(server: Server) -> None:
    sheet = {"fields": [[0] * 1_000] * 60}
    assert len(json.dumps(sheet)) < 256 * 1024  # under the server's byte limit on data
    assert_refused(create(server, "takenokolor", sheet), None, f"at most {MAX_DATA_ITEMS} items",
                   field="fields")
    alive(server)


def test_deeper_data_than_json_can_carry_is_refused_in_process_too() -> None:
    """What the API cannot deliver (its JSON parser stops first) but a caller of
    ``uploads.build`` can: refused by the check, not by a RecursionError."""
    for game in ("gardens", "reefs", "takenokolor"):
        with pytest.raises(SheetRejected) as err:
            build(game, {"fields": _deep(100_000, 1)})
        assert err.value.status == 422
        assert err.value.problems[0][1].startswith("fields")


def test_after_the_bombs_the_server_checks_sheets_and_logged_no_traceback(server: Server
                                                                           ) -> None:
    text = (resources.files("meeple.games") / "gardens" / "sheets" / "level-2.toml").read_text(
        "utf-8")
    r = check(server, "gardens", text)
    assert r.status_code == 200, r.text
    assert r.json()["valid"] is True
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and "RecursionError" not in log
