"""docs/rules/pergola.md explains every rule id the Pergola code, its messages, its move help and
its tests cite, and names the file and key of every value in the shipped data bundle."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from meeple.core.present import presentation

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "pergola.md"
#: a ruling id: P1-P10, P2a, A1-A5 (tool ids S01/H12 and leaf ids G1/R4 never start with P or A)
CITED = re.compile(r"\b([PA]\d{1,2}a?)\b|def test_([pa]\d{1,2}a?)_")


def cited_ids() -> set[str]:
    files = [*(ROOT / "src/meeple/games/pergola").glob("*.py"),
             *(ROOT / "tests/games/pergola").glob("*.py")]
    texts = [p.read_text(encoding="utf-8") for p in files if p.name != Path(__file__).name]
    texts.append(presentation("pergola").notation_help)
    found: set[str] = set()
    for text in texts:
        for m in CITED.finditer(text):
            rid = (m.group(1) or m.group(2)).upper()
            found.add(rid[:-1] + "a" if rid.endswith("A") else rid)  # P2a, cited as test_p2a_
    return found


def test_every_cited_id_is_explained_in_the_rules_reference() -> None:
    text = DOC.read_text(encoding="utf-8")
    explained = set(re.findall(r"\*\*([PA]\d{1,2}a?)\.", text))
    cited = cited_ids()
    assert {"A1", "P1", "P2a", "P5", "P7", "P8", "P9", "P10"} <= cited
    assert cited <= explained, sorted(cited - explained)


def test_every_shipped_data_key_is_named_with_its_file() -> None:
    text = DOC.read_text(encoding="utf-8")
    for path in sorted((ROOT / "src/meeple/games/pergola/sheets").glob("*.toml")):
        assert f"`{path.name}`" in text, path.name
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        keys: set[str] = set()
        for k, v in data.items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                keys.add(f"[[{k}]]")
                for row in v:
                    keys |= set(row)
            elif isinstance(v, dict):
                keys.add(f"[{k}]")
            else:
                keys.add(k)
        for key in keys:
            assert f"`{key}`" in text, (path.name, key)
