"""docs/rules/gardens.md explains every rule id the Gardens code, its messages and its tests
cite, so a clone of the project can look each one up."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "gardens.md"

#: an id as the code cites it: "(G4)", "G3/G9:", "# A2:", "RULINGS G1-G12", a test_g6_ name
CITED = re.compile(r"(?:(?<=[(\s,/\"])|^)([GA]\d{1,2})(?=[):,/ .-]|$)|def test_([ga]\d{1,2})_",
                   re.MULTILINE)
FIELD_IDS = re.compile(r"\"[A-Z]\d{1,2}\"|\b[A-Z]\d{1,2}\.\.|sheet A1|A1\.\.An")


def cited_ids() -> set[str]:
    found: set[str] = set()
    files = [*(ROOT / "src/meeple/games/gardens").glob("*.py"),
             *(ROOT / "tests/games/gardens").glob("test_rules.py")]
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            # a rule is cited in prose, a message or a test name; field ids ("A1") are not
            if not re.search(r"#|\"\"\"|\(|def test_|G\d|A\d:", line):
                continue
            line = FIELD_IDS.sub("", line)
            for m in CITED.finditer(line):
                found.add((m.group(1) or m.group(2)).upper())
    found |= {f"G{n}" for n in range(1, 13)}  # RULINGS G1-G12, cited as a range
    return found


def test_every_cited_id_is_explained_in_the_rules_reference() -> None:
    text = DOC.read_text(encoding="utf-8")
    explained = set(re.findall(r"\*\*([GA]\d{1,2})\.", text))
    cited = cited_ids()
    assert {"A1", "A2", "A3", "A4", "G1", "G4", "G12"} <= cited
    assert cited <= explained, sorted(cited - explained)


def test_every_reconstructed_value_names_its_sheet_key() -> None:
    text = DOC.read_text(encoding="utf-8")
    import tomllib

    keys = set()
    for name in ("level-1", "level-2", "level-3"):
        data = tomllib.loads((ROOT / f"src/meeple/games/gardens/sheets/{name}.toml")
                             .read_text(encoding="utf-8"))
        keys |= set(data["scoring"])
    for key in keys:
        assert f"`[scoring] {key}`" in text or f"`{key}" in text, key
