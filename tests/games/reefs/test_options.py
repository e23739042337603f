"""Level and sheet are one choice in Reefs (each level is a printed sheet): options that
contradict each other are refused, naming what is allowed, and nothing is started or saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.games.reefs.sheet import LEVEL_SHEETS, SHIPPED_DIR
from tests.games.reefs.helpers import lattice_sheet

runner = CliRunner()


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("sheet", sorted(LEVEL_SHEETS.values()))
def test_a_shipped_sheet_of_another_level_is_refused(level: int, sheet: str) -> None:
    own = next(lv for lv, name in LEVEL_SHEETS.items() if name == sheet)
    if own == level:
        s = meeple.new_game("reefs", players=2, level=level, sheet=sheet)
        assert s.variant() == {"level": level} and s.sheet_data()["name"] == sheet
        return
    with pytest.raises(meeple.BadVariant) as exc:
        meeple.new_game("reefs", players=2, level=level, sheet=sheet)
    msg = str(exc.value)
    assert f"sheet {sheet!r} is the level {own} sheet" in msg
    assert f"level {level} plays sheet {LEVEL_SHEETS[level]!r}" in msg


@pytest.mark.parametrize(("sheet", "level"), [(name, lv) for lv, name in LEVEL_SHEETS.items()])
def test_a_shipped_sheet_alone_brings_its_level(sheet: str, level: int) -> None:
    s = meeple.new_game("reefs", players=2, sheet=sheet)
    assert s.variant() == {"level": level}


def test_no_option_is_level_1() -> None:
    s = meeple.new_game("reefs", players=2)
    assert s.variant() == {"level": 1} and s.sheet_data()["name"] == "small-ocean"


def _own_file(tmp_path: Path, shipped: str) -> Path:
    path = tmp_path / "mine.toml"
    text = (SHIPPED_DIR / f"{shipped}.toml").read_text(encoding="utf-8")
    path.write_text(text.replace(f'name = "{shipped}"', 'name = "mine"'), encoding="utf-8")
    return path


def test_own_sheet_file_level_follows_its_items(tmp_path: Path) -> None:
    path = _own_file(tmp_path, "the-whirlpools")
    assert meeple.new_game("reefs", players=2, sheet=str(path)).variant() == {"level": 2}
    assert meeple.new_game("reefs", players=2, sheet=str(path), level=2).variant() == {
        "level": 2}
    with pytest.raises(meeple.BadVariant, match=r"has whirlpools \(level 2\), which the level 1"):
        meeple.new_game("reefs", players=2, sheet=str(path), level=1)
    plain = _own_file(tmp_path, "small-ocean")
    assert meeple.new_game("reefs", players=2, sheet=str(plain)).variant() == {"level": 1}


def test_sheet_data_keeps_the_level_given_so_records_replay() -> None:
    data = lattice_sheet(whirlpools=("c3",))
    s = meeple.new_game("reefs", players=1, sheet=data, level=1)
    assert s.variant() == {"level": 1}
    rec = s.record()
    assert meeple.replay(rec).variant() == {"level": 1}


def test_cli_refuses_contradicting_options_and_saves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "reefs", "--level", "2", "--sheet", "small-ocean",
                                 "--seats", "me,random", "--record", str(out)], input="quit\ny\n")
    assert result.exit_code == 2, result.output
    assert "level 1 sheet" in result.output and "the-whirlpools" in result.output
    assert not out.exists()


def test_cli_plays_a_shipped_sheet_alone_at_its_level(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "reefs", "--sheet", "the-propellers", "--seats",
                                 "random", "--seed", "2", "--record", str(out)])
    assert result.exit_code == 0, result.output
    rec = json.loads(out.read_text(encoding="utf-8"))
    assert rec["variant"] == {"level": 3} and rec["sheet"]["name"] == "the-propellers"


# ---------------------------------------------------------------------- the rules reference

ROOT = Path(__file__).resolve().parents[3]


def test_every_ruling_id_the_reefs_code_cites_is_explained_in_the_rules_reference() -> None:
    import re

    doc = (ROOT / "docs" / "rules" / "reefs.md").read_text(encoding="utf-8")
    explained = set(re.findall(r"^- \*\*([A-Z][0-9]+[a-z]?)\. ", doc, re.M))
    cited: set[str] = set()
    for folder in (ROOT / "src" / "meeple" / "games" / "reefs", ROOT / "tests" / "games" / "reefs"):
        for path in folder.glob("*.py"):
            text = path.read_text(encoding="utf-8")
            for m in re.finditer(r"\b([RAG])([0-9]{1,2})(?:-[RAG]?([0-9]{1,2}))?\b", text):
                lo = int(m.group(2))
                hi = int(m.group(3)) if m.group(3) else lo
                cited.update(f"{m.group(1)}{n}" for n in range(lo, hi + 1))
    assert {"R1", "R12", "R16", "G2", "A5"} <= cited
    assert cited <= explained, sorted(cited - explained)
    assert {f"R{n}" for n in range(1, 17)} <= explained


def test_every_sheet_key_with_a_reconstructed_value_is_named_in_the_rules_reference() -> None:
    doc = (ROOT / "docs" / "rules" / "reefs.md").read_text(encoding="utf-8")
    for key in ("`spaces`", "`connections`", "`entry_points`", "`treasures`", "`coins`",
                "`whirlpools`", "`propellers`", "`treasure_rows.<colour>.values`",
                "`treasure_rows.<colour>.grey`", "`coin_row.values`", "`bonus.two_each`",
                "`bonus.full_row`", "`bonus.end_grey`", "`bonus.end_coins`"):
        assert key in doc, key
