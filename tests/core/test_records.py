"""meeple.core.records: one reader for every file meeple takes, and every record layout."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.errors import BadRecord, SheetError
from meeple.core.records import (
    FileProblem,
    check_output_file,
    check_output_folder,
    load_record,
    read_record_file,
    read_text,
)


def _record(seed: int = 1) -> dict[str, Any]:
    state = meeple.new_game("gardens", players=2, seed=seed)
    while not state.is_over and len(state.history) < 12:
        if state.to_move == meeple.CHANCE:
            state.sample_chance()
        else:
            state.play(state.legal_moves()[0])
    return state.record()


RECS = [_record(1), _record(2), _record(3)]


def test_every_layout_meeple_writes_reads_back(tmp_path: Path) -> None:
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(RECS[0], indent=1), encoding="utf-8")  # meeple play --record
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(RECS[0]), encoding="utf-8")
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in RECS), encoding="utf-8")
    assert read_record_file(pretty).records == [RECS[0]]
    assert read_record_file(pretty).layout == "one game"
    assert read_record_file(compact).records == [RECS[0]]
    found = read_record_file(lines)
    assert found.layout == "JSON lines" and found.records == RECS
    assert load_record(lines, 2) == RECS[2]
    assert meeple.load_record(pretty) == RECS[0]  # the public name still works
    assert meeple.replay(pretty).history == meeple.replay(RECS[0]).history


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"  \n\n", "is empty"),
        (b"\xff\xfe\x00\x01 binary", "is not UTF-8 text"),
        (b'name = "Level 1"\nlevel = 1\n', "is not JSON at all"),
        (b"[1, 2, 3]", "holds a JSON list, not a game record"),
        (b'{"name": "a sheet"}', "is a JSON object but not a game record"),
        (b'{"game": "gardens",\n "players": 2,\n "moves": [', "is cut off"),
        (b'{"game":"gardens","players":2,"moves":[]}\nnot json\n{"game":"x"}\n',
         "is not a JSON game record: line 2 is not valid JSON"),
        (b'{"game":"gardens","players":2,"moves":[]}\n[1]\n', "line 2 holds a JSON list"),
        (b'{"game":"gardens","players":2,"moves":[]}\n{"game":"gard', "its last line (2)"),
    ],
)
def test_a_file_that_is_not_records_is_refused_with_the_path_and_why(
        tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(BadRecord) as info:
        read_record_file(path)
    text = str(info.value)
    assert str(path) in text and message in text
    assert "meeple reads game records" in text  # what is allowed


def test_folders_missing_files_and_pipes_are_refused(tmp_path: Path) -> None:
    cases = {
        tmp_path: "is a folder, not a file",
        tmp_path / "none.json": "no such file",
        tmp_path / "no" / "such" / "x.json": "the folder " + str(tmp_path / "no" / "such"),
    }
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # reading it would block forever: it must be refused before any read
    cases[fifo] = "is not a regular file"
    for path, message in cases.items():
        with pytest.raises(BadRecord, match="meeple reads game records") as info:
            read_record_file(path)
        assert message in str(info.value)


def test_an_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root, where chmod 000 does not stop reading: simulate the refusal instead.
    path = tmp_path / "secret.json"
    path.write_text(json.dumps(RECS[0]))
    real = Path.read_bytes

    def denied(self: Path) -> bytes:
        if self == path:
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(BadRecord, match="cannot be read: permission denied"):
        read_record_file(path)
    with pytest.raises(FileProblem, match="permission denied"):
        read_text(path)


def test_a_byte_order_mark_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECS[0]).encode())
    assert read_record_file(path).records == [RECS[0]]


def test_missing_and_empty_are_allowed_only_when_asked(tmp_path: Path) -> None:
    assert read_record_file(tmp_path / "new.jsonl", missing_ok=True).records == []
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert read_record_file(empty, empty_ok=True).layout == "empty"
    with pytest.raises(BadRecord, match="the folder"):
        read_record_file(tmp_path / "nodir" / "new.jsonl", missing_ok=True)


def test_index_out_of_range_says_which_indexes_exist(tmp_path: Path) -> None:
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in RECS))
    with pytest.raises(BadRecord, match="holds 3 game records; there is no record 5 "
                                        r"\(indexes go from 0 to 2\)"):
        load_record(lines, 5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(min_value=0.0, max_value=1.0), pretty=st.booleans())
def test_a_file_cut_anywhere_gives_its_complete_records_or_a_clear_error(
        tmp_path: Path, cut: float, pretty: bool) -> None:
    """Whatever byte a record file is cut at, reading it gives the records before the cut (a
    JSON-lines file with ``torn_tail_ok``) or a BadRecord, never another exception."""
    if pretty:
        data = json.dumps(RECS[0], indent=1).encode()
    else:
        data = "".join(json.dumps(r) + "\n" for r in RECS).encode()
    path = tmp_path / "cut.json"
    path.write_bytes(data[:int(len(data) * cut)])
    for torn_ok in (False, True):
        try:
            found = read_record_file(path, empty_ok=True, torn_tail_ok=torn_ok)
        except BadRecord as exc:
            assert str(path) in str(exc)
            continue
        assert found.records == RECS[:len(found.records)]


def test_output_checks_name_the_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert check_output_file(tmp_path / "new.jsonl") == tmp_path / "new.jsonl"
    with pytest.raises(FileProblem, match="is a folder"):
        check_output_file(tmp_path)
    with pytest.raises(FileProblem, match="does not exist"):
        check_output_file(tmp_path / "nodir" / "x.jsonl")
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileProblem, match="is a file, not a folder"):
        check_output_file(tmp_path / "file" / "x.jsonl")
    with pytest.raises(FileProblem, match="is a file, not a folder"):
        check_output_folder(tmp_path / "file")
    with pytest.raises(FileProblem, match="does not exist"):
        check_output_folder(tmp_path / "nodir" / "report")
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)
    with pytest.raises(FileProblem, match="permission denied"):
        check_output_file(tmp_path / "file")
    with pytest.raises(FileProblem, match="not writable"):
        check_output_file(tmp_path / "new.jsonl")


def test_sheet_files_use_the_same_reader(tmp_path: Path) -> None:
    bad = tmp_path / "sheet.toml"
    bad.write_bytes(b"name = \"\xe9t\xe9\"\n")  # Latin-1, not UTF-8
    for game in ("gardens", "reefs", "takenokolor", "pergola"):
        with pytest.raises(SheetError, match="is not UTF-8 text") as info:
            meeple.new_game(game, players=1, sheet=str(bad))
        assert str(bad) in str(info.value)
    with pytest.raises(SheetError, match="is empty"):
        (tmp_path / "empty.toml").write_text("")
        meeple.new_game("gardens", sheet=str(tmp_path / "empty.toml"))
    with pytest.raises(SheetError, match="is a folder"):
        meeple.new_game("gardens", sheet=str(tmp_path))


def test_gzip_record_files_are_read_and_a_damaged_one_refused(tmp_path: Path) -> None:
    import gzip

    data = "".join(json.dumps(r) + "\n" for r in RECS).encode()
    path = tmp_path / "games.jsonl.gz"
    path.write_bytes(gzip.compress(data))
    assert read_record_file(path).records == RECS
    path.write_bytes(gzip.compress(data)[:50])
    with pytest.raises(BadRecord, match="damaged or cut-off gzip file"):
        read_record_file(path)


def test_games_are_never_appended_to_a_gzip_file(tmp_path: Path) -> None:
    import gzip

    from meeple.sim.runner import prepare_out

    path = tmp_path / "games.jsonl.gz"
    packed = gzip.compress(json.dumps(RECS[0]).encode() + b"\n")
    path.write_bytes(packed)
    with pytest.raises(BadRecord, match="is gzip-compressed"):
        prepare_out(path)
    assert path.read_bytes() == packed
