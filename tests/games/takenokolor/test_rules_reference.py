"""Every ruling id the Takenokolor code, its messages and its tests cite is explained in the
project's rules reference, docs/rules/takenokolor.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "docs" / "rules" / "takenokolor.md"


def _cited() -> set[str]:
    ids: set[str] = set()
    for folder in (ROOT / "src/meeple/games/takenokolor", ROOT / "tests/games/takenokolor",
                   ROOT / "docs"):
        for path in folder.rglob("*"):
            if path.suffix in (".py", ".toml") or path.name == "takenokolor.md":
                ids |= set(re.findall(r"\b([TA][1-9][0-9]?)\b", path.read_text(encoding="utf-8")))
    return ids


def test_every_cited_id_is_explained_in_the_rules_reference() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    explained = set(re.findall(r"^- \*\*([TA][0-9]+)\.", text, flags=re.M))
    cited = _cited()
    assert {"T3", "T4", "T6", "T7", "A3", "A5"} <= cited
    assert cited <= explained, sorted(cited - explained)
    assert explained >= {f"T{k}" for k in range(1, 9)} | {f"A{k}" for k in range(1, 6)}
